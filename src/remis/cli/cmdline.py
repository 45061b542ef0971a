"""The process's own command line, as ``ps`` shows it to every user of the
machine: a secret given as an argument (a database password) is masked
there as soon as the command starts.

Linux keeps the arguments a process was started with in its own memory, and
``/proc/PID/cmdline`` reads them from there; overwriting the secret's bytes
in place hides it from ``ps`` (Python's ``sys.argv`` is a copy, and keeps
it).  Elsewhere nothing is changed.  Before the mask, for the moment the
interpreter takes to start, the secret was visible: a URL in an environment
variable, or libpq's ``PGPASSWORD`` or ``~/.pgpass``, keeps it out of ``ps``
altogether.
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path


def hide(secret: str | None) -> bool:
    """Overwrite every occurrence of ``secret`` in this process's command
    line with ``*``; whether it was there and is now hidden (False: nothing
    to hide, not Linux, or the command line is not where the kernel says).

    >>> hide(None), hide("")
    (False, False)
    >>> hide("a secret no command line holds")
    False
    """
    if not secret or not sys.platform.startswith("linux"):
        return False
    target = secret.encode()
    try:
        # fields 48 and 49 of /proc/self/stat: where the arguments lie in memory
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        start, end = int(fields[45]), int(fields[46])
        shown = Path("/proc/self/cmdline").read_bytes()
    except (OSError, IndexError, ValueError):
        return False
    if target not in shown or not 0 < end - start == len(shown):
        return False
    if ctypes.string_at(start, end - start) != shown:
        return False  # not the memory the kernel reads: leave it alone
    found = shown.find(target)
    while found >= 0:
        ctypes.memset(start + found, ord("*"), len(target))
        found = shown.find(target, found + len(target))
    return target not in Path("/proc/self/cmdline").read_bytes()

"""What the documentation tests read: the pages, and the commands of their
```` ```console ```` blocks."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the README and every page of the site
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _complete(command: str) -> bool:
    """Whether ``command`` is a whole shell line (its quotes closed, no
    trailing backslash).

    >>> _complete("echo '{\\"a\\": 1,"), _complete("echo 'x' | wc -l")
    (False, True)
    """
    if command.endswith("\\"):
        return False
    try:
        shlex.split(command, comments=True)
    except ValueError:
        return False
    return True


def commands(block: str) -> Iterator[tuple[str, str, int]]:
    """The ``$`` commands of a console block, each with the output shown
    under it (stripped of blank lines around it) and its line within the
    block (from 0).  A command goes on over the next lines while its quotes
    are open or a line ends with a backslash.

    >>> list(commands("$ echo 'a\\nb' | wc -l\\n2\\n$ true\\n"))
    [("echo 'a\\nb' | wc -l", '2', 0), ('true', '', 3)]
    """
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        start, command = i, lines[i][2:]
        while not _complete(command) and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        i += 1
        out = []
        while i < len(lines) and not lines[i].startswith("$ "):
            out.append(lines[i])
            i += 1
        yield command, "\n".join(out).strip("\n"), start

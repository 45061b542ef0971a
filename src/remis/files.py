"""What a path named on the command line is, said plainly when it cannot be
read: no such file, a symbolic link to a missing file or in a loop, a
directory, a socket, a file that may not be read.  A FIFO (``<(zcat x.pgn.gz)``)
and a character device are read as streams, like standard input.
"""

from __future__ import annotations

import errno
import os
import stat


def is_regular(path: str) -> bool:
    """Whether ``path`` is a regular file (after symbolic links): one that can
    be cut into byte ranges and read again; a FIFO, stdin or a device is a
    stream, read once.

    >>> is_regular(__file__), is_regular("/dev/null"), is_regular("-"), is_regular("/nonexistent")
    (True, False, False, False)
    """
    if path == "-":
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def why_unreadable(path: str, *, folders: bool = False) -> str | None:
    """Why ``path`` cannot be read as a file of games, or None when it can
    (``-`` is standard input; ``folders``: a directory is read too).  A
    regular file is opened to see that it may be read; a FIFO is not (opening
    it waits for a writer).

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> os.symlink(os.path.join(d, "gone.pgn"), os.path.join(d, "link.pgn"))
    >>> why_unreadable(os.path.join(d, "link.pgn"))  # doctest: +ELLIPSIS
    'a symbolic link to .../gone.pgn, which does not exist'
    >>> why_unreadable(d), why_unreadable(d, folders=True), why_unreadable(__file__)
    ('a directory, not a file', None, None)
    >>> why_unreadable(os.path.join(d, "none.pgn"))
    'no such file'
    """
    if path == "-":
        return None
    try:
        st = os.stat(path)
    except OSError as exc:
        return os_error_text(path, exc)
    except ValueError:  # a NUL byte in the name
        return "not a valid file name"
    if stat.S_ISDIR(st.st_mode):
        return None if folders else "a directory, not a file"
    if stat.S_ISSOCK(st.st_mode):
        return "a socket, not a file"
    if stat.S_ISREG(st.st_mode):
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            return os_error_text(path, exc)
    return None


def os_error_text(path: str, exc: OSError) -> str:
    """The words for an ``OSError`` met on ``path``: what the path is where
    the system's words would mislead (a dangling link is "no such file").

    >>> os_error_text("x.pgn", PermissionError(errno.EACCES, "Permission denied"))
    'permission denied: the file may not be read'
    >>> os_error_text("x.pgn", OSError(errno.EIO, "Input/output error"))
    'Input/output error'
    """
    code = exc.errno
    if code == errno.ENOENT:
        try:
            target = os.readlink(path)
        except OSError:
            return "no such file"
        return f"a symbolic link to {target}, which does not exist"
    if code == errno.ELOOP:
        return "a loop of symbolic links"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied: the file may not be read"
    if code == errno.EISDIR:
        return "a directory, not a file"
    if code == errno.ENOTDIR:
        return "no such file (a part of the path is not a directory)"
    return exc.strerror or str(exc)

"""Shared helpers of the CLI: JSON Lines output, error reporting, input lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any


def emit_json(obj: Any) -> None:
    """Print one JSON object on one line (JSON Lines), UTF-8, not ASCII-escaped.

    >>> emit_json({"a": 1})
    {"a": 1}
    """
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def warn(message: str) -> None:
    """Print an error message for the user on stderr, prefixed with ``remis:``.

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     warn("x.pgn: no such file")
    >>> err.getvalue()
    'remis: x.pgn: no such file\\n'
    """
    sys.stderr.write(f"remis: {message}\n")


def input_lines(arg: str) -> Iterator[str]:
    """The argument itself, or each non-empty line of stdin when it is ``-``.

    >>> list(input_lines("8/8/8/8/8/8/8/K1k5 w - - 0 1"))
    ['8/8/8/8/8/8/8/K1k5 w - - 0 1']
    """
    if arg != "-":
        yield arg
        return
    for line in sys.stdin:
        s = line.strip()
        if s:
            yield s

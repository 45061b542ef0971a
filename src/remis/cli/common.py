"""Shared helpers of the CLI: JSON Lines output, error reporting, input lines."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

#: one encoder for every line (``json.dumps`` with options builds one a call); the
#: objects are the CLI's own, never circular
_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def emit_json(obj: Any) -> None:
    """Print one JSON object on one line (JSON Lines), UTF-8, not ASCII-escaped.

    >>> emit_json({"a": 1, "b": "½"})
    {"a": 1, "b": "½"}
    """
    sys.stdout.write(_ENCODER.encode(obj) + "\n")


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


def input_lines(arg: str) -> Iterator[tuple[int, str]]:
    """The argument itself (as line 1), or each non-empty line of stdin when
    it is ``-``, with its line number in the input (blank lines are skipped
    but counted, so an error names the line a user sees in the file).

    >>> list(input_lines("8/8/8/8/8/8/8/K1k5 w - - 0 1"))
    [(1, '8/8/8/8/8/8/8/K1k5 w - - 0 1')]
    >>> import io, unittest.mock
    >>> with unittest.mock.patch("sys.stdin", io.StringIO("\\n  \\nx\\n")):
    ...     list(input_lines("-"))
    [(3, 'x')]
    """
    if arg != "-":
        yield 1, arg.lstrip("\ufeff").strip()
        return
    raw = getattr(sys.stdin, "buffer", None)  # bytes: bad UTF-8 becomes U+FFFD
    lines: Iterator[str] = (
        (b.decode("utf-8", "replace") for b in raw) if raw is not None else iter(sys.stdin))
    for n, line in enumerate(lines, start=1):
        s = line.lstrip("\ufeff").strip()  # a byte-order mark (first line) is no text
        if s:
            yield n, s


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1.

    >>> positive_int("5000")
    5000
    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number of at least 1, not '0'
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number above 0.

    >>> positive_float("2.5")
    2.5
    >>> positive_float("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number above 0, not '-1'
    """
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text!r}")
    return value

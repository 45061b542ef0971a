"""The program of the child process that runs cshogi's parsers for
:class:`remis.variants.isolation.IsolatedParser`: one JSON request per line
in (``[format, text, line, marker]``), one JSON answer per line out.

It sits above the readers whose parsers it runs (:mod:`remis.variants.kifu`,
:mod:`remis.variants.ki2`), which themselves ask the isolation for a child.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any


def parse_in_process(fmt: str, text: str, line: int) -> Any:
    """What the child answers for one game, computed here: for CSA the
    parsed game (see :func:`remis.variants.kifu.parse_csa_game`), for KIF and
    KI2 the fields of its :class:`~remis.variants.kifu.GameRecord` (the game
    starting at line ``line`` of its file).

    >>> parse_in_process("csa", "PI\\n+\\n+7776FU\\n", 1)[1]
    ['7g7f']
    >>> parse_in_process("kif", "手合割：平手\\n   1 ７六歩(77)\\n", 1)["moves"]
    ['7g7f']
    """
    from remis.variants.ki2 import _read_ki2_game
    from remis.variants.kifu import GameRecord, _read_kif_game, parse_csa_game

    if fmt == "csa":
        return parse_csa_game(text)
    rec = GameRecord(1, line, 0, "startpos", [])
    {"kif": _read_kif_game, "ki2": _read_ki2_game}[fmt](rec, text)
    return {"start": rec.start, "moves": rec.moves, "result": rec.result,
            "termination": rec.termination, "headers": rec.headers, "unread": rec.unread,
            "error": rec.error}


def serve_parser() -> None:  # pragma: no cover - runs in the child
    """The child's loop: one JSON request per line in, one JSON answer per
    line out, until its input closes.

    >>> callable(serve_parser)
    True
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for line in sys.stdin:
        fmt, text, first, marker = json.loads(line)
        if marker and marker in text:
            os.abort()  # the test hook: crash as cshogi's C++ code would
        try:
            out: dict[str, Any] = {"ok": True, "value": parse_in_process(fmt, text, first)}
        except Exception as exc:
            out = {"ok": False, "error": str(exc), "type": type(exc).__name__}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()

"""Small helpers for the tests of docs/cases.md: replay a case's SAN moves."""

from __future__ import annotations

import re

import chess

from remis.history import History

_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?")


def sans(text: str) -> list[str]:
    """Split "1.e4 e5 2.Nf3" / "1...d5 2.Nf3" into SAN tokens."""
    out = []
    for tok in text.split():
        tok = _MOVE_NUMBER.sub("", tok)
        if tok:
            out.append(tok)
    return out


def play(moves: str, fen: str | None = None, *, chess960: bool = False) -> History:
    """Replay a case from ``fen`` (default: the initial position)."""
    board = chess.Board(fen, chess960=chess960) if fen else chess.Board()
    h = History(board)
    for san in sans(moves):
        h.push_san(san)
    return h

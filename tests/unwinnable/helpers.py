"""What the engine's tests share: replaying a helpmate line."""

from __future__ import annotations

from collections.abc import Sequence

import chess


def mates(fen: str, color: chess.Color, line: Sequence[str], *,
          chess960: bool = False) -> bool:
    """Does ``line`` (UCI moves, each legal in turn) lead from ``fen`` to a
    checkmate given by ``color``?"""
    board = chess.Board(fen, chess960=chess960)
    for uci in line:
        move = chess.Move.from_uci(uci)
        if not board.is_legal(move):
            return False
        board.push(move)
    return board.is_checkmate() and board.turn != color

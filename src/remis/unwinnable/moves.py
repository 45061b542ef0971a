"""Counting moves cheaply: the audit's gate asks how many moves a side has
before it pays for a search."""

from __future__ import annotations

from itertools import islice

import chess


def pseudo_legal_count(b: chess.Board, color: chess.Color, most: int | None = None) -> int:
    """The pseudo-legal moves ``color`` would have in ``b`` if it were to move
    (``b`` is left as it was), counted up to ``most`` when given.

    >>> pseudo_legal_count(chess.Board(), chess.BLACK), pseudo_legal_count(chess.Board(),
    ...                                                                    chess.BLACK, 7)
    (20, 7)
    """
    turn = b.turn
    b.turn = color
    try:
        return sum(1 for _ in islice(b.generate_pseudo_legal_moves(), most))
    finally:
        b.turn = turn

"""Position identity under FIDE Article 9.2.3.

Two positions are "the same" for repetition (9.2, 9.6.1) when the same player
has the move, pieces of the same kind and colour stand on the same squares, and
the possible moves are the same.  The possible moves depend on history only
through the castling rights (kept per rook, so Chess960 works) and an en passant
capture, which counts only when it is actually *legal* (9.2.3.1).

The identity is the core's (``remis._core``), the one the history keys
positions by.
"""

from __future__ import annotations

import chess

from remis import _core

PositionKey = tuple[int, ...]
"""An opaque, hashable position identity (:func:`position_key`).  Compare keys
with ``==``; do not rely on the layout of the tuple.

>>> import chess
>>> white, black = chess.Board(), chess.Board()
>>> black.turn = chess.BLACK  # the same placement, the other side to move
>>> position_key(white) == position_key(black), position_key(white) == position_key(chess.Board())
(False, True)
"""


def position_key(board: chess.Board) -> PositionKey:
    """Return the FIDE 9.2.3 identity of the position on ``board``.

    The key holds the placement by kind and colour, the side to move, the
    castling rights per rook square and the en passant square *only if* an en
    passant capture is legal.  Swapping two identical pieces gives the same key.

    >>> import chess
    >>> a = chess.Board()
    >>> b = chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1")
    >>> position_key(a) == position_key(b)   # White's h-rook right differs
    False
    >>> pinned = chess.Board("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - d6 0 2")  # exd6 is illegal
    >>> no_ep = chess.Board("1n2r1k1/8/8/3pP3/8/8/8/4K1N1 w - - 0 2")
    >>> position_key(pinned) == position_key(no_ep)
    True
    """
    return tuple(_core.position_key(board.fen(), chess960=board.chess960))

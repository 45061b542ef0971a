"""Insufficient material: the special case of a dead position (Article 5.2.2)
that material alone decides.  The full "can this side still mate?" test lives
in :mod:`remis.unwinnable`; this module is the cheap, always-sound shortcut.
"""

from __future__ import annotations

import chess

_PIECE_LETTERS = ((chess.QUEEN, "Q"), (chess.ROOK, "R"), (chess.BISHOP, "B"),
                  (chess.KNIGHT, "N"), (chess.PAWN, "P"))


def describe_material(board: chess.Board) -> str:
    """Short description of the material, White first: ``"K+B v K+N"``.

    >>> describe_material(chess.Board("8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1"))
    'K+B v K+B'
    """
    sides = []
    for color in (chess.WHITE, chess.BLACK):
        parts = ["K"]
        for piece, letter in _PIECE_LETTERS:
            n = chess.popcount(board.pieces_mask(piece, color))
            parts.extend([letter] * n)
        sides.append("+".join(parts))
    return " v ".join(sides)


def insufficient_material(board: chess.Board) -> bool:
    """True when neither side has mating material (K v K, K+N v K, bishops
    all on one colour, ...).  Fast exit when a pawn, rook or queen is on the
    board, so it is cheap enough to call after every move.

    >>> insufficient_material(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    True
    >>> insufficient_material(chess.Board("8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1"))
    False
    """
    if board.pawns or board.rooks or board.queens:
        return False
    return board.is_insufficient_material()


def side_has_insufficient_material(board: chess.Board, color: chess.Color) -> bool:
    """True when ``color`` cannot mate on material alone (python-chess's
    one-sided test, sound: it never says so when a helpmate exists).

    >>> side_has_insufficient_material(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK)
    True
    """
    return bool(board.has_insufficient_material(color))

"""Material shortcuts for "can this side still mate?": sound, instant answers
that need no search.

Both tests only ever say "cannot": they are proofs, never guesses.
"""

from __future__ import annotations

import chess

from remis.material import describe_material

_DARK = chess.BB_DARK_SQUARES
_LIGHT = chess.BB_LIGHT_SQUARES


def needs_loser_promotion(board: chess.Board, winner: chess.Color) -> bool:
    """True when ``winner`` can mate only after the opponent promotes a pawn
    (to a piece that can block a flight square): a lone knight against pawns
    and queens, or bishops all on one colour against no knight and no bishop
    of the other colour.

    >>> needs_loser_promotion(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK)
    True
    >>> needs_loser_promotion(chess.Board("8/8/8/4k3/8/2n5/B7/K7 w - - 0 1"), chess.BLACK)
    False
    """
    mine = board.occupied_co[winner]
    theirs = board.occupied_co[not winner]
    n_mine = chess.popcount(mine)
    knights = board.knights & mine
    if n_mine == 2 and knights and not theirs & (board.knights | board.bishops | board.rooks):
        return True
    bishops = board.bishops & mine
    if bishops and n_mine == chess.popcount(bishops) + 1:
        colour = _DARK if bishops & _DARK else _LIGHT
        if bishops & ~colour:
            return False
        other = _LIGHT if colour == _DARK else _DARK
        return not (board.bishops & other) and not (board.knights & theirs)
    return False


def material_reason(board: chess.Board, winner: chess.Color) -> str | None:
    """Why ``winner`` cannot mate on material alone, or None when material
    does not decide.  Sound: None whenever a helpmate might exist.

    >>> material_reason(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK)
    'insufficient material: Black has a bare king (K+Q v K)'
    >>> material_reason(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK) is None
    True
    """
    mine = board.occupied_co[winner]
    name = "White" if winner else "Black"
    if mine == board.kings & mine:
        return f"insufficient material: {name} has a bare king ({describe_material(board)})"
    if board.has_insufficient_material(winner):
        return (f"insufficient material: {name} can never checkmate "
                f"({describe_material(board)})")
    if not board.pawns & board.occupied_co[not winner] and needs_loser_promotion(board, winner):
        return (f"insufficient material: {name} could only mate after an opponent's promotion, "
                f"and the opponent has no pawns ({describe_material(board)})")
    return None


def impossible_to_win(board: chess.Board, winner: chess.Color) -> bool:
    """Fast form of :func:`material_reason` for the search's inner loop.

    >>> impossible_to_win(chess.Board("8/8/8/4k3/8/2n5/8/K7 w - - 0 1"), chess.BLACK)
    True
    """
    mine = board.occupied_co[winner]
    if mine & (board.pawns | board.rooks | board.queens):
        return False
    if chess.popcount(mine) == 1:
        return True
    if board.has_insufficient_material(winner):
        return True
    return not board.pawns & board.occupied_co[not winner] and needs_loser_promotion(board, winner)

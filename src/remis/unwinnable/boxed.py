"""The boxed king: when one side can only ever shuffle its king between at
most two squares, the other king can never come next to that box and play
on.

Let ``L`` be a side whose pieces other than the king never move (frozen,
see :mod:`remis.unwinnable.reach`), without castling rights, whose king
can only ever stand on a set ``R`` of at most two squares.  Whenever ``L``
is to move, its only legal moves are king moves from its square ``x`` to the
other square of ``R``.  If the opposing king stands next to that square,
``L`` has no legal move: the game is over (stalemate, or checkmate if ``L``
is in check).  So the opposing king never *continues the game* from a square
next to ``R`` (it may step there only as the last move of the game, its
capture there opens nothing), which keeps pawn chains frozen that it could
otherwise attack.

That last move is a checkmate only if it gives check, and a king move gives
check only by discovery (castling is excluded): :func:`discovery_possible`
rules that out before the refinement is used, so a position where the king
would step next to the box with a discovered check is left to the other
arguments.
"""

from __future__ import annotations

import chess

BB_ALL = 0xFFFF_FFFF_FFFF_FFFF
_NOT_A = BB_ALL ^ chess.BB_FILE_A
_NOT_H = BB_ALL ^ chess.BB_FILE_H


def _spread(bb: int) -> int:
    b = bb | ((bb << 1) & _NOT_A) | ((bb >> 1) & _NOT_H)
    return (b | (b << 8) | (b >> 8)) & BB_ALL


def box(board: chess.Board, loser: chess.Color, frozen: int, region: int) -> int:
    """The squares next to (or in) the box of ``loser``'s king when the
    conditions of the module docstring hold (``frozen``: the pieces assumed
    never to move, ``region``: where ``loser``'s king may ever stand), else 0.

    >>> b = chess.Board("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1")
    >>> pawns = b.pawns
    >>> sq = box(b, chess.WHITE, pawns, chess.BB_H3 | chess.BB_H4)
    >>> [chess.square_name(s) for s in chess.scan_forward(sq)][:4]
    ['g2', 'h2', 'g3', 'h3']
    >>> box(b, chess.WHITE, 0, chess.BB_H3 | chess.BB_H4)  # the g2 pawn may move
    0
    """
    if board.clean_castling_rights() or region.bit_count() > 2:
        return 0
    if board.occupied_co[loser] & ~board.kings & ~frozen:
        return 0
    return _spread(region)


def discovery_possible(board: chess.Board, winner: chess.Color, frozen: int,
                       king_reach: int, terminal: int, loser_region: int) -> bool:
    """Could ``winner``'s king, from a square of ``king_reach``, step onto a
    square of ``terminal`` (not next to the loser's king) and uncover a line
    to the loser's king?  An over-approximation: any slider of the matching
    kind (or a pawn that may still promote) counts, only frozen pieces block.

    >>> b = chess.Board("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1")
    >>> region = chess.BB_H3 | chess.BB_H4
    >>> discovery_possible(b, chess.BLACK, b.pawns, chess.BB_F2 | chess.BB_F1,
    ...                    box(b, chess.WHITE, b.pawns, region), region)
    False
    """
    mine = board.occupied_co[winner]
    pawns = mine & board.pawns & ~frozen
    diagonal = bool(mine & (board.bishops | board.queens) or pawns)
    straight = bool(mine & (board.rooks | board.queens) or pawns)
    for s in chess.scan_forward(king_reach & _spread(terminal)):
        steps = chess.BB_KING_ATTACKS[s] & terminal
        for x in chess.scan_forward(loser_region):
            if not steps & ~_spread(chess.BB_SQUARES[x]):
                continue  # every step lands next to the loser's king
            if chess.square_distance(s, x) < 2:
                continue
            line = chess.BB_RAYS[s][x]
            if not line:
                continue
            is_diagonal = chess.square_file(s) != chess.square_file(x) and \
                chess.square_rank(s) != chess.square_rank(x)
            if not (diagonal if is_diagonal else straight):
                continue
            if chess.between(s, x) & frozen:
                continue  # a piece that never moves blocks the line for good
            return True
    return False

"""The pieces a helpmate can do without: a focus for the width search.

Composed positions shut pieces behind pawn walls that nothing can cross:
bishops of one colour above a wall whose squares of their colour are all
taken, a king that cannot pass.  Such a piece can never take part in the
mate (it can never attack, guard or block a square next to any square the
loser's king may ever stand on), yet every search still moves it, and the
positions multiply by all the places it can wander to: the width search
drowns in them.  Held still, all but one of them (each side keeps its most
mobile idle piece, for the waiting moves a long helpmate needs), they leave
a much smaller set of positions in which a mate is found quickly.

This is a heuristic for *finding* mates, never for proofs: a search with
pieces held still (:class:`~remis.unwinnable.width.WidthSearch`'s
``still``) plays only legal moves, so a mate it finds is a helpmate of the
real position, but running out of positions proves nothing (the held
pieces' moves were never tried), and it says so.  The reach analysis
behind it (:func:`~remis.unwinnable.reach.analyse`) is the static proof's.
"""

from __future__ import annotations

import chess

from remis.unwinnable.reach import analyse, king_spread

__all__ = ["idle_pieces"]


def idle_pieces(board: chess.Board, winner: chess.Color) -> int:
    """The squares of the pieces (not pawns, not the loser's king) that a
    search for a mate by ``winner`` may hold still: the winner's pieces
    that can never attack nor stand on a square the loser's king may ever
    stand on (a king: never stand next to one), the loser's that can never
    reach a square within a king step of those nor attack a square that a
    winner's piece not held may reach (to take it); but the most mobile
    such piece of each side.  0 where the analysis does not apply (an en
    passant capture pending, a king missing) or nothing can be held.

    >>> b = chess.Board("3b4/b1k5/7b/p1p1p1p1/P1P1P1P1/2K5/4BbB1/8 w - - 0 1")
    >>> [chess.square_name(s) for s in chess.SquareSet(idle_pieces(b, chess.BLACK))]
    ['h6', 'a7', 'd8']
    >>> idle_pieces(chess.Board(), chess.WHITE)
    0
    """
    if board.ep_square is not None:
        return 0
    try:
        analysis = analyse(board)
    except ValueError:
        return 0
    if analysis is None:
        return 0
    loser = not winner
    region = analysis.king_region[loser]
    # every piece that may move: (square, colour, squares it may reach, attack)
    pieces: list[tuple[chess.Square, bool, int, int]] = []
    for square in chess.scan_forward(board.occupied & ~board.pawns & ~analysis.frozen):
        color = bool(board.occupied_co[chess.WHITE] >> square & 1)
        if board.kings >> square & 1:
            if color == loser:
                continue
            reach = analysis.king_region[color]
            attacks = king_spread(reach)
        else:
            mobility = analysis.mobility.get(square)
            reach = mobility.reach if mobility is not None else 0
            attacks = analysis.attacks_of(square)
        pieces.append((square, color, reach, attacks))
    needed = 0  # squares of the pieces not held
    reach_needed = 0  # where the winner's pieces not held may go
    for square, color, reach, attacks in pieces:
        if color == winner and (reach | attacks) & region:
            needed |= 1 << square
            reach_needed |= reach
    near = region | king_spread(region)
    for square, color, reach, attacks in pieces:
        if color == loser and (reach & near or attacks & reach_needed):
            needed |= 1 << square
    # per side, the idle pieces as (how many squares they may reach, square)
    idle: list[list[tuple[int, chess.Square]]] = [[], []]
    for square, color, reach, _ in pieces:
        if not needed >> square & 1:
            idle[color].append((reach.bit_count(), square))
    still = 0
    for side in idle:
        side.sort(reverse=True)
        for _, square in side[1:]:
            still |= 1 << square
    return still

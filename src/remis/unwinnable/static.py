"""Static unwinnability proofs: "``color`` can never checkmate", shown without
search, from the semi-static reachability of :mod:`remis.unwinnable.reach`.

Two arguments, both proofs (a wrong "cannot" would steal a game, so anything
not covered returns None):

* **No check is ever possible**: no piece of the would-be winner can ever
  attack a square the loser's king can ever stand on (blocked pawn walls,
  pieces shut in behind frozen pawns, a bare king).
* **A flight square always remains**: for every square ``k`` where the
  loser's king could ever be in check, look at its neighbours inside the
  king's region that no winner piece other than the king can ever attack.
  A mate on ``k`` needs each of them filled by a loser piece or guarded by
  the winner's king, which can never stand next to ``k``.  If, for each
  place of the winner's king, distinct loser pieces able to reach those
  squares are too few (a bipartite matching), no mate on ``k`` exists.
  This covers bishops of one colour (they never guard a square of the other
  colour) and pawn walls that leave a free square behind the king.

The loser's king region, the winner's attacks and the loser's pieces'
reach are over-approximations, so each argument holds in every sequence of
legal moves.  The king's present square is dropped from its region when an
immovable winner piece attacks it (the king is in check and not mated now,
so it leaves that square for good).
"""

from __future__ import annotations

import chess

from remis.unwinnable.reach import BB_ALL, Analysis, analyse, lower_bounds

_NOT_A = BB_ALL ^ chess.BB_FILE_A
_NOT_H = BB_ALL ^ chess.BB_FILE_H


def static_unwinnable(board: chess.Board, color: chess.Color) -> str | None:
    """A short reason when it is *proved* that ``color`` can never checkmate
    by any sequence of legal moves (both sides cooperating), else None.

    Fast exit (tens of microseconds) when no pawn is blocked and the winner
    has a piece other than bishops, or as soon as the analysis finds a
    square where the loser's king could stand in check with every
    neighbour attacked.

    >>> static_unwinnable(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
    ...                   chess.WHITE)  # doctest: +ELLIPSIS
    'blocked position: no White piece can ever attack a square the black king can reach...'
    >>> static_unwinnable(chess.Board("8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1"), chess.WHITE)
    >>> print(static_unwinnable(chess.Board(), chess.WHITE))
    None
    """
    if not _blocked_pawns(board) and board.occupied_co[color] & ~board.kings & ~board.bishops:
        # Nothing can be frozen without a pawn blocked head-on, so the loser's
        # king may go anywhere and a queen, rook, knight or (promoting) pawn
        # can reach it: the fast exit, a few bit operations.
        return None
    if (board.chess960 or not _sane(board) or board.has_pseudo_legal_en_passant()):
        return None
    loser = not color
    def net(region: int, attacks: int) -> bool:
        return _stuck_in_a_net(region, attacks, board.kings)

    if net(*lower_bounds(board, color, net)):
        return None
    analysis = analyse(board, lambda a, s: _hopeless(a, color, s), first=color)
    if analysis is None:
        return None
    king = chess.BB_SQUARES[board.king(loser) or 0]
    if analysis.fixed_attacks[color] & king:
        # In check from a piece that never moves: not mated now, the king
        # must step off this square for good.
        if board.is_checkmate():
            return None
        analysis.king_region[loser] &= ~king
    region = analysis.king_region[loser]
    if not analysis.attacks[color] & region:
        return _reason("blocked position: no {W} piece can ever attack a square the {l} "
                       "king can reach", analysis, color)
    if _always_a_flight(analysis, color):
        checkers = _relevant(analysis, color)
        if checkers and not checkers & ~board.bishops and (
                not checkers & chess.BB_DARK_SQUARES or not checkers & chess.BB_LIGHT_SQUARES):
            shade = "dark" if checkers & chess.BB_DARK_SQUARES else "light"
            return _reason("{W} can only ever check with bishops on " + shade + " squares, and "
                           "the {l} king always keeps a flight square of the other colour",
                           analysis, color)
        return _reason("wherever {W} could give check, the {l} king always keeps a flight "
                       "square that no {W} piece can ever guard and {L} cannot fill",
                       analysis, color)
    return None


def _sane(board: chess.Board) -> bool:
    """One king each, no pawn on a back rank, the side not to move not in
    check: what the analysis relies on (cheaper than ``Board.is_valid``).

    >>> _sane(chess.Board()), _sane(chess.Board("4k3/8/8/8/8/8/8/8 w - - 0 1"))
    (True, False)
    """
    kings = board.kings
    if (chess.popcount(kings & board.occupied_co[chess.WHITE]) != 1
            or chess.popcount(kings & board.occupied_co[chess.BLACK]) != 1
            or board.pawns & chess.BB_BACKRANKS):
        return False
    king = board.king(not board.turn)
    return king is not None and not board.is_attacked_by(board.turn, king)


def _blocked_pawns(board: chess.Board) -> int:
    """Pawns whose square ahead is occupied: every frozen set that a legal
    game can hold contains one.

    >>> b = chess.Board("4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1")
    >>> _blocked_pawns(b) == chess.BB_D4 | chess.BB_D5
    True
    """
    pawns, occupied = board.pawns, board.occupied
    return ((pawns & board.occupied_co[chess.WHITE] & (occupied >> 8))
            | (pawns & board.occupied_co[chess.BLACK] & ((occupied << 8) & 0xFFFF_FFFF_FFFF_FFFF)))


def _reason(template: str, analysis: Analysis, color: chess.Color) -> str:
    names = {chess.WHITE: "White", chess.BLACK: "Black"}
    text = template.format(W=names[color], L=names[not color], l=names[not color].lower())
    pawns = analysis.frozen & analysis.board.pawns
    if pawns:
        squares = ", ".join(chess.square_name(s) for s in chess.scan_forward(pawns))
        text += f" (the pawns on {squares} can never move)"
    for side in chess.COLORS:
        if analysis.boxed[side]:
            boxed = chess.scan_forward(analysis.boxed[side])
            squares = ", ".join(chess.square_name(s) for s in boxed)
            text += (f"; the {names[side].lower()} king is boxed in on {squares}: the other "
                     "king can never come next to it without ending the game")
    return text


def _relevant(analysis: Analysis, color: chess.Color) -> int:
    """Squares of the winner's non-king pieces that may ever attack or enter
    the loser king's region."""
    region = analysis.king_region[not color]
    out = 0
    for s in chess.scan_forward(analysis.board.occupied_co[color] & ~analysis.board.kings):
        mob = analysis.mobility.get(s)
        reach = mob.reach if mob is not None else chess.BB_SQUARES[s]
        if (analysis.attacks_of(s) | reach) & region:
            out |= chess.BB_SQUARES[s]
    return out


def _hopeless(analysis: Analysis, color: chess.Color, square: chess.Square | None) -> bool:
    """No argument can succeed, so :func:`~remis.unwinnable.reach.analyse`
    may stop: the loser's king may stand on a square that a winner piece
    attacks and whose neighbours all are attacked too.  Monotone (attacks
    and regions only grow while the analysis runs), so it stays true.  The
    kings' present squares are left out: the loser's may be dropped from
    the final region (see :func:`static_unwinnable`)."""
    return _stuck_in_a_net(analysis.king_region[not color], analysis.attacks[color],
                           analysis.board.kings)


def _stuck_in_a_net(region: int, attacks: int, kings: int) -> bool:
    """Some square of ``region`` other than the kings' own squares is
    attacked and has all its neighbours attacked (see :func:`_hopeless`).

    >>> _stuck_in_a_net(BB_ALL, BB_ALL, chess.BB_E1 | chess.BB_E8)
    True
    >>> _stuck_in_a_net(BB_ALL, chess.BB_E4, chess.BB_E1 | chess.BB_E8)
    False
    """
    region &= ~kings & attacks
    if not region:
        return False
    free = BB_ALL & ~attacks
    side = ((free << 1) & _NOT_A) | ((free >> 1) & _NOT_H)
    near_free = (side | ((free | side) << 8) | ((free | side) >> 8)) & BB_ALL
    return bool(region & ~near_free)


def _always_a_flight(analysis: Analysis, color: chess.Color) -> bool:
    """For every square where the loser's king could ever be in check, some
    neighbouring square stays a flight: inside the king's region, never
    attacked by a winner piece other than the king, never guarded by the
    winner's king (which cannot stand next to the checked king) and not
    fillable by distinct loser pieces all at once (see the module
    docstring)."""
    board = analysis.board
    region = analysis.king_region[not color]
    attacks = analysis.attacks[color]
    winner_king = analysis.king_region[color]
    blockers = [mob.reach for s, mob in analysis.mobility.items()
                if board.color_at(s) is (not color) and board.piece_type_at(s) != chess.KING]
    for k in chess.scan_forward(attacks & region):
        flights = chess.BB_KING_ATTACKS[k] & region & ~attacks
        if not flights:
            return False
        guards = {0}
        near_k = chess.BB_KING_ATTACKS[k] | chess.BB_SQUARES[k]
        for w in chess.scan_forward(winner_king & ~near_k):
            guards.add(chess.BB_KING_ATTACKS[w] & flights)
        for guarded in guards:
            if can_fill(flights & ~guarded, blockers):
                return False
    return True


def can_fill(squares: int, blockers: list[int]) -> bool:
    """Can distinct blockers (each given by the bitboard of squares it can
    reach) stand on all of ``squares`` at once?  A bipartite matching.

    >>> can_fill(chess.BB_A1 | chess.BB_B1, [chess.BB_A1 | chess.BB_B1, chess.BB_A1])
    True
    >>> can_fill(chess.BB_A1 | chess.BB_B1, [chess.BB_A1, chess.BB_A1])
    False
    """
    targets = list(chess.scan_forward(squares))
    if len(targets) > len(blockers):
        return False
    owner: dict[int, int] = {}  # blocker index -> target square

    def assign(square: int, seen: set[int]) -> bool:
        bb = chess.BB_SQUARES[square]
        for i, reach in enumerate(blockers):
            if reach & bb and i not in seen:
                seen.add(i)
                if i not in owner or assign(owner[i], seen):
                    owner[i] = square
                    return True
        return False

    return all(assign(t, set()) for t in targets)

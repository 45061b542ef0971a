"""Static unwinnability proofs: "``color`` can never checkmate", shown without
search, from the semi-static reachability of :mod:`remis.unwinnable.reach`.

Two arguments, both proofs (a wrong "cannot" would steal a game, so anything
not covered returns None):

* **No check is ever possible**: no piece of the would-be winner can ever
  attack a square the loser's king can ever stand on (blocked pawn walls,
  pieces shut in behind their own frozen pawns, bare king).
* **Bishops of one colour**: the only winner pieces that can ever attack or
  enter the loser's king region are bishops on squares of one colour.  A
  check then comes from a bishop on a square ``k`` of that colour, and each
  neighbour of ``k`` of the other colour inside the king's region must hold
  one of the loser's own pieces or be guarded by the winner's king (which
  cannot stand next to ``k``).  If for every such ``k`` there are not enough
  distinct loser pieces able to reach those squares, no mate exists.
"""

from __future__ import annotations

import chess

from remis.unwinnable.reach import Analysis, analyse


def static_unwinnable(board: chess.Board, color: chess.Color) -> str | None:
    """A short reason when it is *proved* that ``color`` can never checkmate
    by any sequence of legal moves (both sides cooperating), else None.

    Fast exit (tens of microseconds) when some winner piece other than a
    bishop of one colour can reach the loser king's area.

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
    if board.chess960 or not board.is_valid() or board.has_pseudo_legal_en_passant():
        return None
    loser = not color
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
    winner_pieces = board.occupied_co[color] & ~board.kings
    if not any(analysis.attacks_of(s) & region for s in chess.scan_forward(winner_pieces)):
        return _reason("blocked position: no {W} piece can ever attack a square the {l} "
                       "king can reach", analysis, color)
    if _bishops_cannot_mate(analysis, color):
        shade = "dark" if board.bishops & board.occupied_co[color] & _relevant(
            analysis, color) & chess.BB_DARK_SQUARES else "light"
        return _reason("{W} can only ever check with bishops on " + shade + " squares, and the "
                       "{l} king can never be boxed in on a " + shade + " square", analysis,
                       color)
    return None


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
    text = template.format(W=names[color], l=names[not color].lower())
    pawns = analysis.frozen & analysis.board.pawns
    if pawns:
        squares = ", ".join(chess.square_name(s) for s in chess.scan_forward(pawns))
        text += f" (the pawns on {squares} can never move)"
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
    """Neither argument can succeed (monotone: stays true as the frozen set
    shrinks), so :func:`~remis.unwinnable.reach.analyse` may stop early.
    With ``square``: only look at the piece just analysed (a winner piece
    other than a bishop that can attack the loser king's region).  The
    king's present square is left out: it may be dropped from the final
    region (see :func:`static_unwinnable`)."""
    region = analysis.king_region[not color] & ~analysis.board.kings
    board = analysis.board
    if square is not None:
        return (board.color_at(square) is color and board.piece_type_at(square) != chess.BISHOP
                and bool(analysis.attacks_of(square) & region))
    b_ok = True
    attacked = False
    shades = 0
    for s in chess.scan_forward(board.occupied_co[color] & ~board.kings):
        attacks = analysis.attacks_of(s)
        if attacks & region:
            attacked = True
        mob = analysis.mobility.get(s)
        reach = mob.reach if mob is not None else chess.BB_SQUARES[s]
        if (attacks | reach) & region:
            if board.piece_type_at(s) != chess.BISHOP:
                b_ok = False
            else:
                shades |= 2 if chess.BB_SQUARES[s] & chess.BB_DARK_SQUARES else 1
        if attacked and (not b_ok or shades == 3):
            return True
    return False


def _bishops_cannot_mate(analysis: Analysis, color: chess.Color) -> bool:
    """The one-colour bishop argument (see the module docstring)."""
    board = analysis.board
    relevant = _relevant(analysis, color)
    if relevant & ~board.bishops:
        return False
    dark = relevant & chess.BB_DARK_SQUARES
    if dark and relevant & ~chess.BB_DARK_SQUARES:
        return False
    shade = chess.BB_DARK_SQUARES if dark else chess.BB_LIGHT_SQUARES
    region = analysis.king_region[not color]
    checks = 0
    for s in chess.scan_forward(relevant):
        checks |= analysis.attacks_of(s)
    checks &= region & shade
    winner_king = analysis.king_region[color]
    blockers = [mob.reach for s, mob in analysis.mobility.items()
                if board.color_at(s) is (not color) and board.piece_type_at(s) != chess.KING]
    for k in chess.scan_forward(checks):
        escapes = chess.BB_KING_ATTACKS[k] & region & ~shade
        guards = {0}
        near_k = chess.BB_KING_ATTACKS[k] | chess.BB_SQUARES[k]
        for w in chess.scan_forward(winner_king & ~near_k):
            guards.add(chess.BB_KING_ATTACKS[w] & escapes)
        for guarded in guards:
            if _can_fill(escapes & ~guarded, blockers):
                return False
    return True


def _can_fill(squares: int, blockers: list[int]) -> bool:
    """Can distinct blockers (each a bitboard of reachable squares) occupy
    all of ``squares`` at once?  (At most four squares: plain backtracking.)

    >>> _can_fill(chess.BB_A1 | chess.BB_B1, [chess.BB_A1 | chess.BB_B1, chess.BB_A1])
    True
    >>> _can_fill(chess.BB_A1 | chess.BB_B1, [chess.BB_A1, chess.BB_A1])
    False
    """
    if not squares:
        return True
    first = chess.lsb(squares)
    rest = squares & (squares - 1)
    bb = chess.BB_SQUARES[first]
    return any(reach & bb and _can_fill(rest, blockers[:i] + blockers[i + 1:])
               for i, reach in enumerate(blockers))

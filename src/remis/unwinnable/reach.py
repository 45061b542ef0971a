"""Semi-static reachability: which pieces can never move again, and which
squares every other piece could ever stand on or attack.

The analysis is an over-approximation that is *sound for negative claims*:
if it says "the piece on b4 never moves" or "the black king can never reach
e4", that holds in every sequence of legal moves from the position.  It is
not complete: a square it calls reachable may in fact be unreachable.

Method (greatest fixed points around a least one):

1. Assume every piece is *frozen* (it never moves and is never captured)
   and every other pawn *confined* (it never captures and is never
   captured, so it stays on its file and never passes an opposing confined
   pawn on that file).  A cheap bitboard pass first drops every piece that
   has a move of its own.
2. Treat the frozen pieces as permanent walls and compute, for every other
   piece, the squares it could ever occupy (a flood fill of its moves,
   unfrozen pieces treated as absent) and the squares it could ever move or
   capture onto.  A king never steps onto a square attacked, in a way no
   piece can ever block, by a frozen enemy piece, and never captures a
   frozen piece so defended.  A pawn captures only onto squares where an
   enemy piece other than the king may stand (a least fixed point over all
   pawns); a pawn that can reach its last rank then moves as a queen and a
   knight.
   When one side's pieces other than the king are all frozen and its king
   has at most two squares, the other king keeps away from them (stepping
   next to them ends the game: :mod:`remis.unwinnable.boxed`).
3. Drop every frozen piece that could move (a pawn whose push square is not
   frozen or whose capture squares an enemy may occupy, a piece with a
   move to a square not held by a frozen friend, a king with a free
   neighbour) or be captured, and every confined pawn that could capture,
   be captured or promote.  Repeat from 2 until nothing is dropped.

The sets are then self-consistent, and by induction on the moves of any
legal sequence no frozen piece ever moves or is captured and no confined
pawn ever captures or is captured, so every piece stays inside its computed
reach.  Reaches, attacks and king regions only grow from round to round,
which lets a caller stop early on a monotone criterion.

>>> a = analyse(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
>>> chess.SquareSet(a.frozen) == chess.SquareSet(a.board.pawns)
True
>>> bool(a.king_region[chess.BLACK] & chess.BB_RANK_4)
False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from remis.unwinnable.boxed import box, discovery_possible

BB_ALL = 0xFFFF_FFFF_FFFF_FFFF
_NOT_A = BB_ALL ^ chess.BB_FILE_A
_NOT_H = BB_ALL ^ chess.BB_FILE_H
_NOT_AB = BB_ALL ^ (chess.BB_FILE_A | chess.BB_FILE_B)
_NOT_GH = BB_ALL ^ (chess.BB_FILE_G | chess.BB_FILE_H)

_SLIDERS = {chess.BISHOP: (True, False), chess.ROOK: (False, True), chess.QUEEN: (True, True)}


def king_spread(bb: int) -> int:
    """Squares at king distance at most 1 from some square of ``bb``.

    >>> chess.SquareSet(king_spread(chess.BB_A1)) == chess.SquareSet(
    ...     chess.BB_A1 | chess.BB_A2 | chess.BB_B1 | chess.BB_B2)
    True
    """
    b = bb | ((bb << 1) & _NOT_A) | ((bb >> 1) & _NOT_H)
    return (b | (b << 8) | (b >> 8)) & BB_ALL


def knight_spread(bb: int) -> int:
    """Squares a knight move away from some square of ``bb``.

    >>> knight_spread(chess.BB_G1) == chess.BB_KNIGHT_ATTACKS[chess.G1]
    True
    """
    return ((((bb << 17) & _NOT_A) | ((bb << 15) & _NOT_H) | ((bb << 10) & _NOT_AB)
             | ((bb << 6) & _NOT_GH)) & BB_ALL) | ((bb >> 17) & _NOT_H) \
        | ((bb >> 15) & _NOT_A) | ((bb >> 10) & _NOT_GH) | ((bb >> 6) & _NOT_AB)


def pawn_spread(bb: int, color: chess.Color) -> int:
    """Squares attacked by pawns of ``color`` standing on ``bb``.

    >>> pawn_spread(chess.BB_E4, chess.WHITE) == chess.BB_D5 | chess.BB_F5
    True
    """
    if color:
        return (((bb << 7) & _NOT_H) | ((bb << 9) & _NOT_A)) & BB_ALL
    return ((bb >> 9) & _NOT_H) | ((bb >> 7) & _NOT_A)


def slider_targets(square: chess.Square, diagonal: int, straight: int, occupied: int) -> int:
    """Squares a slider on ``square`` attacks when only ``occupied`` blocks
    (along diagonals where ``diagonal`` is true, files and ranks where
    ``straight`` is: a bool, or a bitboard tested for the piece's bit).

    >>> slider_targets(chess.A1, True, False, chess.BB_C3) == chess.BB_B2 | chess.BB_C3
    True
    """
    t = 0
    if diagonal:
        t |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if straight:
        t |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
              | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])
    return t


def _up_fill(gen: int, pro: int, step: int) -> int:
    """Kogge-Stone occluded fill towards higher squares by ``step`` (``pro``
    already masked against wrapping); returns the squares attacked."""
    gen |= pro & (gen << step)
    pro &= pro << step
    gen |= pro & (gen << 2 * step)
    pro &= pro << 2 * step
    gen |= pro & (gen << 4 * step)
    return gen << step


def _down_fill(gen: int, pro: int, step: int) -> int:
    """As :func:`_up_fill`, towards lower squares."""
    gen |= pro & (gen >> step)
    pro &= pro >> step
    gen |= pro & (gen >> 2 * step)
    pro &= pro >> 2 * step
    gen |= pro & (gen >> 4 * step)
    return gen >> step


def slide_attacks(gen: int, empty: int, diagonal: bool, straight: bool) -> int:
    """All squares attacked by sliders on ``gen`` when only ``~empty`` blocks
    (bitboard parallel, no loop over squares).

    >>> slide_attacks(chess.BB_A1, BB_ALL ^ chess.BB_C3, True, False) == chess.BB_B2 | chess.BB_C3
    True
    >>> slide_attacks(chess.BB_D4, BB_ALL, True, True) == slider_targets(chess.D4, True, True, 0)
    True
    """
    out = 0
    if straight:
        out |= (_up_fill(gen, empty, 8) & BB_ALL) | _down_fill(gen, empty, 8)
        e = empty & _NOT_A
        out |= _up_fill(gen, e, 1) & _NOT_A
        e = empty & _NOT_H
        out |= _down_fill(gen, e, 1) & _NOT_H
    if diagonal:
        e = empty & _NOT_A
        out |= (_up_fill(gen, e, 9) & _NOT_A) | (_down_fill(gen, e, 7) & _NOT_A)
        e = empty & _NOT_H
        out |= (_up_fill(gen, e, 7) & _NOT_H) | (_down_fill(gen, e, 9) & _NOT_H)
    return out


def _piece_flood(start: int, walls: int, diagonal: bool, straight: bool,
                 leaps: bool) -> tuple[int, int]:
    """Flood fill of a slider and/or knight: (squares reachable, squares hit).

    ``walls`` are never entered (but are hit: a capture of a wall piece)."""
    reach = frontier = start
    hits = 0
    empty = BB_ALL & ~walls
    while frontier:
        new = 0
        if diagonal or straight:
            new = slide_attacks(frontier, empty, diagonal, straight)
        if leaps:
            new |= knight_spread(frontier)
        hits |= new
        frontier = new & empty & ~reach
        reach |= frontier
    return reach, hits


@dataclass
class Mobility:
    """What one unfrozen piece can ever do: ``reach`` (squares it may occupy),
    ``hits`` (squares it may move or capture onto), ``attacks`` (squares it
    may ever attack), ``promotes`` (a pawn that may promote).

    >>> m = analyse(chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")).mobility[chess.E2]
    >>> m.promotes, chess.E8 in chess.SquareSet(m.reach)
    (True, True)
    """

    reach: int
    hits: int
    attacks: int
    promotes: bool = False


@dataclass
class Analysis:
    """The result of :func:`analyse`.

    ``frozen``: squares of the pieces that never move nor get captured;
    ``confined``: squares of the pawns that never capture nor get captured
    (they stay on their file and never pass an opposing confined pawn);
    ``mobility``: for every other piece (by its square) a :class:`Mobility`;
    ``fixed_attacks[c]``: squares attacked by frozen pieces of colour ``c`` in a
    way nothing can ever block; ``king_region[c]``: squares the king of ``c``
    may ever stand on; ``attacks[c]``: squares the pieces of ``c`` other than
    the king may ever attack (so far, while :func:`analyse` runs);
    ``boxed[c]``: the squares of the king of ``c`` when it is boxed in and
    the other king was kept away (:mod:`remis.unwinnable.boxed`), else 0.

    >>> a = analyse(chess.Board("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1"))
    >>> [chess.square_name(s) for s in chess.SquareSet(a.frozen)]
    ['b4', 'd4', 'f4', 'h4', 'b5', 'd5', 'f5', 'h5']
    """

    board: chess.Board
    frozen: int
    confined: int = 0
    attacks: list[int] = field(default_factory=lambda: [0, 0])
    mobility: dict[chess.Square, Mobility] = field(default_factory=dict)
    fixed_attacks: list[int] = field(default_factory=lambda: [0, 0])
    king_region: list[int] = field(default_factory=lambda: [0, 0])
    boxed: list[int] = field(default_factory=lambda: [0, 0])

    def attacks_of(self, square: chess.Square) -> int:
        """Squares the piece that starts on ``square`` may ever attack (for a
        frozen piece: from where it stands, rays blocked only by frozen
        pieces).

        >>> a = analyse(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
        >>> a.attacks_of(chess.B4) == chess.BB_A5 | chess.BB_C5
        True
        """
        mob = self.mobility.get(square)
        if mob is not None:
            return mob.attacks
        return frozen_attacks(self.board, square, self.frozen, blockable=True)


def frozen_attacks(board: chess.Board, square: chess.Square, walls: int,
                   *, blockable: bool) -> int:
    """Squares attacked by the piece on ``square`` if it stays there: with
    ``blockable`` every slider ray up to the first wall, otherwise only the
    attacks no other piece can ever interpose (leaps, pawn and king
    attacks, adjacent slider squares).

    >>> b = chess.Board("8/8/8/8/8/8/8/B6K w - - 0 1")
    >>> frozen_attacks(b, chess.A1, 0, blockable=False) == chess.BB_B2
    True
    """
    ptype = board.piece_type_at(square)
    if ptype == chess.PAWN:
        return pawn_spread(chess.BB_SQUARES[square], board.color_at(square) is chess.WHITE)
    if ptype == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if ptype == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    if ptype is None:
        return 0
    diagonal, straight = _SLIDERS[ptype]
    t = slider_targets(square, diagonal, straight, walls)
    return t if blockable else t & chess.BB_KING_ATTACKS[square]


def _pawn_flood(start: int, color: chess.Color, walls: int, prey: int | None) -> tuple[int, int]:
    """Pawn moves from ``start`` through non-walls: pushes and double steps,
    and, unless ``prey`` is None, diagonal moves onto ``prey``.  Returns
    (reach, diagonal squares hit); stops on the last rank."""
    reach = frontier = start
    hits = 0
    last = chess.BB_RANK_8 if color else chess.BB_RANK_1
    frontier &= ~last
    while frontier:
        if color:
            push = (frontier << 8) & BB_ALL & ~walls
            push |= ((push & chess.BB_RANK_3) << 8) & ~walls
        else:
            push = (frontier >> 8) & ~walls
            push |= ((push & chess.BB_RANK_6) >> 8) & ~walls
        caps = pawn_spread(frontier, color)
        hits |= caps
        if prey is not None:
            push |= caps & prey & ~walls
        new = push & ~reach
        reach |= new
        frontier = new & ~last
    return reach, hits


def push_stop(square: chess.Square, color: chess.Color, blockers: int) -> int:
    """Squares of its own file a pawn on ``square`` can never push into: from
    the nearest of ``blockers`` ahead of it onwards (``blockers``: opposing
    pawns that never capture nor get captured, so the two never pass).

    >>> stop = push_stop(chess.E2, chess.WHITE, chess.BB_E5 | chess.BB_E7)
    >>> [chess.square_name(s) for s in chess.scan_forward(stop)]
    ['e5', 'e6', 'e7', 'e8']
    """
    file_bb = chess.BB_FILES[chess.square_file(square)]
    if color:
        ahead = blockers & file_bb & ~((2 << square) - 1) & BB_ALL
        if not ahead:
            return 0
        return file_bb & ~((1 << chess.lsb(ahead)) - 1) & BB_ALL
    ahead = blockers & file_bb & ((1 << square) - 1)
    if not ahead:
        return 0
    return file_bb & ((2 << chess.msb(ahead)) - 1)


def _pawn_mobility(square: chess.Square, color: chess.Color, walls: int, prey: int,
                   stop: int = 0, confined: bool = False) -> Mobility:
    """Where a pawn may go: first along its own file (never into ``stop``),
    then, unless ``confined`` (assumed never to capture), by diagonal moves
    onto ``prey`` (squares where an enemy piece other than the king, or a
    pawn passing on a double step, may ever be) and on from there; a pawn
    that can reach its last rank then moves as a queen and a knight."""
    last = chess.BB_RANK_8 if color else chess.BB_RANK_1
    reach, hits = _pawn_flood(chess.BB_SQUARES[square], color, walls | stop, None)
    if not confined:
        entry = pawn_spread(reach & ~last, color) & prey & ~walls
        if entry:
            more, more_hits = _pawn_flood(entry, color, walls, prey)
            reach |= more
            hits |= more_hits
    attacks = pawn_spread(reach & ~last, color)
    promoted = reach & last
    if not promoted:
        return Mobility(reach, hits, attacks)
    q_reach, q_hits = _piece_flood(promoted, walls, True, True, True)
    return Mobility(reach | q_reach, hits | q_hits, attacks | q_hits, promotes=True)


def _king_mobility(square: chess.Square, walls: int, forbidden: int) -> Mobility:
    """King flood fill: never onto a wall or a square in ``forbidden``."""
    reach = frontier = chess.BB_SQUARES[square]
    blocked = walls | forbidden
    while frontier:
        frontier = king_spread(frontier) & ~blocked & ~reach
        reach |= frontier
    spread = king_spread(reach)
    return Mobility(reach, spread & ~forbidden, spread)


def _mobility(board: chess.Board, square: chess.Square, walls: int,
              fixed_attacks: list[int]) -> Mobility:
    ptype = board.piece_type_at(square)
    color = board.color_at(square) is chess.WHITE
    if ptype == chess.PAWN:
        return _pawn_mobility(square, color, walls, BB_ALL)
    if ptype == chess.KING:
        return _king_mobility(square, walls, fixed_attacks[not color])
    if ptype == chess.KNIGHT:
        reach, hits = _piece_flood(chess.BB_SQUARES[square], walls, False, False, True)
    else:
        diagonal, straight = _SLIDERS[ptype or chess.QUEEN]
        reach, hits = _piece_flood(chess.BB_SQUARES[square], walls, diagonal, straight, False)
    return Mobility(reach, hits, hits)


def _locally_stuck(board: chess.Board, square: chess.Square, frozen: int,
                   own_frozen: int, enemy_fixed: int) -> bool:
    """Can the piece on ``square`` not move, assuming the frozen pieces stay?
    (Its captures of unfrozen enemies are checked globally.)"""
    ptype = board.piece_type_at(square)
    color = board.color_at(square) is chess.WHITE
    if ptype == chess.PAWN:
        ahead = square + 8 if color else square - 8
        return 0 <= ahead < 64 and bool(frozen & chess.BB_SQUARES[ahead])
    if ptype == chess.KING:
        return not chess.BB_KING_ATTACKS[square] & ~(own_frozen | enemy_fixed)
    if ptype == chess.KNIGHT:
        return not chess.BB_KNIGHT_ATTACKS[square] & ~own_frozen
    diagonal, straight = _SLIDERS[ptype or chess.QUEEN]
    return not slider_targets(square, diagonal, straight, frozen) & ~own_frozen


def _fixed_attacks(board: chess.Board, frozen: int) -> list[int]:
    out = [0, 0]
    for color in chess.COLORS:
        mine = frozen & board.occupied_co[color]
        out[color] = pawn_spread(mine & board.pawns, color)
        for s in chess.scan_forward(mine & ~board.pawns):
            out[color] |= frozen_attacks(board, s, frozen, blockable=False)
    return out


_ORTHO = ((8, BB_ALL), (-8, BB_ALL), (1, _NOT_A), (-1, _NOT_H))
_DIAG = ((9, _NOT_A), (7, _NOT_H), (-7, _NOT_A), (-9, _NOT_H))


def _stepping(pieces: int, free: int, directions: tuple[tuple[int, int], ...]) -> int:
    """The subset of ``pieces`` with a ``free`` neighbour in one of the
    ``directions`` ((shift, wrap mask of the destination) pairs)."""
    out = 0
    for shift, mask in directions:
        if shift > 0:
            out |= ((((pieces << shift) & mask) & free) >> shift)
        else:
            out |= ((((pieces >> -shift) & mask) & free) << -shift) & BB_ALL
    return out & pieces


def _local_step(board: chess.Board, frozen: int) -> int:
    """One round of :func:`_local_pass`: still a superset of the final
    frozen set."""
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    frozen &= ~(board.pawns & white & ~(frozen >> 8))
    frozen &= ~(board.pawns & black & ~((frozen << 8) & BB_ALL))
    straight = board.rooks | board.queens
    diagonal = board.bishops | board.queens
    for side in (white, black):
        own = frozen & side
        free = BB_ALL & ~own
        mobile = 0
        if own & straight:
            mobile |= _stepping(own & straight, free, _ORTHO)
        if own & diagonal:
            mobile |= _stepping(own & diagonal, free, _DIAG)
        for n in chess.scan_forward(own & board.knights):
            if chess.BB_KNIGHT_ATTACKS[n] & free:
                mobile |= chess.BB_SQUARES[n]
        frozen &= ~mobile
    if frozen & board.kings:
        fixed = _fixed_attacks(board, frozen)
        for k in chess.scan_forward(frozen & board.kings):
            color = bool(white & chess.BB_SQUARES[k])
            if not _locally_stuck(board, k, frozen, frozen & board.occupied_co[color],
                                  fixed[not color]):
                frozen &= ~chess.BB_SQUARES[k]
    return frozen


def _local_pass(board: chess.Board, frozen: int) -> int:
    """Drop from ``frozen`` every piece that has a move of its own while the
    others stay (bitboard-parallel but for knights and kings), until nothing
    changes.

    >>> b = chess.Board()
    >>> _local_pass(b, b.occupied)
    0
    """
    while True:
        before = frozen
        frozen = _local_step(board, frozen)
        if frozen == before:
            return frozen


def lower_bounds(board: chess.Board, color: chess.Color,
                 enough: Callable[[int, int], bool] | None = None) -> tuple[int, int]:
    """Cheap under-approximations of what :func:`analyse` will find: the
    region of the king of ``not color`` and the squares attacked by the
    queens, rooks and knights of ``color`` (one local round as walls: a
    superset of the frozen pieces, so every flood is a subset of the final
    one).  For a fast, exact early exit on monotone criteria: ``enough``
    (region, attacks) is asked after each piece and ends the work when true.

    >>> region, attacks = lower_bounds(chess.Board(), chess.WHITE)
    >>> region == BB_ALL, attacks == BB_ALL
    (True, True)
    """
    walls = _local_step(board, board.occupied)
    fixed = _fixed_attacks(board, walls)
    king = board.king(not color)
    if king is None:
        return 0, 0
    bb = chess.BB_SQUARES[king]
    region = bb if walls & bb else _king_mobility(king, walls, fixed[color]).reach
    attacks = 0
    mine = board.occupied_co[color] & ~walls
    for s in chess.scan_forward(mine & board.queens):
        attacks |= _piece_flood(chess.BB_SQUARES[s], walls, True, True, False)[1]
        if enough is not None and enough(region, attacks):
            return region, attacks
    for s in chess.scan_forward(mine & board.rooks):
        attacks |= _piece_flood(chess.BB_SQUARES[s], walls, False, True, False)[1]
        if enough is not None and enough(region, attacks):
            return region, attacks
    knights = mine & board.knights
    if knights:
        attacks |= _piece_flood(knights, walls, False, False, True)[1]
    return region, attacks


def _can_leave(board: chess.Board, square: chess.Square, frozen: int, fixed: list[int],
               prey: list[int], hits: list[int]) -> bool:
    """Could the frozen piece on ``square`` move or be captured, given the
    frozen set, where each side's unfrozen non-king pieces may be (``prey``)
    and where each side's unfrozen pieces may move or capture (``hits``)?"""
    bb = chess.BB_SQUARES[square]
    color = board.color_at(square) is chess.WHITE
    if not _locally_stuck(board, square, frozen, frozen & board.occupied_co[color],
                          fixed[not color]):
        return True
    ptype = board.piece_type_at(square)
    if ptype == chess.KING:
        return False
    if hits[not color] & bb:
        return True
    enemies = prey[not color] | (frozen & board.occupied_co[not color] & ~board.kings)
    return ptype == chess.PAWN and bool(pawn_spread(bb, color) & enemies)


def _add(result: Analysis, tallies: tuple[list[int], ...], square: chess.Square,
         color: bool, mob: Mobility) -> None:
    """Record the mobility of the unit of ``color`` on ``square`` in
    ``result`` and add its reach and hits to ``tallies`` (the round's reach,
    prey and hits, each indexed by colour)."""
    reach, prey, hits = tallies
    result.mobility[square] = mob
    reach[color] |= mob.reach
    prey[color] |= mob.reach
    hits[color] |= mob.hits
    result.attacks[color] |= mob.attacks


#: Called with the analysis so far and the square of the piece whose mobility
#: was just added (None at the end of a round, when all are known); returning
#: True aborts :func:`analyse` (the caller has seen enough to know it cannot
#: conclude).  Sound only for conclusions monotone in the frozen set: every
#: reach, attack set and king region only grows from round to round.
StopTest = Callable[[Analysis, chess.Square | None], bool]


def analyse(board: chess.Board, stop: StopTest | None = None,
            first: chess.Color = chess.WHITE) -> Analysis | None:
    """Compute the frozen pieces and every other piece's mobility.

    The kings' regions are computed first, then the pieces of ``first``
    (queens, rooks, knights, bishops, pawns), then the others; ``stop`` is
    consulted after each and may abort (then the result is None).  The board
    must be a valid standard-chess position (one king each) without a
    pending en passant capture; castling is covered by the king's and
    rook's flood fills.

    >>> a = analyse(chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
    >>> a.frozen, a.mobility[chess.E2].promotes
    (0, True)
    """
    kings = [board.king(chess.BLACK), board.king(chess.WHITE)]
    if kings[0] is None or kings[1] is None:
        raise ValueError("analyse needs one king of each colour")
    frozen = _local_pass(board, board.occupied)
    confined = board.pawns & ~frozen
    order: list[chess.Square] = []
    for color in (first, not first):  # strongest pieces first: earlier stops
        for mask in (board.queens, board.rooks, board.knights, board.bishops, board.pawns):
            order.extend(chess.scan_forward(mask & board.occupied_co[color]))
    while True:
        result = Analysis(board, frozen)
        result.fixed_attacks = fixed = _fixed_attacks(board, frozen)
        reach = [0, 0]
        hits = [0, 0]
        for s in chess.scan_forward(frozen & ~board.kings):
            color = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[s])
            result.attacks[color] |= frozen_attacks(board, s, frozen, blockable=True)
        for color in chess.COLORS:
            king = kings[color]
            assert king is not None
            if frozen & chess.BB_SQUARES[king]:
                result.king_region[color] = chess.BB_SQUARES[king]
                continue
            mob = _king_mobility(king, frozen, fixed[not color])
            result.mobility[king] = mob
            result.king_region[color] = reach[color] = mob.reach
            hits[color] = mob.hits
        for color in chess.COLORS:
            # a king boxed in at most two squares: the other king never
            # plays on from next to the box (see remis.unwinnable.boxed)
            king = kings[color]
            assert king is not None
            terminal = box(board, not color, frozen, result.king_region[not color])
            if not terminal or (frozen | terminal) & chess.BB_SQUARES[king]:
                continue
            mob = _king_mobility(king, frozen, fixed[not color] | terminal)
            if discovery_possible(board, color, frozen, mob.reach, terminal,
                                  result.king_region[not color]):
                continue
            result.mobility[king] = mob
            result.king_region[color] = reach[color] = mob.reach
            hits[color] = mob.hits
            result.boxed[not color] = result.king_region[not color]
        prey = [0, 0]  # squares where a non-king piece of each colour may be
        for s in order:
            if frozen & chess.BB_SQUARES[s] or board.pawns & chess.BB_SQUARES[s]:
                continue
            _add(result, (reach, prey, hits), s, board.color_at(s) is chess.WHITE,
                 _mobility(board, s, frozen, fixed))
            if stop is not None and stop(result, s):
                return None
        # Pawns capture only where an enemy piece may be: a least fixed point.
        pawns = [s for s in order if board.pawns & ~frozen & chess.BB_SQUARES[s]]
        pawn_reach = dict.fromkeys(pawns, 0)
        grown = True
        while grown:
            grown = False
            for s in pawns:
                bb = chess.BB_SQUARES[s]
                color = bool(board.occupied_co[chess.WHITE] & bb)
                mob = _pawn_mobility(
                    s, color, frozen, prey[not color],
                    push_stop(s, color, confined & board.occupied_co[not color]),
                    bool(confined & bb))
                if mob.reach == pawn_reach[s]:
                    continue
                grown = True
                pawn_reach[s] = mob.reach
                _add(result, (reach, prey, hits), s, color, mob)
                if stop is not None and stop(result, s):
                    return None
        if stop is not None and stop(result, None):
            return None
        dropped = 0
        for s in chess.scan_forward(frozen):
            if _can_leave(board, s, frozen, fixed, prey, hits):
                dropped |= chess.BB_SQUARES[s]
        released = 0
        for s in chess.scan_forward(confined):
            color = bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[s])
            mob = result.mobility[s]
            enemies = prey[not color] | (frozen & board.occupied_co[not color] & ~board.kings)
            if (mob.promotes or mob.reach & hits[not color]
                    or pawn_spread(mob.reach, color) & enemies):
                released |= chess.BB_SQUARES[s]
        if not dropped and not released:
            result.confined = confined
            return result
        frozen &= ~dropped
        confined = (confined & ~released) | (dropped & board.pawns)

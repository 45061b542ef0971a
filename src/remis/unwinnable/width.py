"""Best-first width search: the helpmates that are deep and narrow.

Composed positions (and a few real ones) hide their mates behind long,
precise plans: a pawn that must be given up so that another can pass, a
king that walks the length of the board while the other side counts its
last tempo moves, a promotion to a piece that is then captured to open a
file.  The steered depth-first search of :mod:`remis.unwinnable.search`
needs a budget that grows with the depth of such a plan and gives up; an
exhaustive visit drowns in the positions it has to store first.

This module searches the reachable positions best first, in the order of
*novelty* (Lipovetzky and Geffner's width-based planning: "Best-First Width
Search", AAAI 2017): a position that makes true, for the first time, a fact
(a piece of a given kind and colour on a given square, a pawn of the loser's
on a given square, or the side to move) or a pair of facts comes before one
that only repeats what was seen.  The novelty of a position is measured
among positions of its own *context*: the same pawns of the would-be
winner's, the same material (pawns counted) and the same number of free
squares around the loser's king (the squares it could flee to, plus one
unless it is in check).  A new structure of the winner's pawns, a capture or
a promotion, or a king with fewer flights, is progress that opens a fresh
table, so the search keeps exploring what each of them allows.  (With the
loser's pawns in the context rather than among the facts, every move of
theirs opened a fresh table: on the 93 questions of the CHA test vectors
that the width search decided in over 0.5 s, 8.4 million positions in all
instead of 5.3 million; without the pawns counted in the material, the 45
questions that this change made slower took 0.8 million positions instead
of 0.4 million, 0.25 million before the change.)  Among equally novel
positions it takes first those where the would-be winner is closest to a
queen or a rook (a pawn, not rammed, nearest its promotion square), then
those closest to a mate (fewer flights).

No position is ever pruned: every position still waiting is expanded in
time, so a search that runs out of positions has visited every position
reachable from the root (but those where the would-be winner has lost all
mating material): "no mate" is then a proof, as for
:class:`~remis.unwinnable.search.Visit`.  A mate found comes with its line
from the root, and the search can be resumed with a larger budget.

>>> r = WidthSearch(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), chess.WHITE).run(1_000)
>>> r.outcome, r.line
('mate', ('a1a8',))
"""

from __future__ import annotations

import heapq
from bisect import insort
from itertools import pairwise
from time import monotonic

import chess

from remis.unwinnable.material import impossible_to_win
from remis.unwinnable.moves import (
    DIAGONALS,
    ORTHOGONALS,
    SafeTest,
    fast_ok,
    legal_moves,
    legality_test,
    make,
    position_key,
    restore,
    usable_ep,
)
from remis.unwinnable.reach import pawn_spread, slider_targets
from remis.unwinnable.search import SearchResult
from remis.unwinnable.successors import successors

__all__ = ["WidthSearch", "atoms", "context", "flights", "pack", "unpack"]

_KING_ATTACKS = chess.BB_KING_ATTACKS
_KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
_M64 = chess.BB_ALL
#: Fact numbers: a piece other than a pawn is ``64 * (type - 2) + square``
#: (a knight 0-63, ..., a king 256-319; + :data:`_BLACK` for Black's); a
#: pawn of the loser's is ``_PAWN + square``; the side to move is
#: ``_TURN + turn`` (the largest).
_BLACK = 320
#: The en passant bits of a :func:`pack` key.
_EP_BITS = 127 << 449
_PAWN = 640
_TURN = 704
#: From this many new children on, a position's children get their facts
#: from its own (:func:`_moved_atoms`) rather than each from its board.
_MOVED_ATOMS = 3


def atoms(board: chess.Board, winner: chess.Color) -> list[int]:
    """The facts true in ``board`` that novelty is measured on, in a search
    for a mate by ``winner``: where each piece other than a pawn stands,
    where each of the loser's pawns stands (``winner``'s pawns belong to
    the context, :func:`context`), and the side to move; in increasing
    order (as they are generated: White's pieces kind by kind, square by
    square upward, then Black's, then the loser's pawns, then the side to
    move).

    >>> atoms(chess.Board("7k/8/8/8/8/8/8/K7 w - - 0 1"), chess.WHITE)
    [256, 639, 705]
    >>> atoms(chess.Board("7k/8/8/8/8/8/P7/K7 w - - 0 1"), chess.BLACK)
    [256, 639, 648, 705]
    >>> b = chess.Board("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R b - - 0 1")
    >>> atoms(b, chess.WHITE) == sorted(atoms(b, chess.WHITE))
    True
    """
    white = board.occupied_co[chess.WHITE]
    out = []
    for side, offset in ((white, 0), (~white, _BLACK)):
        for base, bb in ((offset, board.knights), (offset + 64, board.bishops),
                         (offset + 128, board.rooks), (offset + 192, board.queens),
                         (offset + 256, board.kings)):
            x = bb & side
            while x:
                low = x & -x
                out.append(base + low.bit_length() - 1)
                x ^= low
    x = board.pawns & board.occupied_co[not winner]
    while x:
        low = x & -x
        out.append(_PAWN + low.bit_length() - 1)
        x ^= low
    out.append(_TURN + board.turn)
    return out


def flights(board: chess.Board, winner: chess.Color) -> int:
    """How far the loser's king is from being mated, crudely: the squares
    next to it that it could step to (not held by its own pieces, not
    attacked by ``winner``), plus one when it is not in check; 0 is a
    mate (or a position where the side to move is mated).

    >>> flights(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), chess.WHITE)
    2
    >>> flights(chess.Board("R6k/8/6K1/8/8/8/8/8 b - - 0 1"), chess.WHITE)
    0
    """
    return _flights(board, winner)[0]


def _flights(board: chess.Board, winner: chess.Color) -> tuple[int, bool]:
    """:func:`flights`, and whether the loser's king is in check (the same
    attack map answers both).

    >>> _flights(chess.Board("R6k/8/6K1/8/8/8/8/8 b - - 0 1"), chess.WHITE)
    (0, True)
    """
    mine = board.occupied_co[winner]
    kings = board.kings & board.occupied_co[not winner]
    if not kings:
        return 9, False
    king = kings.bit_length() - 1
    zone = _KING_ATTACKS[king] & ~board.occupied_co[not winner]
    near = zone | 1 << king
    # the squares of ``near`` the winner attacks (as attackers_mask square
    # by square: the same occupancy, the loser's king included)
    hit = pawn_spread(board.pawns & mine, winner)
    own_king = board.kings & mine
    if own_king:
        hit |= _KING_ATTACKS[own_king.bit_length() - 1]
    occupied = board.occupied
    x = board.knights & mine
    while x:
        low = x & -x
        hit |= _KNIGHT_ATTACKS[low.bit_length() - 1]
        x ^= low
    queens = board.queens & mine
    for x, lines, diagonal in (((board.bishops | queens) & mine, DIAGONALS, True),
                               ((board.rooks | queens) & mine, ORTHOGONALS, False)):
        while x:
            low = x & -x
            sq = low.bit_length() - 1
            if lines[sq] & near:
                hit |= slider_targets(sq, diagonal, not diagonal, occupied)
            x ^= low
    check = bool(hit >> king & 1)
    return (zone & ~hit).bit_count() + (not check), check


def pack(board: chess.Board) -> int:
    """The searches' identity of a position (placement, side to move, en
    passant square, castling rights) as one integer: a third of the memory
    of :func:`~remis.unwinnable.moves.position_key`'s tuple, which matters
    when a million positions are kept.  As there, the en passant square
    counts only where a pawn could capture on it
    (:func:`~remis.unwinnable.moves.usable_ep`).

    >>> b = chess.Board(None)
    >>> unpack(b, pack(chess.Board()))
    >>> b.fen() == chess.STARTING_FEN
    True
    """
    ep = board.ep_square
    if ep is not None:  # (usable_ep's call only where a square is set)
        ep = usable_ep(board)
    return (board.pawns | board.knights << 64 | board.bishops << 128 | board.rooks << 192
            | board.queens << 256 | board.kings << 320 | board.occupied_co[True] << 384
            | board.turn << 448 | (0 if ep is None else ep + 1) << 449
            | board.castling_rights << 456)


def unpack(board: chess.Board, key: int) -> None:
    """Set ``board`` to the position :func:`pack` gave ``key`` for (the
    move stack and the clocks are left alone).

    >>> b = chess.Board()
    >>> key = pack(b)
    >>> b.push_san("e4")
    Move.from_uci('e2e4')
    >>> unpack(b, key)
    >>> b.board_fen() == chess.STARTING_BOARD_FEN and b.turn
    True
    """
    board.pawns = pawns = key & _M64
    board.knights = knights = key >> 64 & _M64
    board.bishops = bishops = key >> 128 & _M64
    board.rooks = rooks = key >> 192 & _M64
    board.queens = queens = key >> 256 & _M64
    board.kings = kings = key >> 320 & _M64
    occupied = pawns | knights | bishops | rooks | queens | kings
    white = key >> 384 & _M64
    board.occupied = occupied
    board.occupied_co[True] = white
    board.occupied_co[False] = occupied & ~white
    board.turn = bool(key >> 448 & 1)
    ep = key >> 449 & 127
    board.ep_square = ep - 1 if ep else None
    board.castling_rights = key >> 456


def context(board: chess.Board, near: int, winner: chess.Color) -> tuple[int, int, int]:
    """The partition a position's novelty is measured in, in a search for a
    mate by ``winner``: ``winner``'s pawns, the material (the number of
    each kind of piece, pawns included, of each colour) and ``near``, the
    loser king's :func:`flights`.  (Where the loser's pawns stand are
    facts, :func:`atoms`.)

    >>> context(chess.Board(), 3, chess.BLACK) == (chess.BB_RANK_7,
    ...                                            context(chess.Board(), 3, True)[1], 3)
    True
    """
    white = board.occupied_co[chess.WHITE]
    material = 0
    for bb in (board.pawns, board.knights, board.bishops, board.rooks, board.queens):
        material = (material << 8) | ((bb & white).bit_count() << 4) | (bb & ~white).bit_count()
    return board.pawns & board.occupied_co[winner], material, near


class WidthSearch:
    """Best-first width search for a checkmate by ``winner`` from ``board``
    (see the module docstring).  :meth:`run` generates positions up to a
    total of ``max_nodes`` (each new position counts once); a later call
    with a larger total goes on where the last one stopped.

    >>> s = WidthSearch(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"), chess.WHITE)
    >>> s.run(10).outcome, s.run(100_000).outcome
    ('limit', 'exhausted')

    With ``still`` (squares whose pieces never move: a focus that finds mates
    but proves nothing), running out of positions is no proof:

    >>> board = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    >>> WidthSearch(board, chess.WHITE, still=chess.BB_E3).run(100_000).outcome
    'limit'
    """

    def __init__(self, board: chess.Board, winner: chess.Color, *,
                 deadline: float | None = None, still: int = 0) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.deadline = deadline
        #: squares whose pieces never move in this search (a focus,
        #: :func:`~remis.unwinnable.focus.idle_pieces`): it still finds real
        #: mates, but running out of positions proves nothing ("limit")
        self.still = still
        self.nodes = 0
        root = pack(self.board)
        # position -> the position it was first reached from (the very key
        # object stored for that one, so no new integer per position: about
        # a third of the memory of a large search), None for the root; the
        # moves of a line are found again at the end (:meth:`_line`)
        self._parents: dict[int, int | None] = {root: None}
        # context -> its novelty table (:data:`Table`)
        self._tables: dict[tuple[int, int, int], Table] = {}
        self._count = 0
        near = flights(self.board, winner)
        self._novelty(context(self.board, near, winner), atoms(self.board, winner))
        # (novelty, promotion distance, flights, order of generation) packed
        # as one number (_priority)
        self._open: list[tuple[int, int]] = [
            (_priority(1, _promotion(self.board, winner), near, 0), root)]
        self._done: SearchResult | None = None

    def _novelty(self, ctx: tuple[int, int, int], facts: list[int]) -> int:
        """1 if a fact is new in ``ctx``, 2 if only a pair of facts is, else
        3; the table of ``ctx`` then holds them all (:func:`_novelty_in`).

        >>> s = WidthSearch(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), chess.WHITE)
        >>> ctx = (0, 0, 0)
        >>> s._novelty(ctx, [1, 2]), s._novelty(ctx, [1, 3]), s._novelty(ctx, [2, 3])
        (1, 1, 2)
        >>> s._novelty(ctx, [1, 2, 3])
        3
        """
        table = self._tables.get(ctx)
        if table is None:
            table = self._tables[ctx] = {}
        return _novelty_in(table, facts)

    def run(self, max_nodes: int) -> SearchResult:
        """Go on until a mate, until every reachable position has been
        expanded (a proof that none is a mate), or until ``max_nodes``
        positions in all have been generated.

        >>> WidthSearch(chess.Board("8/8/8/8/8/2k5/8/K1q5 w - - 0 1"), chess.BLACK).run(50).outcome
        'mate'
        """
        if self._done is not None:
            return self._done
        b = self.board
        fast = fast_ok(b)
        safe = legality_test(b) if fast else b._is_safe
        winner = self.winner
        parents = self._parents
        heap = self._open
        deadline = self.deadline
        expanded = 0
        while heap:
            if self.nodes >= max_nodes or (deadline is not None and not expanded & 63
                                           and expanded and monotonic() > deadline):
                return SearchResult("limit", (), self.nodes, 0)
            priority, key = heapq.heappop(heap)
            expanded += 1
            unpack(b, key)
            if impossible_to_win(b, winner):
                continue
            winners_move = b.turn == winner
            kids = successors(b, key) if fast else None
            computed = kids is not None
            if kids is None:
                kids = _played(b, safe, fast)
            fresh = [kid for kid in kids if kid[0] not in parents]
            if self.still:
                fresh = [kid for kid in fresh if not self.still >> (kid[1] & 63) & 1]
            parent = None
            if computed and len(fresh) >= _MOVED_ATOMS:
                # the children's facts from these (_moved_atoms)
                parent = _parent_facts(b, winner)
                # this position's own context (its flights are in its
                # priority): a move that is not the winner's pawn's, not a
                # capture and not a promotion keeps the winner's pawns and
                # the material
                pawns_here = b.pawns & b.occupied_co[winner]
                occupied_here = b.occupied
                here = context(b, priority >> 40 & 15, winner)
            for child, code in fresh:
                self.nodes += 1
                parents[child] = key
                unpack(b, child)
                near, check = _flights(b, winner)
                if winners_move and check and b.is_checkmate():
                    self._done = SearchResult("mate", self._line(child), self.nodes, 0)
                    return self._done
                if parent is None:
                    novelty = self._novelty(context(b, near, winner), atoms(b, winner))
                elif not (pawns_here >> (code & 63) & 1
                          or occupied_here >> (code >> 6 & 63) & 1 or code >> 12):
                    # a quiet move: the child's context is this position's
                    # but for its flights
                    novelty = self._novelty((here[0], here[1], near),
                                            _moved_atoms(parent, code))
                else:
                    novelty = self._novelty(context(b, near, winner),
                                            _moved_atoms(parent, code))
                self._count += 1
                heapq.heappush(heap, (_priority(novelty, _promotion(b, winner), near,
                                                self._count), child))
        # with pieces held still, the positions left unvisited prove nothing
        self._done = SearchResult("limit" if self.still else "exhausted", (), self.nodes, 0)
        return self._done

    def _line(self, key: int) -> tuple[str, ...]:
        """The moves from the root to the position ``key``: each found again
        as the legal move of its parent whose child packs to the next key
        (the en passant bits aside: no two moves of a position lead to
        placements that differ in them alone).

        >>> b = chess.Board("8/8/8/8/8/2k5/8/K1q5 w - - 0 1")
        >>> line = WidthSearch(b, chess.BLACK).run(500).line
        >>> for uci in line:
        ...     _ = b.push_uci(uci)
        >>> len(line) > 1 and b.is_checkmate()
        True
        """
        chain: list[int] = []
        step: int | None = key
        while step is not None:
            chain.append(step)
            step = self._parents[step]
        chain.reverse()
        board = self.board.copy(stack=False)
        out: list[str] = []
        for parent, child in pairwise(chain):
            unpack(board, parent)
            for move in board.generate_legal_moves():
                board.push(move)
                found = (pack(board) ^ child) & ~_EP_BITS == 0
                board.pop()
                if found:
                    out.append(move.uci())
                    break
            else:  # pragma: no cover - every stored child came from a legal move
                raise AssertionError(f"no move from {board.fen()} to the next position")
        return tuple(out)


def _played(b: chess.Board, safe: SafeTest, fast: bool) -> list[tuple[int, int]]:
    """The children of ``b`` as :func:`~remis.unwinnable.successors.successors`
    gives them, by playing each legal move (in check, with castling rights
    or an en passant capture, in Chess960); ``b`` is left as it was.

    >>> b = chess.Board()
    >>> kids = _played(b, legality_test(b), True)
    >>> len(kids), b.fen() == chess.STARTING_FEN
    (20, True)
    """
    here = position_key(b)  # make() is undone by restore() (cheaper than unpack)
    out = []
    for move in legal_moves(b, safe):
        if fast:
            make(b, move)
            out.append((pack(b), _code(move)))
            restore(b, here)
        else:
            b.push(move)
            out.append((pack(b), _code(move)))
            b.pop()
    return out


#: What :func:`_moved_atoms` needs of a parent: its atoms but the side to
#: move, square -> fact, the mover's colour offset (0 for White, else
#: :data:`_BLACK`) and the children's side-to-move fact.
ParentFacts = tuple[list[int], dict[int, int], int, int]


def _parent_facts(b: chess.Board, winner: chess.Color) -> ParentFacts:
    """The :data:`ParentFacts` of ``b`` in a search for a mate by
    ``winner``, once for all its children.

    >>> b = chess.Board("7k/8/8/8/8/8/8/K7 w - - 0 1")
    >>> facts, at, side, turn = _parent_facts(b, chess.WHITE)
    >>> facts, at, side, turn
    ([256, 639], {0: 256, 63: 639}, 0, 704)
    """
    facts = atoms(b, winner)
    turn = facts.pop() ^ 1  # the other side's turn fact
    return facts, {fact & 63: fact for fact in facts}, 0 if b.turn else _BLACK, turn


def _moved_atoms(parent: ParentFacts, code: int) -> list[int]:
    """:func:`atoms` of the child that the move ``code`` (as
    :func:`~remis.unwinnable.successors.successors` gives it: not a
    castling, not an en passant capture) leads to, from the parent's
    (:func:`_parent_facts`).  A moved piece's fact moves with it (a loser's
    pawn's too), a captured piece's goes, a promoted pawn's new piece comes
    (and a loser's promoted pawn's fact goes).

    >>> b = chess.Board("4k3/1P6/8/8/8/8/8/R3K3 w - - 0 1")
    >>> parent = _parent_facts(b, chess.WHITE)
    >>> _ = b.push_uci("b7b8q")
    >>> code = chess.B7 | chess.B8 << 6 | chess.QUEEN << 12
    >>> _moved_atoms(parent, code) == atoms(b, chess.WHITE)
    True
    """
    facts, at, side, turn = parent
    frm = code & 63
    to = code >> 6 & 63
    out = facts.copy()
    gone = at.get(to)
    if gone is not None:
        out.remove(gone)
    mover = at.get(frm)
    if mover is not None:
        out.remove(mover)
    if code >> 12:
        insort(out, (code >> 12) * 64 - 128 + side + to)
    elif mover is not None:
        insort(out, mover - frm + to)
    out.append(turn)
    return out


#: A context's novelty table: for each fact seen, the facts seen beside it
#: (itself included) as a bitboard of fact numbers (bit ``f`` for fact
#: ``f``); a fact not among its keys is new.  One Python integer per
#: fact instead of a set of pairs: a position of ``n`` facts costs ``n``
#: look-ups rather than ``n * (n - 1) / 2`` tuples hashed.
Table = dict[int, int]


def _novelty_in(table: Table, facts: list[int]) -> int:
    """:meth:`WidthSearch._novelty` in the context whose table is ``table``
    (:data:`Table`, which then holds ``facts`` and their pairs): 1 if a fact
    is new, 2 if only a pair of facts is, else 3.

    >>> table: Table = {}
    >>> _novelty_in(table, [1, 2]), _novelty_in(table, [1, 3]), _novelty_in(table, [2, 3])
    (1, 1, 2)
    >>> _novelty_in(table, [3, 1]), bin(table[1])
    (3, '0b1110')
    """
    mask = 0
    for fact in facts:
        mask |= 1 << fact
    novelty = 3
    for fact in facts:
        beside = table.get(fact)
        if beside is None:
            table[fact] = mask
            novelty = 1
        elif mask | beside != beside:
            table[fact] = mask | beside
            if novelty == 3:
                novelty = 2
    return novelty


def _code(move: chess.Move) -> int:
    """``move`` in 15 bits: from, to, promotion (0 for none)."""
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def _promotion(board: chess.Board, winner: chess.Color) -> int:
    """How far ``winner`` is from a piece that mates on its own: 0 with a
    queen or a rook, else the ranks its most advanced pawn still has to go
    to promote, among its pawns with no pawn right in front (7 without
    such pawns: a rammed pawn waits for a capture).

    >>> _promotion(chess.Board("4k3/8/2P5/8/8/8/P7/4K3 w - - 0 1"), chess.WHITE)
    2
    >>> _promotion(chess.Board("4k3/2p5/2P5/8/8/8/P7/4K3 w - - 0 1"), chess.WHITE)
    6
    >>> _promotion(chess.Board("4k3/8/2P5/8/8/8/P7/R3K3 w - - 0 1"), chess.WHITE)
    0
    """
    mine = board.occupied_co[winner]
    if mine & (board.rooks | board.queens):
        return 0
    pawns = board.pawns & mine & ~(board.pawns >> 8 if winner else board.pawns << 8)
    if not pawns:
        return 7
    if winner:
        return 7 - ((pawns.bit_length() - 1) >> 3)
    return ((pawns & -pawns).bit_length() - 1) >> 3


def _priority(novelty: int, promotion: int, near: int, order: int) -> int:
    """The open list's order as one number: novelty first, then how far the
    winner is from a queen or rook (:func:`_promotion`), then flights, then
    the order of generation (first in, first out).  On the 60 slowest
    questions of the CHA test vectors, ordering by promotion distance took
    15 of them 20% fewer positions (9 of them 90% fewer), one 48% more, and
    11.5 million positions to 7.7 million in all (width search alone).

    >>> _priority(1, 0, 9, 5) < _priority(1, 1, 0, 0) < _priority(2, 0, 0, 0)
    True
    """
    return ((novelty << 3 | promotion) << 4 | near) << 40 | order

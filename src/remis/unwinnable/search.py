"""Helpmate search: can ``winner`` mate when both sides cooperate?

The method follows the published design of CHA (Ambrona, "A Practical
Algorithm for Chess Unwinnability", FUN 2022), written anew for python-chess:

* iterative deepening over a *ply budget*; moves that make progress toward a
  mating corner (the winner's king and knights toward it, the loser's king
  into it, captures and advanced pawn pushes by the winner) cost nothing,
  moves that waste material cost extra, the rest cost one ply; the moves
  are tried cheapest first;
* with only kings, bishops and a blocked pawn chain on the board, CHA's
  ordering for such structures (:func:`semi_blocked`): the kings head for
  the gap between two facing pawns, the winner's captures are free, other
  moves cost extra;
* a transposition table kept across the iterations (as CHA does): a
  position met again with no more budget than it had before, in this
  iteration or an earlier one, is not searched again, so each iteration
  mostly explores what the last one could not reach;
* branches where ``winner`` has lost all mating material are cut
  (:func:`~remis.unwinnable.material.impossible_to_win`);
* every legal move is tried (the costs only order the work), so an iteration
  that finishes without hitting its ply budget or node limit, and without
  leaning on an entry of an earlier iteration (whose own exploration may
  have hit its budget), has visited every reachable position: "no mate" is
  then a *proof* (exhausted search).  An iteration that finishes but leaned
  on earlier entries is run again at the same depth with a fresh table,
  which then proves or not, as before the table was kept.

A found mate is returned as its move list from the root, which is the
evidence of every "can mate" verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from operator import itemgetter
from time import monotonic
from typing import Literal

import chess

from remis.unwinnable.material import impossible_to_win, needs_loser_promotion
from remis.unwinnable.moves import DIAGONALS as _DIAGS
from remis.unwinnable.moves import LINES as _LINES
from remis.unwinnable.moves import ORTHOGONALS as _ORTHO
from remis.unwinnable.moves import (
    Key,
    attackers,
    fast_ok,
    legality_test,
    make,
    pin_blockers,
    position_key,
    restore,
    usable_ep,
)
from remis.unwinnable.ordered import KING_DIST as _KING_DIST
from remis.unwinnable.ordered import KNIGHT_DIST as _KNIGHT_DIST
from remis.unwinnable.ordered import NORMAL as _NORMAL
from remis.unwinnable.ordered import PUNISH as _PUNISH
from remis.unwinnable.ordered import REWARD as _REWARD
from remis.unwinnable.ordered import ordered_moves
from remis.unwinnable.reach import pawn_spread

__all__ = ["HelpmateSearch", "Key", "SearchResult", "Visit", "default_corner", "exhaust",
           "find_helpmate", "mating_targets", "position_key", "semi_blocked"]

Outcome = Literal["mate", "exhausted", "limit"]

_DARK = chess.BB_DARK_SQUARES
#: Longest line the depth-first search follows (free moves can chain far;
#: Python's recursion must stay bounded).  Reaching it ends the iteration
#: without a proof, like any budget.
MAX_LINE = 400
#: The winner's pawns whose moves are free, by colour (where it has a
#: queen or a rook, and pawn moves are not all free).
_ADVANCED = (chess.BB_RANK_4 | chess.BB_RANK_3 | chess.BB_RANK_2,
             chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7)
_KIND = itemgetter(0)  # the sort key of (kind, move): stable, so moves keep their order


def mating_targets(board: chess.Board, winner: chess.Color,
                   corner: chess.Square | None = None) -> tuple[int, int, int, int]:
    """The squares the search steers toward: (winner's king, winner's other
    pieces, loser's king, loser's other pieces), around ``corner`` when
    given, else around a corner whose colour suits the bishops on the board
    (:func:`default_corner`).

    >>> [chess.square_name(s) for s in mating_targets(chess.Board(), chess.WHITE)]
    ['h6', 'h8', 'h8', 'g8']
    >>> [chess.square_name(s) for s in mating_targets(chess.Board(), chess.WHITE, chess.A1)]
    ['a3', 'a1', 'a1', 'b1']
    """
    if corner is None:
        corner = default_corner(board, winner)
    return _TARGETS[corner]


def _targets(corner: chess.Square) -> tuple[int, int, int, int]:
    rank_step = -16 if corner >= 56 else 16
    file_step = -1 if corner & 7 else 1
    return corner + rank_step, corner, corner, corner + file_step


#: :func:`mating_targets` by corner (the searches ask at every node)
_TARGETS = {sq: _targets(sq) for sq in chess.SQUARES}


#: By square: the first corner nearest it (king's distance) of a1, h1, a8, h8.
_NEAREST = [min((chess.A1, chess.H1, chess.A8, chess.H8), key=lambda c: _KING_DIST[sq][c])
            for sq in chess.SQUARES]


def default_corner(board: chess.Board, winner: chess.Color) -> chess.Square:
    """The mating corner the search steers toward by default: where the
    winner has a queen or a rook, the corner nearest the loser's king (ties:
    a1, h1, a8, h8 in that order); else, of the colour that suits the
    bishops on the board, the one on the winner's far side, unless the
    loser's king is clearly nearer the other one.  The line to a nearer
    corner is shorter: on a 3,000 sample of lichess-30k, full mode takes
    117 nodes a position against 136 with the far corner for heavy pieces too.

    >>> chess.square_name(default_corner(chess.Board(), chess.BLACK))
    'h1'
    >>> chess.square_name(default_corner(chess.Board("8/8/8/8/4k3/8/8/3BK3 w - - 0 1"),
    ...                                  chess.WHITE))
    'a8'
    """
    kings = board.kings & board.occupied_co[not winner]
    mine = board.occupied_co[winner]
    if mine & (board.queens | board.rooks):
        return _NEAREST[kings.bit_length() - 1 if kings else 0]  # as Board.king: the highest
    w_bishops = board.bishops & mine
    l_bishops = board.bishops & ~mine
    dark = bool(w_bishops & _DARK) or (not w_bishops and bool(l_bishops & ~_DARK))
    corners = (chess.H8, chess.A1) if dark else (chess.A8, chess.H1)
    far = corners[0] if winner else corners[1]
    near = corners[1] if winner else corners[0]
    corner = far
    if kings:
        king = kings.bit_length() - 1  # as Board.king: the highest such square
        if _KING_DIST[king][near] + 2 < _KING_DIST[king][far]:
            corner = near
    return corner


@dataclass
class SearchResult:
    """What a search found: ``outcome`` is ``"mate"`` (``line`` holds it),
    ``"exhausted"`` (proof that no mate is reachable) or ``"limit"``.

    >>> r = HelpmateSearch(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), chess.WHITE).run()
    >>> r.outcome, r.line, r.depth
    ('mate', ('a1a8',), 1)
    """

    outcome: Outcome
    line: tuple[str, ...]
    nodes: int
    depth: int


def _may_check(board: chess.Board, move: chess.Move, king: int) -> bool:
    """Cheap necessary condition for ``move`` to give check to the king on
    ``king`` (True whenever it does; sometimes when it does not)."""
    frm = move.from_square
    if move.promotion or _LINES[king] & (1 << frm):
        return True  # promotion, or a discovered check is possible
    to = move.to_square
    kbit = 1 << king
    bit = 1 << frm
    if bit & board.knights:
        return bool(chess.BB_KNIGHT_ATTACKS[to] & kbit)
    if bit & board.pawns:
        return bool(chess.BB_PAWN_ATTACKS[board.turn][to] & kbit) or board.is_en_passant(move)
    if bit & board.kings:
        return board.is_castling(move)
    if bit & board.bishops:
        return bool(_DIAGS[to] & kbit)
    if bit & board.rooks:
        return bool(_ORTHO[to] & kbit)
    return bool(_LINES[to] & kbit)


class _Stop(Exception):
    """The global node limit is reached."""


class _IterationFull(Exception):
    """This iteration's node limit is reached: deepen no further in it."""


class HelpmateSearch:
    """One helpmate search for ``winner`` from ``board`` (the board is
    restored when the search returns).  ``corner`` fixes the mating corner
    the moves are steered toward (default: :func:`default_corner`, per
    position); ``pawns`` makes every pawn move of either side free (a
    search aimed at promotions, the pawn races and under-promotions of
    composed endings); ``sacrifice`` makes free the loser's moves that
    capture a pawn of the winner or step where one can capture (a search
    for walls that only the loser's sacrifices open).  Every legal move is
    tried whatever the steering, so an exhausted search is a proof with
    any.  An iteration of the deepening ends after ``iteration_nodes``
    nodes, or ``iteration_growth`` times its ply budget where that is more
    (CHA's iterations grow so: 10,000 nodes a ply), and the next one goes
    a ply deeper.

    >>> s = HelpmateSearch(chess.Board("kb6/8/1K6/8/8/8/8/3B4 w - - 0 1"), chess.WHITE)
    >>> r = s.run()
    >>> r.outcome, len(r.line) % 2
    ('mate', 1)
    """

    #: take :meth:`_loser_leaf` where it applies (off: the general loop,
    #: for the tests that compare the two)
    leaf_shortcut = True

    def __init__(self, board: chess.Board, winner: chess.Color, *, max_nodes: int = 200_000,
                 iteration_nodes: int = 20_000, max_depth: int = 200,
                 prune: Callable[[chess.Board], bool] | None = None,
                 deadline: float | None = None, corner: chess.Square | None = None,
                 pawns: bool = False, sacrifice: bool = False,
                 iteration_growth: int = 0) -> None:
        self.board = board
        self.corner = corner
        self.pawns = pawns
        self.sacrifice = sacrifice
        if sacrifice:  # the loser's free moves are not those of the shortcut
            self.leaf_shortcut = False
        self.deadline = deadline
        self.winner = winner
        self.max_nodes = max_nodes
        self.iteration_nodes = iteration_nodes
        self.iteration_growth = iteration_growth
        self.max_depth = max_depth
        self.prune = prune
        self.nodes = 0
        self._path: list[chess.Move] = []
        self._found: tuple[str, ...] | None = None
        # key -> (iteration << 16) | budget left when the position was searched
        self._tt: dict[Key, int] = {}
        self._iteration = 0
        self._stale = False  # this iteration pruned on an earlier iteration's entry
        self._open: list[Key] = []  # positions on the line being searched
        self._interrupted = False
        self._budget = 0
        self._iter_nodes = 0
        self._iter_limit = iteration_nodes
        self._carried = 0  # nodes of the iteration a node limit stopped
        self._carried_depth = 0
        self._fast = True
        self._is_safe: Callable[[int, int, chess.Move], bool] = board._is_safe
        self._root: Key = position_key(board)

    # ---------------------------------------------------------------- driver
    def run(self, start_depth: int = 1) -> SearchResult:
        """Iterative deepening until a mate, a proof, or the node limit.

        >>> r = HelpmateSearch(chess.Board("8/8/8/8/8/2k5/8/K1q5 w - - 0 1"), chess.WHITE).run()
        >>> r.outcome, r.line
        ('exhausted', ())
        """
        # the search goes back to a position by its key, which drops an en
        # passant square no pawn can use: the caller's board gets it back
        ep = self.board.ep_square
        try:
            return self._deepen(start_depth)
        finally:
            self.board.ep_square = ep

    def _deepen(self, start_depth: int) -> SearchResult:
        depth = start_depth
        self._fast = fast_ok(self.board)
        # the legality test of a pseudo-legal move, out of check
        self._is_safe = legality_test(self.board) if self._fast else self.board._is_safe
        self._root = position_key(self.board)
        # the table of an earlier run (a search resumed with a larger
        # max_nodes) is kept: its entries hold for any root
        fresh = False  # the next iteration starts from an empty table
        self._open.clear()
        # an iteration stopped by the node limit goes on with its count of
        # nodes (its own limit stays that of one uninterrupted iteration)
        carried = self._carried if depth == self._carried_depth else 0
        while True:
            self._iteration += 1
            if fresh:
                self._tt = {}
            self._stale = False
            self._interrupted = False
            self._budget = depth
            self._iter_limit = max(self.iteration_nodes, depth * self.iteration_growth)
            self._iter_nodes, carried = carried, 0
            try:
                found = self._search(depth, False, False)
            except _Stop:
                # the positions on the line were not searched to the end:
                # a resumed run must not prune on them
                for k in self._open:
                    self._tt.pop(k, None)
                self._unwind()
                self._carried, self._carried_depth = self._iter_nodes, depth
                return SearchResult("limit", (), self.nodes, depth)
            except _IterationFull:
                self._unwind()
                found = False
                self._interrupted = True
            if found:
                assert self._found is not None
                return SearchResult("mate", self._found, self.nodes, depth)
            if not self._interrupted:
                if not self._stale:
                    return SearchResult("exhausted", (), self.nodes, depth)
                fresh = True  # the same depth again, leaning on nothing older
                continue
            fresh = False
            if depth >= self.max_depth:
                return SearchResult("limit", (), self.nodes, depth)
            depth += 1

    def _unwind(self) -> None:
        # a limit exception leaves the moves of the current line on the board
        self._open.clear()
        if self._fast:
            restore(self.board, self._root)
            self._path.clear()
        while self._path:
            self._path.pop()
            self.board.pop()

    # ---------------------------------------------------------------- search
    def _search(self, left: int, progress: bool, was_semi: bool) -> bool:
        board = self.board
        winner = self.winner
        self.nodes += 1
        self._iter_nodes += 1
        if self.nodes > self.max_nodes:
            raise _Stop
        if self.deadline is not None and not self.nodes & 255 and monotonic() > self.deadline:
            raise _Stop
        if self._iter_nodes > self._iter_limit:
            raise _IterationFull
        # position_key, inlined (asked at every node)
        white = board.occupied_co[True]
        ep = board.ep_square
        if ep is not None:  # (usable_ep's call only where a square is set)
            ep = usable_ep(board)
        key = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
               board.kings, white, board.turn, board.castling_rights, ep)
        seen = self._tt.get(key)
        if seen is not None and seen & 0xFFFF >= left:
            if seen >> 16 != self._iteration:
                self._stale = True
            return False
        if not (white if winner else board.occupied_co[False]) & (
                board.pawns | board.rooks | board.queens) and impossible_to_win(board, winner):
            return False
        if self.prune is not None and self.prune(board):
            return False
        if left <= 0 or len(self._path) >= MAX_LINE:
            # out of budget, or the line is too long for the recursion:
            # only a mate on the board counts; anything else leaves this
            # iteration unfinished (no proof)
            if board.turn != winner and board.is_check() and board.is_checkmate():
                self._found = tuple(m.uci() for m in self._path)
                return True
            self._interrupted = True
            return False
        # out of check, the pseudo-legal moves in python-chess's order (that
        # of its legal moves), each tested for legality as generate_legal_moves
        # does, but only when the loop below needs to know (a move that is
        # neither searched nor tested for mate needs it only while no legal
        # move was met); in check, the legal evasions
        turn = board.turn
        kings = board.kings
        own = kings & board.occupied_co[turn]  # as Board.king: the highest such square
        mover = own.bit_length() - 1 if own else None
        checkers = 0 if mover is None else attackers(board, not turn, mover)
        checked = mover is None or bool(checkers)
        blockers = 0
        moves: Iterable[chess.Move]
        if mover is None or checked:
            moves = evasions = (list(board.generate_legal_moves()) if mover is None
                                else self._evasions(mover, checkers))
            if not evasions:
                if board.turn != winner and mover is not None:
                    self._found = tuple(m.uci() for m in self._path)
                    return True
                return False
            mover = 0  # (never tested below)
        else:
            blockers = pin_blockers(board, mover)
            if (left == 1 and not progress and board.turn != winner and self.leaf_shortcut
                    and board.knights | board.rooks | board.queens
                    and not _needs_promotion(board, winner, board.occupied_co[winner])):
                return self._loser_leaf(key, mover, blockers, was_semi)
            moves = ()  # generated below, in the order the search takes
        is_safe = self._is_safe
        self._tt[key] = self._iteration << 16 | left
        self._open.append(key)
        path, search = self._path, self._search
        fast = self._fast
        winners_turn = board.turn == winner
        theirs = kings & board.occupied_co[not winner]
        king = theirs.bit_length() - 1 if theirs else None
        classified: Iterable[tuple[int, chess.Move]] = (
            self._generated() if not checked else self._classify(moves))
        semi = was_semi
        if not board.knights | board.rooks | board.queens and _structure_blocked(board):
            # (the test first: elsewhere the moves stay a lazy generator)
            classified, semi = _blocked_order(board, winner, list(classified), was_semi,
                                              self.corner)
        legal = 0  # legal moves met (none: a stalemate)
        for kind, move in classified:
            if kind == _REWARD or (kind == _NORMAL and progress):
                child = left
            elif kind == _NORMAL:
                child = left - 1
            else:
                child = max(left - 3, 0)
            if child <= 0:
                # the child gets no budget: only a mate on the board would
                # count, and only a checking move by the winner can give one;
                # any other legal move only leaves the iteration unfinished
                if not winners_turn or king is None or not _may_check(board, move, king):
                    if not (legal and self._interrupted) and (
                            checked or is_safe(mover, blockers, move)):
                        legal += 1
                        self._interrupted = True
                    continue
                if not checked and not is_safe(mover, blockers, move):
                    continue
                legal += 1
                self._interrupted = True
                self.nodes += 1
                make(board, move) if fast else board.push(move)
                # (the loser's king has not moved: is it in check, and mated?)
                giving = attackers(board, winner, king)
                mate = bool(giving) and not self._evasions(king, giving, first=True)
                restore(board, key) if fast else board.pop()
                if mate:
                    self._found = tuple(m.uci() for m in [*path, move])
                    return True
                continue
            if not checked and not is_safe(mover, blockers, move):
                continue
            legal += 1
            make(board, move) if fast else board.push(move)
            path.append(move)
            found = search(child, kind == _REWARD, semi)
            path.pop()
            restore(board, key) if fast else board.pop()
            if found:
                return True
        self._open.pop()
        if not legal:
            del self._tt[key]  # stalemate: as if never expanded
        return False

    def _evasions(self, king: int, checkers: int, first: bool = False) -> list[chess.Move]:
        """The legal moves of the side to move, in check from ``checkers``
        (python-chess's evasions and order, with the search's legality
        test); only the first one with ``first``."""
        board = self.board
        blockers = pin_blockers(board, king)
        safe = self._is_safe
        out = []
        for move in board._generate_evasions(king, checkers):
            if safe(king, blockers, move):
                out.append(move)
                if first:
                    break
        return out

    def _loser_leaf(self, key: Key, mover: int, blockers: int, semi: bool) -> bool:
        """The loop of :meth:`_search` at a loser's node, out of check, with
        one ply of budget and no progress on the move before: only the free
        moves (:meth:`_classify`: the king or a knight stepping toward its
        target) get a budget, every other move only needs to be known legal
        (a stalemate, or an unfinished iteration), so the free moves are
        generated first (:func:`~remis.unwinnable.ordered.ordered_moves`)
        and the others lazily, until one is legal.  Same moves, same order,
        same answers as the general loop (not used where the costs differ: a promotion
        needed, or the blocked-structure order); with every pawn move free
        (``pawns``), the pawns' steps forward are free moves too."""
        board = self.board
        _, _, lk_t, lp_t = mating_targets(board, self.winner, self.corner)
        self._tt[key] = self._iteration << 16 | 1
        self._open.append(key)
        # the free moves come first (with every pawn move free, the pawns'
        # steps forward too), then the others
        moves = ordered_moves(board, False, lk_t, lp_t, chess.BB_ALL if self.pawns else 0)
        is_safe = self._is_safe
        path, fast = self._path, self._fast
        legal = 0
        other = None  # the first move that is not free
        for kind, move in moves:
            if kind != _REWARD:
                other = move
                break
            if not is_safe(mover, blockers, move):
                continue
            legal += 1
            make(board, move) if fast else board.push(move)
            path.append(move)
            found = self._search(1, True, semi)
            path.pop()
            restore(board, key) if fast else board.pop()
            if found:
                return True
        if other is not None and not (legal and self._interrupted) and (
                is_safe(mover, blockers, other)
                or any(is_safe(mover, blockers, move) for _, move in moves)):
            legal += 1
            self._interrupted = True
        self._open.pop()
        if not legal:
            del self._tt[key]  # stalemate: as if never expanded
        return False

    def _generated(self) -> Iterator[tuple[int, chess.Move]]:
        """The pseudo-legal moves of the position (out of check) with
        their costs, as :meth:`_classify` gives them, generated class by
        class (:mod:`remis.unwinnable.ordered`)."""
        board = self.board
        winner = self.winner
        wk_t, wp_t, lk_t, lp_t = mating_targets(board, winner, self.corner)
        if board.turn == winner:
            return ordered_moves(board, True, wk_t, wp_t, self._winners_free_pawns())
        if self.sacrifice or _needs_promotion(board, winner, board.occupied_co[winner]):
            return self._classify(board.generate_pseudo_legal_moves())
        return ordered_moves(board, False, lk_t, lp_t, chess.BB_ALL if self.pawns else 0)

    def _winners_free_pawns(self) -> int:
        """The squares from which a pawn move of the winner is free: the
        advanced ranks (:data:`_ADVANCED`), or the whole board where every
        pawn move is free or the winner has no queen or rook (promoting is
        then the way to mate)."""
        board = self.board
        if self.pawns or not board.occupied_co[self.winner] & (board.queens | board.rooks):
            return chess.BB_ALL
        return _ADVANCED[self.winner]

    def _classify(self, moves: Iterable[chess.Move]) -> Iterator[tuple[int, chess.Move]]:
        """``moves`` with their costs, cheapest first, in ``moves``' order
        among equals (a stable sort), lazily: a free move comes out as soon
        as it is generated (no later move can come before it), the others
        once ``moves`` is used up, so a node whose first free move leads to
        a mate generates no more moves.  (The board must be as it was each
        time the next move is asked for.)"""
        board = self.board
        winner = self.winner
        wk_t, wp_t, lk_t, lp_t = mating_targets(board, winner, self.corner)
        kings = board.kings
        knights = board.knights
        pawns = board.pawns
        occupied_them = board.occupied_co[not board.turn]
        normal: list[tuple[int, chess.Move]] = []
        if board.turn == winner:
            adv = self._winners_free_pawns()
            for m in moves:
                frm, to = m.from_square, m.to_square
                bit = 1 << frm
                if (1 << to) & occupied_them or (bit & pawns and (bit & adv or m.promotion)):
                    yield _REWARD, m
                elif bit & kings:
                    if _KING_DIST[to][wk_t] < _KING_DIST[frm][wk_t]:
                        yield _REWARD, m
                    else:
                        normal.append((_NORMAL, m))
                elif bit & knights and _KNIGHT_DIST[to][wp_t] < _KNIGHT_DIST[frm][wp_t]:
                    yield _REWARD, m
                else:
                    normal.append((_NORMAL, m))
            yield from normal
            return
        mine = board.occupied_co[winner]
        ep = board.ep_square
        need_promo = _needs_promotion(board, winner, mine)
        bait = _bait(board, winner) if self.sacrifice else 0
        out: list[tuple[int, chess.Move]] = []
        punish: list[tuple[int, chess.Move]] = []
        for m in moves:
            frm, to = m.from_square, m.to_square
            bit = 1 << frm
            kind = _NORMAL
            if need_promo:
                heavy = m.promotion in (chess.QUEEN, chess.ROOK)
                kind = _REWARD if bit & pawns and not heavy else _PUNISH
            if bit & kings:
                if _KING_DIST[to][lk_t] < _KING_DIST[frm][lk_t]:
                    kind = _REWARD
                elif (1 << to) & occupied_them:
                    kind = _PUNISH
            elif ((1 << to) & bait  # a sacrifice (only with ``sacrifice``)
                  or (bit & knights and _KNIGHT_DIST[to][lp_t] < _KNIGHT_DIST[frm][lp_t])):
                kind = _REWARD
            elif (1 << to) & occupied_them or (bit & pawns and to == ep):
                kind = _PUNISH
            elif self.pawns and bit & pawns:
                kind = _REWARD
            if need_promo:
                out.append((kind, m))
            elif kind == _REWARD:
                yield kind, m
            elif kind == _NORMAL:
                normal.append((kind, m))
            else:
                punish.append((kind, m))
        if need_promo:
            # where a promotion is the way to mate, try the pawn moves first
            # among equals (python-chess generates them last)
            out.reverse()
            out.sort(key=_KIND)
            yield from out
            return
        yield from normal
        yield from punish


def _bait(board: chess.Board, winner: chess.Color) -> int:
    """The squares where a move of the loser is a sacrifice that may open a
    wall: those of the winner's pawns, and those its pawns attack.

    >>> chess.SquareSet(_bait(chess.Board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), chess.WHITE))
    SquareSet(0x0000_0000_0002_0100)
    """
    pawns = board.pawns & board.occupied_co[winner]
    return pawns | pawn_spread(pawns, winner)


def semi_blocked(board: chess.Board) -> int | None:
    """The first square between a white pawn and a black pawn two ranks above
    it on the same file (the square may be occupied), else None: in a
    structure of rammed pawns, where it may still open or a king come.

    >>> chess.square_name(semi_blocked(chess.Board("4k3/8/3p4/8/3P4/8/8/4K3 w - - 0 1")))
    'd5'
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    between = (white << 8) & (black >> 8)
    return chess.lsb(between) if between else None


def _files(bb: int) -> int:
    """The files (bit ``f`` for file ``f``) holding a square of ``bb``."""
    bb |= bb >> 32
    bb |= bb >> 16
    bb |= bb >> 8
    return bb & 0xFF


def _structure_blocked(board: chess.Board) -> bool:
    """At least four white pawns rammed by black pawns, and every file with a
    pawn that may still move of one colour has one of the other colour."""
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & board.occupied_co[chess.BLACK]
    if ((white << 8) & black).bit_count() < 4:
        return False
    return _files(white & ~chess.BB_RANK_7) == _files(black & ~chess.BB_RANK_2)


def _blocked_order(board: chess.Board, winner: chess.Color,
                   classified: list[tuple[int, chess.Move]], was_semi: bool,
                   corner: chess.Square | None = None
                   ) -> tuple[list[tuple[int, chess.Move]], bool]:
    """Re-cost the moves of a position with only kings, bishops and a
    blocked pawn structure (CHA's heuristic for such positions): where
    opposing pawns face each other with one square between (now or earlier
    on the line), winner's captures are free, king moves toward that square
    are free, other king moves cost one ply and everything else costs extra;
    otherwise slow pieces heading for the mating corner are free when the
    loser has two bishops.  Only the order and depth change: every legal move
    is still tried.  Returns the moves and whether the line is semi-blocked.
    (The caller has checked the structure: :func:`_structure_blocked`.)"""
    target = semi_blocked(board)
    out: list[tuple[int, chess.Move]] = []
    winners_turn = board.turn == winner
    if target is not None or was_semi:
        for kind, m in classified:
            bit = 1 << m.from_square
            if winners_turn and board.is_capture(m):
                kind = _REWARD
            elif bit & board.kings:
                kind = _NORMAL
                if target is not None and (_KING_DIST[m.to_square][target]
                                           < _KING_DIST[m.from_square][target]):
                    kind = _REWARD
            else:
                kind = _PUNISH
            out.append((kind, m))
        out.sort(key=lambda km: km[0])
        return out, True
    if chess.popcount(board.bishops & board.occupied_co[not winner]) < 2:
        return classified, False
    wk_t, wp_t, lk_t, lp_t = mating_targets(board, winner, corner)
    for kind, m in classified:
        bit = 1 << m.from_square
        if bit & (board.kings | board.bishops):
            if winners_turn:
                t = wk_t if bit & board.kings else wp_t
            else:
                t = lk_t if bit & board.kings else lp_t
            if _KING_DIST[m.to_square][t] < _KING_DIST[m.from_square][t]:
                kind = _REWARD
        out.append((kind, m))
    out.sort(key=lambda km: km[0])
    return out, False


def _needs_promotion(board: chess.Board, winner: chess.Color, mine: int) -> bool:
    if mine & (board.pawns | board.rooks | board.queens):
        return False
    return needs_loser_promotion(board, winner)


def find_helpmate(board: chess.Board, winner: chess.Color, *, max_nodes: int = 200_000,
                  prune: Callable[[chess.Board], bool] | None = None) -> SearchResult:
    """Search for a helpmate by ``winner`` (see :class:`HelpmateSearch`).

    >>> find_helpmate(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK).outcome
    'mate'
    """
    return HelpmateSearch(board, winner, max_nodes=max_nodes, prune=prune).run()


def exhaust(board: chess.Board, winner: chess.Color, *, max_nodes: int = 100_000,
            prune: Callable[[chess.Board], bool] | None = None,
            deadline: float | None = None) -> SearchResult:
    """Visit every position reachable from ``board`` (breadth first, each
    once) looking for a checkmate by ``winner`` (see :class:`Visit`, which
    can also be resumed).

    >>> exhaust(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"), chess.WHITE).outcome
    'exhausted'
    >>> exhaust(chess.Board("kb6/8/1K6/8/8/8/8/3B4 w - - 0 1"), chess.WHITE).line
    ('d1f3',)
    """
    return Visit(board, winner, prune=prune, deadline=deadline).run(max_nodes)


class Visit:
    """Breadth-first visit of every position reachable from ``board``, each
    once, looking for a checkmate by ``winner``.  Finishing the visit
    without one is a proof that none exists; positions where ``winner`` has
    lost all mating material (or ``prune`` proves it) are dead ends.  A mate
    found is a shortest one.  :meth:`run` expands positions up to a total
    of ``max_nodes`` (and ten times as many moves played: where many pieces
    move, each expansion costs more); a later call with a larger total goes
    on where the last one stopped.

    >>> v = Visit(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"), chess.WHITE)
    >>> v.run(10).outcome, v.run(100_000).outcome
    ('limit', 'exhausted')
    """

    def __init__(self, board: chess.Board, winner: chess.Color, *,
                 prune: Callable[[chess.Board], bool] | None = None,
                 deadline: float | None = None) -> None:
        self.board = board.copy(stack=False)
        self.winner = winner
        self.prune = prune
        self.deadline = deadline
        self.nodes = 0
        self.pushes = 0
        self.depth = 0
        root = position_key(self.board)
        self._parents: dict[Key, tuple[Key, chess.Move] | None] = {root: None}
        self._frontier = [root]
        self._next: list[Key] = []
        self._index = 0  # next position of the frontier to expand
        self._done: SearchResult | None = None

    @property
    def seen(self) -> int:
        """Positions found so far (expanded or waiting to be).

        >>> v = Visit(chess.Board(), chess.WHITE)
        >>> v.run(1).outcome, v.seen
        ('limit', 21)
        """
        return len(self._parents)

    def run(self, max_nodes: int) -> SearchResult:
        """Go on with the visit until ``max_nodes`` positions in all have
        been expanded (or the end: a mate, or every position seen).

        >>> v = Visit(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), chess.WHITE)
        >>> r = v.run(1_000)
        >>> r.outcome, r.line
        ('mate', ('a1a8',))
        """
        if self._done is not None:
            return self._done
        b = self.board
        fast = fast_ok(b)
        winner, prune, deadline = self.winner, self.prune, self.deadline
        loser = not winner
        parents = self._parents
        gen = b.generate_legal_moves
        while self._frontier:
            frontier, nxt = self._frontier, self._next
            while self._index < len(frontier):
                if self.nodes >= max_nodes or self.pushes > 10 * max_nodes or (
                        deadline is not None and not self.nodes & 63
                        and monotonic() > deadline):
                    return SearchResult("limit", (), self.nodes, self.depth)
                k = frontier[self._index]
                self._index += 1
                self.nodes += 1
                restore(b, k)
                if impossible_to_win(b, winner) or (prune is not None and prune(b)):
                    continue
                moves = list(gen())
                if not moves:
                    if b.turn == loser and b.is_check():
                        self._done = SearchResult("mate", _line(parents, k), self.nodes,
                                                  self.depth)
                        return self._done
                    continue
                self.pushes += len(moves)
                for m in moves:
                    if fast:
                        make(b, m)
                        ck = position_key(b)
                        restore(b, k)
                    else:
                        b.push(m)
                        ck = position_key(b)
                        b.pop()
                    if ck not in parents:
                        parents[ck] = (k, m)
                        nxt.append(ck)
            self._frontier, self._next, self._index = nxt, [], 0
            self.depth += 1
        self._done = SearchResult("exhausted", (), self.nodes, self.depth)
        return self._done


def _line(parents: dict[Key, tuple[Key, chess.Move] | None], k: Key) -> tuple[str, ...]:
    out: list[str] = []
    step = parents[k]
    while step is not None:
        k, move = step
        out.append(move.uci())
        step = parents[k]
    return tuple(reversed(out))

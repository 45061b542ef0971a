"""Can this player still checkmate by any sequence of legal moves?

This decides the dead position (5.2.2: neither can), the flag fall (6.9), a
resignation (5.1.2), a second illegal move (7.5.5) and the rapid/blitz flag
claim (A.5.3).  The answer is a :class:`Verdict`: ``True`` with a helpmate line
as evidence, ``False`` with the reason, or ``None`` when a limit (or quick mode)
could not decide.  A ``False`` is a proof: never "cannot mate" where a
helpmate exists.

The stages, cheapest first (see :func:`can_checkmate`): material, forced
moves, the static proof of :mod:`remis.unwinnable.static` (when present)
(where pawns stand rammed, a few turns of the steered searches and a short
width search), a first slice in which helpmate searches steered differently
take turns
(:mod:`remis.unwinnable.search`, :data:`PORTFOLIO`), the static proof after
every legal move, where some pieces can never take part in a mate a width
search that holds them still (:mod:`remis.unwinnable.focus`: it finds
mates, never proofs), a first part of the best-first width search of the
reachable positions (:mod:`remis.unwinnable.width`: deep, narrow helpmates,
and a proof when the reachable positions are few), the rest of the steered
searches and short searches toward the other mating corners, the rest of
the width search, and last (default budgets only) longer steered searches.
The budgets are counted in nodes, so a verdict never depends on the
machine's load (``max_seconds`` is an explicit opt-in).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice
from numbers import Integral, Real
from typing import Literal

import chess

from remis.fen import illegal_reason
from remis.unwinnable.focus import idle_pieces
from remis.unwinnable.material import impossible_to_win, material_reason, needs_loser_promotion
from remis.unwinnable.moves import Key, legal_count, position_key, pseudo_legal_count
from remis.unwinnable.replies import every_line_ends
from remis.unwinnable.search import HelpmateSearch, SearchResult, default_corner
from remis.unwinnable.static import static_unwinnable
from remis.unwinnable.width import WidthSearch

Mode = Literal["full", "quick"]

StaticProof = Callable[[chess.Board, chess.Color], "str | None"]

#: The static proof (blocked structures, unreachable king regions).
STATIC: StaticProof | None = static_unwinnable

#: Node budgets: full mode (the default helpmate search in all, its first
#: slice), each short search toward another mating corner (and each search
#: of :data:`PORTFOLIO` in all), quick mode.
FULL_NODES = 100_000
FIRST_NODES = 10_000
ALT_NODES = 4_500
QUICK_NODES = 20
#: Quick mode's search budget where at most four units stand on the board
#: (K+Q v K, K+R v K, K+P v K, ...): their helpmates are a dozen plies or
#: more, which 20 nodes rarely reach.  On lichess-30k, 80 nodes decide 555
#: questions instead of 421 for about 1% of quick mode's time (160: 586
#: for 9%).
QUICK_FEW_NODES = 80
#: The width search (:class:`~remis.unwinnable.width.WidthSearch`, one
#: search resumed at each stage), in positions generated: behind a locked
#: pawn structure before the steered searches, after their first slice
#: (in general, and where both sides have pawns), and in all.  The deepest
#: helpmate of the CHA test vectors needs about 700,000; the largest proof
#: by exhaustion there about 200,000.  Where both sides have pawns, the
#: width search (whose contexts are the pawn structures) finds the deep
#: pawn plans and the proofs that the steered searches miss, so it gets
#: more before the rest of them; elsewhere the steered searches decide more
#: often.  On the 412 questions of the CHA test vectors that take over
#: 0.3 s, the larger first part took 11 of them under 2 s (50 over 2 s to
#: 39); given to every position with a pawn it would also have made 4
#: positions without pawns slow, and the slowest lichess-30k position (a
#: lone bishop against pawns) 3.5 s instead of 1 s.
WIDTH_LOCKED_NODES = 3_000
#: Where at least two pairs of pawns stand rammed head-on (but the position
#: is not :func:`_locked`), the width search's first WIDTH_EARLY_NODES come
#: after each search of the portfolio has had EARLY_PORTFOLIO_NODES.  On
#: the CHA test vectors whose questions took over 1,500 nodes, 411 of 865
#: are decided by the width search in 2,000 positions or fewer, which the
#: steered searches' first slice (about 28,000 nodes) mostly failed to
#: decide; on lichess-30k, 53 questions of 30,000 reach the short width
#: search (and 4 of them change).  8,000 positions rather than 4,000: the
#: vectors 3.2% fewer nodes, lichess-30k the same.
EARLY_PORTFOLIO_NODES = 400
WIDTH_EARLY_NODES = 8_000
WIDTH_FIRST_NODES = 60_000
WIDTH_FIRST_PAWNS = 200_000
WIDTH_NODES = 1_000_000
#: The last stage of full mode under the default budgets, where every
#: other one has left the question open: the default steered search
#: resumed up to LAST_NODES in all, then a fresh one of GROWN_NODES whose
#: iterations get ITERATION_GROWTH nodes a ply of depth (as CHA's do)
#: rather than a fixed 20,000.  In a differential check against CHA on
#: 37,125 positions (mutations of the CHA test vectors, real and random
#: endgames; 2026-12-04), full mode left 5 questions open that CHA decides;
#: this stage decides 3 of them (the default search needs 116,000 and
#: 121,000 nodes on two, the growing one 338,000 on the third).  Questions
#: decided earlier never get here.
LAST_NODES = 400_000
GROWN_NODES = 400_000
ITERATION_GROWTH = 10_000
#: Under the default budgets, where some pieces can never take part in a
#: mate (:func:`~remis.unwinnable.focus.idle_pieces`), a width search of up
#: to FOCUS_NODES positions that holds them still comes before the width
#: search's first part (0 leaves it out).  It decides the two questions of that differential
#: check left open: ``3b4/b1k5/7b/p1p1p1p1/P1P1P1P1/2K5/4BbB1/8 w`` for
#: Black (three bishops and a king shut above a pawn wall; a 24-ply helpmate
#: where the whole width search found none in 1,000,000 positions) and
#: ``4B1Bb/7B/1k5b/5B2/1p1p1pBp/bPpP1P1P/2Pb4/N1b1b1K1 b`` for White (34
#: plies; CHA's is about 400), in 1.2 and 2.1 s.  On the CHA test vectors,
#: 289 questions have such pieces, 275 of them decided before it (mostly by
#: the static proof); the 14 others (helpmates behind bishop walls) take
#: 11.1 s in all instead of 19.3 s.  No lichess-30k position has such pieces.
FOCUS_NODES = 300_000
#: The searches that take turns in full mode (:class:`_Portfolio`), in
#: this order, as (mating corner, every pawn move free): with free pawn
#: moves toward the default corner, the default steering, then with free
#: pawn moves toward each corner but the default one (:func:`_distinct`);
#: the first budget of each (each search but the default one has
#: ALT_NODES in all).  On lichess positions the
#: search with free pawn moves finds a mate with fewer nodes more often
#: than the default one (mean 108 nodes against 162, a 3,000 sample), so
#: it takes its turn first.
PORTFOLIO: tuple[tuple[chess.Square | None, bool], ...] = (
    (None, True), (None, False), (chess.A1, True), (chess.H1, True), (chess.A8, True),
    (chess.H8, True))
PORTFOLIO_START = 200
#: Moves that quick mode's three-ply proof by the loser's replies may play
#: (:func:`_replies_verdict`).
REPLIES_NODES = 300
FORCED_PLIES = 100


@dataclass(frozen=True)
class Verdict:
    """The answer to "can ``color`` still checkmate?".

    ``value``: True (a helpmate exists, ``line`` holds one as UCI moves from
    the given position: evidence that replays to a mate, not always the
    shortest helpmate), False (proved impossible, ``reason`` says why), None
    (undecided within the limits).  ``method`` names the stage that decided:
    ``material``, ``forced``, ``static``, ``search`` (a steered helpmate
    search found the mate), ``width`` (the width search found it), ``focus``
    (found by the width search holding still the pieces that cannot take
    part in a mate, :mod:`remis.unwinnable.focus`), ``exhaustive`` (every
    reachable position was visited, or a steered search tried every move,
    and none is a mate) or ``undecided``.

    >>> v = can_checkmate(chess.Board("8/8/8/8/8/4k3/8/4K2B w - - 0 1"), chess.WHITE)
    >>> v.value, v.method, v.reason
    (False, 'material', 'insufficient material: White can never checkmate (K+B v K)')
    """

    color: chess.Color
    value: bool | None
    reason: str
    line: tuple[str, ...] = ()
    nodes: int = 0
    details: dict[str, object] = field(default_factory=dict)
    method: str = "undecided"

    def to_json(self) -> dict[str, object]:
        """JSON form: value, reason, helpmate line, deciding stage.

        >>> Verdict(chess.WHITE, False, "bare king", method="material").to_json()["line"] is None
        True
        """
        return {"value": self.value, "reason": self.reason,
                "line": list(self.line) if self.value else None, "method": self.method}


def _name(color: chess.Color) -> str:
    return "White" if color else "Black"


def check_position(board: chess.Board) -> None:
    """Raise :class:`ValueError` naming the defect when ``board`` is not a
    legal chess position (both kings in check, pawns on the back rank, the
    side not to move in check, ...).

    >>> check_position(chess.Board("4k3/8/8/8/8/8/8/4K2r b - - 0 1"))
    Traceback (most recent call last):
    ...
    ValueError: illegal position: the side not to move is in check (4k3/8/8/8/8/8/8/4K2r b - - 0 1)
    """
    reason = illegal_reason(board)
    if reason is not None:
        raise ValueError(f"illegal position: {reason} ({board.fen()})")


def _check_arguments(board: object, color: object, max_nodes: object,
                     max_seconds: object) -> None:
    """Raise :class:`TypeError` or :class:`ValueError` naming the argument
    of :func:`can_checkmate` that is of the wrong kind or out of range.

    >>> _check_arguments(chess.Board(), "white", None, None)
    Traceback (most recent call last):
    ...
    TypeError: color must be chess.WHITE or chess.BLACK (a bool), not 'white'
    >>> _check_arguments(chess.Board(), chess.WHITE, 0, None)
    Traceback (most recent call last):
    ...
    ValueError: max_nodes must be at least 1, not 0
    """
    if not isinstance(board, chess.Board):
        raise TypeError(f"board must be a chess.Board, not {type(board).__name__} "
                        "(for a FEN, pass chess.Board(fen))")
    if not isinstance(color, bool):
        raise TypeError(f"color must be chess.WHITE or chess.BLACK (a bool), not {color!r}")
    if max_nodes is not None and (not isinstance(max_nodes, Integral)
                                  or isinstance(max_nodes, bool) or max_nodes < 1):
        raise ValueError(f"max_nodes must be at least 1, not {max_nodes!r}")
    if max_seconds is not None and not (isinstance(max_seconds, Real)
                                        and float(max_seconds) > 0):
        raise ValueError(f"max_seconds must be above 0, not {max_seconds!r}")


def _mated(board: chess.Board, color: chess.Color) -> bool:
    return board.turn != color and board.is_check() and board.is_checkmate()


def _forced(board: chess.Board, color: chess.Color,
            limit: int) -> tuple[list[chess.Move], Verdict | None]:
    """Play the moves that are the only legal move (at most ``limit``).  The
    verdict is set when the forced sequence alone decides."""
    line: list[chess.Move] = []
    for _ in range(limit):
        moves = list(islice(board.generate_legal_moves(), 2))  # is there only one?
        if len(moves) != 1:
            if not moves:
                ucis = tuple(m.uci() for m in line)
                if board.is_check() and board.turn != color:
                    return line, Verdict(color, True, _found_text(color, ucis), ucis,
                                         method="forced")
                what = "checkmate of " + _name(color) if board.is_check() else "stalemate"
                if not line:  # the game is over already
                    return line, Verdict(color, False, f"the position is a {what}: no legal move",
                                         method="forced")
                return line, Verdict(
                    color, False,
                    f"forced sequence: every legal continuation ends in {what} "
                    f"after {len(line)} forced plies ({' '.join(ucis) or 'now'})",
                    method="forced", details={"forced": list(ucis)})
            return line, None
        board.push(moves[0])
        line.append(moves[0])
        if impossible_to_win(board, color):
            ucis = tuple(m.uci() for m in line)
            why = material_reason(board, color) or "insufficient material"
            return line, Verdict(color, False,
                                 f"forced sequence {' '.join(ucis)} leads to {why}",
                                 method="forced", details={"forced": list(ucis)})
    return line, None


def _small(board: chess.Board, color: chess.Color) -> bool:
    """Few pieces and no queen or rook for ``color``: worth a tiny search."""
    mine = board.occupied_co[color]
    return not mine & (board.queens | board.rooks) and chess.popcount(board.occupied) <= 6


def _static_candidate(board: chess.Board, color: chess.Color) -> bool:
    """Where quick mode tries the static proof (0.1-0.5 ms): pawns, no
    queen or rook, and at most one pawn of ``color`` free to advance (not
    rammed head-on by an enemy pawn, nor behind its own pawns that are,
    :func:`_stuck_pawns`).  Candidates: 780 of lichess-30k's 30,000
    questions (the proof holds in one), 26,132 of the 88,387 lichess unfair
    timeouts, 2,022 of the 3,606 CHA-vector questions; with knights there
    (no longer left out, 2026-12-03) quick mode proves 1,323 of those
    "cannot mate" instead of 1,124 and 88,345 timeouts instead of 88,344,
    for 243 more candidates on lichess-30k.  Counting every pawn with
    another ahead on its file as not free would add 38 proofs on the
    vectors and 1 timeout for 918 more candidates on lichess-30k (about
    +5 us on its quick mean).

    >>> _static_candidate(chess.Board("8/8/1k6/1p1p2p1/1P1P2P1/1K4P1/8/8 b - - 1 52"),
    ...                   chess.WHITE)
    True
    >>> _static_candidate(chess.Board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1"), chess.WHITE)
    False
    >>> _static_candidate(chess.Board("2k5/1p6/1Pp5/2P5/8/8/8/2K2N2 w - - 0 1"), chess.BLACK)
    True
    """
    if not board.pawns or board.queens | board.rooks:
        return False
    mine = board.pawns & board.occupied_co[color]
    return chess.popcount(mine & ~_stuck_pawns(board, color)) <= 1


def _stuck_pawns(board: chess.Board, color: chess.Color) -> int:
    """The pawns of ``color`` that cannot advance until a capture: rammed
    head-on by an enemy pawn, or right behind such a pawn of their own
    (and so on down the file).

    >>> b = chess.Board("8/5p2/1k3p1p/3p1p1P/p1pP1P2/P1P4K/8/8 w - - 28 76")
    >>> chess.SquareSet(_stuck_pawns(b, chess.BLACK)) == chess.SquareSet(
    ...     chess.BB_F7 | chess.BB_F6 | chess.BB_F5 | chess.BB_H6 | chess.BB_D5 | chess.BB_C4
    ...     | chess.BB_A4)  # every black pawn: f7 and f6 behind f5, which meets f4
    True
    >>> chess.SquareSet(_stuck_pawns(chess.Board("4k3/p7/p7/8/8/8/P7/4K3 w - - 0 1"),
    ...                              chess.BLACK))  # a6 is not rammed: neither is a7
    SquareSet(0x0000_0000_0000_0000)
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    mine, theirs = (white, board.pawns & ~white) if color else (board.pawns & ~white, white)
    stuck = 0
    while True:
        ahead = theirs | stuck
        more = mine & (ahead >> 8 if color else (ahead << 8) & chess.BB_ALL)
        if more == stuck:
            return stuck
        stuck = more


def _free_pawns(board: chess.Board, color: chess.Color) -> int:
    """The pawns of ``color`` not rammed head-on by an enemy pawn.

    >>> chess.SquareSet(_free_pawns(chess.Board("4k3/p7/8/1p6/1P6/8/P7/4K3 w - - 0 1"),
    ...                             chess.WHITE))
    SquareSet(0x0000_0000_0000_0100)
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & ~white
    return white & ~(black >> 8) if color else black & ~((white << 8) & chess.BB_ALL)


def _locked(board: chess.Board) -> bool:
    """Pawns on the board, every one rammed head-on by an enemy pawn, and no
    queen, rook or knight: a candidate for the static proof (full mode tries
    it after every move first), and the dead-position test's candidate
    beyond the material cases (:mod:`remis.unwinnable.deadtest`).

    >>> _locked(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
    True
    >>> _locked(chess.Board("8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1"))
    False
    """
    return (bool(board.pawns) and not board.queens | board.rooks | board.knights
            and not _free_pawns(board, chess.WHITE) and not _free_pawns(board, chess.BLACK))


def _rammed(board: chess.Board) -> int:
    """The pairs of pawns rammed head-on (a white pawn right below a black
    one): White's pawns but the free ones (:func:`_free_pawns`).

    >>> _rammed(chess.Board("4k3/p7/8/1p6/1P6/8/P7/4K3 w - - 0 1"))
    1
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    return (white & ~_free_pawns(board, chess.WHITE)).bit_count()


def _sacrifice_candidate(board: chess.Board, color: chess.Color) -> bool:
    """Every pawn of ``color`` is stuck (:func:`_stuck_pawns`) and the
    loser has a piece: the wall may open only by the loser's sacrifices,
    and the portfolio gets a search steered toward them
    (:class:`~remis.unwinnable.search.HelpmateSearch`'s ``sacrifice``).

    >>> _sacrifice_candidate(chess.Board(
    ...     "8/7Q/1r1p1k2/p1pPp3/PpP1Pp1p/1P3PpP/K5P1/8 w - - 0 1"), chess.BLACK)
    True
    >>> _sacrifice_candidate(chess.Board("4k3/p7/8/8/8/8/P7/Q3K3 w - - 0 1"), chess.BLACK)
    False
    """
    mine = board.pawns & board.occupied_co[color]
    return (bool(mine) and _stuck_pawns(board, color) == mine
            and bool(board.occupied_co[not color] & ~board.pawns & ~board.kings))


def _pawns_both(board: chess.Board) -> bool:
    """Both sides have pawns (the width search gets a larger first part,
    :data:`WIDTH_FIRST_PAWNS`).

    >>> _pawns_both(chess.Board()), _pawns_both(chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
    (True, False)
    """
    pawns = board.pawns
    return bool(pawns & board.occupied_co[chess.WHITE] and pawns & board.occupied_co[chess.BLACK])


def _found_text(color: chess.Color, line: tuple[str, ...]) -> str:
    """The reason of a "can mate" verdict: the length of the helpmate
    found, which is evidence, not the shortest one (the searches are
    steered toward a mating corner, not toward the fewest moves), so the
    words do not say "helpmate in N" as a composer would.

    >>> _found_text(chess.WHITE, ("a1a8",)), _found_text(chess.BLACK, ("e2e4", "f7f6", "e4e5"))
    ('White can mate: a helpmate of 1 ply', 'Black can mate: a helpmate of 3 plies')
    """
    plies = "1 ply" if len(line) == 1 else f"{len(line)} plies"
    return f"{_name(color)} can mate: a helpmate of {plies}"


def can_checkmate(board: chess.Board, color: chess.Color, *, mode: Mode = "full",
                  max_nodes: int | None = None, max_seconds: float | None = None) -> Verdict:
    """Can ``color`` checkmate the opponent by any sequence of legal moves
    (both sides cooperating)?

    Full mode decides (True with a helpmate line, or False with a proof)
    unless ``max_nodes`` (or ``max_seconds`` of search, when given) runs out;
    quick mode spends a few dozen nodes (a few hundred moves at most where
    the loser's replies are few, :mod:`remis.unwinnable.replies`) and
    otherwise answers None.  Raises
    :class:`ValueError` on an illegal position.  ``max_nodes`` is the budget
    of the default search; the other stages get shares of it (each of the
    four other searches of the portfolio 1/20, three without pawns, and
    so does the one toward the loser's sacrifices where it runs; each
    corner search 1/10; the width search 1/2, a fifth of it before the rest
    of the steered searches, and where at least two pairs of pawns stand
    rammed head-on, its first 8,000 nodes, at most that fifth, once each
    steered search has had 1/250), so an undecided question spends about
    twice ``max_nodes`` in all.  Under the default budgets (``max_nodes``
    None) only, a width search that holds still the pieces that can never
    take part in a mate comes before the width search's first part where
    there are such pieces (:data:`FOCUS_NODES`), and a question that every
    stage left open gets a last one (:data:`LAST_NODES`).

    >>> can_checkmate(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.BLACK).reason
    'insufficient material: Black has a bare king (K+Q v K)'
    >>> v = can_checkmate(chess.Board("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"), chess.BLACK)
    >>> v.value, len(v.line) > 0
    (True, True)
    >>> can_checkmate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
    ...               chess.WHITE).method
    'static'
    """
    if mode not in ("full", "quick"):
        raise ValueError(f"unknown mode {mode!r}: use 'full' or 'quick'")
    _check_arguments(board, color, max_nodes, max_seconds)
    check_position(board)
    if _mated(board, color):
        return Verdict(color, True, f"{_name(color)} has already mated", (), method="search")
    reason = material_reason(board, color)
    if reason is not None:
        return Verdict(color, False, reason, method="material")
    if mode == "quick":
        return _quick(board, color, QUICK_NODES if max_nodes is None else max_nodes,
                      None if max_seconds is None else time.monotonic() + max_seconds,
                      QUICK_FEW_NODES if max_nodes is None else max_nodes)
    b = board.copy(stack=False)  # (the searches never look at the moves before)
    prefix, verdict = _forced(b, color, FORCED_PLIES)
    if verdict is not None:
        return verdict
    head = tuple(m.uci() for m in prefix)
    verdict = _static_verdict(b, color, head)
    if verdict is not None:
        return verdict
    budget = FULL_NODES if max_nodes is None else max_nodes
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    # the width search's budgets: its first part, and in all
    width_first, width_all = (
        (WIDTH_FIRST_PAWNS if _pawns_both(b) else WIDTH_FIRST_NODES, WIDTH_NODES)
        if max_nodes is None
        else (max(max_nodes // 5, 1), max(max_nodes // 2, 1)))
    # one width search of the reachable positions, resumed at each stage
    # (set up where first needed: most questions are decided before)
    locked = _locked(b)
    width = None
    if locked:
        width = WidthSearch(b, color, deadline=deadline)
        # behind a locked structure: the static proof after every move, then
        # a short width search (the reachable positions are often few: a
        # proof, or a mate) before the steered searches
        after_one = _static_after_every_move(b, color) if STATIC is not None else None
        if after_one is not None:
            return Verdict(color, False, after_one, method="static")
        verdict = _width_verdict(color, head, width.run(min(width_first, WIDTH_LOCKED_NODES)),
                                 width.nodes)
        if verdict is not None:
            return verdict
    # a first slice of steered searches taking turns (most mates are found
    # early, each by the steering that suits its position)
    first = min(budget, FIRST_NODES if max_nodes is None else max(max_nodes // 5, 1))
    alt = ALT_NODES if max_nodes is None else max(max_nodes // 20, 1)
    portfolio = _Portfolio(b, color, deadline)
    if not locked and _rammed(b) >= 2:
        # pawns rammed head-on: the reachable positions are often few, or
        # the mate a narrow pawn plan; a short width search after the
        # portfolio's first turns (most real positions are decided by then)
        early = min(first, EARLY_PORTFOLIO_NODES if max_nodes is None
                    else max(max_nodes // 250, 1))
        result, extra = portfolio.run(early, early)
        if result.outcome != "limit":
            return _search_verdict(color, head, result, extra)
        width = WidthSearch(b, color, deadline=deadline)
        verdict = _width_verdict(color, head, width.run(min(width_first, WIDTH_EARLY_NODES)),
                                 result.nodes + extra + width.nodes)
        if verdict is not None:
            return verdict
    result, extra = portfolio.run(first, alt)
    if result.outcome != "limit":
        return _search_verdict(color, head, result, extra)
    # then the static proof after every move, and a first part of the width
    # search (deep and narrow helpmates, proofs where the reachable
    # positions are few); ``outside`` counts the nodes of the focus and of
    # the other corners' searches (``extra``, the portfolio's other
    # searches', is set anew each time the portfolio runs)
    outside = 0
    early = width.nodes if width is not None else 0  # a short width search's, above
    if STATIC is not None and not locked:
        after_one = _static_after_every_move(b, color)
        if after_one is not None:
            return Verdict(color, False, after_one, nodes=result.nodes + extra + early,
                           method="static")
    still = idle_pieces(b, color) if max_nodes is None and FOCUS_NODES else 0
    if still:
        # under the default budgets, where some pieces can never take part
        # in a mate: first a width search that holds them still (a focus
        # that finds mates, never a proof)
        held = WidthSearch(b, color, deadline=deadline, still=still)
        found = held.run(FOCUS_NODES)
        if found.outcome == "mate":
            return _search_verdict(color, head, found, result.nodes + extra + early,
                                   method="focus")
        outside = held.nodes
    if width is None:
        width = WidthSearch(b, color, deadline=deadline)
    verdict = _width_verdict(color, head, width.run(width_first),
                             result.nodes + extra + outside + width.nodes)
    if verdict is not None:
        return verdict
    # the rest of the steered searches, and short searches toward the other
    # mating corners (without pawns, under the default budgets, the
    # portfolio's searches toward them were these very searches)
    if deadline is None or time.monotonic() < deadline:
        result, extra = portfolio.run(budget, alt)
    if result.outcome == "limit" and (b.pawns or max_nodes is not None):
        other = _other_corners(b, color, ALT_NODES if max_nodes is None
                               else max(max_nodes // 10, 1), deadline)
        if other.outcome != "limit":
            extra += result.nodes  # the default search; the other one is the result
            result = other
        else:
            outside += other.nodes
    if result.outcome != "limit":
        return _search_verdict(color, head, result, extra + outside + width.nodes)
    # then the rest of the width search
    verdict = _width_verdict(color, head, width.run(width_all),
                             result.nodes + extra + outside + width.nodes)
    if verdict is not None:
        return verdict
    if max_nodes is None and (deadline is None or time.monotonic() < deadline):
        # last, under the default budgets only: the default steered search
        # resumed, then one whose iterations grow with their depth
        result, extra = portfolio.run(LAST_NODES, alt)
        if result.outcome == "limit":
            grown = HelpmateSearch(b, color, max_nodes=GROWN_NODES, deadline=deadline,
                                   iteration_growth=ITERATION_GROWTH).run()
            extra += result.nodes
            result = grown
    return _search_verdict(color, head, result, extra + outside + width.nodes,
                           deadline=deadline)


def _quick(board: chess.Board, color: chess.Color, budget: int,
           deadline: float | None, few: int | None = None) -> Verdict:
    """Quick mode after the material test: the forced moves (at most 4
    plies), the static proof where the pawns are mostly blocked and no
    queen or rook stands beside them (:func:`_static_candidate`;
    after each evasion where the side to move is in check), where the
    loser is to move and its moves are few or checked, the proof that every
    line of one or three plies ends the game or leaves too little material
    (:func:`_replies_verdict`), and a search of ``budget`` nodes (``few``
    where at most four units stand on the board) where one can end: few
    pieces (:func:`_small`), a would-be winner with at most one unit
    besides the king, or with at most five and at most six pseudo-legal
    moves, or forced moves played first (the loser had one reply; a
    would-be winner with at most eight units).
    Elsewhere (the open positions of real games) it answers None at once.

    >>> b = chess.Board("6k1/6PR/6rK/7P/8/8/8/8 w - - 0 55")  # both captures of g6 leave
    >>> _quick(b, chess.BLACK, 20, None).reason                # Black a bare king
    'exhausted search: every legal move of White leaves Black without mating material (2 ends)'
    >>> _quick(chess.Board(), chess.WHITE, 20, None).value is None
    True
    """
    b = board
    head: tuple[str, ...] = ()
    if legal_count(board, 2) <= 1:
        b = board.copy(stack=False)
        prefix, verdict = _forced(b, color, 4)
        if verdict is not None:
            return verdict
        head = tuple(m.uci() for m in prefix)
    if _static_candidate(b, color):
        verdict = _static_verdict(b, color, head, evasions=True)
        if verdict is not None:
            return verdict
    # the loser to move: after the forced moves, or else where they began
    verdict = None
    counted = None  # the pseudo-legal moves of color on b, up to 7 (asked twice)
    if b.turn != color:
        counted = pseudo_legal_count(b, color, 7)
        verdict = _replies_verdict(b, color, head, counted)
    elif board.turn != color:
        verdict = _replies_verdict(board, color, ())
    if verdict is not None:
        return verdict
    mine = chess.popcount(b.occupied_co[color] & ~b.kings)
    if not (_small(b, color) or mine <= 1 or (head and mine <= 8)
            or (mine <= 5 and (pseudo_legal_count(b, color, 7) if counted is None
                               else counted) <= 6)):
        return Verdict(color, None, "undecided: quick mode decides only material, forced "
                       "moves, blocked pawn structures and positions with few pieces")
    if few is not None and chess.popcount(b.occupied) <= 4:
        budget = few
    # the search plays its moves on the board: the caller's is copied (the
    # forced moves were played on a copy already)
    search = HelpmateSearch(board.copy(stack=False) if b is board else b, color,
                            max_nodes=budget, iteration_nodes=budget, deadline=deadline)
    return _search_verdict(color, head, search.run(start_depth=2), 0, quick=True)


def _replies_verdict(board: chess.Board, color: chess.Color, head: tuple[str, ...],
                     counted: int | None = None) -> Verdict | None:
    """Where the loser is to move (``head``: the forced moves played to
    reach ``board``): :func:`~remis.unwinnable.replies.every_line_ends` as
    a verdict, or None.  One ply where the loser is in check or ``color``
    has at most four pseudo-legal moves (``counted``: their number, counted
    up to at least five, when the caller has it); then three plies (at most
    :data:`REPLIES_NODES` moves) where the loser is in check and ``color``
    has no queen or rook, or where the loser, not in check, has only its
    king and pawns and at most four legal moves.  Elsewhere (almost every
    real position) nothing is tried: the gates cost a few microseconds.

    >>> _replies_verdict(chess.Board("7k/6Q1/8/8/8/8/8/K7 b - - 0 1"), chess.WHITE, ()).reason
    'exhausted search: every legal move of Black leaves White without mating material (1 end)'
    >>> b = chess.Board("8/8/8/8/8/7p/5KR1/7k b - - 0 58")
    >>> print(_replies_verdict(b, chess.WHITE, ()).reason)  # doctest: +NORMALIZE_WHITESPACE
    exhausted search: every line of at most 3 plies ends the game or leaves White
    without mating material (18 ends)
    """
    check = board.is_check()
    tries = [1] if check or (pseudo_legal_count(board, color, 5) if counted is None
                             else counted) <= 4 else []
    theirs = board.occupied_co[not color]
    if (not board.occupied_co[color] & (board.queens | board.rooks) if check
            else not theirs & (board.knights | board.bishops | board.rooks | board.queens)
            and legal_count(board, 5) <= 4):
        tries.append(3)
    for plies in tries:
        ends = every_line_ends(board, color, plies, max_nodes=REPLIES_NODES)
        if ends is not None:
            break
    else:
        return None
    ended, short = ends
    how = " or ".join(what for what, n in (
        ("ends the game", ended), (f"leaves {_name(color)} without mating material", short)) if n)
    after = _after_forced(head)
    what = (f"every legal move of {_name(not color)}" if plies == 1
            else f"every line of at most {plies} plies")
    total = ended + short
    count = f"{total} end{'s' if total != 1 else ''}"
    return Verdict(color, False, f"exhausted search: {what}{after} {how} ({count})",
                   nodes=total, method="exhaustive",
                   details={"forced": list(head), "plies": plies, "ends_game_over": ended,
                            "ends_too_little_material": short})


def _static_verdict(board: chess.Board, color: chess.Color, head: tuple[str, ...], *,
                    evasions: bool = False) -> Verdict | None:
    """The static proof's verdict (``head``: the forced moves played to
    reach ``board``), None when it does not apply or finds no proof.  The
    proof is for positions out of check: with ``evasions``, where the side
    to move is in check, it is tried after each evasion instead (they are
    few)."""
    if STATIC is None:
        return None
    why = STATIC(board, color)
    if why is None:
        if not (evasions and board.is_check()):
            return None
        after_one = _static_after_every_move(board, color)
        if after_one is None:
            return None
        before = f"{_after_forced(head).lstrip()}, " if head else ""
        return Verdict(color, False, before + after_one, method="static")
    return Verdict(color, False, f"blocked structure (static){_after_forced(head)}: {why}",
                   method="static")


def _after_forced(head: tuple[str, ...]) -> str:
    """The words that name the forced moves ``head`` in a reason (with a
    leading space), or nothing where there were none.

    >>> _after_forced(("e1d1", "a2a1q")), _after_forced(())
    (' after the forced moves e1d1 a2a1q', '')
    """
    return f" after the forced moves {' '.join(head)}" if head else ""


def _search_verdict(color: chess.Color, head: tuple[str, ...], result: SearchResult,
                    extra: int, *, quick: bool = False,
                    deadline: float | None = None, method: str = "search") -> Verdict:
    """The verdict of a steered search (``extra``: the nodes of the other
    stages): a mate, a proof (a search that tried every move and finished),
    or undecided."""
    nodes = result.nodes + extra
    decided = _decided(color, head, result, nodes, method,
                       f"exhausted search: no checkmate by {_name(color)} is reachable "
                       f"({nodes} positions searched)")
    if decided is not None:
        return decided
    what = "quick mode" if quick else (
        "time limit" if deadline is not None and time.monotonic() > deadline else "node limit")
    return Verdict(color, None, f"undecided: {what} reached ({nodes} nodes)", nodes=nodes)


class _Portfolio:
    """The searches of :data:`PORTFOLIO` (and, where
    :func:`_sacrifice_candidate` holds, one steered toward the loser's
    sacrifices, last), each steered its own way, taking turns: each is
    resumed where it stopped, with budgets doubling from
    :data:`PORTFOLIO_START` nodes.  On real positions the steering that
    finds a mate at once differs from one position to the next; taking
    turns costs a few times the best one's nodes.  The default search
    (``PORTFOLIO``'s ``(None, False)``) gets the largest budget."""

    def __init__(self, board: chess.Board, color: chess.Color,
                 deadline: float | None) -> None:
        self.deadline = deadline
        kept = _distinct(board, color)
        self.searches = [HelpmateSearch(board, color, max_nodes=0, deadline=deadline,
                                        corner=corner, pawns=pawns)
                         for corner, pawns in kept]
        if _sacrifice_candidate(board, color):
            self.searches.append(HelpmateSearch(board, color, max_nodes=0, deadline=deadline,
                                                sacrifice=True))
        self.main = kept.index((None, False))
        self.results = [SearchResult("limit", (), 0, 1) for _ in self.searches]
        self.step = PORTFOLIO_START

    def run(self, total: int, cap: int) -> tuple[SearchResult, int]:
        """Take turns until a search decides, the default search has spent
        ``total`` nodes and each other one ``cap``.  Returns the deciding
        result (else the default search's) and the nodes of all the
        others."""
        while True:
            for i, search in enumerate(self.searches):
                budget = min(self.step, total if i == self.main else cap)
                if search.max_nodes >= budget:
                    continue  # at its cap
                search.max_nodes = budget
                self.results[i] = search.run(start_depth=self.results[i].depth)
                if self.results[i].outcome != "limit":
                    return self._outcome(i)
            if self.step >= max(total, cap) or (
                    self.deadline is not None and time.monotonic() >= self.deadline):
                return self._outcome(self.main)
            self.step *= 2

    def _outcome(self, decided: int) -> tuple[SearchResult, int]:
        others = sum(r.nodes for i, r in enumerate(self.results) if i != decided)
        return self.results[decided], others


def _distinct(board: chess.Board, color: chess.Color) -> list[tuple[chess.Square | None, bool]]:
    """The searches of :data:`PORTFOLIO` that differ from one another on
    ``board``: a search toward the default corner
    (:func:`~remis.unwinnable.search.default_corner`) is left out where the
    one with the corner unset (which steers toward it, and toward the new
    default if that changes on the line) is there; without pawns on the
    board the pawn moves have no cost to change, so the searches with free
    pawn moves are left out where the same search without them is there.
    So they are where the would-be winner has only a knight or bishops of
    one colour and needs the loser to promote
    (:func:`~remis.unwinnable.material.needs_loser_promotion`): the loser's
    pawn moves are free in both searches then, and the two take the same
    moves at the same costs (but the loser's promotions to a queen or a
    rook) until the loser promotes.  On a 6,000 sample of lichess-30k, 23
    questions (the would-be winner with minor pieces only) took a quarter
    of all nodes; the 14 of them where the loser must promote take 16.6%
    fewer without the twin, with no verdict changed.

    >>> _distinct(chess.Board("8/b7/8/5k1p/5P2/8/4K3/8 w - - 0 60"), chess.BLACK)
    [(None, True), (None, False), (7, True), (56, True), (63, True)]
    >>> _distinct(chess.Board("8/b7/8/5k2/5P2/8/4K3/8 w - - 0 60"), chess.BLACK)  # f8=N needed
    [(None, False), (7, True), (56, True), (63, True)]
    >>> _distinct(chess.Board("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"), chess.WHITE)
    [(None, False), (0, True), (7, True), (56, True)]
    """
    usual = default_corner(board, color)
    same = not board.pawns or needs_loser_promotion(board, color)
    kept = []
    for corner, pawns in PORTFOLIO:
        if corner == usual:
            corner = None
        if pawns and same and (corner, False) in PORTFOLIO:
            pawns = False
        if (corner, pawns) not in kept:
            kept.append((corner, pawns))
    return kept


def _other_corners(board: chess.Board, color: chess.Color, nodes: int,
                   deadline: float | None) -> SearchResult:
    """Short helpmate searches steered toward each mating corner other than
    the default one (:func:`~remis.unwinnable.search.default_corner`), with
    the usual costs of pawn moves (those with every pawn move free are in
    :data:`PORTFOLIO`): a mate far from the corner the default search heads
    for is often found in a few thousand nodes this way.  The first mate
    (or proof: a search that tries every move and finishes is one, whatever
    it steers toward) ends the work; the nodes reported are those of all
    the searches."""
    spent = 0
    usual = default_corner(board, color)
    for corner in (chess.A1, chess.H1, chess.A8, chess.H8):
        if corner == usual:
            continue
        if deadline is not None and time.monotonic() > deadline:
            break
        result = HelpmateSearch(board, color, max_nodes=nodes, deadline=deadline,
                                corner=corner).run()
        spent += result.nodes
        if result.outcome != "limit":
            return SearchResult(result.outcome, result.line, spent, result.depth)
    return SearchResult("limit", (), spent, 0)


def _width_verdict(color: chess.Color, head: tuple[str, ...], found: SearchResult,
                   nodes: int) -> Verdict | None:
    """The verdict of the width search when it decided (``nodes``: of every
    stage so far), else None."""
    return _decided(color, head, found, nodes, "width",
                    f"exhausted search: none of the {found.nodes} reachable positions "
                    f"is a checkmate by {_name(color)}")


def _decided(color: chess.Color, head: tuple[str, ...], found: SearchResult, nodes: int,
             method: str, exhausted: str) -> Verdict | None:
    """A search's mate (its line after ``head``) or proof by exhaustion
    (the reason ``exhausted``) as a verdict of ``method``; None when it
    reached its limit."""
    if found.outcome == "mate":
        line = head + found.line
        return Verdict(color, True, _found_text(color, line), line, nodes, method=method)
    if found.outcome == "exhausted":
        return Verdict(color, False, exhausted, nodes=nodes, method="exhaustive")
    return None


def _static_after_every_move(board: chess.Board, color: chess.Color) -> str | None:
    """The static proof after each legal move, each followed by the forced
    moves that come after it (:func:`_after_move`): when ``color`` cannot
    mate after every one, it cannot mate now.  A move may also end the game
    (stalemate, ``color`` mated), leave too little material, or start a
    cycle of forced moves: the tempo proofs of positions where the loser has
    (almost) no move left, as CHA's "trivial progress" after the first ply.

    >>> b = chess.Board("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 w - - 0 1")
    >>> print(_static_after_every_move(b, chess.BLACK))  # doctest: +ELLIPSIS
    every legal move ends the game or leads, through forced replies, to a position where \
Black cannot mate: 11 to stalemate, 2 to a blocked structure (e.g. a7b8 a5a6: blocked position...)
    """
    assert STATIC is not None
    kinds: dict[str, int] = {}
    example = ""
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            kind, why, replies = _after_move(board, color)
        finally:
            board.pop()
        if why is None:
            return None
        kinds[kind] = kinds.get(kind, 0) + 1
        if kind == "blocked" and not example:
            example = " ".join([move.uci(), *replies]) + ": " + why
    if not kinds:
        return None
    if set(kinds) == {"blocked"}:
        return f"blocked structure (static) after every legal move, e.g. {example}"
    words = {"stalemate": "to stalemate", "mated": f"to a checkmate of {_name(color)}",
             "material": "to too little material", "cycle": "to a cycle of forced moves",
             "blocked": "to a blocked structure"}
    parts = [f"{kinds[k]} {words[k]}" for k in words if k in kinds]
    text = (f"every legal move ends the game or leads, through forced replies, to a position "
            f"where {_name(color)} cannot mate: {', '.join(parts)}")
    return text + (f" (e.g. {example})" if example else "")


#: How many forced replies :func:`_after_move` follows at most.
TRIVIAL_PLIES = 40


def _after_move(board: chess.Board, color: chess.Color
                ) -> tuple[str, str | None, list[str]]:
    """Why ``color`` cannot mate from ``board`` (a position a legal move
    reached), following the moves that are the only legal move: the kind
    (``stalemate``, ``mated``: ``color`` is, ``material``, ``cycle``: the
    forced moves come back to a position, ``blocked``: the static proof),
    the reason (None: no proof) and the forced moves played.  ``board`` is
    left as it was.

    >>> b = chess.Board("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 b - - 0 1")
    >>> _after_move(b, chess.BLACK)
    ('stalemate', 'stalemate', [])
    """
    assert STATIC is not None
    played: list[str] = []
    seen: set[Key] = set()
    try:
        while True:
            if _mated(board, color):
                return "mate", None, played
            why = material_reason(board, color)
            if why is not None:
                return "material", why, played
            moves = list(islice(board.generate_legal_moves(), 2))
            if not moves:  # the game is over, and not by a mate of ``color``'s
                if board.is_check():
                    return "mated", f"checkmate of {_name(color)}", played
                return "stalemate", "stalemate", played
            if len(moves) > 1 or len(played) >= TRIVIAL_PLIES:
                return "blocked", STATIC(board, color), played
            key = position_key(board)
            if key in seen:
                return "cycle", "a cycle of forced moves", played
            seen.add(key)
            board.push(moves[0])
            played.append(moves[0].uci())
    finally:
        for _ in played:
            board.pop()


def is_dead_position(board: chess.Board, *, mode: Mode = "full") -> bool:
    """True when neither side can checkmate by any sequence of legal moves
    (Article 5.2.2).  Only a proof makes it True.

    >>> is_dead_position(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    True
    >>> is_dead_position(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
    True
    """
    return all(can_checkmate(board, c, mode=mode).value is False for c in chess.COLORS)


__all__ = ["Mode", "Verdict", "can_checkmate", "check_position", "is_dead_position"]

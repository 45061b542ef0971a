"""The dead-position test that :func:`remis.replay.replay` calls after every
ply (Article 5.2.2).

It must cost almost nothing in ordinary positions, so it looks at a few
bitboards first (:func:`is_candidate`).  Without pawns, the material cases
are answered from material alone.  The candidates the engine looks at are
closed pawn structures without a queen or a rook (:func:`_closed`), a queen
or a rook behind a wall where every pawn is rammed, or where, among few
units, no pawn can promote without a capture (:func:`_walled`), and
a forced move in check, among few units, that ends in a stalemate or
leaves too little material (:func:`_ends_by_force`).  Elsewhere (the open
positions of real games, where quick mode could not prove anything) it
returns at once: not proven dead, the game goes on.

A candidate gets quick mode for both colours; where quick mode leaves a
colour open and the structure is closed (or walled), a helpmate probe of
:data:`PROBE_NODES` nodes and then full mode with :data:`DEAD_TEST_NODES`
nodes.  Dead only on two proofs.  Answers are cached by position.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice

import chess

from remis.material import insufficient_material
from remis.reasons import REASONS
from remis.rules import DeadVerdict, material_dead_test
from remis.unwinnable import Verdict, can_checkmate
from remis.unwinnable.moves import Key, legal_count, position_key
from remis.unwinnable.probe import helpmate_probe

#: Node budget of the full-mode check on a candidate position (per colour).
DEAD_TEST_NODES = 5_000
#: Pairs of pawns rammed head-on from which a position with a queen or a
#: rook is a candidate (a heavy piece shut in behind a wall), where every
#: pawn is rammed.
WALL_PAIRS = 3
#: Pairs of pawns rammed head-on from which a position without a queen or a
#: rook is a candidate (where no pawn can promote without a capture).
CLOSED_PAIRS = 2
#: With a queen or a rook, a wall whose free pawns cannot promote without a
#: capture (each meets an enemy pawn on its file) is a candidate too, on a
#: board of at most this many units (endings, not closed middlegames).
WALL_UNITS = 16
#: Units on the board (kings included) up to which a forced move in check
#: is followed to see whether it ends the game (:func:`_ends_by_force`).
FORCED_UNITS = 8
#: Nodes of the helpmate probe (:func:`~remis.unwinnable.probe.helpmate_probe`)
#: that comes before a full-mode run: most candidates of real games are live,
#: and the steered search alone finds their helpmate in a few hundred nodes.
PROBE_NODES = 300
#: Searches beyond quick mode (the probe, full mode) per structure that
#: may end without a proof in one game; after that only the cheap stages run
#: for it in that game, so that a long game of king moves behind a locked but
#: live structure stays cheap.  (Returning None is always safe: it only means
#: "not proven dead".)
FULL_RUNS_PER_STRUCTURE = 3
#: Positions per structure that one game's test looks at without proving
#: them dead, before it answers None at once for the rest (those in check
#: but).  A dead position beyond the material cases is almost always a
#: blocked structure, whose deadness a piece's move rarely changes; on real
#: games this keeps the test at a few microseconds a ply.
LOOKS_PER_STRUCTURE = 3
#: ``EngineDeadTest(QUICK_ONLY)``: quick mode only, never a full-mode run.
QUICK_ONLY = 0
_CACHE_SIZE = 4096


@dataclass(frozen=True)
class _Outcome:
    """What the engine says about one position, whatever game it is in:
    the verdict, and whether quick mode left a colour open (a full run was
    needed)."""

    verdict: DeadVerdict | None
    needs_full: bool


_CACHE: dict[Key, _Outcome] = {}
Structure = tuple[int, int, int]


def _structure(board: chess.Board) -> Structure:
    """What the per-game budget of :class:`EngineDeadTest` is counted by:
    the pawns (all, and White's) and the material, bishops by the colour
    of their squares; a move of a piece other than a pawn, without a
    capture, keeps it.

    >>> _structure(chess.Board()) == _structure(chess.Board(
    ...     "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"))
    True
    """
    white = board.occupied_co[chess.WHITE]
    material = 0
    for bb in (board.knights, board.bishops & chess.BB_DARK_SQUARES,
               board.bishops & chess.BB_LIGHT_SQUARES, board.rooks, board.queens):
        material = material << 8 | (bb & white).bit_count() << 4 | (bb & ~white).bit_count()
    return board.pawns, board.pawns & white, material


def is_candidate(board: chess.Board) -> bool:
    """True when ``board`` might be a dead position beyond the material
    cases, so that the engine looks at it (see the module docstring): a
    closed structure, a queen or rook behind a wall of rammed pawns, or a
    forced move in check that ends the game.

    >>> is_candidate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/7P/8 w - - 0 1"))
    True
    >>> is_candidate(chess.Board()), is_candidate(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    (False, False)
    """
    return _gate(board) is True


def _gate(board: chess.Board) -> DeadVerdict | bool | None:
    """The cheap part shared by both tests: a verdict for the material cases,
    False when the position is no candidate, True when the engine must look."""
    if not board.pawns:
        return material_dead_test(board) or _ends_by_force(board)
    if board.queens | board.rooks:
        return _walled(board) or _ends_by_force(board)
    return _closed(board) or _ends_by_force(board)


def _ends_by_force(board: chess.Board) -> bool:
    """At most :data:`FORCED_UNITS` units on the board, in check with one
    legal move at most, and the forced moves (up to
    four plies, as quick mode plays them) end in a stalemate or leave too
    little material to mate for either side: a forced capture of the last
    piece, a forced move into stalemate.

    >>> _ends_by_force(chess.Board("7k/6Q1/8/8/8/8/8/K7 b - - 0 1"))  # Kxg7 is forced
    True
    >>> _ends_by_force(chess.Board("7k/6Q1/8/8/8/8/8/K5R1 b - - 0 1"))  # mated already
    False
    """
    if board.occupied.bit_count() > FORCED_UNITS or not board.is_check() or legal_count(
            board, 2) > 1:
        return False  # (the common case in check, without copying the board)
    b = board.copy(stack=False)
    for _ in range(4):
        moves = list(islice(b.generate_legal_moves(), 2))
        if len(moves) != 1:
            return not moves and not b.is_check()  # a stalemate (a mate is no dead position)
        b.push(moves[0])
        if insufficient_material(b):
            return True
    return False


def _free_pawns(board: chess.Board, color: chess.Color) -> int:
    """The pawns of ``color`` not rammed head-on by an enemy pawn.

    >>> chess.SquareSet(_free_pawns(chess.Board("4k3/p7/8/1p6/1P6/8/P7/4K3 w - - 0 1"),
    ...                             chess.WHITE))
    SquareSet(0x0000_0000_0000_0100)
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    black = board.pawns & ~white
    return white & ~(black >> 8) if color else black & ~((white << 8) & chess.BB_ALL)


def _rammed(board: chess.Board) -> int:
    """The pairs of pawns rammed head-on (a white pawn right below a black
    one).

    >>> _rammed(chess.Board("4k3/p7/8/1p6/1P6/8/P7/4K3 w - - 0 1"))
    1
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    return (white & ~_free_pawns(board, chess.WHITE)).bit_count()


def _runners(board: chess.Board, color: chess.Color) -> int:
    """The pawns of ``color`` with no enemy pawn ahead on their file (they
    can promote without a capture).

    >>> chess.SquareSet(_runners(chess.Board("4k3/p7/8/1p6/1P6/8/P6P/4K3 w - - 0 1"),
    ...                          chess.WHITE))
    SquareSet(0x0000_0000_0000_8000)
    """
    white = board.pawns & board.occupied_co[chess.WHITE]
    mine, theirs = (white, board.pawns & ~white) if color else (board.pawns & ~white, white)
    shade = theirs
    for _ in range(6):  # the enemy pawns' squares and, toward ``color``, those behind them
        shade |= shade >> 8 if color else (shade << 8) & chess.BB_ALL
    return mine & ~shade


def _closed(board: chess.Board) -> bool:
    """At least :data:`CLOSED_PAIRS` pairs of pawns rammed head-on, and no
    pawn that can promote without a capture (:func:`_runners`): the
    structures of the dead positions of real games, where the engine looks.

    >>> _closed(chess.Board("8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1"))
    True
    >>> _closed(chess.Board("8/8/8/7p/5K1P/2k5/P7/8 w - - 2 52"))  # a2 can promote
    False
    """
    return (_rammed(board) >= CLOSED_PAIRS and not _runners(board, chess.WHITE)
            and not _runners(board, chess.BLACK))


def _walled(board: chess.Board) -> bool:
    """At least :data:`WALL_PAIRS` pairs of pawns rammed head-on, and no
    other pawn, or (on a board of at most :data:`WALL_UNITS` units) no pawn
    that can promote without a capture (:func:`_runners`): where a queen or
    a rook may be shut in.

    >>> _walled(chess.Board("6rk/8/1p1p1p1p/1P1P1P1P/8/8/8/4K3 w - - 0 1"))
    True
    >>> _walled(chess.Board("4k3/1p1p1pp1/1P1P1P2/8/8/8/8/R3K3 w - - 0 1"))  # g7 can promote
    False
    >>> _walled(chess.Board("5brk/3Bp1p1/3pP1P1/3P2p1/3p2p1/3P4/4K1P1/8 b - - 0 1"))  # g2 meets g4
    True
    """
    if _rammed(board) < WALL_PAIRS:
        return False
    if not _free_pawns(board, chess.WHITE) and not _free_pawns(board, chess.BLACK):
        return True
    return (board.occupied.bit_count() <= WALL_UNITS and not _runners(board, chess.WHITE)
            and not _runners(board, chess.BLACK))


def _full_candidate(board: chess.Board) -> bool:
    """Where quick mode leaves a colour open, whether the probe and full
    mode look: a closed structure (:func:`_closed`), beside a queen or a
    rook only behind a wall (:func:`_walled`); not where the gate let the
    position in only for a forced move in check.

    >>> _full_candidate(chess.Board("8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1"))
    True
    >>> _full_candidate(chess.Board("8/8/8/7p/5K1P/2k5/P7/8 w - - 2 52"))
    False
    """
    return _walled(board) if board.queens | board.rooks else _closed(board)


def engine_dead_test(board: chess.Board) -> DeadVerdict | None:
    """A :data:`~remis.rules.DeadTest` backed by the unwinnability engine:
    ``insufficient_material`` for the material cases, ``dead_position`` when
    the engine proves that neither side can mate, else None.  Stateless: the
    answer depends on the position alone (see :class:`EngineDeadTest` for the
    per-game variant that bounds the work spent on live locked structures).

    >>> engine_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")).termination
    'insufficient_material'
    >>> engine_dead_test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")).termination
    'dead_position'
    >>> engine_dead_test(chess.Board()) is None
    True
    """
    gate = _gate(board)
    if gate is not True:
        return gate or None
    outcome = _outcome(board)
    return None if outcome is None else outcome.verdict


class EngineDeadTest:
    """The dead test of one game (``remis game`` and the arbiter make one
    per game): :func:`engine_dead_test` within a per-game budget counted by
    structure (:func:`_structure`: the pawns and the material, which a move
    of a piece without a capture keeps).  Once :data:`LOOKS_PER_STRUCTURE`
    positions of a structure were looked at and not proved dead, later
    positions of it are answered None (not proven dead) at once, but for
    those where the side to move is in check, which still get quick mode;
    once :data:`FULL_RUNS_PER_STRUCTURE` of them needed a search beyond
    quick mode (the probe or a full-mode run) that did not prove them dead,
    later ones get quick mode only.  (Returning None is always safe: it
    only means "not proven dead".)  The answers depend only on the game's
    positions in order, never on what ran before in the process.
    ``EngineDeadTest(QUICK_ONLY)`` never searches beyond quick mode (the
    audit's choice).

    >>> test = EngineDeadTest()
    >>> test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")).termination
    'dead_position'
    >>> test(chess.Board()) is None
    True
    """

    def __init__(self, full_runs_per_structure: int = FULL_RUNS_PER_STRUCTURE) -> None:
        self.limit = full_runs_per_structure
        self._failed: dict[Structure, int] = {}
        self._looked: dict[Structure, int] = {}

    def __call__(self, board: chess.Board) -> DeadVerdict | None:
        gate = _gate(board)
        if gate is not True:
            return gate or None
        structure = _structure(board)
        looked = self._looked.get(structure, 0)
        check = looked >= LOOKS_PER_STRUCTURE
        if check and not board.is_check():
            return None
        failed = self._failed.get(structure, 0)
        outcome = _outcome(board, full=failed < self.limit and not check)
        if outcome is not None and outcome.verdict is not None:
            return outcome.verdict
        self._looked[structure] = looked + 1
        if outcome is not None and outcome.needs_full:
            self._failed[structure] = failed + 1
        return None


def forget() -> None:
    """Empty the cache of outcomes: after searches under a spent budget
    (:func:`remis.unwinnable.limit`), whose open questions a later, fuller
    search may close.

    >>> forget()
    """
    _CACHE.clear()


def _outcome(board: chess.Board, *, full: bool = True) -> _Outcome | None:
    """The position's outcome, cached; None when it needs a full-mode run
    and ``full`` is False."""
    key = position_key(board)
    outcome = _CACHE.get(key)
    if outcome is None:
        outcome = _decide(board, full)
        if outcome is None:
            return None
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = outcome
    elif outcome.needs_full and not full:
        return None
    return outcome


def _decide(board: chess.Board, full: bool) -> _Outcome | None:
    """Quick mode for both colours, then full mode for those it left open
    (where :func:`_full_candidate` holds; None instead when ``full`` is
    False); dead only on two proofs."""
    quick: list[Verdict] = []
    for color in chess.COLORS:  # White, then Black
        v = can_checkmate(board, color, mode="quick")
        if v.value:  # a helpmate: live
            return _Outcome(None, False)
        quick.append(v)
    open_ = [v for v in quick if v.value is None]
    if open_ and not _full_candidate(board):
        return _Outcome(None, False)  # not proven dead, and no full run here
    if open_ and not full:
        return None
    for v in open_:  # a cheap helpmate first: most candidates are live
        if helpmate_probe(board, v.color, max_nodes=PROBE_NODES) is not None:
            return _Outcome(None, True)
    verdicts: list[Verdict] = []
    for v in quick:
        if v.value is None:
            v = can_checkmate(board, v.color, mode="full", max_nodes=DEAD_TEST_NODES)
            if v.value is not False:
                return _Outcome(None, True)
        verdicts.append(v)
    return _Outcome(dead_verdict(verdicts[0], verdicts[1]), bool(open_))


def dead_verdict(white: Verdict, black: Verdict) -> DeadVerdict:
    """The ``dead_position`` verdict from the two proofs that neither side
    can mate (White's, then Black's), with both as evidence.

    >>> b = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    >>> v = dead_verdict(can_checkmate(b, chess.WHITE), can_checkmate(b, chess.BLACK))
    >>> v.termination, v.reason.startswith("White: blocked")
    ('dead_position', True)
    """
    reason = REASONS["param.side_reasons"].format(white=white.reason, black=black.reason)
    evidence: dict[str, object] = {
        "can_checkmate": {"white": white.to_json(), "black": black.to_json()}}
    return DeadVerdict("dead_position", reason, evidence)

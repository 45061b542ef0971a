"""The dead-position test that :func:`remis.replay.replay` calls after every
ply (Article 5.2.2).

It must cost almost nothing in ordinary positions, so it looks at a few
bitboards first: a queen or a rook on the board, a knight beside pawns, or a
pawn that is not rammed head-on by an enemy pawn means "not a candidate" and
it returns at once (not proven dead: the game goes on).  Candidates are the
material cases (answered from material alone) and locked pawn structures with
kings and bishops, which get the engine: quick mode first, full mode when
quick mode cannot decide.  Answers are cached by position.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from remis.material import describe_material, insufficient_material
from remis.rules import DeadVerdict
from remis.unwinnable import Verdict, _locked, can_checkmate
from remis.unwinnable.search import Key, position_key

#: Node budget of the full-mode check on a candidate position (per colour).
DEAD_TEST_NODES = 5_000
#: Full-mode runs per pawn structure (with the other non-king pieces) that
#: may end without a proof in one game; after that only the cheap stages run
#: for it in that game, so that a long game of king moves behind a locked but
#: live structure stays cheap.  (Returning None is always safe: it only means
#: "not proven dead".)
FULL_RUNS_PER_STRUCTURE = 3
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


def is_candidate(board: chess.Board) -> bool:
    """True when ``board`` might be a dead position beyond the material
    cases: no queen, rook or knight, and every pawn rammed by an enemy pawn.

    >>> is_candidate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
    True
    >>> is_candidate(chess.Board())
    False
    """
    return _gate(board) is True


def _gate(board: chess.Board) -> DeadVerdict | bool | None:
    """The cheap part shared by both tests: a verdict for the material cases,
    False when the position is no candidate, True when the engine must look."""
    if board.queens or board.rooks:
        return False
    pawns = board.pawns
    if not pawns:
        if insufficient_material(board):
            return DeadVerdict("insufficient_material", describe_material(board), {})
        return False
    return _locked(board)


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
    per game): :func:`engine_dead_test`, except that once
    :data:`FULL_RUNS_PER_STRUCTURE` positions of the same pawn structure
    (with the same bishops) needed a full-mode run that did not prove them
    dead (a helpmate found, or the node budget spent), later
    positions of that structure that would need one are answered None (not
    proven dead) at once.  The answers depend only on the game's positions
    in order, never on what ran before in the process.
    ``EngineDeadTest(QUICK_ONLY)`` never runs full mode (the audit's choice).

    >>> test = EngineDeadTest()
    >>> test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")).termination
    'dead_position'
    >>> test(chess.Board()) is None
    True
    """

    def __init__(self, full_runs_per_structure: int = FULL_RUNS_PER_STRUCTURE) -> None:
        self.limit = full_runs_per_structure
        self._failed: dict[Structure, int] = {}

    def __call__(self, board: chess.Board) -> DeadVerdict | None:
        if board.queens or board.rooks:  # the common case, without a call
            return None
        gate = _gate(board)
        if gate is not True:
            return gate or None
        structure = (board.pawns, board.bishops, board.occupied_co[chess.WHITE] & ~board.kings)
        failed = self._failed.get(structure, 0)
        outcome = _outcome(board, full=failed < self.limit)
        if outcome is None:  # a full run is needed, and the budget for it is spent
            return None
        if outcome.needs_full and outcome.verdict is None:
            self._failed[structure] = failed + 1
        return outcome.verdict


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
    """Quick mode for both colours, then full mode (None instead when ``full``
    is False); dead only on two proofs."""
    verdicts: list[Verdict] = []
    needs_full = False
    for color in (chess.WHITE, chess.BLACK):
        v = can_checkmate(board, color, mode="quick")
        if v.value is None:
            if not full:
                return None
            needs_full = True
            v = can_checkmate(board, color, mode="full", max_nodes=DEAD_TEST_NODES)
        if v.value is not False:
            return _Outcome(None, needs_full)
        verdicts.append(v)
    reason = "neither side can checkmate: " + "; ".join(
        f"{'White' if v.color else 'Black'}: {v.reason}" for v in verdicts)
    evidence: dict[str, object] = {
        "can_checkmate": {"white": verdicts[0].to_json(), "black": verdicts[1].to_json()}}
    return _Outcome(DeadVerdict("dead_position", reason, evidence), needs_full)

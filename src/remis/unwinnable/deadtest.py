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

import chess

from remis.material import describe_material, insufficient_material
from remis.rules import DeadVerdict
from remis.unwinnable import Verdict, can_checkmate
from remis.unwinnable.search import Key, position_key

_ALL = chess.BB_ALL
#: Node budget of the full-mode check on a candidate position (per colour).
DEAD_TEST_NODES = 5_000
#: Full-mode runs per pawn structure (with the other non-king pieces) that
#: may end without a proof; after that only the cheap stages run for it, so
#: that a long game of king moves behind a locked but live structure stays
#: cheap.  (Returning None is always safe: it only means "not proven dead".)
FULL_RUNS_PER_STRUCTURE = 3
_CACHE: dict[Key, DeadVerdict | None] = {}
_CACHE_SIZE = 4096
_FULL_RUNS: dict[tuple[int, int, int], int] = {}


def is_candidate(board: chess.Board) -> bool:
    """True when ``board`` might be a dead position beyond the material
    cases: no queen, rook or knight, and every pawn rammed by an enemy pawn.

    >>> is_candidate(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"))
    True
    >>> is_candidate(chess.Board())
    False
    """
    if board.queens or board.rooks or board.knights:
        return False
    pawns = board.pawns
    if not pawns:
        return False
    white = pawns & board.occupied_co[chess.WHITE]
    black = pawns & ~white
    return not ((white << 8) & ~black & _ALL) and not ((black >> 8) & ~white)


def engine_dead_test(board: chess.Board) -> DeadVerdict | None:
    """A :data:`~remis.rules.DeadTest` backed by the unwinnability engine:
    ``insufficient_material`` for the material cases, ``dead_position`` when
    the engine proves that neither side can mate, else None.

    >>> engine_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1")).termination
    'insufficient_material'
    >>> engine_dead_test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")).termination
    'dead_position'
    >>> engine_dead_test(chess.Board()) is None
    True
    """
    if board.queens or board.rooks:
        return None
    pawns = board.pawns
    if not pawns:
        if insufficient_material(board):
            return DeadVerdict("insufficient_material", describe_material(board), {})
        return None
    if board.knights:
        return None
    white = pawns & board.occupied_co[chess.WHITE]
    black = pawns & ~white
    if (white << 8) & ~black & _ALL or (black >> 8) & ~white:
        return None
    key = position_key(board)
    if key in _CACHE:
        return _CACHE[key]
    verdict = _decide(board)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = verdict
    return verdict


def _decide(board: chess.Board) -> DeadVerdict | None:
    """Quick mode for both colours, then full mode; dead only on two proofs."""
    verdicts: list[Verdict] = []
    structure = (board.pawns, board.bishops, board.occupied_co[chess.WHITE] & ~board.kings)
    for color in (chess.WHITE, chess.BLACK):
        v = can_checkmate(board, color, mode="quick")
        if v.value is None:
            runs = _FULL_RUNS.get(structure, 0)
            if runs >= FULL_RUNS_PER_STRUCTURE:
                return None
            v = can_checkmate(board, color, mode="full", max_nodes=DEAD_TEST_NODES)
            if v.value is not False:
                if len(_FULL_RUNS) >= _CACHE_SIZE:
                    _FULL_RUNS.clear()
                _FULL_RUNS[structure] = runs + 1
        if v.value is not False:
            return None
        verdicts.append(v)
    reason = "neither side can checkmate: " + "; ".join(
        f"{'White' if v.color else 'Black'}: {v.reason}" for v in verdicts)
    evidence: dict[str, object] = {
        "can_checkmate": {"white": verdicts[0].to_json(), "black": verdicts[1].to_json()}}
    return DeadVerdict("dead_position", reason, evidence)

"""A budget of nodes and seconds over the searches of one piece of work
(remis.unwinnable.budget): it can leave a question open, never answer it
wrongly, and it stops a whole request's searches."""

from __future__ import annotations

import chess
import pytest

# (from the package: pytest's doctest run may load a second copy of the module)
from remis.unwinnable import Cancelled, can_checkmate, limit

#: the issue's costly position: rammed pawns, some 64,767 reachable positions
LOCKED = chess.Board("8/1p1p1p1p/1P6/KP6/PP6/1P3P2/3P3P/k7 w - - 0 1")
#: a CHA test vector full mode decides only after about 1.5 million nodes
#: (three quarters of a second of CPU)
SLOW = chess.Board("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1")


def test_spent_nodes_leave_the_question_open() -> None:
    with limit(max_nodes=1, max_seconds=30) as b:
        first = can_checkmate(LOCKED, chess.WHITE)
        second = can_checkmate(LOCKED, chess.WHITE)
    assert first.value is None and second.value is None
    assert b.nodes >= 1 and b.cut
    assert second.reason == "undecided: the request's node budget (1) is spent"
    assert can_checkmate(LOCKED, chess.WHITE).value is False   # no budget: the proof


def test_seconds_bound_a_search() -> None:
    with limit(max_nodes=10**9, max_seconds=0.2) as b:
        v = can_checkmate(SLOW, chess.WHITE)
    # stopped by the clock, after some search, before the answer
    assert v.value is None and b.cut and "time" in v.reason and b.nodes > 0


def test_a_spent_budget_still_answers_what_quick_mode_decides() -> None:
    bare = chess.Board("8/8/4k3/8/8/3K4/8/7R w - - 0 1")
    with limit(max_nodes=1, max_seconds=30):
        can_checkmate(LOCKED, chess.WHITE)
        assert can_checkmate(bare, chess.BLACK).value is False   # material alone


def test_cancelled_work_stops() -> None:
    with limit(max_nodes=10**9, max_seconds=30, cancelled=lambda: True), \
            pytest.raises(Cancelled):
        can_checkmate(LOCKED, chess.WHITE)

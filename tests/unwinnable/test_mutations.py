"""Full mode on positions no budget was tuned on (:mod:`tests.unwinnable.mutations`):
the first 300 of the 3,000 seeded mutations that ``benchmarks/unwinnability.py
--only mutations`` puts to CHA as well (no contradiction there, 2026-12-04).

Without an expected answer, full mode is checked against itself: every
question decided under the default budgets, every helpmate line replayed to
a mate by the right side, quick mode never contradicting it, and the dead
position test agreeing with the two verdicts of a board.
"""

from __future__ import annotations

from pathlib import Path

import chess

from remis.unwinnable import can_checkmate, is_dead_position
from tests.unwinnable.helpers import mates
from tests.unwinnable.mutations import mutated_questions
from tests.unwinnable.whole_sets import on_every_core

#: how many of the benchmark's questions the suite runs (about 4 s of CPU)
QUESTIONS = 300


def _problems(question: tuple[str, bool]) -> list[str]:
    fen, color = question
    board = chess.Board(fen)
    where = f"{fen} ({'white' if color else 'black'})"
    full = can_checkmate(board, color)
    quick = can_checkmate(board, color, mode="quick")
    out = []
    if full.value is None:
        out.append(f"{where}: undecided ({full.reason})")
    if full.value and not mates(fen, color, full.line):
        out.append(f"{where}: the line {full.line} is no mate")
    if quick.value is not None and full.value is not None and quick.value != full.value:
        out.append(f"{where}: quick mode says {quick.value}, full mode {full.value}")
    if quick.value and not mates(fen, color, quick.line):
        out.append(f"{where}: quick mode's line {quick.line} is no mate")
    if (full.value is False and can_checkmate(board, not color).value is False
            and not is_dead_position(board)):
        out.append(f"{where}: neither side can mate, yet not a dead position")
    return out


def test_mutations_are_the_same_questions_in_every_run(shared_data: Path) -> None:
    first = mutated_questions(shared_data / "unwinnability", 20)
    again = mutated_questions(shared_data / "unwinnability", 40)
    assert [(b.fen(), c) for b, c in first] == [(b.fen(), c) for b, c in again[:20]]
    assert len({(b.fen(), c) for b, c in again}) == 40
    assert all(b.is_valid() and not b.is_game_over() for b, _ in again)


def test_mutations_full_mode_decides_and_agrees_with_itself(shared_data: Path) -> None:
    questions = [(b.fen(), c) for b, c in
                 mutated_questions(shared_data / "unwinnability", QUESTIONS)]
    problems = [p for found in on_every_core(_problems, questions, chunksize=10)
                for p in found]
    assert not problems, problems

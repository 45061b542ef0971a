"""``benchmarks/unwinnability.py --cha``: CHA's answers are read in order (or,
from its quick mode, matched to the questions), with verdicts, times and
line lengths, and a contradiction with ours is reported (a fake CHA program
stands in for the real one, which is built outside the project)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path
from types import ModuleType

import chess
import pytest

from tests.benchmark_module import load

#: Answers as CHA's program prints them: "winnable" for White, "unwinnable"
#: for Black, "undetermined" for a FEN with Black to move and White asked;
#: with -quick only the unwinnable ones, and its summary line.
FAKE = """\
import sys
quick = "-quick" in sys.argv
print("Chess Unwinnability Analyzer (CHA) version 2.6.1")
n = 0
for n, line in enumerate(sys.stdin, 1):
    words = line.split()
    if words[-1] == "black":
        print(f"unwinnable nodes 9 time {1000 * n} ({line.strip()})")
    elif quick:
        continue
    elif words[1] == "b":
        print(f"undetermined nodes 9 time {1000 * n} ({line.strip()})")
    else:
        print(f"winnable h1h2 a1a8# nodes 1 time {1000 * n} ({line.strip()})")
print(f"Analyzed {n} positions in 0 ms (avg: 4.5 us; std: 1 us; max: 9 us)")
"""


def _bench() -> ModuleType:
    return load("unwinnability")


@pytest.fixture
def fake_cha(tmp_path: Path) -> Path:
    program = tmp_path / "cha"
    program.write_text(f"#!{sys.executable}\n{FAKE}")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


WHITE_TO_MOVE = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
BLACK_TO_MOVE = chess.Board("7k/8/6K1/8/8/8/8/R7 b - - 0 1")
CASES = [(WHITE_TO_MOVE, chess.WHITE, None), (WHITE_TO_MOVE, chess.BLACK, None),
         (BLACK_TO_MOVE, chess.WHITE, None)]


def test_answers_are_read_in_order_with_verdicts_times_and_lines(fake_cha: Path) -> None:
    answers = _bench().cha_answers(fake_cha, CASES)
    assert answers.verdicts == [True, False, None]
    assert answers.seconds == [0.001, 0.002, 0.003]
    assert answers.lines == [2, None, None]
    # the mean is its process's CPU time a question (a Python program's start-up here)
    assert answers.mean > 0
    assert bench_startup_is_subtracted(answers.mean)


def bench_startup_is_subtracted(mean: float) -> bool:
    return mean < 10.0  # seconds: not the sum of the three 1,000-second "own timings"


def test_quick_answers_are_matched_to_the_questions(fake_cha: Path) -> None:
    answers = _bench().cha_answers(fake_cha, CASES, quick=True)
    assert answers.verdicts == [None, False, None]


def test_a_contradiction_and_the_targets_are_reported(fake_cha: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    # ours: White cannot (contradicts CHA's "winnable"), Black undecided (CHA
    # decides it), the third decided (CHA leaves it open)
    ours = bench.Answers([False, None, True], [0.1, 0.1, 0.1], [None, None, 3], 9e-6)
    bench.compare_cha("30k", "full", fake_cha, CASES, ours, [0.01, 0.2, 0.01])
    out, err = capsys.readouterr()
    assert f"CHA DISAGREES {WHITE_TO_MOVE.fen()} white" in err
    assert "contradictions 1" in out and " CHA's CPU" in out and "less its start-up" in out
    assert "decided: remis 2, CHA 2; only CHA 1, only remis 1" in out
    assert f"ONLY CHA DECIDES {WHITE_TO_MOVE.fen()} black" in err
    assert "none over 100 ms CPU (1): MISSED" in out and "no contradiction: MISSED" in out
    assert "CPU <= 1x CHA's" in out and "infx" not in out


def test_a_target_without_a_ratio_prints_none(fake_cha: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    ours = bench.Answers([None, False, None], [0.1] * 3, [None] * 3, 1e-6)
    bench.compare_cha("vectors", "quick", fake_cha, CASES, ours, [1e-6] * 3, rounds=1)
    out = capsys.readouterr().out
    assert "target: every question CHA decides decided (0 not): met" in out
    assert "CPU <=" not in out and "inf" not in out


@pytest.mark.parametrize("body", ["import sys\nsys.exit(3)",
                                  "print('winnable a1a8# nodes 1 time 5 (x)')"])
def test_a_failing_cha_is_reported_and_the_run_goes_on(
        tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> None:
    # a program that fails, or answers fewer questions than it was asked
    program = tmp_path / "cha"
    program.write_text(f"#!{sys.executable}\n{body}\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    bench = _bench()
    ours = bench.Answers([True, True], [0.001, 0.001], [1, 1], 0.001)
    bench.compare_cha("30k", "full", program, [(WHITE_TO_MOVE, chess.WHITE, None)] * 2, ours,
                      [0.001, 0.001])
    out, err = capsys.readouterr()
    assert "CHA full  not compared (30k)" in err and "CHA's" not in out

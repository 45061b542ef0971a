"""``benchmarks/unwinnability.py --cha``: CHA's answers are read in order, with
their verdicts and times, and a contradiction with ours is reported (a fake
CHA program stands in for the real one, which is built outside the project)."""

from __future__ import annotations

import importlib.util
import stat
import sys
from pathlib import Path
from types import ModuleType

import chess
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "unwinnability.py"

#: Answers as CHA's program prints them: "winnable" for White, "unwinnable"
#: for Black, "undetermined" for a FEN with Black to move and White asked.
FAKE = """\
import sys
print("Chess Unwinnability Analyzer (CHA) version 2.6.1")
for n, line in enumerate(sys.stdin, 1):
    words = line.split()
    if words[-1] == "black":
        print(f"unwinnable nodes 9 time {1000 * n} ({line.strip()})")
    elif words[1] == "b":
        print(f"undetermined nodes 9 time {1000 * n} ({line.strip()})")
    else:
        print(f"winnable a1a8# nodes 1 time {1000 * n} ({line.strip()})")
"""


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_unwinnability", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fake_cha(tmp_path: Path) -> Path:
    program = tmp_path / "cha"
    program.write_text(f"#!{sys.executable}\n{FAKE}")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def test_answers_are_read_in_order_with_verdicts_and_times(fake_cha: Path) -> None:
    bench = _bench()
    white_to_move = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    black_to_move = chess.Board("7k/8/6K1/8/8/8/8/R7 b - - 0 1")
    cases = [(white_to_move, chess.WHITE, None), (white_to_move, chess.BLACK, None),
             (black_to_move, chess.WHITE, None)]
    answers = bench.cha_answers(fake_cha, cases)
    assert answers == [(True, 0.001), (False, 0.002), (None, 0.003)]


def test_a_contradiction_with_ours_is_reported(fake_cha: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    board = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    cases = [(board, chess.WHITE, None), (board, chess.BLACK, None)]
    # ours: White cannot (contradicts CHA's "winnable"), Black undecided
    bench.compare_cha("30k", fake_cha, cases, [False, None], 0.0015 * 20)
    out, err = capsys.readouterr()
    assert "contradictions 1" in out and f"CHA DISAGREES {board.fen()} white" in err
    assert "= 20.0x CHA's" in out and "MISSED" in out


def test_questions_cha_leaves_open_and_our_slow_ones_are_counted(
        fake_cha: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    white_to_move = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    black_to_move = chess.Board("7k/8/6K1/8/8/8/8/R7 b - - 0 1")
    # CHA: White winnable (1 ms), Black unwinnable (2 ms), undetermined (3 ms)
    cases = [(white_to_move, chess.WHITE, None), (white_to_move, chess.BLACK, None),
             (black_to_move, chess.WHITE, None)]
    # ours decides all three; the first and the last took over 2 s of CPU
    bench.compare_cha("vectors", fake_cha, cases, [True, False, True], 1.0, [2.5, 0.1, 3.0])
    out, _ = capsys.readouterr()
    assert ("CHA leaves 1 undetermined, of which remis decides 1; of remis's 2 over 2 s CPU, "
            "CHA decides 1 (its slowest 1 ms)") in out


@pytest.mark.parametrize("body", ["import sys\nsys.exit(3)",
                                  "print('winnable a1a8# nodes 1 time 5 (x)')"])
def test_a_failing_cha_is_reported_and_the_run_goes_on(
        tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> None:
    # a program that fails, or answers fewer questions than it was asked
    program = tmp_path / "cha"
    program.write_text(f"#!{sys.executable}\n{body}\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    board = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    _bench().compare_cha("30k", program, [(board, chess.WHITE, None)] * 2, [True, True], 0.001)
    out, err = capsys.readouterr()
    assert "CHA full  not compared (30k)" in err and "CHA's" not in out

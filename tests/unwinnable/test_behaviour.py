"""How the compiled engine behaves around a question: full mode gives the GIL
back (other threads run meanwhile), stops at ``max_seconds``, stops on
Ctrl-C with ``KeyboardInterrupt``, and a panic inside it comes out as a
``RuntimeError`` naming the position, never a crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import chess
import pytest

from remis import _core
from remis.unwinnable import can_checkmate

#: A CHA test vector that full mode decides only after about 1.5 million
#: nodes (three quarters of a second of CPU): time enough to be stopped.
HARD = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1"


def test_full_mode_gives_the_gil_back() -> None:
    done = threading.Event()

    def ask() -> None:
        can_checkmate(chess.Board(HARD), chess.WHITE, max_nodes=2_000_000)
        done.set()

    worker = threading.Thread(target=ask)
    worker.start()
    time.sleep(0.01)  # (the worker reaches the core)
    turns = 0
    while not done.is_set():  # this thread runs while the search does
        turns += 1
        time.sleep(0.001)
    worker.join()
    assert turns > 20


def test_max_seconds_stops_a_question() -> None:
    v = can_checkmate(chess.Board(HARD), chess.WHITE, max_nodes=10**9, max_seconds=0.2)
    # stopped by the clock, after some search, before the answer
    assert v.value is None and "time limit" in v.reason and v.nodes > 0


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has spent, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGINT and /proc")
def test_ctrl_c_stops_a_question() -> None:
    # (SIGINT as at a terminal, even where the suite was started with it ignored)
    code = ("import chess, signal, sys\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from remis.unwinnable import can_checkmate\n"
            "print('asking', flush=True)\n"
            f"can_checkmate(chess.Board({HARD!r}), chess.WHITE, max_nodes=10**9)\n"
            "print('answered', flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "asking\n"
    # the search is under way once it has spent some CPU (by the clock of the CPU, not
    # the wall: a busy machine only makes the wait longer); the answer takes far more
    start = _cpu_seconds(child.pid)
    deadline = time.monotonic() + 120
    while _cpu_seconds(child.pid) - start < 0.15 and time.monotonic() < deadline:
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    assert "answered" not in out  # stopped in the search, not after it


@pytest.mark.parametrize("mode", ["quick", "full"])
def test_a_panic_is_an_exception_naming_the_position(mode: str) -> None:
    _core._panic_at("can_checkmate")
    with pytest.raises(RuntimeError, match=r"can_checkmate on rnbqkbnr/pppppppp/8/8/8/8/"
                                           r"PPPPPPPP/RNBQKBNR w KQkq - 0 1 \(white\)"):
        can_checkmate(chess.Board(), chess.WHITE, mode=mode)  # type: ignore[arg-type]


def test_verdicts_are_frozen_and_equal_to_those_built_by_hand() -> None:
    from dataclasses import FrozenInstanceError

    from remis.unwinnable import Verdict

    v = can_checkmate(chess.Board(), chess.WHITE, mode="quick")
    assert v == Verdict(chess.WHITE, None, v.reason, (), v.nodes, {}, "undecided")
    with pytest.raises(FrozenInstanceError):
        v.value = True  # type: ignore[misc]

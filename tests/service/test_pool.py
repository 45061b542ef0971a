"""The search pools: a free worker goes to the caller that has had the least
of the workers lately; a caller over a pool's allowance is sent elsewhere; a
cancelled search stops without its worker being killed; a worker started
again after a kill is niced from its first instruction."""

from __future__ import annotations

import os
import signal
import threading
import time
from functools import partial
from pathlib import Path

import chess
import pytest
from service_procs import PATIENCE, wait_until

from remis.service.pool import OverAllowance, SearchPool
from remis.unwinnable import Cancelled, can_checkmate

#: a real question that takes the engine some 1.5 million nodes (a second of CPU):
#: can White (king and seven bishops) still mate?  Yes.
HEAVY = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1"


def test_the_next_job_is_of_the_caller_that_had_the_least() -> None:
    """Round robin let a client with many addresses, each a turn, keep the
    workers; now a caller that has had seconds of them waits behind one
    that has had nothing, whoever asked first."""
    pool = SearchPool("t", workers=0, per_caller=1, waiting_per_caller=4)
    pool.start()
    order: list[str] = []
    hold = threading.Event()
    try:
        pool.usage.charge("busy", 5.0, time.monotonic())
        first = pool.submit(hold.wait, 60, caller="other")          # holds the one worker
        wait_until("first job", lambda: pool._jobs[0] is first)
        jobs = [pool.submit(order.append, who, caller=who) for who in ("busy", "quiet")]
        hold.set()
        for job in jobs:
            job.future.result(timeout=PATIENCE)
    finally:
        hold.set()
        pool.close()
    assert order == ["quiet", "busy"]


def test_a_caller_over_the_allowance_is_sent_elsewhere() -> None:
    pool = SearchPool("t", workers=0, allowance=0.5)
    pool.start()
    try:
        pool.usage.charge("heavy", 2.0, time.monotonic())
        with pytest.raises(OverAllowance):
            pool.submit(sum, [1], caller="heavy")
        assert pool.submit(sum, [1, 2], caller="light").future.result(timeout=PATIENCE) == 3
    finally:
        pool.close()


def test_usage_counts_the_jobs_cpu() -> None:
    pool = SearchPool("t", workers=0)
    pool.start()
    try:
        board = chess.Board("8/1p1p1p1p/1P6/KP6/PP6/1P3P2/3P3P/k7 w - - 0 1")
        pool.submit(can_checkmate, board, chess.WHITE, caller="a").future.result(
            timeout=PATIENCE)
        used = pool.usage.of("a", time.monotonic())
    finally:
        pool.close()
    assert used > 0.01 and pool.usage.of("b", time.monotonic()) == 0


def _nice(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError):
        return None


def _children() -> set[int]:
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
                out.add(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_worker_started_again_is_niced_from_its_start(worker_pool: SearchPool) -> None:
    """Workers started again after a kill ran at niceness 0 while they
    imported the engine (the initializer niced them only afterwards),
    competing with the event path for the CPU."""
    pool = worker_pool
    old = pool._pids[0]
    assert old is not None and pool.born == [pool.niceness]
    before = _children()
    os.kill(old, signal.SIGKILL)
    with pytest.raises(Exception):  # noqa: B017 - the pool's futures tell of the dead worker
        pool.submit(sum, [1], caller="a").future.result(timeout=PATIENCE)
    seen: dict[int, int | None] = {}
    deadline = time.monotonic() + PATIENCE
    while pool._pids[0] in (None, old) and time.monotonic() < deadline:
        for pid in _children() - before - set(seen):
            seen[pid] = _nice(pid)       # as soon as it exists, before its initializer
    assert pool._pids[0] not in (None, old)
    assert pool._pids[0] in seen and seen[pool._pids[0]] == pool.niceness, seen
    assert pool.born == [pool.niceness]
    assert pool.submit(sum, [1, 2], caller="a").future.result(timeout=PATIENCE) == 3


def test_a_cancelled_search_stops_without_killing_its_worker(worker_pool: SearchPool,
                                                             ) -> None:
    """A cancelled job was told through a flag read between searches only:
    inside one long search its worker was killed and started again (about 8
    times in 30 s under clients dropping their requests).  Now a signal stops
    the search within a few thousand nodes, and the worker stays."""
    pool = worker_pool
    pid = pool._pids[0]
    job = pool.submit(partial(can_checkmate, max_nodes=10**9), chess.Board(HEAVY),
                      chess.WHITE, caller="a")
    wait_until("running search", lambda: pool._jobs[0] is job)
    cpu = partial(_cpu, pid)
    start = cpu()
    wait_until("search using the CPU", lambda: cpu() > start + 0.02)
    job.cancel()
    assert isinstance(job.future.exception(timeout=PATIENCE), Cancelled)
    assert pool._pids[0] == pid
    assert pool.submit(sum, [1, 2], caller="a").future.result(timeout=PATIENCE) == 3


def _cpu(pid: int | None) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

"""Ctrl-C during ``remis audit --jobs 2``: the first interrupt lets the running
tasks end, a second one terminates the workers at once (issue 50, item 6);
either way the checkpoint stays valid."""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

# An audit whose tasks sleep: the first ends at once (its findings and the
# checkpoint are written), the others would run for ten minutes and leave a file
# behind when they end.
SCRIPT = r"""
import signal, sys, time
# Ctrl-C as at a terminal, even where the suite was started with SIGINT ignored
# (a background job of a shell without job control)
signal.signal(signal.SIGINT, signal.default_int_handler)
from remis.audit.run import AuditOptions, TaskResult, run_audit
from remis.audit.stats import new_summary

class Slow:
    def key(self):
        return {"slow": True}

    def ranges(self, path, chunk_bytes):
        return [(i, i + 1) for i in range(6)]

    def batches(self, path, batch_games, skip):
        return iter(())

    def __call__(self, task):
        if task.start > 0:  # the others run for ten minutes, and say so if they end
            time.sleep(600)
            open(f"{sys.argv[2]}.finished{task.start}", "w").close()
        return TaskResult(1, [], new_summary())

opts = AuditOptions([sys.argv[1]], sys.argv[2], jobs=2, work=Slow())
try:
    run_audit(opts, [sys.argv[1]], on_notice=lambda m: print(m, flush=True))
except KeyboardInterrupt:
    sys.exit(130)
"""


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def _line(proc: subprocess.Popen[str], deadline: float) -> str:
    """The next line the process prints, waiting at most until ``deadline``."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(max(0.0, deadline - time.monotonic())):
            raise AssertionError("no line before the deadline")
    return proc.stdout.readline()


def _gone(pids: list[int], deadline: float) -> bool:
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(_alive(p) for p in pids)


def test_a_second_interrupt_terminates_the_workers_at_once(tmp_path: Path) -> None:
    pgn = tmp_path / "x.pgn"
    pgn.write_bytes(b"")
    out = tmp_path / "f.jsonl"
    ckpt = Path(f"{out}.ckpt.json")
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(pgn), str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    # generous deadlines for what a busy machine makes slow; no assertion of speed
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if ckpt.exists() and json.loads(ckpt.read_text())["state"]["file_tasks_done"] == [1]:
            break
        time.sleep(0.05)
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert proc.poll() is None and len(workers) >= 2
    proc.send_signal(signal.SIGINT)
    # the first interrupt waits for the running tasks, and says so
    assert "waiting for 2 running tasks" in _line(proc, time.monotonic() + 120)
    assert proc.poll() is None and all(_alive(w) for w in workers)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "terminated" in stdout
    assert "Traceback" not in stderr
    assert _gone(workers, time.monotonic() + 120)
    # terminated, not ended: no task outlived the interrupt to its end
    assert not list(tmp_path.glob("f.jsonl.finished*"))
    # the checkpoint still says what was written: one task, its output whole
    state = json.loads(ckpt.read_text())["state"]
    assert state["file_tasks_done"] == [1] and not state["complete"]
    assert state["out_bytes"] == os.path.getsize(out)

"""``--cluster``: the same audit on a real Dask cluster (a scheduler and two
workers started here as processes), the same findings in the same order."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from remis.audit.run import AuditOptions, run_audit

SYNTHETIC = Path(__file__).resolve().parent.parent / "data" / "audit" / "one_per_check.pgn"
DASK = Path(sys.executable).with_name("dask")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=5)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """tcp://127.0.0.1:PORT of a scheduler with two single-threaded workers."""
    if not DASK.exists():
        pytest.skip("the dask command is not installed (pip install 'remis[audit]')")
    from distributed import Client

    log = tmp_path_factory.mktemp("dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    procs: list[subprocess.Popen[bytes]] = []

    def start(args: list[str], name: str) -> None:
        with open(log / f"{name}.log", "wb") as fh:
            procs.append(subprocess.Popen([str(DASK), *args], stdout=fh, stderr=fh, env=env,
                                          start_new_session=True))

    try:
        start(["scheduler", "--host", "127.0.0.1", "--port", str(port),
               "--dashboard-address", ":0"], "scheduler")
        for i in range(2):
            start(["worker", address, "--nthreads", "1", "--nworkers", "1",
                   "--no-dashboard", "--memory-limit", "0", "--name", f"w{i}"], f"worker{i}")
        deadline = time.monotonic() + 90
        while True:
            try:
                with Client(address, timeout="5s") as c:
                    c.wait_for_workers(2, timeout=max(1.0, deadline - time.monotonic()))
                break
            except (OSError, TimeoutError):
                if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                    logs = "\n".join(f.read_text()[-800:] for f in log.iterdir())
                    pytest.fail(f"the Dask cluster did not start within 90 s:\n{logs}")
                time.sleep(1)
        yield address
    finally:
        _stop(procs)


def test_cluster_gives_the_same_findings_in_the_same_order(cluster: str,
                                                           tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"
    big.write_bytes(SYNTHETIC.read_bytes() * 20)
    gz = tmp_path / "small.pgn.gz"
    import gzip

    gz.write_bytes(gzip.compress(SYNTHETIC.read_bytes() * 3))
    files = [str(big), str(gz)]
    local = tmp_path / "local.jsonl"
    assert run_audit(AuditOptions(files, str(local), jobs=2, chunk_bytes=1500,
                                  batch_games=4), files).complete
    remote = tmp_path / "remote.jsonl"
    state = run_audit(AuditOptions(files, str(remote), cluster=cluster, chunk_bytes=1500,
                                   batch_games=4), files)
    assert state.complete
    assert remote.read_text() == local.read_text()
    assert len(local.read_text().splitlines()) == 5 * 23


def test_cluster_runs_the_variant_audit_in_the_same_order(cluster: str, tmp_path: Path) -> None:
    """``--variant shogi --cluster``: game lines cut at line ends, CSA at its
    ``/`` lines, a KIF collection whole, a compressed stream in batches; the
    KIF, KI2 and CSA games parsed in a child process of each Dask worker."""
    pytest.importorskip("pyffish")
    pytest.importorskip("cshogi")
    import gzip

    from remis.variants.auditrun import VariantWork

    src = SYNTHETIC.parent.parent / "variants"
    lines = tmp_path / "a-lines.txt"
    lines.write_bytes((src / "audit-shogi.txt").read_bytes() * 10)
    csa = tmp_path / "b-games.csa"
    csa.write_bytes(b"/\n".join([(src / "games.csa").read_bytes()] * 4))
    kif = tmp_path / "c-collection.kif"
    kif.write_bytes((src / "sennichite-scored-as-win.kif").read_bytes() * 3)
    gz = tmp_path / "d-stream.txt.gz"
    gz.write_bytes(gzip.compress((src / "audit-shogi.txt").read_bytes() * 3))
    files = [str(p) for p in (lines, csa, kif, gz)]
    local = tmp_path / "local.jsonl"
    state = run_audit(AuditOptions(files, str(local), jobs=2, chunk_bytes=600,
                                   work=VariantWork("shogi")), files)
    assert state.complete and not state.errors
    assert len(state.ranges["0"]) > 2 and len(state.ranges["1"]) > 2  # several tasks each
    from remis.cli import main

    remote = tmp_path / "remote.jsonl"
    assert main(["audit", "--variant", "shogi", "-q", "--cluster", cluster, "--chunk-bytes",
                 "600", "--out", str(remote), *files]) == 0
    assert remote.read_text(encoding="utf-8") == local.read_text(encoding="utf-8")
    import json

    found = [json.loads(x) for x in local.read_text(encoding="utf-8").splitlines()]
    assert {Path(f["file"]).name for f in found} == {p.name for p in (lines, csa, kif, gz)}
    assert all(f["variant"] == "shogi" for f in found)

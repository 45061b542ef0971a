"""Benchmark of ``remis audit`` against python-chess's bare read loop.

Over all of ``../shared/data/masters`` and ``../shared/data/lichess`` (about
43,000 games), in one process, interleaved so that the noise of a shared
machine hits every contender alike:

* baseline: ``chess.pgn.read_game`` in a loop over the same files (no checks);
* the full audit on 1 process (in this process, findings written to a file);
* the full audit on all cores (local worker processes, byte ranges);
* the full audit through a local Dask cluster (processes, one thread each),
  with the cluster's start-up time reported apart.

Prints the median time of ``--repeat`` rounds, games/s, and ratios against
the baseline (higher is faster) and against the 1-process audit (scaling).

    .venv/bin/python benchmarks/audit.py [--repeat 3] [--quick] [--no-dask]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess.pgn

from remis.audit.run import AuditOptions, run_audit

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))


def files_of(quick: bool) -> list[str]:
    """The benchmark's input files."""
    if quick:
        return [str(DATA / "masters" / "Fischer.pgn"),
                str(DATA / "lichess" / "lichess_2017-05.pgn")]
    out = sorted(str(p) for p in (DATA / "masters").glob("*.pgn"))
    out += sorted(str(p) for p in (DATA / "lichess").glob("*.pgn"))
    return out


def read_game_loop(files: list[str]) -> int:
    """The baseline: python-chess reads every game, nothing else."""
    n = 0
    for p in files:
        with open(p, encoding="utf-8-sig", errors="replace") as f:
            while chess.pgn.read_game(f) is not None:
                n += 1
    return n


def audit(files: list[str], jobs: int, cluster: str | None = None) -> int:
    """The full audit; returns the number of games audited."""
    with tempfile.TemporaryDirectory() as d:
        opts = AuditOptions(files, os.path.join(d, "findings.jsonl"), jobs=jobs,
                            cluster=cluster)
        state = run_audit(opts, files)
        assert state.complete
        return int(state.summary["games"])


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="rounds (medians are printed)")
    ap.add_argument("--quick", action="store_true", help="two small files only")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="'all cores'")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask cluster run")
    args = ap.parse_args()
    files = files_of(args.quick)
    missing = [f for f in files if not os.path.exists(f)]
    if missing or not files:
        print(f"shared data not found under {DATA}", file=sys.stderr)
        return 1
    size = sum(os.path.getsize(f) for f in files)
    print(f"{len(files)} files, {size / 1e6:.1f} MB, {os.cpu_count()} cores, "
          f"python-chess {chess.__version__}, {args.repeat} round(s)", flush=True)

    cluster = None
    local_cluster = None
    startup = 0.0
    if not args.no_dask:
        from distributed import LocalCluster

        t = time.perf_counter()
        local_cluster = LocalCluster(n_workers=args.jobs, threads_per_worker=1,
                                     processes=True, dashboard_address=None)
        startup = time.perf_counter() - t
        cluster = local_cluster.scheduler_address

    contenders: list[tuple[str, Callable[[], int]]] = [
        ("python-chess read_game loop (baseline)", lambda: read_game_loop(files)),
        ("remis audit, 1 process", lambda: audit(files, 1)),
        (f"remis audit, {args.jobs} processes", lambda: audit(files, args.jobs)),
    ]
    if cluster is not None:
        contenders.append((f"remis audit, Dask local cluster ({args.jobs} workers)",
                           lambda: audit(files, 0, cluster)))
    times: dict[str, list[float]] = {name: [] for name, _ in contenders}
    cpus: dict[str, list[float]] = {name: [] for name, _ in contenders}
    load0 = os.getloadavg()
    games: dict[str, int] = {}
    try:
        for r in range(args.repeat):
            for name, fn in contenders:
                c0 = _cpu()
                t = time.perf_counter()
                games[name] = fn()
                dt = time.perf_counter() - t
                times[name].append(dt)
                cpus[name].append(_cpu() - c0)
                print(f"  round {r + 1}: {name}: {games[name]} games in {dt:.1f} s",
                      file=sys.stderr, flush=True)
    finally:
        if local_cluster is not None:
            local_cluster.close()

    base = statistics.median(times[contenders[0][0]])
    one = statistics.median(times[contenders[1][0]])
    print(f"\n{'contender':<52} {'games':>7} {'median s':>9} {'games/s':>8} "
          f"{'vs baseline':>11} {'vs 1 proc':>9} {'CPU s':>7} {'games/CPU s':>11}")
    for i, (name, _) in enumerate(contenders):
        med = statistics.median(times[name])
        cpu = statistics.median(cpus[name])
        cpu_text = f"{cpu:>7.1f} {games[name] / cpu:>11.0f}" if i < 3 else \
            f"{'n/a':>7} {'n/a':>11}"  # Dask workers are not our children
        print(f"{name:<52} {games[name]:>7} {med:>9.2f} {games[name] / med:>8.0f} "
              f"{base / med:>10.2f}x {one / med:>8.2f}x {cpu_text}")
    print(f"\nload average before/after: {load0[0]:.1f} / {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores (a shared machine: wall-clock scaling is bounded by "
          "the other load; CPU seconds show the work itself)")
    if cluster is not None:
        print(f"\nDask local cluster start-up: {startup:.1f} s (not included above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

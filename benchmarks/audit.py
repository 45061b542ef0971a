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
the baseline (higher is faster) and against the 1-process audit (scaling),
whether every run wrote the same findings in the same order as the 1-process
one, and the core-hours a lichess month (90 million games) would take at the
1-process audit's games per CPU second.  ``--no-verdicts`` adds a contender
whose final-position verdicts (6.9, 5.1.2) are not asked: the engine's share.

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

from remis.audit.checks import CHECKS
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


FINDINGS: dict[str, list[str]] = {}


def audit(name: str, files: list[str], jobs: int, cluster: str | None = None,
          checks: tuple[str, ...] = CHECKS) -> int:
    """The audit; returns the number of games audited and keeps the findings."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "findings.jsonl")
        opts = AuditOptions(files, out, jobs=jobs, cluster=cluster, checks=checks)
        state = run_audit(opts, files)
        assert state.complete
        with open(out, encoding="utf-8") as f:
            FINDINGS[name] = f.read().splitlines()
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
    ap.add_argument("--no-verdicts", action="store_true",
                    help="add an audit without the checks that ask the engine (6.9, 5.1.2)")
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

    one, many = "remis audit, 1 process", f"remis audit, {args.jobs} processes"
    dask = f"remis audit, Dask local cluster ({args.jobs} workers)"
    quiet = "remis audit, 1 process, no engine verdicts"
    contenders: list[tuple[str, Callable[[], int]]] = [
        ("python-chess read_game loop (baseline)", lambda: read_game_loop(files)),
        (one, lambda: audit(one, files, 1)),
        (many, lambda: audit(many, files, args.jobs)),
    ]
    if cluster is not None:
        contenders.append((dask, lambda: audit(dask, files, 0, cluster)))
    if args.no_verdicts:
        contenders.append((quiet, lambda: audit(quiet, files, 1, checks=(
            "moves_after_end", "illegal_move", "result_after_end"))))
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
    t_one = statistics.median(times[one])
    base_rate = games[contenders[0][0]] / statistics.median(cpus[contenders[0][0]])
    print(f"\n{'contender':<52} {'games':>7} {'median s':>9} {'games/s':>8} "
          f"{'vs baseline':>11} {'vs 1 proc':>9} {'CPU s':>7} {'games/CPU s':>11} "
          f"{'CPU vs base':>11}")
    for name, _ in contenders:
        med = statistics.median(times[name])
        cpu = statistics.median(cpus[name])
        cpu_text = f"{'n/a':>7} {'n/a':>11} {'n/a':>11}" if name == dask else \
            f"{cpu:>7.1f} {games[name] / cpu:>11.0f} {games[name] / cpu / base_rate:>10.2f}x"
        print(f"{name:<52} {games[name]:>7} {med:>9.2f} {games[name] / med:>8.0f} "
              f"{base / med:>10.2f}x {t_one / med:>8.2f}x {cpu_text}")
    for name in (many, dask):
        if name in FINDINGS:
            same = FINDINGS[name] == FINDINGS[one]
            print(f"{name}: {len(FINDINGS[name])} findings, "
                  + ("the same as the 1-process run, in the same order" if same
                     else "DIFFERENT FROM the 1-process run"))
    rate = games[one] / statistics.median(cpus[one])
    print(f"\nprojected: a 90-million-game month at {rate:,.0f} games per CPU second is "
          f"{90e6 / rate / 3600:,.1f} core-hours")
    print(f"\nload average before/after: {load0[0]:.1f} / {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores (a shared machine: wall-clock scaling is bounded by "
          "the other load; CPU seconds show the work itself)")
    if cluster is not None:
        print(f"\nDask local cluster start-up: {startup:.1f} s (not included above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

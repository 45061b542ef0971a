"""Benchmark of the HTTP service: N concurrent games played over HTTP.

    python benchmarks/service.py [--games 200] [--think 0.25] [--duration 60]
                                 [--db sqlite|postgresql|both]

The service runs as its own ``remis serve`` process and the load as another
process (asyncio + httpx on loopback); this process only orchestrates.  Each
game is a seeded random legal game (trimmed where the arbiter ends it) whose
moves are posted alternately with the white and black tokens and
``expected_ply``, then the side to move resigns.  A player "thinks" for
``--think`` seconds (uniform 0..2x) between events; ``--think 0`` saturates.
No event is sent after ``--duration`` seconds.

Printed per database: events/s, p50/p99/max latency of an event, the number
of lost or duplicated events (stored logs compared with what was
acknowledged), and the ratio of the p50 to the baseline measured in this
process: the same events through ``Arbiter.apply`` alone (no HTTP, no
database).  PostgreSQL uses a throw-away cluster from Debian's package (see
tests/service/service_procs.py) or ``--pg-url``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chess

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "service"))

Event = dict[str, Any]


def make_games(n: int, seed: int, max_plies: int) -> list[list[Event]]:
    """``n`` seeded random games as event lists, cut where the arbiter ends
    them, each finished by a resignation if still going."""
    from remis.arbiter import Arbiter

    rng = random.Random(seed)
    games = []
    for _ in range(n):
        board = chess.Board()
        arb = Arbiter({"time_control": "5400+30"})
        events: list[Event] = []
        for ply in range(rng.randint(max_plies // 2, max_plies)):
            move = rng.choice(list(board.legal_moves))
            ev = {"type": "move", "player": "white" if board.turn else "black",
                  "move": board.san(move), "at": float(ply + 1)}
            board.push(move)
            state = arb.apply(ev)
            events.append(ev)
            if state["over"]:
                break
        else:
            events.append({"type": "resign", "player": "white" if board.turn else "black",
                           "at": float(len(events) + 1)})
        games.append(events)
    return games


def baseline(games: list[list[Event]]) -> float:
    """Median seconds per event of ``Arbiter.apply`` alone (in this process)."""
    from remis.arbiter import Arbiter

    times = []
    for events in games:
        arb = Arbiter({"time_control": "5400+30"})
        for ev in events:
            t0 = time.perf_counter()
            arb.apply(ev)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- the load process --------------------------------------------------------------

async def _play(client: Any, url: str, events: list[Event], think: float, deadline: float,
                rng: random.Random, lat: list[float], errors: list[str]) -> dict[str, Any]:
    r = await client.post(f"{url}/v1/games", json={"config": {"time_control": "5400+30"}})
    r.raise_for_status()
    body = r.json()
    gid, tokens = body["id"], body["tokens"]
    acked: list[Event] = []
    for ply, ev in enumerate(events):
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        if time.monotonic() > deadline:
            break
        payload = {**ev, "expected_ply": ply} if ev["type"] == "move" else ev
        t0 = time.perf_counter()
        r = await client.post(f"{url}/v1/games/{gid}/events", json=payload,
                              headers={"Authorization": f"Bearer {tokens[ev['player']]}"})
        lat.append(time.perf_counter() - t0)
        if r.status_code != 200:
            errors.append(f"{gid} event {ply + 1}: {r.status_code} {r.text[:120]}")
            break
        if r.json()["event"] != len(acked) + 1:
            errors.append(f"{gid}: acknowledged as event {r.json()['event']}, "
                          f"expected {len(acked) + 1}")
        acked.append(ev)
    return {"id": gid, "acked": acked}


async def load(url: str, games: list[list[Event]], think: float, duration: float,
               seed: int) -> dict[str, Any]:
    """Play every game concurrently; return latencies, acknowledged events and
    the comparison with the stored logs."""
    import httpx

    rng = random.Random(seed)
    lat: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=len(games) + 10, max_keepalive_connections=len(games))
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        start = time.monotonic()
        results = await asyncio.gather(*[
            _play(client, url, g, think, start + duration, random.Random(rng.random()), lat,
                  errors) for g in games])
        elapsed = time.monotonic() - start
        lost = dup = 0
        for res in results:  # compare stored logs with what was acknowledged
            r = await client.get(f"{url}/v1/games/{res['id']}/events")
            stored = r.json()["events"]
            acked = res["acked"]
            lost += sum(1 for ev in acked if ev not in stored)
            dup += max(0, len(stored) - len(acked))
            if stored[:len(acked)] != acked:
                errors.append(f"{res['id']}: stored log differs from the acknowledged events")
    return {"latencies": lat, "elapsed": elapsed, "events": len(lat), "lost": lost,
            "duplicated": dup, "errors": errors[:10], "error_count": len(errors)}


def load_main(argv: list[str]) -> None:
    """Entry of the load process: reads the games as JSON on stdin."""
    url, think, duration, seed = argv[0], float(argv[1]), float(argv[2]), int(argv[3])
    games = json.load(sys.stdin)
    out = asyncio.run(load(url, games, think, duration, seed))
    json.dump(out, sys.stdout)


# -- orchestration -------------------------------------------------------------------

def pct(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs, nearest rank."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def run_one(db: str, games: list[list[Event]], args: argparse.Namespace) -> dict[str, Any]:
    """Start a server on ``db``, run the load process against it, stop it."""
    from service_procs import Server

    server = Server(db).start()
    try:
        proc = subprocess.run(
            [sys.executable, __file__, "--load", server.url, str(args.think),
             str(args.duration), str(args.seed)],
            input=json.dumps(games), capture_output=True, text=True,
            timeout=args.duration + 120)
        if proc.returncode != 0:
            raise RuntimeError(f"load process failed: {proc.stderr[-2000:]}")
        out: dict[str, Any] = json.loads(proc.stdout)
        return out
    finally:
        server.stop()


def main() -> None:
    """Parse options, run the benchmark, print the figures."""
    if len(sys.argv) > 1 and sys.argv[1] == "--load":
        load_main(sys.argv[2:])
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--plies", type=int, default=60, help="longest game (plies)")
    p.add_argument("--think", type=float, default=0.25,
                   help="mean seconds between a game's events (0 = saturate)")
    p.add_argument("--duration", type=float, default=60.0, help="stop sending after (s)")
    p.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    p.add_argument("--sqlite-sync", choices=["full", "normal"], default="full",
                   help="SQLite synchronous mode (full: fsync every commit)")
    p.add_argument("--pg-url", default=None, help="use this PostgreSQL instead of a temp one")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    games = make_games(args.games, args.seed, args.plies)
    base = baseline(games)
    total = sum(len(g) for g in games)
    print(f"{args.games} games, {total} events, think {args.think} s, "
          f"duration cap {args.duration} s")
    print(f"baseline Arbiter.apply alone: median {base * 1e6:.0f} us/event")
    targets: list[tuple[str, str]] = []
    pg = None
    tmp = tempfile.TemporaryDirectory(prefix="remis-bench-")
    if args.db in ("sqlite", "both"):
        targets.append(("sqlite", f"sqlite:///{tmp.name}/bench.db?synchronous="
                                  f"{args.sqlite_sync}"))
    if args.db in ("postgresql", "both"):
        if args.pg_url:
            targets.append(("postgresql", args.pg_url))
        else:
            from service_procs import start_postgres

            pg, why = start_postgres()
            if pg is None:
                print(f"postgresql: skipped ({why})")
            else:
                targets.append(("postgresql", pg.url))
    try:
        for name, url in targets:
            out = run_one(url, games, args)
            lat = out["latencies"]
            if not lat:
                print(f"{name}: no events")
                continue
            p50, p99 = pct(lat, 0.50), pct(lat, 0.99)
            print(f"{name:<10} {out['events']:>6} events in {out['elapsed']:.1f} s = "
                  f"{out['events'] / out['elapsed']:.0f} events/s; latency p50 "
                  f"{p50 * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms, max {max(lat) * 1e3:.1f} ms; "
                  f"p50/baseline {p50 / base:.0f}x; lost {out['lost']}, duplicated "
                  f"{out['duplicated']}, errors {out['error_count']}")
            for e in out["errors"]:
                print(f"  error: {e}")
    finally:
        if pg is not None:
            pg.stop()
        tmp.cleanup()


if __name__ == "__main__":
    main()

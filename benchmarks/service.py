"""Benchmark of the HTTP service: N concurrent games played over HTTP.

    python benchmarks/service.py [--games 200] [--think 1.0] [--duration 60]
                                 [--db sqlite|postgresql|both]
    python benchmarks/service.py --compare ../base [--rounds 3] [--db sqlite]

The service runs as its own ``remis serve`` process and the load as another
process (asyncio + httpx on loopback); this process only orchestrates.  Each
game is a seeded random legal game (trimmed where the arbiter ends it) whose
moves are posted alternately with the white and black tokens and
``expected_ply``, then the side to move resigns.  A player "thinks" for
``--think`` seconds (uniform 0..2x) between events; ``--think 0`` saturates.
No event is sent after ``--duration`` seconds.

Printed per database: events/s, p50/p99/max latency of an event (and per
event type: a resignation asks the rules whether the winner can still mate,
5.1.2), the number of lost or duplicated events (stored logs compared with
what was acknowledged), and the ratio of the p50 to the baseline measured in
this process: the same events through ``Arbiter.apply`` alone (no HTTP, no
database); and the CPU time per event of the service process (and of its
mate-search worker) and of the load process, which shows whether the load
starves the service it measures.  PostgreSQL uses a throw-away cluster from Debian's package (see
tests/service/service_procs.py) or ``--pg-url``.

``--compare DIR`` measures the server CPU per honest move event against
another checkout of remis (``DIR``, with its own ``.venv``, e.g. a worktree
of an earlier commit): the same games, without the final resignation, are
played against this tree's service and DIR's in turn, ``--rounds`` times
(five by default), and each round's ratio of the two and the medians are
printed.  The target (at most half) is judged on the median of the rounds'
ratios: the two runs of a round are neighbours in time, so their ratio
cancels the machine's drift, which moves both by up to a third from one
round to the next.
With SQLite at ``synchronous=full`` each round also measures the floor
(``benchmarks/service_floor.py``): uvicorn and one durable commit per event,
no rules, the cost any such server pays; what each checkout costs above it
is its own work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
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


def make_games(n: int, seed: int, max_plies: int, *, resign: bool = True,
               ) -> list[list[Event]]:
    """``n`` seeded random games as event lists, cut where the arbiter ends
    them, each finished by a resignation if still going (unless ``resign``
    is False: moves only)."""
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
            if resign:
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

class Http:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: the load
    process must cost far less CPU than the server it measures (httpx costs
    about as much per request as the service itself)."""

    def __init__(self, url: str) -> None:
        rest = url.split("://", 1)[1]
        self.host, port = rest.split(":")
        self.port = int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, Any]:
        """Send one request; return ``(status, parsed JSON body)``."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                f"Content-Length: {len(data)}\r\n")
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        raw = await self.reader.readexactly(length)
        return status, json.loads(raw) if raw else None

    async def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()


async def _play(urls: list[str], events: list[Event], think: float, deadline: float,
                rng: random.Random, lat: list[float], kinds: list[str],
                errors: list[str]) -> dict[str, Any]:
    conns = [Http(url) for url in urls]  # one per instance: each request goes to the next
    http = conns[0]
    status, body = await http.request("POST", "/v1/games",
                                      {"config": {"time_control": "5400+30"}})
    if status != 201:
        raise RuntimeError(f"cannot create a game: {status} {body}")
    gid, tokens = body["id"], body["tokens"]
    acked: list[Event] = []
    for ply, ev in enumerate(events):
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        if time.monotonic() > deadline:
            break
        payload = {**ev, "expected_ply": ply} if ev["type"] == "move" else ev
        http = conns[(ply + 1) % len(conns)]
        t0 = time.perf_counter()
        status, body = await http.request("POST", f"/v1/games/{gid}/events", payload,
                                          tokens[ev["player"]])
        lat.append(time.perf_counter() - t0)
        kinds.append(ev["type"])
        if status != 200:
            errors.append(f"{gid} event {ply + 1}: {status} {str(body)[:120]}")
            break
        if body["event"] != len(acked) + 1:
            errors.append(f"{gid}: acknowledged as event {body['event']}, "
                          f"expected {len(acked) + 1}")
        acked.append(ev)
    for conn in conns:
        await conn.close()
    return {"id": gid, "acked": acked, "reader": tokens["white"]}  # any token reads


def _untimed(event: Event) -> Event:
    return {k: v for k, v in event.items() if k != "at"}


async def load(urls: list[str], games: list[list[Event]], think: float, duration: float,
               seed: int) -> dict[str, Any]:
    """Play every game concurrently; return latencies, acknowledged events and
    the comparison with the stored logs."""
    rng = random.Random(seed)
    lat: list[float] = []
    kinds: list[str] = []
    errors: list[str] = []
    start = time.monotonic()
    results = await asyncio.gather(*[
        _play(urls, g, think, start + duration, random.Random(rng.random()), lat, kinds,
              errors)
        for g in games])
    elapsed = time.monotonic() - start
    lost = dup = 0
    http = Http(urls[-1])
    for res in results:  # compare the stored logs with what was acknowledged
        _, body = await http.request("GET", f"/v1/games/{res['id']}/events",
                                     token=res["reader"])
        # the stored "at" is the time of record, the server's clock within the skew
        # it allows a player (docs/service.md), not the client's
        stored = [_untimed(ev) for ev in body["events"]]
        acked = [_untimed(ev) for ev in res["acked"]]
        lost += sum(1 for ev in acked if ev not in stored)
        dup += max(0, len(stored) - len(acked))
        if stored[:len(acked)] != acked:
            errors.append(f"{res['id']}: stored log differs from the acknowledged events")
    await http.close()
    return {"latencies": lat, "kinds": kinds, "elapsed": elapsed, "events": len(lat), "lost": lost,
            "duplicated": dup, "errors": errors[:10], "error_count": len(errors)}


def load_main(argv: list[str]) -> None:
    """Entry of the load process: reads the games as JSON on stdin."""
    urls, think, duration, seed = argv[0].split(","), float(argv[1]), float(argv[2]), int(argv[3])
    games = json.load(sys.stdin)
    out = asyncio.run(load(urls, games, think, duration, seed))
    use = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu"] = use.ru_utime + use.ru_stime  # this process, start-up included
    json.dump(out, sys.stdout)


# -- orchestration -------------------------------------------------------------------

def pct(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs, nearest rank."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far (Linux ``/proc``), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the service's mate-search workers)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return out


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of the processes still there."""
    return sum(c for c in map(cpu_seconds, pids) if c is not None)


def start_checkout(db: str, checkout: Path) -> Any:
    """``remis serve`` of another checkout, run by its own ``.venv`` from its
    folder (the baseline of ``--compare``), once it answers."""
    return _started(
        [str(checkout / ".venv" / "bin" / "python"), "-c",
         "import sys; from remis.cli import main; sys.exit(main(sys.argv[1:]))", "serve",
         "--db", db, "--log-level", "warning"], f"{checkout}: remis serve", checkout)


def start_floor(path: str) -> Any:
    """The floor server (``benchmarks/service_floor.py``) over the SQLite file
    ``path``, once it answers."""
    return _started([sys.executable, str(Path(__file__).with_name("service_floor.py")),
                     "--db", path], "the floor server", None)


def _started(command: list[str], what: str, cwd: Path | None, timeout: float = 60.0) -> Any:
    """The server ``command`` (given ``--port``) started, once it answers HTTP."""
    import httpx
    from service_procs import Server

    server = Server(None)
    server.proc = subprocess.Popen([*command, "--port", str(server.port)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   cwd=cwd)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {server.proc.returncode}")
        try:
            httpx.get(server.url + "/openapi.json", timeout=1.0)
            return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.kill()
    raise RuntimeError(f"{what} did not answer within {timeout} s")


def run_one(db: str, games: list[list[Event]], args: argparse.Namespace,
            checkout: Path | None = None, floor: str | None = None) -> dict[str, Any]:
    """Start a server on ``db`` (this tree's, or ``checkout``'s, or the floor
    server on the SQLite file ``floor``), run the load process against it,
    stop it; also the CPU seconds the service processes and their workers
    used meanwhile."""
    from service_procs import Server

    if floor is not None:
        servers = [start_floor(floor)]
    elif checkout is not None:
        servers = [start_checkout(db, checkout)]
    else:
        servers = [Server(db).start() for _ in range(args.instances)]
    mains = [s.proc.pid for s in servers if s.proc is not None]
    workers = [c for pid in mains for c in children(pid)]
    before = cpu_of(mains), cpu_of(workers)
    try:
        proc = subprocess.run(
            [sys.executable, __file__, "--load", ",".join(s.url for s in servers),
             str(args.think),
             str(args.duration), str(args.seed)],
            input=json.dumps(games), capture_output=True, text=True,
            timeout=args.duration + 120)
        if proc.returncode != 0:
            raise RuntimeError(f"load process failed: {proc.stderr[-2000:]}")
        out: dict[str, Any] = json.loads(proc.stdout)
        out["service_cpu"] = cpu_of(mains) - before[0]
        out["worker_cpu"] = cpu_of(workers) - before[1]
        return out
    finally:
        for server in servers:
            server.stop()


def main() -> None:
    """Parse options, run the benchmark, print the figures."""
    if len(sys.argv) > 1 and sys.argv[1] == "--load":
        load_main(sys.argv[2:])
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--plies", type=int, default=60, help="longest game (plies)")
    p.add_argument("--think", type=float, default=1.0,
                   help="mean seconds between a game's events (0 = saturate)")
    p.add_argument("--duration", type=float, default=60.0, help="stop sending after (s)")
    p.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    p.add_argument("--sqlite-sync", choices=["full", "normal"], default="full",
                   help="SQLite synchronous mode (full: fsync every commit)")
    p.add_argument("--pg-url", default=None, help="use this PostgreSQL instead of a temp one")
    p.add_argument("--instances", type=int, default=1,
                   help="service processes on the one database; each game's requests go "
                        "round-robin to them, as behind a load balancer")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--compare", type=Path, default=None, metavar="DIR",
                   help="measure the server CPU per move event against the checkout DIR "
                        "(with its own .venv)")
    p.add_argument("--rounds", type=int, default=5, help="rounds of --compare")
    args = p.parse_args()
    if args.compare is not None:
        compare(args)
        return

    games = make_games(args.games, args.seed, args.plies)
    base = baseline(games)
    total = sum(len(g) for g in games)
    print(f"{args.games} games, {total} events, think {args.think} s, "
          f"duration cap {args.duration} s, {args.instances} service instance(s)")
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
            load_before = os.getloadavg()[0]
            out = run_one(url, games, args)
            load_after = os.getloadavg()[0]
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
            by_kind: dict[str, list[float]] = {}
            for kind, t in zip(out["kinds"], lat, strict=True):
                by_kind.setdefault(kind, []).append(t)
            print("  by event type: " + "; ".join(
                f"{kind} {len(ts)}: p50 {pct(ts, 0.5) * 1e3:.1f} ms, "
                f"p99 {pct(ts, 0.99) * 1e3:.1f} ms"
                for kind, ts in sorted(by_kind.items())))
            per = 1e6 / out["events"]
            print(f"  CPU per event: service {out['service_cpu'] * per:.0f} us (+ mate-search "
                  f"workers {out['worker_cpu'] * per:.0f} us), load process "
                  f"{out['cpu'] * per:.0f} us (its start-up included)")
            print(f"  load average (1 min) {load_before:.1f} before, {load_after:.1f} after: "
                  "latency on a shared machine follows it")
            for e in out["errors"]:
                print(f"  error: {e}")
    finally:
        if pg is not None:
            pg.stop()
        tmp.cleanup()


def compare(args: argparse.Namespace) -> None:
    """Server CPU per move event of this tree's service against ``args.compare``'s,
    the two taking turns on the same games (moves only) and fresh databases."""
    games = make_games(args.games, args.seed, args.plies, resign=False)
    total = sum(len(g) for g in games)
    db = "postgresql" if args.db == "postgresql" else "sqlite"
    print(f"{args.games} games, {total} move events, think {args.think} s, {db}; "
          f"this tree against {args.compare}, {args.rounds} rounds taking turns")
    pg = None
    if db == "postgresql":
        from service_procs import start_postgres

        pg, why = start_postgres()
        if pg is None:
            print(f"postgresql: skipped ({why})")
            return
    per: dict[str, list[float]] = {"this tree": [], "baseline": [], "floor": []}
    contenders: list[tuple[str, Path | None]] = [("this tree", None), ("baseline", args.compare)]
    if db == "sqlite" and args.sqlite_sync == "full":
        contenders.append(("floor", None))
    try:
        for n in range(args.rounds):
            for name, checkout in contenders:
                with tempfile.TemporaryDirectory(prefix="remis-bench-") as tmp:
                    url = (pg.url if pg is not None else
                           f"sqlite:///{tmp}/bench.db?synchronous={args.sqlite_sync}")
                    out = run_one(url, games, args, checkout,
                                  f"{tmp}/floor.db" if name == "floor" else None)
                if out["errors"]:
                    raise RuntimeError(f"{name}: {out['errors'][0]}")
                us = out["service_cpu"] * 1e6 / max(1, out["events"])
                per[name].append(us)
                print(f"  round {n + 1} {name:<9} {out['events']:>6} events: service CPU "
                      f"{us:.0f} us/event, latency p50 {pct(out['latencies'], 0.5) * 1e3:.1f} ms")
    finally:
        if pg is not None:
            pg.stop()
    mine, base = statistics.median(per["this tree"]), statistics.median(per["baseline"])
    # each round's two runs are neighbours in time: their ratio cancels the machine's
    # drift, which moves both by up to a third from round to round, and a ratio of
    # the two medians, taken from different rounds, does not
    paired = [m / b for m, b in zip(per["this tree"], per["baseline"], strict=True)]
    ratio = statistics.median(paired)
    # the row form benchmarks/page.py gathers into the targets table
    print(f"service CPU per move event, against the baseline  {ratio:.2f}x  target <= 0.5x: "
          f"{'met' if ratio <= 0.5 else 'MISSED'}  (median of the rounds' ratios "
          f"{', '.join(f'{r:.2f}' for r in paired)}; medians: this tree {mine:.0f} us, "
          f"baseline {base:.0f} us)")
    if per["floor"]:
        floor = statistics.median(per["floor"])
        print(f"  floor: uvicorn and one durable SQLite commit per event, no rules "
              f"(benchmarks/service_floor.py): {floor:.0f} us = {floor / base:.2f}x the "
              f"baseline; this tree's own work above it {mine - floor:.0f} us, the "
              f"baseline's {base - floor:.0f} us")


if __name__ == "__main__":
    main()

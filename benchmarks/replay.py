"""Replay benchmark: the cost of a ply in every path that rules on games, as
ratios against a baseline timed in the same run, each issue-60 row with its
target and "met" or "MISSED".

In this process, on real master games (moves parsed beforehand, so only
replay work is timed):

  (a) python-chess push only,
  (b) python-chess push + ``outcome(claim_draw=True)`` after every ply,
  (c) remis replay with full tracking (automatic ends and every claim), the
      whole game handed to the core at once (:func:`remis.replay.replay`), and
      the live path: the same moves pushed one by one into
      :class:`remis.History` with the automatic end and the claims asked after
      each (what a chess server asks after every move).

The contenders take turns in every round (so that a change in the machine's
load hits them alike) and each is timed in CPU seconds of this process
(``time.process_time``); the median of the rounds is reported.

The live rows are what a chess server pays for each move, against (a) on
the same games, the contenders taking turns game by game (a shared
machine's load changes within a round):

  * ``History.push`` + ``automatic_end`` + ``claimable`` after every move,
    the python-chess board kept in step (``remis.History()``; target at
    most 2x (a)), and with ``lazy=True``, the board brought up to date only
    when read;
  * ``Arbiter.accept`` + ``state(log=False)`` for each move event of a game
    with clocks (times of record with milliseconds, as a server's; target
    at most 5x (a)).


As processes (CPU time from ``getrusage``, less each program's start-up on an
empty file, median of the rounds, taking turns), on the masters and lichess
files:

  * ``remis game --json`` against the floor: a small Rust program
    (``benchmarks/floor``, pgn-reader and shakmaty) that reads the same PGN and
    replays its main lines, ruling on nothing (built with cargo on first use);
  * the same on a sample of the games against python-chess's ``read_game``;
  * ``remis game --json`` against ``remis audit`` on a file of empty games.

With ``--cha BINARY``, quick mode (the dead-position test after every ply) on
the 30,000 lichess positions against CHA's quick mode, as
``benchmarks/unwinnability.py`` measures it.

    python benchmarks/replay.py [--games N] [--repeat R] [--slow-games M]
                                [--live-games L] [--cha BINARY]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import chess

from remis.arbiter import Arbiter
from remis.history import History
from remis.pgn import read_games
from remis.replay import replay
from remis.rules import automatic_end, claimable
from remis.unwinnable import can_checkmate
from remis.unwinnable.deadtest import EngineDeadTest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))
DATA = SHARED / "masters"
FLOOR = ROOT / "benchmarks" / "floor"


def load(limit: int) -> list[tuple[chess.Board, list[chess.Move]]]:
    games = []
    for path in sorted(DATA.glob("*.pgn")):
        for g in read_games(path):
            if g.board is not None and g.moves:
                games.append((g.board, g.moves))
                if len(games) >= limit:
                    return games
    return games


def push_only(games: list[tuple[chess.Board, list[chess.Move]]]) -> None:
    for start, moves in games:
        b = start.copy()
        push = b.push
        for m in moves:
            push(m)


def push_outcome(games: list[tuple[chess.Board, list[chess.Move]]]) -> None:
    for start, moves in games:
        b = start.copy()
        for m in moves:
            b.push(m)
            b.outcome(claim_draw=True)


def remis_full(games: list[tuple[chess.Board, list[chess.Move]]]) -> None:
    """What ``remis game`` does: every claim, and the engine's dead-position test."""
    for start, moves in games:
        replay(moves, start, claims="all", validated=True, dead_test=EngineDeadTest())


def live_history(start: chess.Board, moves: list[chess.Move], *, lazy: bool = False) -> None:
    """What a server asks after each move of a live game: the move pushed,
    the automatic end and the claims."""
    h = History(start, lazy=lazy)
    for m in moves:
        h.push(m)
        if automatic_end(h) is not None:
            break
        claimable(h)


def live_arbiter(events: list[dict[str, Any]]) -> None:
    """The arbiter's work for each move event of a game with clocks, and the
    state a client sees (without the whole ruling log)."""
    a = Arbiter({"time_control": "5400+30"})
    accept, state = a.accept, a.state
    for e in events:
        accept(e)
        if state(log=False)["over"]:
            break


def move_events(start: chess.Board, moves: list[chess.Move]) -> list[dict[str, Any]]:
    """The move events of a game, in SAN as players send them, at times of
    record with milliseconds."""
    board, out = start.copy(), []
    for n, m in enumerate(moves):
        out.append({"type": "move", "player": "white" if board.turn else "black",
                    "move": board.san(m), "at": round(7.123 * (n + 1), 3)})
        board.push(m)
    return out


def live_rows(games: list[tuple[chess.Board, list[chess.Move]]], repeat: int) -> list[Row]:
    """The live rows with their targets (see the module's docstring)."""
    games = [(s, m) for s, m in games if s.fen() == chess.STARTING_FEN]
    events = [move_events(s, m) for s, m in games]
    plies = sum(len(m) for _, m in games)
    rows: list[tuple[str, Callable[[int], None], float | None]] = [
        ("python-chess Board.push", lambda i: push_only(games[i:i + 1]), None),
        ("History.push + automatic_end + claimable / Board.push",
         lambda i: live_history(*games[i]), 2.0),
        ("    ... History(lazy=True), the board when read",
         lambda i: live_history(*games[i], lazy=True), None),
        ("Arbiter.accept + state(log=False), clocks / Board.push",
         lambda i: live_arbiter(events[i]), 5.0),
    ]
    cpu = [0.0] * len(rows)
    clock = time.process_time
    for _ in range(repeat):
        for i in range(len(games)):
            for k in range(len(rows)):  # a different one first in each game
                j = (i + k) % len(rows)
                t = clock()
                rows[j][1](i)
                cpu[j] += clock() - t
    detail = f"{len(games)} games, {plies} plies, {repeat} rounds taking turns game by game"
    return [Row(name, t / cpu[0], target,
                f"{1e6 * t / (plies * repeat):.2f} us a ply; {detail}")
            for (name, _, target), t in zip(rows, cpu, strict=True)][1:]


def remis_material(games: list[tuple[chess.Board, list[chess.Move]]]) -> None:
    """The same with the material-only dead-position test."""
    for start, moves in games:
        replay(moves, start, claims="all", validated=True)


def timed(contenders, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Median CPU seconds of each ``(fn, games)``, the contenders taking turns."""
    runs: list[list[float]] = [[] for _ in contenders]
    for _ in range(repeat):
        for i, (fn, games) in enumerate(contenders):
            t = time.process_time()
            fn(games)
            runs[i].append(time.process_time() - t)
    return [statistics.median(r) for r in runs]


class Row(NamedTuple):
    """One measured ratio and its target (at most ``target``; None: no target)."""

    what: str
    ratio: float
    target: float | None
    detail: str = ""


def report(rows: Sequence[Row]) -> None:
    """Print each row with its target and whether it is met."""
    width = max(len(r.what) for r in rows)
    for r in rows:
        verdict = "" if r.target is None else (
            f"target <= {r.target:g}x: {'met' if r.ratio <= r.target else 'MISSED'}")
        print(f"{r.what:<{width}}  {r.ratio:8.3f}x  {verdict:<22}  {r.detail}".rstrip())


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def process_cpu(command: list[str]) -> float:
    """CPU seconds of ``command`` run to its end (its output thrown away)."""
    before = children_cpu()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return children_cpu() - before


def floor_binary() -> Path:
    """The floor program, built with cargo (release) on first use."""
    binary = FLOOR / "target" / "release" / "remis-floor"
    subprocess.run(["cargo", "build", "--release", "--quiet", "--manifest-path",
                    str(FLOOR / "Cargo.toml")], check=True)
    return binary


def timed_processes(commands: dict[str, list[str]], empty: Path, rounds: int
                    ) -> dict[str, float]:
    """The median CPU seconds of each command, less its start-up (the same
    command on ``empty`` in place of its files), taking turns."""
    startup = {k: statistics.median(process_cpu([*c[:-1], str(empty)]) for _ in range(rounds))
               for k, c in commands.items()}
    runs: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(rounds):
        for k, c in commands.items():
            runs[k].append(process_cpu(c))
    return {k: max(statistics.median(runs[k]) - startup[k], 1e-9) for k in commands}


def remis_command(*args: str) -> list[str]:
    return [str(Path(sys.executable).parent / "remis"), *args]


def joined(paths: list[Path], into: Path, every: int = 1) -> int:
    """Write every ``every``-th game of ``paths`` to ``into``; their number."""
    from remis import _core

    n = 0
    with open(into, "wb") as out:
        for p in paths:
            for i, g in enumerate(_core.GameSplitter(str(p))):
                if i % every == 0:
                    out.write(g[2].rstrip(b"\n") + b"\n\n")
                    n += 1
    return n


def batch_rows(rounds: int, sample_every: int, empty_games: int) -> list[Row]:
    """``remis game --json`` against the floor, python-chess and the audit."""
    import chess.pgn

    paths = sorted((SHARED / "masters").glob("*.pgn")) + sorted((SHARED / "lichess").glob("*.pgn"))
    floor = str(floor_binary())
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "none.pgn"
        empty.write_bytes(b"")
        # (one file of every game: one start-up each)
        whole = Path(tmp) / "all.pgn"
        games = joined(paths, whole)
        cpu = timed_processes({"floor": [floor, str(whole)],
                               "remis": remis_command("game", "--json", str(whole))},
                              empty, rounds)
        sample = Path(tmp) / "sample.pgn"
        sampled = joined(paths, sample, sample_every)
        sample_cpu = timed_processes({"remis": remis_command("game", "--json", str(sample))},
                                    empty, rounds)["remis"]
        t = time.process_time()
        with open(sample, encoding="utf-8", errors="replace") as fh:
            while chess.pgn.read_game(fh) is not None:
                pass
        read_game = time.process_time() - t
        nothing = Path(tmp) / "empty-games.pgn"
        nothing.write_bytes(b'[Event "?"]\n[Result "*"]\n\n*\n\n' * empty_games)
        out = str(Path(tmp) / "findings.jsonl")
        empties = timed_processes({
            "game": remis_command("game", "--json", str(nothing)),
            "audit": remis_command("audit", "--jobs", "1", "--out", out, str(nothing))},
            empty, rounds)
    return [
        Row("remis game --json / Rust read-and-replay floor", cpu["remis"] / cpu["floor"], 5.0,
            f"{games} games: {cpu['remis']:.2f} s v {cpu['floor']:.2f} s CPU"),
        Row("remis game --json / python-chess read_game", sample_cpu / read_game, 0.025,
            f"every {sample_every}th game ({sampled}): {sample_cpu:.2f} s v {read_game:.2f} s CPU"),
        Row("remis game --json / remis audit, empty games", empties["game"] / empties["audit"],
            1.0, f"{empty_games} games: {empties['game']:.2f} s v {empties['audit']:.2f} s CPU"),
    ]


def quick_row(cha: Path, rounds: int) -> Row:
    """Quick mode on the 30,000 lichess positions against CHA's quick mode."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import unwinnability as u

    cases = u.load_30k(None)
    startup = u.cha_startup(cha)
    ours, theirs, decided = [], [], 0
    for _ in range(rounds):
        ours.append(u.quick_loop(cases))
        answers = u.cha_answers(cha, cases, quick=True, startup=startup)
        theirs.append(answers.mean)
    missed = sum(t is not None and can_checkmate(b, c, mode="quick").value is None
                 for (b, c, _), t in zip(cases, answers.verdicts, strict=True))
    decided = sum(t is not None for t in answers.verdicts)
    a, b = statistics.median(ours), statistics.median(theirs)
    return Row("quick mode / CHA's quick mode, lichess positions", a / b, 1.0,
               f"{len(cases)} positions: {1e6 * a:.2f} v {1e6 * b:.2f} us CPU; of the {decided} "
               f"CHA decides, {missed} left open")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40000, help="games to load (default: all)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--slow-games", type=int, default=500,
                    help="games for (b), which is ~60x slower")
    ap.add_argument("--rounds", type=int, default=3,
                    help="turns of the processes timed (the medians are compared)")
    ap.add_argument("--sample-every", type=int, default=10,
                    help="python-chess reads every Nth game (it is ~50x slower)")
    ap.add_argument("--empty-games", type=int, default=200000)
    ap.add_argument("--cha", type=Path, default=None, metavar="BINARY",
                    help="CHA's command-line program, for the quick-mode row")
    ap.add_argument("--live-games", type=int, default=1000,
                    help="games for the live rows (default 1000)")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"no data at {DATA}", file=sys.stderr)
        return 1
    games = load(args.games)
    plies = sum(len(m) for _, m in games)
    slow = games[: args.slow_games]
    print(f"{len(games)} games, {plies} plies from {DATA}")
    a, c, m = timed([(push_only, games), (remis_full, games), (remis_material, games)],
                    args.repeat)
    a_slow, b_slow = timed([(push_only, slow), (push_outcome, slow)], max(1, args.repeat // 2))
    print(f"(a) python-chess push only          {1e6 * a / plies:6.2f} us/ply")
    print(f"(b) push + outcome(claim_draw=True) {b_slow / a_slow:6.1f}x (a) "
          f"(first {len(slow)} games)")
    print(f"(c) remis, full tracking + claims   {c / a:6.2f}x (a) "
          "(the engine's dead-position test, as remis game)")
    print(f"    ... material-only dead test     {m / a:6.2f}x (a)")
    print()
    rows = live_rows(games[: args.live_games], max(1, args.repeat // 2))
    rows += batch_rows(args.rounds, args.sample_every, args.empty_games)
    if args.cha is not None:
        rows.append(quick_row(args.cha, args.rounds))
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Replay benchmark (issue 2): plies per second on real master games of

  (a) python-chess push only,
  (b) python-chess push + ``outcome(claim_draw=True)`` after every ply,
  (c) remis replay with full tracking (automatic ends and every claim), as
      ``remis game`` runs it: the whole game handed to the core at once
      (:func:`remis.replay.replay`), and, to show what one event costs the
      live arbiter, the same moves pushed one by one into
      :class:`remis.History` (python-chess's ``Board.push`` and the core's
      history) with the ends and claims asked after each.

Moves are parsed once beforehand, so only replay work is timed.  The
contenders take turns in every round (so that a change in the machine's load
hits them alike) and each is timed in CPU seconds of this process
(``time.process_time``: other processes on a shared machine do not count);
the median of the rounds is reported, and ratios are against (a).

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

    python benchmarks/replay.py [--games N] [--repeat R] [--slow-games M]
                                [--live-games L]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess

from remis.arbiter import Arbiter
from remis.history import History
from remis.pgn import read_games
from remis.replay import replay
from remis.rules import automatic_end, claimable
from remis.unwinnable.deadtest import EngineDeadTest

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "masters"


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


def live_rows(games: list[tuple[chess.Board, list[chess.Move]]], repeat: int) -> None:
    """Print the live rows with their targets (see the module's docstring)."""
    games = [(s, m) for s, m in games if s.fen() == chess.STARTING_FEN]
    events = [move_events(s, m) for s, m in games]
    plies = sum(len(m) for _, m in games)
    rows: list[tuple[str, Callable[[int], None], float | None]] = [
        ("(a) python-chess Board.push", lambda i: push_only(games[i:i + 1]), None),
        ("History.push + automatic_end + claimable",
         lambda i: live_history(*games[i]), 2.0),
        ("    ... History(lazy=True), the board when read",
         lambda i: live_history(*games[i], lazy=True), None),
        ("Arbiter.accept + state(log=False), clocks", lambda i: live_arbiter(events[i]), 5.0),
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
    print(f"live, move by move: {len(games)} games, {plies} plies, {repeat} rounds "
          "taking turns game by game (CPU)")
    for (name, _, target), t in zip(rows, cpu, strict=True):
        ratio = t / cpu[0]
        goal = "" if target is None else \
            f"  target <= {target:g}x: {'met' if ratio <= target else 'missed'}"
        print(f"  {name:<48} {1e6 * t / (plies * repeat):6.2f} us/ply  {ratio:5.2f}x (a)"
              f"{goal}")


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40000, help="games to load (default: all)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--slow-games", type=int, default=500,
                    help="games for (b), which is ~60x slower")
    ap.add_argument("--live-games", type=int, default=1000,
                    help="games for the live rows (default 1000)")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"no data at {DATA}", file=sys.stderr)
        return 1
    games = load(args.games)
    plies = sum(len(m) for _, m in games)
    slow = games[: args.slow_games]
    slow_plies = sum(len(m) for _, m in slow)
    print(f"{len(games)} games, {plies} plies from {DATA}")
    a, c, m = timed([(push_only, games), (remis_full, games), (remis_material, games)],
                    args.repeat)
    a_slow, b_slow, c_slow = timed([(push_only, slow), (push_outcome, slow), (remis_full, slow)],
                                   max(1, args.repeat // 2))
    rate = {"a": plies / a, "c": plies / c, "m": plies / m, "b": slow_plies / b_slow}
    print(f"(a) python-chess push only          {rate['a']:>12,.0f} plies/s  "
          f"{1e6 / rate['a']:6.2f} us/ply")
    print(f"(b) push + outcome(claim_draw=True) {rate['b']:>12,.0f} plies/s  "
          f"{1e6 / rate['b']:6.2f} us/ply  (first {len(slow)} games)")
    print(f"(c) remis, full tracking + claims   {rate['c']:>12,.0f} plies/s  "
          f"{1e6 / rate['c']:6.2f} us/ply  (engine dead-position test, as remis game)")
    print(f"    ... material-only dead test     {rate['m']:>12,.0f} plies/s  "
          f"{1e6 / rate['m']:6.2f} us/ply  ({m / a:.2f}x (a))")
    print(f"cost (c)/(a) = {a and c / a:.2f}x   (target <= 1.5x)")
    print(f"on the first {len(slow)} games: (b)/(a) = {b_slow / a_slow:.1f}x, "
          f"(c)/(a) = {c_slow / a_slow:.2f}x, (c) is {b_slow / c_slow:.1f}x faster than (b) "
          "(target 40x)")
    live_rows(games[: args.live_games], max(1, args.repeat // 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Arbiter benchmark (issue 4): events per second for whole master games
replayed as live move events through ``Arbiter.apply``, against the rules core
alone (``History.push`` + ``automatic_end`` after every move) in the same
process.

  (a) core:          History.push + automatic_end (moves pre-parsed)
  (b) arbiter UCI:   Arbiter.apply({"type": "move", "move": <uci>, "at": ...})
  (c) arbiter SAN:   the same with SAN, as a scoresheet would give it
  (d) no state:      (b) with a subclass whose state() returns only "over", so
                     (b) - (d) is the cost of building the returned state (FEN,
                     clocks, claimable draws, log)

Synthetic timestamps (one move every 7 s, time control 5400+30) so that no
flag falls.  Each measurement is repeated; medians are reported, and the
per-move overhead of the arbiter layer is (b) - (a).

    python benchmarks/arbiter.py [--games N] [--repeat R]
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
from remis.rules import automatic_end

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "masters"
Game = tuple[chess.Board, list[chess.Move], list[dict[str, Any]], list[dict[str, Any]]]


def load(limit: int) -> list[Game]:
    """Games from the masters collection with their move events (UCI and SAN)."""
    games: list[Game] = []
    for path in sorted(DATA.glob("*.pgn")):
        for g in read_games(path):
            if g.board is None or not g.moves or g.board.fen() != chess.STARTING_FEN:
                continue
            board = g.board.copy()
            uci, san = [], []
            for n, move in enumerate(g.moves):
                player = "white" if board.turn else "black"
                at = 7.0 * (n + 1)
                uci.append({"type": "move", "player": player, "move": move.uci(), "at": at})
                san.append({"type": "move", "player": player, "move": board.san(move), "at": at})
                board.push(move)
            games.append((g.board, g.moves, uci, san))
            if len(games) >= limit:
                return games
    return games


def core(games: list[Game]) -> None:
    for start, moves, _, _ in games:
        h = History(start)
        for m in moves:
            h.push(m)
            if automatic_end(h) is not None:
                break


def arbiter_with(which: int) -> Callable[[list[Game]], None]:
    def run(games: list[Game]) -> None:
        for game in games:
            a = Arbiter({"time_control": "5400+30"})
            apply = a.apply
            for e in game[which]:
                if apply(e)["over"]:
                    break
    return run


class _NoState(Arbiter):
    def state(self) -> dict[str, Any]:
        return {"over": self._end is not None}


def no_state(games: list[Game]) -> None:
    for game in games:
        a = _NoState({"time_control": "5400+30"})
        apply = a.apply
        for e in game[2]:
            if apply(e)["over"]:
                break


def timed(fn: Callable[[list[Game]], None], games: list[Game], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(games)
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games to replay (default 300)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"no data at {DATA}", file=sys.stderr)
        return 1
    games = load(args.games)
    moves = sum(len(g[1]) for g in games)
    print(f"{len(games)} games, {moves} moves, median of {args.repeat} runs")
    base = timed(core, games, args.repeat)
    rows = [("(a) core: History.push + automatic_end", base),
            ("(b) Arbiter.apply, UCI move events", timed(arbiter_with(2), games, args.repeat)),
            ("(c) Arbiter.apply, SAN move events", timed(arbiter_with(3), games, args.repeat))]
    rows.append(("(d) Arbiter.apply, UCI, no state built", timed(no_state, games,
                                                                  args.repeat)))
    for name, t in rows:
        print(f"{name:42s} {moves / t:10.0f} events/s  {t / moves * 1e6:7.1f} us/move  "
              f"x{t / base:5.2f}")
    for name, t in rows[1:3]:
        print(f"per-move overhead of the arbiter layer {name[:3]}: "
              f"{(t - base) / moves * 1e6:.1f} us")
    print(f"of which building the returned state: {(rows[1][1] - rows[3][1]) / moves * 1e6:.1f}"
          " us")
    return 0


if __name__ == "__main__":
    sys.exit(main())

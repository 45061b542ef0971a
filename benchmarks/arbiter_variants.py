"""Benchmark: move events per second of a shogi / xiangqi game through the
arbiter (``Arbiter.apply`` with ``"variant"`` in the config) against the
variant history alone (``VariantHistory.push`` + ``end`` after every ply, the
baseline, no clock and no state), in this process on the same random games
(:func:`remis.variants.randgames.random_game`, repetitions forced at the end).
The modes are timed in turn within each of ``--repeat`` rounds; medians of
the times and of the per-round ratios are printed (the ratio is what to read:
the machines here are noisy).

  (a) history:   VariantHistory.push + end per ply
  (b) arbiter:   Arbiter.apply({"type": "move", ...}) per ply, clock 5400+30
  (c) no state:  (b) with a subclass whose state() returns only "over", so
                 (b) - (c) is the cost of building the returned state

    .venv/bin/python benchmarks/arbiter_variants.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from remis.arbiter import Arbiter
from remis.arbiter.variant import VariantArbiter
from remis.variants.history import VariantHistory
from remis.variants.randgames import RandomGame, random_game


class _NoState(VariantArbiter):
    def state(self) -> dict[str, Any]:
        return {"over": self._end is not None}


def _seconds(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def _history(games: list[RandomGame]) -> int:
    n = 0
    for g in games:
        h = VariantHistory(g.variant, g.start)
        for m in g.shown:
            h.push(m)
            n += 1
            if h.end is not None:
                break
    return n


def _events(g: RandomGame) -> list[dict[str, Any]]:
    first = "white" if g.fen.split()[1] == "w" else "black"
    other = "black" if first == "white" else "white"
    return [{"type": "move", "player": first if k % 2 == 0 else other, "move": m,
             "at": 7.0 * (k + 1)} for k, m in enumerate(g.shown)]


def _arbiter(games: list[tuple[RandomGame, list[dict[str, Any]]]], cls: Any = Arbiter) -> int:
    n = 0
    for g, events in games:
        a = cls({"variant": g.variant, "start_fen": g.start, "time_control": "5400+30"})
        for e in events:
            n += 1
            if a.apply(e)["over"]:
                break
    return n


def main() -> None:
    """Run the benchmark and print medians, events/s and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(2026)
    print(f"{'variant':8} {'games':>6} {'plies':>6} {'mode':>9} {'median s':>9} "
          f"{'plies/s':>9} {'us/ply':>8} {'vs history':>10}")
    for variant in ("shogi", "xiangqi"):
        gs = [random_game(variant, rng, prefix=40) for _ in range(args.games)]
        with_events = [(g, _events(g)) for g in gs]
        plies = _history(gs)
        assert _arbiter(with_events) == plies == _arbiter(with_events, _NoState)
        modes: list[tuple[str, Callable[[], object]]] = [
            ("history", lambda gs=gs: _history(gs)),
            ("arbiter", lambda w=with_events: _arbiter(w)),
            ("no state", lambda w=with_events: _arbiter(w, _NoState))]
        times: dict[str, list[float]] = {name: [] for name, _ in modes}
        for _ in range(args.repeat):
            for name, fn in modes:
                times[name].append(_seconds(fn))
        for name, _ in modes:
            sec = statistics.median(times[name])
            ratio = statistics.median(t / b for t, b in zip(times[name], times["history"],
                                                            strict=True))
            print(f"{variant:8} {len(gs):>6} {plies:>6} {name:>9} {sec:>9.3f} "
                  f"{plies / sec:>9.0f} {1e6 * sec / plies:>8.0f} {ratio:>9.2f}x")

if __name__ == "__main__":
    main()

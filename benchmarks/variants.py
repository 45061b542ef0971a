"""Benchmark: plies per second of remis's variant tracking versus asking
Fairy-Stockfish (``pyffish.is_optional_game_end``) after each ply, which
re-parses the whole game every time.  Both run in this process, on the same
games; the ratio is what to read (machines here are noisy).

    .venv/bin/python benchmarks/variants.py [--games N] [--repeat R]

Modes:
* ``replay``  remis ``VariantHistory.extend`` + ``end`` (one pyffish call per
  game for legality and checks, one for the final position)
* ``push``    remis ``VariantHistory.push`` + ``end`` per ply, as the arbiter
  would drive it (two pyffish calls per ply)
* baseline    ``is_optional_game_end(variant, start, moves[:k])`` for every k
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from remis.variants import ffish
from remis.variants.history import VariantHistory
from remis.variants.randgames import RandomGame, random_game


def _median_seconds(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _replay(games: list[RandomGame]) -> None:
    for g in games:
        h = VariantHistory(g.variant, g.start)
        h.extend(g.shown)
        _ = h.end


def _push(games: list[RandomGame]) -> None:
    for g in games:
        h = VariantHistory(g.variant, g.start)
        for m in g.shown:
            h.push(m)
            if h.end is not None:
                break


def _fairy(games: list[RandomGame]) -> None:
    for g in games:
        for k in range(1, len(g.moves) + 1):
            if ffish.optional_end(g.variant, g.fen, list(g.moves[:k]))[0]:
                break


def _plies(games: list[RandomGame]) -> int:
    n = 0
    for g in games:
        h = VariantHistory(g.variant, g.start)
        n += h.extend(g.shown)
    return n


def main() -> None:
    """Run the benchmark and print medians, plies/s and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(2026)
    print(f"{'variant':8} {'games':>6} {'plies/game':>10} {'mode':>8} {'median s':>9} "
          f"{'plies/s':>9} {'vs fairy':>9}")
    for variant in ("shogi", "xiangqi"):
        for prefix in (12, 100):
            gs = [random_game(variant, rng, prefix=prefix) for _ in range(args.games)]
            plies = _plies(gs)
            label = f"{len(gs):>6} {plies / len(gs):>10.0f}"
            base = _median_seconds(lambda gs=gs: _fairy(gs), args.repeat)
            rows = [("fairy", base)]
            rows.append(("replay", _median_seconds(lambda gs=gs: _replay(gs), args.repeat)))
            rows.append(("push", _median_seconds(lambda gs=gs: _push(gs), args.repeat)))
            for mode, sec in rows:
                print(f"{variant:8} {label} {mode:>8} {sec:>9.3f} "
                      f"{plies / sec:>9.0f} {base / sec:>8.1f}x")


if __name__ == "__main__":
    main()

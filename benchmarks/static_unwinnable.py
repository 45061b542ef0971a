"""Static unwinnability proofs: soundness, coverage and speed on the real data.

Usage (from the project root, shared data in ../shared/data or
$REMIS_SHARED_DATA)::

    .venv/bin/python benchmarks/static_unwinnable.py            # everything
    .venv/bin/python benchmarks/static_unwinnable.py --quick    # samples only

* soundness: every CHA test vector (both colours) where a side CAN mate must
  get None, and so must every position of every lichess game that ended in
  checkmate (for the side that mated);
* coverage: the share of "cannot mate" answers proved, on the vectors and on
  the unfair timeouts (the side not to move), next to what python-chess's
  ``has_insufficient_material`` proves;
* speed on lichess-30k-positions.txt (the side that just moved): median, mean,
  p99 and max CPU time per position, with ``has_insufficient_material`` timed
  in the same process as the baseline (machines here are noisy: read the
  ratio).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import chess.pgn
from remis.unwinnable.static import static_unwinnable

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))


def vectors() -> Iterator[tuple[str, chess.Board]]:
    """(expected code, board) for every CHA test vector."""
    for line in (DATA / "unwinnability" / "cha-test-vectors.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            yield line[:2], chess.Board(line[3:].strip())


def fen_lines(name: str, step: int) -> list[chess.Board]:
    """Boards of a ``FEN game-id`` file, every ``step``-th line."""
    text = (DATA / "unwinnability" / name).read_text().splitlines()[::step]
    return [chess.Board(" ".join(line.split()[:-1])) for line in text]


def timed(func: Callable[[chess.Board, chess.Color], object],
          boards: list[tuple[chess.Board, chess.Color]]) -> tuple[list[float], int]:
    """Per-call CPU seconds (process time: the machines here are shared, and
    wall-clock outliers are mostly other people's jobs) and the number of
    truthy answers."""
    times = []
    hits = 0
    clock = time.process_time
    for board, color in boards:
        t0 = clock()
        hits += bool(func(board, color))
        times.append(clock() - t0)
    return times, hits


def summary(times: list[float]) -> str:
    """median / mean / p99 / max in microseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1e6:8.1f} us  mean "
            f"{statistics.fmean(ordered) * 1e6:8.1f} us  p99 {p99 * 1e6:8.1f} us  "
            f"max {ordered[-1] * 1e3:6.2f} ms")


def check_vectors() -> int:
    """Soundness and coverage on the CHA vectors; returns unsound count."""
    unsound = proved = material = cannot = 0
    boards = []
    for code, board in vectors():
        for color, letter in ((chess.WHITE, "W"), (chess.BLACK, "B")):
            boards.append((board, color))
            reason = static_unwinnable(board, color)
            if letter in code:
                if reason is not None:
                    unsound += 1
                    print(f"UNSOUND {code} {board.fen()} {letter}: {reason}")
            else:
                cannot += 1
                proved += reason is not None
                material += bool(board.has_insufficient_material(color))
    times, _ = timed(static_unwinnable, boards)
    print(f"cha-test-vectors: {len(boards)} (position, colour) pairs, unsound {unsound}")
    print(f"  'cannot mate' proved: static {proved}/{cannot} ({100 * proved / cannot:.1f}%), "
          f"python-chess material {material}/{cannot} ({100 * material / cannot:.1f}%)")
    print(f"  time static: {summary(times)}")
    return unsound


def check_timeouts(step: int) -> None:
    """Coverage on the unfair timeouts (side not to move cannot mate)."""
    boards = [(b, not b.turn) for b in fen_lines("lichess-unfair-timeouts.txt", step)]
    times, proved = timed(static_unwinnable, boards)
    material = sum(bool(b.has_insufficient_material(c)) for b, c in boards)
    either = sum(bool(b.has_insufficient_material(c)) or static_unwinnable(b, c) is not None
                 for b, c in boards)
    n = len(boards)
    print(f"lichess-unfair-timeouts (every {step}th line): {n} positions")
    print(f"  proved: static {proved} ({100 * proved / n:.1f}%), python-chess material "
          f"{material} ({100 * material / n:.1f}%), either {either} ({100 * either / n:.1f}%)")
    print(f"  time static: {summary(times)}")


def check_speed(step: int) -> None:
    """Speed on real positions against has_insufficient_material."""
    boards = [(b, not b.turn) for b in fen_lines("lichess-30k-positions.txt", step)]
    base, _ = timed(lambda b, c: b.has_insufficient_material(c), boards)
    times, proved = timed(static_unwinnable, boards)
    ratio = statistics.median(times) / statistics.median(base)
    print(f"lichess-30k-positions (every {step}th line): {len(boards)} positions, "
          f"proved unwinnable for the side that moved: {proved}")
    print(f"  static:   {summary(times)}")
    print(f"  baseline: {summary(base)}  (python-chess has_insufficient_material)")
    print(f"  median ratio static / baseline: {ratio:.1f}x")


def check_played_mates(limit: int | None) -> int:
    """Every position of every lichess game ending in mate: the mating side
    can mate, so no static proof may claim otherwise.  Returns unsound."""
    unsound = checked = games = 0
    for pgn in sorted((DATA / "lichess").glob("*.pgn")):
        with pgn.open(encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                if limit is not None and games >= limit:
                    break
                final = game.end().board()
                if not final.is_checkmate():
                    continue
                games += 1
                winner = not final.turn
                board = game.board()
                for move in [*game.mainline_moves(), None]:
                    checked += 1
                    if static_unwinnable(board, winner) is not None:
                        unsound += 1
                        print(f"UNSOUND (played mate) {pgn.name} {board.fen()}")
                    if move is not None:
                        board.push(move)
    print(f"played mates: {games} games, {checked} positions, unsound {unsound}")
    return unsound


def main() -> int:
    """Run the checks; exit status 1 on any unsound answer."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="samples: every 17th timeout, every 6th 30k position, 300 mates")
    args = parser.parse_args()
    unsound = check_vectors()
    check_timeouts(17 if args.quick else 1)
    check_speed(6 if args.quick else 1)
    unsound += check_played_mates(300 if args.quick else None)
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())

"""``remis game`` against python-chess's bare ``read_game`` loop, in one run.

    python benchmarks/batch.py                 # masters + lichess of ../shared/data
    python benchmarks/batch.py --zst           # and a .pgn.zst stream through the CLI
    python benchmarks/batch.py --skip-baseline --memory 3 --folder /work/ext/mem47

The baseline reads every game with ``chess.pgn.read_game`` and nothing else;
``remis game`` reads and rules on every game (claims, automatic ends, the last
position's full-mode question, the 6.9 answer after a loss on time) and writes
its JSON Lines (to /dev/null).  The ratio is remis's time over the baseline's
(the issue's target: <= 0.2).  With ``--zst`` the lichess files are joined
into one zstd stream in a temporary folder and ``remis game --json`` runs on
it as a user would; the target is >= 20,000 games a second per core.  With
``--memory GB`` streams of GB/10 and GB gigabytes (decompressed; the lichess
files over and over) are written as .pgn.zst to ``--folder`` and piped through
``remis game --json`` to /dev/null under ``/usr/bin/time -v``: the peak
resident memory must not grow with the stream.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("REMIS_SHARED_DATA", ROOT.parent / "shared" / "data"))


def files() -> list[Path]:
    return sorted((DATA / "masters").glob("*.pgn")) + sorted((DATA / "lichess").glob("*.pgn"))


def bare_read_game(paths: list[Path]) -> int:
    import chess.pgn

    n = 0
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as f:
            while chess.pgn.read_game(f) is not None:
                n += 1
    return n


def remis_game(paths: list[Path]) -> int:
    from remis.game import rule_on_pgn_file

    n = 0
    with open(os.devnull, "w") as out:
        for p in paths:
            for g in rule_on_pgn_file(p):
                out.write(json.dumps(g.to_json(), ensure_ascii=False) + "\n")
                n += 1
    return n


def timed(fn, paths):  # type: ignore[no-untyped-def]
    """The result of ``fn(paths)`` and the CPU seconds it took (this process's
    clock, which other processes on a shared machine do not move)."""
    t = time.process_time()
    n = fn(paths)
    return n, time.process_time() - t


def zst_stream(repeat: int = 10) -> None:
    import resource

    import zstandard

    lichess = sorted((DATA / "lichess").glob("*.pgn"))
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "lichess.pgn.zst"
        with open(path, "wb") as fh, zstandard.ZstdCompressor().stream_writer(fh) as w:
            for _ in range(repeat):  # a stream long enough that start-up does not count
                for p in lichess:
                    w.write(p.read_bytes().rstrip(b"\n") + b"\n\n")
        remis = str(Path(sys.executable).parent / "remis")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        with open(os.devnull, "wb") as null:
            subprocess.run([remis, "game", "--json", str(path)], stdout=null, check=False)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        from remis import _core

        games = repeat * sum(1 for p in lichess for _ in _core.GameReader(
            str(p), claims="none", last_position=False, time_forfeit=False))
        print(f"zst stream ({path.stat().st_size >> 20} MiB compressed): {games} games in "
              f"{wall:.2f} s wall, {cpu:.2f} s CPU: {games / cpu:,.0f} games/s a core "
              f"(target >= 20,000)")


def write_stream(path: Path, size: int) -> int:
    """A .pgn.zst of the lichess files over and over, ``size`` bytes
    decompressed at least; returns its number of games."""
    import zstandard

    from remis import _core

    lichess = sorted((DATA / "lichess").glob("*.pgn"))
    block = b"".join(p.read_bytes().rstrip(b"\n") + b"\n\n" for p in lichess)
    per_block = sum(1 for _ in _core.GameSplitter(block))
    rounds = -(-size // len(block))
    with open(path, "wb") as fh, zstandard.ZstdCompressor(level=1).stream_writer(fh) as w:
        for _ in range(rounds):
            w.write(block)
    return rounds * per_block


def peak_memory(gb: float, folder: Path) -> None:
    """Peak RSS of ``remis game --json`` over streams of GB/10 and GB gigabytes."""
    folder.mkdir(parents=True, exist_ok=True)
    remis = str(Path(sys.executable).parent / "remis")
    for size in (gb / 10, gb):
        path = folder / f"lichess-{size:g}GB.pgn.zst"
        games = write_stream(path, int(size * 1e9))
        with open(os.devnull, "wb") as null:
            run = subprocess.run(["/usr/bin/time", "-v", remis, "game", "--json", str(path)],
                                 stdout=null, stderr=subprocess.PIPE, text=True, check=False)
        info = dict(line.strip().split(": ", 1) for line in run.stderr.splitlines()
                    if ": " in line)
        rss = int(info["Maximum resident set size (kbytes)"]) / 1024
        cpu = float(info["User time (seconds)"]) + float(info["System time (seconds)"])
        print(f"{size:g} GB stream ({path.stat().st_size >> 20} MiB compressed, {games:,} games): "
              f"peak RSS {rss:,.0f} MiB, {cpu:,.0f} s CPU, {games / cpu:,.0f} games/s, "
              f"exit {run.returncode}")
        path.unlink()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--zst", action="store_true")
    ap.add_argument("--skip-baseline", action="store_true")
    ap.add_argument("--memory", type=float, metavar="GB", help="peak memory on a GB stream")
    ap.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "remis-memory",
                    help="where the --memory streams are written (and removed)")
    args = ap.parse_args()
    if args.memory:
        peak_memory(args.memory, args.folder)
        return
    paths = files()
    n, t_remis = timed(remis_game, paths)
    print(f"remis game:          {n} games in {t_remis:7.2f} s CPU ({n / t_remis:8,.0f} games/s)")
    if not args.skip_baseline:
        m, t_base = timed(bare_read_game, paths)
        print(f"python-chess read_game: {m} games in {t_base:7.2f} s CPU "
              f"({m / t_base:8,.0f} games/s)")
        ratio = t_remis / t_base
        print(f"remis game / read_game loop  {ratio:.3f}x  target <= 0.2x: "
              f"{'met' if ratio <= 0.2 else 'MISSED'}")
    if args.zst:
        zst_stream()


if __name__ == "__main__":
    main()

"""Start-up: wall time of ``remis --version`` against a bare ``python -c pass``
(the interpreter's own start), medians of 15 runs each, in one run.

    python benchmarks/startup.py
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def wall(cmd: list[str], runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    remis = shutil.which("remis") or str(Path(sys.executable).parent / "remis")
    base = wall([sys.executable, "-c", "pass"])
    version = wall([remis, "--version"])
    help_ = wall([remis, "--help"])
    print(f"python -c pass   {base * 1000:6.1f} ms")
    print(f"remis --version  {version * 1000:6.1f} ms  (target <= 80 ms; "
          f"{(version - base) * 1000:.1f} ms above the interpreter)")
    print(f"remis --help     {help_ * 1000:6.1f} ms")


if __name__ == "__main__":
    main()

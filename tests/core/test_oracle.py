"""The core against the oracle of issue 47: ``remis game --json`` of every
game of ../shared/data as the pure-Python implementation gave it, recorded
outside the tree (``benchmarks/oracle.py record``).  Set $REMIS_ORACLE to its
folder; without it (or without the shared data) the test is skipped.

With the compiled unwinnability engine no game differs: not even where the
answer is the engine's (a dead position found by full mode, 5.2.2, and the 6.9
verdict after a loss on time).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ORACLE = Path(os.environ.get("REMIS_ORACLE", "/work/ext/oracle47"))


@pytest.mark.shared
@pytest.mark.slow
def test_the_core_rules_as_the_oracle(shared_data: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    if not (ORACLE / "masters").is_dir():
        pytest.skip(f"no oracle at {ORACLE} (set REMIS_ORACLE; see benchmarks/oracle.py)")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import oracle
    finally:
        sys.path.pop(0)
    diffs = oracle.compare(ORACLE, shared_data)
    report = capsys.readouterr().out
    assert diffs == [], report

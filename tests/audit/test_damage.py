"""A damaged compressed file (issue 50, item 7): ``remis audit`` reads every
game ``remis game`` rules on, up to the damage, says after which game it
begins in the same words every time, and exits 1, on ``--resume`` too."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import zstandard

from remis.cli import main

SYNTHETIC = Path(__file__).resolve().parent.parent / "data" / "audit" / "one_per_check.pgn"


@pytest.mark.parametrize("suffix", [".pgn.zst", ".pgn.gz"])
def test_every_game_before_the_damage_is_audited_and_the_damage_reported_every_time(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], suffix: str) -> None:
    # numbered events keep the data from compressing to nothing
    text = b"".join(SYNTHETIC.read_bytes().replace(b'[Site "remis tests"]',
                                                   f'[Site "{i}"]'.encode())
                    for i in range(400))
    data = zstandard.ZstdCompressor().compress(text) if suffix == ".pgn.zst" \
        else gzip.compress(text)
    bad = tmp_path / f"cut{suffix}"
    bad.write_bytes(data[: len(data) * 2 // 3])
    assert main(["game", "--json", str(bad)]) == 1
    out, err = capfd.readouterr()
    ruled = [json.loads(line)["game"] for line in out.splitlines()]
    assert 0 < len(ruled) < 2800 and ruled == list(range(1, len(ruled) + 1))
    assert f"after game {len(ruled)}," in err

    messages = []
    for run in range(2):
        o = tmp_path / f"f{run}.jsonl"
        summary = tmp_path / f"s{run}.json"
        assert main(["audit", str(bad), "-j", "2", "-q", "-o", str(o),
                     "--summary", str(summary)]) == 1
        err = capfd.readouterr().err
        assert json.loads(summary.read_text())["games"] == len(ruled)
        (line,) = [x for x in err.splitlines() if str(bad) in x]
        assert f"after game {len(ruled)}," in line
        messages.append(line)
    assert messages[0] == messages[1]
    # resuming the finished run repeats the damage and its exit status
    assert main(["audit", str(bad), "-j", "2", "-q", "-o", str(tmp_path / "f0.jsonl"),
                 "--resume"]) == 1
    assert messages[0] in capfd.readouterr().err.splitlines()

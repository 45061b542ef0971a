"""``remis audit`` from the command line: quiet when piped, a progress bar on
a terminal, Ctrl-C then ``--resume``, the HTML report, clear input errors."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from remis.cli import main

SYNTHETIC = Path(__file__).resolve().parent.parent / "data" / "audit" / "one_per_check.pgn"
REMIS = Path(sys.executable).with_name("remis")


def test_piped_run_prints_findings_and_a_summary_only(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(SYNTHETIC), "--jobs", "1"]) == 0
    out, err = capfd.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["check"] for r in rows] == ["moves_after_end", "illegal_move", "result_after_end",
                                          "result_vs_position", "time_forfeit"]
    assert "games/s" not in err and err.startswith("audited 7 games: 5 findings")


def test_input_errors_are_named(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(tmp_path / "nope.pgn"), str(SYNTHETIC), "-j", "1", "-q"]) == 1
    out, err = capfd.readouterr()
    assert f"remis: audit: {tmp_path / 'nope.pgn'}: no such file" in err
    assert len(out.splitlines()) == 5
    assert main(["audit", str(SYNTHETIC), "--checks", "nonsense"]) == 2
    assert main(["audit", str(SYNTHETIC), "--resume"]) == 2
    assert "Traceback" not in capfd.readouterr().err


def test_report_is_one_self_contained_page(tmp_path: Path) -> None:
    out, report, summary = tmp_path / "f.jsonl", tmp_path / "r.html", tmp_path / "s.json"
    assert main(["audit", str(SYNTHETIC), "-j", "1", "-q", "--out", str(out),
                 "--report", str(report), "--summary", str(summary)]) == 0
    page = report.read_text()
    assert page.count("<svg") == 4 and "<script" not in page and "<link" not in page
    assert 'src="http' not in page and "Findings by check" in page
    assert "time_forfeit" in page and "Synthetic" not in page.split("<h2>Findings")[0]
    s = json.loads(summary.read_text())
    assert s["games"] == 7 and s["by_check"]["time_forfeit"] == 1
    assert s["tf_material"] == {"0": 2}


@pytest.mark.skipif(not REMIS.exists(), reason="the remis script is not installed")
def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    proc = subprocess.run([str(REMIS), "audit", str(SYNTHETIC), "-j", "1",
                           "--out", str(tmp_path / "o.jsonl")], stderr=slave,
                          stdout=subprocess.DEVNULL, timeout=120)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.returncode == 0
    assert "games/s" in b"".join(chunks).decode(errors="replace")


@pytest.mark.skipif(not REMIS.exists(), reason="the remis script is not installed")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_command_then_resume(tmp_path: Path, sig: int) -> None:
    big = tmp_path / "big.pgn"
    big.write_bytes(SYNTHETIC.read_bytes() * 600)
    full = tmp_path / "full.jsonl"
    args = ["audit", str(big), "-j", "2", "-q", "--chunk-bytes", "3000"]
    assert main([*args, "--out", str(full)]) == 0
    out = tmp_path / "part.jsonl"
    proc = subprocess.Popen([str(REMIS), *args, "--out", str(out)], stderr=subprocess.PIPE)
    # interrupt once the audit has written its first results (a fixed sleep
    # could land before the command installs its handler on a loaded machine)
    deadline = time.monotonic() + 60
    while (not out.exists() or not out.stat().st_size) and proc.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    expected = full.read_text().splitlines()
    part = out.read_text().splitlines() if out.exists() else []
    assert proc.returncode in (0, 130, -signal.SIGKILL)  # 0: finished before the signal
    if sig == signal.SIGINT and proc.returncode == 130:
        assert b"--resume" in err and b"Traceback" not in err
        assert part == expected[:len(part)]  # valid, in order, nothing torn
    assert main([*args, "--out", str(out), "--resume"]) == 0
    assert out.read_text().splitlines() == expected


def test_a_missing_extra_is_named_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capfd: pytest.CaptureFixture[str]) -> None:
    # without pyarrow and matplotlib (the audit extra), parquet and --report
    # are usage errors up front, not a traceback after the whole run
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("pyarrow", "matplotlib") else real(
                            name, *a))
    out = tmp_path / "f.parquet"
    assert main(["audit", str(SYNTHETIC), "-j", "1", "-q", "--format", "parquet",
                 "--out", str(out)]) == 2
    assert main(["audit", str(SYNTHETIC), "-j", "1", "-q", "--report",
                 str(tmp_path / "r.html")]) == 2
    err = capfd.readouterr().err
    assert "--format parquet (pyarrow is not installed)" in err and "remis[audit]" in err
    assert "--report (matplotlib is not installed)" in err and "Traceback" not in err
    assert not out.exists()

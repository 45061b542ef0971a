"""``remis audit --variant`` on the chess audit's runner: files cut into byte
ranges (game lines at line ends, CSA at its ``/`` lines, KIF whole) on
``--jobs`` processes, streams in batches, and ``--resume`` after an
interruption, all giving the findings of a plain one-pass audit."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("pyffish")
pytest.importorskip("cshogi")

from remis.audit.output import open_writer
from remis.audit.run import AuditOptions, run_audit
from remis.cli import main
from remis.variants.audit import audit_records
from remis.variants.auditrun import VariantWork
from remis.variants.records import read_records
from remis.variants.rules import rules_for

REMIS = Path(sys.executable).with_name("remis")


@pytest.fixture()
def corpus(test_data: Path, tmp_path: Path) -> list[Path]:
    """A game-line file, a CSA file and a KIF collection of several games
    each, with findings spread through them."""
    src = test_data / "variants"
    lines = tmp_path / "lines.txt"
    lines.write_bytes((src / "audit-shogi.txt").read_bytes() * 25)  # 200 games
    csa = tmp_path / "games.csa"
    csa.write_bytes(b"/\n".join([(src / "games.csa").read_bytes()] * 6))  # 24 games
    kif = tmp_path / "collection.kif"
    kif.write_bytes((src / "sennichite-scored-as-win.kif").read_bytes() * 3)
    return [lines, csa, kif]


def _reference(files: list[Path]) -> list[str]:
    """The findings of every file read whole, in one pass, in this process."""
    out = []
    for p in files:
        found = audit_records(read_records(str(p), "shogi"), rules_for("shogi"), str(p))
        out.extend(json.dumps(f.to_json(), ensure_ascii=False, sort_keys=True) for f in found)
    return out


def _rows(path: Path) -> list[str]:
    return [json.dumps(json.loads(x), ensure_ascii=False, sort_keys=True)
            for x in path.read_text(encoding="utf-8").splitlines()]


def _stop_after(tasks: int) -> Callable[[int, int, int], None]:
    """A progress callback that interrupts the run after ``tasks`` tasks."""
    calls = []

    def progress(games: int, findings: int, size: int) -> None:
        calls.append(games)
        if len(calls) == tasks:
            raise KeyboardInterrupt

    return progress


def _opts(files: list[Path], out: Path, **kw: object) -> AuditOptions:
    return AuditOptions([str(p) for p in files], str(out), work=VariantWork("shogi"),
                        **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("jobs", "chunk"), [(1, 1 << 20), (1, 700), (2, 700)])
def test_ranges_and_jobs_give_the_one_pass_findings(corpus: list[Path], tmp_path: Path,
                                                    jobs: int, chunk: int) -> None:
    out = tmp_path / "f.jsonl"
    opts = _opts(corpus, out, jobs=jobs, chunk_bytes=chunk)
    state = run_audit(opts, opts.paths)
    if chunk < 1 << 20:  # the game-line and CSA files were cut, the KIF was not
        assert len(state.ranges["0"]) > 10 and len(state.ranges["1"]) > 2
        assert len(state.ranges["2"]) == 1
    expected = _reference(corpus)
    assert len(expected) == 125 + 18 + 3
    assert _rows(out) == expected  # same games, lines, offsets, in input order
    assert state.complete and state.summary["games"] == 200 + 24 + 3
    assert state.summary["findings"] == len(expected)


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_run_resumed_gives_the_same_findings(corpus: list[Path], tmp_path: Path,
                                                         jobs: int) -> None:
    full = tmp_path / "full.jsonl"
    done = run_audit(_opts(corpus, full, jobs=1, chunk_bytes=700), [str(p) for p in corpus])
    out = tmp_path / "part.jsonl"
    opts = _opts(corpus, out, jobs=jobs, chunk_bytes=700)
    with pytest.raises(KeyboardInterrupt):
        run_audit(opts, opts.paths, progress=_stop_after(6))
    part = out.read_bytes().splitlines()
    assert 0 < len(part) < len(full.read_bytes().splitlines())
    assert part == full.read_bytes().splitlines()[:len(part)]  # valid, in order
    with open(out, "ab") as f:  # a killed writer may leave a torn line: resume cuts it
        f.write(b'{"check": "torn')
    opts.resume = True
    state = run_audit(opts, opts.paths)
    assert state.complete and out.read_bytes() == full.read_bytes()
    assert state.summary == done.summary
    # resuming a finished run changes nothing
    assert run_audit(opts, opts.paths).complete and out.read_bytes() == full.read_bytes()


def test_a_stream_is_audited_in_batches_and_resumed(corpus: list[Path], tmp_path: Path) -> None:
    lines = corpus[0]
    gz = tmp_path / "lines.txt.gz"
    gz.write_bytes(gzip.compress(lines.read_bytes()))
    expected = [r.replace(str(lines), str(gz)) for r in _reference([lines])]
    out = tmp_path / "gz.jsonl"
    opts = _opts([gz], out, jobs=2, batch_games=15)
    with pytest.raises(KeyboardInterrupt):
        run_audit(opts, opts.paths, progress=_stop_after(3))
    assert 0 < len(_rows(out)) < len(expected)
    opts.resume = True
    state = run_audit(opts, opts.paths)
    assert state.complete and _rows(out) == expected
    assert state.summary["games"] == 200


def test_resume_refuses_a_checkpoint_of_other_rules(corpus: list[Path], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "f.jsonl"
    path = str(corpus[0])
    assert main(["audit", "--variant", "shogi", "-q", "-j", "1", path, "--out", str(out)]) == 0
    assert main(["audit", "--variant", "xiangqi", "-q", "-j", "1", path, "--out", str(out),
                 "--resume"]) == 2
    assert "belongs to an audit of other files or options" in capsys.readouterr().err


def test_bad_files_are_reported_and_the_rest_audited(corpus: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "f.jsonl"
    writer = open_writer(str(out), "jsonl")
    writer.close()
    errors: list[str] = []
    opts = AuditOptions([str(corpus[1]), str(corpus[0])], str(out), jobs=1, chunk_bytes=700,
                        work=VariantWork("xiangqi"))
    state = run_audit(opts, opts.paths, on_error=errors.append)
    assert errors == [f"{corpus[1]}: CSA is a shogi format, not xiangqi"]  # once, not per range
    assert state.complete and state.summary["games"] > 0


@pytest.mark.skipif(not REMIS.exists(), reason="the remis script is not installed")
def test_killed_command_then_resume(corpus: list[Path], tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(corpus[0].read_bytes() * 4)
    args = ["audit", "--variant", "shogi", str(big), "-j", "2", "-q", "--chunk-bytes", "2000"]
    full = tmp_path / "full.jsonl"
    assert main([*args, "--out", str(full)]) == 0
    out = tmp_path / "part.jsonl"
    proc = subprocess.Popen([str(REMIS), *args, "--out", str(out)], stderr=subprocess.PIPE)
    # kill it once it has checkpointed a task (whenever that is on a busy machine), or
    # let it be if it finished first; the deadline only bounds a run that hangs
    ckpt = Path(f"{out}.ckpt.json")
    deadline = time.monotonic() + 300
    while not ckpt.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode in (0, -signal.SIGKILL)  # 0: finished before the signal
    assert main([*args, "--out", str(out), "--resume"]) == 0
    assert out.read_bytes() == full.read_bytes()

"""The runner: byte ranges, ordering, processes, interrupt and resume, formats."""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import json
from pathlib import Path

import pytest
import zstandard

from remis.audit.output import read_findings
from remis.audit.run import AuditOptions, run_audit
from remis.audit.split import plan_ranges, read_range
from remis.pgn import split_games

SYNTHETIC = Path(__file__).resolve().parent.parent / "data" / "audit" / "one_per_check.pgn"


@pytest.fixture()
def big(tmp_path: Path) -> Path:
    """The synthetic file 30 times over (210 games, 150 findings)."""
    p = tmp_path / "big.pgn"
    text = SYNTHETIC.read_bytes()
    p.write_bytes(text * 30)
    return p


def _run(paths: list[Path], out: Path, **kw: object) -> list[str]:
    opts = AuditOptions([str(p) for p in paths], str(out), **kw)  # type: ignore[arg-type]
    state = run_audit(opts, [str(p) for p in paths])
    assert state.complete
    return out.read_text().splitlines()


def test_ranges_cover_every_game_exactly_once(big: Path) -> None:
    whole = [g.offset for g in split_games(io.BytesIO(big.read_bytes()))]
    for chunk in (1, 500, 4096, 10**9):
        ranges = plan_ranges(str(big), chunk)
        assert ranges[0][0] == 0 and ranges[-1][1] == big.stat().st_size
        assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
        got = [g.offset for s, e in ranges for g in read_range(str(big), s, e)]
        assert got == whole, chunk


def test_same_findings_in_the_same_order_on_one_or_two_processes(big: Path,
                                                                   tmp_path: Path) -> None:
    one = _run([big], tmp_path / "one.jsonl", jobs=1, chunk_bytes=1 << 30)
    two = _run([big], tmp_path / "two.jsonl", jobs=2, chunk_bytes=2000)
    assert len(one) == 150 and one == two
    games = [json.loads(line)["game"] for line in one]
    assert games == sorted(games) and games[-1] == 209


def test_compressed_inputs_give_the_same_findings(big: Path, tmp_path: Path) -> None:
    gz = tmp_path / "big.pgn.gz"
    gz.write_bytes(gzip.compress(big.read_bytes()))
    bz = tmp_path / "big.pgn.bz2"
    bz.write_bytes(bz2.compress(big.read_bytes()))
    zst = tmp_path / "big.pgn.zst"
    zst.write_bytes(zstandard.ZstdCompressor().compress(big.read_bytes()))
    plain = [json.loads(x) for x in _run([big], tmp_path / "p.jsonl", jobs=1)]
    for comp in (gz, bz, zst):
        got = [json.loads(x) for x in _run([comp], tmp_path / "c.jsonl", jobs=2,
                                           batch_games=17)]
        assert [(f["game"], f["offset"], f["check"]) for f in got] == \
            [(f["game"], f["offset"], f["check"]) for f in plain]


def test_several_files_and_game_numbers_per_file(big: Path, tmp_path: Path) -> None:
    lines = _run([SYNTHETIC, big], tmp_path / "o.jsonl", jobs=2, chunk_bytes=3000)
    rows = [json.loads(x) for x in lines]
    assert [r["game"] for r in rows[:5]] == [2, 3, 4, 5, 6]
    assert rows[5]["file"] == str(big) and rows[5]["game"] == 2


class _Stop(Exception):
    pass


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupt_leaves_valid_output_and_resume_completes_it(big: Path, tmp_path: Path,
                                                               jobs: int) -> None:
    full = _run([big], tmp_path / "full.jsonl", jobs=1, chunk_bytes=2000)
    out = tmp_path / "part.jsonl"
    opts = AuditOptions([str(big)], str(out), jobs=jobs, chunk_bytes=2000)
    calls = []

    def progress(games: int, findings: int, done: int) -> None:
        calls.append(games)
        if len(calls) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_audit(opts, [str(big)], progress=progress)
    part = out.read_text().splitlines()
    assert 0 < len(part) < len(full) and part == full[:len(part)]
    for line in part:
        json.loads(line)  # every line is whole
    # a killed writer may have left a torn line after the checkpoint: resume cuts it
    with open(out, "ab") as f:
        f.write(b'{"check": "torn')
    opts.resume = True
    state = run_audit(opts, [str(big)])
    assert state.complete and out.read_text().splitlines() == full
    assert state.summary["games"] == 210 and state.summary["findings"] == 150
    # resuming a finished run changes nothing
    assert run_audit(opts, [str(big)]).complete and out.read_text().splitlines() == full


def test_resume_refuses_a_checkpoint_of_other_options(big: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    _run([big], out, jobs=1)
    opts = AuditOptions([str(big)], str(out), jobs=1, laws="as-played", resume=True)
    with pytest.raises(ValueError, match="other files or options"):
        run_audit(opts, [str(big)])


def test_csv_and_parquet_hold_the_same_findings(big: Path, tmp_path: Path) -> None:
    rows = [json.loads(x) for x in _run([big], tmp_path / "o.jsonl", jobs=1)]
    _run([big], tmp_path / "o.csv", jobs=1, fmt="csv")
    csv_rows = read_findings(str(tmp_path / "o.csv"), "csv")
    opts = AuditOptions([str(big)], str(tmp_path / "o.parquet"), fmt="parquet", jobs=1)
    assert run_audit(opts, [str(big)]).complete
    pq_rows = read_findings(str(tmp_path / "o.parquet"), "parquet")
    assert len(csv_rows) == len(pq_rows) == len(rows)
    for r, c, q in zip(rows, csv_rows, pq_rows, strict=True):
        assert (r["game"], r["check"], r["article"]) == (int(c["game"]), c["check"],
                                                          c["article"])
        assert (q["game"], q["check"], q["white"]) == (r["game"], r["check"],
                                                        r["headers"]["White"])
        assert json.loads(q["evidence"]) == r["evidence"]


def test_a_missing_and_a_corrupt_file_do_not_stop_the_batch(big: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pgn.gz"
    bad.write_bytes(gzip.compress(SYNTHETIC.read_bytes())[:200])  # truncated stream
    errors: list[str] = []
    out = tmp_path / "o.jsonl"
    opts = AuditOptions([str(bad), str(big)], str(out), jobs=1)
    state = run_audit(opts, [str(bad), str(big)], on_error=errors.append)
    assert state.complete and len(errors) == 1 and str(bad) in errors[0]
    assert sum(1 for r in out.read_text().splitlines() if str(big) in r) == 150


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert _run([empty], tmp_path / "o.jsonl", jobs=2) == []



def test_resume_over_a_compressed_stream(big: Path, tmp_path: Path) -> None:
    gz = tmp_path / "big.pgn.gz"
    gz.write_bytes(gzip.compress(big.read_bytes()))
    files = [str(gz), str(SYNTHETIC)]
    full = _run([gz, SYNTHETIC], tmp_path / "full.jsonl", jobs=1, batch_games=20)
    out = tmp_path / "part.jsonl"
    opts = AuditOptions(files, str(out), jobs=2, batch_games=20)
    calls: list[int] = []

    def progress(games: int, findings: int, done: int) -> None:
        calls.append(games)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_audit(opts, files, progress=progress)
    part = out.read_text().splitlines()
    assert 0 < len(part) < len(full) and part == full[:len(part)]
    opts.resume = True
    state = run_audit(opts, files)
    assert state.complete and out.read_text().splitlines() == full
    assert state.summary["games"] == 217

"""Inputs that cannot be read are reported as what they are, where they are,
and the rest is read: a file that may not be read (run as a user without
root's override of file permissions), a FIFO (read as a stream), a dangling
symbolic link, a loop of links, a directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from remis.cli import main

MATE = b'[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n'
REMIS = [sys.executable, "-m", "remis"]


def _as_plain_user() -> list[str] | None:
    """The prefix that runs a command as a user whom file permissions bind:
    none needed when this is not root, setpriv when it is; None when neither."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all"]


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder the plain user can read and write (pytest's own is root's alone)."""
    d = Path(tempfile.mkdtemp(prefix="remis-perm-"))
    d.chmod(0o777)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def test_a_file_that_may_not_be_read_is_reported_and_the_rest_audited(shared_tmp: Path) -> None:
    prefix = _as_plain_user()
    if prefix is None:
        pytest.skip("root without setpriv: no user whom file permissions bind")
    for name in ("a.pgn", "b.pgn", "c.pgn"):
        (shared_tmp / name).write_bytes(MATE)
        (shared_tmp / name).chmod(0o644)
    (shared_tmp / "b.pgn").chmod(0)
    probe = subprocess.run([*prefix, "cat", str(shared_tmp / "b.pgn")], capture_output=True,
                           check=False)
    assert probe.returncode != 0, "the plain user can read a file at chmod 000"
    out = shared_tmp / "f.jsonl"
    summary = shared_tmp / "s.json"
    done = subprocess.run([*prefix, *REMIS, "audit", str(shared_tmp), "-j", "1", "-q",
                           "-o", str(out), "--summary", str(summary)],
                          capture_output=True, text=True, check=False, env=_env())
    assert done.returncode == 1, done.stderr
    assert f"{shared_tmp / 'b.pgn'}: permission denied" in done.stderr
    assert "Traceback" not in done.stderr
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(f["file"] for f in found) == [str(shared_tmp / "a.pgn"),
                                               str(shared_tmp / "c.pgn")]
    assert json.loads(summary.read_text())["games"] == 2
    # the run itself copes too, when the file is given to it directly
    code = ("import sys\nfrom remis.audit.run import AuditOptions, run_audit\n"
            "files = sys.argv[1:4]\n"
            "st = run_audit(AuditOptions(files, sys.argv[4], jobs=1), files)\n"
            "print(st.summary['games'], st.errors)\n")
    files = [str(shared_tmp / n) for n in ("a.pgn", "b.pgn", "c.pgn")]
    done = subprocess.run([*prefix, sys.executable, "-c", code, *files, str(out)],
                          capture_output=True, text=True, check=False, env=_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 [") and "b.pgn: permission denied" in done.stdout


def _env() -> dict[str, str]:
    """The environment for the plain user: the package found where it is, no
    bytecode written into a tree the user may not write."""
    import remis

    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONPATH": str(Path(remis.__file__).resolve().parents[1]),
            "HOME": tempfile.gettempdir()}


@pytest.mark.parametrize("command", ["game", "audit"])
def test_each_unreadable_path_is_reported_as_what_it_is(
        tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "dangling.pgn").symlink_to(tmp_path / "gone.pgn")
    (tmp_path / "loop1.pgn").symlink_to(tmp_path / "loop2.pgn")
    (tmp_path / "loop2.pgn").symlink_to(tmp_path / "loop1.pgn")
    (tmp_path / "folder.pgn").mkdir()
    good = tmp_path / "good.pgn"
    good.write_bytes(MATE)
    names = ["missing.pgn", "dangling.pgn", "loop1.pgn", "good.pgn"]
    args = [command, *(str(tmp_path / n) for n in names)]
    if command == "game":
        args.append(str(tmp_path / "folder.pgn"))
    else:
        args += ["-j", "1", "-q", "-o", str(tmp_path / "f.jsonl")]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'missing.pgn'}: no such file" in err
    assert f"{tmp_path / 'dangling.pgn'}: a symbolic link to {tmp_path / 'gone.pgn'}, " \
           "which does not exist" in err
    assert f"{tmp_path / 'loop1.pgn'}: a loop of symbolic links" in err
    if command == "game":
        assert f"{tmp_path / 'folder.pgn'}: a directory, not a file" in err
    else:
        assert len((tmp_path / "f.jsonl").read_text().splitlines()) == 1


@pytest.mark.parametrize("command", ["game", "audit"])
def test_a_fifo_is_read_as_a_stream(tmp_path: Path, command: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(MATE)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    out = tmp_path / "f.jsonl"
    args = ["game", "--json", str(fifo)] if command == "game" else \
        ["audit", str(fifo), "-j", "1", "-q", "-o", str(out)]
    assert main(args) == 0
    writer.join()
    if command == "game":
        (g,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert g["end"]["termination"] == "checkmate"
    else:
        (f,) = [json.loads(line) for line in out.read_text().splitlines()]
        assert f["check"] == "result_vs_position"


def test_an_empty_pgn_says_no_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"\n  \n\n")
    assert main(["game", str(empty)]) == 1
    assert f"remis: {empty}: no games" in capsys.readouterr().err

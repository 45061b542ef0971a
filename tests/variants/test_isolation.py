"""A crash of cshogi's C++ code while it reads a KIF, KI2 or CSA game costs
that game alone: every game is parsed in a child process, which the test
hook (``REMIS_TEST_PARSER_ABORT``) makes abort on a marked game, as a
segmentation fault would; the games and files after it are still read.  So
does a parser that hangs (a stopped child), or our reading code raising."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("pyffish")
pytest.importorskip("cshogi")

from remis.cli import main
from remis.variants import isolation
from remis.variants.isolation import ABORT_ENV, IsolatedParser
from remis.variants.ki2 import read_ki2
from remis.variants.kifu import GameRecord, read_csa, read_kif
from remis.variants.kifutext import RecordError

MARKER = "CRASH-HERE"


def _kif(sente: str) -> str:
    return (f"手合割：平手\n先手：{sente}\n後手：B\n手数----指手---------消費時間--\n"
            "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n")


def _ki2(sente: str) -> str:
    return f"手合割：平手\n先手：{sente}\n後手：B\n▲７六歩    △３四歩\nまで2手で後手の勝ち\n"


def _csa(sente: str) -> str:
    return f"N+{sente}\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"


@pytest.fixture()
def crash_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test hook armed: the child aborts on a game holding MARKER."""
    monkeypatch.setenv(ABORT_ENV, MARKER)


READERS: list[tuple[str, Callable[[str], str], Callable[..., Iterator[GameRecord]], str]] = [
    ("kif", _kif, read_kif, "\n"),
    ("ki2", _ki2, read_ki2, "\n"),
    ("csa", _csa, read_csa, "/\n"),
]


@pytest.mark.parametrize(("fmt", "game", "reader", "sep"), READERS,
                         ids=[r[0] for r in READERS])
def test_a_crash_costs_one_game(crash_hook: None, fmt: str,
                                game: Callable[[str], str],
                                reader: Callable[..., Iterator[GameRecord]], sep: str) -> None:
    IsolatedParser().parse("csa", "PI\n+\n")  # a child is running
    before = IsolatedParser._proc
    assert before is not None
    data = sep.join([game("one"), game(MARKER), game("three")]).encode("cp932")
    recs = list(reader(data))
    assert [r.index for r in recs] == [1, 2, 3]
    first, crashed, third = recs
    for ok, name in ((first, "one"), (third, "three")):
        assert ok.error is None and ok.moves == ["7g7f", "3c3d"] and ok.result == "0-1"
        assert ok.headers["Sente"] == name
    assert crashed.error is not None
    assert crashed.error.startswith(f"the {fmt.upper()} parser crashed on this game "
                                    f"(game 2, line {crashed.line}")
    assert data.split(b"\n")[crashed.line - 1] != b""  # the line where game 2 begins
    assert crashed.moves == []
    # the child really died of the abort, and another one read game 3
    assert before.returncode == -signal.SIGABRT
    assert IsolatedParser._proc is not None and IsolatedParser._proc is not before


def test_remis_game_and_audit_go_on_after_a_crash(crash_hook: None,
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    crash = tmp_path / "a-crash.kif"
    crash.write_bytes((_kif("one") + _kif(MARKER) + _kif("three")).encode("cp932"))
    after = tmp_path / "b-after.ki2"
    after.write_bytes((_ki2("four") + _ki2(MARKER)).encode())
    assert main(["game", "--variant", "shogi", "--json", str(crash), str(after)]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(Path(r["file"]).name, r["game"], r["error"] is None) for r in rows] == [
        ("a-crash.kif", 1, True), ("a-crash.kif", 2, False), ("a-crash.kif", 3, True),
        ("b-after.ki2", 1, True), ("b-after.ki2", 2, False)]
    line = rows[1]["line"]
    assert rows[1]["error"]["message"] == ("the KIF parser crashed on this game "
                                           f"(game 2, line {line} of {crash})")
    out = tmp_path / "f.jsonl"
    assert main(["audit", "--variant", "shogi", "-q", str(tmp_path), "--out", str(out)]) == 0
    found = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [(Path(f["file"]).name, f["game"], f["check"]) for f in found] == [
        ("a-crash.kif", 2, "illegal_move"), ("b-after.ki2", 2, "illegal_move")]
    assert "the KI2 parser crashed" in found[1]["evidence"]["message"]


def test_an_exception_in_the_reading_code_costs_one_game() -> None:
    class Failing(IsolatedParser):
        def parse(self, fmt: str, text: str, line: int = 1) -> object:
            if "先手：B" in text:
                raise ValueError("IndexError: list index out of range")  # as the child says
            return super().parse(fmt, text, line)

    recs = list(read_kif((_kif("A") + _kif("B") + _kif("C")).encode(), Failing(), source="f.kif"))
    assert [r.error for r in recs] == [None, "unreadable KIF: IndexError: list index out of range",
                                       None]
    assert [len(r.moves) for r in recs] == [2, 0, 2]


def test_a_hung_parser_costs_one_game(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = IsolatedParser()
    parser.parse("csa", "PI\n+\n")
    hung = IsolatedParser._proc
    assert hung is not None
    os.kill(hung.pid, signal.SIGSTOP)  # the child stops answering, as a parser in a loop
    # the stopped child never answers, so any limit shows the hang; only this game gets a
    # short one: the next child's start (its imports) may take longer on a busy machine
    with monkeypatch.context() as m:
        m.setattr(isolation, "PARSE_SECONDS", 0.5)
        with pytest.raises(RecordError, match=r"did not finish this game within 0\.5 s"):
            parser.parse("kif", _kif("A"))
    assert isolation.PARSE_SECONDS == 30.0
    assert hung.returncode == -signal.SIGKILL  # ended, and the next game has a new child
    assert parser.parse("kif", _kif("B"))["moves"] == ["7g7f", "3c3d"]

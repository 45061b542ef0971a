"""A FEN that cannot be read, or whose position no game reaches, is refused
with a clear error that names it once.  The legality test is the core's
(``rust/src/unwinnable/valid.rs``); the answers it gives through
``remis.parse_fen`` are pinned here, as the Python implementation it
replaced gave them (``tests/data/illegal-fens.json``, one FEN per reason)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess
import pytest

import remis
from remis.cli import main
from remis.unwinnable import can_checkmate

TABLE = json.loads((Path(__file__).resolve().parents[1] / "data" / "illegal-fens.json")
                   .read_text())


@pytest.mark.parametrize(("fen", "message"), TABLE, ids=[m for _, m in TABLE])
def test_each_illegal_position_gets_the_same_words_as_before(fen: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        remis.parse_fen(fen)
    assert str(caught.value) == message


@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/8/8/4KQ2 w - - 0 4294967296",
    "4k3/8/8/8/8/8/8/4KQ2 w - - 4294967296 5",
    "4k3/8/8/8/8/8/8/4KQ2 w - - 0 18446744073709551616",
])
def test_numbers_beyond_the_core_are_the_librarys_error(
        fen: str, capsys: pytest.CaptureFixture[str]) -> None:
    which = "halfmove clock" if " 4294967296 5" in fen else "fullmove number"
    for ask in (remis.parse_fen, remis.rule_on_position,
                lambda f: can_checkmate(chess.Board(f), chess.WHITE),
                lambda f: remis.Arbiter({"start_fen": f})):
        with pytest.raises(ValueError, match=f"the {which} .* is out of range"):
            ask(fen)
    assert remis.parse_fen("4k3/8/8/8/8/8/8/4KQ2 w - - 4294967295 4294967295").is_valid()
    assert main(["position", fen]) == 2
    out = capsys.readouterr().out
    assert out.startswith("ERROR: illegal position: the ") and out.count(fen) == 1


def test_the_command_gives_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "remis", "position",
                           "4k3/8/8/8/8/8/8/4KQ2 w - - 0 4294967296"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "out of range" in done.stdout


def test_the_service_answers_422() -> None:
    from fastapi.testclient import TestClient

    from remis.service.app import create_app

    with TestClient(create_app("sqlite:///:memory:", mate_workers=0)) as client:
        r = client.post("/v1/position", json={"fen": "4k3/8/8/8/8/8/8/4KQ2 w - - 0 4294967296"})
        assert r.status_code == 422, r.text
        assert "out of range" in r.text


@pytest.mark.parametrize("fen", ["xx/8/8/8/8/8/8/Kk6 w - - 0 1", "8/8/8/8/8/8/8/K1k5 x - - 0 1",
                                 "8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/Kk6 w - - 0 1"])
def test_a_bad_fen_is_named_once(fen: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError) as caught:
        remis.parse_fen(fen)
    assert str(caught.value).count(fen) == 1
    assert str(caught.value).count("/8/8/8/8/8/") == 1  # nor a part of it again
    assert main(["position", fen]) == 2
    out = capsys.readouterr().out
    assert out.count(fen) == 1 and out.count("/8/8/8/8/8/") == 1, out

"""The stateless endpoints give exactly the JSON the CLI prints for the same
input (the CLI runs as a separate process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_procs import PATIENCE, Server

PGN = """[Event "rep"]
[White "A"]
[Black "B"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 *

[Event "mate"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "broken"]

1. e4 e5 2. Ke3 *
"""

FENS = [
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",           # stalemate
    "8/8/4k3/8/8/3K4/8/6R1 b - - 100 80",       # fifty-move claim
    "8/8/8/4k3/8/8/2B5/4K3 w - - 0 1",          # K+B v K: dead
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]


def cli(*args: str, stdin: str | None = None) -> list[Any]:
    code = "import sys; from remis.cli import main; sys.exit(main(sys.argv[1:]))"
    out = subprocess.run([sys.executable, "-c", code, *args], input=stdin, text=True,
                         capture_output=True, timeout=PATIENCE)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def ruling(r: httpx.Response) -> dict[str, Any]:
    """The answer without its ``budget`` (which the CLI has not), checked."""
    body = dict(r.json())
    budget = body.pop("budget")
    assert budget["nodes"] <= budget["max_nodes"] + 3_000_000 and not budget["exhausted"]
    return body


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("stateless") / "r.db"
    s = Server(f"sqlite:///{db}").start()
    yield s
    s.stop()


def test_position_equals_cli(server: Server) -> None:
    for fen in FENS:
        r = httpx.post(f"{server.url}/v1/position", json={"fen": fen})
        assert r.status_code == 200, r.text
        assert ruling(r) == cli("position", "--json", fen)[0]
    r = httpx.post(f"{server.url}/v1/position", json={"fen": "8/8/8/8/8/8/8/Kk6 w - - 0 1"})
    assert r.status_code == 422 and "kings on adjacent squares" in r.json()["detail"]
    r = httpx.post(f"{server.url}/v1/position", json={"fen": "not a fen"})
    assert r.status_code == 422 and "malformed FEN" in r.json()["detail"]


def test_pgn_equals_cli(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(PGN)
    r = httpx.post(f"{server.url}/v1/pgn", json={"pgn": PGN})
    assert r.status_code == 200, r.text
    games = r.json()["games"]
    assert games == cli("game", "--json", str(path))
    assert [g["error"] is not None for g in games] == [False, False, True]
    assert httpx.post(f"{server.url}/v1/pgn", json={"pgn": ""}).json()["games"] == []


@pytest.mark.parametrize("options", [
    {}, {"ply": 7, "move": "Ng8"}, {"ply": 8}, {"ply": 3, "kind": "fifty_moves"},
    {"ply": 7, "move": "Nc6", "mode": "blitz"}, {"game": 2},
])
def test_claim_equals_cli(server: Server, tmp_path: Path, options: dict[str, Any]) -> None:
    path = tmp_path / "g.pgn"
    path.write_text(PGN)
    args = ["claim", "--json", str(path)]
    for key, value in options.items():
        args += [f"--{key}", str(value)]
    r = httpx.post(f"{server.url}/v1/claim", json={"pgn": PGN, **options})
    assert r.status_code == 200, r.text
    assert ruling(r) == cli(*args)[0]


@pytest.mark.parametrize("options, words", [
    ({"game": 9}, "no game number 9"),
    ({"game": 3, "ply": 5}, "ply 5 is outside the game"),
    ({"game": 0}, "game"),
    ({"kind": "seventy"}, "kind"),
])
def test_claim_errors(server: Server, options: dict[str, Any], words: str) -> None:
    r = httpx.post(f"{server.url}/v1/claim", json={"pgn": PGN, **options})
    assert r.status_code == 422 and words in r.json()["detail"], r.text


def test_position_quick_and_time_bound_equal_cli(server: Server) -> None:
    """``quick`` and ``max_seconds`` reach the engine as ``--quick`` and
    ``--max-seconds`` do; an unbounded or negative bound is refused."""
    fen = "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"  # CASES T02: Black can mate (K+N v K+P)
    r = httpx.post(f"{server.url}/v1/position", json={"fen": fen, "quick": True})
    assert r.status_code == 200 and ruling(r) == cli("position", "--json", "--quick", fen)[0]
    r = httpx.post(f"{server.url}/v1/position", json={"fen": fen, "max_seconds": 2})
    body = ruling(r)
    assert body == cli("position", "--json", "--max-seconds", "2", fen)[0]
    assert body["can_checkmate"] == {"white": True, "black": True}  # the pawn may promote
    for bad in (0, -1, 31):
        r = httpx.post(f"{server.url}/v1/position", json={"fen": fen, "max_seconds": bad})
        assert r.status_code == 422

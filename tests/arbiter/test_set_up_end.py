"""A game set up in a position that has already ended: one answer from every
face of remis (the arbiter, ``remis arbitrate``, the service, ``remis
position``, ``remis game``): the game is over before its first move, with
the article of its end."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from remis.arbiter import Arbiter
from remis.cli import main

ENDED = [
    # (position, result, termination, article)
    ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", "1/2-1/2", "insufficient_material", "5.2.2"),
    ("8/8/4k3/8/8/3K4/8/6R1 w - - 150 100", "1/2-1/2", "seventyfive_moves", "9.6.2"),
    ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "1-0", "checkmate", "5.1.1"),
    ("k7/8/1Q6/8/8/8/8/K7 b - - 0 1", "1/2-1/2", "stalemate", "5.2.1"),
    # locked pawns: the per-move dead test proves it, as remis position's search does
    ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", "1/2-1/2", "dead_position", "5.2.2"),
]
GOES_ON = "8/8/4k3/8/8/3K4/8/6R1 w - - 149 100"  # 75 moves need one more ply


@pytest.mark.parametrize(("fen", "result", "termination", "article"), ENDED)
def test_the_arbiter(fen: str, result: str, termination: str, article: str) -> None:
    s = Arbiter({"time_control": "60", "start_fen": fen}).state()
    assert (s["over"], s["result"], s["termination"], s["article"]) == (
        True, result, termination, article)
    assert s["claimable"] == [] and s["clock"]["running"] is None


def test_the_arbiter_lets_a_game_one_ply_short_go_on() -> None:
    s = Arbiter({"time_control": "60", "start_fen": GOES_ON}).state()
    assert not s["over"] and [c["article"] for c in s["claimable"]] == ["9.3.2"]


@pytest.mark.parametrize(("fen", "result", "termination", "article"), ENDED)
def test_remis_arbitrate(fen: str, result: str, termination: str, article: str,
                         tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"config": {"time_control": "60", "start_fen": fen},
                                "events": [{"type": "resign", "player": "white", "at": 1}]}))
    assert main(["arbitrate", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {"error": f"the game is over ({termination}, Article {article})", "event": 0}


@pytest.mark.parametrize(("fen", "result", "termination", "article"), ENDED)
def test_remis_position(fen: str, result: str, termination: str, article: str,
                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", "--json", fen]) == 0
    end = json.loads(capsys.readouterr().out)["end"]
    assert (end["result"], end["termination"], end["article"]) == (result, termination, article)


@pytest.mark.parametrize(("fen", "result", "termination", "article"), ENDED)
def test_remis_game(fen: str, result: str, termination: str, article: str, tmp_path: Path,
                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.pgn"
    path.write_text(f'[SetUp "1"]\n[FEN "{fen}"]\n[Result "*"]\n\n*\n')
    assert main(["game", "--json", str(path)]) == 0
    end = json.loads(capsys.readouterr().out)["end"]
    assert (end["ply"], end["result"], end["termination"], end["article"]) == (
        0, result, termination, article)


@pytest.mark.parametrize(("fen", "result", "termination", "article"), ENDED)
def test_the_service(fen: str, result: str, termination: str, article: str,
                     tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the service extra is not installed")
    import httpx

    from remis.service.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", mate_workers=0)

    async def steps() -> tuple[Any, Any]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://t") as c:
            created = await c.post("/v1/games", json={"config": {"time_control": "60",
                                                                 "start_fen": fen}})
            game = created.json()
            auth = {"Authorization": f"Bearer {game['tokens']['black']}"}
            refused = await c.post(f"/v1/games/{game['id']}/events", headers=auth,
                                   json={"type": "resign", "player": "black"})
            return game, refused

    game, refused = asyncio.run(steps())
    s = game["state"]
    assert (s["over"], s["result"], s["termination"], s["article"]) == (
        True, result, termination, article)
    assert refused.status_code == 409 and "the game is over" in refused.json()["detail"]

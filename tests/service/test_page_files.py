"""The page-facing pieces of the service: the page's files sent compressed,
the favicon, /docs with local Swagger UI files, the PGN of a live game, and
the game's time (``now``) beside its state."""

from __future__ import annotations

import gzip
import io
import time
from pathlib import Path

import chess.pgn
import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed")

from fastapi.testclient import TestClient

from remis.service.app import create_app


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A built page in miniature: index.html and main.js with a .gz twin, and
    the Swagger UI files under docs/."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>remis</title>")
    script = "console.log('remis');" * 50
    (tmp_path / "main.js").write_text(script)
    (tmp_path / "main.js.gz").write_bytes(gzip.compress(script.encode()))
    (tmp_path / "docs" / "swagger-ui-bundle.js").write_text("/* swagger */")
    (tmp_path / "docs" / "swagger-ui.css").write_text("/* swagger */")
    return tmp_path


@pytest.fixture
def client(dist: Path) -> TestClient:
    return TestClient(create_app("sqlite:///:memory:", web_dist=dist, mate_workers=0))


def test_script_is_sent_compressed_when_accepted(client: TestClient, dist: Path) -> None:
    r = client.get("/static/main.js", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert r.headers["content-type"].startswith("text/javascript")
    assert int(r.headers["content-length"]) == (dist / "main.js.gz").stat().st_size
    assert r.text == (dist / "main.js").read_text()  # httpx undoes the gzip
    plain = client.get("/static/main.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.text == (dist / "main.js").read_text()
    again = client.get("/static/main.js", headers={"Accept-Encoding": "gzip",
                                                   "If-None-Match": r.headers["etag"]})
    assert again.status_code == 304


def test_favicon_and_offline_docs(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg")
    assert client.head("/favicon.ico").status_code == 200
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "/static/docs/swagger-ui-bundle.js" in docs.text
    assert "cdn" not in docs.text.lower() and "https://" not in docs.text.split("<body>")[0]
    assert client.get("/static/docs/swagger-ui-bundle.js").status_code == 200
    assert client.get("/openapi.json").status_code == 200


def test_docs_without_a_built_page_say_where_the_files_come_from(tmp_path: Path) -> None:
    bare = TestClient(create_app("sqlite:///:memory:", web_dist=tmp_path / "none",
                                 mate_workers=0))
    assert "swagger-ui-dist" in bare.get("/docs").text
    assert "make web" in bare.get("/").text
    assert bare.get("/static/main.js").status_code == 404


def test_pgn_download_carries_the_arbiters_result(client: TestClient) -> None:
    created = client.post("/v1/games", json={"config": {"time_control": "180+2"}}).json()
    gid, tokens = created["id"], created["tokens"]

    def post(who: str, event: dict[str, object]) -> None:
        r = client.post(f"/v1/games/{gid}/events", json=event,
                        headers={"Authorization": f"Bearer {tokens[who]}"})
        assert r.status_code == 200, r.text

    for who, san in [("white", "f3"), ("black", "e5"), ("white", "g4")]:
        post(who, {"type": "move", "player": who, "move": san})
    spectator = {"Authorization": f"Bearer {tokens['spectator']}"}
    r = client.get(f"/v1/games/{gid}/pgn", headers=spectator)
    assert r.status_code == 200
    assert '[Result "*"]' in r.text and '[Termination "unterminated"]' in r.text
    post("black", {"type": "move", "player": "black", "move": "Qh4#"})
    r = client.get(f"/v1/games/{gid}/pgn", headers=spectator)
    assert r.headers["content-type"].startswith("application/x-chess-pgn")
    assert f'filename="remis-{gid}.pgn"' in r.headers["content-disposition"]
    assert '[Result "0-1"]' in r.text and '[Termination "normal"]' in r.text
    assert '[TimeControl "180+2"]' in r.text
    assert "{Black checkmated White" in r.text and "[%clk 0:03:" in r.text
    assert r.text.rstrip().endswith("0-1")
    game = chess.pgn.read_game(io.StringIO(r.text))  # it reads back as the same game
    assert game is not None and game.end().board().is_checkmate()
    assert [node.san() for node in game.mainline()] == ["f3", "e5", "g4", "Qh4#"]
    assert client.get(f"/v1/games/{gid}/pgn").status_code == 401


def test_flag_fall_is_a_time_forfeit_in_the_pgn(client: TestClient) -> None:
    created = client.post("/v1/games", json={"config": {
        "time_control": "60", "start_fen": "8/8/4k3/8/8/3K4/8/6R1 b - - 0 40"}}).json()
    gid, tokens = created["id"], created["tokens"]
    auth = {"Authorization": f"Bearer {tokens['arbiter']}"}  # the arbiter sets the time
    r = client.post(f"/v1/games/{gid}/events", headers=auth,
                    json={"type": "flag", "player": "black", "at": 61})
    assert r.status_code == 200 and r.json()["state"]["result"] == "1-0"
    text = client.get(f"/v1/games/{gid}/pgn", headers=auth).text
    assert '[Termination "time forfeit"]' in text and '[SetUp "1"]' in text
    assert "\n\n{" in text  # no move: the ruling alone, then the result


def test_game_view_gives_the_games_time(client: TestClient) -> None:
    started = time.monotonic()
    created = client.post("/v1/games", json={"config": {"clock_start": "first_move"}}).json()
    view = client.get(f"/v1/games/{created['id']}",
                      headers={"Authorization": f"Bearer {created['tokens']['black']}"}).json()
    assert 0 <= view["now"] <= time.monotonic() - started + 1
    assert view["state"]["clock"] == {"running": None, "at": 0}

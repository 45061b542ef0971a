"""Setting a game up through the service: a time control read and described
in the reader's language, the stable code in every error body, a rematch,
and the PGN of a page-made game (names, clocks, termination)."""

from __future__ import annotations

import io
from typing import Any

import chess.pgn
import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed")

from fastapi.testclient import TestClient

from remis.service.app import create_app


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app("sqlite:///:memory:", mate_workers=0, search_workers=0))


def tc(client: TestClient, text: str, lang: str = "en") -> Any:
    return client.get("/v1/time-control", params={"text": text, "lang": lang})


def test_a_control_as_players_write_it_in_three_languages(client: TestClient) -> None:
    r = tc(client, "40/90, 30+30")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["time_control"] == "40/5400+30:1800+30" and body["text"] == "40/90, 30+30"
    assert body["periods"] == [{"moves": 40, "minutes": 90, "increment": 30, "delay": 0},
                               {"moves": None, "minutes": 30, "increment": 30, "delay": 0}]
    assert body["description"] == ("90 min for moves 1–40, then 30 min for the rest of the "
                                   "game; 30 s added a move from move 1.")
    assert body["fide_mode"] == "standard"
    assert [m["mode"] for m in body["modes"]] == ["online", "standard"]
    assert "2 minutes" in body["modes"][1]["meaning"]
    cs, pl = tc(client, "40/90, 30+30", "cs").json(), tc(client, "40/90, 30+30", "pl").json()
    assert cs["description"] != body["description"] != pl["description"]
    assert "90 min" in cs["description"] and "40" in pl["description"]
    assert tc(client, "90+30").json()["fide_mode"] == "standard"  # not blitz
    assert tc(client, "3+2").json()["first_move_seconds"] == 25


def test_an_ambiguous_control_is_refused_with_its_code(client: TestClient) -> None:
    r = tc(client, "90/40+30")
    assert r.status_code == 422
    assert r.json()["code"] == "tc.err_order"
    assert r.json()["params"] == {"part": "90/40+30", "a": 90, "b": 40}
    assert tc(client, "3+2", "de").json()["code"] == "invalid_request"


def test_every_error_body_has_a_code(client: TestClient) -> None:
    created = client.post("/v1/games", json={"config": {"mode": "online"}}).json()
    gid, tokens = created["id"], created["tokens"]

    def post(token: str | None, event: dict[str, Any]) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return client.post(f"/v1/games/{gid}/events", json=event, headers=headers)

    checks = [
        (post(tokens["black"], {"type": "move", "player": "black", "move": "e5"}), 409,
         "not_on_move"),
        (post(tokens["white"], {"type": "move", "player": "white", "move": "e5"}), 409,
         "illegal_move"),
        (post(tokens["white"], {"type": "move", "player": "white", "move": "e4",
                                "expected_ply": 3}), 409, "stale_ply"),
        (post(None, {"type": "resign", "player": "white"}), 401, "missing_token"),
        (post(tokens["black"], {"type": "resign", "player": "white"}), 403, "role_forbidden"),
        (client.get("/v1/games/nope", headers={"Authorization": "Bearer x"}), 404, "no_game"),
        (client.post("/v1/games", json={"config": {"mode": "bullet"}}), 422, "config.mode"),
        (client.post("/v1/games", content=b"{", headers={"Content-Type": "application/json"}),
         400, "malformed_json"),
        (client.post("/v1/games", json={"cfg": {}}), 422, "invalid_request"),
        (client.get("/v1/nothing-here"), 404, "not_found"),
        (client.put("/v1/games"), 405, "method_not_allowed"),
        (client.post("/v1/pgn", content=b"x" * (65 * 1024),
                     headers={"Content-Type": "application/json"}), 413, "body_too_large"),
        (client.get("/v1/i18n/de"), 404, "no_language"),
    ]
    for r, status, code in checks:
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
    r = post(tokens["black"], {"type": "move", "player": "black", "move": "e5"})
    assert r.json()["params"] == {"player": "white"}  # who has the move


def test_a_rematch_swaps_the_colours_and_keeps_the_tokens(client: TestClient) -> None:
    config = {"time_control": "180+2", "mode": "online", "clock_start": "first_move",
              "players": {"white": "Anna", "black": "Piotr"}}
    created = client.post("/v1/games", json={"config": config}).json()
    gid, tokens = created["id"], created["tokens"]
    auth = {role: {"Authorization": f"Bearer {t}"} for role, t in tokens.items()}
    assert client.post(f"/v1/games/{gid}/rematch", headers=auth["white"]).json()["code"] == \
        "game_not_over"
    assert client.get(f"/v1/games/{gid}/rematch", headers=auth["black"]).json()["code"] == \
        "no_rematch"
    client.post(f"/v1/games/{gid}/events", headers=auth["white"],
                json={"type": "resign", "player": "white"})
    assert client.post(f"/v1/games/{gid}/rematch",
                       headers=auth["spectator"]).status_code == 403
    r = client.post(f"/v1/games/{gid}/rematch", headers=auth["black"])
    assert r.status_code == 201 and r.json()["role"] == "white"
    new = r.json()["id"]
    again = client.post(f"/v1/games/{gid}/rematch", headers=auth["white"]).json()
    assert again == {"id": new, "role": "black"}  # the same game for both
    assert client.get(f"/v1/games/{gid}/rematch", headers=auth["spectator"]).json() == \
        {"id": new, "role": "spectator"}
    view = client.get(f"/v1/games/{new}", headers=auth["black"]).json()
    assert view["config"]["players"] == {"black": "Anna", "white": "Piotr"}
    assert view["state"]["ply"] == 0
    # the old Black token now moves White
    r = client.post(f"/v1/games/{new}/events", headers=auth["black"],
                    json={"type": "move", "player": "white", "move": "d4"})
    assert r.status_code == 200, r.text


def test_the_pgn_has_the_names_the_clocks_and_the_termination(client: TestClient) -> None:
    config = {"time_control": "180+2", "players": {"white": "Anna", "black": "Piotr"},
              "first_move_seconds": 25, "clock_start": "first_move"}
    created = client.post("/v1/games", json={"config": config}).json()
    gid, tokens = created["id"], created["tokens"]
    arbiter = {"Authorization": f"Bearer {tokens['arbiter']}"}
    for who, san in [("white", "e4"), ("black", "e5"), ("white", "Nf3")]:
        r = client.post(f"/v1/games/{gid}/events", json={"type": "move", "player": who,
                                                         "move": san},
                        headers={"Authorization": f"Bearer {tokens[who]}"})
        assert r.status_code == 200, r.text
    client.post(f"/v1/games/{gid}/events", headers=arbiter, json={
        "type": "arbiter", "decision": "declare", "result": "1-0", "kind": "fair_play",
    })
    text = client.get(f"/v1/games/{gid}/pgn", headers=arbiter).text
    assert '[White "Anna"]' in text and '[Black "Piotr"]' in text
    assert '[TimeControl "180+2"]' in text and '[Termination "rules infraction"]' in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None
    clocks = [node.clock() for node in game.mainline()]
    assert clocks[0] == 182  # the first move costs nothing; +2 s a move
    assert all(c is not None and 170 < c <= 184 for c in clocks) and len(clocks) == 3
    assert game.headers["Result"] == "1-0" and game.headers["Date"].count(".") == 2

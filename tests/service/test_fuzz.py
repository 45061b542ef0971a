"""Seeded junk against every endpoint of a real server: always an answer
below 500 with a ``detail`` sentence on errors, never a traceback."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from service_procs import PATIENCE, Server

VALUES: list[Any] = [None, True, 0, -1, 1e308, "", "e4", "white", "both", "Ng8", "\u0000",
                     "x" * 300, [], {}, [1, "a"], {"a": {"b": []}}, 3.5, "threefold_repetition",
                     "accept", "a1", "K"]
KEYS = ["type", "player", "move", "kind", "at", "square", "called_by", "decision", "seconds",
        "id", "comment", "expected_ply", "fen", "quick", "pgn", "game", "ply", "mode",
        "config", "bogus"]
TYPES = ["move", "offer_draw", "accept_draw", "decline_draw", "claim", "touch", "flag",
         "illegal_move", "resign", "arbiter", "castle"]


def junk(rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    if roll < 0.2:
        return json.dumps(rng.choice(VALUES)).encode()
    body = {rng.choice(KEYS): rng.choice(VALUES) for _ in range(rng.randrange(5))}
    if rng.random() < 0.7:
        body["type"] = rng.choice(TYPES)
    if rng.random() < 0.5:
        body["player"] = rng.choice(["white", "black"])
    return json.dumps(body).encode()


def test_junk_never_gives_500(server_factory: Any, sqlite_url: str) -> None:
    server: Server = server_factory(sqlite_url)
    url = server.url
    r = httpx.post(f"{url}/v1/games", json={"config": {"time_control": "60+1"}})
    gid, tokens = r.json()["id"], r.json()["tokens"]
    rng = random.Random(6)
    paths = [f"/v1/games/{gid}/events", "/v1/games", "/v1/position", "/v1/pgn", "/v1/claim",
             "/v1/games/nope/events"]
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=url, timeout=PATIENCE) as client:
        for i in range(400):
            path = rng.choice(paths)
            headers = {"Content-Type": "application/json"}
            if "events" in path and rng.random() < 0.9:
                headers["Authorization"] = f"Bearer {rng.choice(list(tokens.values()))}"
            r = client.post(path, content=junk(rng), headers=headers)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            assert r.status_code < 500, (i, path, r.text)
            if r.status_code >= 400:
                assert isinstance(r.json()["detail"], str) and r.json()["detail"]
        reader = {"Authorization": f"Bearer {tokens['spectator']}"}
        state = client.get(f"/v1/games/{gid}", headers=reader).json()["state"]
        events = client.get(f"/v1/games/{gid}/events", headers=reader).json()["events"]
    assert state["ply"] <= len(events)
    assert len(statuses) >= 3, statuses   # the junk reached several kinds of refusal
    log = server.log.read_text() if server.log else ""
    assert "Traceback" not in log, log[-3000:]

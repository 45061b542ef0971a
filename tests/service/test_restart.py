"""``kill -9`` loses no acknowledged event: after a restart on the same
database every game is rebuilt from its event log and is in the same state."""

from __future__ import annotations

from typing import Any

import httpx
from service_procs import Server

GAMES = [
    # (config, moves, extra events after the moves)
    ({"time_control": "300+2", "mode": "blitz"}, ["e4", "e5", "Nf3", "Nc6", "Bb5"], []),
    ({"time_control": "5400+30"}, ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
     [("black", {"type": "offer_draw", "player": "black"})]),
    ({"time_control": "60+0", "mode": "blitz"}, ["f3", "e5", "g4", "Qh4#"], []),
]


def test_kill_9_and_restart(server_factory: Any, db_url: str) -> None:
    first: Server = server_factory(db_url)
    url = first.url
    made: list[tuple[str, dict[str, str]]] = []
    for config, moves, extra in GAMES:
        r = httpx.post(f"{url}/v1/games", json={"config": config})
        gid, tokens = r.json()["id"], r.json()["tokens"]
        made.append((gid, tokens))
        at = 0.0
        for i, san in enumerate(moves):
            player = "white" if i % 2 == 0 else "black"
            at += 1.5
            r = httpx.post(f"{url}/v1/games/{gid}/events",
                           json={"type": "move", "player": player, "move": san, "at": at},
                           headers={"Authorization": f"Bearer {tokens[player]}"})
            assert r.status_code == 200, r.text
        for player, event in extra:
            at += 1
            r = httpx.post(f"{url}/v1/games/{gid}/events", json={**event, "at": at},
                           headers={"Authorization": f"Bearer {tokens[player]}"})
            assert r.status_code == 200, r.text
    def read(base: str, gid: str, tokens: dict[str, str]) -> tuple[Any, Any]:
        auth = {"Authorization": f"Bearer {tokens['spectator']}"}
        view = httpx.get(f"{base}/v1/games/{gid}", headers=auth).json()
        assert view.pop("now") >= 0  # the answer's own time, not the game's
        return (view, httpx.get(f"{base}/v1/games/{gid}/events", headers=auth).json())

    before = {gid: read(url, gid, tokens) for gid, tokens in made}
    assert before[made[2][0]][0]["state"]["termination"] == "checkmate"
    first.kill()                                              # SIGKILL: no clean shutdown
    second: Server = server_factory(db_url)
    for gid, tokens in made:
        assert read(second.url, gid, tokens) == before[gid]
    # the rebuilt game goes on, with the old tokens
    gid, tokens = made[0]
    r = httpx.post(f"{second.url}/v1/games/{gid}/events",
                   json={"type": "move", "player": "black", "move": "a6", "at": 9},
                   headers={"Authorization": f"Bearer {tokens['black']}"})
    assert r.status_code == 200 and r.json()["event"] == 6 and r.json()["state"]["ply"] == 6

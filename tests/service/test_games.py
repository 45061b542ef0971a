"""The games layer in process: two ``Games`` on one database behave like two
service instances (stale caches never show), and a failed store leaves the
game as it was."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from remis.service.games import Games, ServiceError
from remis.service.store import SQLiteStore, StoreError, open_store


def move(player: str, san: str, at: float) -> dict[str, Any]:
    return {"type": "move", "player": player, "move": san, "at": at}


@pytest.fixture
def two(tmp_path: Path) -> tuple[Games, Games]:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    return Games(open_store(url)), Games(open_store(url))


def test_stale_cache_never_refuses_a_valid_event(two: tuple[Games, Games]) -> None:
    a, b = two
    gid, tokens, _ = a.create({"time_control": "600+5"})
    a.post(gid, tokens["white"], move("white", "e4", 1))
    b.post(gid, tokens["black"], move("black", "c5", 2))     # a's cache is now behind
    state, n = a.post(gid, tokens["white"], move("white", "Nf3", 3))
    assert n == 3 and state["ply"] == 3
    state, n = a.post(gid, tokens["black"], move("black", "d6", 4), expected_ply=3)
    assert n == 4
    b.post(gid, tokens["white"], move("white", "d4", 5), expected_ply=4)  # b was behind too
    assert a.state(gid)[1] == b.state(gid)[1]
    assert [e["move"] for e in a.events(gid)["events"]] == ["e4", "c5", "Nf3", "d6", "d4"]


def test_refusals_are_checked_against_the_stored_game(two: tuple[Games, Games]) -> None:
    a, b = two
    gid, tokens, _ = a.create({})
    a.post(gid, tokens["white"], move("white", "e4", 1))
    b.post(gid, tokens["black"], move("black", "e5", 2))
    with pytest.raises(ServiceError) as err:                 # really refused, not stale
        a.post(gid, tokens["black"], move("black", "d5", 3))
    assert err.value.status == 409 and "event 3 refused" in err.value.detail
    with pytest.raises(ServiceError) as err:
        a.post(gid, tokens["white"], move("white", "Nf3", 3), expected_ply=1)
    assert err.value.status == 409 and "at ply 2" in err.value.detail


def test_the_stored_log_is_the_arbiters_log(tmp_path: Path) -> None:
    """What is stored for each event is what the arbiter logged (the event as
    accepted, ``at`` filled in when the client left it out), including claims,
    offers and an event the arbiter takes without playing (a written move)."""
    from remis.arbiter import Arbiter

    now = [100.0]                              # the server's clock: a player's 'at' is
    games = Games(open_store(f"sqlite:///{tmp_path / 'l.db'}"), clock=lambda: now[0])
    gid, tokens, _ = games.create({"time_control": "300+2"})  # taken up to its receive time
    events = [("white", move("white", "Nf3", 1)), ("black", move("black", "Nf6", 2)),
              ("white", move("white", "Ng1", 3)),
              ("white", {"type": "offer_draw", "player": "white", "at": 3.5}),
              ("black", {"type": "touch", "player": "black", "at": 4}),
              ("black", {"type": "move", "player": "black", "move": "Ng8"}),  # no 'at'
              ("white", {"type": "claim", "player": "white", "kind": "fifty_moves",
                         "move": "Nf3", "at": 60})]
    for i, (role, ev) in enumerate(events):
        now[0] = 100.0 + ev.get("at", 10.0)
        games.post(gid, tokens[role], ev, expected_ply=3 if i == 5 else None)
    stored = games.store.events(gid)
    live = games._cached(gid)
    assert live is not None and stored == live.arbiter.events()
    assert stored[5]["at"] == 10.0 and len(stored) == len(events)
    assert Arbiter.from_log({"time_control": "300+2"}, stored).state() == live.arbiter.state()


class FailingStore(SQLiteStore):
    """Stores the game but refuses every event (``append`` waits for this
    future, the event loop awaits it)."""

    def append_later(self, game_id: str, seq: int, event: dict[str, Any],
                     key: Any = None) -> Future[None]:
        failed: Future[None] = Future()
        failed.set_exception(StoreError("disk full"))
        return failed


def test_a_failed_append_changes_nothing() -> None:
    games = Games(FailingStore(":memory:"))
    gid, tokens, _ = games.create({})
    with pytest.raises(StoreError, match="disk full"):
        games.post(gid, tokens["white"], move("white", "e4", 1))
    assert games.state(gid)[1]["ply"] == 0 and games.events(gid)["events"] == []


def test_a_mate_search_never_runs_on_the_event_loop() -> None:
    """``post_async`` does an event's work on the event loop, but a
    resignation asks whether the winner can still mate, a search that would
    stop every other request there: it runs in a thread, with the answer
    ``post`` gives (White's king and bishop cannot mate: a draw)."""
    import asyncio
    import threading

    import chess

    from remis.unwinnable import Verdict, can_checkmate

    searched_in: list[threading.Thread] = []

    def mate_test(board: chess.Board, color: chess.Color) -> Verdict:
        searched_in.append(threading.current_thread())
        return can_checkmate(board, color)

    games = Games(open_store("sqlite:///:memory:"), mate_test=mate_test)
    # a bare king v K+Q: not dead (Black can mate), but White cannot
    gid, tokens, _ = games.create({"start_fen": "8/8/4k3/8/8/3K4/8/q7 b - - 0 1"})
    resign = {"type": "resign", "player": "black"}

    async def post() -> tuple[threading.Thread, dict[str, Any]]:
        state, _ = await games.post_async(gid, tokens["black"], resign)
        return threading.current_thread(), state

    loop_thread, state = asyncio.run(post())
    assert (state["result"], state["termination"]) == ("1/2-1/2", "resignation")
    assert searched_in and loop_thread not in searched_in
    # and a move, which needs no search, is answered on the loop as by post()
    gid, tokens, _ = games.create({})
    e4 = {"type": "move", "player": "white", "move": "e4"}
    state, n = asyncio.run(games.post_async(gid, tokens["white"], e4, expected_ply=0))
    assert (n, state["ply"]) == (1, 1) and games.state(gid)[1]["ply"] == 1


def test_unknown_game_and_bad_config() -> None:
    games = Games(open_store("sqlite:///:memory:"))
    with pytest.raises(ServiceError) as err:
        games.post("nope", "t", move("white", "e4", 1))
    assert err.value.status == 404
    with pytest.raises(ServiceError) as err:
        games.create({"mode": "bullet-ish"})
    assert err.value.status == 422 and err.value.detail.startswith("config:")


def test_a_failing_database_is_503_not_500() -> None:
    import asyncio

    import httpx

    from remis.service.app import create_app

    app = create_app(FailingStore(":memory:"))

    async def go() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            created = (await c.post("/v1/games", json={"config": {}})).json()
            auth = {"Authorization": f"Bearer {created['tokens']['white']}"}
            r = await c.post(f"/v1/games/{created['id']}/events",
                             json=move("white", "e4", 1), headers=auth)
            return r, await c.get(f"/v1/games/{created['id']}", headers=auth)

    r, view = asyncio.run(go())
    assert r.status_code == 503 and r.json()["detail"] == "database unavailable, try again"
    assert view.json()["state"]["ply"] == 0


def test_variant_games_go_through_unchanged(tmp_path: Path) -> None:
    """The service has no rules of its own: a xiangqi game (the arbiter's
    variant support) is stored and rebuilt like any other."""
    pytest.importorskip("pyffish", reason="the variants extra is not installed")
    url = f"sqlite:///{tmp_path / 'v.db'}"
    games = Games(open_store(url))
    gid, tokens, state = games.create({"variant": "xiangqi"})
    for i, (player, mv) in enumerate([("white", "a1a2"), ("black", "a10a9")]):
        state, n = games.post(gid, tokens[player], move(player, mv, i + 1.0))
        assert n == i + 1
    again = Games(open_store(url))                       # a restart: rebuilt from the log
    assert again.state(gid)[1] == state and state["ply"] == 2

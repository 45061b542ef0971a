"""The creations and reads of games answered before the application's stack
(:class:`remis.service.fast_games.FastGames`) get exactly the answers of the
routes behind it, byte for byte: status, headers and body, for fresh games,
games with moves, claims and offers in the log, pages of the log, a finished
game and a game read after a restart; the unusual requests (bad bodies,
query strings the fast path does not parse, HEAD, a body on a GET) reach the
stack, and the refusals (no token, a bad one, no such game) are the app's."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio.to_thread
import httpx
import pytest

from remis.service.app import create_app
from remis.service.fast_events import FastEvents
from remis.service.fast_games import FastGames
from remis.service.games import LOOP_PAGE, Games
from remis.service.store import open_store

#: an answer as sent: status, raw headers in order, body
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]
Call = Callable[..., Awaitable[httpx.Response]]
NOW = 1_000_000.0


async def script(call: Call) -> None:
    """The requests of a few games, good and unusual, in order."""
    js = {"Content-Type": "application/json"}
    a = (await call("POST", "/v1/games", {"config": {"time_control": "600+5", "players": {
        "white": "Žofie", "black": "Łukasz"}}})).json()
    b = (await call("POST", "/v1/games", {})).json()
    await call("POST", "/v1/games", {"config": {"mode": "bogus"}})       # 422, the arbiter's
    await call("POST", "/v1/games", {"config": {}, "colour": 1})         # 422, unknown field
    await call("POST", "/v1/games", '{"config": ')                       # 400, not JSON
    await call("POST", "/v1/games", {"config": {}}, {"Content-Type": "text/plain"})
    await call("POST", "/v1/games", {"config": {"event": "x" * 70000}})  # 413
    gid, tokens = a["id"], a["tokens"]
    auth = {c: {"Authorization": f"Bearer {t}"} for c, t in tokens.items()}
    game, log = f"/v1/games/{gid}", f"/v1/games/{gid}/events"
    await call("GET", game, headers=auth["white"])                       # fresh
    await call("GET", log, headers=auth["spectator"])
    events = [("white", {"type": "move", "move": "e4"}),
              ("black", {"type": "move", "move": "e5"}),
              ("white", {"type": "offer_draw"}),
              ("black", {"type": "decline_draw"}),
              ("white", {"type": "move", "move": "Nf3"}),
              ("black", {"type": "claim", "kind": "threefold_repetition"}),  # incorrect
              ("black", {"type": "move", "move": "Nc6"})]
    for colour, event in events:
        await call("POST", f"{log}", {**event, "player": colour}, {**js, **auth[colour]})
    for query in ("", "?after=0", "?after=2", "?limit=3", "?after=3&limit=2",
                  "?limit=2&after=3", "?after=100", "?limit=1000", "?after=2147483648"):
        await call("GET", log + query, headers=auth["arbiter"])
    await call("GET", game, headers=auth["black"])
    # unusual: answered by the stack, in both apps
    for query in ("?after=-1", "?limit=0", "?limit=1001", "?after=abc", "?after=1&after=2",
                  "?after=01", "?foo=1", "?after=%31", "?after=2147483649", "?after=1&"):
        await call("GET", log + query, headers=auth["white"])
    await call("GET", game + "?foo=1", headers=auth["white"])
    await call("HEAD", game, headers=auth["white"])
    await call("GET", game, "{}", {**auth["white"], **js})               # a body on a GET
    # refusals: through the app's handlers
    await call("GET", game)                                              # 401, no token
    await call("GET", log, headers={"Authorization": "Bearer nope"})     # 401, not the game's
    await call("GET", "/v1/games/nope", headers=auth["white"])           # 404
    await call("GET", "/v1/games/nope/events", headers=auth["white"])    # 404
    # a finished game
    await call("POST", f"/v1/games/{b['id']}/events", {"type": "resign", "player": "white"},
               {**js, "Authorization": f"Bearer {b['tokens']['white']}"})
    await call("GET", f"/v1/games/{b['id']}", headers={
        "Authorization": f"Bearer {b['tokens']['black']}"})
    await call("GET", f"/v1/games/{b['id']}/events?limit=5", headers={
        "Authorization": f"Bearer {b['tokens']['spectator']}"})


async def reads_after_restart(call: Call, first: list[Answer]) -> None:
    """The first game's reads in a new app over the same store: rebuilt in a thread."""
    a = json.loads(first[0][2])
    auth = {"Authorization": f"Bearer {a['tokens']['white']}"}
    await call("GET", f"/v1/games/{a['id']}/events?after=1", headers=auth)
    await call("GET", f"/v1/games/{a['id']}", headers=auth)
    await call("GET", f"/v1/games/{a['id']}/events", headers=auth)       # in memory now


def play(db: Path, fast: bool, steps: Callable[[Call], Awaitable[None]],
         passed: list[str] | None = None) -> list[Answer]:
    """The answers of an app over ``db`` (its fast paths or only its stack)
    to ``steps``; ``passed``: the requests the fast app handed to the stack."""
    app = create_app(f"sqlite:///{db}", mate_workers=0, search_workers=0)
    app.state.games._clock = lambda: NOW
    if not fast:
        app.fast = None
    else:
        assert isinstance(app.fast, FastEvents)
        others = app.fast.app
        assert isinstance(others, FastGames)
        stack = others.app

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            assert passed is not None
            query = scope["query_string"].decode()
            passed.append(f"{scope['method']} {scope['path']}" + (f"?{query}" if query else ""))
            await stack(scope, receive, send)

        others.app = counted
    out: list[Answer] = []

    async def run() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://t") as client:
            async def call(method: str, url: str, body: Any = None,
                           headers: dict[str, str] | None = None) -> httpx.Response:
                content = None if body is None else (
                    body if isinstance(body, str) else json.dumps(body))
                if body is not None and headers is None:
                    headers = {"Content-Type": "application/json"}
                r = await client.request(method, url, content=content, headers=headers)
                out.append((r.status_code, list(r.headers.raw), r.content))
                return r

            await steps(call)

    asyncio.run(run())
    app.state.store.close()
    return out


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Ids, tokens and times the same in every run (reset by the function returned)."""
    counter = itertools.count()

    def reset() -> None:
        nonlocal counter
        counter = itertools.count()

    monkeypatch.setattr(time, "time", lambda: NOW)
    monkeypatch.setattr("remis.service.games.new_token", lambda: f"token-{next(counter)}")
    monkeypatch.setattr("remis.service.games.secrets",
                        SimpleNamespace(token_hex=lambda n: f"{next(counter):0{2 * n}x}"))
    return reset


@pytest.mark.parametrize("loop_page", [LOOP_PAGE, 2], ids=["usual", "long pages in a thread"])
def test_the_fast_answers_are_the_routes_byte_for_byte(
        tmp_path: Path, fixed: Callable[[], None], loop_page: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("remis.service.games.LOOP_PAGE", loop_page)
    monkeypatch.setattr("remis.service.fast_games.LOOP_PAGE", loop_page)
    passed: list[str] = []
    fast = play(tmp_path / "fast.db", True, script, passed)
    fixed()
    route = play(tmp_path / "route.db", False, script)
    assert [s for s, _, _ in route] == [
        201, 201, 422, 422, 400, 422, 413, 200, 200, *[200] * 7, *[200] * 9, 200,
        422, 422, 422, 422, 200, 200, 200, 200, 422, 200, 200, 405, 200,
        401, 401, 404, 404, 200, 200, 200]
    assert fast == route
    # the ordinary creations and reads were answered fast, the unusual ones by the stack
    gid = json.loads(route[0][2])["id"]
    log = f"GET /v1/games/{gid}/events"
    assert passed == [
        *["POST /v1/games"] * 4,
        *(f"{log}?{q}" for q in ("after=-1", "limit=0", "limit=1001", "after=abc",
                                 "after=1&after=2", "after=01", "foo=1", "after=%31",
                                 "after=2147483649", "after=1&")),
        f"GET /v1/games/{gid}?foo=1", f"HEAD /v1/games/{gid}", f"GET /v1/games/{gid}"]
    # the log holds the offer, its decline and the claim's ruling, page by page
    whole = json.loads(route[16][2])
    assert [e["type"] for e in whole["events"]] == [
        "move", "move", "offer_draw", "decline_draw", "move", "claim", "move"]
    assert json.loads(route[20][2])["events"] == whole["events"][3:5]
    assert json.loads(route[19][2])["events"] == whole["events"][:3]
    # a game read after a restart: rebuilt from the store in a thread, the same answers
    fixed()
    again_fast = play(tmp_path / "fast.db", True, lambda c: reads_after_restart(c, fast))
    again_route = play(tmp_path / "route.db", False, lambda c: reads_after_restart(c, route))
    assert [s for s, _, _ in again_route] == [200, 200, 200]
    assert again_fast == again_route
    assert json.loads(again_route[2][2]) == whole


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions handed to a thread (``anyio.to_thread.run_sync``)."""
    names: list[str] = []
    real = anyio.to_thread.run_sync

    async def counted(func: Callable[[], Any], *args: Any, **kwargs: Any) -> Any:
        names.append(getattr(func, "__name__", "?"))
        return await real(func, *args, **kwargs)

    monkeypatch.setattr("anyio.to_thread.run_sync", counted)
    return names


def test_a_read_runs_on_the_loop_only_where_it_cannot_wait(threads: list[str]) -> None:
    """A game in memory whose lock is free is read on the event loop (no
    thread); one whose lock another request holds is read in a thread, which
    waits for the lock while the loop goes on."""
    games = Games(open_store("sqlite:///:memory:"))
    gid, tokens, _ = games.create({})
    games.post(gid, tokens["white"], {"type": "move", "player": "white", "move": "e4"})

    async def reads() -> tuple[dict[str, Any], dict[str, Any], bool]:
        on_loop = await games.events_async(gid, tokens["black"])
        lock = games._lock(gid)
        lock.acquire()
        task = asyncio.ensure_future(games.events_async(gid, tokens["black"]))
        for _ in range(20):
            await asyncio.sleep(0)
        waiting = not task.done()
        lock.release()
        return on_loop, await task, waiting

    on_loop, waited, waiting = asyncio.run(reads())
    assert on_loop == waited == games.events(gid)
    assert waiting and threads == ["in_thread"]


def test_a_long_page_is_read_in_a_thread(monkeypatch: pytest.MonkeyPatch,
                                          threads: list[str]) -> None:
    """A page of more than ``LOOP_PAGE`` events is read off the event loop,
    a shorter one of the same game on it, with the same answers."""
    monkeypatch.setattr("remis.service.games.LOOP_PAGE", 1)
    games = Games(open_store("sqlite:///:memory:"))
    gid, tokens, _ = games.create({})
    for colour, move in [("white", "e4"), ("black", "e5")]:
        games.post(gid, tokens[colour], {"type": "move", "player": colour, "move": move})
    short = asyncio.run(games.events_async(gid, tokens["white"], after=1))
    assert threads == [] and short == games.events(gid, after=1)
    long = asyncio.run(games.events_async(gid, tokens["white"]))
    assert threads == ["in_thread"] and long == games.events(gid)

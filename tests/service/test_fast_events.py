"""The event requests answered before the application's stack
(:class:`remis.service.fast_events.FastEvents`) get exactly the answers of
the route behind it: the same status, body and headers for ordinary events,
refusals, bad tokens, bad bodies and unknown games."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from remis.service import fast_events
from remis.service.app import create_app
from remis.service.fast_events import FastEvents
from remis.service.schemas import plain_event

MOVES = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]


def requests(game: dict[str, Any]) -> list[tuple[str, Any, dict[str, str]]]:
    """(path, body, headers) of a game's requests, good and bad, in order."""
    path = f"/v1/games/{game['id']}/events"
    white, black = (f"Bearer {game['tokens'][c]}" for c in ("white", "black"))
    js = {"Content-Type": "application/json"}
    out: list[tuple[str, Any, dict[str, str]]] = []
    for n, san in enumerate(MOVES):
        token = white if n % 2 == 0 else black
        player = "white" if n % 2 == 0 else "black"
        out.append((path, {"type": "move", "player": player, "move": san, "at": n + 0.5,
                           "expected_ply": n}, {**js, "Authorization": token}))
    return [
        *out[:2],
        (path, {"type": "move", "player": "white", "move": "Ke2", "expected_ply": 0},
         {**js, "Authorization": white}),                              # 409: another ply
        (path, {"type": "move", "player": "white", "move": "Kxe8"},
         {**js, "Authorization": white}),                              # 409: illegal
        (path, {"type": "move", "player": "black", "move": "d5"},
         {**js, "Authorization": white}),                              # 403: not black's
        (path, {"type": "move", "player": "white", "move": "d4"}, js),  # 401: no token
        (path, {"type": "move", "player": "white", "move": "d4"},
         {**js, "Authorization": "Bearer nope"}),                      # 401: bad token
        (path, {"type": "move", "player": "white", "move": "d4", "colour": 1},
         {**js, "Authorization": white}),                              # 422: unknown field
        (path, '{"type": "move", ', {**js, "Authorization": white}),    # 400: not JSON
        (path, {"type": "move", "player": "white", "move": "d4"},
         {"Content-Type": "text/plain", "Authorization": white}),      # another type
        (path, {"type": "move", "player": "white", "move": "d4", "comment": "x" * 70000},
         {**js, "Authorization": white}),                              # 413
        ("/v1/games/nope/events", {"type": "resign", "player": "white"},
         {**js, "Authorization": white}),                              # 404
        (path, {"type": "offer_draw", "player": "white", "id": "o1"},
         {**js, "Authorization": white}),
        (path, {"type": "offer_draw", "player": "white", "id": "o1"},
         {**js, "Authorization": white}),                              # a retry: same answer
        *out[2:],
        (path, {"type": "resign", "player": "black"}, {**js, "Authorization": black}),
        (path, {"type": "resign", "player": "white"}, {**js, "Authorization": white}),  # over
    ]


def play(tmp_path: Path, fast: bool, answered: list[str] | None = None,
         ) -> list[tuple[int, Any, list[tuple[str, str]]]]:
    app = create_app(f"sqlite:///{tmp_path / ('fast' if fast else 'route')}.db",
                     mate_workers=0)
    if not fast:
        app.fast = None  # type: ignore[attr-defined]
    else:
        assert isinstance(app.fast, FastEvents)  # type: ignore[attr-defined]
        post = app.fast._post  # type: ignore[attr-defined]

        async def counted(*args: Any) -> None:
            assert answered is not None
            answered.append(args[2])
            await post(*args)

        app.fast._post = counted  # type: ignore[attr-defined]

    async def steps() -> list[tuple[int, Any, list[tuple[str, str]]]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://t") as c:
            game = (await c.post("/v1/games", json={"config": {"time_control": "600+5"}})
                    ).json()
            out = []
            for path, body, headers in requests(game):
                data = body if isinstance(body, str) else json.dumps(body)
                r = await c.post(path, content=data, headers=headers)
                answer = r.json()
                if r.status_code == 200:  # the times of record are the server's clock
                    answer["state"].pop("clocks")
                    answer["state"].pop("clock")
                    for entry in answer["state"]["rulings"]:
                        entry.pop("at")
                answer = json.loads(json.dumps(answer).replace(game["id"], "GAME"))
                out.append((r.status_code, answer,
                            sorted((k, v) for k, v in r.headers.items()
                                   if k not in ("content-length",))))
            return out

    return asyncio.run(steps())


def test_the_fast_answers_are_the_routes(tmp_path: Path) -> None:
    answered: list[str] = []
    fast, route = play(tmp_path, True, answered), play(tmp_path, False)
    # the ordinary requests were answered fast, the malformed ones by the route
    assert len(answered) == 16
    statuses = [s for s, _, _ in route]
    assert statuses == [200, 200, 409, 409, 403, 401, 401, 422, 400, 422, 413, 404, 200,
                        200, 200, 200, 200, 200, 200, 409]
    assert fast == route


def test_plain_bodies_skip_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every plain event body (moves, resignations) is read by
    :func:`plain_event`, not validated by the model, whose validation costs
    more than the rest of a move's checks; the fast path hands the model
    only the other JSON bodies."""
    read: list[bool] = []
    validated: list[bytes] = []
    model_read = fast_events.valid

    def reader(body: bytes) -> dict[str, Any] | None:
        data = plain_event(body)
        read.append(data is not None)
        return data

    def model(model: Any, body: bytes) -> Any:
        validated.append(body)
        return model_read(model, body)

    monkeypatch.setattr(fast_events, "plain_event", reader)
    monkeypatch.setattr(fast_events, "valid", model)
    play(tmp_path, True, [])
    # 14 plain bodies: the six moves, five refused moves, the resignations (one for
    # a game that does not exist); not plain: a field the model refuses, a body
    # that is not JSON, two offers with an id (the other content type and the body
    # over the limit are never read)
    assert read.count(True) == 14
    events = [b for b in validated if b"config" not in b]  # not the game's creation
    assert read.count(False) == len(events) == 4
    assert all(plain_event(b) is None for b in events)


@pytest.mark.parametrize("fast", [True, False])
def test_an_unexpected_error_is_a_logged_500(tmp_path: Path, fast: bool,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", mate_workers=0)
    if not fast:
        app.fast = None  # type: ignore[attr-defined]

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    async def steps() -> tuple[int, Any]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app,
                                                                   raise_app_exceptions=False),
                                     base_url="http://t") as c:
            game = (await c.post("/v1/games", json={"config": {}})).json()
            monkeypatch.setattr(app.state.games, "post_async", broken)
            r = await c.post(f"/v1/games/{game['id']}/events",
                             json={"type": "move", "player": "white", "move": "e4"},
                             headers={"Authorization": f"Bearer {game['tokens']['white']}"})
            return r.status_code, r.json()

    assert asyncio.run(steps()) == (500, {"detail": "internal error; it has been logged",
                                          "code": "internal_error"})


@pytest.mark.parametrize("fast", [True, False])
def test_a_body_nested_too_deep_is_the_routes_400(tmp_path: Path, fast: bool) -> None:
    """A JSON body nested deeper than a parser goes (a comment of 5,000
    brackets, under the body limit) is refused as the route refuses it, with
    a 400, not an internal error: the fast path parsed it with ``json``,
    whose RecursionError escaped as a 500."""
    app = create_app(f"sqlite:///{tmp_path / 'deep.db'}", mate_workers=0)
    if not fast:
        app.fast = None  # type: ignore[attr-defined]
    body = '{"type": "move", "player": "white", "move": "e4", "comment": ' \
        + "[" * 5000 + "]" * 5000 + "}"

    async def steps() -> tuple[int, Any]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app,
                                                                   raise_app_exceptions=False),
                                     base_url="http://t") as c:
            game = (await c.post("/v1/games", json={"config": {}})).json()
            r = await c.post(f"/v1/games/{game['id']}/events", content=body,
                             headers={"Authorization": f"Bearer {game['tokens']['white']}",
                                      "Content-Type": "application/json"})
            return r.status_code, r.json()

    assert asyncio.run(steps()) == (400, {"detail": "There was an error parsing the body",
                                          "code": "http_400"})

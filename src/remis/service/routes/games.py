"""The live games' endpoints: create a game, post its events, read its state,
its log page by page, its moves, its PGN and its stream of states."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import PlainTextResponse, StreamingResponse

from remis.service.pgn_export import game_pgn
from remis.service.routes.common import Services, Token, json_response
from remis.service.schemas import (
    CREATE_ERRORS,
    ERRORS,
    GAME_LINKS,
    READ_ERRORS,
    Accepted,
    CreatedGame,
    CreateGame,
    Event,
    EventLog,
    GameView,
    MoveList,
)

#: seconds a quiet stream waits before looking at the store (events of other instances)
STREAM_POLL = 2.0
#: most events in one page of ``GET /v1/games/{id}/events``
MAX_PAGE = 1000


def router(services: Services) -> APIRouter:
    """The endpoints under ``/v1/games``.

    >>> r = router(Services.open("sqlite:///:memory:", mate_workers=0, search_workers=0))
    >>> sorted({route.path for route in r.routes})[:2]
    ['/v1/games', '/v1/games/{game_id}']
    """
    games, broadcaster = services.games, services.broadcaster
    api = APIRouter()

    @api.post("/v1/games", status_code=201, response_model=CreatedGame,
              responses={**CREATE_ERRORS, 201: {"links": GAME_LINKS}},
              operation_id="create_game")
    async def create_game(body: CreateGame) -> Response:
        """Create a game; the answer holds the only copy of its four tokens."""
        gid, tokens, state = await games.create_async(body.config)
        return json_response({"id": gid, "tokens": tokens, "state": state}, 201)

    @api.post("/v1/games/{game_id}/events", response_model=Accepted, responses=ERRORS,
              operation_id="post_event")
    async def post_event(game_id: str, body: Event, token: Token) -> Response:
        """Apply one event (``Authorization: Bearer <token>`` of a player or the
        arbiter); stored before the answer.  With an ``id``, a retry of the
        same request gets the same answer."""
        received = time.time()
        event = body.model_dump(exclude_none=True, exclude={"expected_ply"})
        state, n = await games.post_async(game_id, token, event, body.expected_ply,
                                          received=received)
        return json_response({"state": state, "event": n})

    @api.get("/v1/games/{game_id}", response_model=GameView, responses=READ_ERRORS,
             operation_id="get_game")
    def get_game(game_id: str, token: Token) -> dict[str, Any]:
        """The game's config and current state (any token of the game)."""
        return games.view(game_id, token)

    @api.get("/v1/games/{game_id}/events", response_model=EventLog, responses=READ_ERRORS,
             operation_id="get_events")
    def get_events(game_id: str, token: Token,
                   after: Annotated[int, Query(ge=0, le=2**31, description=(
                       "the last event the client has: the page starts with the next"))] = 0,
                   limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description=(
                       "the most events in the page"))] = MAX_PAGE,
                   ) -> dict[str, Any]:
        """A page of the game's accepted events, in order, and of the ruling
        log they wrote (any token of the game): events ``after + 1`` on, at
        most ``limit``."""
        games.reader(game_id, token)
        return games.events(game_id, after, limit)

    @api.get("/v1/games/{game_id}/moves", response_model=MoveList, responses=READ_ERRORS,
             operation_id="get_moves")
    def get_moves(game_id: str, token: Token) -> dict[str, Any]:
        """The moves on the arbiter's board, in order (any token of the game):
        SAN, or UCI for an illegal move that stands (``standing``, 7.5.1);
        moves cancelled when an illegal move was found later are gone."""
        games.reader(game_id, token)
        moves, n = games.moves(game_id)
        return {"moves": moves, "event": n}

    @api.get("/v1/games/{game_id}/stream", response_class=StreamingResponse, responses={
        **READ_ERRORS,
        200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
              "description": "Server-Sent Events: 'id: <event number>' and 'data: <state>' "
                             "for each, and a ': keep-alive' comment when nothing happens"}})
    async def stream(game_id: str, request: Request, token: Token) -> StreamingResponse:
        """Server-Sent Events: the current state, then one state per accepted
        event (any token of the game, in the header: read it with a streaming
        fetch, as the web page does)."""
        await run_in_threadpool(games.reader, game_id, token)
        queue = broadcaster.subscribe(game_id)

        async def events() -> AsyncIterator[str]:
            try:
                _, state, last = await run_in_threadpool(games.state, game_id)
                yield _sse(last, state)
                while True:
                    try:
                        n, state = await asyncio.wait_for(queue.get(), timeout=STREAM_POLL)
                    except TimeoutError:
                        if await request.is_disconnected():
                            return
                        # another instance may have appended: look at the store
                        count = await run_in_threadpool(games.store.count, game_id)
                        if count <= last:
                            yield ": keep-alive\n\n"
                            continue
                        _, state, n = await run_in_threadpool(games.state, game_id)
                    if n > last:
                        last = n
                        yield _sse(n, state)
            finally:
                broadcaster.unsubscribe(game_id, queue)

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    # errors stay JSON (Problem); only the 200 answer is PGN text
    @api.get("/v1/games/{game_id}/pgn", response_model=None, responses={
        **READ_ERRORS,
        200: {"content": {"application/x-chess-pgn": {"schema": {"type": "string"}}}}})
    def get_pgn(game_id: str, token: Token) -> PlainTextResponse:
        """The game as PGN (any token of the game): the moves on the arbiter's board,
        the arbiter's result, ``[Termination]`` and the ruling as the last comment."""
        games.reader(game_id, token)
        rec, state, _ = games.state(game_id)
        moves, _ = games.moves(game_id)
        return PlainTextResponse(
            game_pgn(rec.id, rec.config, rec.created, state, moves, games.store.events(game_id)),
            media_type="application/x-chess-pgn",
            headers={"Content-Disposition": f'attachment; filename="remis-{rec.id}.pgn"'})

    return api


def _sse(n: int, state: dict[str, Any]) -> str:
    """One Server-Sent Event: the event number as its id, the state as its data.

    >>> _sse(3, {"ply": 2})
    'id: 3\\ndata: {"ply": 2}\\n\\n'
    """
    return f"id: {n}\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"

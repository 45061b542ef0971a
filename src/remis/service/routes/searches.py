"""The stateless endpoints: ``/v1/position``, ``/v1/pgn`` and ``/v1/claim``
answer as ``remis position``, ``remis game`` and ``remis claim`` do, each
request's work in the search pool under its budget."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response

from remis.service.games import ServiceError
from remis.service.pool import Busy, cancelled
from remis.service.routes.common import Services, json_response
from remis.service.schemas import (
    SEARCH_ERRORS,
    ClaimRequest,
    PgnRequest,
    PgnRulings,
    PositionRequest,
)
from remis.service.stateless import InputError, run_job
from remis.unwinnable import Cancelled

#: seconds between two looks at whether a stateless request's client is still there
DISCONNECT_POLL = 0.25


def router(services: Services) -> APIRouter:
    """The stateless endpoints.

    >>> r = router(Services.open("sqlite:///:memory:", mate_workers=0, search_workers=0))
    >>> [route.path for route in r.routes]
    ['/v1/position', '/v1/pgn', '/v1/claim']
    """
    searches, limits = services.searches, services.limits
    api = APIRouter()

    async def search(request: Request, work: str, seconds: float,
                     **kwargs: Any) -> Any:
        """Run one stateless request's work in the search pool, under its
        budget; cancelled when the client goes away."""
        try:
            job = searches.submit(run_job, work, kwargs, limits.search_nodes,
                                  min(seconds, limits.search_seconds), cancelled)
        except Busy as exc:
            raise ServiceError(429, str(exc)) from None
        answer = asyncio.wrap_future(job.future)
        while not (await asyncio.wait({answer}, timeout=DISCONNECT_POLL))[0]:
            if await request.is_disconnected():
                job.cancel()
                raise ServiceError(400, "the client went away; the work was cancelled")
        try:
            return answer.result()
        except InputError as exc:
            raise ServiceError(422, str(exc)) from None
        except Cancelled:
            raise ServiceError(400, "the client went away; the work was cancelled") from None

    # the stateless answers skip the response model's validation pass: for a PGN
    # text's thousand games it held the event loop 36 ms, every honest move waiting
    @api.post("/v1/position", responses=SEARCH_ERRORS, response_model=dict[str, Any])
    async def position(body: PositionRequest, request: Request) -> Response:
        """The same JSON as ``remis position --json``, and the ``budget`` (its
        searches are bounded by the request's ``max_seconds`` and the
        server's budget)."""
        out, budget = await search(request, "position", body.max_seconds, fen=body.fen,
                                   quick=body.quick, max_seconds=body.max_seconds)
        return json_response({**out, "budget": budget})

    @api.post("/v1/pgn", response_model=PgnRulings, responses=SEARCH_ERRORS)
    async def pgn(body: PgnRequest, request: Request) -> Response:
        """``{"games": [...], "budget": {...}}``, each game the same JSON as a
        line of ``remis game --json``; all the games' searches share one budget."""
        games_out, budget = await search(request, "pgn", limits.search_seconds, pgn=body.pgn)
        return json_response({"games": games_out, "budget": budget})

    @api.post("/v1/claim", responses=SEARCH_ERRORS, response_model=dict[str, Any])
    async def claim(body: ClaimRequest, request: Request) -> Response:
        """The same JSON as ``remis claim --json``, and the ``budget``."""
        out, budget = await search(request, "claim", limits.search_seconds, pgn=body.pgn,
                                   game=body.game, ply=body.ply, move=body.move,
                                   kind=body.kind, mode=body.mode)
        return json_response({**out, "budget": budget})

    return api

"""The stateless endpoints: ``/v1/position``, ``/v1/pgn`` and ``/v1/claim``
answer as ``remis position``, ``remis game`` and ``remis claim`` do.  Each
request's work runs first in the first-pass pool under a small budget
(:func:`~remis.service.stateless.first_pass`), which answers ordinary input
in milliseconds whatever the searches of other clients cost; only what it
leaves open waits for the search pool and the request's whole budget."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response

from remis.service.games import ServiceError
from remis.service.pool import Busy, OverAllowance, SearchPool, cancelled
from remis.service.routes.common import Services, json_response
from remis.service.schemas import (
    SEARCH_ERRORS,
    ClaimRequest,
    PgnRequest,
    PgnRulings,
    PositionRequest,
)
from remis.service.stateless import InputError, first_pass, run_job
from remis.unwinnable import Cancelled

#: seconds between two looks at whether a stateless request's client is still there
DISCONNECT_POLL = 0.25


def router(services: Services) -> APIRouter:
    """The stateless endpoints.

    >>> r = router(Services.open("sqlite:///:memory:", mate_workers=0, search_workers=0))
    >>> [route.path for route in r.routes]
    ['/v1/position', '/v1/pgn', '/v1/claim']
    """
    first, searches, limits = services.first, services.searches, services.limits
    api = APIRouter()

    async def search(request: Request, work: str, seconds: float,
                     **kwargs: Any) -> Any:
        """``(answer, budget)`` of one stateless request: its first pass, or
        where that leaves a question open, its work under its whole budget."""
        seconds = min(seconds, limits.search_seconds)
        if limits.first_pass_nodes > 0 and first.running:
            try:
                settled = await run(first, request, first_pass, work, kwargs,
                                    limits.first_pass_nodes, seconds,
                                    limits.first_pass_seconds, cancelled)
            except OverAllowance:  # the client has had its share of first passes
                settled = None
            if settled is not None:
                out, budget = settled
                # the answer is the whole budget's: say which budget that is
                return out, {**budget, "max_nodes": limits.search_nodes, "max_seconds": seconds}
        return await run(searches, request, run_job, work, kwargs, limits.search_nodes,
                         seconds, cancelled)

    return _endpoints(api, search, limits.search_seconds)


async def run(pool: SearchPool, request: Request, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in ``pool``, for the caller of ``request``: 429 when the
    caller has too many searches there; cancelled when the client goes away
    (its answer is then nobody's: dropped unread)."""
    try:
        job = pool.submit(fn, *args)
    except OverAllowance:
        raise
    except Busy as exc:
        raise ServiceError(429, str(exc), "busy") from None
    answer = asyncio.wrap_future(job.future)
    while not (await asyncio.wait({answer}, timeout=DISCONNECT_POLL))[0]:
        if await request.is_disconnected():
            job.cancel()
            answer.cancel()
            raise ServiceError(400, "the client went away; the work was cancelled",
                               "client_gone")
    try:
        return answer.result()
    except InputError as exc:
        raise ServiceError(422, str(exc), "bad_input") from None
    except Cancelled:
        raise ServiceError(400, "the client went away; the work was cancelled",
                           "client_gone") from None


def _endpoints(api: APIRouter, search: Any, search_seconds: float) -> APIRouter:
    """The three endpoints on ``api``, each running its work with ``search``."""

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
        games_out, budget = await search(request, "pgn", search_seconds, pgn=body.pgn)
        return json_response({"games": games_out, "budget": budget})

    @api.post("/v1/claim", responses=SEARCH_ERRORS, response_model=dict[str, Any])
    async def claim(body: ClaimRequest, request: Request) -> Response:
        """The same JSON as ``remis claim --json``, and the ``budget``."""
        out, budget = await search(request, "claim", search_seconds, pgn=body.pgn,
                                   game=body.game, ply=body.ply, move=body.move,
                                   kind=body.kind, mode=body.mode)
        return json_response({**out, "budget": budget})

    return api

"""The FastAPI application: HTTP around :mod:`remis.service.games` and
:mod:`remis.service.stateless`.

Every error is a 4xx with ``{"detail": "a clear message", "code": "a_stable_name"}``
(and ``params``, the details a translation of the code needs): malformed JSON
(400), unknown or mistyped fields (422), bodies over :data:`MAX_BODY` (413),
bad tokens (401/403), unknown games (404), events refused in the game's
present state: by the Laws, over a limit, a stale ``expected_ply`` (409);
too many searches at once (429).  A game is read (state, events, stream) with
any of its tokens, ``Authorization: Bearer <token>``: the players', the
arbiter's or the read-only spectator token handed out at creation.  An
unexpected exception is logged and answered with a 500 only as the last resort.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import queue
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio.to_thread
from fastapi import Depends, FastAPI, Query, Request, Response, Security
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import remis
from remis.service.auth import bearer
from remis.service.fast_events import FastEvents
from remis.service.games import Games, ServiceError
from remis.service.limits import Limits
from remis.service.mates import MatePool
from remis.service.newgame import router as newgame_router
from remis.service.page import mount_page
from remis.service.pgn_export import game_pgn
from remis.service.pool import CALLER, Busy, SearchPool, cancelled
from remis.service.problem import Problem
from remis.service.stateless import InputError, run_job
from remis.service.store import Store, StoreError, open_store, redact
from remis.service.stream import Broadcaster
from remis.unwinnable import Cancelled

log = logging.getLogger("remis.service")

#: the largest request body accepted (bytes)
MAX_BODY = 64 * 1024
#: where the web engineer's built page lives
WEB_DIST = Path(__file__).resolve().parent / "web" / "dist"
#: seconds a quiet stream waits before looking at the store (events of other instances)
STREAM_POLL = 2.0
#: languages of the translation endpoint
LANGS = ("en", "cs", "pl")
#: most events in one page of ``GET /v1/games/{id}/events``
MAX_PAGE = 1000
#: seconds between two looks at whether a stateless request's client is still there
DISCONNECT_POLL = 0.25
#: most mate searches waiting in all (each holds a request's thread)
_WAITING = 64

EventType = Literal["move", "offer_draw", "accept_draw", "decline_draw", "claim", "touch",
                    "flag", "illegal_move", "resign", "arbiter", "abort", "request"]


class _Strict(BaseModel):
    """A request body: no unknown field, and text only in valid Unicode (a
    lone surrogate, which JSON can spell as ``"\\ud800"``, can be neither
    stored nor answered)."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _unicode(cls, v: Any) -> Any:
        _check_text(v)
        return v


def _check_text(value: Any) -> None:
    """Raise ValueError where ``value`` holds a string that is not valid
    Unicode (looking inside lists and dicts, keys too).

    >>> _check_text({"a": ["ok", 1]})
    >>> _check_text({"a": ["\\ud800"]})
    Traceback (most recent call last):
    ...
    ValueError: text with a lone surrogate (not valid Unicode)
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text with a lone surrogate (not valid Unicode)") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_text(k)
            _check_text(v)
    elif isinstance(value, list):
        for v in value:
            _check_text(v)


class CreateGame(_Strict):
    """Body of ``POST /v1/games``: the arbiter config (checked by the arbiter)."""

    config: dict[str, Any] = Field(
        default_factory=dict, description="the arbiter's configuration (every key optional: "
                                          "time_control, mode, ...); a key it does not know "
                                          "is refused")


class Event(_Strict):
    """Body of ``POST /v1/games/{id}/events``: one event of the arbiter (the
    arbiter checks which fields fit which type), and the optional
    ``expected_ply`` (409 when the game is at another ply)."""

    type: EventType = Field(description="what happened (the arbiter reference lists the "
                                        "fields each type takes)")
    player: Literal["white", "black", "both"] | None = Field(
        default=None, description="whom the event is about ('both' only for a flag, by the "
                                  "arbiter; absent only for arbiter decisions)")
    at: float | None = Field(default=None, ge=0, le=10**9,
                             description="seconds since the game started; default, and the "
                                         "only clock of an online game: the server's receive "
                                         "time.  From a player's token it is held between "
                                         "the receive time less the skew and the receive "
                                         "time; from the arbiter's it is the time of record")
    move: str | None = Field(default=None, max_length=16,
                             description="move: the move, in SAN or UCI; claim: the written "
                                         "move; illegal_move: the move made")
    kind: str | None = Field(default=None, max_length=32,
                             description="claim: threefold_repetition, fifty_moves, quickplay "
                                         "or increment; illegal_move: move, no_move, two_hands "
                                         "or unpromoted_pawn")
    square: str | None = Field(default=None, max_length=3,
                               description="touch: the square of the touched piece (Article 4.3)")
    called_by: Literal["arbiter", "opponent", "nobody"] | None = Field(
        default=None, description="illegal_move: who noticed it; 'nobody': it stands (A.5)")
    ply: int | None = Field(default=None, ge=1, description="illegal_move: the ply of an "
                            "illegal move that stood, found later (Article 7.5.1)")
    clocks: dict[Literal["white", "black"], float] | None = Field(
        default=None, description="illegal_move with ply: the clock times the arbiter sets "
                                  "(Article 7.1)")
    decision: Literal["accept", "postpone", "reject", "add_time", "declare", "note"] | None = (
        Field(default=None, description="the arbiter's: on what awaits a decision (accept, "
                                        "postpone, reject), or an act of its own (add_time, "
                                        "declare, note)"))
    result: Literal["1-0", "0-1", "1/2-1/2"] | None = Field(
        default=None, description="arbiter declare: the result the arbiter declares")
    seconds: float | None = Field(default=None, ge=0, le=3600,
                                  description="arbiter: the time a III.4 or III.5 decision "
                                              "gives the opponent (default 120), or the time "
                                              "add_time gives")
    id: Annotated[str, Field(min_length=1, max_length=128)] | Annotated[
        int, Field(ge=-(2**53), le=2**53)] | None = Field(
        default=None, description="the client's idempotency key, unique in the game: the "
                                  "same id with the same request gets the first answer "
                                  "again (a safe retry), with another request 409")
    comment: str | None = Field(default=None, max_length=1000,
                                description="kept in the log with the event")
    expected_ply: int | None = Field(default=None, ge=0,
                                     description="the ply the client believes the game is "
                                                 "at: 409, and nothing applied, when it is not")

    @field_validator("at", "seconds")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not math.isfinite(v):
            raise ValueError("must be a finite number of seconds")
        return v


class PositionRequest(_Strict):
    """Body of ``POST /v1/position``."""

    fen: str = Field(max_length=200, description="the position, as a FEN")
    quick: bool = Field(default=False, description="quick mode only, as remis position "
                                                   "--quick: may leave a verdict null")
    #: bound on the unwinnability search per side (``remis position --max-seconds``):
    #: a verdict not reached in time is null, never a guess
    max_seconds: float = Field(default=5.0, gt=0, le=30,
                               description="seconds for each side's search, within the "
                                           "server's budget; a verdict not reached in time "
                                           "is null, never a guess")


class PgnRequest(_Strict):
    """Body of ``POST /v1/pgn``."""

    pgn: str = Field(description="PGN text: one game or many")


class ClaimRequest(_Strict):
    """Body of ``POST /v1/claim`` (as the options of ``remis claim``)."""

    pgn: str = Field(description="PGN text")
    game: int = Field(default=1, ge=1, description="the game's number in the text, from 1")
    ply: int | None = Field(default=None, ge=0, description="the claim is made after this "
                            "ply (default: the end of the main line)")
    move: str | None = Field(default=None, max_length=32,
                             description="the written move (SAN or UCI), for 9.2.1 or 9.3.1")
    kind: Literal["threefold", "threefold_repetition", "fifty", "fifty_moves"] | None = Field(
        default=None, description="the kind of claim (default: any that holds)")
    mode: Literal["standard", "rapid", "blitz"] = Field(
        default="standard", description="the penalty of an incorrect claim: 2 minutes, or 1 "
                                        "in rapid and blitz")


class CreatedGame(BaseModel):
    """Answer of ``POST /v1/games``."""

    id: str
    tokens: dict[str, str] = Field(
        description="the only copy of the game's tokens: white, black, arbiter (post events) "
                    "and spectator (reads the game only)")
    state: dict[str, Any] = Field(description="the arbiter's state before any event")


_STATE = ("the arbiter's state after the event (as remis arbitrate prints it) without the "
          "whole ruling log: 'rulings' holds the entries the last event wrote; the log is "
          "read page by page from GET /v1/games/{id}/events")


class Accepted(BaseModel):
    """Answer of an accepted event: the new state and the event's number."""

    state: dict[str, Any] = Field(description=_STATE)
    event: int = Field(description="the event's number in the game, from 1")


class GameView(BaseModel):
    """Answer of ``GET /v1/games/{id}``."""

    id: str
    config: dict[str, Any]
    state: dict[str, Any] = Field(description=_STATE)
    now: float = Field(description="seconds since the game was created, when this answer was "
                                   "made: with the state's clock.at, how long the running "
                                   "clock has run since")


class EventLog(BaseModel):
    """Answer of ``GET /v1/games/{id}/events``: one page of the log."""

    events: list[dict[str, Any]] = Field(description="events after+1 .. last, as stored "
                                                     "(with their time of record 'at')")
    log: list[dict[str, Any]] = Field(description="the ruling-log entries these events wrote "
                                                  "('event' counts from 0: event n is n-1)")
    after: int
    last: int = Field(description="the number of the last event in this page; ask for "
                                  "after=last for the next page")
    total: int = Field(description="the number of events of the game")


class PlayedMove(BaseModel):
    """One move of ``GET /v1/games/{id}/moves``."""

    ply: int
    player: Literal["white", "black"]
    move: str = Field(description="SAN; UCI for an illegal move that stands; '--' for a "
                                  "clock press without a move")
    standing: bool = Field(description="an illegal move that stands on the board (Article "
                                       "7.5.1): the arbiter may find it later")


class MoveList(BaseModel):
    """Answer of ``GET /v1/games/{id}/moves``: the moves after ``event`` events."""

    moves: list[PlayedMove]
    event: int


_BUDGET = ("the request's search budget (remis serve --search-nodes, --search-seconds): "
           "max_nodes, max_seconds, the nodes and seconds used, and exhausted (a search was "
           "cut short: its question is left open, never answered by a guess)")


class PgnRulings(BaseModel):
    """Answer of ``POST /v1/pgn``: one ``remis game --json`` object per game."""

    games: list[dict[str, Any]]
    budget: dict[str, Any] = Field(description=_BUDGET)


#: what each error status means: the schema says it, and so the HTTP reference
#: that the documentation builds from the schema
_WHEN: dict[int, str] = {
    400: "the body is not JSON, or the client went away before the answer",
    401: "no token, or not a token of this game (send 'Authorization: Bearer <token>')",
    403: "a token of this game that may not post this event: the other player's, or the "
         "spectator's",
    404: "no game with this id",
    409: "the game's present state refuses the event: the Laws do not allow it, "
         "expected_ply is not the game's ply, its id was used for another request, it "
         "gives 'at' in an online game, or the game has reached its limit of events "
         "(remis serve --max-events, --max-idle-events)",
    413: "the body is over 64 KiB",
    422: "a field or parameter is unknown, missing, out of range or of the wrong type, or a "
         "string is not valid Unicode",
    429: "too many searches of this client at once (remis serve --searches-per-client, "
         "--waiting-per-client); the Retry-After header says when to try again",
    503: "the database is unavailable; try again (Retry-After)",
}


def _errors(*codes: int, **when: str) -> dict[int | str, dict[str, Any]]:
    """The error answers of an endpoint, for the schema: each a :class:`Problem`,
    with what it means (``when``: a wording of its own, as ``s422="..."``).

    >>> _errors(404, s404="no such language")[404]["description"]
    'no such language'
    """
    return {code: {"model": Problem, "description": when.get(f"s{code}", _WHEN[code])}
            for code in codes}


#: the errors of posting an event
_ERRORS = _errors(400, 401, 403, 404, 409, 413, 422, 429, 503)
#: the errors of creating a game (no token, no game yet)
_CREATE_ERRORS = _errors(400, 413, 422, 503, s422=(
    f"{_WHEN[422]}, or a config the arbiter refuses (the sentence names the key)"))
#: the errors of a stateless endpoint (no token, no game, no database)
_ERRORS_429 = _errors(400, 413, 422, 429, s422=(
    f"{_WHEN[422]}, or a FEN or PGN game that cannot be read, or a claim's game or ply "
    "that is not in it"))
#: the errors of reading a game: no valid token of the game, no such game, a bad
#: query parameter (a page of the log), a Busy search of a rebuild
_READ_ERRORS = _errors(401, 404, 422, 429, 503)

#: OpenAPI links from a created game to what can be done with it (they let a
#: stateful client, e.g. schemathesis, reach real game states)
_GAME_LINKS = {name: {"operationId": op, "parameters": {"game_id": "$response.body#/id"}}
               for name, op in (("PostEvent", "post_event"), ("GetGame", "get_game"),
                                ("GetEvents", "get_events"), ("GetMoves", "get_moves"))}

#: declares the bearer tokens in the OpenAPI schema; the header itself is
#: parsed by :func:`remis.service.auth.bearer` (401 with a clear message)
_BEARER = HTTPBearer(auto_error=False, scheme_name="gameToken",
                     description="a token of the game, from POST /v1/games: white, black, "
                                 "arbiter, or spectator (read only)")


async def _token(request: Request,
                 _declared: Annotated[HTTPAuthorizationCredentials | None,
                                      Security(_BEARER)] = None) -> str | None:
    """The bearer token of the request, if any (``async``: FastAPI runs it on
    the event loop, where a plain function would cost a trip to the thread pool).

    >>> import asyncio
    >>> from starlette.requests import Request
    >>> asyncio.run(_token(Request({"type": "http",
    ...                             "headers": [(b"authorization", b"Bearer t1")]})))
    't1'
    """
    return bearer(request.headers.get("authorization"))


Token = Annotated[str | None, Depends(_token)]


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes with 413,
    whether announced by Content-Length or streamed in chunks.  The body
    (small by construction) is read first and handed on in one piece."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 when the body is too big."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_big(self.limit)(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await _too_big(self.limit)(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message | None = {"type": "http.request", "body": b"".join(chunks),
                                 "more_body": False}

        async def replay() -> Message:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()

        await self.app(scope, replay, send)


class Caller:
    """ASGI middleware: the client's address is the caller the search pools
    share their workers by (:data:`remis.service.pool.CALLER`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Set the caller for the request, pass it on."""
        client = scope.get("client")
        token = CALLER.set(str(client[0]) if client else "unknown")
        try:
            await self.app(scope, receive, send)
        finally:
            CALLER.reset(token)


def _too_big(limit: int) -> JSONResponse:
    return JSONResponse({"detail": f"request body over {limit // 1024} KiB",
                         "code": "body_too_large"}, status_code=413)


def _validation_detail(exc: RequestValidationError) -> tuple[int, str]:
    parts = []
    status = 422
    for err in exc.errors():
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        if err.get("type") == "json_invalid":
            status = 400
            ctx = err.get("ctx") or {}
            parts.append(f"malformed JSON: {ctx.get('error', err.get('msg'))} "
                         f"(at character {err.get('loc', ('', 0))[-1]})")
        elif err.get("type") == "extra_forbidden":
            parts.append(f"unknown field {loc!r}")
        elif err.get("type") == "missing" and tuple(err.get("loc", ())) == ("body",):
            parts.append("missing JSON body")
        elif err.get("type") == "missing":
            parts.append(f"missing field {loc!r}")
        else:
            parts.append(f"{loc}: {err.get('msg')}")
    return status, "; ".join(parts) or "invalid request"


class _Service(FastAPI):
    """The application, whose event requests (one a move) :class:`FastEvents`
    answers before the stack of middlewares and routing (it hands the rest on)."""

    fast: FastEvents | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request."""
        if self.fast is None:
            await super().__call__(scope, receive, send)
        else:
            await self.fast(scope, receive, send)


def create_app(db: str | Store = "sqlite:///remis.db", *, web_dist: Path = WEB_DIST,
               mate_workers: int = 1, search_workers: int = 1,
               limits: Limits | None = None) -> FastAPI:
    """The application over the store ``db`` (a URL or an open store).  The
    "can the opponent still mate?" searches of live games run in
    ``mate_workers`` worker processes (0: in the request's thread), the
    stateless endpoints' work in ``search_workers`` others (0: a thread),
    all started with the application.  ``limits``: see
    :class:`~remis.service.limits.Limits`.

    >>> app = create_app("sqlite:///:memory:")
    >>> sorted(p for r in app.routes if (p := getattr(r, "path", "")).startswith("/v1/games"))[:2]
    ['/v1/games', '/v1/games/{game_id}']
    """
    store = open_store(db) if isinstance(db, str) else db
    limits = limits or Limits()
    mates = MatePool(mate_workers, per_caller=limits.searches_per_client,
                     waiting_per_caller=limits.waiting_per_client)
    searches = SearchPool("stateless-search", search_workers,
                          per_caller=limits.searches_per_client,
                          waiting_per_caller=limits.waiting_per_client)
    games = Games(store, mate_test=mates, limits=limits)
    broadcaster = Broadcaster()
    games.listen(broadcaster.publish)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # a request waiting for a mate search holds a thread: room for all of
        # them (their number is bounded) besides the other requests
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(limiter.total_tokens, 40 + 2 * _WAITING)
        await run_in_threadpool(mates.start)
        await run_in_threadpool(searches.start)
        try:
            yield
        finally:
            mates.close()
            searches.close()
            store.close()

    app = _Service(
        lifespan=lifespan,
        title="remis",
        version=remis.__version__,
        description="End chess games the way a FIDE arbiter would: every ruling with its "
                    "article of the FIDE Laws of Chess (2023).",
        docs_url=None,  # served by remis.service.page with local Swagger UI files
        redoc_url=None,
    )
    app.state.games = games
    app.state.store = store
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(Caller)
    # the request of every move, answered before the application's stack
    app.fast = FastEvents(partial(FastAPI.__call__, app), games=games, model=Event,
                          handlers=app.exception_handlers, limit=MAX_BODY)

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        headers = ({"WWW-Authenticate": 'Bearer realm="remis"'} if exc.status == 401 else
                   {"Retry-After": str(Busy.retry_after)} if exc.status == 429 else None)
        body: dict[str, Any] = {"detail": exc.detail, "code": exc.code}
        if exc.params:
            body["params"] = exc.params
        return JSONResponse(body, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status, detail = _validation_detail(exc)
        code = "malformed_json" if status == 400 else "invalid_request"
        return JSONResponse({"detail": detail, "code": code}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code,
                                                                 f"http_{exc.status_code}")
        return JSONResponse({"detail": detail, "code": code}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
        # the operator's log has the reason; the client learns nothing of the database
        log.error("database error on %s %s: %s", request.method, request.url.path,
                  redact(str(exc), store.url))
        return JSONResponse({"detail": "database unavailable, try again",
                             "code": "database_unavailable"},
                            status_code=503, headers={"Retry-After": "1"})

    for kind in _database_errors():
        app.add_exception_handler(kind, _unavailable)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error; it has been logged",
                             "code": "internal_error"}, status_code=500)

    # -- games -------------------------------------------------------------

    @app.post("/v1/games", status_code=201, response_model=CreatedGame,
              responses={**_CREATE_ERRORS, 201: {"links": _GAME_LINKS}},
              operation_id="create_game")
    async def create_game(body: CreateGame) -> Response:
        """Create a game; the answer holds the only copy of its four tokens."""
        gid, tokens, state = await games.create_async(body.config)
        return _json({"id": gid, "tokens": tokens, "state": state}, 201)

    @app.post("/v1/games/{game_id}/events", response_model=Accepted, responses=_ERRORS,
              operation_id="post_event")
    async def post_event(game_id: str, body: Event, token: Token) -> Response:
        """Apply one event (``Authorization: Bearer <token>`` of a player or the
        arbiter); stored before the answer.  With an ``id``, a retry of the
        same request gets the same answer."""
        received = time.time()
        event = body.model_dump(exclude_none=True, exclude={"expected_ply"})
        state, n = await games.post_async(game_id, token, event, body.expected_ply,
                                          received=received)
        return _json({"state": state, "event": n})

    @app.get("/v1/games/{game_id}", response_model=GameView, responses=_READ_ERRORS,
             operation_id="get_game")
    def get_game(game_id: str, token: Token) -> dict[str, Any]:
        """The game's config and current state (any token of the game)."""
        games.reader(game_id, token)
        rec, state, _ = games.state(game_id)
        return {"id": rec.id, "config": rec.config, "state": state,
                "now": round(time.time() - rec.created, 3)}

    @app.get("/v1/games/{game_id}/events", response_model=EventLog, responses=_READ_ERRORS,
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

    @app.get("/v1/games/{game_id}/moves", response_model=MoveList, responses=_READ_ERRORS,
             operation_id="get_moves")
    def get_moves(game_id: str, token: Token) -> dict[str, Any]:
        """The moves on the arbiter's board, in order (any token of the game):
        SAN, or UCI for an illegal move that stands (``standing``, 7.5.1);
        moves cancelled when an illegal move was found later are gone."""
        games.reader(game_id, token)
        moves, n = games.moves(game_id)
        return {"moves": moves, "event": n}

    @app.get("/v1/games/{game_id}/stream", response_class=StreamingResponse, responses={
        **_READ_ERRORS,
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

    # -- stateless -----------------------------------------------------------

    async def search(request: Request, work: str, seconds: float,
                     **kwargs: Any) -> Any:
        """Run one stateless request's work in the search pool, under its
        budget; cancelled when the client goes away."""
        try:
            job = searches.submit(run_job, work, kwargs, limits.search_nodes,
                                  min(seconds, limits.search_seconds), cancelled)
        except Busy as exc:
            raise ServiceError(429, str(exc), "busy") from None
        answer = asyncio.wrap_future(job.future)
        while not (await asyncio.wait({answer}, timeout=DISCONNECT_POLL))[0]:
            if await request.is_disconnected():
                job.cancel()
                raise ServiceError(400, "the client went away; the work was cancelled",
                                   "client_gone")
        try:
            return answer.result()
        except InputError as exc:
            raise ServiceError(422, str(exc), "bad_input") from None
        except Cancelled:
            raise ServiceError(400, "the client went away; the work was cancelled",
                               "client_gone") from None

    # the stateless answers skip the response model's validation pass: for a PGN
    # text's thousand games it held the event loop 36 ms, every honest move waiting
    @app.post("/v1/position", responses=_ERRORS_429, response_model=dict[str, Any])
    async def position(body: PositionRequest, request: Request) -> Response:
        """The same JSON as ``remis position --json``, and the ``budget`` (its
        searches are bounded by the request's ``max_seconds`` and the
        server's budget)."""
        out, budget = await search(request, "position", body.max_seconds, fen=body.fen,
                                   quick=body.quick, max_seconds=body.max_seconds)
        return _json({**out, "budget": budget})

    @app.post("/v1/pgn", response_model=PgnRulings, responses=_ERRORS_429)
    async def pgn(body: PgnRequest, request: Request) -> Response:
        """``{"games": [...], "budget": {...}}``, each game the same JSON as a
        line of ``remis game --json``; all the games' searches share one budget."""
        games_out, budget = await search(request, "pgn", limits.search_seconds, pgn=body.pgn)
        return _json({"games": games_out, "budget": budget})

    @app.post("/v1/claim", responses=_ERRORS_429, response_model=dict[str, Any])
    async def claim(body: ClaimRequest, request: Request) -> Response:
        """The same JSON as ``remis claim --json``, and the ``budget``."""
        out, budget = await search(request, "claim", limits.search_seconds, pgn=body.pgn,
                                   game=body.game, ply=body.ply, move=body.move,
                                   kind=body.kind, mode=body.mode)
        return _json({**out, "budget": budget})

    # -- web page and translations ---------------------------------------------

    @app.get("/v1/i18n/{lang}", responses=_errors(
        404, 422, s404="no translations for this language, or none in this build"))
    def i18n(lang: str) -> dict[str, str]:
        """``{msgid: translation}`` for the web page (lang: en, cs, pl)."""
        if lang not in LANGS:
            raise ServiceError(404, f"no translations for {lang!r} (use {', '.join(LANGS)})",
                               "no_language")
        try:
            module = import_module("remis.i18n.catalog")
            catalogue: Callable[[str], dict[str, str]] = module.catalogue
        except (ImportError, AttributeError):
            raise ServiceError(404, "translations are not installed in this build",
                               "no_translations") from None
        return catalogue(lang)

    # errors stay JSON (Problem); only the 200 answer is PGN text
    @app.get("/v1/games/{game_id}/pgn", response_model=None, responses={
        **_READ_ERRORS,
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

    app.include_router(newgame_router)
    mount_page(app, web_dist)

    return app


def _database_errors() -> list[type[Exception]]:
    """The exceptions meaning "the database failed", answered with 503.

    >>> StoreError in _database_errors()
    True
    """
    kinds: list[type[Exception]] = [StoreError, sqlite3.OperationalError, queue.Empty]
    try:
        import psycopg

        kinds.append(psycopg.OperationalError)
    except ImportError:  # pragma: no cover - the service extra brings psycopg
        pass
    return kinds


def _json(obj: Any, status: int = 200) -> Response:
    """A JSON response without a second validation pass (the hot path)."""
    return Response(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode(),
                    status_code=status, media_type="application/json")


def _sse(n: int, state: dict[str, Any]) -> str:
    return f"id: {n}\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"

"""The other requests of a live game, answered without FastAPI's routing,
dependency and validation machinery, as :mod:`remis.service.fast_events`
answers its moves: the creation (``POST /v1/games``), the state (``GET
/v1/games/{id}``) and a page of the log (``GET /v1/games/{id}/events``).
Through the application's stack each cost several times the work it asks
for.

:class:`FastGames` takes an ordinary request: a creation whose JSON body the
route's model accepts (under the body limit), a read without a body whose
query string it understands whole (none for the state; ``after`` and
``limit``, each at most once, plain integers within the route's bounds, for
the log).  It does the route's work (:meth:`~remis.service.games.Games.
create_async`, :meth:`~remis.service.games.Games.view_async`,
:meth:`~remis.service.games.Games.events_async`: a read runs on the event
loop only where it cannot wait, and a long page of the log is read and
written in a thread) and answers the route's bytes: the same
JSON, the read answers serialized by their response models as FastAPI does,
the same headers, a refusal through the app's own handler.  Anything else
(another method or path, HEAD, a query string it does not know, a body it
does not take) goes on to the app unchanged, so that its answers, errors
included, stay the route's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import anyio.to_thread
from pydantic import TypeAdapter
from starlette.types import ASGIApp, Receive, Scope, Send

from remis.service.auth import bearer
from remis.service.fast_events import (
    Handler,
    answer,
    compact,
    first_headers,
    ordinary_body,
    refuse,
)
from remis.service.games import LOOP_PAGE, Games
from remis.service.middleware import scope_caller
from remis.service.pool import CALLER
from remis.service.routes.games import MAX_PAGE
from remis.service.schemas import CreateGame, EventLog, GameView

_GAME = re.compile(r"/v1/games/([^/]+)(/events)?")
#: a parameter of the log's page: its name and a plain integer (no sign, no leading zero)
_PARAM = re.compile(rb"(after|limit)=(0|[1-9][0-9]{0,9})")
#: the bounds of the page's parameters, as the route declares them
_BOUNDS = {b"after": (0, 2**31), b"limit": (1, MAX_PAGE)}
_VIEW = TypeAdapter(GameView)
_LOG = TypeAdapter(EventLog)


class FastGames:
    """ASGI middleware: ordinary creations and reads of games answered
    directly (see the module's docstring).  ``handlers`` are the app's
    exception handlers, ``limit`` its body limit in bytes."""

    def __init__(self, app: ASGIApp, games: Games, handlers: Mapping[Any, Handler],
                 limit: int) -> None:
        self.app = app
        self.games = games
        self.handlers = handlers
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer an ordinary creation or read, or pass the request on."""
        if scope["type"] == "http":
            method = scope["method"]
            if method == "GET":
                match = _GAME.fullmatch(scope["path"])
                if match is not None:
                    log = match.group(2) is not None
                    page = query(scope["query_string"]) if log else (
                        None if scope["query_string"] else {})
                    headers = first_headers(scope)
                    if page is not None and _no_body(headers):
                        await self._read(scope, send, match.group(1), headers, log, page)
                        return
            elif method == "POST" and scope["path"] == "/v1/games":
                await self._create(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _create(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The creation route's work and answer, or the request passed on."""
        request, receive = await ordinary_body(CreateGame, first_headers(scope), receive,
                                               self.limit)
        if request is None:
            await self.app(scope, receive, send)
            return
        caller = CALLER.set(scope_caller(scope))
        try:
            gid, tokens, state = await self.games.create_async(request.config)
        except Exception as exc:
            await refuse(self.handlers, scope, send, exc)
            return
        finally:
            CALLER.reset(caller)
        await answer(send, 201, compact({"id": gid, "tokens": tokens, "state": state}))

    async def _read(self, scope: Scope, send: Send, game_id: str,
                    headers: Mapping[bytes, bytes], log: bool, page: dict[str, int]) -> None:
        """A read route's work and answer: a page of the ``log`` (``page``:
        its query parameters), or the game's state."""
        token = bearer(headers.get(b"authorization", b"").decode("latin-1"))
        caller = CALLER.set(scope_caller(scope))
        try:
            if log:
                model: TypeAdapter[Any] = _LOG
                content = await self.games.events_async(game_id, token, **page)
            else:
                model = _VIEW
                content = await self.games.view_async(game_id, token)
        except Exception as exc:
            await refuse(self.handlers, scope, send, exc)
            return
        finally:
            CALLER.reset(caller)
        if log and len(content["events"]) > LOOP_PAGE:  # a long page: off the loop
            await answer(send, 200, await anyio.to_thread.run_sync(_dumped, model, content))
        else:
            await answer(send, 200, _dumped(model, content))


def query(text: bytes) -> dict[str, int] | None:
    """The parameters of a log page's query string, or None where the
    route's own parsing is needed: an unknown or repeated parameter, a value
    that is not a plain integer or is out of the route's bounds, any escape.

    >>> query(b""), query(b"after=3&limit=10"), query(b"limit=1000")
    ({}, {'after': 3, 'limit': 10}, {'limit': 1000})
    >>> [query(q) for q in (b"after=1&after=2", b"limit=0", b"after=-1", b"after=01",
    ...                     b"limit=1001", b"x=1", b"after=1&", b"after=%31")]
    [None, None, None, None, None, None, None, None]
    """
    out: dict[str, int] = {}
    if not text:
        return out
    for part in text.split(b"&"):
        match = _PARAM.fullmatch(part)
        if match is None:
            return None
        name, value = match.group(1), int(match.group(2))
        low, high = _BOUNDS[name]
        key = name.decode()
        if key in out or not low <= value <= high:
            return None
        out[key] = value
    return out


def _dumped(model: TypeAdapter[Any], content: Any) -> bytes:
    """``content`` validated and dumped by the response ``model``, as FastAPI
    does: the route's bytes."""
    return model.dump_json(model.validate_python(content), by_alias=True)


def _no_body(headers: Mapping[bytes, bytes]) -> bool:
    """Whether the request says it has no body (a body, even a GET's, is the stack's)."""
    return (headers.get(b"content-length", b"0") == b"0"
            and b"transfer-encoding" not in headers)


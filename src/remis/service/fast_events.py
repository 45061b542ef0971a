"""The one request a live game sends with every move, ``POST
/v1/games/{id}/events``, answered without FastAPI's routing, dependency and
validation machinery, which cost more than the event itself.

:class:`FastEvents` takes an ordinary request (a JSON body that the route's
model accepts, under the body limit): it validates the body with the same
model (a move's plain body is read as the model would read it, by
:func:`remis.service.schemas.plain_event`), posts the event
(:meth:`remis.service.games.Games.post_async`) and answers what the route
answers, a refusal through the app's own handler.  Anything else (a
malformed or unknown body, another content type, a body over the limit)
goes on to the app unchanged, body and all, so that its answers, errors
included, stay the route's: a request costs its own work and the
application's stack only where it needs it.  The client behind a trusted
proxy is known before (:func:`remis.service.middleware.outer`); the caller
and the anti-framing headers, which the layers of the stack give the other
requests (:func:`remis.service.middleware.stacked`), it sets itself.  The
pieces of that (a body taken or handed on, an answer, a refusal) serve the
other requests of a live game too (:mod:`remis.service.fast_games`).
"""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import to_json
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from remis.service.auth import bearer
from remis.service.games import Games
from remis.service.middleware import FRAMING_HEADERS, framing, receive_with, scope_caller
from remis.service.pool import CALLER
from remis.service.schemas import plain_event

_PATH = re.compile(r"/v1/games/([^/]+)/events")
_JSON = (b"application/json", b"application/json; charset=utf-8")
#: the answer's compact UTF-8 JSON: pydantic's encoder, at a third of the standard
#: library's cost on a move's state, writes the same text for it (they differ only in
#: the notation of numbers under 1e-4, and times are to the millisecond)
compact = to_json
#: an exception handler of the app: ``(request, exc) -> response``
Handler = Callable[[Request, Exception], Any]
_Model = TypeVar("_Model", bound=BaseModel)


class FastEvents:
    """ASGI middleware: ordinary move, offer, claim... requests to a game
    answered directly (see the module's docstring).  ``model`` is the
    route's body model (with ``expected_ply``), ``handlers`` the app's
    exception handlers, ``limit`` its body limit in bytes."""

    def __init__(self, app: ASGIApp, games: Games, model: type[BaseModel],
                 handlers: Mapping[Any, Handler], limit: int) -> None:
        self.app = app
        self.games = games
        self.model = model
        self.handlers = handlers
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer an ordinary event request, or pass the request on."""
        match = None
        if scope["type"] == "http" and scope["method"] == "POST":
            match = _PATH.fullmatch(scope["path"])
        if match is None:
            await self.app(scope, receive, send)
            return
        received = time.time()
        headers = first_headers(scope)
        body, receive = await json_body(headers, receive, self.limit)
        data = None if body is None else self._event(body)
        if data is None:
            await self.app(scope, receive, send)
            return
        caller = CALLER.set(scope_caller(scope))
        try:
            await self._post(scope, send, match.group(1), data,
                             bearer(headers.get(b"authorization", b"").decode("latin-1")),
                             received)
        finally:
            CALLER.reset(caller)

    def _event(self, body: bytes) -> dict[str, Any] | None:
        """The event of a JSON ``body`` as the route's model reads it, else None."""
        data = plain_event(body)
        if data is None:
            event = valid(self.model, body)
            data = None if event is None else event.model_dump(exclude_none=True)
        return data

    async def _post(self, scope: Scope, send: Send, game_id: str, data: dict[str, Any],
                    token: str | None, received: float) -> None:
        """The route's work and answer."""
        expected = data.pop("expected_ply", None)
        try:
            state, n = await self.games.post_async(game_id, token, data, expected,
                                                   received=received)
        except Exception as exc:
            await refuse(self.handlers, scope, send, exc)
            return
        await answer(send, 200, compact({"state": state, "event": n}))


def last_resort(handlers: Mapping[Any, Handler]) -> Handler | None:
    """The app's handler of any other exception (a 500), if it has one."""
    return handlers.get(Exception) or handlers.get(500)


def handler_of(handlers: Mapping[Any, Handler], exc: Exception) -> Handler | None:
    """The app's handler of ``exc``'s class or nearest base."""
    for cls in type(exc).__mro__:
        if cls is Exception:
            break
        handler = handlers.get(cls)
        if handler is not None:
            return handler
    return last_resort(handlers)


async def refuse(handlers: Mapping[Any, Handler], scope: Scope, send: Send,
                 exc: Exception) -> None:
    """Answer ``exc`` as the app's stack does: with its handler among
    ``handlers`` and the anti-framing headers; an exception that only the
    last resort handles (or none) is raised again after the answer, so that
    the server logs it."""
    handler = handler_of(handlers, exc)
    if handler is None:
        raise exc
    response = handler(Request(scope), exc)
    if inspect.isawaitable(response):
        response = await response
    await response(scope, _no_body, framing(send))
    if handler is last_resort(handlers):
        raise exc  # as the application's stack does, so that the server logs it


async def answer(send: Send, status: int, payload: bytes) -> None:
    """Send a JSON answer as the stack would (with the anti-framing headers)."""
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(payload)).encode()),
                            (b"content-type", b"application/json"), *FRAMING_HEADERS]})
    await send({"type": "http.response.body", "body": payload})


def first_headers(scope: Scope) -> dict[bytes, bytes]:
    """The request's headers by name, the first of a repeated one (as Starlette reads them).

    >>> first_headers({"headers": [(b"a", b"1"), (b"a", b"2")]})
    {b'a': b'1'}
    """
    headers: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        headers.setdefault(name, value)
    return headers


async def ordinary_body(model: type[_Model], headers: Mapping[bytes, bytes], receive: Receive,
                        limit: int) -> tuple[_Model | None, Receive]:
    """The request's JSON body as ``model`` accepts it, or None where the
    route is to read it (another content type, a body ``model`` refuses, one
    over ``limit`` bytes or cut short), and the ``receive`` that hands the
    body on to the route."""
    body, receive = await json_body(headers, receive, limit)
    return (None if body is None else valid(model, body)), receive


async def json_body(headers: Mapping[bytes, bytes], receive: Receive,
                    limit: int) -> tuple[bytes | None, Receive]:
    """The request's whole JSON body, or None where the route is to read it
    (another content type, a body over ``limit`` bytes or cut short), and
    the ``receive`` that hands the body on to the route."""
    body, whole = await _read_body(receive, limit)
    ok = whole and headers.get(b"content-type", b"").lower() in _JSON
    return (body if ok else None), receive_with(body, whole, receive)


def valid(model: type[_Model], body: bytes) -> _Model | None:
    """The JSON ``body`` as ``model`` accepts it, else None (the route words every error)."""
    try:  # parsed and validated in one pass
        return model.model_validate_json(body)
    except (ValueError, ValidationError):
        return None


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The request's body up to ``limit`` bytes, and whether that is all of it."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return b"".join(chunks), False
        if not message.get("more_body", False):
            return b"".join(chunks), True


async def _no_body() -> Message:
    return {"type": "http.disconnect"}

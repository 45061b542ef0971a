"""The service's ASGI middleware: what every request goes through before
its endpoint (the body's size, the caller's identity for the search pools)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from remis.service.pool import CALLER

#: the largest request body accepted (bytes)
MAX_BODY = 64 * 1024


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
    return JSONResponse({"detail": f"request body over {limit // 1024} KiB"}, status_code=413)


def add_middleware(app: FastAPI) -> None:
    """Put the service's middleware around ``app``: the caller is known before
    the body is read (the last added runs first).

    >>> app = FastAPI()
    >>> add_middleware(app)
    >>> [m.cls.__name__ for m in app.user_middleware]
    ['Caller', 'BodyLimit']
    """
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(Caller)

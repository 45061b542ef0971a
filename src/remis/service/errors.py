"""How the service answers a refusal or a failure: every error is a 4xx
with ``{"detail": "a clear message", "code": "a_stable_name"}`` and, where
a translation of the code needs them, ``params`` (the
:class:`~remis.service.problem.Problem` body; the codes are listed in
:mod:`remis.service.codes`); a database failure is a 503 whose reason only
the operator's log sees; an unexpected exception is logged and answered
with a 500 only as the last resort."""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from remis.service.games import ServiceError
from remis.service.pool import Busy
from remis.service.store import StoreError, redact

log = logging.getLogger("remis.service")


def add_error_handlers(app: FastAPI, store_url: str | None = None) -> None:
    """Answer every exception of ``app``'s endpoints as a ``Problem``;
    ``store_url`` is the database's URL, whose password a logged database
    error never shows.

    >>> app = FastAPI()
    >>> add_error_handlers(app)
    >>> ServiceError in app.exception_handlers and Exception in app.exception_handlers
    True
    """
    app.add_exception_handler(ServiceError, _service_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http)  # type: ignore[arg-type]

    async def unavailable(request: Request, exc: Exception) -> JSONResponse:
        # the operator's log has the reason; the client learns nothing of the database
        log.error("database error on %s %s: %s", request.method, request.url.path,
                  redact(str(exc), store_url))
        return JSONResponse({"detail": "database unavailable, try again",
                             "code": "database_unavailable"},
                            status_code=503, headers={"Retry-After": "1"})

    for kind in database_errors():
        app.add_exception_handler(kind, unavailable)
    app.add_exception_handler(Exception, _unexpected)


async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
    headers = ({"WWW-Authenticate": 'Bearer realm="remis"'} if exc.status == 401 else
               {"Retry-After": str(Busy.retry_after)} if exc.status == 429 else None)
    body: dict[str, Any] = {"detail": exc.detail, "code": exc.code}
    if exc.params:
        body["params"] = exc.params
    return JSONResponse(body, status_code=exc.status, headers=headers)


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    status, detail = validation_detail(exc)
    code = "malformed_json" if status == 400 else "invalid_request"
    return JSONResponse({"detail": detail, "code": code}, status_code=status)


async def _http(request: Request, exc: StarletteHTTPException) -> Response:
    headers = getattr(exc, "headers", None)
    if exc.status_code == 405:
        # the router names the methods of the first route of the path only (the
        # events path has two: GET reads the log, POST adds an event)
        allow = ", ".join(allowed_methods(request.app, request.url.path))
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={"Allow": allow})
        headers = {**(headers or {}), "Allow": allow}
    detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code,
                                                             f"http_{exc.status_code}")
    return JSONResponse({"detail": detail, "code": code}, status_code=exc.status_code,
                        headers=headers)


def allowed_methods(app: Any, path: str) -> list[str]:
    """Every method some route of ``app`` answers on ``path``, and OPTIONS
    (answered for every path that has a route: with these methods).

    >>> from remis.service.app import create_app
    >>> allowed_methods(create_app("sqlite:///:memory:", mate_workers=0), "/v1/games/g1/events")
    ['GET', 'OPTIONS', 'POST']
    """
    methods = {"OPTIONS"}
    pending = list(app.router.routes)
    while pending:
        route = pending.pop()
        inner = getattr(route, "original_router", None)  # an included router, not flattened
        if inner is not None:
            pending.extend(inner.routes)
        elif getattr(route, "methods", None) and route.path_regex.match(path):
            methods |= set(route.methods)
    return sorted(methods)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return JSONResponse({"detail": "internal error; it has been logged",
                         "code": "internal_error"}, status_code=500)


def validation_detail(exc: RequestValidationError) -> tuple[int, str]:
    """The status (400 for malformed JSON, else 422) and the one-line detail
    of a request that does not fit its schema.

    >>> validation_detail(RequestValidationError([
    ...     {"type": "extra_forbidden", "loc": ("body", "colour"), "msg": "x"},
    ...     {"type": "missing", "loc": ("body", "fen"), "msg": "x"}]))
    (422, "unknown field 'colour'; missing field 'fen'")
    """
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


def database_errors() -> list[type[Exception]]:
    """The exceptions meaning "the database failed", answered with 503.

    >>> StoreError in database_errors()
    True
    """
    kinds: list[type[Exception]] = [StoreError, sqlite3.OperationalError, queue.Empty]
    try:
        import psycopg

        kinds.append(psycopg.OperationalError)
    except ImportError:  # pragma: no cover - the service extra brings psycopg
        pass
    return kinds

"""The FastAPI application: HTTP around :mod:`remis.service.games` and
:mod:`remis.service.stateless`, put together from named steps: the
:class:`~remis.service.routes.common.Services` (store, games, search pools),
the middleware (:mod:`remis.service.middleware`), the error answers
(:mod:`remis.service.errors`), one router per resource
(:mod:`remis.service.routes`, and :mod:`remis.service.newgame`) and the web
page (:mod:`remis.service.page`).  The requests a live game makes are
answered before the application's stack, which passes them on only where
they are unusual: every move (:mod:`remis.service.fast_events`), its
creation and its reads, the state and the log's pages
(:mod:`remis.service.fast_games`).

Every error is a 4xx with ``{"detail": "a clear message", "code":
"a_stable_name"}`` (and ``params``, the details a translation of the code
needs): malformed JSON
(400), unknown or mistyped fields (422), bodies over
:data:`~remis.service.middleware.MAX_BODY` (413), bad tokens (401/403),
unknown games (404), events refused in the game's present state: by the
Laws, over a limit, a stale ``expected_ply`` (409); too many searches at
once (429).  A game is read (state, events, stream) with any of its tokens,
``Authorization: Bearer <token>``: the players', the arbiter's or the
read-only spectator token handed out at creation.  An unexpected exception
is logged and answered with a 500 only as the last resort.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import partial
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRouter
from starlette.types import ASGIApp, Receive, Scope, Send

import remis
from remis.service.errors import add_error_handlers
from remis.service.fast_events import FastEvents
from remis.service.fast_games import FastGames
from remis.service.limits import Limits
from remis.service.middleware import MAX_BODY, BodyLimit, outer, stacked
from remis.service.newgame import router as newgame_router
from remis.service.page import mount_page
from remis.service.routes import games, searches, translations
from remis.service.routes.common import Services
from remis.service.schemas import Event
from remis.service.store import Store

#: where the web engineer's built page lives
WEB_DIST = Path(__file__).resolve().parent / "web" / "dist"
#: most mate searches waiting in all (each holds a request's thread)
_WAITING = 64
#: the routers of the API, each built from the application's services
ROUTERS: tuple[Callable[[Services], APIRouter], ...] = (
    games.router, searches.router, translations.router, lambda _: newgame_router)


class Service(FastAPI):
    """The application: every request passes the outer layer
    (:func:`~remis.service.middleware.outer`), then an ordinary request of a
    live game (an event, one a move; its creation, state and log) is
    answered by :attr:`fast` before the stack of middlewares and routing
    (:attr:`stack`), which gets the rest (and every request when
    :attr:`fast` is None)."""

    #: the answerer of a live game's requests: the events', then the others'
    #: (:class:`~remis.service.fast_games.FastGames`)
    fast: FastEvents | None = None
    #: the outer layer around :meth:`inner`
    layers: ASGIApp | None = None
    #: the layers of :func:`~remis.service.middleware.stacked` around the application's own
    stack: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request."""
        await (self.layers or self.inner)(scope, receive, send)

    async def inner(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request inside the outer layer."""
        await (self.fast or self.stack or super().__call__)(scope, receive, send)


def create_app(db: str | Store = "sqlite:///remis.db", *, web_dist: Path = WEB_DIST,
               mate_workers: int = 1, search_workers: int = 1,
               limits: Limits | None = None,
               forwarded_allow_ips: list[str] | str | None = None) -> Service:
    """The application over the store ``db`` (a URL or an open store).  The
    "can the opponent still mate?" searches of live games run in
    ``mate_workers`` worker processes (0: in the request's thread), the
    stateless endpoints' work in ``search_workers`` others (0: a thread),
    all started with the application.  ``limits``: see
    :class:`~remis.service.limits.Limits`.  ``forwarded_allow_ips``: the
    reverse proxies whose ``X-Forwarded-For`` names the client (see
    :func:`~remis.service.middleware.trusted_proxies`; none by default).

    >>> app = create_app("sqlite:///:memory:")
    >>> sorted(app.openapi()["paths"])[:3]
    ['/v1/claim', '/v1/games', '/v1/games/{game_id}']
    """
    services = Services.open(db, mate_workers=mate_workers, search_workers=search_workers,
                             limits=limits)
    app = Service(
        lifespan=lifespan(services),
        title="remis",
        version=remis.__version__,
        description="End chess games the way a FIDE arbiter would: every ruling with its "
                    "article of the FIDE Laws of Chess (2023).",
        docs_url=None,  # served by remis.service.page with local Swagger UI files
        redoc_url=None,
    )
    app.state.games = services.games
    app.state.store = services.store
    app.layers = outer(app.inner, forwarded_allow_ips)
    app.stack = stacked(partial(FastAPI.__call__, app))
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    add_error_handlers(app, services.store.url)
    others = FastGames(app.stack, games=services.games, handlers=app.exception_handlers,
                       limit=MAX_BODY)
    app.fast = FastEvents(others, games=services.games, model=Event,
                          handlers=app.exception_handlers, limit=MAX_BODY)
    for router in ROUTERS:
        app.include_router(router(services))
    mount_page(app, web_dist)
    return app


def lifespan(services: Services) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The application's start and end: the worker processes start before the
    first request and stop, with the store, after the last.

    >>> import asyncio
    >>> services = Services.open("sqlite:///:memory:", mate_workers=0, search_workers=0)
    >>> async def run():
    ...     async with lifespan(services)(FastAPI()):
    ...         return services.games.create({})[2]["ply"]
    >>> asyncio.run(run())
    0
    """

    @asynccontextmanager
    async def span(app: FastAPI) -> AsyncIterator[None]:
        # a request waiting for a mate search holds a thread: room for all of
        # them (their number is bounded) besides the other requests
        limiter = anyio.to_thread.current_default_thread_limiter()
        limiter.total_tokens = max(limiter.total_tokens, 40 + 2 * _WAITING)
        await run_in_threadpool(services.start)
        try:
            yield
        finally:
            services.close()

    return span

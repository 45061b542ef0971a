"""What every router of the API is built from: the :class:`Services` of one
application, the bearer token of a request, and an answer serialized once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request, Response, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from remis.service.auth import bearer
from remis.service.games import Games
from remis.service.limits import Limits
from remis.service.mates import MatePool
from remis.service.pool import SearchPool
from remis.service.store import Store, open_store
from remis.service.stream import Broadcaster

#: niceness added to the first-pass worker: its jobs are small, and a client gets
#: them only within :data:`FIRST_PASS_ALLOWANCE`, so it may run before the searches
#: (at the searches' 19, a machine busy with other work left an honest first pass
#: waiting seconds)
FIRST_PASS_NICE = 5
#: CPU seconds of first passes a client address may have had lately (halved every
#: 10 s: about 1.4% of a core, held over time); past it, its work goes straight to
#: the searches' workers
FIRST_PASS_ALLOWANCE = 0.2


@dataclass
class Services:
    """The parts of one running service the endpoints use: the store, the
    live games, the streams' broadcaster, the search pools (the first
    passes', the live games' mate searches, the stateless endpoints') and
    the limits."""

    store: Store
    games: Games
    broadcaster: Broadcaster
    first: SearchPool
    mates: MatePool
    searches: SearchPool
    limits: Limits

    @classmethod
    def open(cls, db: str | Store, *, mate_workers: int = 1, search_workers: int = 1,
             limits: Limits | None = None) -> Services:
        """The services over the store ``db`` (a URL or an open store): the
        "can the opponent still mate?" searches of live games in
        ``mate_workers`` worker processes (0: in the request's thread), the
        stateless endpoints' work in ``search_workers`` others (0: a thread),
        the first passes of both in one more (a thread when both are 0);
        none is started yet (:meth:`start`).

        >>> services = Services.open("sqlite:///:memory:", mate_workers=0, search_workers=0)
        >>> services.limits.search_seconds, services.store.url
        (5.0, 'sqlite:///:memory:')
        """
        store = open_store(db) if isinstance(db, str) else db
        limits = limits or Limits()
        shared = {"per_caller": limits.searches_per_client,
                  "waiting_per_caller": limits.waiting_per_client}
        first = SearchPool("first-pass", 1 if mate_workers > 0 or search_workers > 0 else 0,
                           nice=FIRST_PASS_NICE, allowance=FIRST_PASS_ALLOWANCE, **shared)
        mates = MatePool(mate_workers, first=first, first_nodes=limits.first_pass_nodes,
                         **shared)
        searches = SearchPool("stateless-search", search_workers, **shared)
        games = Games(store, mate_test=mates, limits=limits)
        broadcaster = Broadcaster()
        games.listen(broadcaster.publish)
        return cls(store, games, broadcaster, first, mates, searches, limits)

    def start(self) -> None:
        """Start the worker processes (they import the engine first).  Where
        the first passes' worker cannot start, every search waits for the
        whole budget."""
        if self.limits.first_pass_nodes > 0:
            self.first.try_start("every search waits for the whole budget")
        self.mates.start()
        self.searches.start()
        # a game to read that is not in memory is rebuilt by a mate-search worker
        self.games.readers = self.mates.workers

    def close(self) -> None:
        """Stop the workers and close the store."""
        self.games.readers = None
        self.mates.close()
        self.first.close()
        self.searches.close()
        self.store.close()


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


#: an endpoint's parameter: the request's bearer token, or None
Token = Annotated[str | None, Depends(_token)]


def json_response(obj: Any, status: int = 200) -> Response:
    """A JSON response without a second validation pass (the hot path).

    >>> json_response({"a": "é"}).body
    b'{"a":"\\xc3\\xa9"}'
    """
    return Response(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode(),
                    status_code=status, media_type="application/json")

"""Live games behind the HTTP API: each event is checked (token, role,
expected ply), applied by the arbiter and stored, one at a time per game.

The arbiter decides every rule; this module only keeps one
:class:`~remis.arbiter.Arbiter` per game in memory (rebuilt from the stored
event log whenever it is missing or behind, e.g. after a restart or when
another service instance appended events), and makes sure an event is
committed to the store before it is acknowledged.  The service posts
events and creates games from its event loop (:meth:`Games.post_async`,
:meth:`Games.create_async`): the work runs there and the commit is awaited,
and only what would make the loop wait (a mate search, a rebuild, a busy
game, a store that writes in the caller's thread) runs in a thread.

What a hostile client could grow is bounded (:class:`~remis.service.limits.Limits`): events per
game and between two moves, and the bytes of the games kept in memory (by
sizes measured per kind of event: :data:`EVENT_BYTES`).  A game to read
that is not in memory is rebuilt, and its answer made, in a worker process
where the service has one (:attr:`Games.readers`): replaying a long game
takes a fraction of a second of CPU, which the event loop's process would
take from every other request.  A
client's event ``id`` is an idempotency key: the same ``id`` with the same
request gets the first answer again, with another request a 409.  The time
of record comes from :func:`remis.service.timing.time_of_record`.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

import anyio.to_thread
import chess

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.base import MateTest
from remis.service.auth import ROLES, hash_token, new_token, refusal, role_of
from remis.service.limits import Limits
from remis.service.moves import move_list
from remis.service.pool import Busy, SearchPool
from remis.service.store import EventKey, GameRecord, KeyTaken, SeqTaken, Store
from remis.service.timing import time_of_record
from remis.unwinnable import Verdict


class ServiceError(Exception):
    """A request the service refuses; ``status`` is the HTTP status,
    ``detail`` the sentence shown to the client, ``code`` a stable name of
    the reason (clients translate it; it is in every error body)
    and ``params`` the details a translation needs.

    >>> e = ServiceError(404, "no game 'x'", "no_game")
    >>> e.detail, e.code
    ("no game 'x'", 'no_game')
    """

    def __init__(self, status: int, detail: str, code: str,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.code = code
        self.params = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (it comes back from worker processes).

        >>> import pickle
        >>> e = pickle.loads(pickle.dumps(ServiceError(409, "x", "stale_ply", {"ply": 2})))
        >>> e.status, e.code, e.params
        (409, 'stale_ply', {'ply': 2})
        """
        return (ServiceError, (self.status, self.detail, self.code, self.params))


class WouldWait(Exception):
    """Raised where the event loop would have to wait (a mate search, a
    game to rebuild from the store, events another writer stored): the
    request is then run in a thread.  It comes before any write, and what
    was done is undone (the arbiter restores its state)."""


#: set while the event loop runs a request's own work (see :meth:`Games.post_async`)
_on_loop = threading.local()


class _LoopStep:
    """``with _loop_step:`` runs a step of a request on the event loop: where
    it would wait, it raises :class:`WouldWait`.  A class, not a generator
    context manager: it is entered three times a move, and a generator's
    set-up cost more than the step's own checks."""

    __slots__ = ()

    def __enter__(self) -> None:
        _on_loop.active = True

    def __exit__(self, *exc: object) -> None:
        _on_loop.active = False


_loop_step = _LoopStep()


def _must_not_wait(what: str) -> None:
    if getattr(_on_loop, "active", False):
        raise WouldWait(what)


#: the events a player may repeat without changing the board or ending the game:
#: refused after ``Limits.between_moves`` events in a row without a move
IDLE_EVENTS = frozenset({"touch", "offer_draw", "decline_draw", "claim", "request"})

#: the most events of a page of the log read on the event loop: a longer page (its
#: rows read, decoded and answered) is read in a thread, not to hold the loop up
LOOP_PAGE = 100

#: estimated bytes of a game in memory: its record and its arbiter before any event
GAME_BYTES = 16 * 1024
#: estimated bytes each event applied adds (its copy, the ruling-log entries it wrote
#: and, for a move, a ply of history in the compiled core), by type: measured
#: (tests/service/test_cache.py checks they hold); a claim writes the longest entries
EVENT_BYTES = {"move": 1280, "claim": 3584}
#: estimated bytes of an event of another type
OTHER_EVENT_BYTES = 1280


@dataclass
class _Live:
    """A game in memory: its record, its arbiter, how many stored events
    the arbiter has applied, and how many of the last ones in a row left
    the board as it was."""

    record: GameRecord
    arbiter: Arbiter
    applied: int = 0
    idle: int = 0
    #: the estimated bytes of the events applied
    events_bytes: int = 0
    #: the bytes the cache counts for it (its size when last remembered)
    counted: int = 0

    def accept(self, event: dict[str, Any]) -> None:
        """Apply the next stored event (:class:`RefusedEvent` if the arbiter
        refuses it; nothing changes then)."""
        ply = self.arbiter.history.ply
        self.arbiter.accept(event)
        self.applied += 1
        self.idle = 0 if self.arbiter.history.ply != ply else self.idle + 1
        self.events_bytes += EVENT_BYTES.get(str(event.get("type")), OTHER_EVENT_BYTES)

    @property
    def bytes(self) -> int:
        """The estimated memory of the game (see :data:`EVENT_BYTES`)."""
        return GAME_BYTES + self.events_bytes

    def view(self) -> dict[str, Any]:
        """The state of an answer: the arbiter's state without its whole
        ruling log, and ``rulings``, the entries the last event wrote."""
        n = self.applied
        # the state is built afresh for this answer: it takes the key in place
        out = cast("dict[str, Any]", self.arbiter.state(log=False))
        out["rulings"] = self.arbiter.rulings(max(n - 1, 0), n)
        return out


@dataclass
class _Request:
    """An event request whose token was checked: its game, the poster's
    role, the event without its ``at``, the ``at`` the poster gave, its
    idempotency key, the ``expected_ply`` and the Unix time it was received."""

    record: GameRecord
    role: str
    event: dict[str, Any]
    claimed: float | None
    key: EventKey | None
    expected_ply: int | None
    received: float


Listener = Callable[[str, int, dict[str, Any]], None]
#: an event to store: game id, number, event, idempotency key (:meth:`Store.append`'s arguments)
_Append = tuple[str, int, dict[str, Any], EventKey | None]
_T = TypeVar("_T")


class Games:
    """The games of one service instance over a :class:`Store`.

    >>> from remis.service.store import open_store
    >>> games = Games(open_store("sqlite:///:memory:"), clock=lambda: 100.0)
    >>> gid, tokens, state = games.create({"time_control": "300+2", "mode": "blitz"})
    >>> state, n = games.post(gid, tokens["white"], {"type": "move", "player": "white",
    ...                                              "move": "e4", "at": 3.0})
    >>> n, state["ply"], state["to_move"]
    (1, 1, 'black')
    >>> games.post(gid, tokens["white"], {"type": "move", "player": "black", "move": "e5"})
    Traceback (most recent call last):
    ...
    remis.service.games.ServiceError: the white token cannot move for black
    """

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 limits: Limits | None = None, mate_test: MateTest | None = None) -> None:
        self.store = store
        #: runs the arbiters' "can the opponent still mate?" search (default: in the
        #: calling thread; the service passes a :class:`~remis.service.mates.MatePool`)
        self._mate_test = mate_test
        self._clock = clock
        self.limits = limits or Limits()
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._cache_bytes = 0
        self._cache_lock = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._listeners: list[Listener] = []
        #: worker processes that rebuild a game to read which is not in memory, and
        #: make the answer (None: this process does); set once they are started
        self.readers: SearchPool | None = None

    # -- bookkeeping -------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(game_id, event_number, state)`` after each stored event.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> seen = []
        >>> games.listen(lambda gid, n, state: seen.append((n, state["ply"])))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "d4"})
        >>> seen
        [(1, 1)]
        """
        self._listeners.append(listener)

    def _lock(self, game_id: str) -> threading.Lock:
        with self._cache_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def _cached(self, game_id: str) -> _Live | None:
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            return live

    def _remember(self, game_id: str, live: _Live) -> None:
        """Keep ``live`` (its size as of now: a game in memory grows with its
        events) and drop the least recently used games while the estimate is
        over ``Limits.cache_bytes``."""
        with self._cache_lock:
            old = self._cache.pop(game_id, None)
            if old is not None:
                self._cache_bytes -= old.counted
            live.counted = live.bytes
            self._cache[game_id] = live
            self._cache_bytes += live.counted
            while self._cache_bytes > self.limits.cache_bytes and len(self._cache) > 1:
                _, dropped = self._cache.popitem(last=False)
                self._cache_bytes -= dropped.counted

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            old = self._cache.pop(game_id, None)
            if old is not None:
                self._cache_bytes -= old.counted

    def cached(self) -> tuple[int, int]:
        """``(games, estimated bytes)`` kept in memory.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> _ = games.create({})
        >>> games.cached() == (1, GAME_BYTES)
        True
        """
        with self._cache_lock:
            return len(self._cache), self._cache_bytes

    def record(self, game_id: str) -> GameRecord:
        """The stored game; :class:`ServiceError` 404 when there is none.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"), clock=lambda: 100.0)
        >>> gid, _, _ = games.create({"mode": "rapid"})
        >>> games.record(gid).config, games.record(gid).created
        ({'mode': 'rapid'}, 100.0)
        >>> games.record("nope")
        Traceback (most recent call last):
        ...
        remis.service.games.ServiceError: no game with id 'nope'
        """
        live = self._cached(game_id)
        if live is not None:
            return live.record
        rec = self.store.get_game(game_id)
        if rec is None:
            raise ServiceError(404, f"no game with id {game_id!r}", "no_game")
        return rec

    def _arbiter(self, config: Mapping[str, Any]) -> Arbiter:
        arbiter = Arbiter(dict(config))
        search = self._mate_test or arbiter.mate_test

        def mate_test(board: chess.Board, color: chess.Color) -> Verdict:
            _must_not_wait("a mate search")  # it takes a worker's time, maybe seconds
            return search(board, color)

        arbiter.mate_test = mate_test
        return arbiter

    def _rebuild(self, rec: GameRecord, events: list[dict[str, Any]]) -> _Live:
        """The game replayed from its stored events (in linear time: no
        state is built on the way)."""
        live = _Live(rec, self._arbiter(rec.config))
        for n, ev in enumerate(events, start=1):
            try:
                live.accept(ev)
            except Busy as exc:
                raise ServiceError(429, str(exc), "busy") from None
            except (RefusedEvent, ValueError) as exc:  # a stored log the arbiter now refuses
                raise RuntimeError(f"game {rec.id}: stored event {n} cannot be replayed: "
                                   f"{_message(exc)}") from exc
        return live

    def _sync(self, rec: GameRecord, count: int,
              load: Callable[[int], list[dict[str, Any]]]) -> _Live:
        """The live game with all ``count`` stored events applied."""
        live = self._cached(rec.id)
        if live is not None and live.applied < count:
            try:
                for ev in load(live.applied):
                    live.accept(ev)
            except Busy as exc:
                self._forget(rec.id)  # partly applied: rebuilt when asked for again
                raise ServiceError(429, str(exc), "busy") from None
            except (RefusedEvent, ValueError):
                live = None
        if live is None or live.applied != count:
            live = self._rebuild(rec, load(0))
        self._remember(rec.id, live)
        return live

    # -- the API -------------------------------------------------------------

    def create(self, config: Mapping[str, Any]) -> tuple[str, dict[str, str], dict[str, Any]]:
        """Create a game: ``(id, tokens by role, state)``; a config the
        arbiter refuses raises :class:`ServiceError` 422.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, state = games.create({})
        >>> len(gid), sorted(tokens), state["ply"], state["to_move"]
        (16, ['arbiter', 'black', 'spectator', 'white'], 0, 'white')
        >>> try:
        ...     games.create({"mode": "bogus"})
        ... except ServiceError as exc:
        ...     print(exc.status, exc.detail[:36])
        422 config: mode must be one of standard

        """
        live, tokens = self._new(config)
        self.store.create_game(live.record)
        return self._created(live, tokens)

    async def create_async(self, config: Mapping[str, Any],
                           ) -> tuple[str, dict[str, str], dict[str, Any]]:
        """:meth:`create` for the event loop: the same answer, the work done
        on the loop and the commit awaited (see :meth:`post_async`).

        >>> import asyncio
        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, state = asyncio.run(games.create_async({"mode": "rapid"}))
        >>> games.record(gid).config, state["ply"]
        ({'mode': 'rapid'}, 0)
        """
        if not self.store.writes_later:
            return await anyio.to_thread.run_sync(self.create, config)
        live, tokens = self._new(config)
        await self.store.create_game_soon(live.record)
        return self._created(live, tokens)

    def _new(self, config: Mapping[str, Any]) -> tuple[_Live, dict[str, str]]:
        """A new game, not stored yet, and its tokens."""
        cfg = dict(config)
        try:
            arbiter = self._arbiter(cfg)
        except (RefusedEvent, ValueError) as exc:
            msg = _message(exc)
            raise ServiceError(422, msg if msg.startswith("config: ") else f"config: {msg}",
                               getattr(exc, "code", "config"), getattr(exc, "params", None)
                               ) from None
        tokens = {role: new_token() for role in ROLES}
        rec = GameRecord(secrets.token_hex(8), cfg, self._clock(),
                         {role: hash_token(t) for role, t in tokens.items()})
        return _Live(rec, arbiter), tokens

    def _created(self, live: _Live, tokens: dict[str, str],
                 ) -> tuple[str, dict[str, str], dict[str, Any]]:
        """The answer of :meth:`create` once the game is stored."""
        self._remember(live.record.id, live)
        return live.record.id, tokens, live.view()

    def reader(self, game_id: str, token: str | None) -> str:
        """The role of ``token`` in the game, which may then read it (state,
        events, stream): any of its four tokens reads.  :class:`ServiceError`
        404 when there is no such game, 401 without a token or with one that
        is not of this game.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> games.reader(gid, tokens["spectator"])
        'spectator'
        >>> games.reader(gid, None)
        Traceback (most recent call last):
        ...
        remis.service.games.ServiceError: missing token: send 'Authorization: Bearer <token>'
        """
        return _role(self.record(game_id), token)

    def state(self, game_id: str) -> tuple[GameRecord, dict[str, Any], int]:
        """``(record, current state, number of events)`` of a game (the state
        of an answer: ``rulings`` holds what the last event wrote in the
        ruling log, :meth:`events` the whole log).

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "c4"})
        >>> rec, state, n = games.state(gid)
        >>> rec.id == gid, state["ply"], state["to_move"], n
        (True, 1, 'black', 1)
        """
        elsewhere = self._read_elsewhere("state", game_id)
        if elsewhere is not None:
            answer: tuple[GameRecord, dict[str, Any], int] = elsewhere
            return answer
        rec = self.record(game_id)
        with self._lock(game_id):
            live = self._synced(rec)
            return rec, live.view(), live.applied

    def moves(self, game_id: str) -> tuple[list[dict[str, Any]], int]:
        """``(move list, number of events)`` of a game: the moves on the
        arbiter's board (see :func:`remis.service.moves.move_list`).

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "e4"})
        >>> games.moves(gid)
        ([{'ply': 1, 'player': 'white', 'move': 'e4', 'standing': False}], 1)
        """
        elsewhere = self._read_elsewhere("moves", game_id)
        if elsewhere is not None:
            answer: tuple[list[dict[str, Any]], int] = elsewhere
            return answer
        rec = self.record(game_id)
        with self._lock(game_id):
            live = self._synced(rec)
            return move_list(live.arbiter.history), live.applied

    def _read_elsewhere(self, what: str, game_id: str, *args: Any) -> Any:
        """The answer of the read ``what`` (:meth:`state`, :meth:`events`,
        :meth:`moves`) made by a worker of :attr:`readers`, where the game
        is not in memory and the workers can open the store; None where this
        process answers (a 429 when the caller has too many searches there)."""
        readers = self.readers
        if (readers is None or not readers.running or not shareable(self.store.url)
                or self._cached(game_id) is not None):
            return None
        try:
            job = readers.submit(read_game, self.store.url, self.limits.cache_bytes // 4,
                                 game_id, what, args)
        except Busy as exc:
            raise ServiceError(429, str(exc), "busy") from None
        return job.future.result()

    def _synced(self, rec: GameRecord) -> _Live:
        """The live game with every stored event applied (call with its lock held)."""
        return self._sync(rec, self.store.count(rec.id),
                          lambda after: self.store.events(rec.id, after))

    def events(self, game_id: str, after: int = 0, limit: int = 1000) -> dict[str, Any]:
        """A page of the game's log: ``events`` numbered ``after + 1`` on (at
        most ``limit``) as stored, the ruling-log entries they wrote
        (``log``; from ``after`` 0 with the set-up position's too), the
        number ``last`` of the last event in the page and ``total``.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"), clock=lambda: 100.0)
        >>> gid, tokens, _ = games.create({})
        >>> for ev in [{"type": "move", "player": "white", "move": "Nf3"},
        ...            {"type": "offer_draw", "player": "white"},
        ...            {"type": "decline_draw", "player": "black"}]:
        ...     _ = games.post(gid, tokens[ev["player"]], ev)
        >>> page = games.events(gid, after=1, limit=1)
        >>> page["events"], [e["message"] for e in page["log"]], page["last"], page["total"]
        ([{'type': 'offer_draw', 'player': 'white', 'at': 0.0}], ['draw_offered'], 2, 3)
        """
        elsewhere = self._read_elsewhere("events", game_id, after, limit)
        if elsewhere is not None:
            page: dict[str, Any] = elsewhere
            return page
        rec = self.record(game_id)
        with self._lock(game_id):
            return self._page(self._synced(rec), after, limit)

    def _page(self, live: _Live, after: int, limit: int) -> dict[str, Any]:
        """The answer of :meth:`events` from ``live``, which has every stored
        event (call with the game's lock held)."""
        total = live.applied
        after = min(max(after, 0), total)
        count = min(limit, total - after)
        if count > LOOP_PAGE:
            _must_not_wait("a long page of the log")
        events = self.store.events(live.record.id, after, count)
        last = after + len(events)
        return {"events": events, "log": live.arbiter.rulings(after, last),
                "after": after, "last": last, "total": total}

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """What the holder of ``token`` reads of a game (:meth:`reader`, 401
        and 404 as there): its ``id``, ``config``, current ``state`` (as
        :meth:`state`) and ``now``, the seconds since its creation.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({"mode": "rapid"})
        >>> view = games.view(gid, tokens["spectator"])
        >>> view["id"] == gid, view["config"], view["state"]["ply"], view["now"] >= 0
        (True, {'mode': 'rapid'}, 0, True)
        """
        self.reader(game_id, token)
        rec, state, _ = self.state(game_id)
        return _game_view(rec, state)

    async def view_async(self, game_id: str, token: str | None) -> dict[str, Any]:
        """:meth:`view`, read on the event loop where that cannot wait, else
        in a thread (see :meth:`_read_async`).

        >>> import asyncio
        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({"mode": "rapid"})
        >>> asyncio.run(games.view_async(gid, tokens["white"]))["state"]["to_move"]
        'white'
        """
        rec, state, _ = await self._read_async(
            game_id, token, lambda live: (live.record, live.view(), live.applied), self.state)
        return _game_view(rec, state)

    async def events_async(self, game_id: str, token: str | None, after: int = 0,
                           limit: int = 1000) -> dict[str, Any]:
        """:meth:`events` for the holder of ``token`` (:meth:`reader`, 401
        and 404 as there), read on the event loop where that cannot wait,
        else in a thread (see :meth:`_read_async`).

        >>> import asyncio
        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> _ = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                       "move": "e4"})
        >>> page = asyncio.run(games.events_async(gid, tokens["black"], after=0, limit=5))
        >>> [e["move"] for e in page["events"]], page["last"], page["total"]
        (['e4'], 1, 1)
        """
        page: dict[str, Any] = await self._read_async(
            game_id, token, lambda live: self._page(live, after, limit),
            self.events, after, limit)
        return page

    async def _read_async(self, game_id: str, token: str | None,
                          read: Callable[[_Live], _T], elsewhere: Callable[..., _T],
                          *args: Any) -> _T:
        """A read by the holder of ``token``: ``read(live)`` on the event
        loop where it cannot wait (as in :meth:`post_async`): the game in
        memory, its lock free, every stored event applied, a store that
        reads without a thread of its own and a page of at most
        :data:`LOOP_PAGE` events; else :meth:`reader` and then
        ``elsewhere(game_id, *args)`` in a thread, where a game is rebuilt,
        waits for its lock or is read by a worker."""
        live = self._cached(game_id)
        if live is not None and self.store.writes_later:
            _role(live.record, token)
            lock = self._lock(game_id)
            if lock.acquire(blocking=False):
                try:
                    # the same game still (not dropped or rebuilt meanwhile), and up to date
                    if (self._cached(game_id) is live
                            and self.store.count(game_id) == live.applied):
                        with _loop_step:
                            return read(live)
                except WouldWait:
                    pass
                finally:
                    lock.release()

        def in_thread() -> _T:
            self.reader(game_id, token)
            return elsewhere(game_id, *args)

        return await anyio.to_thread.run_sync(in_thread)

    def post(self, game_id: str, token: str | None, event: Mapping[str, Any],
             expected_ply: int | None = None, *,
             received: float | None = None) -> tuple[dict[str, Any], int]:
        """Apply one event for the holder of ``token``, received at Unix time
        ``received`` (default: now); returns ``(state, event number)`` once
        the event is stored.  Refusals raise :class:`ServiceError`: 401 bad
        token, 403 wrong role, 404 no game, 409 refused in the game's present
        state: by the Laws, over a limit, ``expected_ply`` not the current
        ply, or the event's ``id`` used for another request.

        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> state, n = games.post(gid, tokens["white"], {"type": "move", "player": "white",
        ...                                              "move": "e4"}, expected_ply=0)
        >>> n, state["fen"]
        (1, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1')
        >>> games.post(gid, tokens["black"], {"type": "move", "player": "black",
        ...                                   "move": "e5"}, expected_ply=0)
        Traceback (most recent call last):
        ...
        remis.service.games.ServiceError: expected ply 0 but the game is at ply 1

        A retry (the same ``id``, the same request) gets the first answer:

        >>> retry = {"type": "move", "player": "black", "move": "e5", "id": "m2"}
        >>> games.post(gid, tokens["black"], retry)[1], games.post(gid, tokens["black"], retry)[1]
        (2, 2)
        """
        req = self._request(game_id, token, event, expected_ply, received)
        with self._lock(game_id):
            return _drive(self._posting(req), lambda write: self.store.append(*write))

    async def post_async(self, game_id: str, token: str | None, event: Mapping[str, Any],
                         expected_ply: int | None = None, *,
                         received: float | None = None) -> tuple[dict[str, Any], int]:
        """:meth:`post` for the event loop: the same answers and refusals.
        The event's own work (checks, the arbiter, the answer: a fraction of
        a millisecond) is done on the loop and the commit is awaited, so no
        thread is handed the request and none hands it back: under load,
        each hand-off waited for the GIL behind the other requests' work, and
        the slowest moves spent their time there.  A request that would make
        the loop wait runs in a thread, as :meth:`post`: the game's lock held
        by another request, a game to rebuild from the store, a mate search,
        a store that writes in the caller's thread (PostgreSQL).

        >>> import asyncio
        >>> from remis.service.store import open_store
        >>> games = Games(open_store("sqlite:///:memory:"))
        >>> gid, tokens, _ = games.create({})
        >>> move = {"type": "move", "player": "white", "move": "e4", "id": 1}
        >>> state, n = asyncio.run(games.post_async(gid, tokens["white"], move))
        >>> n, state["to_move"], asyncio.run(games.post_async(gid, tokens["white"], move))[1]
        (1, 'black', 1)
        """
        received = self._clock() if received is None else received
        lock = self._lock(game_id)
        if self.store.writes_later and lock.acquire(blocking=False):
            try:
                with _loop_step:
                    steps = self._posting(self._request(game_id, token, event, expected_ply,
                                                        received))
                return await _drive_async(
                    steps, lambda write: self.store.append_soon(*write))
            except WouldWait:
                pass
            finally:
                lock.release()
        return await anyio.to_thread.run_sync(partial(self.post, game_id, token, event,
                                                      expected_ply, received=received))

    def _request(self, game_id: str, token: str | None, event: Mapping[str, Any],
                 expected_ply: int | None, received: float | None) -> _Request:
        """The request checked: the token's role may post the event (401,
        403, 404 otherwise)."""
        rec = self.record(game_id)
        role = _role(rec, token)
        why = refusal(role, event)
        if why is not None:
            raise ServiceError(403, why, "role_forbidden", {"role": role})
        ev = {k: v for k, v in event.items() if v is not None}
        claimed = ev.pop("at", None)
        return _Request(rec, role, ev, claimed, _key(ev, claimed, expected_ply), expected_ply,
                        self._clock() if received is None else received)

    def _posting(self, req: _Request) -> Generator[_Append, None, tuple[dict[str, Any], int]]:
        """The work of :meth:`post`, with the game's lock held: it yields the
        event to store, and is sent None once it is committed (or thrown
        the store's exception); it returns ``(state, event number)``."""
        rec, ev, key = req.record, req.event, req.key
        game_id = rec.id
        for _attempt in range(5):
            live = self._live(rec)
            if key is not None:
                known = self.store.find_key(game_id, key.client_id)
                if known is not None:
                    return _replayed(known, key)
            if req.expected_ply is not None:
                ply = live.arbiter.history.ply  # not state(): that builds the whole answer
                if ply != req.expected_ply:
                    if not self._fresh(live):
                        continue
                    raise ServiceError(409, f"expected ply {req.expected_ply} but the game "
                                            f"is at ply {ply}", "stale_ply",
                                       {"expected": req.expected_ply, "ply": ply})
            seq = live.applied + 1
            over = self._over_limit(live, str(ev.get("type")))
            if over is not None:
                if not self._fresh(live):
                    continue
                raise ServiceError(409, f"event {seq} refused: {over}", "event_limit")
            try:
                ev["at"] = time_of_record(
                    req.claimed, received=round(req.received - rec.created, 3),
                    last=live.arbiter.last_at, role=req.role,
                    online=live.arbiter.config.mode == "online", skew=self.limits.skew)
                live.accept(ev)
            except Busy as exc:  # the mate search was refused: the state is unchanged
                raise ServiceError(429, str(exc), "busy") from None
            except (RefusedEvent, ValueError) as exc:  # the arbiter left its state unchanged
                if not self._fresh(live):
                    continue
                raise ServiceError(409, f"event {seq} refused: {_message(exc)}",
                                   getattr(exc, "code", "event_refused"),
                                   getattr(exc, "params", None)) from None
            state = live.view()
            try:
                # what the arbiter logged: the event as given (events() would copy the log)
                yield (game_id, seq, ev, None if key is None else EventKey(
                    key.client_id, key.digest, _dump({"state": state, "event": seq})))
            except (SeqTaken, KeyTaken):
                # another instance stored event ``seq`` (or this id) first: reload, check again
                self._forget(game_id)
                continue
            except BaseException:
                self._forget(game_id)  # the arbiter moved on but the store did not
                raise
            self._remember(game_id, live)  # its size grew
            for listener in self._listeners:  # inside the lock: streams get them in order
                listener(game_id, seq, state)
            return state, seq
        raise ServiceError(409, f"game {game_id} kept changing under concurrent writers; "
                                "send the event again", "concurrent_writers")

    def _over_limit(self, live: _Live, kind: str) -> str | None:
        """Why the game may take no further event, or no further event of
        type ``kind`` without a move first (a limit of ``Limits``)."""
        limits = self.limits
        if live.applied >= limits.events:
            return f"the game has reached the limit of {limits.events} events"
        if live.idle >= limits.between_moves and kind in IDLE_EVENTS:
            return (f"{limits.between_moves} events in a row without a move is the limit; "
                    "the next event must be a move (or end the game)")
        return None

    def _live(self, rec: GameRecord) -> _Live:
        """The cached game, or the game rebuilt from the store.  A cached game
        may be behind when another instance appended: an append then fails
        (the event number is taken) and a refusal is checked with
        :meth:`_fresh` before it is answered, so staleness never shows."""
        live = self._cached(rec.id)
        if live is None:
            _must_not_wait("a game to rebuild from the store")
            live = self._synced(rec)
        return live

    def _fresh(self, live: _Live) -> bool:
        """Whether ``live`` had every stored event; when not, the missing
        events are applied to the cached game (or it is rebuilt)."""
        gid = live.record.id
        count = self.store.count(gid)
        if count == live.applied:
            return True
        _must_not_wait("events another writer stored")
        self._sync(live.record, count, lambda after: self.store.events(gid, after))
        return False


#: the games a worker process reads for the service, by store URL (see :func:`read_game`)
_READERS: dict[str, Games] = {}


def read_game(url: str, cache_bytes: int, game_id: str, what: str,
              args: tuple[Any, ...]) -> Any:
    """In a worker process: the answer of ``Games.<what>(game_id, *args)``
    over the store at ``url``, through games the worker keeps in memory
    (at most ``cache_bytes``; brought up to date from the store at each read,
    as any instance's are).

    >>> import tempfile
    >>> from remis.service.store import open_store
    >>> url = f"sqlite:///{tempfile.mkdtemp()}/g.db"
    >>> gid, tokens, _ = Games(open_store(url)).create({})
    >>> read_game(url, 1 << 20, gid, "moves", ())
    ([], 0)
    """
    games = _READERS.get(url)
    if games is None:
        from remis.service.store import open_store

        games = _READERS[url] = Games(open_store(url), limits=Limits(cache_bytes=cache_bytes))
    return getattr(games, what)(game_id, *args)


def shareable(url: str) -> bool:
    """Whether another process can open the store at ``url`` (not an
    in-memory SQLite database).

    >>> shareable("sqlite:///:memory:"), shareable("sqlite:///remis.db")
    (False, True)
    """
    return ":memory:" not in url


def _drive(steps: Generator[_Append, None, _T], write: Callable[[_Append], None]) -> _T:
    """Run ``steps`` to its answer, storing what it yields with ``write``."""
    try:
        item = next(steps)
        while True:
            try:
                write(item)
            except BaseException as exc:
                item = steps.throw(exc)
            else:
                item = steps.send(None)
    except StopIteration as stop:
        answer: _T = stop.value
        return answer


async def _drive_async(steps: Generator[_Append, None, _T],
                       write: Callable[[_Append], Awaitable[None]]) -> _T:
    """:func:`_drive` on the event loop: each step runs as a
    ``_loop_step``, each write is awaited."""
    try:
        with _loop_step:
            item = next(steps)
        while True:
            try:
                await write(item)
            except BaseException as exc:
                with _loop_step:
                    item = steps.throw(exc)
            else:
                with _loop_step:
                    item = steps.send(None)
    except StopIteration as stop:
        answer: _T = stop.value
        return answer


def _game_view(rec: GameRecord, state: dict[str, Any]) -> dict[str, Any]:
    """The answer of :meth:`Games.view` for the game ``rec`` in ``state``."""
    return {"id": rec.id, "config": rec.config, "state": state,
            "now": round(time.time() - rec.created, 3)}


def _role(rec: GameRecord, token: str | None) -> str:
    """The role of ``token`` in the game, or :class:`ServiceError` 401."""
    if token is None:
        raise ServiceError(401, "missing token: send 'Authorization: Bearer <token>'",
                           "missing_token")
    role = role_of(token, rec.hashes)
    if role is None:
        raise ServiceError(401, f"the token is not valid for game {rec.id}", "bad_token")
    return role


def _key(event: Mapping[str, Any], at: float | None, expected_ply: int | None,
         ) -> EventKey | None:
    """The idempotency key of a request whose event has an ``id`` (without
    its answer yet): the id as JSON (``1`` and ``"1"`` differ) and the digest
    of the whole request.

    >>> _key({"type": "resign", "player": "white", "id": 7}, None, None).client_id
    '7'
    >>> _key({"type": "resign", "player": "white"}, None, None) is None
    True
    """
    if "id" not in event:
        return None
    request = {**event, "at": at, "expected_ply": expected_ply}
    digest = hashlib.sha256(_dump(request, sort_keys=True).encode()).hexdigest()
    return EventKey(_dump(event["id"]), digest, "")


def _replayed(known: EventKey, key: EventKey) -> tuple[dict[str, Any], int]:
    """The first answer to an idempotency key, or 409 when the key came
    with another request."""
    if known.digest != key.digest:
        raise ServiceError(409, f"event id {key.client_id} was already used for another "
                                "request in this game; use a new id for a new event",
                           "event_id_reused")
    answer = json.loads(known.answer)
    return answer["state"], int(answer["event"])


def _dump(obj: Any, *, sort_keys: bool = False) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)


def _message(exc: BaseException) -> str:
    msg = getattr(exc, "message", None)
    return str(msg) if msg else str(exc)

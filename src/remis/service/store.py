"""Where games live: their configuration, token hashes and event logs.

Two back ends behind one interface: SQLite from the standard library (the
embedded default, WAL mode) and PostgreSQL through psycopg 3 (for several
service instances sharing one database).  A game is its event log: the
service rebuilds any game from :meth:`Store.events` after a restart.

Appending is the only write that matters for correctness.  Events of a game
are numbered 1, 2, 3, ... and the primary key ``(game_id, seq)`` makes the
database refuse a number twice: :meth:`Store.append` raises :class:`SeqTaken`
when another writer (another service instance) stored that number first, so
no event is ever applied twice or lost.  ``append`` returns only once the
event is committed, so an event is durable before it is acknowledged.  SQLite
commits the appends of concurrent requests together (group commit: one
``fsync`` per batch, each request's row on its own, so that one bad row fails
only its request), in a writer thread; a lone append of the event loop, when
the writer is idle, is committed by the loop's thread itself, which spares
two thread wake-ups.  PostgreSQL groups concurrent commits by itself.

An event may carry the client's idempotency key (:class:`EventKey`): the
pair ``(game_id, client_id)`` is unique too, and the first answer is stored
with the event, so a retry finds it (:meth:`Store.find_key`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import re
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, parse_qs, unquote, urlsplit

from pydantic_core import to_json

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        white_hash TEXT NOT NULL,
        black_hash TEXT NOT NULL,
        arbiter_hash TEXT NOT NULL,
        spectator_hash TEXT)""",
    """CREATE TABLE IF NOT EXISTS events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (game_id, seq))""",
]
#: added after the first release: the client's idempotency key, the digest of
#: its request and the answer it got (NULL for events posted without an id)
KEY_COLUMNS = [("client_id", "ALTER TABLE events ADD COLUMN client_id TEXT"),
               ("digest", "ALTER TABLE events ADD COLUMN digest TEXT"),
               ("answer", "ALTER TABLE events ADD COLUMN answer TEXT")]
#: one event per idempotency key and game; an event without a key is not in it,
#: so that its append writes no page of the index (a database made before keeps
#: its index of every event, NULL keys all distinct, which refuses the same)
KEY_INDEX = ("CREATE UNIQUE INDEX IF NOT EXISTS events_client_id "
             "ON events (game_id, client_id) WHERE client_id IS NOT NULL")
#: SQLite keeps a new database's events in the order of their key, so that an
#: append writes one page of the table and none of a second index of the key
#: (a database made before keeps its layout, which works the same)
SQLITE_SCHEMA = [SCHEMA[0], SCHEMA[1] + " WITHOUT ROWID"]
#: added after the first release: databases made before get the column (games
#: created before have no spectator token; their player and arbiter tokens read)
SPECTATOR_COLUMN = "ALTER TABLE games ADD COLUMN spectator_hash TEXT"
#: the columns of a game, in the order of ``INSERT INTO games``
GAME_COLUMNS = "id, config, created, white_hash, black_hash, arbiter_hash, spectator_hash"


class StoreError(RuntimeError):
    """The database refused or failed an operation (not the client's fault)."""


@dataclass(frozen=True)
class GameRecord:
    """A stored game: id, arbiter config, creation time (Unix seconds) and
    the token hashes by role (``spectator`` absent for games stored before
    spectator tokens existed).

    >>> GameRecord("g1", {}, 0.0, {"white": "h1", "black": "h2", "arbiter": "h3"}).id
    'g1'
    """

    id: str
    config: dict[str, Any]
    created: float
    hashes: dict[str, str]


class SeqTaken(Exception):
    """The event number is already stored (another writer was first)."""


class KeyTaken(Exception):
    """The idempotency key is already stored with another event of the game."""


@dataclass(frozen=True)
class EventKey:
    """A client's idempotency key for one event: ``client_id`` (its ``id``,
    as JSON), the ``digest`` of its request, and the ``answer`` (JSON text)
    the first request got.

    >>> EventKey('"r1"', "d", "{}").client_id
    '"r1"'
    """

    client_id: str
    digest: str
    answer: str


class Store(ABC):
    """The storage interface shared by the SQLite and PostgreSQL back ends."""

    url: str

    @abstractmethod
    def create_game(self, game: GameRecord) -> None:
        """Store a new game (no events yet).

        >>> s = open_store("sqlite:///:memory:")
        >>> hashes = {"white": "w", "black": "b", "arbiter": "a", "spectator": "s"}
        >>> s.create_game(GameRecord("g1", {"mode": "rapid"}, 5.0, hashes))

        >>> s.get_game("g1").hashes["spectator"], s.events("g1")
        ('s', [])
        >>> s.close()
        """

    @abstractmethod
    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game, or ``None`` when there is none with that id.

        >>> s = open_store("sqlite:///:memory:")
        >>> rec = GameRecord("g", {"time_control": "90+30"}, 5.0,
        ...                  {"white": "w", "black": "b", "arbiter": "a"})
        >>> s.create_game(rec)
        >>> s.get_game("g") == rec, s.get_game("G")
        (True, None)
        >>> s.close()
        """

    @abstractmethod
    def events(self, game_id: str, after: int = 0,
               limit: int | None = None) -> list[dict[str, Any]]:
        """The game's events numbered ``after + 1`` onwards, in order (at
        most ``limit`` of them).

        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> s.append("g", 1, {"type": "offer_draw", "player": "white"})
        >>> s.append("g", 2, {"type": "decline_draw", "player": "black"})
        >>> s.events("g", limit=1), s.events("g", after=2)
        ([{'type': 'offer_draw', 'player': 'white'}], [])
        >>> s.close()
        """

    @abstractmethod
    def count(self, game_id: str) -> int:
        """How many events the game has.

        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> for n in (1, 2, 3):
        ...     s.append("g", n, {"type": "move", "player": "white", "move": "e4"})
        >>> s.count("g") == len(s.events("g")) == 3
        True
        >>> s.close()
        """

    @abstractmethod
    def find_key(self, game_id: str, client_id: str) -> EventKey | None:
        """The stored idempotency key ``client_id`` of the game, or None.

        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> s.append("g", 1, {"type": "resign", "player": "black", "id": "r"},
        ...          key=EventKey('"r"', "d1", '{"event":1}'))
        >>> s.find_key("g", '"r"'), s.find_key("g", '"x"')
        (EventKey(client_id='"r"', digest='d1', answer='{"event":1}'), None)
        >>> s.close()
        """

    @abstractmethod
    def append(self, game_id: str, seq: int, event: dict[str, Any],
               key: EventKey | None = None) -> None:
        """Store ``event`` as number ``seq`` of the game, with the client's
        idempotency ``key`` if any, and commit; raise :class:`SeqTaken` when
        that number is already stored, :class:`KeyTaken` when the key is.

        Two writers that both try number 1: the second one is refused.

        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> s.append("g", 1, {"type": "resign", "player": "black"})
        >>> try:
        ...     s.append("g", 1, {"type": "resign", "player": "white"})
        ... except SeqTaken as exc:
        ...     print(exc)
        game g already has event 1
        >>> s.events("g")[0]["player"]
        'black'

        The same key twice (a retry that reached two writers):

        >>> s.append("g", 2, {"type": "offer_draw", "player": "white"}, key=EventKey("1", "d", "a"))
        >>> s.append("g", 3, {"type": "offer_draw", "player": "white"}, key=EventKey("1", "d", "a"))
        Traceback (most recent call last):
        ...
        remis.service.store.KeyTaken: game g already has an event with id 1
        >>> s.close()
        """

    @abstractmethod
    def game_ids(self) -> list[str]:
        """Every stored game id (for tests and maintenance).

        >>> s = open_store("sqlite:///:memory:")
        >>> s.game_ids()
        []
        >>> s.close()
        """

    @abstractmethod
    def close(self) -> None:
        """Release the connections.

        What was stored outlives the store object:

        >>> import os, tempfile
        >>> url = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "games.db")
        >>> s = open_store(url)
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> s.close()
        >>> s = open_store(url); s.game_ids(); s.close()
        ['g']
        """

    #: whether :meth:`create_game_later` and :meth:`append_later` hand the write to
    #: a thread of the store's own and return at once (a coroutine then awaits the
    #: commit without holding a thread of its own)
    writes_later = False

    def create_game_later(self, game: GameRecord) -> Future[None]:
        """:meth:`create_game` as a future, done once the game is committed
        (or with the exception ``create_game`` raises).  Here the write is
        done in the calling thread; see :attr:`writes_later`.

        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game_later(GameRecord("g", {}, 0.0, {"white": "w", "black": "b",
        ...                                               "arbiter": "a"})).result()
        >>> s.game_ids()
        ['g']
        >>> s.close()
        """
        return _done(self.create_game, game)

    def append_later(self, game_id: str, seq: int, event: dict[str, Any],
                     key: EventKey | None = None) -> Future[None]:
        """:meth:`append` as a future, done once the event is committed (or
        with the exception ``append`` raises: :class:`SeqTaken`, ...).  Here
        the write is done in the calling thread; see :attr:`writes_later`.

        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> s.append_later("g", 1, {"type": "resign", "player": "black"}).result()
        >>> s.append_later("g", 1, {"type": "resign", "player": "white"}).result()
        Traceback (most recent call last):
        ...
        remis.service.store.SeqTaken: game g already has event 1
        >>> s.close()
        """
        return _done(self.append, game_id, seq, event, key)

    def create_game_soon(self, game: GameRecord) -> Awaitable[None]:
        """:meth:`create_game_later` for a coroutine of the running event
        loop: awaited, it returns once the game is committed.

        >>> import asyncio
        >>> s = open_store("sqlite:///:memory:")
        >>> async def create() -> None:
        ...     await s.create_game_soon(GameRecord("g", {}, 0.0, {"white": "w", "black": "b",
        ...                                                        "arbiter": "a"}))
        >>> asyncio.run(create()); s.game_ids()
        ['g']
        >>> s.close()
        """
        return asyncio.wrap_future(self.create_game_later(game))

    def append_soon(self, game_id: str, seq: int, event: dict[str, Any],
                    key: EventKey | None = None) -> Awaitable[None]:
        """:meth:`append_later` for a coroutine of the running event loop:
        awaited, it returns once the event is committed (or raises what
        ``append`` raises).

        >>> import asyncio
        >>> s = open_store("sqlite:///:memory:")
        >>> s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
        >>> async def twice() -> None:
        ...     await s.append_soon("g", 1, {"type": "resign", "player": "black"})
        ...     await s.append_soon("g", 1, {"type": "resign", "player": "white"})
        >>> asyncio.run(twice())
        Traceback (most recent call last):
        ...
        remis.service.store.SeqTaken: game g already has event 1
        >>> s.close()
        """
        return asyncio.wrap_future(self.append_later(game_id, seq, event, key))


def _done(write: Callable[..., None], *args: Any) -> Future[None]:
    """The future of ``write(*args)``, done in the calling thread."""
    fut: Future[None] = Future()
    try:
        write(*args)
    except Exception as exc:
        fut.set_exception(exc)
    else:
        fut.set_result(None)
    return fut


def _record(row: tuple[Any, ...]) -> GameRecord:
    gid, config, created, wh, bh, ah, sh = row
    hashes = {"white": wh, "black": bh, "arbiter": ah}
    if sh is not None:
        hashes["spectator"] = sh
    return GameRecord(str(gid), json.loads(config), float(created), hashes)


def _game_row(game: GameRecord) -> tuple[Any, ...]:
    h = game.hashes
    return (game.id, _dump(game.config), game.created, h["white"], h["black"], h["arbiter"],
            h.get("spectator"))


def _dump(obj: Any) -> str:
    """The compact JSON of a stored row's value: pydantic's encoder, a quarter
    of the standard library's cost on an event (the same text for the values
    stored: they differ only in the notation of numbers under 1e-4)."""
    return to_json(obj).decode()


#: a row of the events table: game, number, event, key, digest, answer
_Row = tuple[str, int, str, str | None, str | None, str | None]
#: a row to insert and its table ("events" or "games")
_Write = tuple[str, tuple[Any, ...]]
_Pending = tuple[_Write, "Future[None] | asyncio.Future[None]"]


def _row(game_id: str, seq: int, event: dict[str, Any], key: EventKey | None) -> _Row:
    if key is None:
        return (game_id, seq, _dump(event), None, None, None)
    return (game_id, seq, _dump(event), key.client_id, key.digest, key.answer)


def _taken(row: _Row, key_clash: bool) -> Exception:
    """The exception of a row refused by a unique index."""
    if key_clash:
        return KeyTaken(f"game {row[0]} already has an event with id {row[3]}")
    return SeqTaken(f"game {row[0]} already has event {row[1]}")


def _start(fut: Future[None] | asyncio.Future[None]) -> bool:
    """Whether the write of ``fut`` is still wanted (its request did not give
    up); a :class:`~concurrent.futures.Future` can no longer be cancelled then."""
    if isinstance(fut, Future):
        return fut.set_running_or_notify_cancel()
    return not fut.cancelled()  # settled on its loop, which checks again


def _settle(done: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    """Settle, on their event loop, the futures of one committed batch."""
    for fut, exc in done:
        if fut.done():  # cancelled after its row was written
            continue
        if exc is None:
            fut.set_result(None)
        else:
            fut.set_exception(exc)


#: the columns written by an append, in the order of :data:`_Row`
EVENT_COLUMNS = "game_id, seq, event, client_id, digest, answer"


class _GroupCommit:
    """One writer thread that commits whatever writes (new games, appended
    events) have queued up in one transaction (one ``fsync`` for the lot)
    and then releases the waiting requests.  ``write(writes)`` stores
    ``(table, row)`` pairs inside a transaction and returns, for each row it
    could not store, the exception its request gets (:class:`SeqTaken` when
    the number was taken).

    ``write_now(writes)`` does the same where the connection is free at
    once, else returns None.  With it, a write of the event loop
    (:meth:`queue_soon`) that finds the writer idle and the commits sparse is
    committed on the loop's own thread, the same commit: a lone write costs
    no wake-up of the writer and none of the loop, which at rest cost more
    CPU than the commit's own work.  The loop waits for the disk then; where
    commits come often, so that the loop would spend more than a third of its
    time on them (:attr:`QUIET`), they go to the writer, which groups them
    while the loop goes on.

    >>> gc = _GroupCommit(lambda writes: {i: _taken(r, False) for i, (_, r)
    ...                                   in enumerate(writes) if r[1] == 0}, "demo")
    >>> gc.queue("events", ("g", 1, "{}", None, None, None)).result()
    >>> gc.queue("events", ("g", 0, "{}", None, None, None)).result()
    Traceback (most recent call last):
    ...
    remis.service.store.SeqTaken: game g already has event 0
    >>> gc.close()
    """

    #: most writes committed in one transaction
    BATCH = 512
    #: the loop commits a write itself only once this many times the last
    #: commit's duration has passed since it ended
    QUIET = 1.0

    def __init__(self, write: Callable[[list[_Write]], dict[int, Exception]],
                 name: str, *,
                 write_now: Callable[[list[_Write]], dict[int, Exception] | None] | None = None,
                 ) -> None:
        self._write = write
        self._write_now = write_now
        #: when the last commit ended and how long it took (``time.monotonic``)
        self._ended = float("-inf")
        self._took = 0.0
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        #: False once :meth:`close` began (a flag: ``Thread.is_alive`` costs a lock a write)
        self._open = True
        self._thread = threading.Thread(target=self._loop, name=f"remis-{name}-writer",
                                        daemon=True)
        self._thread.start()

    def queue(self, table: str, row: tuple[Any, ...]) -> Future[None]:
        """Queue one row of ``table``; the future is done once it is
        committed (or refused)."""
        fut: Future[None] = Future()
        self._put(((table, row), fut))
        return fut

    def queue_soon(self, table: str, row: tuple[Any, ...]) -> asyncio.Future[None]:
        """:meth:`queue` for a coroutine of the running event loop: an asyncio
        future, which the writer settles with the others of its loop in one
        call once the batch is committed.

        >>> import asyncio
        >>> gc = _GroupCommit(lambda writes: {}, "demo")
        >>> async def commit() -> None:
        ...     await gc.queue_soon("events", ("g", 1, "{}", None, None, None))
        >>> asyncio.run(commit())
        >>> gc.close()
        """
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._commit_now(table, row, fut):
            return fut
        self._put(((table, row), fut))
        return fut

    def _commit_now(self, table: str, row: tuple[Any, ...], fut: asyncio.Future[None]) -> bool:
        """Commit the row in this thread and settle ``fut``, where the writer
        is idle and the commits sparse (see the class): whether it did."""
        if self._write_now is None or not self._open or not self._queue.empty():
            return False
        if time.monotonic() - self._ended < self.QUIET * self._took:
            return False
        failed = self._timed(self._write_now, [(table, row)])
        if failed is None:  # the writer holds the connection: it takes the row
            return False
        if failed:
            fut.set_exception(failed[0])
        else:
            fut.set_result(None)
        return True

    def _put(self, item: _Pending) -> None:
        if not self._open or not self._thread.is_alive():
            raise StoreError("the store is closed")
        self._queue.put(item)

    def _timed(self, write: Callable[[list[_Write]], dict[int, Exception] | None],
               writes: list[_Write]) -> dict[int, Exception] | None:
        """``write(writes)``, the failed writes by index, with when the commit
        ended and how long it took (None, when ``write`` made none, is passed
        on); an exception fails every write, each with an exception of its own
        to raise."""
        start = time.monotonic()
        try:
            failed = write(writes)
        except Exception as exc:
            failed = {i: StoreError(f"cannot store: {exc}") for i in range(len(writes))}
        if failed is not None:
            self._ended = time.monotonic()
            self._took = self._ended - start
        return failed

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < self.BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            # a write whose request gave up before it started (an asyncio task
            # cancelled while it awaited its commit) is dropped, not stored
            batch = [(write, fut) for write, fut in batch if _start(fut)]
            if not batch:
                continue
            failed = self._timed(self._write, [write for write, _ in batch])
            assert failed is not None  # (the writer's own write always commits)
            loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None],
                                                              Exception | None]]] = {}
            for i, (_, fut) in enumerate(batch):
                if isinstance(fut, Future):
                    if i in failed:
                        fut.set_exception(failed[i])
                    else:
                        fut.set_result(None)
                else:
                    loops.setdefault(fut.get_loop(), []).append((fut, failed.get(i)))
            for loop, done in loops.items():
                with suppress(RuntimeError):  # a closed loop: nobody awaits any more
                    loop.call_soon_threadsafe(_settle, done)

    def close(self) -> None:
        """Finish the queued appends and stop the thread."""
        self._open = False
        self._queue.put(None)
        self._thread.join(30)


_INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
_INSERT_GAME = f"INSERT INTO games ({GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
#: the further rows of a one-statement insert (:meth:`SQLiteStore._write_at_once`), by table
_MORE_VALUES = {"events": ", (?, ?, ?, ?, ?, ?)", "games": ", (?, ?, ?, ?, ?, ?, ?)"}
#: most rows in one statement: 999 parameters at most in SQLite before 3.32
_AT_ONCE = 64


class SQLiteStore(Store):
    """SQLite back end in WAL mode.  Writes (appends, new games) go to one writer
    thread that commits whatever has queued up meanwhile in one transaction (group
    commit) and then releases the waiting requests; reads use one connection
    per thread and never wait for the writer.  ``synchronous=FULL`` (the
    default) puts every commit on disk before the event is acknowledged;
    ``?synchronous=normal`` is faster and still loses nothing when the
    process is killed, only on a power cut.  Other processes may share the
    file: the primary key refuses an event number twice.

    >>> s = SQLiteStore(":memory:")
    >>> s.create_game(GameRecord("g", {"mode": "blitz"}, 1.0, {"white": "a", "black": "b",
    ...                                                       "arbiter": "c"}))
    >>> s.append("g", 1, {"type": "move", "player": "white", "move": "e4", "at": 1.0})
    >>> s.append("g", 1, {"type": "move", "player": "white", "move": "d4", "at": 1.0})
    Traceback (most recent call last):
    ...
    remis.service.store.SeqTaken: game g already has event 1
    >>> s.append("nope", 1, {"type": "resign", "player": "white", "at": 1.0})
    Traceback (most recent call last):
    ...
    remis.service.store.StoreError: cannot store event 1 of game nope: FOREIGN KEY constraint failed
    >>> s.count("g"), s.events("g")[0]["move"], s.get_game("g").config
    (1, 'e4', {'mode': 'blitz'})
    >>> s.close()
    """

    writes_later = True

    def __init__(self, path: str, *, synchronous: str = "FULL", url: str | None = None) -> None:
        self.url = url or f"sqlite:///{path}"
        self.path = path
        self._synchronous = synchronous
        self._memory = path == ":memory:"
        self._wlock = threading.Lock()  # guards the writer connection
        self._writer = self._connect()
        self._local = threading.local()
        with self._wlock:
            c = self._writer
            c.execute("BEGIN IMMEDIATE")
            try:
                for stmt in SQLITE_SCHEMA:
                    c.execute(stmt)
                columns = {r[1] for r in c.execute("PRAGMA table_info(games)")}
                if "spectator_hash" not in columns:
                    c.execute(SPECTATOR_COLUMN)
                columns = {r[1] for r in c.execute("PRAGMA table_info(events)")}
                for name, alter in KEY_COLUMNS:
                    if name not in columns:
                        c.execute(alter)
                c.execute(KEY_INDEX)
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
        self._group = _GroupCommit(self._write, "sqlite", write_now=self._write_now)

    def _connect(self) -> sqlite3.Connection:
        c = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                            timeout=30.0)
        if not self._memory:
            c.execute("PRAGMA journal_mode=WAL")
        c.execute(f"PRAGMA synchronous={self._synchronous}")
        c.execute("PRAGMA foreign_keys=ON")
        c.execute("PRAGMA busy_timeout=30000")
        return c

    @contextmanager
    def _reader(self) -> Iterator[sqlite3.Connection]:
        if self._memory:  # one in-memory database: share the writer's connection
            with self._wlock:
                yield self._writer
            return
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        yield conn

    def _write(self, writes: list[_Write]) -> dict[int, Exception]:
        with self._wlock:
            return self._write_locked(writes)

    def _write_now(self, writes: list[_Write]) -> dict[int, Exception] | None:
        """:meth:`_write` where the writer's connection is free, else None."""
        if not self._wlock.acquire(blocking=False):
            return None
        try:
            return self._write_locked(writes)
        finally:
            self._wlock.release()

    def _write_locked(self, writes: list[_Write]) -> dict[int, Exception]:
        if self._write_at_once(writes):
            return {}
        return self._write_each(writes)

    def _write_at_once(self, writes: list[_Write]) -> bool:
        """Store the rows of one table in one statement, its own transaction
        (call with the writer's lock held): whether it did.  One step of
        SQLite instead of three lets the writer give the GIL up and take it
        back once per commit; a row the database refuses rolls the statement
        back, and :meth:`_write_each` then tells which row it was."""
        table = writes[0][0]
        insert = _INSERT_GAME if table == "games" else _INSERT_EVENT
        if len(writes) == 1:  # the common case, a lone write: its row as it is
            sql, values = insert, writes[0][1]
        elif len(writes) > _AT_ONCE or any(t != table for t, _ in writes):
            return False
        else:
            sql = insert + _MORE_VALUES[table] * (len(writes) - 1)
            values = tuple(v for _, row in writes for v in row)
        try:
            self._writer.execute(sql, values)
        except (sqlite3.Error, ValueError):
            if self._writer.in_transaction:
                self._writer.execute("ROLLBACK")
            return False
        return True

    def _write_each(self, writes: list[_Write]) -> dict[int, Exception]:
        """Store the rows one by one in one transaction: a row that cannot be
        stored fails its request only (call with the writer's lock held)."""
        failed: dict[int, Exception] = {}
        c = self._writer
        c.execute("BEGIN IMMEDIATE")
        try:
            for i, (table, row) in enumerate(writes):
                # each row on its own: a row that cannot be stored fails its
                # request only, never the others committed with it
                if table == "games":
                    try:
                        c.execute(_INSERT_GAME, row)
                    except (sqlite3.Error, ValueError) as exc:
                        failed[i] = StoreError(f"cannot store game {row[0]}: {exc}")
                    continue
                try:
                    c.execute(_INSERT_EVENT, row)
                except sqlite3.IntegrityError as exc:
                    failed[i] = (_taken(row, "client_id" in str(exc))
                                 if "UNIQUE" in str(exc) else
                                 StoreError(f"cannot store event {row[1]} of game "
                                            f"{row[0]}: {exc}"))
                except (sqlite3.Error, ValueError) as exc:  # e.g. text SQLite cannot encode
                    failed[i] = StoreError(f"cannot store event {row[1]} of game "
                                           f"{row[0]}: {exc}")
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return failed

    def create_game(self, game: GameRecord) -> None:
        """Store a new game (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> s.create_game(GameRecord("g", {}, 1.0, {"white": "a", "black": "b", "arbiter": "c"}))
        >>> s.get_game("g").hashes
        {'white': 'a', 'black': 'b', 'arbiter': 'c'}
        >>> s.create_game(GameRecord("g", {}, 2.0, {"white": "a", "black": "b", "arbiter": "c"}))
        Traceback (most recent call last):
        ...
        remis.service.store.StoreError: cannot store game g: UNIQUE constraint failed: games.id
        >>> s.close()
        """
        self.create_game_later(game).result()

    def create_game_later(self, game: GameRecord) -> Future[None]:
        """Queue the game for the next group commit (see :class:`Store`)."""
        # committed with the appends: many new games a second cost no fsync each
        return self._group.queue("games", _game_row(game))

    def append_later(self, game_id: str, seq: int, event: dict[str, Any],
                     key: EventKey | None = None) -> Future[None]:
        """Queue the event for the next group commit (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> s.create_game(GameRecord("g", {}, 1.0, {"white": "a", "black": "b", "arbiter": "c"}))
        >>> first = s.append_later("g", 1, {"type": "move", "move": "e4"})
        >>> again = s.append_later("g", 1, {"type": "move", "move": "d4"})
        >>> first.result(), type(again.exception()).__name__
        (None, 'SeqTaken')
        >>> s.close()
        """
        return self._group.queue("events", _row(game_id, seq, event, key))

    def create_game_soon(self, game: GameRecord) -> Awaitable[None]:
        """Queue the game for the next group commit, settled on the event
        loop (see :class:`Store`)."""
        if type(self).create_game_later is not SQLiteStore.create_game_later:
            return super().create_game_soon(game)  # a subclass's own write path
        return self._group.queue_soon("games", _game_row(game))

    def append_soon(self, game_id: str, seq: int, event: dict[str, Any],
                    key: EventKey | None = None) -> Awaitable[None]:
        """Queue the event for the next group commit, settled on the event
        loop: no thread-safe future per event, one call into the loop per
        batch (see :class:`Store`)."""
        if type(self).append_later is not SQLiteStore.append_later:
            return super().append_soon(game_id, seq, event, key)  # a subclass's own write path
        return self._group.queue_soon("events", _row(game_id, seq, event, key))

    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game or ``None`` (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> s.get_game("nope") is None
        True
        >>> s.close()
        """
        with self._reader() as c:
            row = c.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?",
                            (game_id,)).fetchone()
        return None if row is None else _record(row)

    def events(self, game_id: str, after: int = 0,
               limit: int | None = None) -> list[dict[str, Any]]:
        """The game's events after number ``after`` (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> s.create_game(GameRecord("g", {}, 1.0, {"white": "a", "black": "b", "arbiter": "c"}))
        >>> for n, san in enumerate(["e4", "e5", "Nf3"], start=1):
        ...     s.append("g", n, {"type": "move", "move": san})
        >>> [e["move"] for e in s.events("g", after=1)], len(s.events("g", limit=2))
        (['e5', 'Nf3'], 2)
        >>> s.close()
        """
        with self._reader() as c:
            rows = c.execute(
                "SELECT event FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (game_id, after, -1 if limit is None else limit)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def find_key(self, game_id: str, client_id: str) -> EventKey | None:
        """The stored idempotency key (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> s.find_key("g", "1") is None
        True
        >>> s.close()
        """
        with self._reader() as c:
            row = c.execute("SELECT client_id, digest, answer FROM events "
                            "WHERE game_id = ? AND client_id = ?",
                            (game_id, client_id)).fetchone()
        return None if row is None else EventKey(*row)

    def count(self, game_id: str) -> int:
        """How many events the game has (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> s.count("no such game")
        0
        >>> s.close()
        """
        with self._reader() as c:
            row = c.execute("SELECT COUNT(*) FROM events WHERE game_id = ?",
                            (game_id,)).fetchone()
        return int(row[0])

    def append(self, game_id: str, seq: int, event: dict[str, Any],
               key: EventKey | None = None) -> None:
        """Queue the event for the next group commit and wait for it.

        >>> s = SQLiteStore(":memory:")
        >>> s.create_game(GameRecord("g", {}, 1.0, {"white": "a", "black": "b", "arbiter": "c"}))
        >>> s.append("g", 1, {"type": "move", "move": "e4"})
        >>> s.append("g", 1, {"type": "move", "move": "d4"})
        Traceback (most recent call last):
        ...
        remis.service.store.SeqTaken: game g already has event 1
        >>> s.close()
        """
        self.append_later(game_id, seq, event, key).result()

    def game_ids(self) -> list[str]:
        """Every stored game id (see :class:`Store`).

        >>> s = SQLiteStore(":memory:")
        >>> hashes = {"white": "w", "black": "b", "arbiter": "a"}
        >>> for gid in ("b", "a"):
        ...     s.create_game(GameRecord(gid, {}, 1.0, hashes))
        >>> s.game_ids()
        ['a', 'b']
        >>> s.close()
        """
        with self._reader() as c:
            return [r[0] for r in c.execute("SELECT id FROM games ORDER BY id")]

    def close(self) -> None:
        """Finish the queued appends and close the writer connection.

        >>> s = SQLiteStore(":memory:")
        >>> s.close()
        >>> s.append("g", 1, {"type": "move"})
        Traceback (most recent call last):
        ...
        remis.service.store.StoreError: the store is closed
        """
        self._group.close()
        with self._wlock:
            self._writer.close()


class PostgresStore(Store):
    """PostgreSQL back end through psycopg 3: a small pool of connections
    in autocommit mode; any number of service instances can share the
    database (the primary key refuses an event number twice).

    >>> PostgresStore.__name__  # needs a server; see tests/service/test_api.py
    'PostgresStore'
    """

    def __init__(self, url: str, *, pool_size: int = 32) -> None:
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self._conninfo = url
        self._pool: queue.LifoQueue[Any] = queue.LifoQueue()
        self._size = pool_size
        self._made = 0
        self._made_lock = threading.Lock()
        with self._conn() as c, c.transaction():
            c.execute("SELECT pg_advisory_xact_lock(7270)")
            for stmt in SCHEMA:
                c.execute(stmt)
            # looked up first: ALTER TABLE would lock the table even when the column exists
            columns = {r[0] for r in c.execute(
                "SELECT table_name || '.' || column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema()")}
            if "games.spectator_hash" not in columns:
                c.execute(SPECTATOR_COLUMN)
            for name, alter in KEY_COLUMNS:
                if f"events.{name}" not in columns:
                    c.execute(alter)
            c.execute(KEY_INDEX)

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        conn = None
        try:
            conn = self._pool.get_nowait()
        except queue.Empty:
            with self._made_lock:
                if self._made < self._size:
                    self._made += 1
                    make = True
                else:
                    make = False
            if make:
                try:
                    conn = self._psycopg.connect(self._conninfo, autocommit=True)
                except Exception:
                    with self._made_lock:
                        self._made -= 1
                    raise
            else:
                conn = self._pool.get(timeout=30)
        try:
            yield conn
        except self._psycopg.OperationalError:
            conn.close()
            with self._made_lock:
                self._made -= 1
            conn = None
            raise
        finally:
            if conn is not None:
                self._pool.put(conn)

    def create_game(self, game: GameRecord) -> None:
        """Store a new game (see :class:`Store`).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.create_game`.

        Example, against a server::

            s = PostgresStore("postgresql://remis@localhost/remis")
            hashes = {"white": "w", "black": "b", "arbiter": "a"}
            s.create_game(GameRecord("g1", {}, 1.0, hashes))
        """
        try:
            with self._conn() as c:
                c.execute(f"INSERT INTO games ({GAME_COLUMNS}) "
                          "VALUES (%s, %s, %s, %s, %s, %s, %s)", _game_row(game))
        except self._psycopg.Error as exc:
            raise StoreError(f"cannot store game {game.id}: {exc}") from exc

    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game or ``None`` (see :class:`Store`).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.get_game`.

        Example, against a server::

            s = PostgresStore("postgresql://remis@localhost/remis")
            s.get_game("nope") is None  # True
        """
        with self._conn() as c:
            row = c.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s",
                            (game_id,)).fetchone()
        return None if row is None else _record(row)

    def events(self, game_id: str, after: int = 0,
               limit: int | None = None) -> list[dict[str, Any]]:
        """The game's events after number ``after`` (see :class:`Store`).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.events`.

        Example, against a server::

            s = PostgresStore("postgresql://remis@localhost/remis")
            s.append("g1", 1, {"type": "move", "uci": "e2e4"})
            s.events("g1")  # [{"type": "move", "uci": "e2e4"}]
        """
        with self._conn() as c:
            rows = c.execute("SELECT event FROM events WHERE game_id = %s AND seq > %s "
                             "ORDER BY seq LIMIT %s", (game_id, after, limit)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def find_key(self, game_id: str, client_id: str) -> EventKey | None:
        """The stored idempotency key (see :class:`Store`).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.find_key`.
        """
        with self._conn() as c:
            row = c.execute("SELECT client_id, digest, answer FROM events "
                            "WHERE game_id = %s AND client_id = %s",
                            (game_id, client_id)).fetchone()
        return None if row is None else EventKey(*row)

    def count(self, game_id: str) -> int:
        """How many events the game has (see :class:`Store`).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.count`.

        Example, against a server::

            PostgresStore("postgresql://remis@localhost/remis").count("g1")  # 1 after that append
        """
        with self._conn() as c:
            row = c.execute("SELECT COUNT(*) FROM events WHERE game_id = %s",
                            (game_id,)).fetchone()
        return int(row[0])

    def append(self, game_id: str, seq: int, event: dict[str, Any],
               key: EventKey | None = None) -> None:
        """Insert and commit (see :class:`Store`); PostgreSQL itself flushes
        the commits of concurrent connections together (measured: a writer
        thread batching them here was no faster).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.append`.

        Example, against a server::

            s = PostgresStore("postgresql://remis@localhost/remis")
            s.append("g1", 2, {"type": "move", "uci": "e7e5"})
            s.append("g1", 2, {"type": "move", "uci": "d7d5"})  # raises SeqTaken
        """
        row = _row(game_id, seq, event, key)
        try:
            with self._conn() as c:
                c.execute(f"INSERT INTO events ({EVENT_COLUMNS}) "
                          "VALUES (%s, %s, %s, %s, %s, %s)", row)
        except self._psycopg.errors.UniqueViolation as exc:
            raise _taken(row, exc.diag.constraint_name == "events_client_id") from None
        except (self._psycopg.DataError, UnicodeEncodeError) as exc:  # e.g. a lone surrogate
            raise StoreError(f"cannot store event {seq} of game {game_id}: {exc}") from None

    def game_ids(self) -> list[str]:
        """Every stored game id (see :class:`Store`).

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.game_ids`.

        Example, against a server::

            PostgresStore("postgresql://remis@localhost/remis").game_ids()  # ["g1"]
        """
        with self._conn() as c:
            return [r[0] for r in c.execute("SELECT id FROM games ORDER BY id").fetchall()]

    def close(self) -> None:
        """Close every pooled connection.

        Needs a server (tests/service/test_api.py starts one); the same call on
        SQLite: :meth:`SQLiteStore.close`.

        Example, against a server::

            PostgresStore("postgresql://remis@localhost/remis").close()
        """
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break


def open_store(url: str) -> Store:
    """Open the store a URL names: ``sqlite:///relative.db``,
    ``sqlite:////absolute/path.db``, ``sqlite:///:memory:`` (optionally
    ``?synchronous=normal``) or ``postgresql://user@host:port/dbname``
    (see :func:`check_url`).

    >>> open_store("sqlite:///:memory:").url
    'sqlite:///:memory:'
    >>> open_store("mysql://x")
    Traceback (most recent call last):
    ...
    ValueError: unsupported database URL 'mysql://x' (use sqlite:///FILE or postgresql://...)
    """
    parts = check_url(url)
    if parts.scheme == "sqlite":
        sync = parse_qs(parts.query).get("synchronous", ["FULL"])[0].upper()
        return SQLiteStore(parts.path[1:], synchronous=sync, url=url)
    return PostgresStore(url)


def check_url(url: str) -> SplitResult:
    """The parts of a database URL :func:`open_store` can open, or
    ``ValueError`` saying what is wrong with it (its password masked).  A
    PostgreSQL password holding ``@``, ``/``, ``?`` or ``#`` must be
    percent-encoded: written as it is, it cannot be told from the host, and
    libpq would read part of it as one (and print it in its error).

    >>> check_url("postgresql://remis:p%40ss@db/remis").hostname
    'db'
    >>> check_url("postgresql://remis:p@ss@db/remis")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'postgresql://remis:***@db/remis': the user name or password holds an @, ...
    >>> check_url("postgresql://remis:pa/ss@db/remis")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'postgresql://remis:***@db/remis': the user name or password holds ...
    >>> check_url("postgresql://remis:S3cret@[::1/remis")
    Traceback (most recent call last):
    ...
    ValueError: 'postgresql://remis:***@[::1/remis' is not a URL: Invalid IPv6 URL
    """
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ValueError(f"{mask_url(url)!r} is not a URL: {exc}") from None
    rest = url.partition("://")[2]
    if parts.scheme in ("postgresql", "postgres") and (
            rest.count("@") > 1 or ("@" in rest and "@" not in parts.netloc)):
        raise ValueError(f"{mask_url(url)!r}: the user name or password holds an @, /, ? "
                         "or # that is not percent-encoded (write %40, %2F, %3F, %23), "
                         "or leave the password out of the URL: PGPASSWORD or ~/.pgpass")
    try:
        parts.port  # noqa: B018 - a port that is no number, or out of range, raises here
    except ValueError as exc:
        raise ValueError(f"{mask_url(url)!r} is not a URL: {exc}") from None
    if parts.scheme == "sqlite":
        if not url.startswith("sqlite:///"):
            raise ValueError(f"SQLite URL {url!r} must start with sqlite:/// "
                             "(sqlite:///relative.db or sqlite:////absolute.db)")
        if not parts.path[1:]:
            raise ValueError(f"SQLite URL {url!r} names no file")
        sync = parse_qs(parts.query).get("synchronous", ["FULL"])[0].upper()
        if sync not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous={sync.lower()} in {url!r}: use full, normal or extra")
        return parts
    if parts.scheme in ("postgresql", "postgres"):
        return parts
    raise ValueError(f"unsupported database URL {mask_url(url)!r} "
                     "(use sqlite:///FILE or postgresql://...)")


def password_of(url: str) -> str | None:
    """The password of a database URL as written in it: from the first ``:``
    after the user name to the last ``@`` (so that a password holding an
    ``@`` or a ``/`` is all of it; where a later part of the URL holds an
    ``@`` too, more than the password), or None.

    >>> password_of("postgresql://remis:p@ss@db/remis"), password_of("sqlite:///x.db")
    ('p@ss', None)
    >>> password_of("postgresql://remis:pa/ss@db/remis")
    'pa/ss'
    """
    _, sep, rest = url.partition("://")
    userinfo, at, _ = rest.rpartition("@")
    if not sep or not at:
        return None
    _, colon, password = userinfo.partition(":")
    return password if colon and password else None


def mask_url(url: str) -> str:
    """``url`` with its password (as :func:`password_of` finds it) as ``***``.

    >>> mask_url("postgresql://remis:p@ss@[::1/remis")
    'postgresql://remis:***@[::1/remis'
    """
    password = password_of(url)
    if password is None:
        return url
    scheme, _, rest = url.partition("://")
    user = rest.partition(":")[0]
    return f"{scheme}://{user}:***@{rest.rpartition('@')[2]}"


_URL_PASSWORD = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/:@\s]*:)[^\s/]*@", re.IGNORECASE)
_PARAM_PASSWORD = re.compile(r"\b(password\s*=\s*)('[^']*'|\S+)", re.IGNORECASE)


def redact(text: str, url: str | None = None) -> str:
    """``text`` without passwords: those of URLs in it (an ``@`` in a password
    included), ``password=`` parameters and, wherever it appears in any of
    its forms (as written, percent-decoded), the password of ``url``.  It
    never fails, whatever ``url`` holds.

    >>> redact("--db postgresql://remis:S3cret@db:5432/remis: refused")
    '--db postgresql://remis:***@db:5432/remis: refused'
    >>> redact("--db postgresql://remis:p@ss@db:5432/remis: refused")
    '--db postgresql://remis:***@db:5432/remis: refused'
    >>> redact("auth failed for S3cret", "postgresql://remis:S3cret@db/remis")
    'auth failed for ***'
    >>> redact("auth failed for p@ss", "postgresql://remis:p%40ss@db/remis")
    'auth failed for ***'
    >>> redact("host=db password=S3cret dbname=remis")
    'host=db password=*** dbname=remis'
    >>> redact("bad: S3cret", "postgresql://remis:S3cret@[::1/remis")
    'bad: ***'
    """
    out = _PARAM_PASSWORD.sub(r"\1***", _URL_PASSWORD.sub(r"\1***@", text))
    forms: set[str] = set()
    written = password_of(url) if url else None
    if written:
        forms |= {written, unquote(written)}
    with contextlib.suppress(ValueError):
        parsed = urlsplit(url).password if url else None
        if parsed:
            forms |= {parsed, unquote(parsed)}
    for form in sorted(forms, key=len, reverse=True):
        out = out.replace(form, "***")
    return out

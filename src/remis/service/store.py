"""Where games live: their configuration, token hashes and event logs.

Two back ends behind one interface: SQLite from the standard library (the
embedded default, WAL mode) and PostgreSQL through psycopg 3 (for several
service instances sharing one database).  A game is its event log: the
service rebuilds any game from :meth:`Store.events` after a restart.

Appending is the only write that matters for correctness.  It happens inside
:meth:`Store.appending`, which locks the game *in the database* (SQLite
``BEGIN IMMEDIATE``, PostgreSQL ``SELECT ... FOR UPDATE``), so that several
processes never append the same event number twice; the primary key
``(game_id, seq)`` is the last guard.  The transaction commits before the
context manager returns, so an event is durable before it is acknowledged.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        white_hash TEXT NOT NULL,
        black_hash TEXT NOT NULL,
        arbiter_hash TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS events (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (game_id, seq))""",
]


class StoreError(RuntimeError):
    """The database refused or failed an operation (not the client's fault)."""


@dataclass(frozen=True)
class GameRecord:
    """A stored game: id, arbiter config, creation time (Unix seconds) and
    the token hashes by role.

    >>> GameRecord("g1", {}, 0.0, {"white": "h1", "black": "h2", "arbiter": "h3"}).id
    'g1'
    """

    id: str
    config: dict[str, Any]
    created: float
    hashes: dict[str, str]


class Appender:
    """The handle :meth:`Store.appending` yields: the game is locked,
    ``count`` is the number of events already stored and :meth:`stored`
    reads them through the same transaction.

    >>> a = Appender(3, lambda after: [])
    >>> a.append({"type": "resign", "player": "white"}); a.count, a.pending
    (4, [(4, {'type': 'resign', 'player': 'white'})])
    """

    def __init__(self, count: int,
                 loader: Callable[[int], list[dict[str, Any]]]) -> None:
        self.count = count
        self.pending: list[tuple[int, dict[str, Any]]] = []
        self._loader = loader

    def stored(self, after: int = 0) -> list[dict[str, Any]]:
        """The stored events numbered ``after + 1`` onwards (inside the lock)."""
        return self._loader(after)

    def append(self, event: dict[str, Any]) -> None:
        """Queue ``event`` as the next one (number ``count + 1``); it is
        written when the ``appending`` block ends without an exception."""
        self.count += 1
        self.pending.append((self.count, event))


class Store(ABC):
    """The storage interface shared by the SQLite and PostgreSQL back ends."""

    url: str

    @abstractmethod
    def create_game(self, game: GameRecord) -> None:
        """Store a new game (no events yet)."""

    @abstractmethod
    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game, or ``None`` when there is none with that id."""

    @abstractmethod
    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The game's events numbered ``after + 1`` onwards, in order."""

    @abstractmethod
    def count(self, game_id: str) -> int:
        """How many events the game has."""

    @abstractmethod
    def appending(self, game_id: str) -> Any:
        """Context manager: lock the game in the database, yield an
        :class:`Appender`, write its pending events and commit on a clean
        exit (roll back on an exception)."""

    @abstractmethod
    def game_ids(self) -> list[str]:
        """Every stored game id (for tests and maintenance)."""

    @abstractmethod
    def close(self) -> None:
        """Release the connections."""


def _record(row: tuple[Any, ...]) -> GameRecord:
    gid, config, created, wh, bh, ah = row
    return GameRecord(str(gid), json.loads(config), float(created),
                      {"white": wh, "black": bh, "arbiter": ah})


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class SQLiteStore(Store):
    """SQLite back end: one connection shared under a lock (SQLite writes
    one transaction at a time anyway), WAL journal, ``synchronous=FULL`` by
    default so that a commit is on disk before the event is acknowledged
    (``?synchronous=normal`` trades that for speed: still safe against a
    killed process, not against a power cut).

    >>> s = SQLiteStore(":memory:")
    >>> s.create_game(GameRecord("g", {"mode": "blitz"}, 1.0, {"white": "a", "black": "b",
    ...                                                       "arbiter": "c"}))
    >>> with s.appending("g") as a:
    ...     a.append({"type": "move", "player": "white", "move": "e4", "at": 1.0})
    >>> s.count("g"), s.events("g")[0]["move"], s.get_game("g").config
    (1, 'e4', {'mode': 'blitz'})
    """

    def __init__(self, path: str, *, synchronous: str = "FULL", url: str | None = None) -> None:
        self.url = url or f"sqlite:///{path}"
        self.path = path
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                     timeout=30.0)
        c = self._conn
        if path != ":memory:":
            c.execute("PRAGMA journal_mode=WAL")
        c.execute(f"PRAGMA synchronous={synchronous}")
        c.execute("PRAGMA foreign_keys=ON")
        c.execute("PRAGMA busy_timeout=30000")
        with self._lock:
            c.execute("BEGIN IMMEDIATE")
            try:
                for stmt in SCHEMA:
                    c.execute(stmt)
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise

    def create_game(self, game: GameRecord) -> None:
        """Store a new game (see :class:`Store`)."""
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, _dump(game.config), game.created, game.hashes["white"],
                     game.hashes["black"], game.hashes["arbiter"]))
            except sqlite3.Error as exc:
                raise StoreError(f"cannot store game {game.id}: {exc}") from exc

    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game or ``None`` (see :class:`Store`)."""
        with self._lock:
            row = self._conn.execute(
                "SELECT id, config, created, white_hash, black_hash, arbiter_hash "
                "FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else _record(row)

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The game's events after number ``after`` (see :class:`Store`)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT event FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def count(self, game_id: str) -> int:
        """How many events the game has (see :class:`Store`)."""
        with self._lock:
            row = self._conn.execute("SELECT COUNT(*) FROM events WHERE game_id = ?",
                                     (game_id,)).fetchone()
        return int(row[0])

    @contextmanager
    def appending(self, game_id: str) -> Iterator[Appender]:
        """Lock (``BEGIN IMMEDIATE``), yield an :class:`Appender`, commit."""
        with self._lock:
            c = self._conn
            c.execute("BEGIN IMMEDIATE")
            try:
                n = int(c.execute("SELECT COUNT(*) FROM events WHERE game_id = ?",
                                  (game_id,)).fetchone()[0])
                appender = Appender(n, lambda after: self.events(game_id, after))
                yield appender
                c.executemany("INSERT INTO events (game_id, seq, event) VALUES (?, ?, ?)",
                              [(game_id, seq, _dump(ev)) for seq, ev in appender.pending])
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise

    def game_ids(self) -> list[str]:
        """Every stored game id (see :class:`Store`)."""
        with self._lock:
            return [r[0] for r in self._conn.execute("SELECT id FROM games ORDER BY id")]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()


class PostgresStore(Store):
    """PostgreSQL back end through psycopg 3: a small pool of connections;
    an append locks the game's row with ``SELECT ... FOR UPDATE`` so that
    any number of service instances can share the database.

    >>> PostgresStore.__name__  # needs a server; see tests/service/test_postgres.py
    'PostgresStore'
    """

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
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
        """Store a new game (see :class:`Store`)."""
        try:
            with self._conn() as c:
                c.execute("INSERT INTO games VALUES (%s, %s, %s, %s, %s, %s)",
                          (game.id, _dump(game.config), game.created, game.hashes["white"],
                           game.hashes["black"], game.hashes["arbiter"]))
        except self._psycopg.Error as exc:
            raise StoreError(f"cannot store game {game.id}: {exc}") from exc

    def get_game(self, game_id: str) -> GameRecord | None:
        """The stored game or ``None`` (see :class:`Store`)."""
        with self._conn() as c:
            row = c.execute("SELECT id, config, created, white_hash, black_hash, arbiter_hash "
                            "FROM games WHERE id = %s", (game_id,)).fetchone()
        return None if row is None else _record(row)

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The game's events after number ``after`` (see :class:`Store`)."""
        with self._conn() as c:
            rows = c.execute("SELECT event FROM events WHERE game_id = %s AND seq > %s "
                             "ORDER BY seq", (game_id, after)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def count(self, game_id: str) -> int:
        """How many events the game has (see :class:`Store`)."""
        with self._conn() as c:
            row = c.execute("SELECT COUNT(*) FROM events WHERE game_id = %s",
                            (game_id,)).fetchone()
        return int(row[0])

    @contextmanager
    def appending(self, game_id: str) -> Iterator[Appender]:
        """Lock the game row (``FOR UPDATE``), yield an :class:`Appender`, commit."""
        with self._conn() as c, c.transaction():
            c.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (game_id,))
            n = int(c.execute("SELECT COUNT(*) FROM events WHERE game_id = %s",
                              (game_id,)).fetchone()[0])

            def load(after: int) -> list[dict[str, Any]]:
                rows = c.execute("SELECT event FROM events WHERE game_id = %s AND seq > %s "
                                 "ORDER BY seq", (game_id, after)).fetchall()
                return [json.loads(r[0]) for r in rows]

            appender = Appender(n, load)
            yield appender
            if appender.pending:
                with c.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO events (game_id, seq, event) VALUES (%s, %s, %s)",
                        [(game_id, seq, _dump(ev)) for seq, ev in appender.pending])

    def game_ids(self) -> list[str]:
        """Every stored game id (see :class:`Store`)."""
        with self._conn() as c:
            return [r[0] for r in c.execute("SELECT id FROM games ORDER BY id").fetchall()]

    def close(self) -> None:
        """Close every pooled connection."""
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break


def open_store(url: str) -> Store:
    """Open the store a URL names: ``sqlite:///relative.db``,
    ``sqlite:////absolute/path.db``, ``sqlite:///:memory:`` (optionally
    ``?synchronous=normal``) or ``postgresql://user@host:port/dbname``.

    >>> open_store("sqlite:///:memory:").url
    'sqlite:///:memory:'
    >>> open_store("mysql://x")
    Traceback (most recent call last):
    ...
    ValueError: unsupported database URL 'mysql://x' (use sqlite:///FILE or postgresql://...)
    """
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        if not url.startswith("sqlite:///"):
            raise ValueError(f"SQLite URL {url!r} must start with sqlite:/// "
                             "(sqlite:///relative.db or sqlite:////absolute.db)")
        path = parts.path[1:]
        if not path:
            raise ValueError(f"SQLite URL {url!r} names no file")
        sync = parse_qs(parts.query).get("synchronous", ["FULL"])[0].upper()
        if sync not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous={sync.lower()} in {url!r}: use full, normal or extra")
        return SQLiteStore(path, synchronous=sync, url=url)
    if parts.scheme in ("postgresql", "postgres"):
        return PostgresStore(url)
    raise ValueError(f"unsupported database URL {url!r} (use sqlite:///FILE or postgresql://...)")

"""The stores: what is appended is what is read back, in order, once; an
event number is never stored twice, whichever thread or connection (as
several service instances would) tries."""

from __future__ import annotations

import threading
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from service_procs import PATIENCE

from remis.service.store import (
    KEY_COLUMNS,
    SCHEMA,
    EventKey,
    GameRecord,
    KeyTaken,
    SeqTaken,
    SQLiteStore,
    Store,
    StoreError,
    open_store,
)

HASHES = {"white": "w", "black": "b", "arbiter": "a", "spectator": "s"}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 's.db'}"
    else:
        url = str(request.getfixturevalue("pg_url"))
    s = open_store(url)
    request.addfinalizer(s.close)
    return s


def test_round_trip(store: Store) -> None:
    store.create_game(GameRecord("g1", {"time_control": "300+2"}, 12.5, HASHES))
    assert store.count("g1") == 0
    store.append("g1", 1, {"type": "move", "player": "white", "move": "e4", "at": 1.5})
    store.append("g1", 2, {"type": "move", "player": "black", "move": "é5?", "at": 2})
    rec = store.get_game("g1")
    assert rec is not None and rec.config == {"time_control": "300+2"} and rec.created == 12.5
    assert rec.hashes == HASHES
    assert store.count("g1") == 2
    assert [e["move"] for e in store.events("g1")] == ["e4", "é5?"]
    assert [e["move"] for e in store.events("g1", after=1)] == ["é5?"]
    assert store.get_game("nope") is None and store.game_ids() == ["g1"]


def test_an_event_number_is_stored_once(store: Store) -> None:
    store.create_game(GameRecord("g", {}, 0.0, HASHES))
    store.append("g", 1, {"type": "resign", "player": "white"})
    with pytest.raises(SeqTaken, match="already has event 1"):
        store.append("g", 1, {"type": "resign", "player": "black"})
    assert store.events("g") == [{"type": "resign", "player": "white"}]


def test_duplicate_game_id_is_a_store_error(store: Store) -> None:
    store.create_game(GameRecord("g", {}, 0.0, HASHES))
    with pytest.raises(StoreError, match="cannot store game g"):
        store.create_game(GameRecord("g", {}, 0.0, HASHES))


def _append_next(s: Store, event: dict[str, object]) -> int:
    """Append as the next event, retrying when another writer was first."""
    for _ in range(1000):
        seq = s.count("g") + 1
        try:
            s.append("g", seq, event)
            return seq
        except SeqTaken:
            continue
    raise AssertionError("never got an event number")


def test_concurrent_appends_are_serialised(store: Store) -> None:
    """16 threads append 20 events each: the numbers 1..320 are each stored
    once and every event is there exactly once."""
    store.create_game(GameRecord("g", {}, 0.0, HASHES))
    got: list[int] = []

    def worker(t: int) -> None:
        for i in range(20):
            got.append(_append_next(store, {"t": t, "i": i}))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(PATIENCE)
    events = store.events("g")
    assert sorted(got) == list(range(1, 321)) and store.count("g") == 320
    assert sorted((e["t"], e["i"]) for e in events) == [(t, i) for t in range(16)
                                                         for i in range(20)]


def test_a_cancelled_write_is_dropped_and_the_writer_goes_on(tmp_path: Path) -> None:
    """A request cancelled while its row waits for the writer (asyncio
    cancels the future it awaits) is not stored, and the writer thread
    goes on with the next rows (it used to die setting the cancelled
    future's result, and every later write failed)."""
    s = SQLiteStore(str(tmp_path / "games.db"))
    s.create_game(GameRecord("g", {}, 0.0, {"white": "w", "black": "b", "arbiter": "a"}))
    writing, go_on = threading.Event(), threading.Event()
    write = s._group._write

    def slow(writes: Any) -> Any:
        writing.set()
        go_on.wait(PATIENCE)
        return write(writes)

    s._group._write = slow
    first = s.append_later("g", 1, {"type": "move", "move": "e4"})
    assert writing.wait(PATIENCE)  # the writer holds the first row: the next one waits
    gave_up = s.append_later("g", 2, {"type": "move", "move": "d5"})
    assert gave_up.cancel()
    go_on.set()
    first.result(PATIENCE)
    s.append_later("g", 2, {"type": "move", "move": "e5"}).result(PATIENCE)
    assert [e["move"] for e in s.events("g")] == ["e4", "e5"]
    s.close()


def test_a_batch_of_one_table_in_one_statement_still_fails_row_by_row(
        tmp_path: Path) -> None:
    """A batch of events is committed in one statement; when SQLite refuses
    one of its rows (a number taken, text it cannot encode), that row alone
    fails and the others are stored, as when each row had its own statement."""
    s = SQLiteStore(str(tmp_path / "b.db"))
    s.create_game(GameRecord("g", {}, 0.0, HASHES))
    s.append("g", 1, {"type": "touch"})
    row = ("g", 2, '{"type":"touch"}', None, None, None)
    assert s._write([("events", row), ("events", ("g", 3, '{"type":"touch"}', None, None,
                                                   None))]) == {}
    rows = [("g", 4, '{"type":"touch"}', None, None, None),
            ("g", 2, '{"type":"resign"}', None, None, None),             # taken
            ("g", 5, '{"type":"touch","id":"\ud800"}', '"\ud800"', "d", "{}"),  # not Unicode
            ("g", 6, '{"type":"touch"}', None, None, None)]
    failed = s._write([("events", r) for r in rows])
    assert sorted(failed) == [1, 2] and isinstance(failed[1], SeqTaken)
    assert isinstance(failed[2], StoreError)
    assert s.count("g") == 5 and [e["type"] for e in s.events("g")] == ["touch"] * 5
    s.close()


def test_the_event_loop_awaits_its_commits(tmp_path: Path) -> None:
    """``append_soon`` on the event loop: the rows of one batch are settled
    there once committed, a refused row raises its own exception, and a row
    whose request gave up before the writer took it is not stored."""
    import asyncio

    s = SQLiteStore(str(tmp_path / "loop.db"))
    s.create_game(GameRecord("g", {}, 0.0, HASHES))

    async def play() -> list[BaseException | None]:
        with s._wlock:  # the writer takes the first row and waits for its connection
            first = asyncio.ensure_future(s.append_soon("g", 1, {"move": "e4"}))
            await asyncio.sleep(0)
            while not s._group._queue.empty():
                await asyncio.sleep(0.01)
            rows = [s.append_soon("g", 2, {"move": "e5"}),
                    s.append_soon("g", 1, {"move": "d4"}),
                    s.append_soon("g", 3, {"move": "Nf3"})]
            gave_up = asyncio.ensure_future(rows.pop())
            await asyncio.sleep(0)
            gave_up.cancel()
        return list(await asyncio.gather(first, *rows, return_exceptions=True))

    first, second, taken = asyncio.run(play())
    assert first is None and second is None and isinstance(taken, SeqTaken)
    assert [e["move"] for e in s.events("g")] == ["e4", "e5"]
    s.close()


def test_a_lone_write_of_the_event_loop_is_committed_on_the_loop(tmp_path: Path) -> None:
    """A write of the event loop that finds the writer idle is committed by
    the loop's thread, durable when its await returns (another connection
    reads it); a refused row raises there too.  Where commits come often
    (the last one took long, and ended a moment ago), the writer thread
    takes the write, so that the loop never spends most of its time on disk."""
    import asyncio

    s = SQLiteStore(str(tmp_path / "lone.db"))
    s.create_game(GameRecord("g", {}, 0.0, HASHES))
    other = SQLiteStore(str(tmp_path / "lone.db"))
    by: list[str] = []
    write = s._write_locked

    def spy(writes: Any) -> Any:
        by.append(threading.current_thread().name)
        return write(writes)

    s._write_locked = spy  # type: ignore[method-assign]

    async def play() -> BaseException | None:
        loop = threading.current_thread().name
        s._group._ended = float("-inf")  # at rest: no commit lately
        await s.append_soon("g", 1, {"move": "e4"})
        assert by == [loop] and other.count("g") == 1
        s._group._ended = float("-inf")
        try:
            await s.append_soon("g", 1, {"move": "d4"})
        except SeqTaken as exc:
            refused: BaseException | None = exc
        else:
            refused = None
        assert by == [loop, loop]
        # the last commit ended now and took an hour: commits are not sparse
        s._group._ended, s._group._took = time.monotonic(), 3600.0
        await s.append_soon("g", 2, {"move": "e5"})
        return refused

    assert isinstance(asyncio.run(play()), SeqTaken)
    assert by[2] == "remis-sqlite-writer" and other.count("g") == 2
    assert [e["move"] for e in other.events("g")] == ["e4", "e5"]
    s.close()
    other.close()


def test_two_sqlite_connections_do_not_double_append(tmp_path: Path) -> None:
    """Two stores on one file (as two processes would be) append in turn."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    a, b = open_store(url), open_store(url)
    a.create_game(GameRecord("g", {}, 0.0, HASHES))
    got: list[int] = []

    def worker(s: Store, name: str) -> None:
        for i in range(30):
            got.append(_append_next(s, {"by": name, "i": i}))

    ts = [threading.Thread(target=worker, args=(s, n)) for s, n in ((a, "a"), (b, "b"))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(PATIENCE)
    assert sorted(got) == list(range(1, 61))
    assert sorted((e["by"], e["i"]) for e in b.events("g")) == [
        (n, i) for n in "ab" for i in range(30)]
    a.close()
    b.close()


def test_an_append_without_a_key_writes_one_page(tmp_path: Path) -> None:
    """In a new SQLite database an event without an idempotency key is one
    page of the log (the events in the order of their key, the keys' index
    holding only keyed events), not three; keys are still refused twice."""
    import os

    s = SQLiteStore(str(tmp_path / "pages.db"))
    s.create_game(GameRecord("g", {}, 0.0, HASHES))
    page = s._writer.execute("PRAGMA page_size").fetchone()[0]
    sizes = []
    for n in range(1, 5):
        s.append("g", n, {"type": "move", "player": "white", "move": "e4"})
        sizes.append(os.path.getsize(tmp_path / "pages.db-wal"))
    assert {b - a for a, b in pairwise(sizes)} == {page + 24}  # one frame
    key = EventKey('"k"', "d", "{}")
    s.append("g", 5, {"type": "touch", "id": "k"}, key=key)
    with pytest.raises(KeyTaken):
        s.append("g", 6, {"type": "touch", "id": "k"}, key=key)
    assert s.find_key("g", '"k"') == key and s.count("g") == 5
    s.close()


def test_a_database_of_the_earlier_layout_works_the_same(tmp_path: Path) -> None:
    """A database made with events in a rowid table and an index of every
    event's key keeps that layout, and refuses a number or a key twice."""
    import sqlite3

    with sqlite3.connect(tmp_path / "old.db") as c:
        c.execute(SCHEMA[0])
        c.execute(SCHEMA[1])
        for _, alter in KEY_COLUMNS:
            c.execute(alter)
        c.execute("CREATE UNIQUE INDEX events_client_id ON events (game_id, client_id)")
    s = SQLiteStore(str(tmp_path / "old.db"))
    s.create_game(GameRecord("g", {}, 0.0, HASHES))
    key = EventKey("1", "d", "{}")
    s.append("g", 1, {"type": "touch"})
    s.append("g", 2, {"type": "touch", "id": 1}, key=key)
    with pytest.raises(SeqTaken):
        s.append("g", 2, {"type": "resign", "player": "white"})
    with pytest.raises(KeyTaken):
        s.append("g", 3, {"type": "touch", "id": 1}, key=key)
    assert s.find_key("g", "1") == key and s.count("g") == 2
    layout = dict(s._writer.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))
    assert "WITHOUT ROWID" not in layout["events"]
    assert "WHERE" not in layout["events_client_id"]
    s.close()


def test_sqlite_is_wal_and_synchronous_full(tmp_path: Path) -> None:
    s = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    assert isinstance(s, SQLiteStore)
    assert s._writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s._writer.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    s.close()


@pytest.mark.parametrize("url, message", [
    ("sqlite://relative.db", "must start with sqlite:///"),
    ("sqlite:///", "names no file"),
    ("sqlite:///x.db?synchronous=off", "synchronous=off"),
    ("redis://localhost", "unsupported database URL"),
])
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        open_store(url)


OLD_GAMES = """CREATE TABLE games (id TEXT PRIMARY KEY, config TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL, white_hash TEXT NOT NULL, black_hash TEXT NOT NULL,
    arbiter_hash TEXT NOT NULL)"""


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_database_without_spectator_tokens_is_upgraded(
        db: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """A database made before spectator tokens gets the column; its games keep
    their three tokens (no spectator) and new games get all four."""
    old_row = ("old", "{}", 1.0, "w", "b", "a")
    if db == "sqlite":
        import sqlite3

        url = f"sqlite:///{tmp_path / 'old.db'}"
        with sqlite3.connect(tmp_path / "old.db") as c:
            c.execute(OLD_GAMES)
            c.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", old_row)
    else:
        import psycopg

        url = str(request.getfixturevalue("pg_url"))
        with psycopg.connect(url, autocommit=True) as c:
            c.execute(OLD_GAMES)
            c.execute("INSERT INTO games VALUES (%s, %s, %s, %s, %s, %s)", old_row)
    for _ in range(2):  # opening again finds the column there
        s = open_store(url)
        old = s.get_game("old")
        assert old is not None and old.hashes == {"white": "w", "black": "b", "arbiter": "a"}
        s.close()
    s = open_store(url)
    s.create_game(GameRecord("new", {}, 2.0, HASHES))
    new = s.get_game("new")
    assert new is not None and new.hashes == HASHES
    s.close()

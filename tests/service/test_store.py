"""The stores: what is appended is what is read back, in order, once; the
database lock serialises appends from several threads (and, for PostgreSQL,
from several connections as several service instances would)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from remis.service.store import GameRecord, SQLiteStore, Store, StoreError, open_store

HASHES = {"white": "w", "black": "b", "arbiter": "a"}


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
    with store.appending("g1") as ap:
        assert ap.count == 0
        ap.append({"type": "move", "player": "white", "move": "e4", "at": 1.5})
        ap.append({"type": "move", "player": "black", "move": "é5?", "at": 2})
    rec = store.get_game("g1")
    assert rec is not None and rec.config == {"time_control": "300+2"} and rec.created == 12.5
    assert rec.hashes == HASHES
    assert store.count("g1") == 2
    assert [e["move"] for e in store.events("g1")] == ["e4", "é5?"]
    assert [e["move"] for e in store.events("g1", after=1)] == ["é5?"]
    assert store.get_game("nope") is None and store.game_ids() == ["g1"]


def test_exception_rolls_back(store: Store) -> None:
    store.create_game(GameRecord("g", {}, 0.0, HASHES))
    with pytest.raises(KeyError), store.appending("g") as ap:
        ap.append({"type": "resign", "player": "white"})
        raise KeyError("refused")
    assert store.count("g") == 0


def test_duplicate_game_id_is_a_store_error(store: Store) -> None:
    store.create_game(GameRecord("g", {}, 0.0, HASHES))
    with pytest.raises(StoreError, match="cannot store game g"):
        store.create_game(GameRecord("g", {}, 0.0, HASHES))


def test_concurrent_appends_are_serialised(store: Store) -> None:
    """16 threads append 20 events each, reading the count under the lock:
    every count 0..319 is seen exactly once."""
    store.create_game(GameRecord("g", {}, 0.0, HASHES))

    def worker(t: int) -> None:
        for i in range(20):
            with store.appending("g") as ap:
                ap.append({"t": t, "i": i, "seen": ap.count})

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    events = store.events("g")
    assert len(events) == 320
    assert [e["seen"] for e in events] == list(range(320))
    assert sorted((e["t"], e["i"]) for e in events) == [(t, i) for t in range(16)
                                                         for i in range(20)]


def test_two_sqlite_connections_do_not_double_append(tmp_path: Path) -> None:
    """Two stores on one file (as two processes would be) append in turn."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    a, b = open_store(url), open_store(url)
    a.create_game(GameRecord("g", {}, 0.0, HASHES))

    def worker(s: Store) -> None:
        for _ in range(30):
            with s.appending("g") as ap:
                ap.append({"seen": ap.count})

    ts = [threading.Thread(target=worker, args=(s,)) for s in (a, b)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert [e["seen"] for e in a.events("g")] == list(range(60))
    a.close()
    b.close()


def test_sqlite_is_wal_and_synchronous_full(tmp_path: Path) -> None:
    s = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    assert isinstance(s, SQLiteStore)
    assert s._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("url, message", [
    ("sqlite://relative.db", "must start with sqlite:///"),
    ("sqlite:///", "names no file"),
    ("sqlite:///x.db?synchronous=off", "synchronous=off"),
    ("redis://localhost", "unsupported database URL"),
])
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        open_store(url)

"""Fixtures of the service tests: real ``remis serve`` processes over SQLite
and over a PostgreSQL cluster started for the session."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from service_procs import PATIENCE, Postgres, Server, start_postgres

pytest.importorskip("fastapi", reason="the service extra is not installed")

from remis.service.pool import SearchPool


@pytest.fixture(autouse=True)
def patient_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx's own calls wait as long as a busy machine needs (its default is
    5 s); a test that passes a timeout keeps it."""
    import functools

    import httpx

    for name in ("get", "post", "put", "patch", "delete", "head", "options", "request",
                 "stream"):
        monkeypatch.setattr(httpx, name, functools.partial(getattr(httpx, name),
                                                           timeout=PATIENCE))


@pytest.fixture
def worker_pool() -> Iterator[SearchPool]:
    """A search pool of one worker process, started."""
    pool = SearchPool("test", workers=1)
    pool.start()
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster for the session (skips the test with the reason
    when the server cannot be started)."""
    pg, why = start_postgres()
    if pg is None:
        pytest.skip(why)
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'remis.db'}"


@pytest.fixture
def pg_url(postgres: Postgres) -> Iterator[str]:
    """A fresh PostgreSQL database in the session's cluster."""
    import uuid

    import psycopg

    name = "t" + uuid.uuid4().hex[:12]
    admin = postgres.url
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    yield admin.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test twice: over SQLite and over PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'remis.db'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[type[Server]]:
    """Start servers with ``server_factory(db_url)``; all are stopped at the end."""
    started: list[Server] = []

    def make(db: str) -> Server:
        s = Server(db, log=tmp_path / f"serve-{len(started)}.log").start()
        started.append(s)
        return s

    yield make  # type: ignore[misc]
    for s in started:
        s.stop()


@pytest.fixture
def server(server_factory, db_url: str) -> Server:  # type: ignore[no-untyped-def]
    """One running service over ``db_url``."""
    return server_factory(db_url)

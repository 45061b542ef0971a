"""The "can the opponent still mate?" search in a worker process: the same
answers as in process, through the games layer and through a real service,
and no worker left behind when the service is killed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import httpx
import pytest
from service_procs import PATIENCE, Server

from remis.service.games import Games
from remis.service.mates import MatePool
from remis.service.store import open_store
from remis.unwinnable import can_checkmate

POSITIONS = [
    ("8/8/4k3/8/8/2BK4/8/8 w - - 0 1", chess.WHITE),            # K+B v K: no
    ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.BLACK),           # a helpmate exists
    ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.WHITE),  # locked: static proof
    (chess.STARTING_FEN, chess.BLACK),
]


@pytest.fixture(scope="module")
def pool() -> Iterator[MatePool]:
    p = MatePool(1)
    p.start()
    try:
        yield p
    finally:
        p.close()


def test_same_verdicts_as_in_process(pool: MatePool) -> None:
    for fen, color in POSITIONS:
        board = chess.Board(fen)
        assert pool(board, color) == can_checkmate(board, color), fen
    with pytest.raises(ValueError):  # an illegal position: the engine's error comes back
        pool(chess.Board("8/8/8/8/8/8/8/K7 w - - 0 1"), chess.BLACK)


def test_workers_that_cannot_start_leave_the_search_in_process(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A worker dying at start (as when a script runs the service without the
    main-module guard that spawning needs): logged, and the answers still come."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    import remis.service.pool as pool

    class Dead:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def submit(self, *args: Any) -> Future[Any]:
            fut: Future[Any] = Future()
            fut.set_exception(BrokenProcessPool("terminated abruptly"))
            return fut

        def shutdown(self, **kwargs: Any) -> None:
            pass

    monkeypatch.setattr(pool, "ProcessPoolExecutor", Dead)
    p = MatePool(1)
    p.start()
    assert "did not start" in caplog.text
    board = chess.Board(POSITIONS[1][0])
    assert p(board, chess.BLACK) == can_checkmate(board, chess.BLACK)
    p.close()


def test_resignation_ruled_through_the_pool(pool: MatePool, tmp_path: Path) -> None:
    """5.1.2: White (king and rook) resigns but Black (bare king) cannot mate: a draw,
    the same ruling with the search in the worker and in process."""
    states = []
    for mate_test in (pool, None):
        games = Games(open_store(f"sqlite:///{tmp_path}/{id(mate_test)}.db"),
                      mate_test=mate_test, clock=lambda: 100.0)
        gid, tokens, _ = games.create({"start_fen": "8/8/4k3/8/8/3K4/8/7R w - - 0 1"})
        games.post(gid, tokens["white"], {"type": "move", "player": "white", "move": "Kd4",
                                          "at": 1})
        state, _ = games.post(gid, tokens["white"], {"type": "resign", "player": "white",
                                                     "at": 2})
        states.append(state)
    assert states[0] == states[1]
    assert states[0]["result"] == "1/2-1/2" and states[0]["article"] == "5.1.2"


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_no_worker_outlives_a_killed_service(server_factory: Any, sqlite_url: str) -> None:
    server: Server = server_factory(sqlite_url)
    r = httpx.post(f"{server.url}/v1/games", json={"config": {}})
    gid, tokens = r.json()["id"], r.json()["tokens"]
    r = httpx.post(f"{server.url}/v1/games/{gid}/events",
                   json={"type": "resign", "player": "white"},
                   headers={"Authorization": f"Bearer {tokens['white']}"})
    assert r.status_code == 200 and r.json()["state"]["result"] == "0-1", r.text
    assert server.proc is not None
    children = _children(server.proc.pid)
    assert children, "the service started no worker process"
    server.kill()
    deadline = time.monotonic() + PATIENCE
    while any(_alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [c for c in children if _alive(c)], "a worker outlived the killed service"

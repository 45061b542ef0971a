"""The games kept in memory: their estimated size is what they measure, and a
game to read that is not in memory is rebuilt in a worker process, not in
the event loop's."""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from service_procs import random_game

from remis.arbiter import Arbiter
from remis.service.games import Games
from remis.service.pool import SearchPool
from remis.service.store import open_store

MOVES = random_game(60, 11)

Extra = Callable[[str, str], list[dict[str, Any]]]
#: the events a long game is made of, after each move (the opponent's and the mover's)
MIXES: dict[str, Extra] = {
    "moves": lambda p, q: [],
    "touches": lambda p, q: [{"type": "touch", "player": q}] * 6,
    "offers": lambda p, q: [{"type": "offer_draw", "player": q},
                            {"type": "decline_draw", "player": p}] * 3,
    "claims": lambda p, q: [{"type": "claim", "player": q, "kind": "threefold_repetition"},
                            {"type": "claim", "player": q, "kind": "fifty_moves"}] * 3,
}


def long_game(games: Games, extra: Extra) -> str:
    gid, tokens, _ = games.create({"time_control": "600+5"})
    for ply, san in enumerate(MOVES):
        p, q = ("white", "black") if ply % 2 == 0 else ("black", "white")
        games.post(gid, tokens[p], {"type": "move", "player": p, "move": san})
        for ev in extra(p, q):
            games.post(gid, tokens[ev["player"]], ev)
    return gid


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_the_estimated_size_is_the_measured_one(tmp_path: Path, mix: str) -> None:
    """4 KiB an event, four times what a game takes: the default 256 MB held
    3 games of 20,000 events, and two readers alternating between 5 of them
    made every read rebuild one.  The estimate now holds what tracemalloc
    counts of a rebuilt game (the Python objects), within a factor of 2
    (its margin is the compiled core's part, which tracemalloc does not see:
    some 700 bytes a move by the process's RSS)."""
    url = f"sqlite:///{tmp_path / 'g.db'}?synchronous=normal"
    gid = long_game(Games(open_store(url)), MIXES[mix])
    games = Games(open_store(url))
    gc.collect()
    tracemalloc.start()
    try:
        games.state(gid)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    count, estimate = games.cached()
    assert count == 1
    assert traced <= estimate <= 2 * traced, (traced, estimate)


def test_a_game_to_read_is_rebuilt_in_a_worker(tmp_path: Path, worker_pool: SearchPool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a game that is not in memory replayed it in the service's own
    process (half a second of CPU for 20,000 events, every other request
    waiting for the GIL).  Now a worker replays it and makes the answer; the
    service's process applies no event, and the answers are the same."""
    url = f"sqlite:///{tmp_path / 'g.db'}"
    gid = long_game(Games(open_store(url)), MIXES["offers"])
    in_process = Games(open_store(url))
    expected = (in_process.state(gid), in_process.events(gid, 5, 7), in_process.moves(gid))

    service = Games(open_store(url))
    service.readers = worker_pool
    applied: list[int] = []
    accept = Arbiter.accept

    def counted(self: Arbiter, event: Any) -> None:
        applied.append(1)
        accept(self, event)

    monkeypatch.setattr(Arbiter, "accept", counted)
    answers = (service.state(gid), service.events(gid, 5, 7), service.moves(gid))
    assert answers == expected
    assert applied == [] and service.cached() == (0, 0)
    assert worker_pool.usage.of("local", time.monotonic()) > 0   # the worker did the work

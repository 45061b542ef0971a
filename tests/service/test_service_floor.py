"""``benchmarks/service_floor.py``: the floor of the service benchmark stores
each event durably before it answers, and answers the load's requests."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.benchmark_module import load


def test_the_floor_commits_each_event_before_answering(tmp_path: Path) -> None:
    floor = load("service_floor").Floor(str(tmp_path / "floor.db"))
    status, created = floor.answer("POST", "/v1/games", b"{}")
    assert status == 201
    events = f"/v1/games/{created['id']}/events"
    moves = [{"type": "move", "player": "white", "move": "e4"},
             {"type": "move", "player": "black", "move": "e5"}]
    answers = [floor.answer("POST", events, json.dumps({**m, "expected_ply": i}).encode())
               for i, m in enumerate(moves)]
    assert [a[1]["event"] for a in answers] == [1, 2]
    with sqlite3.connect(tmp_path / "floor.db") as other:  # committed: another connection sees it
        rows = other.execute("SELECT seq, event FROM events ORDER BY seq").fetchall()
    assert [(seq, json.loads(ev)) for seq, ev in rows] == [(1, moves[0]), (2, moves[1])]
    assert floor.answer("GET", events, b"") == (200, {"events": moves})
    assert floor.answer("GET", "/v1/games/nope/events", b"")[0] == 404

"""The answers of a live game and its stored events are written by pydantic's
JSON encoder (:data:`remis.service.fast_events.compact`, ``store._dump``),
which costs a third of the standard library's: the text must be the one the
standard library writes, on every state a game goes through."""

from __future__ import annotations

import json
import random
from typing import Any

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from remis.service.fast_events import compact
from remis.service.games import Games
from remis.service.store import _dump, open_store


def stdlib(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["300+2", "5400+30", "180+0.5", "60d5", "-"]),
       st.sampled_from(["online", "blitz", "standard"]))
def test_answers_and_stored_events_are_the_standard_librarys_text(
        seed: int, tc: str, mode: str) -> None:
    rnd = random.Random(seed)
    games = Games(open_store("sqlite:///:memory:"))
    gid, tokens, state = games.create({"time_control": tc, "mode": mode,
                                       "players": {"white": "Ďábel “x”", "black": "名人"}})
    assert compact({"id": gid, "tokens": tokens, "state": state}).decode() == stdlib(
        {"id": gid, "tokens": tokens, "state": state})
    board = chess.Board()
    at = 0.0
    for _ in range(120):
        if state["over"]:
            break
        player = state["to_move"]
        at += rnd.choice([0.0005, 0.0015, 1.0, 2.675, 0.1 + 0.2, rnd.uniform(0, 30)])
        event: dict[str, Any] = {"player": player, "at": at}
        if rnd.random() < 0.1 and state["pending_offer"] is None:
            event["type"] = "offer_draw"
        elif rnd.random() < 0.02 or not any(board.legal_moves):
            event["type"] = "resign"
        else:
            move = rnd.choice(list(board.legal_moves))
            event.update(type="move", move=board.san(move))
            board.push(move)
        if mode == "online":
            del event["at"]  # the server's clock only
        state, n = games.post(gid, tokens[player], event)
        answer = {"state": state, "event": n}
        assert compact(answer).decode() == stdlib(answer)
        assert _dump(event) == stdlib(event)
    for ev in games.events(gid)["events"]:
        assert _dump(ev) == stdlib(ev)

"""The quiet-move path (:meth:`Arbiter._quiet_move` and the quiet state)
against the full path: random event sequences, and real games, give the
same answers, refusals, states, logs and events after every event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remis.arbiter import Arbiter, RefusedEvent
from tests.arbiter.test_properties import CONFIGS, random_event

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QUIET_CONFIGS: list[dict[str, Any]] = [
    *CONFIGS,
    {"time_control": "5400+30"},
    {"time_control": "2/20:30+5", "mode": "rapid"},
    {"time_control": "60d3", "flag_time": "physical"},
    {"time_control": "30+2", "mode": "online"},
    {"time_control": "60+1", "first_move_seconds": 20},
    {"time_control": "60", "clock_start": "first_move"},
    {"time_control": "300+3", "start_fen": "7k/8/8/8/8/8/5Q2/K7 w - - 0 1"},  # mates, stalemates
    {"time_control": "300", "start_fen": "4k3/8/8/8/8/8/1B6/4K1N1 w - - 0 1"},  # dead soon
]


class FullPath(Arbiter):
    """The arbiter with every event on the full path."""

    quiet_moves = False


def _answer(arbiter: Arbiter, event: Any) -> tuple[str, Any]:
    try:
        arbiter.accept(event)
    except RefusedEvent as exc:
        return "refused", (exc.message, exc.code, exc.params)
    return "accepted", None


def _same(quiet: Arbiter, full: Arbiter) -> None:
    # items, not the dicts: the answers' JSON must keep its order of keys
    assert list(quiet.state().items()) == list(full.state().items())
    assert list(quiet.state(log=False).items()) == list(full.state(log=False).items())
    assert quiet.events() == full.events()
    assert (quiet.last_at, quiet.clock_times()) == (full.last_at, full.clock_times())


def _move(board: chess.Board, data: st.DataObject) -> dict[str, Any]:
    """A move event, mostly legal and by the player on move, in SAN or UCI."""
    legal = sorted(board.legal_moves, key=lambda m: m.uci())
    text = data.draw(st.sampled_from(["e4", "Qxh9", " ", "e2e5", "O-O"]))
    if legal and data.draw(st.integers(0, 9)) > 0:
        move = data.draw(st.sampled_from(legal))
        text = data.draw(st.sampled_from([board.san(move), move.uci(), f" {board.san(move)} "]))
    mover = board.turn if data.draw(st.integers(0, 9)) > 0 else not board.turn
    event: dict[str, Any] = {"type": "move", "player": "white" if mover else "black",
                             "move": text}
    if data.draw(st.integers(0, 9)) > 0:
        event["at"] = 0.0
    return event


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_quiet_path_equals_the_full_path(data: st.DataObject) -> None:
    config = data.draw(st.sampled_from(QUIET_CONFIGS))
    quiet, full = Arbiter(config), FullPath(config)
    t = 0.0
    for _ in range(data.draw(st.integers(1, 60))):
        board = quiet.history.board
        if data.draw(st.integers(0, 3)) > 0:
            event = _move(board, data)
        else:
            event = dict(data.draw(random_event))
            event["player"] = data.draw(st.sampled_from(["white", "black", "both", None]))
        t += data.draw(st.sampled_from([0.0, 0.25, 2.0, 9.999, 10.0, 31.0, 70.0, -1.0]))
        if "at" in event:
            event["at"] = t if data.draw(st.integers(0, 9)) > 0 else int(max(t, 0.0))
        assert _answer(quiet, event) == _answer(full, event), event
        _same(quiet, full)


def test_real_games_take_the_quiet_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled real games (examples/), a move every 1.5 s, through both
    paths: the same state after every move, and every move on the quiet
    path but the first, which starts a first-move clock."""
    taken = 0
    original = Arbiter._quiet_move

    def counted(self: Arbiter, event: Any) -> bool:
        nonlocal taken
        done = original(self, event)
        taken += done
        return done

    monkeypatch.setattr(Arbiter, "_quiet_move", counted)
    moves = games = 0
    for path in sorted(EXAMPLES.glob("*.pgn")):
        with path.open(encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                config = {"time_control": "180+2", "clock_start": "first_move"}
                quiet, full = Arbiter(config), FullPath(config)
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    event = {"type": "move", "player": "white" if board.turn else "black",
                             "move": board.san(move), "at": 1.5 * ply}
                    board.push(move)
                    answer = _answer(quiet, event)
                    assert answer == _answer(full, event)
                    assert list(quiet.state(log=False).items()) \
                        == list(full.state(log=False).items())
                    if answer[0] == "refused":  # the arbiter ended the game earlier
                        assert quiet.state()["over"]
                        break
                    moves += 1
                _same(quiet, full)
                games += 1
    assert moves > 300
    assert taken == moves - games

"""Property tests: random event sequences never raise anything but
RefusedEvent, a refused event leaves the state unchanged, every state is
JSON, and rebuilding from the event log gives the same state."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.events import CALLERS, CLAIM_KINDS, DECISIONS, ILLEGAL_KINDS, TYPES

CONFIGS: list[dict[str, Any]] = [
    {"time_control": "60+1", "mode": "blitz", "supervision": "partial"},
    {"time_control": "-"},
    {"time_control": "2/30:60", "mode": "rapid", "quickplay_finish": True},
    {"time_control": "40", "mode": "online", "auto_claim_threefold": ["white", "black"]},
    {"time_control": {"white": "50", "black": "40d2"}, "armageddon": True, "mode": "blitz"},
    {"time_control": "30", "start_fen": "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1",
     "no_agreement_before_move": 2},
    {"time_control": "90", "start_fen": "8/8/4k3/8/8/3K4/8/6R1 w - - 97 80"},
    {"time_control": "60", "draw_agreement": "arbiter_only"},
    {"time_control": "300", "mode": "blitz", "supervision": "partial",
     "start_fen": "r3r3/3k1P2/8/8/8/8/4B3/4K3 w - - 0 1"},
]

maybe = st.none() | st.just("junk")
random_event = st.fixed_dictionaries(
    {"type": st.sampled_from([*TYPES, *TYPES, "dance"])},
    optional={
        "move": st.sampled_from(["e4", "Nf3", "Ng1", "e1e3", "Ke3", "O-O", "zz", "e7e8", "a1a8",
                                 "Kb2", "Rg2", "e2c4", "e2g4", "f7f8", "e8e7", "f6f4", ""]),
        "kind": st.sampled_from([*CLAIM_KINDS, *ILLEGAL_KINDS]) | maybe,
        "called_by": st.sampled_from(CALLERS) | maybe,
        "decision": st.sampled_from(DECISIONS) | maybe,
        "seconds": st.sampled_from([0, 30, 120.5, -1, 1e9, True]),
        "square": st.sampled_from(["g1", "z9", None]),
        "ply": st.sampled_from([1, 2, 3, 4, 0, "3"]),
        "clocks": st.sampled_from([{"white": 10, "black": 20.5}, {"white": -1, "black": 0},
                                   None]),
        "bogus": st.just(1),
    })


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_event_sequences(data: st.DataObject) -> None:
    config = data.draw(st.sampled_from(CONFIGS))
    a = Arbiter(config)
    t = 0.0
    for _ in range(data.draw(st.integers(1, 40))):
        board = a.history.board
        t += data.draw(st.sampled_from([0.0, 0.5, 3.0, 17.0, 45.0, -1.0]))
        if data.draw(st.booleans()) and not a.state()["over"]:
            legal = sorted(board.san(m) for m in board.legal_moves)
            if not legal:
                continue
            event: Any = {"type": "move", "player": "white" if board.turn else "black",
                          "move": data.draw(st.sampled_from(legal)), "at": t}
        else:
            event = dict(data.draw(random_event))
            on_move = "white" if board.turn else "black"
            other = "black" if board.turn else "white"
            event["player"] = data.draw(st.sampled_from(
                [on_move, on_move, on_move, other, other, "both", None, "red"]))
            if data.draw(st.booleans()):
                event["at"] = t
            if data.draw(st.integers(0, 30)) == 0:
                event = data.draw(st.sampled_from([None, [], "move", 3, {"at": t}]))
        before = a.state()
        try:
            after = a.apply(event)
        except RefusedEvent as exc:
            assert exc.message
            assert _same(a.state(), before), event
            continue
        json.dumps(after)
        if after["clocks"]["white"] is not None:
            assert after["clocks"]["white"] >= 0 and after["clocks"]["black"] >= 0
    rebuilt = Arbiter.from_log(config, a.events())
    assert _same(rebuilt.state(), a.state())
    assert rebuilt.events() == a.events()


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_states_fen_equals_python_chess(data: st.DataObject) -> None:
    # the state's FEN is the core's (History.fen), the board's python-chess's
    import chess

    from remis.history import History

    board = chess.Board(data.draw(st.sampled_from(
        [chess.STARTING_FEN, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
         "rn4k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1", "1n2r1k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1",
         "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40", "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 37 90"])))
    history = History(board, lazy=True)
    for _ in range(data.draw(st.integers(0, 60))):
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if not moves:
            break
        move = data.draw(st.sampled_from(moves))
        board.push(move)
        history.push_uci(move.uci())
        assert history.fen() == board.fen()

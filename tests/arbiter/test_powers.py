"""The arbiter's acts on a server (time added, a result declared, a note), a
player's request to the arbiter, the first-move rule of a game nobody
starts, the touched piece in the state, and the refusals' codes."""

from __future__ import annotations

from typing import Any

import pytest

from remis.arbiter import Arbiter, RefusedEvent
from remis.arbiter.config import ConfigError

ONLINE = {"time_control": "180+2", "mode": "online", "clock_start": "first_move",
          "first_move_seconds": 25}


def play(a: Arbiter, *moves: tuple[str, str, float]) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for who, san, at in moves:
        state = a.apply({"type": "move", "player": who, "move": san, "at": at})
    return state


def refused(a: Arbiter, event: dict[str, Any]) -> RefusedEvent:
    before = a.state()
    with pytest.raises(RefusedEvent) as info:
        a.apply(event)
    assert a.state() == before  # a refusal changes nothing
    return info.value


def test_a_player_cancels_a_game_before_both_have_moved() -> None:
    a = Arbiter(ONLINE)
    play(a, ("white", "e4", 2.0))
    s = a.apply({"type": "abort", "player": "white", "at": 5.0})
    assert (s["over"], s["result"], s["termination"]) == (True, "*", "aborted")
    assert s["explanation"] == ("White cancelled the game before both players had moved: it "
                                "ends without a result.")
    assert refused(a, {"type": "move", "player": "black", "move": "e5"}).code == "game_over"


def test_no_cancel_once_both_have_moved_nor_without_the_rule() -> None:
    a = Arbiter(ONLINE)
    play(a, ("white", "e4", 2.0), ("black", "e5", 4.0))
    assert refused(a, {"type": "abort", "player": "black", "at": 5.0}).code == "abort_too_late"
    b = Arbiter({"time_control": "180+2", "mode": "online"})
    assert refused(b, {"type": "abort", "player": "white"}).code == "abort_not_allowed"


def test_a_player_who_never_moves_cancels_the_game() -> None:
    """Black's clock starts with White's first move; 25 s later without a
    first move, the next event (here White's page reporting it) finds the
    game cancelled: no result, not a loss on time."""
    a = Arbiter(ONLINE)
    assert a.state()["first_move_due"] is None  # White's clock has not started
    assert play(a, ("white", "e4", 10.0))["first_move_due"] == {"player": "black", "at": 35}
    assert not a.apply({"type": "offer_draw", "player": "white", "at": 34.0})["over"]
    s = a.apply({"type": "abort", "player": "white", "at": 36.0})
    assert (s["result"], s["termination"]) == ("*", "no_first_move")
    assert s["explanation"] == ("Black made no first move in 25 s: the game is cancelled, "
                                "without a result.")


def test_a_flag_before_the_first_move_cancels_and_after_it_loses() -> None:
    short = {**ONLINE, "time_control": "12"}  # 12 s: the flag falls before the 25 s
    a = Arbiter(short)
    play(a, ("white", "e4", 1.0))
    s = a.apply({"type": "flag", "player": "black", "at": 14.0})
    assert (s["result"], s["termination"]) == ("*", "no_first_move")
    assert "in 12 s" in s["explanation"]
    b = Arbiter(short)
    play(b, ("white", "e4", 1.0), ("black", "e5", 2.0))
    s = b.apply({"type": "flag", "player": "white", "at": 15.0})
    assert (s["result"], s["termination"]) == ("0-1", "time_forfeit")  # both moved: 6.9


def test_a_request_waits_for_the_arbiter_without_stopping_the_clocks() -> None:
    a = Arbiter(ONLINE)
    play(a, ("white", "e4", 1.0), ("black", "e5", 2.0))
    s = a.apply({"type": "request", "player": "white", "kind": "fair_play",
                 "comment": "engine moves", "at": 3.0})
    assert s["requests"] == [{"player": "white", "kind": "fair_play", "comment": "engine moves"}]
    assert s["clock"]["running"] == "white" and s["awaiting_arbiter"] is None
    assert refused(a, {"type": "request", "player": "white", "at": 4.0}).code == "request_open"
    play(a, ("white", "Nf3", 5.0))  # the game goes on meanwhile
    s = a.apply({"type": "arbiter", "decision": "reject", "at": 6.0})
    assert s["requests"] == []
    assert s["log"][-1]["explanation"] == "The arbiter rejects White's request."
    assert s["log"][-1]["article"] == "12.2.1"
    assert refused(a, {"type": "arbiter", "decision": "accept"}).message == \
        "no claim awaits the arbiter's decision"


def test_the_arbiter_adds_time() -> None:
    a = Arbiter(ONLINE)
    play(a, ("white", "e4", 1.0), ("black", "e5", 2.0))
    s = a.apply({"type": "arbiter", "decision": "add_time", "player": "black", "seconds": 60,
                 "at": 3.0})
    assert s["clocks"]["black"] == 241  # 180 - 1 s used + 2 (increment) + 60
    assert s["log"][-1]["explanation"] == "The arbiter gives Black 60 s more (Article 12.5)."
    s = a.apply({"type": "arbiter", "decision": "add_time", "player": "white", "seconds": 30,
                 "kind": "penalty", "at": 4.0})
    assert s["log"][-1]["article"] == "12.9.2"
    assert refused(a, {"type": "arbiter", "decision": "add_time", "player": "white"}).code \
        == "add_time_incomplete"


def test_the_arbiter_declares_a_result_with_its_reason() -> None:
    a = Arbiter(ONLINE)
    play(a, ("white", "e4", 1.0), ("black", "e5", 2.0))
    assert refused(a, {"type": "arbiter", "decision": "declare", "result": "1/2-1/2",
                       "kind": "fair_play"}).code == "declare_needs_winner"
    s = a.apply({"type": "arbiter", "decision": "declare", "result": "1-0", "kind": "fair_play",
                 "comment": "engine use", "at": 3.0})
    assert (s["result"], s["termination"], s["article"]) == ("1-0", "fair_play", "12.9.6")
    assert s["explanation"] == ("The arbiter declares the game lost by Black for a breach of "
                                "fair play: White wins (Article 12.9.6).")
    assert s["params"]["comment"] == "engine use"
    b = Arbiter(ONLINE)
    s = b.apply({"type": "arbiter", "decision": "declare", "result": "1/2-1/2", "at": 1.0})
    assert s["explanation"] == "The arbiter declares the game drawn (Article 12.2.2)."


def test_the_arbiter_writes_a_note_into_the_log() -> None:
    a = Arbiter(ONLINE)
    s = a.apply({"type": "arbiter", "decision": "note", "comment": "Black's connection "
                 "dropped twice", "at": 1.0})
    assert s["log"][-1]["explanation"] == "The arbiter notes: Black's connection dropped twice"
    assert not s["over"]
    assert refused(a, {"type": "arbiter", "decision": "note"}).code == "note_empty"


def test_a_recorded_touched_piece_binds_its_player() -> None:
    """4.3: the touched piece must be moved while a legal move with it exists;
    the state says which piece it is."""
    a = Arbiter({"time_control": "300", "mode": "rapid"})
    s = a.apply({"type": "touch", "player": "white", "square": "g1", "at": 1.0})
    assert s["touched"] == {"player": "white", "square": "g1"}
    error = refused(a, {"type": "move", "player": "white", "move": "e4", "at": 2.0})
    assert error.code == "touched_piece" and error.params["square"] == "g1"
    s = play(a, ("white", "Nf3", 3.0))
    assert s["touched"] is None
    # a touched piece without a legal move binds nothing (4.3.4)
    b = Arbiter({"time_control": "300", "mode": "rapid"})
    b.apply({"type": "touch", "player": "white", "square": "a1", "at": 1.0})
    assert play(b, ("white", "e4", 2.0))["ply"] == 1


def test_the_log_rebuilds_the_same_state() -> None:
    a = Arbiter(ONLINE)
    play(a, ("white", "e4", 1.0), ("black", "e5", 2.0))
    for ev in [{"type": "request", "player": "black", "kind": "time", "at": 3.0},
               {"type": "arbiter", "decision": "accept", "at": 4.0},
               {"type": "arbiter", "decision": "add_time", "player": "black", "seconds": 20,
                "at": 5.0}]:
        a.apply(ev)
    assert Arbiter.from_log(ONLINE, a.events()).state() == a.state()


@pytest.mark.parametrize(("event", "code"), [
    ({"type": "move", "player": "black", "move": "e5"}, "not_on_move"),
    ({"type": "move", "player": "white", "move": "e5"}, "illegal_move"),
    ({"type": "accept_draw", "player": "black"}, "no_draw_offer"),
    ({"type": "claim", "player": "white", "kind": "threefold_repetition"}, "claim_incorrect"),
    ({"type": "flag", "player": "white", "at": 10}, "flag_not_fallen"),
])
def test_refusals_have_codes(event: dict[str, Any], code: str) -> None:
    a = Arbiter({"time_control": "180+2", "mode": "online"})
    assert refused(a, event).code == code


def test_an_online_incorrect_claim_says_what_happened() -> None:
    """Online no minute is given and no offer stands: the refusal says so."""
    a = Arbiter({"time_control": "180+2", "mode": "online"})
    error = refused(a, {"type": "claim", "player": "white", "kind": "threefold_repetition"})
    assert "gets 1 minute" not in error.message and "stands as a draw offer" not in error.message
    assert "no time is added and no draw offer stands" in error.message


@pytest.mark.parametrize(("config", "code"), [
    ({"mode": "bullet"}, "config.mode"),
    ({"colour": "white"}, "config.unknown_key"),
    ({"time_control": "abc"}, "config.time_control"),
    ({"start_fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "config.start_fen"),
    ({"players": {"white": ""}}, "config.players"),
    ({"players": {"red": "Ann"}}, "config.players"),
    ({"first_move_seconds": 0}, "config.first_move_seconds"),
    ({"quickplay_finish": True, "time_control": "300+2"}, "config.quickplay_finish"),
])
def test_config_errors_have_codes(config: dict[str, Any], code: str) -> None:
    with pytest.raises(ConfigError) as info:
        Arbiter(config)
    assert info.value.code == code


def test_names_and_the_first_move_rule_in_the_config() -> None:
    a = Arbiter({"players": {"white": " Anna Nováková ", "black": "Piotr"},
                 "first_move_seconds": 30})
    assert a.config.players == {"white": "Anna Nováková", "black": "Piotr"}
    assert a.config.first_move_seconds == 30

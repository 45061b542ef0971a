"""Refused events (out of order, impossible, malformed), touch-move and online
conventions."""

from __future__ import annotations

import pytest

from remis.arbiter import Arbiter, RefusedEvent


@pytest.mark.parametrize("event,words", [
    ({"type": "move", "player": "black", "move": "e5"}, "black cannot move: white has the move"),
    ({"type": "move", "player": "white", "move": "e5"}, "not a legal move"),
    ({"type": "move", "player": "white", "move": "Zz9"}, "not a legal move"),
    ({"type": "move", "player": "white"}, "needs 'move'"),
    ({"type": "move", "player": "white", "move": 5}, "non-empty string"),
    ({"type": "castle", "player": "white"}, "'type' must be one of"),
    ({"type": "resign"}, "'player' must be"),
    ({"type": "resign", "player": "white", "at": -1}, "'at' must be"),
    ({"type": "resign", "player": "white", "at": "soon"}, "'at' must be"),
    ({"type": "resign", "player": "white", "at": float("nan")}, "'at' must be"),
    ({"type": "resign", "player": "white", "why": "bored"}, "unknown field 'why'"),
    ({"type": "claim", "player": "white", "kind": "perpetual"}, "'kind' must be one of"),
    ({"type": "touch", "player": "black"}, "black cannot touch"),
    ({"type": "touch", "player": "white", "square": "z9"}, "square name"),
    ({"type": "accept_draw", "player": "black"}, "no draw offer to accept"),
    ({"type": "arbiter", "decision": "accept"}, "no claim awaits"),
    ({"type": "arbiter"}, "needs 'decision'"),
    ({"type": "flag", "player": "both", "at": 7}, "has not fallen"),
    ({"type": "illegal_move", "player": "black"}, "black cannot complete a move"),
    ({"type": "illegal_move", "player": "white", "move": "e4"}, "is a legal move"),
    ("move e4", "JSON object"),
])
def test_refused_events_leave_the_state_unchanged(event, words):
    a = Arbiter({"time_control": "300+2"})
    a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 5})
    a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 6})
    before = a.state()
    with pytest.raises(RefusedEvent, match=words):
        a.apply(event)
    assert a.state() == before and len(a.events()) == 2


def test_time_never_goes_back():
    a = Arbiter({"time_control": "300"})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 10})
    with pytest.raises(RefusedEvent, match="earlier than the previous event"):
        a.apply({"type": "move", "player": "black", "move": "e5", "at": 9.5})
    s = a.apply({"type": "move", "player": "black", "move": "e5"})   # no 'at': no time passes
    assert s["clocks"]["black"] == 300


def test_uci_and_san_moves():
    a = Arbiter({"time_control": "-"})
    a.apply({"type": "move", "player": "white", "move": "g1f3"})
    s = a.apply({"type": "move", "player": "black", "move": "Nf6"})
    assert s["ply"] == 2 and s["to_move"] == "white"


def test_touch_move_own_piece():
    a = Arbiter({"time_control": "-"})
    a.apply({"type": "touch", "player": "white", "square": "g1"})
    with pytest.raises(RefusedEvent, match=r"on g1 must be moved \(Article 4\.3\.1\)"):
        a.apply({"type": "move", "player": "white", "move": "e4"})
    assert a.apply({"type": "move", "player": "white", "move": "Nh3"})["ply"] == 1


def test_touch_move_piece_without_a_legal_move_is_free():
    a = Arbiter({"time_control": "-"})
    a.apply({"type": "touch", "player": "white", "square": "a1"})    # rook cannot move
    assert a.apply({"type": "move", "player": "white", "move": "e4"})["ply"] == 1


def test_touch_enemy_piece_must_be_captured():
    a = Arbiter({"time_control": "-"})
    for who, san in [("white", "e4"), ("black", "d5")]:
        a.apply({"type": "move", "player": who, "move": san})
    a.apply({"type": "touch", "player": "white", "square": "d5"})
    with pytest.raises(RefusedEvent, match=r"4\.3\.2"):
        a.apply({"type": "move", "player": "white", "move": "e5"})
    assert a.apply({"type": "move", "player": "white", "move": "exd5"})["ply"] == 3


def test_offer_while_the_opponents_offer_is_pending():
    a = Arbiter({"time_control": "-"})
    a.apply({"type": "offer_draw", "player": "white"})
    with pytest.raises(RefusedEvent, match="already pending"):
        a.apply({"type": "offer_draw", "player": "white"})
    with pytest.raises(RefusedEvent, match="accept or decline"):
        a.apply({"type": "offer_draw", "player": "black"})


def test_claim_with_illegal_written_move_is_refused():
    a = Arbiter({"time_control": "-"})
    with pytest.raises(RefusedEvent, match="not legal here"):
        a.apply({"type": "claim", "player": "white", "move": "Ke2"})


def test_online_flag_falls_by_itself():
    a = Arbiter({"time_control": "30", "mode": "online"})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 5})
    s = a.apply({"type": "move", "player": "black", "move": "e5", "at": 40})
    assert s["over"] and (s["result"], s["article"]) == ("1-0", "6.9")
    assert s["ply"] == 1 and s["log"][-1]["message"] == "online_flag"
    assert len(a.events()) == 2              # the late move is logged, not played


def test_online_flag_against_insufficient_material_is_a_draw():
    a = Arbiter({"time_control": "30", "mode": "online",
                 "start_fen": "8/8/8/4k3/8/2n5/8/K6Q w - - 0 1"})
    s = a.apply({"type": "resign", "player": "black", "at": 31})
    assert (s["result"], s["termination"]) == ("1/2-1/2", "time_forfeit")


def test_online_incorrect_claim_is_refused():
    a = Arbiter({"time_control": "30", "mode": "online"})
    with pytest.raises(RefusedEvent, match="no draw can be claimed"):
        a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition"})


KNIGHTS = [("white", "Nf3"), ("black", "Nf6"), ("white", "Ng1"), ("black", "Ng8")]


def test_online_auto_claim_for_the_player_on_move():
    a = Arbiter({"time_control": "-", "mode": "online", "auto_claim_threefold": ["white"]})
    for who, san in KNIGHTS * 2:
        s = a.apply({"type": "move", "player": who, "move": san})
    assert (s["over"], s["article"], s["ply"]) == (True, "9.2.2", 8)
    assert any(e["message"] == "online_auto_claim" for e in s["log"])


def test_online_auto_claim_for_the_mover_is_a_921_claim():
    a = Arbiter({"time_control": "-", "mode": "online", "auto_claim_threefold": ["black"]})
    for who, san in KNIGHTS * 2:
        s = a.apply({"type": "move", "player": who, "move": san})
    assert (s["over"], s["article"], s["ply"]) == (True, "9.2.1", 7)


def test_without_auto_claim_threefold_is_only_claimable():
    a = Arbiter({"time_control": "-", "mode": "online"})
    for who, san in KNIGHTS * 2:
        s = a.apply({"type": "move", "player": who, "move": san})
    assert not s["over"] and s["claimable"][0]["article"] == "9.2.2"


def test_replacement_for_an_illegal_move_follows_touch_move():
    a = Arbiter({"time_control": "-"})
    for who, san in [("white", "e4"), ("black", "e5")]:
        a.apply({"type": "move", "player": who, "move": san})
    a.apply({"type": "illegal_move", "player": "white", "move": "e1e3"})
    with pytest.raises(RefusedEvent, match=r"on e1 must be moved \(Article 4\.3\.1\)"):
        a.apply({"type": "move", "player": "white", "move": "Nf3"})
    assert a.apply({"type": "move", "player": "white", "move": "Ke2"})["ply"] == 3


def test_clock_press_without_a_move_stands_without_full_supervision():
    a = Arbiter({"time_control": "300", "mode": "rapid", "supervision": "partial"})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 2})
    s = a.apply({"type": "illegal_move", "player": "black", "kind": "no_move",
                 "called_by": "nobody", "at": 5})
    assert s["to_move"] == "white" and s["illegal_moves"]["black"] == 0
    assert s["fen"].startswith("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w")


def test_unproven_cannot_mate_counts_as_can_mate(monkeypatch):
    import remis.arbiter.base as mod

    def refuse(board, color):
        raise ValueError("engine refuses")

    monkeypatch.setattr(mod.ArbiterBase, "mate_test", staticmethod(refuse))
    a = Arbiter({"time_control": "-", "start_fen": "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"})
    assert a.apply({"type": "resign", "player": "white"})["result"] == "0-1"


FOOLS_MATE_LATE = [("white", "f3", 1), ("black", "e5", 2), ("white", "g4", 3),
                   ("black", "Qh4#", 100)]  # Black's 30 s ran out at 32 s


def test_flag_time_observed_lets_a_result_reached_before_the_flag_is_noticed_stand():
    # 6.8 (default flag_time "observed"): a flag has fallen only when it is
    # noticed; a mate given after Black's time ran out, before anyone saw it,
    # stands (Arbiters' Manual)
    a = Arbiter({"time_control": "30"})
    for player, move, at in FOOLS_MATE_LATE:
        s = a.apply({"type": "move", "player": player, "move": move, "at": at})
    assert s["over"] and (s["result"], s["termination"], s["article"]) == (
        "0-1", "checkmate", "5.1.1")


def test_flag_time_physical_ends_the_game_when_the_time_runs_out():
    # flag_time "physical" (electronic clocks): the flag fell at 32 s, so the
    # mate at 100 s comes too late; White can still mate: 1-0 on time
    a = Arbiter({"time_control": "30", "flag_time": "physical"})
    for player, move, at in FOOLS_MATE_LATE:
        s = a.apply({"type": "move", "player": player, "move": move, "at": at})
    assert s["over"] and (s["result"], s["termination"], s["article"]) == (
        "1-0", "time_forfeit", "6.9")
    assert s["ply"] == 3 and s["log"][-1]["message"] == "physical_flag"
    assert "6.8" in s["log"][-1]["explanation"]


def test_flag_time_is_checked():
    for bad in ("noticed", "", False):
        with pytest.raises(ValueError, match="flag_time must be 'observed' or 'physical'"):
            Arbiter({"flag_time": bad})
    with pytest.raises(ValueError, match="online, the server's clock is the flag"):
        Arbiter({"mode": "online", "flag_time": "observed"})
    assert Arbiter({"mode": "online"}).config.flag_time == "physical"
    assert Arbiter({"mode": "rapid"}).config.flag_time == "observed"

"""An illegal move found later (7.5.1): the position before it is reinstated,
the later moves are cancelled, the clocks stay (or the arbiter sets them,
7.1) and 7.5.5 applies; without full supervision only until the opponent's
next move (A.5.2, B.3).  And the illegal positions of A.5.4."""

from __future__ import annotations

from typing import Any

import pytest

from remis.arbiter import Arbiter, RefusedEvent

STANDARD = {"time_control": "5400"}
BLITZ_PARTIAL = {"time_control": "300", "mode": "blitz", "supervision": "partial"}


def unnoticed(player: str, move: str, at: float, **extra: Any) -> dict[str, Any]:
    return {"type": "illegal_move", "player": player, "move": move, "called_by": "nobody",
            "at": at, **extra}


def found(player: str, ply: int, at: float, **extra: Any) -> dict[str, Any]:
    return {"type": "illegal_move", "player": player, "ply": ply, "at": at, **extra}


def rebuilt(config: dict[str, Any], a: Arbiter) -> dict[str, Any]:
    return Arbiter.from_log(config, a.events()).state()


def test_found_several_moves_later_reinstates_the_position_before_it(mv, arb):
    a = arb(STANDARD, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))                   # ply 3: the king jumps
    for e in mv("Nf6 Kd3 Nc6", first="black", start=3):      # plies 4-6 at 4, 5, 6 s
        a.apply(e)
    before = a.state()["clocks"]
    s = a.apply(found("white", 3, 10))
    prefix = arb(STANDARD, mv("e4 e5")).state()
    for key in ("fen", "ply", "to_move", "claimable"):
        assert s[key] == prefix[key]
    assert s["illegal_moves"] == {"white": 1, "black": 0}
    # the clocks stay as they are (White's ran from 6 s to 10 s); Black gets 2 minutes
    assert s["clocks"] == {"white": before["white"] - 4, "black": before["black"] + 120}
    note = s["log"][-2]
    assert (note["message"], note["article"]) == ("illegal_found", "7.5.1")
    assert note["params"]["cancelled"] == 3 and note["params"]["ply"] == 3
    assert s["log"][-1]["article"] == "7.5.5"
    # the replacement move: touch-move applies to the king (7.5.1, 4.3)
    with pytest.raises(RefusedEvent, match=r"on e1 must be moved"):
        a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 11})
    assert a.apply({"type": "move", "player": "white", "move": "Ke2", "at": 11})["ply"] == 3
    assert rebuilt(STANDARD, a) == a.state()


def test_the_white_clock_runs_again_after_the_reinstatement(mv, arb):
    a = arb(STANDARD, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))
    a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 4})
    s = a.apply(found("white", 3, 10))        # found while White's clock was running
    assert s["to_move"] == "white"
    later = a.apply({"type": "touch", "player": "white", "at": 25})
    assert later["clocks"]["white"] == s["clocks"]["white"] - 15
    assert later["clocks"]["black"] == s["clocks"]["black"]


def test_the_arbiter_may_set_the_clocks(mv, arb):
    a = arb(STANDARD, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))
    a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 4})
    s = a.apply(found("white", 3, 10, clocks={"white": 5390, "black": 5000}))
    assert s["clocks"] == {"white": 5390, "black": 5000 + 120}
    assert [e["article"] for e in s["log"][-3:]] == ["7.5.1", "7.1", "7.5.5"]
    assert a.apply({"type": "touch", "player": "white", "at": 20})["clocks"]["white"] == 5380
    assert rebuilt(STANDARD, a) == a.state()


def test_the_repetition_history_follows_the_reinstated_game(mv, arb):
    shuffle = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
    a = arb(STANDARD, mv(shuffle))
    a.apply(unnoticed("black", "f6f4", 8))                   # ply 8: a knight moves like a rook
    for e in mv("Nf3 Nh5", start=8):
        a.apply(e)
    s = a.apply(found("black", 8, 20))
    assert s["ply"] == 7 and s["claimable"] == arb(STANDARD, mv(shuffle)).state()["claimable"]
    # the knight was touched for the illegal move: no claim on this move (9.4), and
    # the knight must move (4.3, 7.5.1)
    with pytest.raises(RefusedEvent, match=r"9\.4"):
        a.apply({"type": "claim", "player": "black", "kind": "threefold_repetition",
                 "move": "Ng8", "at": 21})
    with pytest.raises(RefusedEvent, match="on f6 must be moved"):
        a.apply({"type": "move", "player": "black", "move": "e5", "at": 21})
    a.apply({"type": "move", "player": "black", "move": "Ng8", "at": 21})
    s = a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition", "at": 22})
    assert (s["result"], s["article"]) == ("1/2-1/2", "9.2.2")
    assert s["params"]["plies"] == "0, 4, 8"


def test_move_counts_follow_the_reinstated_game(mv, arb):
    a = arb(STANDARD, [])
    a.apply(unnoticed("white", "e2e5", 1))
    a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 2})
    a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 3})
    a.apply(found("white", 1, 4))
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 5})
    a.apply({"type": "offer_draw", "player": "white", "at": 5})
    with pytest.raises(RefusedEvent, match=r"5\.2\.3"):      # Black has made no move now
        a.apply({"type": "accept_draw", "player": "black", "at": 6})


def test_a_second_illegal_move_found_later_loses(mv, arb):
    a = arb(STANDARD, mv("e4 e5"))
    a.apply({"type": "illegal_move", "player": "white", "move": "Ke3", "at": 3})
    a.apply({"type": "move", "player": "white", "move": "Ke2", "at": 4})
    a.apply({"type": "move", "player": "black", "move": "Nc6", "at": 5})
    a.apply(unnoticed("white", "e2c4", 6))                  # ply 5: the king again
    s = a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 7})
    assert not s["over"]
    s = a.apply(found("white", 5, 9))
    assert (s["result"], s["termination"], s["article"]) == ("0-1", "illegal_move", "7.5.5")


def test_an_illegal_move_that_mates_ends_nothing_until_found():
    config = {"time_control": "600", "start_fen": "7k/8/6K1/8/8/8/8/R7 w - - 0 1"}
    a = Arbiter(config)
    s = a.apply(unnoticed("white", "a1b8", 1))       # no mate: the rook cannot go there
    assert not s["over"] and s["to_move"] == "black"
    s = a.apply(found("white", 1, 2, called_by="opponent"))
    assert s["ply"] == 0 and s["clocks"]["black"] == 600 - 1 + 120
    assert a.apply({"type": "move", "player": "white", "move": "Ra8#", "at": 3})["article"] \
        == "5.1.1"


@pytest.mark.parametrize("event, message", [
    (found("white", 2, 9), "not an illegal move by white"),       # a legal ply
    (found("black", 3, 9), "not an illegal move by black"),       # the wrong player
    (found("white", 7, 9), "not an illegal move by white"),       # not played yet
    ({**found("white", 3, 9), "move": "e1e3"}, "named by 'ply' alone"),
    ({**found("white", 3, 9), "called_by": "nobody"}, "not by 'nobody'"),
    ({**found("white", 3, 9), "ply": 0}, "'ply' must be a whole number"),
    ({**found("white", 3, 9), "clocks": {"white": 5}}, "'clocks' must be"),
    ({"type": "illegal_move", "player": "white", "move": "Ke3", "clocks": {"white": 1,
                                                                           "black": 1}},
     "only with 'ply'"),
])
def test_refused_discoveries_change_nothing(mv, arb, event, message):
    a = arb(STANDARD, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))
    a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 4})
    before = a.state()
    with pytest.raises(RefusedEvent, match=message):
        a.apply(event)
    assert a.state() == before


# --- rapid and blitz without full supervision: A.5.2 / B.3 ----------------------
def test_without_full_supervision_called_before_the_opponents_next_move(mv, arb):
    a = arb(BLITZ_PARTIAL, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))
    s = a.apply(found("white", 3, 4, called_by="opponent"))
    assert s["ply"] == 2 and s["clocks"]["black"] == 300 - 2 + 60   # B.3: one minute
    assert s["log"][-1]["article"] == "B.3"


def test_without_full_supervision_no_correction_after_the_opponents_next_move(mv, arb):
    a = arb(BLITZ_PARTIAL, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))
    a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 4})
    before = a.state()
    with pytest.raises(RefusedEvent, match=r"A\.5\.2"):
        a.apply(found("white", 3, 5))
    assert a.state() == before


def test_a_called_unpromoted_pawn_becomes_a_queen_without_full_supervision():
    config = {**BLITZ_PARTIAL, "start_fen": "r7/4P3/8/8/8/k7/8/4K3 w - - 0 1"}
    a = Arbiter(config)
    a.apply({**unnoticed("white", "e7e8", 1), "kind": "unpromoted_pawn"})
    s = a.apply(found("white", 1, 2))
    assert s["fen"].startswith("r3Q3/") and s["to_move"] == "black" and s["ply"] == 1
    assert [e["article"] for e in s["log"][-2:]] == ["7.5.2", "B.3"]
    assert rebuilt(config, a) == a.state()


# --- A.5.4: both kings in check, a pawn on the last rank --------------------------
PINNED = {**BLITZ_PARTIAL, "start_fen": "4r3/3k4/8/8/8/8/4B3/4K3 w - - 0 1"}
PAWN = {**BLITZ_PARTIAL, "start_fen": "r7/4P3/8/8/8/k7/8/4K3 w - - 0 1"}


def test_a54_both_kings_in_check_then_a_legal_reply_the_game_goes_on():
    a = Arbiter(PINNED)
    s = a.apply(unnoticed("white", "e2g4", 1))   # the pinned bishop checks: both in check
    assert [e["message"] for e in s["log"]] == ["illegal_stands", "a54_observed"]
    s = a.apply({"type": "move", "player": "black", "move": "Re6", "at": 2})
    assert not s["over"] and s["log"][-1]["message"] == "a54_cleared"
    assert rebuilt(PINNED, a) == a.state()


def test_a54_both_kings_still_in_check_after_the_next_move_is_a_draw():
    a = Arbiter(PINNED)
    a.apply(unnoticed("white", "e2g4", 1))
    s = a.apply(unnoticed("black", "e8e7", 2))   # Black ignores the check: still both
    assert (s["result"], s["termination"], s["article"]) == (
        "1/2-1/2", "illegal_position", "A.5.4")
    assert rebuilt(PINNED, a) == a.state()


def test_a54_pawn_left_on_the_last_rank_is_a_draw_after_the_next_move():
    a = Arbiter(PAWN)
    a.apply({**unnoticed("white", "e7e8", 1), "kind": "unpromoted_pawn"})
    s = a.apply({"type": "move", "player": "black", "move": "Kb2", "at": 2})
    assert (s["result"], s["article"]) == ("1/2-1/2", "A.5.4")


def test_a54_pawn_captured_by_the_next_move_the_game_goes_on():
    a = Arbiter(PAWN)
    a.apply(unnoticed("white", "e7e8", 1))
    s = a.apply({"type": "move", "player": "black", "move": "Rxe8", "at": 2})
    assert not s["over"] and s["fen"].startswith("4r3/")


@pytest.mark.parametrize("config, move, message", [
    ({**PAWN, "supervision": "full"}, "e7e8", "A.5.4"),          # full: acted on at once
    ({**BLITZ_PARTIAL, "start_fen": "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"}, "a2a1", "A.5.4"),
    ({**BLITZ_PARTIAL, "start_fen": "4r3/8/8/8/8/8/4B3/k3K3 w - - 0 1"}, "e2d3", "A.5.4"),
])
def test_other_impossible_positions_cannot_stand(config, move, message):
    # a pawn on its own first rank, or only the mover's king in check, are not A.5.4 cases
    a = Arbiter(config)
    with pytest.raises(RefusedEvent, match=message):
        a.apply(unnoticed("white", move, 1))
    assert a.state()["ply"] == 0


def test_a_clock_press_without_a_move_found_later(mv, arb):
    a = arb(STANDARD, mv("e4"))
    s = a.apply({"type": "illegal_move", "player": "black", "kind": "no_move",
                 "called_by": "nobody", "at": 2})
    assert s["to_move"] == "white" and s["ply"] == 2
    a.apply({"type": "move", "player": "white", "move": "d4", "at": 3})
    s = a.apply(found("black", 2, 4))
    assert (s["ply"], s["to_move"]) == (1, "black") and s["log"][-2]["article"] == "7.5.3"
    assert a.apply({"type": "move", "player": "black", "move": "c5", "at": 5})["ply"] == 2


def test_a_pawn_that_cannot_promote_there_is_reinstated_not_queened():
    # e7xd8 is no capture (d8 is empty): not a pawn move at all, so 7.5.1, not 7.5.2
    config = {**BLITZ_PARTIAL, "start_fen": "r7/4P3/8/8/8/k7/8/4K3 w - - 0 1"}
    a = Arbiter(config)
    a.apply({**unnoticed("white", "e7d8", 1), "kind": "unpromoted_pawn"})
    s = a.apply(found("white", 1, 2))
    assert s["ply"] == 0 and s["log"][-2]["article"] == "7.5.1"
    assert rebuilt(config, a) == a.state()


def test_calling_a_standing_move_without_its_ply_says_how(mv, arb):
    a = arb(BLITZ_PARTIAL, mv("e4 e5"))
    a.apply(unnoticed("white", "e1e3", 3))
    with pytest.raises(RefusedEvent, match="name it with 'ply': 3"):
        a.apply({"type": "illegal_move", "player": "white", "move": "e1e3", "at": 4})

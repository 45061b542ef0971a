"""docs/cases.md S07-S08, T*, I*, D*, Q*, A* through the arbiter (and the
arbiter-relevant claim cases R05, R07, R16, F07, D04)."""

from __future__ import annotations

import re

import pytest

from remis.arbiter import Arbiter, RefusedEvent

QK_V_K_W = "8/8/4k3/8/8/Q2K4/8/8 w - - 0 1"
QK_V_K_B = "8/8/4k3/8/8/Q2K4/8/8 b - - 0 1"
KNIGHT_V_K = "8/8/8/4k3/8/2n5/8/K7 w - - 0 1"
KNIGHT_V_KQ = "8/8/8/4k3/8/2n5/8/K6Q w - - 0 1"
KNIGHT_V_KP = "8/8/8/4k3/8/2n5/P7/K7 w - - 0 1"
DEAD_AFTER_NXD1 = "8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1"
KNIGHTS = "Nf3 Nf6 Ng1 Ng8"


def cfg(**kw):
    return {"time_control": "60", **kw}


# --- S07, S08: resignation (5.1.2, 2023) --------------------------------------
def test_s07_resignation_against_bare_king_is_a_draw():
    s = Arbiter(cfg(start_fen=QK_V_K_W)).apply({"type": "resign", "player": "white"})
    assert (s["over"], s["result"], s["article"], s["termination"]) == (
        True, "1/2-1/2", "5.1.2", "resignation")
    assert "cannot checkmate" in s["explanation"]


def test_s08_ordinary_resignation():
    s = Arbiter(cfg(start_fen=QK_V_K_B)).apply({"type": "resign", "player": "black"})
    assert (s["result"], s["article"]) == ("1-0", "5.1.2")
    assert s["message"] == "resigned" and s["params"]["winner"] == "White"


def test_resignation_by_the_player_not_on_move():
    s = Arbiter(cfg()).apply({"type": "resign", "player": "black"})
    assert s["result"] == "1-0"


# --- T01-T06: flag falls (6.9) ------------------------------------------------
def test_t01_a_game_set_up_in_a_dead_position_is_drawn_before_any_flag():
    # T01's position (K v K+N) has already ended: the game is drawn from its
    # start (5.2.2), as remis position and remis game say; a flag comes too late
    a = Arbiter(cfg(start_fen=KNIGHT_V_K))
    s = a.state()
    assert (s["over"], s["result"], s["article"], s["termination"]) == (
        True, "1/2-1/2", "5.2.2", "insufficient_material")
    assert s["log"][0]["event"] is None and s["clock"]["running"] is None
    with pytest.raises(RefusedEvent, match="game is over"):
        a.apply({"type": "flag", "player": "white", "at": 60})


def test_no_move_is_made_in_a_set_up_dead_position():
    over = r"game is over \(insufficient_material, Article 5\.2\.2\)"
    with pytest.raises(RefusedEvent, match=over):
        Arbiter(cfg(start_fen=KNIGHT_V_K)).apply(
            {"type": "move", "player": "white", "move": "Kb2", "at": 1})


@pytest.mark.parametrize("fen,result,case", [
    (KNIGHT_V_KQ, "1/2-1/2", "T01 (K+N cannot mate; position not dead)"),
    (KNIGHT_V_KP, "0-1", "T02"),   # a helpmate exists (own pawn blocks): a loss
    (QK_V_K_W, "1/2-1/2", "T03"),
])
def test_t01_t03_flag_fall_against_material(fen, result, case):
    s = Arbiter(cfg(start_fen=fen)).apply({"type": "flag", "player": "white", "at": 60})
    assert (s["result"], s["article"], s["termination"]) == (result, "6.9", "time_forfeit"), case


def test_t04_ordinary_loss_on_time():
    a = Arbiter(cfg(start_fen=QK_V_K_B))
    s = a.apply({"type": "flag", "player": "black", "at": 75})
    assert s["result"] == "1-0"
    assert s["params"]["time"] == 60 and s["clocks"]["black"] == 0


def test_flag_refused_while_time_is_left():
    a = Arbiter(cfg(start_fen=QK_V_K_B))
    with pytest.raises(RefusedEvent, match="has not fallen: 1 s left"):
        a.apply({"type": "flag", "player": "black", "at": 59})
    with pytest.raises(RefusedEvent, match="not fallen"):
        a.apply({"type": "flag", "player": "white", "at": 100})  # White's clock is not running
    assert not a.state()["over"] and a.events() == []


def test_t05_dead_position_before_the_flag_is_noticed():
    a = Arbiter(cfg(start_fen=DEAD_AFTER_NXD1))
    s = a.apply({"type": "move", "player": "black", "move": "Nxd1", "at": 10})
    assert (s["result"], s["article"]) == ("1/2-1/2", "5.2.2")
    with pytest.raises(RefusedEvent, match="game is over"):
        a.apply({"type": "flag", "player": "white", "at": 200})
    assert a.state()["result"] == "1/2-1/2"


def test_t06_fivefold_before_the_flag_is_noticed(mv, arb):
    a = arb(cfg(), mv(" ".join([KNIGHTS] * 4), step=0.5))
    s = a.state()
    assert (s["result"], s["article"], s["termination"]) == (
        "1/2-1/2", "9.6.1", "fivefold_repetition")
    with pytest.raises(RefusedEvent, match="game is over"):
        a.apply({"type": "flag", "player": "white", "at": 500})


# --- I01-I05: illegal moves (7.5, A.3, A.5.2, B.3) ---------------------------
def test_i01_first_illegal_move_standard(mv, arb):
    a = arb({"time_control": "5400+30"}, mv("e4 e5"))
    before = a.state()
    s = a.apply({"type": "illegal_move", "player": "white", "move": "Ke3", "at": 10})
    assert s["fen"] == before["fen"] and s["to_move"] == "white"
    assert s["illegal_moves"] == {"white": 1, "black": 0}
    assert s["clocks"]["black"] == before["clocks"]["black"] + 120
    arts = [e["article"] for e in s["log"]]
    assert "7.5.1" in arts and "7.5.5" in arts
    assert not s["over"]


def test_i02_second_illegal_move_loses():
    a = Arbiter({"time_control": "5400", "start_fen": QK_V_K_B})
    a.apply({"type": "illegal_move", "player": "black", "move": "Ke3"})
    a.apply({"type": "move", "player": "black", "move": "Kf5"})
    a.apply({"type": "move", "player": "white", "move": "Qa4"})
    s = a.apply({"type": "illegal_move", "player": "black", "move": "Kd4"})
    assert (s["over"], s["result"], s["article"], s["termination"]) == (
        True, "1-0", "7.5.5", "illegal_move")


def test_i03_second_illegal_move_but_opponent_cannot_mate():
    a = Arbiter({"time_control": "5400", "start_fen": QK_V_K_W})
    a.apply({"type": "illegal_move", "player": "white", "move": "Qa3-h8"})
    s = a.apply({"type": "illegal_move", "player": "white", "kind": "no_move"})
    assert (s["result"], s["article"]) == ("1/2-1/2", "7.5.5")
    assert s["message"] == "illegal_second_draw"


@pytest.mark.parametrize("mode", ["rapid", "blitz"])
def test_i04_rapid_blitz_penalty_is_one_minute(mode, mv, arb):
    a = arb({"time_control": "600", "mode": mode}, mv("e4 e5"))
    before = a.state()["clocks"]["black"]
    s = a.apply({"type": "illegal_move", "player": "white", "move": "Bxe5", "at": 3})
    assert s["clocks"]["black"] == before + 60
    assert {"A.3" if mode == "rapid" else "B.3"} <= {e["article"] for e in s["log"]}
    s = a.apply({"type": "illegal_move", "player": "white", "move": "Bxe5", "at": 4})
    assert (s["result"], s["article"]) == ("0-1", "7.5.5")


def test_i04_without_full_supervision_an_uncalled_illegal_move_stands(mv, arb):
    a = arb({"time_control": "600", "mode": "blitz", "supervision": "partial"}, mv("e4 e5"))
    s = a.apply({"type": "illegal_move", "player": "white", "move": "e1e3",
                 "called_by": "nobody", "at": 3})
    assert s["illegal_moves"]["white"] == 0 and s["to_move"] == "black"
    assert s["fen"].startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/RNBQ1BNR b kq")
    assert s["log"][-1]["message"] == "illegal_stands"
    # the game goes on from the illegal position
    assert not a.apply({"type": "move", "player": "black", "move": "Nf6", "at": 4})["over"]


def test_i04_full_supervision_an_unnoticed_illegal_move_waits_to_be_found(mv, arb):
    a = arb({"time_control": "600", "mode": "blitz"}, mv("e4 e5"))
    s = a.apply({"type": "illegal_move", "player": "white", "move": "e1e3",
                 "called_by": "nobody"})
    assert s["ply"] == 3 and s["log"][-1]["message"] == "illegal_unnoticed"
    assert s["log"][-1]["params"]["ply"] == 3
    assert s["log"][-1]["article"] == "7.5.1"
    with pytest.raises(RefusedEvent, match="full supervision"):  # 7.5.4: acted on at once
        a.apply({"type": "illegal_move", "player": "black", "kind": "two_hands",
                 "move": "Nf6", "called_by": "nobody"})


def test_i05_clock_pressed_without_a_move(mv, arb):
    a = arb({"time_control": "5400"}, mv("e4"))
    s = a.apply({"type": "illegal_move", "player": "black", "kind": "no_move", "at": 5})
    assert s["to_move"] == "black" and s["illegal_moves"]["black"] == 1
    assert s["log"][0]["article"] == "7.5.3"


def test_i05_two_hands_move_stands_and_is_penalised(mv, arb):
    a = arb({"time_control": "5400"}, mv("e4"))
    s = a.apply({"type": "illegal_move", "player": "black", "kind": "two_hands", "move": "e5",
                 "at": 5})
    assert s["to_move"] == "white" and s["ply"] == 2 and s["illegal_moves"]["black"] == 1
    assert "7.5.4" in [e["article"] for e in s["log"]]
    assert s["clocks"]["white"] == 5400 - 1 + 120


def test_i05_unpromoted_pawn_becomes_a_queen():
    a = Arbiter({"time_control": "5400", "start_fen": "8/4P3/8/8/8/k7/8/4K3 w - - 0 1"})
    s = a.apply({"type": "illegal_move", "player": "white", "kind": "unpromoted_pawn",
                 "move": "e7e8", "at": 5})
    assert s["fen"].startswith("4Q3/") and s["to_move"] == "black"
    assert "7.5.2" in [e["article"] for e in s["log"]]


def test_online_rejects_illegal_moves(mv, arb):
    a = arb({"time_control": "60", "mode": "online"}, mv("e4 e5"))
    with pytest.raises(RefusedEvent, match="server rejects"):
        a.apply({"type": "move", "player": "white", "move": "Ke3"})
    with pytest.raises(RefusedEvent, match="online"):
        a.apply({"type": "illegal_move", "player": "white", "move": "Ke3"})


# --- D01-D04: offers and agreements -------------------------------------------
def test_d01_agreement_before_black_has_moved_is_invalid(mv, arb):
    a = arb(cfg(), mv("e4"))
    a.apply({"type": "offer_draw", "player": "white"})
    with pytest.raises(RefusedEvent, match=re.escape("5.2.3")):
        a.apply({"type": "accept_draw", "player": "black"})
    assert a.state()["pending_offer"] == "white" and not a.state()["over"]


def test_d02_agreement_after_one_move_each(mv, arb):
    a = arb(cfg(), mv("e4 e5"))
    a.apply({"type": "offer_draw", "player": "white"})
    s = a.apply({"type": "accept_draw", "player": "black"})
    assert (s["result"], s["article"], s["termination"]) == ("1/2-1/2", "5.2.3", "agreement")


def test_d02_sofia_no_agreement_before_move_n(mv, arb):
    a = arb(cfg(no_agreement_before_move=3), mv("e4 e5 Nf3 Nc6"))
    s = a.apply({"type": "offer_draw", "player": "white"})  # 9.1.1: to the arbiter first
    assert s["awaiting_arbiter"] == {"kind": "draw_offer", "player": "white",
                                     "article": "9.1.1"}
    assert a.apply({"type": "arbiter", "decision": "reject"})["awaiting_arbiter"] is None
    a.apply(mv("Bc4 Bc5", start=10)[0])
    a.apply(mv("Bc4 Bc5", start=10)[1])
    a.apply({"type": "offer_draw", "player": "white"})
    assert a.apply({"type": "accept_draw", "player": "black"})["article"] == "5.2.3"


def test_d03_offer_lapses_when_the_opponent_touches_a_piece(mv, arb):
    a = arb(cfg(), mv("e4 e5"))
    a.apply({"type": "offer_draw", "player": "white", "at": 3})  # made his move, offers...
    a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 3})  # ...presses
    s = a.apply({"type": "touch", "player": "black", "at": 4})
    assert s["pending_offer"] is None
    assert s["log"][-1]["article"] == "9.1.2.1"
    a.apply({"type": "move", "player": "black", "move": "Nc6", "at": 5})
    with pytest.raises(RefusedEvent, match="no draw offer"):
        a.apply({"type": "accept_draw", "player": "black"})


def test_offer_lapses_when_the_opponent_moves(mv, arb):
    a = arb(cfg(), mv("e4 e5 Nf3"))
    a.apply({"type": "offer_draw", "player": "white"})
    s = a.apply({"type": "move", "player": "black", "move": "Nc6"})
    assert s["pending_offer"] is None and s["log"][-1]["message"] == "offer_lapsed_move"


def test_decline_draw(mv, arb):
    a = arb(cfg(), mv("e4 e5"))
    a.apply({"type": "offer_draw", "player": "white"})
    s = a.apply({"type": "decline_draw", "player": "black"})
    assert s["pending_offer"] is None
    with pytest.raises(RefusedEvent):
        a.apply({"type": "decline_draw", "player": "black"})


R01 = "e4 e5 Qf3 Qe7 Qe2 Qd8 Qd1 Qf6 Qe2 Qe7 Qd1 Qd8"


def test_d04_incorrect_claim_is_a_draw_offer(mv, arb):
    a = arb({"time_control": "5400"}, mv(R01))
    before = a.state()["clocks"]["black"]
    s = a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition"})
    assert not s["over"] and s["pending_offer"] == "white"
    assert s["clocks"]["black"] == before + 120
    assert any(e["message"] == "claim_threefold_incorrect" for e in s["log"])
    s = a.apply({"type": "accept_draw", "player": "black"})
    assert (s["result"], s["article"]) == ("1/2-1/2", "5.2.3")


# --- claims procedure (R03, R04, R05, R07, R16, F02, F03, F07) ---------------
def test_r03_correct_claim_ends_the_game(mv, arb):
    s = arb(cfg(), mv(f"{KNIGHTS} {KNIGHTS}")).apply(
        {"type": "claim", "player": "white", "kind": "threefold_repetition"})
    assert (s["result"], s["article"], s["termination"]) == (
        "1/2-1/2", "9.2.2", "threefold_repetition")


def test_r04_claim_with_written_move(mv, arb):
    s = arb(cfg(), mv(f"{KNIGHTS} Nf3 Nf6 Ng1")).apply(
        {"type": "claim", "player": "black", "kind": "threefold_repetition", "move": "Ng8"})
    assert (s["result"], s["article"]) == ("1/2-1/2", "9.2.1")


def test_r05_f07_claim_by_player_not_on_move_is_refused(mv, arb):
    a = arb(cfg(), mv(f"{KNIGHTS} {KNIGHTS}"))
    with pytest.raises(RefusedEvent, match="only the player having the move"):
        a.apply({"type": "claim", "player": "black", "kind": "threefold_repetition"})


def test_r07_incorrect_written_move_must_then_be_played(mv, arb):
    a = arb({"time_control": "5400"}, mv(f"{KNIGHTS} Nf3 Nf6"))
    s = a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition",
                 "move": "Ng1"})
    assert s["intended_move"] == {"white": "Ng1"}
    with pytest.raises(RefusedEvent, match="must play the written move Ng1"):
        a.apply({"type": "move", "player": "white", "move": "Nc3"})
    s = a.apply({"type": "move", "player": "white", "move": "Ng1"})
    assert s["intended_move"] is None and s["ply"] == 7


def test_r16_touch_forfeits_the_claim_on_this_move(mv, arb):
    a = arb(cfg(), mv(f"{KNIGHTS} {KNIGHTS}"))
    a.apply({"type": "touch", "player": "white", "square": "g1"})
    with pytest.raises(RefusedEvent, match=re.escape("9.4")):
        a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition"})
    # the right returns on a later move when the conditions hold again
    for e in mv(f"{KNIGHTS}", start=20):
        a.apply(e)
    assert a.apply({"type": "claim", "player": "white"})["article"] == "9.2.2"


def test_f02_f03_fifty_move_claims():
    a = Arbiter({"time_control": "5400", "start_fen": "8/8/4k3/8/8/3K4/8/6R1 w - - 99 80"})
    s = a.apply({"type": "claim", "player": "white", "kind": "fifty_moves", "move": "Rg2"})
    assert s["article"] == "9.3.1"
    a = Arbiter({"time_control": "5400", "start_fen": "8/8/4k3/8/8/3K4/6n1/6R1 w - - 99 80"})
    s = a.apply({"type": "claim", "player": "white", "kind": "fifty_moves", "move": "Rxg2"})
    assert not s["over"] and s["intended_move"] == {"white": "Rxg2"}
    assert s["clocks"]["black"] == 5400 + 120


def test_incorrect_claim_in_rapid_costs_one_minute(mv, arb):
    a = arb({"time_control": "900", "mode": "rapid"}, mv(f"{KNIGHTS} Nf3 Nf6"))
    s = a.apply({"type": "claim", "player": "white", "kind": "threefold_repetition",
                 "move": "Ng1", "at": 7})
    assert s["clocks"]["black"] == 900 - 3 + 60


# --- Q01, Q02: Guidelines III ---------------------------------------------------
QP = {"time_control": "40/5400:900", "quickplay_finish": True}


def test_q01_both_flags_in_the_last_period_is_a_draw():
    a = Arbiter({"time_control": "60", "quickplay_finish": True})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 70})  # flag down unnoticed
    s = a.apply({"type": "flag", "player": "both", "at": 140})
    assert (s["result"], s["article"], s["termination"]) == ("1/2-1/2", "III.3.1.2", "both_flags")


def test_q01_both_flags_in_an_earlier_period_game_continues():
    a = Arbiter({"time_control": "2/60:900", "quickplay_finish": True})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 70})
    s = a.apply({"type": "flag", "player": "both", "at": 140})
    assert not s["over"] and s["log"][-1]["article"] == "III.3.1.1"
    assert s["clocks"] == {"white": 900, "black": 900}


def test_q01_without_guidelines_iii_the_first_flag_decides():
    a = Arbiter({"time_control": "60", "mode": "blitz"})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 70})
    s = a.apply({"type": "flag", "player": "both", "at": 140})
    assert (s["result"], s["article"]) == ("0-1", "6.9")
    assert s["params"]["time"] == 60


def test_q01_guidelines_iii_not_in_blitz():
    with pytest.raises(ValueError, match=re.escape("III.2.2")):
        Arbiter({"time_control": "300", "mode": "blitz", "quickplay_finish": True})


@pytest.mark.parametrize("decision,over,black_clock", [
    ("accept", True, 30.0), ("postpone", False, 150.0), ("reject", False, 150.0)])
def test_q02_quickplay_claim(decision, over, black_clock):
    a = Arbiter({"time_control": "60", "quickplay_finish": True})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 1})
    a.apply({"type": "move", "player": "black", "move": "e5", "at": 31})
    s = a.apply({"type": "claim", "player": "white", "kind": "quickplay", "at": 35})
    assert s["awaiting_arbiter"]["article"] == "III.5"
    with pytest.raises(RefusedEvent, match="awaits the arbiter"):
        a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 36})
    s = a.apply({"type": "arbiter", "decision": decision, "at": 90})  # clocks stopped meanwhile
    assert s["over"] is over
    assert s["clocks"] == {"white": 55, "black": black_clock}
    if over:
        assert (s["result"], s["article"]) == ("1/2-1/2", "III.5")


def test_q02_postponed_claim_decided_after_the_flag():
    a = Arbiter({"time_control": "60", "quickplay_finish": True})
    a.apply({"type": "claim", "player": "white", "kind": "quickplay", "at": 10})
    a.apply({"type": "arbiter", "decision": "postpone", "at": 10})
    s = a.apply({"type": "flag", "player": "white", "at": 100})
    assert not s["over"] and s["awaiting_arbiter"]["player"] == "white"
    s = a.apply({"type": "arbiter", "decision": "accept", "at": 101})
    assert (s["result"], s["article"]) == ("1/2-1/2", "III.5")


def test_q02_claim_needs_less_than_two_minutes():
    a = Arbiter({"time_control": "300", "quickplay_finish": True})
    with pytest.raises(RefusedEvent, match="less than two minutes"):
        a.apply({"type": "claim", "player": "white", "kind": "quickplay", "at": 10})


def test_iii4_increment_request():
    a = Arbiter({"time_control": "100", "quickplay_finish": True})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 1})
    a.apply({"type": "move", "player": "black", "move": "e5", "at": 2})
    s = a.apply({"type": "claim", "player": "white", "kind": "increment", "at": 2})
    assert s["pending_offer"] == "white"
    s = a.apply({"type": "arbiter", "decision": "accept", "at": 5})
    assert s["clocks"]["black"] == 99 + 120
    s = a.apply({"type": "move", "player": "white", "move": "Nf3", "at": 6})
    assert s["clocks"]["white"] == 99 - 1 + 5


# --- A01, A02: Armageddon -------------------------------------------------------
def test_a01_armageddon_stalemate_is_a_black_win():
    a = Arbiter({"time_control": {"white": "300", "black": "240"}, "armageddon": True,
                 "start_fen": "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"})
    assert a.state()["match_result"] is None
    s = a.apply({"type": "move", "player": "white", "move": "Qf7", "at": 3})
    assert (s["result"], s["article"], s["match_result"]) == ("1/2-1/2", "5.2.1", "0-1")
    assert s["clocks"] == {"white": 297, "black": 240}


def test_a02_armageddon_white_flag_against_bare_king():
    a = Arbiter({"time_control": "300", "armageddon": True, "start_fen": QK_V_K_W})
    s = a.apply({"type": "flag", "player": "white", "at": 301})
    assert (s["result"], s["article"], s["match_result"]) == ("1/2-1/2", "6.9", "0-1")


def test_armageddon_decisive_result_unchanged(mv, arb):
    a = arb({"time_control": "300", "armageddon": True}, mv("f3 e5 g4 Qh4#"))
    assert a.state()["match_result"] == "0-1"
    a = arb({"time_control": "300", "armageddon": True}, [{"type": "resign", "player": "black"}])
    assert a.state()["match_result"] == "1-0"


@pytest.mark.parametrize("fen,result,case", [
    ("8/8/8/8/8/8/P1n5/K1k5 w - - 0 1", "0-1", "T02w"),
    ("kb6/8/1K6/8/4B3/8/8/8 b - - 0 1", "1-0", "S05w"),
])
def test_witness_mates_end_a_game_started_there(fen, result, case):
    a = Arbiter(cfg(start_fen=fen))
    s = a.state()
    assert (s["over"], s["result"], s["article"]) == (True, result, "5.1.1"), case
    with pytest.raises(RefusedEvent, match="game is over"):
        a.apply({"type": "resign", "player": "white"})


def test_locked_pawns_end_the_game_at_once_in_the_arbiter() -> None:
    """5.2.2 beyond material: the move that locks the last pawn makes the
    position dead (CASES S06), and the arbiter ends the game there."""
    a = Arbiter({"time_control": "300+2", "mode": "blitz",
                 "start_fen": "8/8/4k3/1p1p1p1p/1P1P1P2/4K2P/8/8 w - - 0 1"})
    s = a.apply({"type": "move", "player": "white", "move": "h4", "at": 1.0})
    assert s["over"] and s["result"] == "1/2-1/2"
    assert (s["termination"], s["article"]) == ("dead_position", "5.2.2")

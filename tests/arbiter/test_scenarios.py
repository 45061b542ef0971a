"""Whole games through ``remis arbitrate`` (tests/data/arbiter/*.json)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from remis.cli import main

DATA = Path(__file__).resolve().parent.parent / "data" / "arbiter"


def run(capsys: pytest.CaptureFixture[str], name: str) -> tuple[list[dict], int]:
    status = main(["arbitrate", str(DATA / name)])
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines()], status


def test_flag_fall_king_and_knight_against_king_and_pawn(capsys):
    lines, status = run(capsys, "flag_kn_v_kp.json")
    assert status == 1                       # two refused events
    assert lines[4]["clocks"] == {"white": 49, "black": 161}
    assert lines[5] == {"error": "white's flag has not fallen: 19 s left at 190 s", "event": 5}
    end = lines[6]
    assert (end["result"], end["termination"], end["article"]) == ("0-1", "time_forfeit", "A.5.3")
    assert end["params"]["time"] == 209      # 160 s + 49 s left
    assert lines[7]["error"].startswith("the game is over") and lines[7]["event"] == 7


def test_both_flags_in_sudden_death_with_guidelines_iii(capsys):
    lines, status = run(capsys, "both_flags_sudden_death.json")
    assert status == 1
    assert lines[2]["clocks"]["white"] == 0  # White's flag fell unnoticed; the move stands
    assert lines[3]["event"] == 3 and "black's flag has not fallen" in lines[3]["error"]
    end = lines[4]
    assert (end["result"], end["termination"], end["article"]) == (
        "1/2-1/2", "both_flags", "III.3.1.2")


def test_both_flags_in_blitz_first_flag_loses(capsys):
    lines, status = run(capsys, "both_flags_blitz.json")
    assert status == 0
    end = lines[-1]
    assert (end["result"], end["article"]) == ("0-1", "6.9")
    assert end["log"][-2]["message"] == "flag_first"


def test_second_illegal_move_in_blitz_with_full_supervision(capsys):
    lines, status = run(capsys, "second_illegal_blitz_full.json")
    assert status == 0
    assert lines[2]["illegal_moves"]["white"] == 1 and lines[2]["clocks"]["black"] == 360
    end = lines[-1]
    assert (end["over"], end["result"], end["article"]) == (True, "0-1", "7.5.5")


def test_second_illegal_move_in_blitz_without_full_supervision(capsys):
    lines, status = run(capsys, "second_illegal_blitz_partial.json")
    assert status == 1                       # e2e4 cannot be played (own pawn)
    stood = lines[6]
    assert not stood["over"] and stood["illegal_moves"]["white"] == 1
    assert stood["log"][-1]["message"] == "illegal_stands"
    assert stood["log"][-1]["article"] == "A.5.2"
    assert "/2K1P3/" in stood["fen"]          # the king stands on c4
    assert not lines[7]["over"]               # the game went on
    end = lines[8]                            # the next one is claimed: second penalised one
    assert (end["result"], end["article"]) == ("0-1", "7.5.5")


def test_incorrect_921_claim_whose_move_must_be_played(capsys):
    lines, status = run(capsys, "incorrect_921_claim.json")
    assert status == 1
    claim = lines[6]
    assert not claim["over"] and claim["pending_offer"] == "white"
    assert claim["intended_move"] == {"white": "Ng1"}
    assert claim["clocks"] == {"white": 5450, "black": 5580}   # +2 min for Black
    msgs = [e["message"] for e in claim["log"]]
    assert msgs == ["claim_threefold_incorrect", "penalty", "claim_as_offer",
                    "intended_move_required"]
    assert lines[7] == {"error": "white must play the written move Ng1 (Article 9.5.3)",
                        "event": 7}
    assert lines[8]["ply"] == 7 and lines[8]["intended_move"] is None
    assert (lines[9]["result"], lines[9]["article"]) == ("1/2-1/2", "5.2.3")  # D04


def test_offer_lapses_when_the_opponent_touches_a_piece(capsys):
    lines, status = run(capsys, "offer_lapses_on_touch.json")
    assert status == 1
    assert lines[3]["pending_offer"] == "white"
    assert lines[4]["pending_offer"] is None
    assert lines[4]["log"][-1]["message"] == "offer_lapsed_touch"
    assert lines[6] == {"error": "black has no draw offer to accept", "event": 6}


def test_every_line_is_json_and_the_log_has_articles(capsys):
    for path in sorted(DATA.glob("*.json")):
        lines, _ = run(capsys, path.name)
        for line in lines:
            for entry in line.get("log", []):
                assert entry["article"] and entry["explanation"] and entry["message"]


def test_stdin_and_bad_input(capsys, monkeypatch):
    doc = {"config": {"time_control": "-"}, "events": [
        {"type": "move", "player": "white", "move": "e4"},
        {"type": "flag", "player": "black"}, "junk"]}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(doc)))
    assert main(["arbitrate", "-"]) == 1
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["clocks"] == {"white": None, "black": None}
    assert out[1] == {"error": "this game is played without a clock", "event": 1}
    assert out[2]["event"] == 2 and "JSON object" in out[2]["error"]
    monkeypatch.setattr("sys.stdin", io.StringIO("{not json"))
    assert main(["arbitrate", "-"]) == 1
    assert "stdin: not valid JSON" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO('{"config": {"mode": "bullet"}, "events": []}'))
    assert main(["arbitrate", "-"]) == 1
    assert "mode must be one of" in capsys.readouterr().err
    assert main(["arbitrate", str(DATA / "missing.json")]) == 1
    assert "missing.json" in capsys.readouterr().err


def test_illegal_moves_found_later_in_standard_play(capsys):
    lines, status = run(capsys, "illegal_found_later_standard.json")
    assert status == 1
    assert lines[3]["log"][-1]["message"] == "illegal_unnoticed"     # ply 4: Nb8-d6
    found = lines[7]                            # the arbiter finds it three plies later
    assert (found["ply"], found["to_move"]) == (3, "black")
    assert found["fen"] == lines[2]["fen"]
    assert found["illegal_moves"]["black"] == 1
    # the clocks stay (Black's ran 5 s since White's d4); White gets 2 minutes (7.5.5)
    assert found["clocks"] == {"white": lines[6]["clocks"]["white"] + 120,
                               "black": lines[6]["clocks"]["black"] - 5}
    assert [e["article"] for e in found["log"][-2:]] == ["7.5.1", "7.5.5"]
    assert lines[8] == {"error": "the touched piece on b8 must be moved (Article 4.3.1)",
                        "event": 8}
    end = lines[13]                             # a second one, found by the opponent
    assert (end["result"], end["termination"], end["article"]) == ("1-0", "illegal_move",
                                                                   "7.5.5")
    assert end["ply"] == 5 and end["clocks"] == {"white": 5400, "black": 5400}   # set, 7.1
    assert [e["article"] for e in end["log"][-3:]] == ["7.5.1", "7.1", "7.5.5"]


def test_a54_pawn_left_on_the_last_rank_in_blitz(capsys):
    lines, status = run(capsys, "a54_pawn_blitz_partial.json")
    assert status == 1
    assert [e["message"] for e in lines[0]["log"]] == ["illegal_stands", "a54_observed"]
    assert lines[0]["fen"].startswith("1P4k1/")
    assert "not an illegal move by black" in lines[1]["error"]
    end = lines[2]                              # the next move is completed: still illegal
    assert (end["result"], end["termination"], end["article"]) == (
        "1/2-1/2", "illegal_position", "A.5.4")
    assert lines[3]["error"].startswith("the game is over (illegal_position, Article A.5.4)")


def test_sofia_rules_draw_with_the_arbiters_consent(capsys):
    lines, status = run(capsys, "sofia_arbiter_consent.json")
    assert status == 1
    assert lines[2]["awaiting_arbiter"] == {"kind": "draw_offer", "player": "white",
                                            "article": "9.1.1"}
    assert "awaits the arbiter's decision (Article 9.1.1)" in lines[3]["error"]
    assert lines[4]["awaiting_arbiter"] is None and lines[4]["pending_offer"] is None
    assert lines[4]["clocks"] == lines[2]["clocks"]            # stopped from 25 s to 60 s
    assert lines[8]["pending_offer"] == "white"
    end = lines[9]
    assert (end["result"], end["termination"], end["article"]) == ("1/2-1/2", "agreement",
                                                                   "5.2.3")
    assert [e["message"] for e in end["log"][-3:]] == ["draw_consent_asked",
                                                       "draw_consent_given", "draw_agreed"]

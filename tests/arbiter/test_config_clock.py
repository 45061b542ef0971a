"""Time controls, configuration errors and the clock."""

from __future__ import annotations

import chess
import pytest

from remis.arbiter import Arbiter, TimeControl
from remis.arbiter.clock import Clock


@pytest.mark.parametrize("text,periods", [
    ("5400+30", [(None, 5400.0, 30.0, 0.0)]),
    ("40/5400:1800+30", [(40, 5400.0, 0.0, 0.0), (None, 1800.0, 30.0, 0.0)]),
    ("40/5400+30:20/3600+30:900+30", [(40, 5400.0, 30.0, 0.0), (20, 3600.0, 30.0, 0.0),
                                      (None, 900.0, 30.0, 0.0)]),
    ("300+2", [(None, 300.0, 2.0, 0.0)]),
    ("300d5", [(None, 300.0, 0.0, 5.0)]),
    ("40/9000", [(40, 9000.0, 0.0, 0.0)]),
    ("-", []),
])
def test_time_control_syntax(text, periods):
    tc = TimeControl.parse(text)
    assert [(p.moves, p.seconds, p.increment, p.delay) for p in tc.periods] == periods


@pytest.mark.parametrize("text,words", [
    ("?", "unknown"), ("*180", "sandclock"), ("5400+", "period 1"), ("0", "no time"),
    ("1800:40/5400", "not the last period"), ("0/60", "move count of 0"), ("abc", "period 1"),
])
def test_bad_time_controls(text, words):
    with pytest.raises(ValueError, match=words):
        Arbiter({"time_control": text})


@pytest.mark.parametrize("config,words", [
    ({"mode": "bullet"}, "mode must be one of"),
    ({"supervision": "some"}, "supervision"),
    ({"armageddon": "yes"}, "armageddon must be true or false"),
    ({"no_agreement_before_move": -1}, "no_agreement_before_move"),
    ({"no_agreement_before_move": True}, "no_agreement_before_move"),
    ({"start_fen": "not a fen"}, "start_fen"),
    ({"start_fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "not a legal position: no white king"),
    ({"start_fen": "kK6/8/8/8/8/8/8/8 w - - 0 1"}, "legal position: kings on adjacent squares"),
    ({"time_control": {"white": "300"}}, "exactly the keys"),
    ({"time_control": {"white": "300", "black": "-"}}, "both players"),
    ({"time_control": 300}, "must be a string"),
    ({"quickplay_finish": True, "time_control": "300+2"}, "no increment"),
    ({"quickplay_finish": True, "mode": "online", "time_control": "300"}, "online"),
    ({"auto_claim_threefold": ["white"]}, "only in online mode"),
    ({"mode": "online", "auto_claim_threefold": "white"}, "list"),
    ({"colour": "white"}, "unknown key 'colour'"),
    ([], "JSON object"),
])
def test_bad_configs(config, words):
    with pytest.raises(ValueError, match=words):
        Arbiter(config)


def test_defaults():
    s = Arbiter({}).state()
    assert s["clocks"] == {"white": 5400, "black": 5400}
    assert "match_result" not in s
    assert Arbiter(None).state()["fen"] == chess.STARTING_FEN


def _clock(text: str) -> Clock:
    tc = TimeControl.parse(text)
    return Clock({chess.WHITE: tc, chess.BLACK: tc})


def test_multi_period_adds_time_after_the_move_count():
    c = _clock("2/100:50+10")
    c.press(chess.WHITE, 10)     # W 90, move 1
    c.press(chess.BLACK, 20)     # B 90
    c.press(chess.WHITE, 30)     # W 80, move 2 completes the period: +50
    assert c.remaining(chess.WHITE, 30) == 130 and c.period_index(chess.WHITE) == 1
    c.press(chess.BLACK, 40)
    c.press(chess.WHITE, 50)     # W 120 + 10 increment in the second period
    assert c.remaining(chess.WHITE, 50) == 130
    assert c.in_last_period(chess.WHITE) and c.in_last_period(chess.BLACK)


def test_repeating_last_period():
    c = _clock("1/60")
    c.press(chess.WHITE, 10)
    assert c.remaining(chess.WHITE, 10) == 110 and not c.in_last_period(chess.WHITE)


def test_delay_is_not_charged():
    c = _clock("60d5")
    c.press(chess.WHITE, 4)      # within the delay: nothing charged
    assert c.remaining(chess.WHITE, 4) == 60
    assert c.fell_at(chess.BLACK, 100) == 4 + 5 + 60


def test_fallen_flag_gets_no_increment_and_stays_down():
    c = _clock("10+5")
    c.press(chess.WHITE, 30)
    assert c.remaining(chess.WHITE, 30) == 0 and c.fell_at(chess.WHITE, 30) == 10
    assert not c.add(chess.WHITE, 60, 31)


def test_mate_after_an_unnoticed_flag_fall_stands():
    a = Arbiter({"time_control": "5"})
    for n, (who, san) in enumerate([("white", "f3"), ("black", "e5"), ("white", "g4"),
                                    ("black", "Qh4#")]):
        s = a.apply({"type": "move", "player": who, "move": san, "at": 4.0 * (n + 1)})
    assert s["clocks"]["white"] == 0 and s["clocks"]["black"] == 0
    assert (s["result"], s["article"]) == ("0-1", "5.1.1")


def test_armageddon_time_odds():
    a = Arbiter({"time_control": {"white": "300", "black": "240+1"}, "armageddon": True})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 10})
    s = a.apply({"type": "move", "player": "black", "move": "e5", "at": 15})
    assert s["clocks"] == {"white": 290, "black": 236}


def test_first_move_starts_the_clocks():
    """clock_start first_move: nothing runs before the first move, which costs
    nothing; from then on the clocks run as usual and the state says which runs."""
    a = Arbiter({"time_control": "60+0", "clock_start": "first_move"})
    assert a.state()["clock"] == {"running": None, "at": 0}
    with pytest.raises(Exception, match="has not fallen"):  # 90 s later: still 60 s
        a.apply({"type": "flag", "player": "white", "at": 90.0})
    s = a.apply({"type": "move", "player": "white", "move": "e4", "at": 100.0})
    assert s["clocks"] == {"white": 60, "black": 60}
    assert s["clock"] == {"running": "black", "at": 100}
    s = a.apply({"type": "move", "player": "black", "move": "e5", "at": 107.5})
    assert s["clocks"] == {"white": 60, "black": 52.5}
    s = a.apply({"type": "flag", "player": "white", "at": 168.0})
    assert s["over"] and s["result"] == "0-1"
    assert s["clock"]["running"] is None


def test_clock_stands_while_the_arbiter_decides():
    a = Arbiter({"time_control": "300", "mode": "rapid", "quickplay_finish": True})
    a.apply({"type": "move", "player": "white", "move": "e4", "at": 10.0})
    s = a.apply({"type": "claim", "player": "black", "kind": "quickplay", "at": 200.0})
    assert s["awaiting_arbiter"] and s["clock"]["running"] is None
    assert s["clocks"]["black"] == 110

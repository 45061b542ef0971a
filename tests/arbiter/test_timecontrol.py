"""Time controls as players write them, the FIDE class of each (Appendix A.1,
B.1), and what will be played, in words."""

from __future__ import annotations

import pytest

from remis.arbiter import Arbiter, TimeControl
from remis.arbiter.timecontrol import (
    TimeControlError,
    allowed_modes,
    describe,
    fide_mode,
    mode_options,
    players_text,
    read_time_control,
    render,
    sixty_move_minutes,
)


@pytest.mark.parametrize(("text", "pgn"), [
    ("3+2", "180+2"),
    ("90+30", "5400+30"),
    ("40/90+30", "40/5400+30"),            # 40 moves in 90 minutes (not 90 seconds)
    ("1/2+0", "30"),                        # half a minute (not a 2-second game)
    ("½+0", "30"),
    ("1½+1", "90+1"),
    ("1 1/2+1", "90+1"),
    ("1,5+0", "90"),                        # a decimal comma
    ("1:30+30", "5400+30"),                 # an hour and a half
    ("40/90, 30+30", "40/5400+30:1800+30"),  # FIDE's standard control: +30 from move 1
    ("40/90; 30+30", "40/5400+30:1800+30"),
    ("40/90+0, 30+30", "40/5400:1800+30"),  # +0: no increment in the first period
    ("40/120, 20/60, 15+30", "40/7200+30:20/3600+30:900+30"),
    ("90 min + 30 s", "5400+30"),
    ("90'+30\"", "5400+30"),
    ("1h30+30", "5400+30"),
    ("5d3", "300d3"),
    ("-", "-"),
])
def test_players_notation(text: str, pgn: str) -> None:
    tc = read_time_control(text)
    assert tc.text == pgn
    Arbiter({"time_control": tc.text})  # the config takes what the reading gives
    assert read_time_control(players_text(tc)).text == pgn  # and it reads back the same


@pytest.mark.parametrize(("text", "code", "words"), [
    ("90/40+30", "tc.err_order", "90 moves in 40 minutes, or 90 minutes for 40 moves"),
    ("40/90,30+30", "tc.err_comma", "a decimal comma, or two periods"),
    ("90+30+30", "tc.err_two_additions", "adds twice"),
    ("30, 40/90", "tc.err_rest_not_last", "period 1"),
    ("5400+30", "tc.err_seconds", "write 90+30"),  # PGN's seconds, said in minutes
    ("40/5400:1800+30", "tc.err_seconds", "write 40/90+0, 30+30"),
    ("2:75", "tc.err_clock_face", "from 00 to 59"),
    ("0+2", "tc.err_no_time", "Period 1 gives no time"),
    ("3 minutes please", "tc.err_unreadable", "is not a time control"),
    ("", "tc.err_empty", "e.g. 3+2"),
    ("0/90", "tc.err_no_moves", "move count of 0"),
    ("11h", "tc.err_too_long", "longer than 10 hours"),
    ("3+700", "tc.err_too_much_added", "More than 600 s"),
])
def test_what_cannot_be_read_or_reads_two_ways_is_refused(text: str, code: str,
                                                           words: str) -> None:
    with pytest.raises(TimeControlError) as info:
        read_time_control(text)
    assert info.value.code == code
    assert words in str(info.value)


@pytest.mark.parametrize(("text", "mode", "minutes"), [
    ("1+0", "blitz", 1), ("3+2", "blitz", 5), ("5+3", "blitz", 8), ("10+0", "blitz", 10),
    ("10+5", "rapid", 15), ("15+10", "rapid", 25), ("25+10", "rapid", 35), ("59+0", "rapid", 59),
    ("45+15", "standard", 60), ("60", "standard", 60), ("90+30", "standard", 120),
    ("40/90, 30+30", "standard", 150),
    # every period that starts within 60 moves counts (PGN's syntax, in seconds)
    ("40/300:300", "blitz", 10), ("20/300:360", "rapid", 11), ("40/300", "blitz", 10),
])
def test_the_mode_follows_the_fide_definitions(text: str, mode: str, minutes: float) -> None:
    """B.1: 10 minutes or less for 60 moves (time and 60 increments) is blitz;
    A.1: more than 10 and less than 60 is rapid; standard play otherwise."""
    tc = TimeControl.parse(text) if ":" in text or "/300" in text else read_time_control(text)
    assert sixty_move_minutes(tc) == minutes
    assert fide_mode(tc) == mode


def test_overrides_only_where_the_laws_allow() -> None:
    """Over the board the class is the Laws' own; where each player has a
    control of another class (time odds), either; without a clock, any."""
    both = read_time_control("90+30")
    assert allowed_modes({True: both, False: both}) == ["online", "standard"]
    odds = {True: read_time_control("11"), False: read_time_control("9")}
    assert allowed_modes(odds) == ["online", "rapid", "blitz"]
    none = read_time_control("-")
    assert allowed_modes({True: none, False: none}) == ["online", "standard", "rapid", "blitz"]
    options = {o.mode: o for o in mode_options({True: read_time_control("25"),
                                                False: read_time_control("25")})}
    assert options["rapid"].supervision and options["rapid"].quickplay_finish
    assert not options["online"].quickplay_finish  # Guidelines III need an arbiter
    blitz = {o.mode: o for o in mode_options({True: read_time_control("5"),
                                              False: read_time_control("5")})}
    assert not blitz["blitz"].quickplay_finish  # III.2.2


def test_what_will_be_played_in_words() -> None:
    assert render(describe(read_time_control("40/90, 30+30"))) == (
        "90 min for moves 1–40, then 30 min for the rest of the game; 30 s added a move from "
        "move 1.")
    assert render(describe(read_time_control("40/90+30"))) == (
        "90 min for moves 1–40, then 90 min again for moves 41–80, and so on; 30 s added a "
        "move from move 1.")
    assert render(describe(read_time_control("40/90+0, 30+30"))) == (
        "90 min for moves 1–40, then 30 min for the rest of the game; 30 s added a move from "
        "move 41.")
    assert render(describe(read_time_control("1/2+0"))) == "30 s for the game."
    assert render(describe(read_time_control("-"))) == "No clock."

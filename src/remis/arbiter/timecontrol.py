"""Time controls as players write them, and what the FIDE Laws call them.

A config holds PGN's ``TimeControl`` syntax in seconds
(:class:`~remis.arbiter.config.TimeControl`).  People write minutes:

* ``3+2``, ``90+30``: minutes for the game, plus seconds added a move;
* ``1/2+0``, ``½+0``, ``1.5+0``, ``1,5+0``: fractions of a minute;
* ``1:30+30``: hours and minutes (``h:mm``), plus seconds;
* ``40/90+30``: 40 moves in 90 minutes; a last period with a move count
  repeats (moves 41-80 get another 90 minutes), as in PGN;
* ``40/90, 30+30``: periods separated by a comma and a space (or ``;``): 90
  minutes for moves 1-40, then 30 minutes for the rest of the game.  An
  increment written on one period only counts for every period, from move 1
  (FIDE's usual control); with ``+0`` on a period it gets none;
* units where they help: ``90min+30s``, ``1h30``, ``90'+30"``; ``d5`` is a
  five-second delay; ``-`` is no clock.

What could be read two ways is refused with a sentence that says both
readings: ``90/40`` (90 moves in 40 minutes, or 90 minutes for 40 moves?),
``90,30`` (a decimal comma, or two periods?).  ``A/B`` is a fraction of a
minute when ``A < B <= 4``.

The FIDE class (Appendix A.1 rapid, B.1 blitz, standard play otherwise) counts
a player's time for 60 moves: the time of every period that starts within them
and 60 increments (a delay counts as an increment, as US Chess counts it).

Every refusal is a :class:`TimeControlError` with a stable ``code`` and
``params``; :data:`MESSAGES` holds the English templates of refusals and of
the description (:func:`describe`), which the catalogues translate.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from remis.arbiter.config import Period, TimeControl

#: the most periods, seconds of one period, seconds added a move, and moves of a period
MAX_PERIODS = 6
MAX_PERIOD_SECONDS = 10 * 3600
MAX_ADDED = 600
MAX_MOVES = 200
#: FIDE's classes by a player's minutes for 60 moves: blitz up to 10 (B.1),
#: rapid under 60 (A.1), standard play from 60
BLITZ_MINUTES = 10
RAPID_MINUTES = 60

MESSAGES: dict[str, str] = {
    "tc.none": "no clock",
    "tc.game": "{time} for the game",
    "tc.first": "{time} for moves 1–{end}",
    "tc.next": "then {time} for moves {start}–{end}",
    "tc.rest": "then {time} for the rest of the game",
    "tc.again": "then {time} again for moves {start}–{end}, and so on",
    "tc.increment": "{seconds} s added a move from move {start}",
    "tc.no_increment": "no increment from move {start}",
    "tc.delay": "a delay of {seconds} s a move from move {start}",
    "tc.class_blitz": "{minutes} min for 60 moves (the time and 60 increments): blitz "
    "(Appendix B.1).",
    "tc.class_rapid": "{minutes} min for 60 moves (the time and 60 increments): rapid "
    "(Appendix A.1).",
    "tc.class_standard": "{minutes} min for 60 moves (the time and 60 increments): standard "
    "play.",
    "tc.class_none": "Without a clock the FIDE classes do not apply: the rules are yours to "
    "choose.",
    "tc.mode_online": "Online: the server's clock rules and a flag falls by itself; illegal "
    "moves and incorrect claims are refused, without a penalty.",
    "tc.mode_standard": "Over the board, standard play: an illegal move or an incorrect claim "
    "gives the opponent 2 minutes (Articles 7.5.5, 9.5.3).",
    "tc.mode_rapid": "Over the board, rapid: an illegal move or an incorrect claim gives the "
    "opponent 1 minute (Appendix A.3).",
    "tc.mode_blitz": "Over the board, blitz: an illegal move or an incorrect claim gives the "
    "opponent 1 minute (Appendix A.3, B.3).",
    "tc.supervision_full": "Full supervision (Appendix A.4, B.2): the arbiter calls illegal "
    "moves; the Competition Rules apply in full.",
    "tc.supervision_partial": "Partial supervision (Appendix A.5, B.3): an illegal move is "
    "ruled on only when the opponent claims it.",
    "tc.quickplay": "Quickplay finish (Guidelines III): with less than two minutes left, a "
    "player may claim a draw or ask for five seconds a move.",
    "tc.err_empty": "Write a time control, e.g. 3+2 or 90+30.",
    "tc.err_unreadable": "“{part}” is not a time control. Write minutes and seconds added a "
    "move, e.g. 3+2, 90+30, 40/90, 30+30 or 1/2+0.",
    "tc.err_order": "“{part}” can be read two ways: {a} moves in {b} minutes, or {a} minutes "
    "for {b} moves. Write the moves first: {b}/{a} is {b} moves in {a} minutes.",
    "tc.err_comma": "“{part}” can be read two ways: a decimal comma, or two periods. Write "
    "a decimal point for a fraction of a minute (1.5), or a space after the comma between "
    "periods (40/90, 30).",
    "tc.err_no_time": "Period {n} gives no time.",
    "tc.err_rest_not_last": "Only the last period can be for the rest of the game: give "
    "period {n} its number of moves, e.g. 40/90.",
    "tc.err_no_moves": "Period {n} has a move count of 0.",
    "tc.err_too_many_moves": "Period {n} has more than {max} moves.",
    "tc.err_too_long": "Period {n} is longer than {max} hours.",
    "tc.err_too_much_added": "More than {max} s added a move in period {n}.",
    "tc.err_too_many_periods": "More than {max} periods.",
    "tc.err_two_additions": "“{part}” adds twice. Write each period with its moves, e.g. "
    "40/90, 30+30 for 90 minutes for 40 moves, then 30 minutes, 30 s a move.",
    "tc.err_clock_face": "“{part}”: after the colon come minutes from 00 to 59 (1:30 is an "
    "hour and a half).",
    "tc.err_seconds": "“{part}” reads like PGN's TimeControl, in seconds. Here times are in "
    "minutes: write {suggestion}.",
}


class TimeControlError(ValueError):
    """A time control refused: ``code`` (a key of :data:`MESSAGES`) and
    ``params`` say why; ``str()`` is the English sentence.

    >>> TimeControlError("tc.err_no_time", n=2).params
    {'n': 2}
    >>> str(TimeControlError("tc.err_no_time", n=2))
    'Period 2 gives no time.'
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(MESSAGES[code].format_map(params))
        self.code = code
        self.params = params


_VULGAR = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4),
           "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
_NUMBER = r"\d+(?:\.\d+)?[½¼¾⅓⅔]?|[½¼¾⅓⅔]"
_AMOUNT = rf"(?:\d+ \d/\d|\d/\d|{_NUMBER})"
_UNITS = {"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
          "min": 60, "mins": 60, "minute": 60, "minutes": 60, "m": 60, "'": 60,
          "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, '"': 1, "''": 1}
_UNIT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_PIECE = re.compile(rf"\s*({_AMOUNT})\s*({_UNIT})?(?![a-z])")
_CLOCK_FACE = re.compile(r"(\d+):(\d\d)(?::(\d\d))?")


def _amount(text: str) -> Fraction:
    """A number as written: ``90``, ``1.5``, ``1½``, ``1/2``, ``1 1/2``.

    >>> [str(_amount(t)) for t in ("90", "1.5", "1½", "1/2", "1 1/2", "½")]
    ['90', '3/2', '3/2', '1/2', '3/2', '1/2']
    """
    if " " in text:
        whole, frac = text.split(" ")
        return Fraction(whole) + Fraction(frac)
    if text[-1] in _VULGAR:
        return Fraction(text[:-1] or 0) + _VULGAR[text[-1]]
    return Fraction(text)


def _duration(text: str, unit: int, part: str) -> Fraction:
    """Seconds of ``text``: amounts with units (a bare amount in ``unit``
    seconds; one after ``h`` is minutes, after ``min`` seconds) or a clock
    face ``h:mm[:ss]``."""
    face = _CLOCK_FACE.fullmatch(text)
    if face:
        h, m, s = int(face[1]), int(face[2]), int(face[3] or 0)
        if m > 59 or s > 59:
            raise TimeControlError("tc.err_clock_face", part=part)
        return Fraction(3600 * h + 60 * m + s)
    total = Fraction(0)
    pos = 0
    while pos < len(text):
        piece = _PIECE.match(text, pos)
        if piece is None or piece.end() == pos:
            raise TimeControlError("tc.err_unreadable", part=part)
        size = _UNITS[piece[2]] if piece[2] else unit
        total += _amount(piece[1]) * size
        unit = 60 if size == 3600 else 1  # "1h30" is 1 h 30 min, "1min30" 1 min 30 s
        pos = piece.end()
    return total


@dataclass
class _Written:
    """A period as written: the increment and delay None where not written."""

    moves: int | None
    seconds: Fraction
    increment: Fraction | None
    delay: Fraction | None


def _moves_and_time(text: str, part: str) -> tuple[int | None, str]:
    """Split ``40/90`` into a move count and the time; ``1/2`` is a fraction
    of a minute (``A < B <= 4``); ``90/40`` is refused as ambiguous."""
    m = re.fullmatch(r"(\d+)\s*/\s*(.+)", text)
    if m is None:
        return None, text
    a, rest = int(m[1]), m[2]
    b = re.fullmatch(r"(\d+)\s*(?:min|m|')?", rest)
    if b is not None:
        b_value = int(b[1])
        if a < b_value <= 4:
            return None, text
        if a > b_value:
            raise TimeControlError("tc.err_order", part=part, a=a, b=b_value)
    return a, rest


def _period(part: str) -> _Written:
    """One period, e.g. ``40/90+30``, ``1:30+30``, ``5d3``."""
    body, *additions = re.split(r"\s*(?=[+d](?![a-z]))", part.strip())
    increments = [a for a in additions if a.startswith("+")]
    delays = [a for a in additions if a.startswith("d")]
    if len(increments) > 1 or len(delays) > 1:
        raise TimeControlError("tc.err_two_additions", part=part)
    moves, time = _moves_and_time(body.strip(), part)
    if not time:
        raise TimeControlError("tc.err_unreadable", part=part)
    seconds = _duration(time.strip(), 60, part)
    inc = _duration(increments[0][1:].strip(), 1, part) if increments else None
    delay = _duration(delays[0][1:].strip(), 1, part) if delays else None
    return _Written(moves, seconds, inc, delay)


def _normalise(text: str) -> str:
    """Lower case, one space at most, primes as ``'`` and ``"``, ``or`` no
    spaces around ``/``, ``+`` and ``:``."""
    t = text.strip().lower().replace("′", "'").replace("″", '"').replace("’", "'")
    t = re.sub(r"\s+", " ", t)
    return re.sub(r"\s*([/+:])\s*", r"\1", t)


def _periods_of(text: str) -> list[str]:
    """The periods of a text: split at ``;`` and at a comma followed by a
    space or not between digits; a comma between digits is a decimal comma
    when one digit follows it, and ambiguous otherwise."""
    for m in re.finditer(r"(\d+),(\d+)", text):
        if len(m[2]) > 1:
            raise TimeControlError("tc.err_comma", part=m[0])
    t = re.sub(r"(\d),(\d)", r"\1.\2", text)
    return [p for p in re.split(r"\s*[;,]\s*", t)]


def _fill(written: list[_Written]) -> list[Period]:
    """The periods with their increments and delays: one written once counts
    for every period; written on several, each period has its own."""
    incs = [p.increment for p in written if p.increment is not None]
    delays = [p.delay for p in written if p.delay is not None]
    inc_all = incs[0] if len(incs) == 1 else Fraction(0)
    delay_all = delays[0] if len(delays) == 1 else Fraction(0)
    return [Period(p.moves, float(p.seconds),
                   float(inc_all if p.increment is None else p.increment),
                   float(delay_all if p.delay is None else p.delay)) for p in written]


def _check(periods: Sequence[Period]) -> None:
    if len(periods) > MAX_PERIODS:
        raise TimeControlError("tc.err_too_many_periods", max=MAX_PERIODS)
    for n, p in enumerate(periods, start=1):
        if p.seconds <= 0:
            raise TimeControlError("tc.err_no_time", n=n)
        if p.seconds > MAX_PERIOD_SECONDS:
            raise TimeControlError("tc.err_too_long", n=n, max=MAX_PERIOD_SECONDS // 3600)
        if max(p.increment, p.delay) > MAX_ADDED:
            raise TimeControlError("tc.err_too_much_added", n=n, max=MAX_ADDED)
        if p.moves == 0:
            raise TimeControlError("tc.err_no_moves", n=n)
        if p.moves is not None and p.moves > MAX_MOVES:
            raise TimeControlError("tc.err_too_many_moves", n=n, max=MAX_MOVES)
        if p.moves is None and n < len(periods):
            raise TimeControlError("tc.err_rest_not_last", n=n)


def _number(x: float) -> str:
    """Seconds as PGN writes them: whole, or to the millisecond.

    >>> _number(5400.0), _number(20.5), _number(1 / 3)
    ('5400', '20.5', '0.333')
    """
    r = round(x, 3)
    return str(int(r)) if r == int(r) else f"{r:.3f}".rstrip("0")


def pgn_text(periods: Sequence[Period]) -> str:
    """PGN's ``TimeControl`` of ``periods`` (``-`` for none).

    >>> pgn_text([Period(40, 5400.0, 30.0), Period(None, 1800.0, 30.0)])
    '40/5400+30:1800+30'
    """
    if not periods:
        return "-"
    out = []
    for p in periods:
        s = f"{p.moves}/" if p.moves is not None else ""
        s += _number(p.seconds)
        if p.increment:
            s += f"+{_number(p.increment)}"
        if p.delay:
            s += f"d{_number(p.delay)}"
        out.append(s)
    return ":".join(out)


def read_time_control(text: str) -> TimeControl:
    """A time control as players write it (see the module's notes), as the
    :class:`TimeControl` a config takes; :class:`TimeControlError` says what
    cannot be read, or what could be read two ways.

    >>> read_time_control("90+30").text
    '5400+30'
    >>> read_time_control("40/90+30").text, read_time_control("40/90, 30+30").text
    ('40/5400+30', '40/5400+30:1800+30')
    >>> [read_time_control(t).text for t in ("1/2+0", "½+0", "1:30+30", "1,5+0", "90'+30\\"")]
    ['30', '30', '5400+30', '90', '5400+30']
    >>> read_time_control("90/40+30")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    remis.arbiter.timecontrol.TimeControlError: “90/40+30” can be read two ways: 90 moves ...
    """
    if not isinstance(text, str) or not text.strip():
        raise TimeControlError("tc.err_empty")
    t = _normalise(text)
    if t == "-":
        return TimeControl("-", ())
    try:
        periods = _fill([_period(p) for p in _periods_of(t)])
        _check(periods)
    except TimeControlError as exc:
        if exc.code in ("tc.err_too_long", "tc.err_clock_face", "tc.err_unreadable"):
            _maybe_seconds(text.strip())
        raise
    return TimeControl(pgn_text(periods), tuple(periods))


def _maybe_seconds(text: str) -> None:
    """Refuse ``text`` as PGN's syntax in seconds, with the players' way of
    writing it, when it reads so."""
    try:
        tc = TimeControl.parse(text)
    except ValueError:
        return
    if tc.periods and all(p.seconds >= 60 for p in tc.periods):
        raise TimeControlError("tc.err_seconds", part=text, suggestion=players_text(tc))


def _minutes(seconds: float) -> str:
    """A period's time in players' notation: minutes, or with units.

    >>> _minutes(5400), _minutes(30), _minutes(90), _minutes(20)
    ('90', '0.5', '1.5', '20s')
    """
    m = Fraction(seconds).limit_denominator(1000) / 60
    if m.denominator == 1:
        return str(m.numerator)
    if (m * 100).denominator == 1:
        return f"{float(m):g}"
    whole, rest = divmod(round(seconds), 60)
    return f"{whole}min{rest}s" if whole else f"{rest}s"


def players_text(tc: TimeControl) -> str:
    """How players write ``tc`` (each period's increment written where they
    differ; once, on the last period, where all are equal).

    >>> players_text(TimeControl.parse("40/5400+30:1800+30"))
    '40/90, 30+30'
    >>> players_text(TimeControl.parse("40/5400:1800+30")), players_text(TimeControl.parse("30"))
    ('40/90+0, 30+30', '0.5')
    """
    if not tc.periods:
        return "-"
    same = len({(p.increment, p.delay) for p in tc.periods}) == 1
    delays = len({p.delay for p in tc.periods}) > 1
    out = []
    for i, p in enumerate(tc.periods):
        s = f"{p.moves}/" if p.moves is not None else ""
        s += _minutes(p.seconds)
        if not same or i == len(tc.periods) - 1:
            if p.increment or not same:
                s += f"+{_number(p.increment)}"
            if p.delay or delays:
                s += f"d{_number(p.delay)}"
        out.append(s)
    return ", ".join(out)


# -- what FIDE calls it ------------------------------------------------------------


def sixty_move_minutes(tc: TimeControl) -> float | None:
    """A player's minutes for 60 moves: every period that starts within them
    and the increments (and delays) of 60 moves; None without a clock.

    >>> [sixty_move_minutes(TimeControl.parse(t)) for t in ("5400+30", "180+2", "40/5400:1800")]
    [120.0, 5.0, 120.0]
    """
    if not tc.clocked:
        return None
    total, move, index = 0.0, 1, 0
    while move <= 60:
        p = tc.period(index)
        span = p.moves if p.moves is not None else 61 - move
        counted = min(60, move + span - 1) - move + 1
        total += p.seconds + (p.increment + p.delay) * counted
        move += span
        index += 1
    return total / 60


def fide_mode(tc: TimeControl) -> str | None:
    """``blitz`` (B.1: 10 minutes or less for 60 moves), ``rapid`` (A.1:
    more than 10, less than 60) or ``standard``; None without a clock.

    >>> [fide_mode(read_time_control(t)) for t in ("3+2", "10+0", "10+5", "45+15", "90+30")]
    ['blitz', 'blitz', 'rapid', 'standard', 'standard']
    """
    minutes = sixty_move_minutes(tc)
    if minutes is None:
        return None
    if minutes <= BLITZ_MINUTES + 1e-9:
        return "blitz"
    return "rapid" if minutes < RAPID_MINUTES - 1e-9 else "standard"


def allowed_modes(tcs: Mapping[bool, TimeControl]) -> list[str]:
    """The modes a game with these clocks may be played in: online, and over
    the board the FIDE class of each player's control (both where they
    differ, as with time odds; any without a clock, where the classes do not
    apply).

    >>> allowed_modes({True: read_time_control("90+30"), False: read_time_control("90+30")})
    ['online', 'standard']
    >>> allowed_modes({True: read_time_control("-"), False: read_time_control("-")})
    ['online', 'standard', 'rapid', 'blitz']
    """
    classes = {fide_mode(tc) for tc in tcs.values()}
    if None in classes:
        return ["online", "standard", "rapid", "blitz"]
    return ["online", *[m for m in ("standard", "rapid", "blitz") if m in classes]]


@dataclass(frozen=True)
class ModeOption:
    """A mode a game may be played in, what it means (a key of
    :data:`MESSAGES`), and the options that apply in it: the choice of
    supervision (rapid and blitz, A.4/A.5, B.2/B.3) and a quickplay finish
    (Guidelines III: over the board, not blitz, a last period without increment)."""

    mode: str
    meaning: str
    supervision: bool
    quickplay_finish: bool


def mode_options(tcs: Mapping[bool, TimeControl]) -> list[ModeOption]:
    """The modes of :func:`allowed_modes` with their meaning and options.

    >>> [(o.mode, o.quickplay_finish) for o in mode_options({True: read_time_control("90"),
    ...                                                        False: read_time_control("90")})]
    [('online', False), ('standard', True)]
    """
    no_increment = all(tc.clocked and not tc.periods[-1].increment and not tc.periods[-1].delay
                       for tc in tcs.values())
    return [ModeOption(m, f"tc.mode_{m}", m in ("rapid", "blitz"),
                       m in ("standard", "rapid") and no_increment)
            for m in allowed_modes(tcs)]


def first_move_seconds(tc: TimeControl) -> int:
    """How long a player may take over the first move before a game nobody
    started is cancelled (lichess's casual times by speed: 20 s under three
    minutes for 60 moves, 25 s blitz, 30 s rapid, 35 s standard).

    >>> [first_move_seconds(read_time_control(t)) for t in ("1+0", "3+2", "15+10", "90+30")]
    [20, 25, 30, 35]
    """
    minutes = sixty_move_minutes(tc)
    if minutes is None:
        return 35
    if minutes < 3:
        return 20
    return {"blitz": 25, "rapid": 30}.get(fide_mode(tc) or "", 35)


# -- in words ----------------------------------------------------------------------


def _time_words(seconds: float) -> str:
    """``90 min``, ``1 min 30 s``, ``30 s``: the same in every language.

    >>> _time_words(5400), _time_words(90), _time_words(30), _time_words(0.5)
    ('90 min', '1 min 30 s', '30 s', '0.5 s')
    """
    whole = round(seconds, 3)
    if whole < 60:
        return f"{_number(whole)} s"
    m, s = divmod(whole, 60)
    return f"{int(m)} min" if not s else f"{int(m)} min {_number(s)} s"


Phrase = tuple[str, dict[str, object]]
#: the phrases of what is added a move (after the times, past a semicolon)
_ADDED = frozenset({"tc.increment", "tc.delay", "tc.no_increment"})


def describe(tc: TimeControl) -> list[Phrase]:
    """What will be played, as phrases (a key of :data:`MESSAGES` and its
    params): the times of the periods, then the increments and delays.

    >>> [k for k, _ in describe(read_time_control("40/90, 30+30"))]
    ['tc.first', 'tc.rest', 'tc.increment']
    >>> render(describe(read_time_control("40/90, 30+30")))
    '90 min for moves 1–40, then 30 min for the rest of the game; 30 s added a move from move 1.'
    """
    if not tc.periods:
        return [("tc.none", {})]
    times: list[Phrase] = []
    added: list[Phrase] = []
    start = 1
    last: tuple[float, float] = (0.0, 0.0)
    for i, p in enumerate(tc.periods):
        time = _time_words(p.seconds)
        if p.moves is None:
            times.append(("tc.game", {"time": time}) if i == 0 else ("tc.rest", {"time": time}))
        elif i == 0:
            times.append(("tc.first", {"time": time, "end": p.moves}))
        else:
            times.append(("tc.next", {"time": time, "start": start, "end": start + p.moves - 1}))
        if (p.increment, p.delay) != last:
            if p.increment:
                added.append(("tc.increment", {"seconds": _number(p.increment), "start": start}))
            if p.delay:
                added.append(("tc.delay", {"seconds": _number(p.delay), "start": start}))
            if not p.increment and last[0]:
                added.append(("tc.no_increment", {"start": start}))
            last = (p.increment, p.delay)
        if p.moves is not None:
            start += p.moves
    final = tc.periods[-1]
    if final.moves is not None:  # it repeats
        times.append(("tc.again", {"time": _time_words(final.seconds), "start": start,
                                   "end": start + final.moves - 1}))
    return times + added


def render(phrases: Sequence[Phrase], templates: Mapping[str, str] = MESSAGES) -> str:
    """Phrases as one sentence: the times joined by commas, the increments
    after a semicolon (``templates``: the English ones, or a catalogue's).

    >>> render(describe(read_time_control("3+2")))
    '3 min for the game; 2 s added a move from move 1.'
    """
    times = [templates[k].format_map(p) for k, p in phrases
             if k not in _ADDED]
    added = [templates[k].format_map(p) for k, p in phrases if k in _ADDED]
    text = "; ".join([", ".join(times), *added])
    return text[:1].upper() + text[1:] + "."


def classify(tc: TimeControl) -> Phrase:
    """The FIDE class in words (:data:`MESSAGES` ``tc.class_*``).

    >>> render_one(classify(read_time_control("90+30")))
    '120 min for 60 moves (the time and 60 increments): standard play.'
    """
    minutes = sixty_move_minutes(tc)
    mode = fide_mode(tc)
    if minutes is None or mode is None:
        return ("tc.class_none", {})
    return (f"tc.class_{mode}", {"minutes": _number(minutes)})


def render_one(phrase: Phrase, templates: Mapping[str, str] = MESSAGES) -> str:
    """One phrase in words."""
    key, params = phrase
    return templates[key].format_map(params)

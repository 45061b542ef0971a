"""Configuration of a live game: time control, mode and event options.

Time controls use the PGN ``TimeControl`` syntax, periods separated by ``:``;
each period is ``[MOVES/]SECONDS[+INCREMENT][dDELAY]``:

* ``5400+30``: 90 minutes for the game, 30 s added after every move;
* ``40/5400:1800+30``: 40 moves in 90 minutes, then 30 minutes (+30 s) for the
  rest; a last period that has a move count repeats (PGN ``40/9000``);
* ``300d5``: 5 minutes with a 5-second *delay* (the clock starts counting down
  only after 5 s of each move; our extension of the PGN syntax);
* ``-``: no clock.

A time control may also be given per player, ``{"white": "300", "black": "240"}``
(Armageddon time odds).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

import chess

from remis.fen import illegal_reason

Mode = Literal["standard", "rapid", "blitz", "online"]
Supervision = Literal["full", "partial"]

MODES: tuple[str, ...] = ("standard", "rapid", "blitz", "online")
SUPERVISIONS: tuple[str, ...] = ("full", "partial")
#: 6.8: when a flag counts as fallen: when the arbiter or a player notices it
#: (a ``flag`` event), or the moment the time runs out (any later event finds
#: the game over; online play always works so).
FLAG_TIMES: tuple[str, ...] = ("observed", "physical")

_FORBIDDEN_BEFORE = re.compile(r"^forbidden_before\((\d+)\)$")
_PERIOD = re.compile(
    r"^(?:(?P<moves>\d+)/)?(?P<base>\d+(?:\.\d+)?)"
    r"(?:\+(?P<inc>\d+(?:\.\d+)?))?(?:d(?P<delay>\d+(?:\.\d+)?))?$"
)


@dataclass(frozen=True)
class Period:
    """One period of a time control: ``moves`` moves (None: all the rest) in
    ``seconds``, with ``increment`` added after each move and ``delay``
    seconds of grace at the start of each move.

    >>> Period(40, 5400.0).increment
    0.0
    """

    moves: int | None
    seconds: float
    increment: float = 0.0
    delay: float = 0.0


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control; ``periods`` is empty for ``-`` (no clock).

    >>> tc = TimeControl.parse("40/5400:1800+30")
    >>> [(p.moves, p.seconds, p.increment) for p in tc.periods]
    [(40, 5400.0, 0.0), (None, 1800.0, 30.0)]
    >>> TimeControl.parse("-").periods
    ()
    """

    text: str
    periods: tuple[Period, ...]

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse PGN ``TimeControl`` syntax; ``ValueError`` names the bad part.

        >>> TimeControl.parse("300d5").periods[0].delay
        5.0
        >>> TimeControl.parse("5400+x")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: time_control '5400+x': period 1 '5400+x' is not [MOVES/]SECONDS...
        """
        if not isinstance(text, str):
            raise ValueError(f"time_control must be a string, not {type(text).__name__}")
        t = text.strip()
        if t == "-":
            return cls(t, ())
        if t in ("", "?") or t.startswith("*"):
            raise ValueError(f"time_control {text!r}: unknown or sandclock time controls are not "
                             "supported (use e.g. '5400+30', '40/5400:1800+30' or '-')")
        periods = []
        parts = t.split(":")
        for n, part in enumerate(parts, start=1):
            m = _PERIOD.match(part)
            if m is None:
                raise ValueError(f"time_control {text!r}: period {n} {part!r} is not "
                                 "[MOVES/]SECONDS[+INCREMENT][dDELAY]")
            moves = int(m["moves"]) if m["moves"] else None
            if moves is not None and moves < 1:
                raise ValueError(f"time_control {text!r}: period {n} has a move count of 0")
            if moves is None and n < len(parts):
                raise ValueError(f"time_control {text!r}: period {n} has no move count but is "
                                 "not the last period")
            seconds = float(m["base"])
            if seconds <= 0 or not math.isfinite(seconds):
                raise ValueError(f"time_control {text!r}: period {n} gives no time")
            periods.append(Period(moves, seconds, float(m["inc"] or 0), float(m["delay"] or 0)))
        return cls(t, tuple(periods))

    @property
    def clocked(self) -> bool:
        """False for ``-`` (no clock).

        >>> TimeControl.parse("-").clocked
        False
        """
        return bool(self.periods)

    def period(self, index: int) -> Period:
        """Period number ``index`` (from 0); a last period with a move count
        repeats.

        >>> TimeControl.parse("40/9000").period(3).seconds
        9000.0
        """
        return self.periods[min(index, len(self.periods) - 1)]

    def estimated_minutes(self) -> float:
        """FIDE's duration measure: base + 60 x increment of the first period,
        in minutes (A: rapid is more than 10 and less than 60; B: blitz 10 or less).

        >>> TimeControl.parse("300+2").estimated_minutes()
        7.0
        """
        if not self.periods:
            return math.inf
        p = self.periods[0]
        return (p.seconds + 60 * p.increment) / 60


_DEFAULTS: dict[str, Any] = {
    "time_control": "5400+30",
    "mode": "standard",
    "supervision": "full",
    "armageddon": False,
    "no_agreement_before_move": 0,
    "draw_agreement": "allowed",
    "quickplay_finish": False,
    "start_fen": None,
    "auto_claim_threefold": [],
    "variant": "chess",
    "repetitions": None,
    "notation": None,
    "flag_time": None,
    "clock_start": "game_start",
}


def defaults() -> dict[str, Any]:
    """Every key of a config object, with its default (any other key is refused).

    >>> defaults()["mode"], "time_control" in defaults()
    ('standard', True)
    """
    return dict(_DEFAULTS)


#: when the clocks start: White's at time 0 (the arbiter starts it at the start of
#: the round), or both with the first move (games played on links)
CLOCK_STARTS: tuple[str, ...] = ("game_start", "first_move")

VARIANTS: tuple[str, ...] = ("chess", "shogi", "xiangqi")


@dataclass(frozen=True)
class Config:
    """A validated arbiter configuration.

    >>> c = Config.from_dict({"time_control": "300+2", "mode": "blitz"})
    >>> c.mode, c.penalty_seconds, c.time_controls[chess.WHITE].periods[0].increment
    ('blitz', 60, 2.0)
    >>> Config.from_dict({"mood": "calm"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: config: unknown key 'mood' (known: armageddon, ...)
    """

    time_controls: dict[bool, TimeControl]
    mode: str
    supervision: str
    armageddon: bool
    no_agreement_before_move: int
    quickplay_finish: bool
    start_fen: str | None
    auto_claim_threefold: frozenset[bool]
    raw: dict[str, Any]
    #: ``chess``, ``shogi`` or ``xiangqi`` (see :mod:`remis.arbiter.variant`)
    variant: str = "chess"
    #: occurrences of a position that end a variant game (xiangqi: 4 or 3)
    repetitions: int | None = None
    #: xiangqi move notation: ``uci`` or ``iccs`` (None: uci)
    notation: str | None = None
    #: 9.1.1 Sofia rules: every draw offer or agreement needs the arbiter's consent
    arbiter_only: bool = False
    #: 6.8: ``observed`` (a flag falls when noticed: a ``flag`` event) or
    #: ``physical`` (when the time runs out; online play always)
    flag_time: str = "observed"
    #: ``game_start`` (White's clock runs from time 0) or ``first_move``
    clock_start: str = "game_start"

    @classmethod
    def from_dict(cls, config: Any) -> Config:
        """Validate a JSON config object; ``ValueError`` says what is wrong.

        >>> Config.from_dict({"mode": "rapid", "supervision": "partial"}).full_supervision
        False
        >>> Config.from_dict({"mode": "online"}).flag_time
        'physical'
        >>> Config.from_dict({"time_control": "300", "mode": "blitz", "quickplay_finish": True})
        Traceback (most recent call last):
        ...
        ValueError: config: quickplay_finish (Guidelines III) does not apply to blitz (III.2.2)
        """
        if config is None:
            config = {}
        if not isinstance(config, dict):
            raise ValueError(f"config must be a JSON object, not {type(config).__name__}")
        unknown = sorted(str(k) for k in config if k not in _DEFAULTS)
        if unknown:
            raise ValueError(f"config: unknown key {unknown[0]!r} (known: "
                             f"{', '.join(sorted(_DEFAULTS))})")
        c = {**_DEFAULTS, **config}
        mode = c["mode"]
        if mode not in MODES:
            raise ValueError(f"config: mode must be one of {', '.join(MODES)}, not {mode!r}")
        sup = c["supervision"]
        if sup not in SUPERVISIONS:
            raise ValueError(f"config: supervision must be 'full' or 'partial', not {sup!r}")
        flag_time = c["flag_time"]
        if flag_time is None:
            flag_time = "physical" if mode == "online" else "observed"
        if flag_time not in FLAG_TIMES:
            raise ValueError("config: flag_time must be 'observed' or 'physical', not "
                             f"{c['flag_time']!r}")
        if c["clock_start"] not in CLOCK_STARTS:
            raise ValueError("config: clock_start must be 'game_start' or 'first_move', not "
                             f"{c['clock_start']!r}")
        if mode == "online" and flag_time != "physical":
            raise ValueError("config: online, the server's clock is the flag: flag_time is "
                             "'physical' (Article 6.8)")
        for key in ("armageddon", "quickplay_finish"):
            if not isinstance(c[key], bool):
                raise ValueError(f"config: {key} must be true or false, not {c[key]!r}")
        n = c["no_agreement_before_move"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError("config: no_agreement_before_move must be a whole number >= 0, "
                             f"not {n!r}")
        n, arbiter_only = _draw_agreement(c["draw_agreement"], n)
        tc = c["time_control"]
        if isinstance(tc, dict):
            bad = sorted(str(k) for k in tc if k not in ("white", "black"))
            if bad or len(tc) != 2:
                raise ValueError("config: a per-player time_control needs exactly the keys "
                                 "'white' and 'black'")
            try:
                tcs = {chess.WHITE: TimeControl.parse(tc["white"]),
                       chess.BLACK: TimeControl.parse(tc["black"])}
            except ValueError as exc:
                raise ValueError(f"config: {exc}") from None
            if tcs[chess.WHITE].clocked != tcs[chess.BLACK].clocked:
                raise ValueError("config: either both players have a clock or neither")
        else:
            try:
                one = TimeControl.parse(tc)
            except ValueError as exc:
                raise ValueError(f"config: {exc}") from None
            tcs = {chess.WHITE: one, chess.BLACK: one}
        if c["quickplay_finish"] and c["variant"] == "chess":
            if mode == "blitz":
                raise ValueError("config: quickplay_finish (Guidelines III) does not apply to "
                                 "blitz (III.2.2)")
            if mode == "online":
                raise ValueError("config: quickplay_finish (Guidelines III) needs an arbiter; "
                                 "not available in online mode")
            for t in tcs.values():
                if not t.clocked or t.periods[-1].increment or t.periods[-1].delay:
                    raise ValueError("config: quickplay_finish (Guidelines III) applies only to "
                                     "games whose last period has no increment (III.2.1)")
        fen = c["start_fen"]
        variant = c["variant"]
        if variant not in VARIANTS:
            raise ValueError(f"config: variant must be one of {', '.join(VARIANTS)}, "
                             f"not {variant!r}")
        if variant != "chess":
            return cls._variant(c, tcs, mode, sup, n, dict(config), flag_time)
        for key in ("repetitions", "notation"):
            if c[key] is not None:
                raise ValueError(f"config: {key} applies only to shogi and xiangqi games")
        if fen is not None:
            if not isinstance(fen, str):
                raise ValueError("config: start_fen must be a FEN string or null")
            try:
                board = chess.Board(fen)
            except ValueError as exc:
                raise ValueError(f"config: start_fen {fen!r}: {exc}") from None
            reason = illegal_reason(board)
            if reason is not None:
                raise ValueError(f"config: start_fen {fen!r} is not a legal position: {reason}")
        auto = c["auto_claim_threefold"]
        if not isinstance(auto, list) or any(p not in ("white", "black") for p in auto):
            raise ValueError("config: auto_claim_threefold must be a list of 'white'/'black'")
        if auto and mode != "online":
            raise ValueError("config: auto_claim_threefold is a server convention, only in "
                             "online mode")
        return cls(tcs, mode, sup, c["armageddon"], n, c["quickplay_finish"], fen,
                   frozenset(p == "white" for p in auto), dict(config),
                   arbiter_only=arbiter_only, flag_time=flag_time,
                   clock_start=c["clock_start"])

    @classmethod
    def _variant(cls, c: dict[str, Any], tcs: dict[bool, TimeControl], mode: str, sup: str,
                 n: int, raw: dict[str, Any], flag_time: str) -> Config:
        """The checks of a shogi or xiangqi config (the position itself is
        read by :class:`remis.variants.VariantHistory` when the arbiter starts)."""
        variant = c["variant"]
        for key, what in (("quickplay_finish", "quickplay_finish (FIDE Guidelines III)"),
                          ("auto_claim_threefold", "auto_claim_threefold (FIDE 9.2)")):
            if c[key]:
                raise ValueError(f"config: {what} is chess-only; a {variant} repetition ends "
                                 "the game without a claim")
        reps = c["repetitions"]
        if reps is not None:
            if variant == "shogi" and reps != 4:
                raise ValueError("config: shogi repetition (sennichite) is always fourfold; "
                                 "leave out repetitions")
            if reps not in (3, 4):
                raise ValueError(f"config: repetitions must be 4 (WXF) or 3, not {reps!r}")
        notation = c["notation"]
        allowed = ("usi",) if variant == "shogi" else ("uci", "iccs")
        if notation is not None and notation not in allowed:
            raise ValueError(f"config: notation for {variant} must be "
                             f"{' or '.join(allowed)}, not {notation!r}")
        fen = c["start_fen"]
        if fen is not None and (not isinstance(fen, str) or not fen.strip()):
            raise ValueError(f"config: start_fen must be a {variant} position "
                             f"({'SFEN' if variant == 'shogi' else 'FEN'}), 'startpos' or null")
        return cls(tcs, mode, sup, c["armageddon"], n, False, fen, frozenset(), raw,
                   variant, reps, notation, c["draw_agreement"] == "arbiter_only",
                   flag_time, c["clock_start"])

    @property
    def penalty_seconds(self) -> int:
        """Time given to the opponent for an illegal move or an incorrect claim:
        2 minutes in standard play, 1 minute in rapid and blitz (A.3, B.3, 2023).

        >>> Config.from_dict({"mode": "rapid"}).penalty_seconds
        60
        """
        return 120 if self.mode == "standard" else 60

    @property
    def penalty_article(self) -> str:
        """The article fixing the penalty: 7.5.5/9.5.3 in standard play, A.3 in
        rapid, B.3 in blitz.

        >>> Config.from_dict({"mode": "blitz"}).penalty_article
        'B.3'
        """
        return {"rapid": "A.3", "blitz": "B.3"}.get(self.mode, "7.5.5")

    @property
    def full_supervision(self) -> bool:
        """True when the Competition Rules apply fully: standard play, or
        rapid/blitz under full supervision (A.4, B.2).

        >>> Config.from_dict({"mode": "rapid", "supervision": "partial"}).full_supervision
        False
        """
        return self.mode == "standard" or self.supervision == "full"

    def board(self) -> chess.Board:
        """The start position.

        >>> Config.from_dict({}).board().fen() == chess.STARTING_FEN
        True
        """
        return chess.Board(self.start_fen) if self.start_fen else chess.Board()


def _draw_agreement(value: Any, before: int) -> tuple[int, bool]:
    """``draw_agreement`` (9.1.1) with ``no_agreement_before_move``: the move
    before which offers need the arbiter's consent, and whether all do.

    >>> _draw_agreement("forbidden_before(30)", 0), _draw_agreement("arbiter_only", 0)
    ((30, False), (0, True))
    >>> _draw_agreement("forbidden_before(30)", 20)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: config: draw_agreement 'forbidden_before(30)' contradicts no_agreement_before...
    """
    if value in ("allowed", "arbiter_only"):
        return before, value == "arbiter_only"
    m = _FORBIDDEN_BEFORE.match(value) if isinstance(value, str) else None
    if m is None:
        raise ValueError("config: draw_agreement must be 'allowed', 'arbiter_only' or "
                         f"'forbidden_before(N)', not {value!r}")
    n = int(m[1])
    if before and before != n:
        raise ValueError(f"config: draw_agreement {value!r} contradicts "
                         f"no_agreement_before_move {before}")
    return n, False

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
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import chess

from remis.fen import illegal_reason

Mode = Literal["standard", "rapid", "blitz", "online"]

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
    "players": None,
    "first_move_seconds": None,
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
#: the longest player name a config takes
MAX_NAME = 100
#: the longest first-move time (seconds) a config takes
MAX_FIRST_MOVE = 3600


class ConfigError(ValueError):
    """A config refused: ``code`` names the setting at fault (stable, for
    translations and HTTP clients), the message says why in English, and
    ``params`` holds what a translation needs.

    >>> ConfigError("config.mode", "config: mode must be one of ...").code
    'config.mode'
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Config:
    """A validated arbiter configuration.

    >>> c = Config.from_dict({"time_control": "300+2", "mode": "blitz"})
    >>> c.mode, c.penalty_seconds, c.time_controls[chess.WHITE].periods[0].increment
    ('blitz', 60, 2.0)
    >>> Config.from_dict({"mood": "calm"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    remis.arbiter.config.ConfigError: config: unknown key 'mood' (known: armageddon, ...)
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
    #: the players' names, ``{"white": ..., "black": ...}`` (either may be missing)
    players: Mapping[str, str] = field(default_factory=dict)
    #: a server's first-move rule (lichess's): until both players have moved, either
    #: may cancel the game, and a player whose clock has run this many seconds
    #: without a first move cancels it (no result); None: no such rule
    first_move_seconds: float | None = None

    @classmethod
    def from_dict(cls, config: Any) -> Config:
        """Validate a JSON config object; :class:`ConfigError` (a
        ``ValueError``) says what is wrong.  Each setting is checked by a step
        of its own, in this order.

        >>> Config.from_dict({"mode": "rapid", "supervision": "partial"}).full_supervision
        False
        >>> Config.from_dict({"mode": "online"}).flag_time
        'physical'
        >>> Config.from_dict({"time_control": "300", "mode": "blitz", "quickplay_finish": True})
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        remis.arbiter.config.ConfigError: config: quickplay_finish (Guidelines III) does not ...
        """
        c = with_defaults(config)
        raw = dict(config or {})
        mode = check_mode(c)
        sup = check_supervision(c)
        flag_time = check_flag_time(c, mode)
        check_clock_start(c)
        check_switches(c)
        n, arbiter_only = check_agreement(c)
        tcs = check_time_controls(c["time_control"])
        check_quickplay(c, mode, tcs)
        variant = check_variant(c)
        players = check_players(c)
        first_move = check_first_move(c)
        if variant != "chess":
            return replace(cls._variant(c, tcs, mode, sup, n, raw, flag_time),
                           players=players, first_move_seconds=first_move)
        check_chess_only(c)
        fen = check_start_fen(c)
        auto = check_auto_claim(c, mode)
        return cls(tcs, mode, sup, c["armageddon"], n, c["quickplay_finish"], fen,
                   auto, raw, arbiter_only=arbiter_only, flag_time=flag_time,
                   clock_start=c["clock_start"], players=players,
                   first_move_seconds=first_move)

    @classmethod
    def _variant(cls, c: dict[str, Any], tcs: dict[bool, TimeControl], mode: str, sup: str,
                 n: int, raw: dict[str, Any], flag_time: str) -> Config:
        """The checks of a shogi or xiangqi config (the position itself is
        read by :class:`remis.variants.VariantHistory` when the arbiter starts)."""
        variant = c["variant"]
        for key, what in (("quickplay_finish", "quickplay_finish (FIDE Guidelines III)"),
                          ("auto_claim_threefold", "auto_claim_threefold (FIDE 9.2)")):
            if c[key]:
                raise ConfigError("config.chess_only",
                                  f"config: {what} is chess-only; a {variant} repetition ends "
                                  "the game without a claim", key=key)
        reps = c["repetitions"]
        if reps is not None:
            if variant == "shogi" and reps != 4:
                raise ConfigError("config.repetitions",
                                  "config: shogi repetition (sennichite) is always fourfold; "
                                  "leave out repetitions")
            if reps not in (3, 4):
                raise ConfigError("config.repetitions",
                                  f"config: repetitions must be 4 (WXF) or 3, not {reps!r}")
        notation = c["notation"]
        allowed = ("usi",) if variant == "shogi" else ("uci", "iccs")
        if notation is not None and notation not in allowed:
            raise ConfigError("config.notation", f"config: notation for {variant} must be "
                                                 f"{' or '.join(allowed)}, not {notation!r}")
        fen = c["start_fen"]
        if fen is not None and (not isinstance(fen, str) or not fen.strip()):
            raise ConfigError("config.start_fen",
                              f"config: start_fen must be a {variant} position "
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


# -- the steps of Config.from_dict, each checking one setting ----------------------


def with_defaults(config: Any) -> dict[str, Any]:
    """The config object over the defaults; no unknown key.

    >>> with_defaults(None)["mode"], with_defaults({"mode": "rapid"})["mode"]
    ('standard', 'rapid')
    """
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise ConfigError("config.not_object",
                          f"config must be a JSON object, not {type(config).__name__}")
    unknown = sorted(str(k) for k in config if k not in _DEFAULTS)
    if unknown:
        raise ConfigError("config.unknown_key", f"config: unknown key {unknown[0]!r} (known: "
                                                f"{', '.join(sorted(_DEFAULTS))})",
                          key=unknown[0])
    return {**_DEFAULTS, **config}


def check_mode(c: dict[str, Any]) -> str:
    """``mode``: standard, rapid, blitz or online.

    >>> check_mode(with_defaults({"mode": "blitz"}))
    'blitz'
    """
    mode = c["mode"]
    if mode not in MODES:
        raise ConfigError("config.mode",
                          f"config: mode must be one of {', '.join(MODES)}, not {mode!r}")
    return str(mode)


def check_supervision(c: dict[str, Any]) -> str:
    """``supervision``: full or partial (A.4/A.5, B.2/B.3).

    >>> check_supervision(with_defaults({}))
    'full'
    """
    sup = c["supervision"]
    if sup not in SUPERVISIONS:
        raise ConfigError("config.supervision",
                          f"config: supervision must be 'full' or 'partial', not {sup!r}")
    return str(sup)


def check_flag_time(c: dict[str, Any], mode: str) -> str:
    """``flag_time`` (6.8): observed, or physical (online always).

    >>> check_flag_time(with_defaults({}), "online"), check_flag_time(with_defaults({}), "rapid")
    ('physical', 'observed')
    """
    flag_time = c["flag_time"]
    if flag_time is None:
        flag_time = "physical" if mode == "online" else "observed"
    if flag_time not in FLAG_TIMES:
        raise ConfigError("config.flag_time", "config: flag_time must be 'observed' or "
                                              f"'physical', not {c['flag_time']!r}")
    if mode == "online" and flag_time != "physical":
        raise ConfigError("config.flag_time", "config: online, the server's clock is the "
                                              "flag: flag_time is 'physical' (Article 6.8)")
    return str(flag_time)


def check_clock_start(c: dict[str, Any]) -> None:
    """``clock_start``: game_start or first_move."""
    if c["clock_start"] not in CLOCK_STARTS:
        raise ConfigError("config.clock_start", "config: clock_start must be 'game_start' or "
                                                f"'first_move', not {c['clock_start']!r}")


def check_switches(c: dict[str, Any]) -> None:
    """``armageddon`` and ``quickplay_finish`` are true or false."""
    for key in ("armageddon", "quickplay_finish"):
        if not isinstance(c[key], bool):
            raise ConfigError(f"config.{key}",
                              f"config: {key} must be true or false, not {c[key]!r}")


def check_agreement(c: dict[str, Any]) -> tuple[int, bool]:
    """``no_agreement_before_move`` with ``draw_agreement`` (9.1.1): the move
    before which offers need the arbiter's consent, and whether all do.

    >>> check_agreement(with_defaults({"draw_agreement": "forbidden_before(30)"}))
    (30, False)
    """
    n = c["no_agreement_before_move"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ConfigError("config.no_agreement_before_move",
                          "config: no_agreement_before_move must be a whole number >= 0, "
                          f"not {n!r}")
    return _draw_agreement(c["draw_agreement"], n)


def check_time_controls(tc: Any) -> dict[bool, TimeControl]:
    """``time_control``: one for both players, or ``{"white": ..., "black": ...}``.

    >>> check_time_controls({"white": "300", "black": "240"})[chess.BLACK].text
    '240'
    """
    if isinstance(tc, dict):
        bad = sorted(str(k) for k in tc if k not in ("white", "black"))
        if bad or len(tc) != 2:
            raise ConfigError("config.time_control", "config: a per-player time_control "
                                                     "needs exactly the keys 'white' and 'black'")
        try:
            tcs = {chess.WHITE: TimeControl.parse(tc["white"]),
                   chess.BLACK: TimeControl.parse(tc["black"])}
        except ValueError as exc:
            raise ConfigError("config.time_control", f"config: {exc}") from None
        if tcs[chess.WHITE].clocked != tcs[chess.BLACK].clocked:
            raise ConfigError("config.time_control",
                              "config: either both players have a clock or neither")
        return tcs
    try:
        one = TimeControl.parse(tc)
    except ValueError as exc:
        raise ConfigError("config.time_control", f"config: {exc}") from None
    return {chess.WHITE: one, chess.BLACK: one}


def check_quickplay(c: dict[str, Any], mode: str, tcs: dict[bool, TimeControl]) -> None:
    """``quickplay_finish`` (Guidelines III): over the board, not blitz, and
    only with a last period without increment (III.2)."""
    if not (c["quickplay_finish"] and c["variant"] == "chess"):
        return
    if mode == "blitz":
        raise ConfigError("config.quickplay_finish", "config: quickplay_finish (Guidelines "
                                                     "III) does not apply to blitz (III.2.2)")
    if mode == "online":
        raise ConfigError("config.quickplay_finish", "config: quickplay_finish (Guidelines "
                                                     "III) needs an arbiter; not available in "
                                                     "online mode")
    for t in tcs.values():
        if not t.clocked or t.periods[-1].increment or t.periods[-1].delay:
            raise ConfigError("config.quickplay_finish",
                              "config: quickplay_finish (Guidelines III) applies only to "
                              "games whose last period has no increment (III.2.1)")


def check_variant(c: dict[str, Any]) -> str:
    """``variant``: chess, shogi or xiangqi."""
    variant = c["variant"]
    if variant not in VARIANTS:
        raise ConfigError("config.variant", f"config: variant must be one of "
                                            f"{', '.join(VARIANTS)}, not {variant!r}")
    return str(variant)


def check_chess_only(c: dict[str, Any]) -> None:
    """``repetitions`` and ``notation`` are for shogi and xiangqi only."""
    for key in ("repetitions", "notation"):
        if c[key] is not None:
            raise ConfigError("config.variant_only",
                              f"config: {key} applies only to shogi and xiangqi games", key=key)


def check_start_fen(c: dict[str, Any]) -> str | None:
    """``start_fen``: a legal chess position, or null.

    >>> check_start_fen(with_defaults({"start_fen": "8/8/8/8/8/8/8/8 w - - 0 1"}))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    remis.arbiter.config.ConfigError: config: start_fen '8/8/8/8/8/8/8/8 w - - 0 1' is not a ...
    """
    fen = c["start_fen"]
    if fen is None:
        return None
    if not isinstance(fen, str):
        raise ConfigError("config.start_fen", "config: start_fen must be a FEN string or null")
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise ConfigError("config.start_fen_unreadable", f"config: start_fen {fen!r}: {exc}"
                          ) from None
    reason = illegal_reason(board)
    if reason is not None:
        raise ConfigError("config.start_fen",
                          f"config: start_fen {fen!r} is not a legal position: {reason}",
                          reason=reason)
    return fen


def check_auto_claim(c: dict[str, Any], mode: str) -> frozenset[bool]:
    """``auto_claim_threefold``: the players (a list of white/black) for whom
    the server claims threefold repetitions, online only."""
    auto = c["auto_claim_threefold"]
    if not isinstance(auto, list) or any(p not in ("white", "black") for p in auto):
        raise ConfigError("config.auto_claim_threefold",
                          "config: auto_claim_threefold must be a list of 'white'/'black'")
    if auto and mode != "online":
        raise ConfigError("config.auto_claim_threefold", "config: auto_claim_threefold is a "
                                                         "server convention, only in online mode")
    return frozenset(p == "white" for p in auto)


def check_players(c: dict[str, Any]) -> dict[str, str]:
    """``players``: the players' names, ``{"white": ..., "black": ...}``,
    either optional, each at most :data:`MAX_NAME` characters of text.

    >>> check_players(with_defaults({"players": {"white": "  Anna  "}}))
    {'white': 'Anna'}
    """
    players = c["players"]
    if players is None:
        return {}
    if not isinstance(players, dict) or any(k not in ("white", "black") for k in players):
        raise ConfigError("config.players", "config: players must be an object with the keys "
                                            "'white' and 'black' (either may be left out)")
    out = {}
    for color, name in players.items():
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME \
                or any(ord(ch) < 32 for ch in name):
            raise ConfigError("config.players", f"config: players.{color} must be a name of "
                                                f"1 to {MAX_NAME} characters", max=MAX_NAME)
        out[color] = name.strip()
    return out


def check_first_move(c: dict[str, Any]) -> float | None:
    """``first_move_seconds``: the first-move rule's time, 1 to
    :data:`MAX_FIRST_MOVE` seconds, or null (no such rule).

    >>> check_first_move(with_defaults({"first_move_seconds": 25}))
    25.0
    """
    seconds = c["first_move_seconds"]
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not 1 <= seconds <= MAX_FIRST_MOVE:
        raise ConfigError("config.first_move_seconds",
                          f"config: first_move_seconds must be a number of seconds from 1 to "
                          f"{MAX_FIRST_MOVE}, or null", max=MAX_FIRST_MOVE)
    return float(seconds)


def _draw_agreement(value: Any, before: int) -> tuple[int, bool]:
    """``draw_agreement`` (9.1.1) with ``no_agreement_before_move``: the move
    before which offers need the arbiter's consent, and whether all do.

    >>> _draw_agreement("forbidden_before(30)", 0), _draw_agreement("arbiter_only", 0)
    ((30, False), (0, True))
    >>> _draw_agreement("forbidden_before(30)", 20)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    remis.arbiter.config.ConfigError: config: draw_agreement 'forbidden_before(30)' contradicts...
    """
    if value in ("allowed", "arbiter_only"):
        return before, value == "arbiter_only"
    m = _FORBIDDEN_BEFORE.match(value) if isinstance(value, str) else None
    if m is None:
        raise ConfigError("config.draw_agreement", "config: draw_agreement must be 'allowed', "
                                                   "'arbiter_only' or 'forbidden_before(N)', "
                                                   f"not {value!r}")
    n = int(m[1])
    if before and before != n:
        raise ConfigError("config.draw_agreement", f"config: draw_agreement {value!r} "
                                                   f"contradicts no_agreement_before_move "
                                                   f"{before}")
    return n, False

"""The chess clock of a live game, driven only by event timestamps.

Times are seconds since the game started; nothing here reads the wall clock,
so replaying the same events gives the same clocks.  White's clock runs from
time 0, or, with ``first_move``, both clocks stand until the first move is
made (a game played on links, whose players open them at different times).
A flag that falls is recorded with the moment it fell (6.8: whether and when
it counts is for the arbiter to decide, not the clock).
"""

from __future__ import annotations

import chess

from remis.arbiter.config import Period, TimeControl

_EPS = 1e-9


def clock_text(seconds: float) -> str:
    """A clock face as players read it: h:mm:ss from an hour up, m:ss below,
    tenths under ten seconds, rounded down as a clock shows time left (the
    web page draws its clocks the same way).

    >>> [clock_text(s) for s in (5455.6, 180, 59.97, 3599.96, 9.97, 0)]
    ['1:30:55', '3:00', '0:59', '59:59', '0:09.9', '0:00.0']
    """
    tenths = int(max(0.0, seconds) * 10 + 1e-6)
    whole = tenths // 10
    h, m, s = whole // 3600, whole % 3600 // 60, whole % 60
    if h:
        return f"{h}:{m:02d}:{s:02d}"
    return f"{m}:{s:02d}.{tenths % 10}" if whole < 10 else f"{m}:{s:02d}"


def _both(text: str) -> dict[bool, TimeControl]:
    """The same time control for both players (for examples and tests).

    >>> _both("60")[chess.BLACK].text
    '60'
    """
    tc = TimeControl.parse(text)
    return {chess.WHITE: tc, chess.BLACK: tc}


class Clock:
    """Two countdown clocks with periods, increments and delays.

    >>> c = Clock(_both("60+1"))
    >>> c.press(chess.WHITE, 10.0)
    >>> c.remaining(chess.WHITE, 10.0), c.remaining(chess.BLACK, 25.0)
    (51.0, 45.0)
    """

    __slots__ = ("_base", "_delays", "_end", "_fell", "_increments", "_moves", "_period", "clocked",
                 "extra_increment", "paused", "running", "since", "started", "tcs")

    def __init__(self, time_controls: dict[bool, TimeControl], start_color: chess.Color = True,
                 *, first_move: bool = False) -> None:
        self.tcs = time_controls
        #: False when the game has no clock (``-``)
        self.clocked = time_controls[chess.WHITE].clocked
        #: seconds on each clock when its current turn began
        self._base: dict[bool, float] = {}
        self._period: dict[bool, int] = {}
        self._moves: dict[bool, int] = {}
        self._end: dict[bool, int | None] = {}
        self._fell: dict[bool, float | None] = {chess.WHITE: None, chess.BLACK: None}
        for color in chess.COLORS:
            tc = time_controls[color]
            first = tc.period(0) if tc.clocked else None
            self._base[color] = first.seconds if first else 0.0
            self._period[color] = 0
            self._moves[color] = 0
            self._end[color] = first.moves if first else None
        #: the delay and the increment of each player's current period (asked at
        #: every event)
        self._delays: dict[bool, float] = {}
        self._increments: dict[bool, float] = {}
        for color in chess.COLORS:
            self._enter_period(color)
        self.running: chess.Color = start_color
        self.since = 0.0
        #: increment added for both players by the arbiter (Guidelines III.4)
        self.extra_increment = 0.0
        #: False until the first move when the first move starts the clocks
        self.started = not first_move
        #: True while the clocks are stopped (a claim awaits the arbiter, 6.11,
        #: or no move has started them yet)
        self.paused = first_move

    def save(self) -> tuple[object, ...]:
        """The clocks' state, for :meth:`load` (the arbiter takes it before
        every event, and goes back to it when it refuses one): a flat tuple,
        cheaper than a copy of the clock.

        >>> c = Clock(_both("60"))
        >>> saved = c.save(); c.press(chess.WHITE, 5.0); c.load(saved); c.running
        True
        """
        w, b = chess.WHITE, chess.BLACK
        base, period, moves, end, fell = self._base, self._period, self._moves, self._end, \
            self._fell
        return (base[w], base[b], period[w], period[b], moves[w], moves[b], end[w], end[b],
                fell[w], fell[b], self.running, self.since, self.extra_increment,
                self.paused, self.started)

    def load(self, saved: tuple[object, ...]) -> None:
        """Go back to a state :meth:`save` gave."""
        w, b = chess.WHITE, chess.BLACK
        (self._base[w], self._base[b], self._period[w], self._period[b], self._moves[w],
         self._moves[b], self._end[w], self._end[b], self._fell[w], self._fell[b],
         self.running, self.since, self.extra_increment, self.paused,
         self.started) = saved  # type: ignore[assignment]
        for color in chess.COLORS:
            self._enter_period(color)

    def _enter_period(self, color: chess.Color) -> None:
        """Note the delay and the increment of ``color``'s current period
        (none without a clock).

        >>> c = Clock(_both("60+2d5")); c._delays[chess.WHITE], c._increments[chess.BLACK]
        (5.0, 2.0)
        """
        period = self.tcs[color].period(self._period[color]) if self.clocked else None
        self._delays[color] = 0.0 if period is None else period.delay
        self._increments[color] = 0.0 if period is None else period.increment

    def _next_period(self, color: chess.Color) -> Period:
        """Enter ``color``'s next period."""
        self._period[color] += 1
        self._enter_period(color)
        return self.tcs[color].period(self._period[color])

    def remaining(self, color: chess.Color, at: float) -> float:
        """Seconds left on ``color``'s clock at time ``at`` (never negative).

        >>> c = Clock(_both("60d5"))
        >>> [c.remaining(chess.WHITE, t) for t in (4.0, 15.0, 99.0)]
        [60.0, 50.0, 0.0]
        """
        white, black = self.faces(at)
        return white if color else black

    def faces(self, at: float) -> tuple[float, float]:
        """White's and Black's :meth:`remaining` at time ``at``, in one call
        (the state shows both after every event).

        >>> c = Clock(_both("60d5")); c.press(chess.WHITE, 2.0); c.faces(10.0)
        (60.0, 57.0)
        """
        fell = self._fell
        white = 0.0 if fell[chess.WHITE] is not None else self._base[chess.WHITE]
        black = 0.0 if fell[chess.BLACK] is not None else self._base[chess.BLACK]
        running = self.running
        if self.paused or fell[running] is not None:
            return white, black
        used = max(0.0, at - self.since - self._delays[running])
        if running:
            return max(0.0, white - used), black
        return white, max(0.0, black - used)

    def fell_at(self, color: chess.Color, at: float) -> float | None:
        """When ``color``'s flag fell, if it has fallen by time ``at``; else None.

        >>> c = Clock(_both("60"))
        >>> c.fell_at(chess.WHITE, 30.0), c.fell_at(chess.WHITE, 75.0)
        (None, 60.0)
        """
        if not self.clocked:
            return None
        fell = self._fell[color]
        if fell is not None:
            return fell
        if color != self.running or self.paused:
            return None
        t = self.since + self._delays[color] + self._base[color]
        return t if t <= at + _EPS else None

    def period_index(self, color: chess.Color) -> int:
        """The period ``color`` is in (from 0).

        >>> Clock({chess.WHITE: TimeControl.parse("40/5400:1800"),
        ...        chess.BLACK: TimeControl.parse("40/5400:1800")}).period_index(chess.BLACK)
        0
        """
        return self._period[color]

    def in_last_period(self, color: chess.Color) -> bool:
        """True in a period that covers all the remaining moves (no move count).

        >>> Clock({chess.WHITE: TimeControl.parse("1800"),
        ...        chess.BLACK: TimeControl.parse("1800")}).in_last_period(chess.WHITE)
        True
        """
        return self.clocked and self.tcs[color].period(self._period[color]).moves is None

    def increment(self, color: chess.Color) -> float:
        """The increment ``color`` gets for a move in the current period.

        >>> Clock({chess.WHITE: TimeControl.parse("300+2"),
        ...        chess.BLACK: TimeControl.parse("300+2")}).increment(chess.WHITE)
        2.0
        """
        if not self.clocked:
            return 0.0
        return self._increments[color] + self.extra_increment

    def press(self, color: chess.Color, at: float, *, increment: bool = True) -> None:
        """``color`` completes a move at time ``at``: charge the time, note a
        fallen flag, add the increment, enter the next period if the move
        count is reached, and start the opponent's clock.

        >>> c = Clock(_both("2/60:30"))
        >>> c.press(chess.WHITE, 1.0); c.press(chess.BLACK, 2.0); c.press(chess.WHITE, 3.0)
        >>> c.remaining(chess.WHITE, 3.0), c.period_index(chess.WHITE)
        (88.0, 1)

        With ``first_move`` the first move costs nothing and starts the clocks:

        >>> c = Clock(_both("60"), first_move=True)
        >>> c.remaining(chess.WHITE, 30.0)
        60.0
        >>> c.press(chess.WHITE, 30.0)
        >>> c.remaining(chess.WHITE, 30.0), c.remaining(chess.BLACK, 40.0)
        (60.0, 50.0)
        """
        if self.clocked:
            if color == self.running:
                # fell_at and remaining in one (every move asks), sums as they do them
                if self._fell[color] is not None:
                    self._base[color] = 0.0
                elif not self.paused:
                    base = self._base[color]
                    delay = self._delays[color]
                    t = self.since + delay + base
                    if t <= at + _EPS:
                        self._fell[color] = t
                    self._base[color] = max(0.0, base - max(0.0, at - self.since - delay))
            self._moves[color] += 1
            if self._fell[color] is None:
                if increment:
                    self._base[color] += self.increment(color)
                end = self._end[color]
                if end is not None and self._moves[color] >= end:
                    nxt = self._next_period(color)
                    self._base[color] += nxt.seconds
                    self._end[color] = None if nxt.moves is None else end + nxt.moves
        self.running = not color
        self.since = at
        if not self.started:  # charged nothing above: the clocks stood until now
            self.started = True
            self.paused = False

    def pause(self, at: float) -> None:
        """Stop both clocks at time ``at`` (6.11, e.g. for a claim).

        >>> c = Clock(_both("60"))
        >>> c.pause(10.0); c.remaining(chess.WHITE, 50.0)
        50.0
        """
        if self.paused or not self.clocked:
            return
        left = self.remaining(self.running, at)
        if self._fell[self.running] is None:
            self._base[self.running] = left
        self.since = at
        self.paused = True

    def resume(self, at: float) -> None:
        """Restart the running clock at time ``at`` after :meth:`pause`.

        >>> c = Clock(_both("60"))
        >>> c.pause(10.0); c.resume(40.0); c.remaining(chess.WHITE, 45.0)
        45.0
        """
        if not self.paused or not self.started:
            return
        self.paused = False
        self.since = at

    def add(self, color: chess.Color, seconds: float, at: float) -> bool:
        """Give ``color`` extra time (a penalty on the opponent); False if the
        flag has already fallen (a fallen flag is not raised again).

        >>> c = Clock(_both("60"))
        >>> c.add(chess.BLACK, 120, 5.0), c.remaining(chess.BLACK, 5.0)
        (True, 180.0)
        """
        if not self.clocked or self.fell_at(color, at) is not None:
            return False
        self._base[color] += seconds
        return True

    def reinstate(self, running: chess.Color, moves: dict[bool, int], at: float,
                  times: dict[bool, float] | None = None) -> None:
        """An earlier position is reinstated at time ``at`` (7.5.1): the times
        stay as they are (or become ``times``, the arbiter's judgement, 7.1),
        the move counters become ``moves`` and ``running``'s clock runs.
        Periods already entered are kept.

        >>> c = Clock(_both("60"))
        >>> c.press(chess.WHITE, 10.0); c.press(chess.BLACK, 15.0)
        >>> c.reinstate(chess.BLACK, {chess.WHITE: 0, chess.BLACK: 0}, 20.0)
        >>> c.running, c.remaining(chess.WHITE, 20.0), c.remaining(chess.BLACK, 30.0)
        (False, 45.0, 45.0)
        >>> c.reinstate(chess.WHITE, {chess.WHITE: 0, chess.BLACK: 0}, 30.0, {True: 50, False: 9})
        >>> c.to_json(30.0)
        {'white': 50.0, 'black': 9.0}
        """
        if self.clocked:
            fell = self.fell_at(self.running, at)
            if not self.paused:
                self._base[self.running] = self.remaining(self.running, at)
            if fell is not None:
                self._fell[self.running] = fell
            for color in chess.COLORS:
                self._moves[color] = moves[color]
                if times is not None:
                    self._base[color] = float(times[color])
                    self._fell[color] = None if times[color] > 0 else at
        self.running = running
        self.since = at

    def next_period(self, color: chess.Color, at: float) -> None:
        """Move ``color`` into the next period with a fresh allowance (both
        flags down in an earlier period, Guidelines III.3.1.1).

        >>> c = Clock(_both("1/10:60"))
        >>> c.next_period(chess.WHITE, 50.0); c.remaining(chess.WHITE, 50.0)
        60.0
        """
        if not self.clocked:
            return
        if color == self.running:
            self.since = at
        self._fell[color] = None
        nxt = self._next_period(color)
        self._base[color] = nxt.seconds
        end = self._end[color]
        done = self._moves[color]
        self._end[color] = None if nxt.moves is None else max(end or 0, done) + nxt.moves

    def to_json(self, at: float) -> dict[str, float | None]:
        """Both clocks at time ``at``, rounded to milliseconds (None: no clock).

        >>> Clock(_both("-")).to_json(0)
        {'white': None, 'black': None}
        """
        if not self.clocked:
            return {"white": None, "black": None}
        return {"white": round(self.remaining(chess.WHITE, at), 3),
                "black": round(self.remaining(chess.BLACK, at), 3)}

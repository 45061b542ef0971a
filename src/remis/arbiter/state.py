"""The state of a live game as :meth:`remis.Arbiter.state` and
:meth:`~remis.Arbiter.apply` return it: typed key by key.

The state is the JSON object that ``remis arbitrate`` prints and the HTTP
service sends (a :class:`~typing.TypedDict`, a plain dict at run time: it
needs no conversion, and building it costs nothing more than the dict).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Clocks(TypedDict):
    """Seconds left on each clock at the last event (None: no clock)."""

    white: float | None
    black: float | None


class RunningClock(TypedDict):
    """Which clock runs from the last event on (None while they stand) and
    that event's time, so that a client shows a running clock."""

    running: str | None
    at: float


class Awaiting(TypedDict):
    """A request on which the arbiter must decide before play goes on."""

    kind: str
    player: str
    article: str


class LogEntry(TypedDict):
    """One entry of the ruling log: the event that wrote it (None for the
    set-up position), the ply and time, the article, the message id with its
    parameters and the English sentence."""

    event: int | None
    ply: int
    at: float
    article: str | None
    message: str
    params: dict[str, Any]
    explanation: str


class EndFields(TypedDict):
    """The keys of a state about the end of the game (None while it goes on)."""

    over: bool
    result: str | None
    termination: str | None
    article: str | None
    explanation: str | None
    message: str | None
    params: dict[str, Any] | None


class ClockFields(TypedDict):
    """The keys of a state about the clocks."""

    clocks: Clocks
    clock: RunningClock


class ArbiterState(EndFields, ClockFields):
    """The state after the last accepted event (see the arbiter reference
    for each key).  ``log`` is there unless ``state(log=False)`` was asked;
    ``evidence`` when the ending has some, ``match_result`` in Armageddon,
    ``variant`` in a shogi or xiangqi game.

    >>> from remis.arbiter import Arbiter
    >>> s: ArbiterState = Arbiter({"time_control": "60"}).state()
    >>> s["to_move"], s["clocks"], s["over"]
    ('white', {'white': 60, 'black': 60}, False)
    """

    to_move: str
    ply: int
    fen: str
    pending_offer: str | None
    claimable: list[dict[str, Any]]
    illegal_moves: dict[str, int]
    intended_move: dict[str, str] | None
    awaiting_arbiter: Awaiting | None
    #: chess games only: the piece touched this turn (4.3), the players' open
    #: requests to the arbiter, and the first move due under the first-move rule
    touched: NotRequired[dict[str, str | None] | None]
    requests: NotRequired[list[dict[str, str | None]]]
    first_move_due: NotRequired[dict[str, Any] | None]
    log: NotRequired[list[LogEntry]]
    evidence: NotRequired[dict[str, Any]]
    match_result: NotRequired[str | None]
    variant: NotRequired[str]

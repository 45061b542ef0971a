"""Events of a live game, as plain JSON objects, and their validation.

Every event names ``player``, the player it is about (the mover, the offerer
or acceptor, the claimant, the player who touched a piece, whose flag fell,
who completed an illegal move, who resigns).  ``at`` is seconds since the
start of the game; it may be left out (then no time passes) and may never go
back in time.

An ``illegal_move`` with ``called_by: "nobody"`` is played on the board and
stands; one that names ``ply`` alone (the state's ``ply`` right after that
illegal move, also in its log entry's ``params``) is that illegal move found
later: the position before it is reinstated (7.5.1), optionally with the
``clocks`` the arbiter sets (``{"white": s, "black": s}``, 7.1).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import chess

TYPES: tuple[str, ...] = ("move", "offer_draw", "accept_draw", "decline_draw", "claim", "touch",
                          "flag", "illegal_move", "resign", "arbiter", "abort", "request")
CLAIM_KINDS: tuple[str, ...] = ("threefold_repetition", "fifty_moves", "quickplay", "increment",
                                 "entering_king", "impasse")
#: claims of shogi games only: a win declared by entering king (CSA 27-point
#: rule) and the adjudication of an impasse (JSA 24-point rule)
SHOGI_CLAIM_KINDS: tuple[str, ...] = ("entering_king", "impasse")
ILLEGAL_KINDS: tuple[str, ...] = ("move", "no_move", "two_hands", "unpromoted_pawn")
CALLERS: tuple[str, ...] = ("arbiter", "opponent", "nobody")
DECISIONS: tuple[str, ...] = ("accept", "postpone", "reject", "add_time", "declare", "note")
#: what a player may ask the arbiter (a ``request`` event's ``kind``)
REQUEST_KINDS: tuple[str, ...] = ("fair_play", "time", "other")
#: why the arbiter adds time (``add_time``) or declares a result (``declare``)
ARBITER_KINDS: tuple[str, ...] = ("disturbance", "penalty", "correction", "fair_play",
                                  "conduct", "other")
RESULTS: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2")

_FIELDS: dict[str, frozenset[str]] = {
    "move": frozenset({"move"}),
    "offer_draw": frozenset(),
    "accept_draw": frozenset(),
    "decline_draw": frozenset(),
    "claim": frozenset({"kind", "move"}),
    "touch": frozenset({"square"}),
    "flag": frozenset(),
    "illegal_move": frozenset({"move", "kind", "called_by", "ply", "clocks"}),
    "resign": frozenset(),
    "arbiter": frozenset({"decision", "seconds", "kind", "result"}),
    "abort": frozenset(),
    "request": frozenset({"kind"}),
}
_COMMON = frozenset({"type", "player", "at", "id", "comment"})


class RefusedEvent(ValueError):
    """An event the arbiter cannot accept (out of order, impossible or
    malformed); the state is unchanged.  ``message`` says why, ``code`` names
    the reason for programs and translations (``event_refused`` where no
    finer code is given) and ``params`` holds its details.

    >>> RefusedEvent("black is not on move").message
    'black is not on move'
    >>> RefusedEvent("white cannot move: black has the move", "not_on_move",
    ...              player="white").code
    'not_on_move'
    """

    def __init__(self, message: str, code: str = "event_refused", **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


class Event(NamedTuple):
    """A validated event.  ``color`` is None only for ``arbiter`` events and
    for ``flag`` with ``player: "both"``.

    >>> Event("resign", True, None).kind is None
    True
    """

    type: str
    color: chess.Color | None
    at: float | None
    move: str | None = None
    kind: str | None = None
    called_by: str | None = None
    decision: str | None = None
    seconds: float | None = None
    square: str | None = None
    #: ``illegal_move``: the ply (from 1) of an illegal move found later (7.5.1)
    ply: int | None = None
    #: ``illegal_move`` with ``ply``: the clock times the arbiter sets (7.1)
    clocks: dict[bool, float] | None = None
    #: ``arbiter`` with ``declare``: the result the arbiter declares
    result: str | None = None
    #: the poster's words (an arbiter's note, a request's reason)
    comment: str | None = None


#: the fields each type of event may have
_ALLOWED: dict[str, frozenset[str]] = {t: _COMMON | f for t, f in _FIELDS.items()}
_PLAYERS = {"white": chess.WHITE, "black": chess.BLACK}
_MOVE_FIELDS = _ALLOWED["move"]


def _str_field(raw: dict[str, Any], key: str, choices: tuple[str, ...] | None = None,
               ) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise RefusedEvent(f"'{key}' must be a non-empty string")
    if choices is not None and value not in choices:
        raise RefusedEvent(f"'{key}' must be one of {', '.join(choices)}, not {value!r}")
    return value.strip()


def _seconds(value: Any) -> bool:
    """A finite number (not a bool)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) \
        and math.isfinite(value)


def plain_move(raw: Any) -> tuple[chess.Color, float | None, str] | None:
    """The player, the ``at`` and the move of the usual event, a move with
    no field but its own, checked in one pass; None for anything else, which
    :func:`parse_event` checks in full.

    >>> plain_move({"type": "move", "player": "black", "move": " e5 ", "at": 3})
    (False, 3.0, 'e5')
    >>> plain_move({"type": "move", "player": "black", "move": "e5", "kind": "x"}) is None
    True
    """
    if type(raw) is dict and raw.get("type") == "move" and _MOVE_FIELDS.issuperset(raw):
        at, player, move = raw.get("at"), raw.get("player"), raw.get("move")
        if (type(move) is str and type(player) is str and player in _PLAYERS
                and (at is None or (type(at) in (int, float) and 0 <= at < math.inf))):
            text = move.strip()
            if text:
                return _PLAYERS[player], None if at is None else float(at), text
    return None


def parse_event(raw: Any) -> Event:
    """Check the shape of one event and return it typed; :class:`RefusedEvent`
    names the offending field.  (It runs for every event, so it asks only
    about the fields the event has.)

    >>> parse_event({"type": "move", "player": "white", "move": "e4", "at": 1.5}).color
    True
    >>> parse_event({"type": "move", "player": "red", "move": "e4"})
    Traceback (most recent call last):
    ...
    remis.arbiter.events.RefusedEvent: 'player' must be 'white' or 'black', not 'red'
    """
    plain = plain_move(raw)
    if plain is not None:
        return Event("move", *plain)
    if not isinstance(raw, dict):
        raise RefusedEvent(f"an event must be a JSON object, not {type(raw).__name__}")
    etype = raw.get("type")
    allowed = _ALLOWED.get(etype) if isinstance(etype, str) else None
    if allowed is None or not isinstance(etype, str):
        raise RefusedEvent(f"'type' must be one of {', '.join(TYPES)}, not {etype!r}")
    if not allowed.issuperset(raw):
        extra = sorted(str(k) for k in raw if k not in allowed)
        raise RefusedEvent(f"unknown field {extra[0]!r} in a {etype} event")
    at = raw.get("at")
    if at is not None:
        if not _seconds(at) or at < 0:
            raise RefusedEvent(f"'at' must be a number of seconds >= 0, not {at!r}")
        at = float(at)
    player = raw.get("player")
    color = _PLAYERS.get(player) if isinstance(player, str) else None
    if color is None and not ((etype == "arbiter" and player is None)
                              or (etype == "flag" and player == "both")):
        both = " (or 'both' for a flag)" if etype == "flag" else ""
        raise RefusedEvent(f"'player' must be 'white' or 'black'{both}, not {player!r}")
    move = _str_field(raw, "move")
    if etype == "move":
        if move is None:
            raise RefusedEvent("a move event needs 'move' (SAN or UCI)")
        return Event(etype, color, at, move)  # the other fields are not a move's
    kind: str | None = None
    if etype == "claim":
        kind = _str_field(raw, "kind", CLAIM_KINDS)
    elif etype == "illegal_move":
        kind = _str_field(raw, "kind", ILLEGAL_KINDS) or "move"
    elif etype == "request":
        kind = _str_field(raw, "kind", REQUEST_KINDS) or "other"
    elif etype == "arbiter":
        kind = _str_field(raw, "kind", ARBITER_KINDS)
    called_by = _str_field(raw, "called_by", CALLERS)
    decision = _str_field(raw, "decision", DECISIONS)
    if etype == "arbiter" and decision is None:
        raise RefusedEvent(f"an arbiter event needs 'decision' ({', '.join(DECISIONS)})")
    seconds = raw.get("seconds")
    if seconds is not None:
        if not _seconds(seconds) or seconds < 0 or seconds > 3600:
            raise RefusedEvent(f"'seconds' must be a number from 0 to 3600, not {seconds!r}")
        seconds = float(seconds)
    square = _str_field(raw, "square")
    if square is not None and square not in chess.SQUARE_NAMES:
        raise RefusedEvent(f"'square' must be a square name like 'g1', not {square!r}")
    ply, clocks = _found_later(raw)
    if ply is not None and called_by == "nobody":
        raise RefusedEvent("an illegal move found later ('ply') is called by the arbiter or the "
                           "opponent, not by 'nobody'")
    result = _str_field(raw, "result", RESULTS)
    comment = raw.get("comment")
    return Event(etype, color, at, move, kind, called_by, decision, seconds, square, ply, clocks,
                 result, comment.strip() or None if isinstance(comment, str) else None)


def _found_later(raw: dict[str, Any]) -> tuple[int | None, dict[bool, float] | None]:
    """The ``ply`` and ``clocks`` fields of an illegal move found later (7.5.1, 7.1)."""
    ply = raw.get("ply")
    if ply is not None and ("move" in raw or "kind" in raw):
        raise RefusedEvent("an illegal move found later is named by 'ply' alone (its move and "
                           "kind were given when it was completed)")
    if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int) or ply < 1):
        raise RefusedEvent(f"'ply' must be a whole number >= 1 (the illegal move's ply), "
                           f"not {ply!r}")
    clocks = raw.get("clocks")
    if clocks is None:
        return ply, None
    if ply is None:
        raise RefusedEvent("'clocks' may be set only with 'ply' (an illegal move found later, "
                           "Article 7.1)")
    if not isinstance(clocks, dict) or sorted(clocks) != ["black", "white"] or any(
            not _seconds(v) or v < 0 or v > 36000 for v in clocks.values()):
        raise RefusedEvent("'clocks' must be {\"white\": SECONDS, \"black\": SECONDS}, each "
                           "from 0 to 36000")
    return ply, {chess.WHITE: float(clocks["white"]), chess.BLACK: float(clocks["black"])}

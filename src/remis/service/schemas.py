"""The bodies of the HTTP API: what each request may hold and what each
answer holds, as pydantic models (the OpenAPI schema is made from them),
and the error answers each kind of endpoint may give."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import from_json

from remis.arbiter.config import defaults as config_defaults
from remis.service.problem import Problem

EventType = Literal["move", "offer_draw", "accept_draw", "decline_draw", "claim", "touch",
                    "flag", "illegal_move", "resign", "arbiter", "abort", "request"]
PlayerName = Literal["white", "black", "both"]
#: the longest ``move`` of an event (characters) and the latest ``at`` (seconds)
MOVE_CHARS = 16
LATEST_AT = 10**9


class _Strict(BaseModel):
    """A request body: no unknown field, and text only in valid Unicode (a
    lone surrogate, which JSON can spell as ``"\\ud800"``, can be neither
    stored nor answered)."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _unicode(cls, v: Any) -> Any:
        _check_text(v)
        return v


def _check_text(value: Any) -> None:
    """Raise ValueError where ``value`` holds a string that is not valid
    Unicode (looking inside lists and dicts, keys too).

    >>> _check_text({"a": ["ok", 1]})
    >>> _check_text({"a": ["\\ud800"]})
    Traceback (most recent call last):
    ...
    ValueError: text with a lone surrogate (not valid Unicode)
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text with a lone surrogate (not valid Unicode)") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_text(k)
            _check_text(v)
    elif isinstance(value, list):
        for v in value:
            _check_text(v)


class CreateGame(_Strict):
    """Body of ``POST /v1/games``: the arbiter config (checked by the arbiter)."""

    # the schema names the arbiter's keys and no other: the arbiter refuses an unknown
    # key (422), since a misspelt one would leave a game under rules nobody asked for
    config: dict[str, Any] = Field(
        default_factory=dict,
        description="the arbiter's configuration (see the arbiter configuration reference): "
                    "these keys, each optional; any other key is refused (422), and the "
                    "arbiter checks the values",
        json_schema_extra={"properties": {key: {"default": value}
                                          for key, value in config_defaults().items()},
                           "additionalProperties": False})


class Event(_Strict):
    """Body of ``POST /v1/games/{id}/events``: one event of the arbiter (the
    arbiter checks which fields fit which type), and the optional
    ``expected_ply`` (409 when the game is at another ply)."""

    type: EventType = Field(description="what happened (the arbiter reference lists the "
                                        "fields each type takes)")
    player: PlayerName | None = Field(
        default=None, description="whom the event is about ('both' only for a flag, by the "
                                  "arbiter; absent only for arbiter decisions)")
    at: float | None = Field(default=None, ge=0, le=LATEST_AT,
                             description="seconds since the game started; default, and the "
                                         "only clock of an online game: the server's receive "
                                         "time.  From a player's token it is held between "
                                         "the receive time less the skew and the receive "
                                         "time; from the arbiter's it is the time of record")
    move: str | None = Field(default=None, max_length=MOVE_CHARS,
                             description="move: the move, in SAN or UCI; claim: the written "
                                         "move; illegal_move: the move made")
    kind: str | None = Field(default=None, max_length=32,
                             description="claim: threefold_repetition, fifty_moves, quickplay "
                                         "or increment; illegal_move: move, no_move, two_hands "
                                         "or unpromoted_pawn")
    square: str | None = Field(default=None, max_length=3,
                               description="touch: the square of the touched piece (Article 4.3)")
    called_by: Literal["arbiter", "opponent", "nobody"] | None = Field(
        default=None, description="illegal_move: who noticed it; 'nobody': it stands (A.5)")
    ply: int | None = Field(default=None, ge=1, description="illegal_move: the ply of an "
                            "illegal move that stood, found later (Article 7.5.1)")
    clocks: dict[Literal["white", "black"], float] | None = Field(
        default=None, description="illegal_move with ply: the clock times the arbiter sets "
                                  "(Article 7.1)")
    decision: Literal["accept", "postpone", "reject", "add_time", "declare", "note"] | None = (
        Field(default=None, description="the arbiter's: on what awaits a decision (accept, "
                                        "postpone, reject), or an act of its own (add_time, "
                                        "declare, note)"))
    result: Literal["1-0", "0-1", "1/2-1/2"] | None = Field(
        default=None, description="arbiter declare: the result the arbiter declares")
    seconds: float | None = Field(default=None, ge=0, le=3600,
                                  description="arbiter: the time a III.4 or III.5 decision "
                                              "gives the opponent (default 120), or the time "
                                              "add_time gives")
    id: Annotated[str, Field(min_length=1, max_length=128)] | Annotated[
        int, Field(ge=-(2**53), le=2**53)] | None = Field(
        default=None, description="the client's idempotency key, unique in the game: the "
                                  "same id with the same request gets the first answer "
                                  "again (a safe retry), with another request 409")
    comment: str | None = Field(default=None, max_length=1000,
                                description="kept in the log with the event")
    expected_ply: int | None = Field(default=None, ge=0,
                                     description="the ply the client believes the game is "
                                                 "at: 409, and nothing applied, when it is not")

    @field_validator("at", "seconds")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not math.isfinite(v):
            raise ValueError("must be a finite number of seconds")
        return v


#: the fields :func:`plain_event` reads, in the order of :class:`Event`'s own
_PLAIN = ("type", "player", "at", "move", "expected_ply")
_PLAIN_KEYS = frozenset(_PLAIN)
_PLAYERS = frozenset(get_args(PlayerName))
_TYPES = frozenset(get_args(EventType))


def plain_event(body: bytes) -> dict[str, Any] | None:
    """``Event.model_validate_json(body).model_dump(exclude_none=True)`` for
    the plain bodies that clients send with nearly every move (ASCII JSON
    without escapes, of ``type``, ``player``, ``at``, ``move`` and
    ``expected_ply``, each of its exact JSON type and in range), read by the
    model's JSON parser without the model, whose validation of a body costs
    more than the rest of a move's own checks.  None for any other body,
    valid or not: the model decides it.

    >>> plain_event(b'{"move": "e4", "at": 3, "type": "move", "player": "white"}')
    {'type': 'move', 'player': 'white', 'at': 3.0, 'move': 'e4'}
    >>> plain_event(b'{"type": "move", "player": "white", "move": "e4", "id": 1}') is None
    True
    """
    if not body.isascii() or b"\\" in body:
        return None  # an escape may spell a lone surrogate, which only the model refuses
    try:
        data = from_json(body)  # the model's own JSON reader, without the model
    except ValueError:
        return None
    if type(data) is not dict or not data.keys() <= _PLAIN_KEYS:
        return None
    kind = data.get("type")
    player = data.get("player", "white")
    move = data.get("move", "")
    at = data.get("at", 0.0)
    ply = data.get("expected_ply", 0)
    if (type(kind) is not str or kind not in _TYPES
            or type(player) is not str or player not in _PLAYERS
            or type(move) is not str or len(move) > MOVE_CHARS
            or type(at) not in (int, float) or not 0 <= at <= LATEST_AT
            or type(ply) is not int or ply < 0):
        return None
    if "at" in data:
        data["at"] = float(at)
    return {key: data[key] for key in _PLAIN if key in data}


class PositionRequest(_Strict):
    """Body of ``POST /v1/position``."""

    fen: str = Field(max_length=200, description="the position, as a FEN")
    quick: bool = Field(default=False, description="quick mode only, as remis position "
                                                   "--quick: may leave a verdict null")
    #: bound on the unwinnability search per side (``remis position --max-seconds``):
    #: a verdict not reached in time is null, never a guess
    max_seconds: float = Field(default=5.0, gt=0, le=30,
                               description="seconds for each side's search, within the "
                                           "server's budget; a verdict not reached in time "
                                           "is null, never a guess")


class PgnRequest(_Strict):
    """Body of ``POST /v1/pgn``."""

    pgn: str = Field(description="PGN text: one game or many")


class ClaimRequest(_Strict):
    """Body of ``POST /v1/claim`` (as the options of ``remis claim``)."""

    pgn: str = Field(description="PGN text")
    game: int = Field(default=1, ge=1, description="the game's number in the text, from 1")
    ply: int | None = Field(default=None, ge=0, description="the claim is made after this "
                            "ply (default: the end of the main line)")
    move: str | None = Field(default=None, max_length=32,
                             description="the written move (SAN or UCI), for 9.2.1 or 9.3.1")
    kind: Literal["threefold", "threefold_repetition", "fifty", "fifty_moves"] | None = Field(
        default=None, description="the kind of claim (default: any that holds)")
    mode: Literal["standard", "rapid", "blitz"] = Field(
        default="standard", description="the penalty of an incorrect claim: 2 minutes, or 1 "
                                        "in rapid and blitz")


class CreatedGame(BaseModel):
    """Answer of ``POST /v1/games``."""

    id: str
    tokens: dict[str, str] = Field(
        description="the only copy of the game's tokens: white, black, arbiter (post events) "
                    "and spectator (reads the game only)")
    state: dict[str, Any] = Field(description="the arbiter's state before any event")


_STATE = ("the arbiter's state after the event (as remis arbitrate prints it) without the "
          "whole ruling log: 'rulings' holds the entries the last event wrote; the log is "
          "read page by page from GET /v1/games/{id}/events")


class Accepted(BaseModel):
    """Answer of an accepted event: the new state and the event's number."""

    state: dict[str, Any] = Field(description=_STATE)
    event: int = Field(description="the event's number in the game, from 1")


class GameView(BaseModel):
    """Answer of ``GET /v1/games/{id}``."""

    id: str
    config: dict[str, Any]
    state: dict[str, Any] = Field(description=_STATE)
    now: float = Field(description="seconds since the game was created, when this answer was "
                                   "made: with the state's clock.at, how long the running "
                                   "clock has run since")


class EventLog(BaseModel):
    """Answer of ``GET /v1/games/{id}/events``: one page of the log."""

    events: list[dict[str, Any]] = Field(description="events after+1 .. last, as stored "
                                                     "(with their time of record 'at')")
    log: list[dict[str, Any]] = Field(description="the ruling-log entries these events wrote "
                                                  "('event' counts from 0: event n is n-1)")
    after: int
    last: int = Field(description="the number of the last event in this page; ask for "
                                  "after=last for the next page")
    total: int = Field(description="the number of events of the game")


class PlayedMove(BaseModel):
    """One move of ``GET /v1/games/{id}/moves``."""

    ply: int
    player: Literal["white", "black"]
    move: str = Field(description="SAN; UCI for an illegal move that stands; '--' for a "
                                  "clock press without a move")
    standing: bool = Field(description="an illegal move that stands on the board (Article "
                                       "7.5.1): the arbiter may find it later")


class MoveList(BaseModel):
    """Answer of ``GET /v1/games/{id}/moves``: the moves after ``event`` events."""

    moves: list[PlayedMove]
    event: int


_BUDGET = ("the request's search budget (remis serve --search-nodes, --search-seconds): "
           "max_nodes, max_seconds, the nodes and seconds used, and exhausted (a search was "
           "cut short: its question is left open, never answered by a guess)")


class PgnRulings(BaseModel):
    """Answer of ``POST /v1/pgn``: one ``remis game --json`` object per game."""

    games: list[dict[str, Any]]
    budget: dict[str, Any] = Field(description=_BUDGET)


#: what each error status means: the schema says it, and so the HTTP reference
#: that the documentation builds from the schema
_WHEN: dict[int, str] = {
    400: "the body is not JSON, or the client went away before the answer",
    401: "no token, or not a token of this game (send 'Authorization: Bearer <token>')",
    403: "a token of this game that may not post this event: the other player's, or the "
         "spectator's",
    404: "no game with this id",
    409: "the game's present state refuses the event: the Laws do not allow it, "
         "expected_ply is not the game's ply, its id was used for another request, it "
         "gives 'at' in an online game, or the game has reached its limit of events "
         "(remis serve --max-events, --max-idle-events)",
    413: "the body is over 64 KiB",
    422: "a field or parameter is unknown, missing, out of range or of the wrong type, or a "
         "string is not valid Unicode",
    429: "too many searches of this client at once (remis serve --searches-per-client, "
         "--waiting-per-client); the Retry-After header says when to try again",
    503: "the database is unavailable; try again (Retry-After)",
}


def error_answers(*codes: int, **when: str) -> dict[int | str, dict[str, Any]]:
    """The error answers of an endpoint, for the schema: each a :class:`Problem`,
    with what it means (``when``: a wording of its own, as ``s422="..."``).

    >>> error_answers(404, s404="no such language")[404]["description"]
    'no such language'
    """
    return {code: {"model": Problem, "description": when.get(f"s{code}", _WHEN[code])}
            for code in codes}


#: the errors of posting an event
ERRORS = error_answers(400, 401, 403, 404, 409, 413, 422, 429, 503)
#: the errors of creating a game (no token, no game yet)
CREATE_ERRORS = error_answers(400, 413, 422, 503, s422=(
    f"{_WHEN[422]}, or a config the arbiter refuses (the sentence names the key)"))
#: the errors of a stateless endpoint (no token, no game, no database)
SEARCH_ERRORS = error_answers(400, 413, 422, 429, s422=(
    f"{_WHEN[422]}, or a FEN or PGN game that cannot be read, or a claim's game or ply "
    "that is not in it"))
#: the errors of reading a game: no valid token of the game, no such game, a bad
#: query parameter (a page of the log), a Busy search of a rebuild
READ_ERRORS = error_answers(401, 404, 422, 429, 503)

#: OpenAPI links from a created game to what can be done with it (they let a
#: stateful client, e.g. schemathesis, reach real game states)
GAME_LINKS = {name: {"operationId": op, "parameters": {"game_id": "$response.body#/id"}}
              for name, op in (("PostEvent", "post_event"), ("GetGame", "get_game"),
                               ("GetEvents", "get_events"), ("GetMoves", "get_moves"))}

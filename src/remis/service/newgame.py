"""Endpoints for setting a game up: a time control read as players write it
and described in the reader's language (``GET /v1/time-control``), and a
rematch of a finished game (``POST``/``GET /v1/games/{id}/rematch``).

The reading, the FIDE class and the words come from
:mod:`remis.arbiter.timecontrol` and the catalogues: the web page asks here
and never decides these itself.  A rematch is the same game with the
colours swapped: the same config (the players' names and per-player times
swapped too) and the same four tokens, White's now Black's and Black's now
White's, so that each page opens it with the token it holds.  Its id is
derived from the old game's, so that two players asking at once get the same
game.
"""

from __future__ import annotations

import hashlib
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from remis.arbiter import Arbiter, TimeControl
from remis.arbiter.timecontrol import (
    MESSAGES,
    TimeControlError,
    classify,
    describe,
    fide_mode,
    first_move_seconds,
    mode_options,
    players_text,
    read_time_control,
    render,
    render_one,
)
from remis.i18n import catalogue
from remis.service.auth import bearer
from remis.service.games import Games, ServiceError
from remis.service.problem import Problem
from remis.service.store import GameRecord, StoreError

router = APIRouter()

#: each role's role in the rematch
SWAPPED = {"white": "black", "black": "white", "arbiter": "arbiter", "spectator": "spectator"}

_BEARER = HTTPBearer(auto_error=False, scheme_name="gameToken",
                     description="a token of the game, from POST /v1/games: white, black, "
                                 "arbiter, or spectator (read only)")


class PeriodView(BaseModel):
    """One period of a time control, in the units players use."""

    moves: int | None = Field(description="moves of the period; null: the rest of the game")
    minutes: float
    increment: float = Field(description="seconds added a move")
    delay: float = Field(description="seconds of delay a move")


class ModeView(BaseModel):
    """A mode the game may be played in, what it means, and its options."""

    mode: Literal["online", "standard", "rapid", "blitz"]
    meaning: str
    supervision: bool = Field(description="the choice of full or partial supervision applies")
    quickplay_finish: bool = Field(description="a quickplay finish (Guidelines III) may be "
                                               "announced")


class TimeControlView(BaseModel):
    """Answer of ``GET /v1/time-control``."""

    time_control: str = Field(description="the config's time_control (PGN's syntax, seconds)")
    text: str = Field(description="the control as players write it")
    periods: list[PeriodView]
    description: str = Field(description="what will be played, in words")
    fide_mode: Literal["standard", "rapid", "blitz"] | None = Field(
        description="the FIDE class (Appendix A.1, B.1; standard otherwise); null without a "
                    "clock")
    classification: str = Field(description="the FIDE class in words, with its reason")
    modes: list[ModeView] = Field(description="the modes allowed: online, and over the board "
                                              "what the Laws make of this control")
    supervision: dict[str, str] = Field(description="what full and partial supervision mean")
    quickplay: str = Field(description="what a quickplay finish means")
    first_move_seconds: int = Field(description="the first-move time for this speed (the "
                                                "config's first_move_seconds)")


class Rematch(BaseModel):
    """Answer about a rematch: its game and the caller's role in it (the
    caller's token opens it)."""

    id: str
    role: Literal["white", "black", "arbiter", "spectator"]


async def _token(request: Request,
                 _declared: Annotated[HTTPAuthorizationCredentials | None,
                                      Security(_BEARER)] = None) -> str | None:
    return bearer(request.headers.get("authorization"))


def _texts(lang: str) -> dict[str, str]:
    """The catalogue of ``lang``, with the English templates for any id it lacks."""
    return {**MESSAGES, **catalogue(lang)}


@router.get("/v1/time-control", response_model=TimeControlView,
            responses={422: {"model": Problem}}, operation_id="read_time_control")
def time_control(text: Annotated[str | None, Query(max_length=200, description="as players "
                                                   "write it, e.g. 90+30, 40/90, 30+30, "
                                                   "1/2+0")] = None,
                 pgn: Annotated[str | None, Query(max_length=200, description="or a config's "
                                                  "time_control (PGN's syntax, seconds)")] = None,
                 lang: Literal["en", "cs", "pl"] = "en") -> dict[str, Any]:
    """A time control as players write it (``text``), or a config's
    (``pgn``): the config's ``time_control``, what will be played in words,
    the FIDE class, and the modes (with their meaning and options) the Laws
    allow for it.  A text that cannot be read, or could be read two ways,
    gets 422 with the reason's ``code``."""
    try:
        if pgn is not None:
            try:
                tc = TimeControl.parse(pgn)
            except ValueError as exc:
                raise TimeControlError("tc.err_unreadable", part=pgn) from exc
        else:
            tc = read_time_control(text or "")
    except TimeControlError as exc:
        raise ServiceError(422, str(exc), exc.code, exc.params) from None
    words = _texts(lang)
    tcs = {True: tc, False: tc}
    return {
        "time_control": tc.text,
        "text": players_text(tc),
        "periods": [{"moves": p.moves, "minutes": round(p.seconds / 60, 4),
                     "increment": p.increment, "delay": p.delay} for p in tc.periods],
        "description": render(describe(tc), words),
        "fide_mode": fide_mode(tc),
        "classification": render_one(classify(tc), words),
        "modes": [{"mode": o.mode, "meaning": words[o.meaning], "supervision": o.supervision,
                   "quickplay_finish": o.quickplay_finish} for o in mode_options(tcs)],
        "supervision": {s: words[f"tc.supervision_{s}"] for s in ("full", "partial")},
        "quickplay": words["tc.quickplay"],
        "first_move_seconds": first_move_seconds(tc),
    }


def rematch_id(game_id: str) -> str:
    """The id of ``game_id``'s rematch (the same for everyone who asks).

    >>> rematch_id("ab12") == rematch_id("ab12") != rematch_id("ab13")
    True
    """
    return hashlib.sha256(f"rematch:{game_id}".encode()).hexdigest()[:16]


def swapped(config: dict[str, Any]) -> dict[str, Any]:
    """The config of a rematch: colours swapped in the names and per-player times.

    >>> swapped({"players": {"white": "Ann"}, "time_control": {"white": "300", "black": "240"}})
    {'players': {'black': 'Ann'}, 'time_control': {'black': '300', 'white': '240'}}
    """
    out = dict(config)
    for key in ("players", "time_control"):
        value = out.get(key)
        if isinstance(value, dict):
            out[key] = {SWAPPED[k]: v for k, v in value.items()}
    return out


@router.post("/v1/games/{game_id}/rematch", response_model=Rematch, status_code=201,
             responses={code: {"model": Problem} for code in (401, 403, 404, 409, 422, 429,
                                                              503)},
             operation_id="create_rematch")
def create_rematch(game_id: str, request: Request,
                   token: Annotated[str | None, Security(_token)]) -> dict[str, str]:
    """Start the rematch of a finished game (a player's or the arbiter's
    token): colours swapped, the same control and names, the same tokens.
    Asked again, by anyone, it answers the same game."""
    games: Games = request.app.state.games
    role = games.reader(game_id, token)
    if role == "spectator":
        raise ServiceError(403, "a spectator cannot start a rematch", "role_forbidden",
                           {"role": role})
    rec, state, _ = games.state(game_id)
    if not state["over"]:
        raise ServiceError(409, "the game is not over: a rematch starts after the end",
                           "game_not_over")
    new_id = rematch_id(game_id)
    if games.store.get_game(new_id) is None:
        config = swapped(rec.config)
        Arbiter(config)  # a stored config, swapped: still one the arbiter takes
        hashes = {SWAPPED[r]: h for r, h in rec.hashes.items()}
        try:
            games.store.create_game(GameRecord(new_id, config, time.time(), hashes))
        except StoreError:
            if games.store.get_game(new_id) is None:  # not another player's same request
                raise
    return {"id": new_id, "role": SWAPPED[role]}


@router.get("/v1/games/{game_id}/rematch", response_model=Rematch,
            responses={code: {"model": Problem} for code in (401, 404, 422, 429, 503)},
            operation_id="get_rematch")
def get_rematch(game_id: str, request: Request,
                token: Annotated[str | None, Security(_token)]) -> dict[str, str]:
    """The rematch of a game, if one was started (any token of the game;
    404 ``no_rematch`` while there is none)."""
    games: Games = request.app.state.games
    role = games.reader(game_id, token)
    new_id = rematch_id(game_id)
    if games.store.get_game(new_id) is None:
        raise ServiceError(404, "no rematch of this game has been started", "no_rematch")
    return {"id": new_id, "role": SWAPPED[role]}

"""Every ``code`` an error body of the service can carry: its HTTP status,
the ``params`` that come with it and what it means.

The codes are given where the error is raised (:class:`~remis.service.games.
ServiceError`, :class:`~remis.arbiter.events.RefusedEvent`,
:class:`~remis.arbiter.config.ConfigError`,
:class:`~remis.arbiter.timecontrol.TimeControlError`); this list is what a
client may rely on, and the HTTP reference's table of codes is written from
it.  ``tests/service/test_error_codes.py`` reads every raise site and fails
on a code, or a param, that the list does not have, and on a listed code
that nothing raises.

>>> CODES["stale_ply"].status, CODES["stale_ply"].params
(409, ('expected', 'ply'))
>>> CODES["tc.err_no_time"].meaning
'Period {n} gives no time.'
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Formatter

from remis.arbiter.timecontrol import MESSAGES


@dataclass(frozen=True)
class Code:
    """One error code: the status it comes with (None: the status of the
    answer the framework gave), its meaning, and the names of its ``params``."""

    status: int | None
    meaning: str
    params: tuple[str, ...] = ()


def _fields(template: str) -> tuple[str, ...]:
    """The names a template fills in, in order.

    >>> _fields("{part} is {a} or {b}")
    ('part', 'a', 'b')
    """
    return tuple(name for _, name, _, _ in Formatter().parse(template) if name)


#: any request
REQUEST: dict[str, Code] = {
    "malformed_json": Code(400, "The body is not JSON; `detail` says where it breaks."),
    "invalid_request": Code(422, "The body or a parameter does not fit the schema: an "
                                 "unknown or missing field, a wrong type or range; `detail` "
                                 "names each field."),
    "body_too_large": Code(413, "The body is over 64 KiB."),
    "not_found": Code(404, "No such path."),
    "method_not_allowed": Code(405, "The path does not take this method."),
    "http_{status}": Code(None, "Another refusal of the web framework itself, with its "
                                "status in the code (`http_416`, say)."),
    "page_not_built": Code(404, "`/`: the web page was not built (`make web`); the API "
                                "works without it."),
    "busy": Code(429, "This client has too many searches running or waiting; try again "
                      "after `Retry-After`."),
    "client_gone": Code(400, "The client went away before the answer; its work was "
                             "cancelled."),
    "database_unavailable": Code(503, "The database cannot be reached; try again after "
                                      "`Retry-After`."),
    "internal_error": Code(500, "A bug of the service; it has been logged."),
}

#: games, their tokens and the stateless endpoints
GAMES: dict[str, Code] = {
    "missing_token": Code(401, "No `Authorization: Bearer` token."),
    "bad_token": Code(401, "The token is not one of this game's."),
    "role_forbidden": Code(403, "The token's role may not do this: a player acting for the "
                                "opponent, a spectator posting, the arbiter moving.",
                           ("role",)),
    "no_game": Code(404, "No game with this id."),
    "game_not_over": Code(409, "A rematch is asked for a game that has not ended."),
    "no_rematch": Code(404, "No rematch of this game has been started."),
    "bad_input": Code(422, "`/v1/position`, `/v1/pgn`, `/v1/claim`: the FEN, the PGN or the "
                           "claim cannot be used; `detail` says what and where."),
    "no_language": Code(404, "`/v1/i18n/{lang}`: no translations for this language."),
    "no_translations": Code(404, "`/v1/i18n/{lang}`: this build has no translations."),
}

#: an event the service or the arbiter refuses; nothing is applied
EVENTS: dict[str, Code] = {
    "stale_ply": Code(409, "`expected_ply` is not the game's ply: the client is behind.",
                      ("expected", "ply")),
    "event_id_reused": Code(409, "The event's `id` was used before in this game for "
                                 "another request."),
    "event_limit": Code(409, "The game is at a limit of the service: too many events, or "
                             "too many without a move."),
    "concurrent_writers": Code(409, "The game kept changing under other writers; try again."),
    "event_refused": Code(409, "Any other event the arbiter refuses: a malformed or "
                               "impossible event, or one the Laws do not allow now; "
                               "`detail` says why."),
    "game_over": Code(409, "The game has ended."),
    "awaiting_arbiter": Code(409, "The clocks are stopped until the arbiter decides what "
                                  "awaits it: a Guidelines III claim or increment request, "
                                  "a draw offer that needs its consent (9.1.1)."),
    "not_on_move": Code(409, "Only the player having the move may do this; `player` has "
                             "it.", ("player",)),
    "illegal_move": Code(409, "The move (or a claim's written move) is not legal here.",
                         ("move",)),
    "written_move": Code(409, "The player must first play the move written with an "
                              "incorrect claim (9.5.3).", ("move",)),
    "touched_piece": Code(409, "The piece touched on `square` must be moved or captured "
                               "(4.3.1, 4.3.2).", ("square", "article")),
    "draw_offer_pending": Code(409, "`player`'s draw offer is already pending.",
                               ("player",)),
    "no_draw_offer": Code(409, "There is no offer of the opponent to accept or decline."),
    "draw_too_early": Code(409, "A draw is agreed only after both players have moved "
                                "(5.2.3)."),
    "draw_barred": Code(409, "The event's rules allow a draw offer or agreement only with "
                             "the arbiter's consent (9.1.1), which online play does not "
                             "have."),
    "claim_after_touch": Code(409, "A player who touched a piece may not claim on this "
                                   "move (9.4)."),
    "claim_incorrect": Code(409, "Online: the claim is not correct and is refused, with no "
                                 "penalty and no draw offer.", ("article",)),
    "no_clock": Code(409, "The game has no clock."),
    "flag_not_fallen": Code(409, "`player`'s flag has not fallen.", ("player",)),
    "flag_fallen": Code(409, "`player`'s flag has already fallen: no time can be added "
                             "(6.8).", ("player",)),
    "abort_not_allowed": Code(409, "The game has no first-move rule "
                                   "(`first_move_seconds`), so it cannot be cancelled."),
    "abort_too_late": Code(409, "Both players have moved: the game can no longer be "
                                "cancelled."),
    "request_open": Code(409, "`player`'s request to the arbiter is still open.",
                         ("player",)),
    "decision_not_allowed": Code(409, "A request to the arbiter is upheld or rejected, not "
                                      "postponed."),
    "add_time_incomplete": Code(409, "`add_time` needs `player` and `seconds` above 0."),
    "add_time_kind": Code(409, "Time is added for a `disturbance`, a `penalty` or a "
                               "`correction`."),
    "declare_incomplete": Code(409, "`declare` needs `result`."),
    "declare_needs_winner": Code(409, "A game lost for fair play or conduct has a winner "
                                      "(12.9.6)."),
    "declare_kind": Code(409, "A result is declared for `fair_play`, `conduct` or "
                              "`other`."),
    "note_empty": Code(409, "A note needs its text in `comment`."),
}

#: a configuration the arbiter refuses (``POST /v1/games``)
CONFIG: dict[str, Code] = {
    "config": Code(422, "The configuration cannot make a game (a shogi or xiangqi "
                        "`start_fen` that cannot be read, say); `detail` says why."),
    "config.not_object": Code(422, "The configuration is not a JSON object."),
    "config.unknown_key": Code(422, "A key the configuration does not have.", ("key",)),
    "config.time_control": Code(422, "`time_control` cannot be read (PGN's syntax, in "
                                     "seconds)."),
    "config.mode": Code(422, "`mode` is not one of the modes."),
    "config.supervision": Code(422, "`supervision` is not `full` or `partial`."),
    "config.flag_time": Code(422, "`flag_time` is not `observed` or `physical` (online, "
                                  "only `physical`)."),
    "config.clock_start": Code(422, "`clock_start` is not `game_start` or `first_move`."),
    "config.armageddon": Code(422, "`armageddon` is not true or false."),
    "config.quickplay_finish": Code(422, "`quickplay_finish` is not true or false, or "
                                         "Guidelines III do not apply (blitz, online, a "
                                         "last period with an increment)."),
    "config.no_agreement_before_move": Code(422, "`no_agreement_before_move` is not a "
                                                 "whole number ≥ 0."),
    "config.draw_agreement": Code(422, "`draw_agreement` cannot be read, or contradicts "
                                       "`no_agreement_before_move`."),
    "config.start_fen": Code(422, "`start_fen` is not a string, or not a legal position "
                                  "(`reason` says why).", ("reason",)),
    "config.start_fen_unreadable": Code(422, "`start_fen` is not a FEN."),
    "config.auto_claim_threefold": Code(422, "`auto_claim_threefold` is not a list of "
                                             "players, or the game is not online."),
    "config.variant": Code(422, "`variant` is not `chess`, `shogi` or `xiangqi`."),
    "config.variant_only": Code(422, "`key` is for shogi and xiangqi games only.",
                                ("key",)),
    "config.chess_only": Code(422, "`key` is for chess games only.", ("key",)),
    "config.repetitions": Code(422, "`repetitions` is not 4 (or 3 in xiangqi)."),
    "config.notation": Code(422, "`notation` is not one the variant has."),
    "config.players": Code(422, "`players` is not `{\"white\", \"black\"}` with names of "
                                "1 to `max` characters.", ("max",)),
    "config.first_move_seconds": Code(422, "`first_move_seconds` is not a number of seconds "
                                           "from 1 to `max`.", ("max",)),
}

#: a time control as players write it that cannot be read (``GET /v1/time-control``):
#: the English sentence of each, which the catalogues translate
TIME_CONTROL: dict[str, Code] = {
    key: Code(422, text, _fields(text)) for key, text in MESSAGES.items()
    if key.startswith("tc.err_")
}

#: the groups, as the HTTP reference shows them
GROUPS: dict[str, dict[str, Code]] = {
    "Any request": REQUEST,
    "Games, tokens and stateless requests": GAMES,
    "Events": EVENTS,
    "Configurations": CONFIG,
    "Time controls": TIME_CONTROL,
}

#: every code, by name
CODES: dict[str, Code] = {name: code for group in GROUPS.values() for name, code in group.items()}

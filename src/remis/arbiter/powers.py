"""What a game's arbiter does as an arbiter on a server does, what a player
asks of the arbiter, and a server's rule for a game nobody starts.

* ``arbiter`` events with ``decision``:

  - ``add_time``: ``player`` gets ``seconds`` more; ``kind`` says why: an
    external disturbance (a lost connection, Article 12.5, the default), a
    penalty on the opponent (12.9.2), a clock set wrongly (6.10);
  - ``declare``: the game ends with ``result``; ``kind`` ``fair_play`` or
    ``conduct`` is a loss for the offender (12.9.6, so the result has a
    winner), ``other`` any result the arbiter decides (12.2.2);
  - ``note``: the ``comment`` goes into the ruling log;
  - ``accept``/``reject`` with nothing of Guidelines III or 9.1.1 waiting:
    the oldest open request is upheld or rejected.

* ``request`` events: a player calls the arbiter (``kind`` ``fair_play``,
  ``time`` or ``other``, the reason in ``comment``).  The clocks go on; the
  request stays open (``requests`` in the state) until the arbiter decides.

* The first-move rule of a server (``first_move_seconds`` in the config, as
  lichess aborts a game): until both players have moved, either player may
  ``abort`` the game, and a player whose clock has run that long without a
  first move cancels it.  A cancelled game ends without a result (``*``).
  After both players have moved, a flag falls as in any game (6.9).
"""

from __future__ import annotations

from typing import Any

import chess

from remis.arbiter.base import _secs
from remis.arbiter.events import Event, RefusedEvent
from remis.arbiter.quickplay import QuickplayFinish
from remis.arbiter.state import ArbiterState
from remis.ruling import DRAW, color_name

#: the result of a game cancelled before both players moved
NO_RESULT = "*"
#: the article under which the arbiter adds time, by the reason given
TIME_ARTICLES = {"disturbance": "12.5", "penalty": "12.9.2", "correction": "6.10"}
#: the article a player's request would be decided under, by its kind
REQUEST_ARTICLES = {"fair_play": "12.2.1", "time": "12.5"}


class ArbiterPowers(QuickplayFinish):
    """The arbiter's own acts, players' requests and the first-move rule of
    :class:`~remis.arbiter.Arbiter`.

    >>> from remis.arbiter import Arbiter
    >>> a = Arbiter({"time_control": "300+2", "mode": "online", "first_move_seconds": 25})
    >>> s = a.apply({"type": "abort", "player": "black", "at": 3})
    >>> s["result"], s["termination"]
    ('*', 'aborted')
    """

    def _start_game(self, start_turn: chess.Color) -> None:
        super()._start_game(start_turn)
        #: open requests to the arbiter, oldest first: (player, kind, comment)
        self._requests: list[tuple[chess.Color, str, str | None]] = []

    def _snapshot(self) -> tuple[Any, ...]:
        return (super()._snapshot(), list(self._requests))

    def _restore(self, saved: tuple[Any, ...]) -> None:
        base, requests = saved
        super()._restore(base)
        self._requests = list(requests)

    def clock_times(self) -> dict[str, float | None]:
        """Both clocks at the last event, in seconds (None: no clock).

        >>> from remis.arbiter import Arbiter
        >>> Arbiter({"time_control": "60"}).clock_times()
        {'white': 60.0, 'black': 60.0}
        """
        return self._clock.to_json(self._last_at)

    def _add_powers(self, out: ArbiterState) -> None:
        """Add the state's keys of this module: the piece a player touched this
        turn (4.3, when its square was given), the open requests, and who must
        make a first move by when under the first-move rule."""
        touched = None
        if self._touched is not None:
            sq = self._touch_square
            touched = {"player": color_name(self._touched),
                       "square": None if sq is None else chess.SQUARE_NAMES[sq]}
        due = self._first_move_due()
        out["touched"] = touched
        out["requests"] = [{"player": color_name(c), "kind": k, "comment": note}
                           for c, k, note in self._requests]
        out["first_move_due"] = None if due is None else {
            "player": color_name(due[0]), "at": _secs(due[1])}

    # -- the first-move rule -------------------------------------------------

    def _first_move_due(self) -> tuple[chess.Color, float] | None:
        """Under the first-move rule, the player whose first move runs on the
        clock and the time by which it is due (the first-move time, or their
        whole time when that is shorter); None when no such move is due."""
        window = self.config.first_move_seconds
        clock = self._clock
        if window is None or self._end is not None or min(self._moves_made.values()) >= 1 \
                or not clock.clocked or clock.paused or not clock.started \
                or self._moves_made[clock.running] >= 1:
            return None
        player = clock.running
        return player, min(clock.since + window,
                           clock.since + clock.remaining(player, clock.since)
                           + clock.tcs[player].period(0).delay)

    def _first_move_lapsed(self, ev: Event, at: float, index: int) -> bool:
        """With the first-move rule, an event arriving after the player to
        move let the first-move time pass (or their whole time) without a
        first move finds the game cancelled."""
        due = self._first_move_due()
        if due is None:
            return False
        player, lapse = due
        clock = self._clock
        if at < lapse or (at == lapse and ev.type == "move" and ev.color == player):
            return False
        self._finish(index, at, NO_RESULT, "no_first_move", "", "first_move_lapsed",
                     {"player": self._name(player), "seconds": _secs(lapse - clock.since)})
        return True

    def _on_abort(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        if self.config.first_move_seconds is None:
            raise RefusedEvent("a game is cancelled only under a server's first-move rule "
                               "(config first_move_seconds)", "abort_not_allowed")
        if min(self._moves_made.values()) >= 1:
            raise RefusedEvent("both players have moved: the game can no longer be cancelled",
                               "abort_too_late")
        self._finish(index, at, NO_RESULT, "aborted", "", "game_aborted",
                     {"player": self._name(ev.color)})

    # -- requests to the arbiter -----------------------------------------------

    def _on_request(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None and ev.kind is not None
        color = ev.color
        if any(c == color for c, _, _ in self._requests):
            raise RefusedEvent(f"{color_name(color)}'s request to the arbiter is still open",
                               "request_open", player=color_name(color))
        self._requests.append((color, ev.kind, ev.comment))
        self._note(index, at, f"request_{ev.kind}", self._with_comment(
            {"player": self._name(color)}, ev), REQUEST_ARTICLES.get(ev.kind))

    @staticmethod
    def _with_comment(params: dict[str, Any], ev: Event) -> dict[str, Any]:
        return {**params, "comment": ev.comment} if ev.comment else params

    # -- the arbiter's acts ------------------------------------------------------

    def _on_arbiter(self, ev: Event, at: float, index: int) -> None:
        decision = ev.decision
        if decision == "add_time":
            self._add_time(ev, at, index)
        elif decision == "declare":
            self._declare(ev, at, index)
        elif decision == "note":
            if not ev.comment:
                raise RefusedEvent("an arbiter's note needs its text in 'comment'", "note_empty")
            self._note(index, at, "arbiter_note", {"text": ev.comment})
        elif self._requests and self._consent is None and self._increment_request is None \
                and self._quickplay is None:
            self._decide_request(ev, at, index)
        else:
            super()._on_arbiter(ev, at, index)

    def _decide_request(self, ev: Event, at: float, index: int) -> None:
        if ev.decision not in ("accept", "reject"):
            raise RefusedEvent("a request to the arbiter is upheld (accept) or rejected "
                               "(reject), not postponed", "decision_not_allowed")
        color, kind, _ = self._requests.pop(0)
        self._note(index, at, "request_upheld" if ev.decision == "accept" else "request_rejected",
                   self._with_comment({"player": self._name(color)}, ev),
                   REQUEST_ARTICLES.get(kind))

    def _add_time(self, ev: Event, at: float, index: int) -> None:
        color = ev.color
        if color is None or not ev.seconds:
            raise RefusedEvent("the arbiter adds time with 'player' (whose clock) and "
                               "'seconds' (more than 0)", "add_time_incomplete")
        kind = ev.kind or "disturbance"
        article = TIME_ARTICLES.get(kind)
        if article is None:
            raise RefusedEvent(f"time is added for a disturbance, a penalty or a correction, "
                               f"not {kind!r}", "add_time_kind")
        if not self._clock.clocked:
            raise RefusedEvent("this game is played without a clock", "no_clock")
        if not self._clock.add(color, ev.seconds, at):
            raise RefusedEvent(f"{color_name(color)}'s flag has already fallen; no time can be "
                               "added (Article 6.8)", "flag_fallen", player=color_name(color))
        self._note(index, at, "time_added", self._with_comment(
            {"player": self._name(color), "seconds": _secs(ev.seconds), "article": article},
            ev))

    def _declare(self, ev: Event, at: float, index: int) -> None:
        result, kind = ev.result, ev.kind or "other"
        if result is None:
            raise RefusedEvent("the arbiter declares a result with 'result' (1-0, 0-1 or "
                               "1/2-1/2)", "declare_incomplete")
        if kind in ("fair_play", "conduct"):
            if result == DRAW:
                raise RefusedEvent("a game declared lost for fair play or conduct has a winner "
                                   "(Article 12.9.6): 1-0 or 0-1", "declare_needs_winner")
            loser = chess.BLACK if result == "1-0" else chess.WHITE
            params = {"loser": self._name(loser), "winner": self._name(not loser),
                      "article": "12.9.6"}
            termination = "fair_play" if kind == "fair_play" else "misconduct"
            message = f"declared_{kind}"
        elif kind == "other":
            params = {"article": "12.2.2"}
            if result != DRAW:
                winner = result == "1-0"
                params.update(winner=self._name(winner), loser=self._name(not winner))
            termination = "arbiter_decision"
            message = "declared_draw" if result == DRAW else "declared_win"
        else:
            raise RefusedEvent(f"a result is declared for fair play, conduct or another reason, "
                               f"not {kind!r}", "declare_kind")
        self._finish(index, at, result, termination, params["article"], message,
                     self._with_comment(params, ev))

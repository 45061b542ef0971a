"""The arbiter of a live game: a state machine over the game's events.

It takes events in order (moves, offers, claims, touches, flags, illegal
moves, resignations, arbiter decisions) and says after each whether the game
is over, with which result and article, what the player on move may claim,
and the clocks.  Rules are asked of the rules core (:mod:`remis.rules`,
:mod:`remis.unwinnable`); this module adds time, procedure and event order.
An event that cannot happen is refused with :class:`RefusedEvent` and leaves
the state unchanged.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import chess

from remis.arbiter.base import MateTest, _secs
from remis.arbiter.events import (
    SHOGI_CLAIM_KINDS,
    Event,
    RefusedEvent,
    parse_event,
    plain_move,
)
from remis.arbiter.illegal import IllegalMoves
from remis.arbiter.powers import ArbiterPowers
from remis.arbiter.state import ArbiterState, LogEntry
from remis.rules import DeadTest, claimable, rule_on_claim
from remis.ruling import DRAW, color_name


class Arbiter(IllegalMoves, ArbiterPowers):
    """A live game under the FIDE Laws (2023).

    >>> a = Arbiter({"time_control": "300+2", "mode": "blitz"})
    >>> for at, (who, san) in enumerate([("white", "f3"), ("black", "e5"), ("white", "g4")]):
    ...     s = a.apply({"type": "move", "player": who, "move": san, "at": float(at)})
    >>> s = a.apply({"type": "move", "player": "black", "move": "Qh4#", "at": 5.0})
    >>> s["over"], s["result"], s["article"]
    (True, '0-1', '5.1.1')
    >>> a.apply({"type": "resign", "player": "white", "at": 6.0})
    Traceback (most recent call last):
    ...
    remis.arbiter.events.RefusedEvent: the game is over (checkmate, Article 5.1.1)
    """

    #: the arbiter of a shogi or xiangqi game (a subclass), given by the package
    #: :mod:`remis.arbiter`, which knows both kinds: the chess arbiter, below the
    #: variant one, never imports it
    variant_arbiter: ClassVar[Callable[[], type[Arbiter]] | None] = None
    #: whether a plain move in a quiet game takes :meth:`_quiet_move`, and the
    #: state of a quiet game :meth:`_quiet_state` (False: the full path for
    #: everything, as the tests that compare the two ask; the variant arbiter
    #: plays its moves its own way)
    quiet_moves: ClassVar[bool] = True

    def __new__(cls, config: Any = None, *, dead_test: DeadTest | None = None,
                ) -> Arbiter:
        """A shogi or xiangqi config (``"variant"``) gives a
        :class:`remis.arbiter.variant.VariantArbiter`."""
        if cls is Arbiter and isinstance(config, dict) \
                and config.get("variant", "chess") != "chess" \
                and Arbiter.variant_arbiter is not None:
            return super().__new__(Arbiter.variant_arbiter())
        return super().__new__(cls)

    @classmethod
    def from_log(cls, config: Any, events: Iterable[dict[str, Any]], *,
                 dead_test: DeadTest | None = None,
                 mate_test: MateTest | None = None) -> Arbiter:
        """Rebuild an arbiter from its configuration and accepted events;
        ``mate_test`` replaces its "can still mate?" search (e.g. one that
        runs in a worker process: the same verdicts) before the replay.

        >>> a = Arbiter({})
        >>> _ = a.apply({"type": "move", "player": "white", "move": "e4", "at": 3})
        >>> Arbiter.from_log({}, a.events()).state() == a.state()
        True
        """
        arbiter = cls(config, dead_test=dead_test)
        if mate_test is not None:
            arbiter.mate_test = mate_test
        for n, event in enumerate(events):
            try:
                arbiter.accept(event)  # not apply(): no state to build after each event
            except RefusedEvent as exc:
                raise RefusedEvent(f"event {n}: {exc.message}") from None
        return arbiter

    def events(self) -> list[dict[str, Any]]:
        """The accepted events, in order (the log from which to rebuild).

        >>> Arbiter({}).events()
        []
        """
        return [dict(e) for e in self._events]

    def apply(self, event: Any) -> ArbiterState:
        """Apply one event and return the new state; :class:`RefusedEvent` if
        it cannot happen (the state is then unchanged).

        >>> a = Arbiter({})
        >>> a.apply({"type": "move", "player": "black", "move": "e5"})
        Traceback (most recent call last):
        ...
        remis.arbiter.events.RefusedEvent: black cannot move: white has the move
        """
        self.accept(event)
        return self.state()

    def accept(self, event: Any) -> None:
        """Apply one event without building the state (:meth:`apply` is
        this and :meth:`state`); :class:`RefusedEvent` if it cannot happen.

        >>> a = Arbiter({"time_control": "60"})
        >>> a.accept({"type": "move", "player": "white", "move": "e4", "at": 2})
        >>> a.last_at, a.history.ply
        (2.0, 1)
        """
        if self._quiet() and self._quiet_move(event):
            return
        ev = parse_event(event)
        at = self._last_at if ev.at is None else ev.at
        if at < self._last_at:
            raise RefusedEvent(f"'at' {_secs(at)} is earlier than the previous event "
                               f"({_secs(self._last_at)})")
        saved = self._snapshot()
        index = len(self._events)
        try:
            self._dispatch(ev, at, index)
        except BaseException:  # refused, or a search that could not run: nothing changes
            self._restore(saved)
            raise
        self._events.append(dict(event))
        self._last_at = at

    def _quiet(self) -> bool:
        """Whether the game goes on with nothing pending: no offer, touched
        piece, written move, Guidelines III request or consent asked, and no
        first move still due (:attr:`quiet_moves` permitting)."""
        return self.quiet_moves and self._end is None and self._pending_offer is None \
            and self._touched is None and not self._intended and self._quickplay is None \
            and self._increment_request is None and self._consent is None \
            and (self.config.first_move_seconds is None or min(self._moves_made.values()) >= 1)

    def _quiet_move(self, event: Any) -> bool:
        """Apply ``event``, in a :meth:`_quiet` game, if it is a legal plain
        move with no illegal position to decide (A.5.4), no auto-claim rule,
        the position in the core, and the mover's clock running with time
        left.  That is nearly every event of a game, and it needs neither the
        snapshot nor the handlers of the full path, whose rulings it gives.
        False, with nothing changed, for anything else; the full path then
        takes the event, and refuses it where it must."""
        if self._a54 is not None:
            return False
        plain = plain_move(event)
        if plain is None:
            return False
        color, at, text = plain
        if at is None:
            at = self._last_at
        history, clock = self.history, self._clock
        if at < self._last_at or color != history.turn or self.config.auto_claim_threefold \
                or (clock.clocked and (clock.paused or clock.running != color
                                       or clock.fell_at(color, at) is not None)):
            return False
        if history.play_legal(text) is None:
            return False
        end = None
        if history.found() is not None:  # an end or a claim: the rules say which
            try:
                end = self._automatic_end(True)
            except BaseException:  # a search that could not run: nothing changes
                history.pop()
                raise
        clock.press(color, at)
        self._moves_made[color] += 1
        if end is not None:
            self._finish_ruling(len(self._events), at, end)
        self._events.append(dict(event))
        self._last_at = at
        return True

    @property
    def last_at(self) -> float:
        """The time of the last accepted event (seconds since the start).

        >>> Arbiter({}).last_at
        0.0
        """
        return self._last_at

    def rulings(self, first: int = 0, stop: int | None = None) -> list[LogEntry]:
        """The entries of the ruling log written by events ``first`` to
        ``stop - 1`` (counted from 0; ``first`` 0 takes in the entries of the
        set-up position too, whose ``event`` is None): copies, in order.

        >>> a = Arbiter({})
        >>> for ev in [{"type": "offer_draw", "player": "white"},
        ...            {"type": "decline_draw", "player": "black"}]:
        ...     a.accept(ev)
        >>> [e["message"] for e in a.rulings(1)], [e["event"] for e in a.rulings()]
        (['draw_declined'], [0, 1])
        """
        log = self._log
        if not log or (first > 0 and _event_index(log[-1]) < first):
            return []  # the usual answer after a move: the event wrote nothing
        lo = bisect_left(log, first if first > 0 else -1, key=_event_index)
        hi = len(log) if stop is None else bisect_left(log, stop, key=_event_index)
        return [e.copy() for e in log[lo:hi]]

    def state(self, *, log: bool = True) -> ArbiterState:
        """The state after the last accepted event (a JSON-serialisable dict),
        with the whole ruling log unless ``log`` is False (see :meth:`rulings`).

        >>> s = Arbiter({"time_control": "60+1"}).state()
        >>> s["over"], s["to_move"], s["clocks"], s["claimable"], s["log"]
        (False, 'white', {'white': 60, 'black': 60}, [], [])
        >>> "log" in Arbiter({}).state(log=False)
        False
        """
        history = self.history
        end = self._end
        if self._quiet() and not self._requests:
            return self._quiet_state(log)
        out = self._state(
            color_name(history.turn), history.fen(),
            [] if end is not None else [c.to_json() for c in claimable(history)],
            {"white": self._illegal[chess.WHITE], "black": self._illegal[chess.BLACK]},
            self._intended_json(), self._awaiting())
        self._add_powers(out)
        if log:
            out["log"] = self.rulings()
        self._add_end_details(out, end)
        return out

    def _quiet_state(self, log: bool) -> ArbiterState:
        """:meth:`state` of a :meth:`_quiet` game with no open request: the
        same keys, in the same order, most of them fixed."""
        history = self.history
        clocks = self._clock_fields()
        illegal = self._illegal
        out: ArbiterState = {
            "over": False, "result": None, "termination": None, "article": None,
            "explanation": None, "message": None, "params": None,
            "to_move": color_name(history.turn), "ply": history.ply, "fen": history.fen(),
            "clocks": clocks["clocks"], "clock": clocks["clock"], "pending_offer": None,
            "claimable": [] if history.found() is None
            else [c.to_json() for c in claimable(history)],
            "illegal_moves": {"white": illegal[chess.WHITE], "black": illegal[chess.BLACK]},
            "intended_move": None, "awaiting_arbiter": None,
            "touched": None, "requests": [], "first_move_due": None}
        if log:
            out["log"] = self.rulings()
        if self.config.armageddon:
            out["match_result"] = None
        return out

    def _intended_json(self) -> dict[str, str] | None:
        """The written moves that must be played (9.5.3), by player: SAN where
        legal, else UCI."""
        if not self._intended:
            return None
        board = self.history.board
        return {color_name(c): board.san(m) if board.is_legal(m) else m.uci()
                for c, m in self._intended.items()}

    def _add_end_details(self, out: ArbiterState, end: dict[str, Any] | None) -> None:
        """The ending's evidence and, in Armageddon, the match result (every
        draw counts for Black), added to a state ``out``."""
        if end and end.get("evidence"):
            out["evidence"] = dict(end["evidence"])
        if self.config.armageddon:
            out["match_result"] = None if end is None else (
                "0-1" if end["result"] == DRAW else end["result"])

    def _dispatch(self, ev: Event, at: float, index: int) -> None:
        end = self._end
        if end is not None:
            art = f", Article {end['article']}" if end["article"] else ""
            raise RefusedEvent(f"the game is over ({end['termination']}{art})", "game_over")
        awaiting = self._awaiting()
        if awaiting is not None and ev.type not in ("arbiter", "resign", "accept_draw",
                                                    "decline_draw"):
            art = awaiting["article"]
            where = f"Article {art}" if art[0].isdigit() else f"Guidelines {art}"
            raise RefusedEvent(f"the clocks are stopped: {awaiting['player']}'s "
                               f"{awaiting['kind']} request awaits the arbiter's decision "
                               f"({where})", "awaiting_arbiter")
        if self._first_move_lapsed(ev, at, index):
            return
        if self.config.flag_time == "physical" and self._physical_flag(ev, at, index):
            return
        handler = getattr(self, f"_on_{ev.type}")
        handler(ev, at, index)

    def _physical_flag(self, ev: Event, at: float, index: int) -> bool:
        """With ``flag_time`` physical (online play always), a flag falls by
        itself (6.8): an event arriving after the running player's time ran
        out finds the game already lost (or drawn) on time."""
        if ev.type == "flag":
            return False
        running = self._clock.running
        fell = self._clock.fell_at(running, at)
        if fell is None or (fell == at and ev.type == "move" and ev.color == running):
            return False
        self._flag_ruling(running, fell, index, at)
        self._note(index, at, "online_flag" if self.config.mode == "online" else "physical_flag",
                   {"player": self._name(running), "time": _secs(fell)}, "6.9")
        return True

    def _on_move(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None and ev.move is not None
        color = ev.color
        self._require_on_move(color, "move")
        move = self._legal_uci(ev.move)
        if move is None:
            if self.config.mode == "online":
                raise RefusedEvent(f"{ev.move!r} is not a legal move here; the server rejects "
                                   "illegal moves", "illegal_move", move=ev.move)
            raise RefusedEvent(f"{ev.move!r} is not a legal move for {color_name(color)} here "
                               "(report a completed illegal move with an illegal_move event)",
                               "illegal_move", move=ev.move)
        required = self._intended.get(color)
        if required is not None and move != required.uci():
            board = self.history.board
            raise RefusedEvent(f"{color_name(color)} must play the written move "
                               f"{board.san(required)} (Article 9.5.3)", "written_move",
                               move=board.san(required))
        if required is None and self._touch_square is not None:
            self._check_touch_move(chess.Move.from_uci(move))
        if color in self.config.auto_claim_threefold and self.history.may_repeat_after_move():
            claim = rule_on_claim(self.history, player=color, kind="threefold_repetition",
                                  move=move, dead_test=self.dead_test)
            if claim.valid:  # 9.2.1 on the player's behalf: the move is not played
                self._note(index, at, "online_auto_claim", {"player": self._name(color)}, "9.2.1")
                self._finish(index, at, DRAW, claim.kind, claim.article, claim.message,
                             dict(claim.params))
                return
        self._play(move, color, at, index)

    def _check_touch_move(self, move: chess.Move) -> None:
        """4.3: a touched own piece must be moved, a touched enemy piece
        captured, if that is possible (4.3.4: otherwise any move)."""
        sq = self._touch_square
        if sq is None:
            return
        board = self.history.board
        piece = board.piece_at(sq)
        if piece is None:
            return
        name = chess.SQUARE_NAMES[sq]
        if piece.color == board.turn:
            if move.from_square != sq and any(
                    m.from_square == sq for m in board.generate_legal_moves(chess.BB_SQUARES[sq])):
                raise RefusedEvent(f"the touched piece on {name} must be moved (Article 4.3.1)",
                                   "touched_piece", square=name, article="4.3.1")
        elif move.to_square != sq and any(
                m.to_square == sq for m in board.generate_legal_moves(
                    chess.BB_ALL, chess.BB_SQUARES[sq])):
            raise RefusedEvent(f"the touched piece on {name} must be captured (Article 4.3.2)",
                               "touched_piece", square=name, article="4.3.2")

    def _on_offer_draw(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        barred = self._agreement_barred()
        if barred and (self.config.mode == "online" or self.config.variant != "chess"):
            raise RefusedEvent(barred, "draw_barred")
        if self._pending_offer == color:
            raise RefusedEvent(f"{color_name(color)}'s draw offer is already pending",
                               "draw_offer_pending", player=color_name(color))
        if self._pending_offer is not None:
            raise RefusedEvent(f"{color_name(not color)}'s draw offer is pending: accept or "
                               "decline it", "draw_offer_pending", player=color_name(not color))
        if barred:  # 9.1.1: the offer goes to the arbiter first; the clocks stop (6.11.2)
            self._consent = color
            self._clock.pause(at)
            self._note(index, at, "draw_consent_asked", {"player": self._name(color),
                                                         "article": "9.1.1"})
            return
        self._pending_offer = color
        self._consented = None
        self._note(index, at, "draw_offered",
                   {"player": self._name(color), "opponent": self._name(not color),
                    "article": "9.1.2"})

    def _on_accept_draw(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        if self._pending_offer != (not color):
            raise RefusedEvent(f"{color_name(color)} has no draw offer to accept",
                               "no_draw_offer")
        if min(self._moves_made.values()) < 1:
            raise RefusedEvent("a draw can be agreed only after both players have made at "
                               "least one move (Article 5.2.3)", "draw_too_early")
        barred = self._agreement_barred()
        if barred and self._consented != (not color):
            raise RefusedEvent(barred, "draw_barred")
        if self._increment_request == (not color):
            self._increment_request = None
        self._finish(index, at, DRAW, "agreement", "5.2.3", "draw_agreed",
                     {"player": self._name(color), "opponent": self._name(not color),
                      "article": "5.2.3"})

    def _on_decline_draw(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        if self._pending_offer != (not color):
            raise RefusedEvent(f"{color_name(color)} has no draw offer to decline",
                               "no_draw_offer")
        self._pending_offer = None
        self._note(index, at, "draw_declined",
                   {"player": self._name(color), "article": "9.1.2.1"})

    def _on_touch(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        self._require_on_move(color, "touch a piece to move it")
        self._touched = color
        if ev.square is not None and self._touch_square is None:
            self._touch_square = chess.parse_square(ev.square)
        self._note(index, at, "touched", {"player": self._name(color), "article": "9.4"})
        self._touch_rejects_offer(color, at, index)

    def _on_claim(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        if ev.kind in SHOGI_CLAIM_KINDS:
            raise RefusedEvent(f"the claim {ev.kind!r} is a shogi rule, not chess")
        if ev.kind in ("quickplay", "increment"):
            self._quickplay_request(ev, color, at, index)
            return
        self._require_on_move(color, "claim a draw (only the player having the move may "
                              "claim, Articles 9.2 and 9.3)")
        if self._touched == color:
            raise RefusedEvent(f"{color_name(color)} has touched a piece and may not claim on "
                               "this move (Article 9.4)", "claim_after_touch")
        if color in self._intended:
            written = self.history.board.san(self._intended[color])
            raise RefusedEvent(f"{color_name(color)} must first play the written move "
                               f"{written} (Article 9.5.3)", "written_move", move=written)
        cfg = self.config
        claim = rule_on_claim(self.history, player=color, kind=ev.kind, move=ev.move,
                              penalty_seconds=cfg.penalty_seconds, dead_test=self.dead_test)
        if claim.message == "claim_illegal_move":
            raise RefusedEvent(f"the written move {ev.move!r} is not legal here, so it cannot "
                               "support a claim", "illegal_move", move=ev.move)
        if claim.valid:
            self._finish(index, at, DRAW, claim.kind, claim.article, claim.message,
                         dict(claim.params))
            return
        if cfg.mode == "online":
            # the ruling's own text goes on to the penalty and the offer of 9.5.3 and
            # 9.1.2.3, which online play does not give: only its finding is quoted
            raise RefusedEvent(f"no draw can be claimed here: {_finding(claim.explanation)} "
                               "Online an incorrect claim is refused: no time is added and no "
                               "draw offer stands.", "claim_incorrect", article=claim.article)
        self._note(index, at, claim.message, dict(claim.params), claim.article)
        self._penalise(not color, at, index, "9.5.3" if cfg.mode == "standard"
                       else cfg.penalty_article)
        if self._agreement_barred() is None:
            self._pending_offer = color
            self._note(index, at, "claim_as_offer", {"player": self._name(color),
                                                     "article": "9.1.2.3"})
        if ev.move is not None:
            move = self._parse_move(ev.move)
            assert move is not None
            self._intended[color] = move
            self._note(index, at, "intended_move_required",
                       {"player": self._name(color), "move": claim.move or ev.move,
                        "article": "9.5.3"})

    def _on_flag(self, ev: Event, at: float, index: int) -> None:
        clock = self._clock
        if not clock.clocked:
            raise RefusedEvent("this game is played without a clock", "no_clock")
        if ev.color is None:
            self._both_flags(at, index)
            return
        color = ev.color
        fell = clock.fell_at(color, at)
        if fell is None:
            raise RefusedEvent(f"{color_name(color)}'s flag has not fallen: "
                               f"{_secs(clock.remaining(color, at))} s left at {_secs(at)} s",
                               "flag_not_fallen", player=color_name(color))
        qp = self._quickplay
        if qp is not None and qp["player"] == color and qp["status"] == "postponed":
            qp["status"] = "flag"
            qp["fell"] = fell
            clock.pause(at)
            self._note(index, at, "quickplay_flag_pending", {"player": self._name(color),
                                                             "article": "III.5"}, "III.5")
            return
        self._flag_ruling(color, fell, index, at)

    def _on_resign(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        self._quickplay = None
        self._increment_request = None
        params = {"loser": self._name(color), "winner": self._name(not color),
                  "article": "5.1.2"}
        self._lose_or_draw(index, at, color, "resignation", "5.1.2", "resigned",
                           "resigned_draw", params)


def _finding(explanation: str) -> str:
    """The first sentence of a ruling's explanation.

    >>> _finding("The claim is incorrect: 1 of 3 (after 1.). The opponent gets 1 minute.")
    'The claim is incorrect: 1 of 3 (after 1.).'
    """
    m = re.match(r"(.*?\.)(?=\s+[A-Z])", explanation)
    return m[1] if m else explanation


def _event_index(entry: LogEntry) -> int:
    """The event of a ruling-log entry, -1 for the set-up position's."""
    n = entry["event"]
    return -1 if n is None else int(n)

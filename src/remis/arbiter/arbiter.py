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
from collections.abc import Iterable
from typing import Any

import chess

from remis.arbiter.clock import Clock
from remis.arbiter.config import Config
from remis.arbiter.events import Event, RefusedEvent, parse_event
from remis.arbiter.fen import fast_fen
from remis.arbiter.messages import render
from remis.history import History
from remis.rules import DeadTest, automatic_end, claimable, material_dead_test, rule_on_claim
from remis.ruling import DRAW, color_name, win_for
from remis.unwinnable import can_checkmate

_QUICKPLAY_LIMIT = 120.0  # Guidelines III.4/III.5: less than two minutes
_III_EXTRA = 120.0  # III.4/III.5: the opponent's two extra minutes
_III_INCREMENT = 5.0  # III.4: five seconds a move
_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")


def _title(color: chess.Color) -> str:
    return "White" if color else "Black"


def _secs(t: float) -> float | int:
    r = round(t, 3)
    return int(r) if r == int(r) else r


class Arbiter:
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

    def __init__(self, config: Any = None, *, dead_test: DeadTest = material_dead_test) -> None:
        self.config = Config.from_dict(config)
        self.dead_test = dead_test
        self.history = History(self.config.board())
        self._start_turn: chess.Color = self.history.board.turn
        self._clock = Clock(self.config.time_controls, self._start_turn)
        self._events: list[dict[str, Any]] = []
        self._log: list[dict[str, Any]] = []
        self._end: dict[str, Any] | None = None
        self._pending_offer: chess.Color | None = None
        self._touched: chess.Color | None = None
        #: the square of the first piece touched this turn (4.3), if given
        self._touch_square: int | None = None
        self._intended: dict[bool, chess.Move] = {}
        self._illegal: dict[bool, int] = {chess.WHITE: 0, chess.BLACK: 0}
        self._moves_made: dict[bool, int] = {chess.WHITE: 0, chess.BLACK: 0}
        self._last_at = 0.0
        #: a Guidelines III.5 claim: {"player": color, "status": "claimed"|"postponed"|"flag"}
        self._quickplay: dict[str, Any] | None = None
        #: a Guidelines III.4 increment request awaiting the arbiter
        self._increment_request: chess.Color | None = None
        # a start position may already be over (mate, stalemate, dead, 9.6.2)
        start_end = automatic_end(self.history, self.dead_test)
        if start_end is not None:
            self._finish_ruling(None, 0.0, start_end)

    # ----------------------------------------------------------- public API
    @classmethod
    def from_log(cls, config: Any, events: Iterable[dict[str, Any]], *,
                 dead_test: DeadTest = material_dead_test) -> Arbiter:
        """Rebuild an arbiter from its configuration and accepted events.

        >>> a = Arbiter({})
        >>> _ = a.apply({"type": "move", "player": "white", "move": "e4", "at": 3})
        >>> Arbiter.from_log({}, a.events()).state() == a.state()
        True
        """
        arbiter = cls(config, dead_test=dead_test)
        for n, event in enumerate(events):
            try:
                arbiter.apply(event)
            except RefusedEvent as exc:
                raise RefusedEvent(f"event {n}: {exc.message}") from None
        return arbiter

    def events(self) -> list[dict[str, Any]]:
        """The accepted events, in order (the log from which to rebuild).

        >>> Arbiter({}).events()
        []
        """
        return [dict(e) for e in self._events]

    def apply(self, event: Any) -> dict[str, Any]:
        """Apply one event and return the new state; :class:`RefusedEvent` if
        it cannot happen (the state is then unchanged).

        >>> a = Arbiter({})
        >>> a.apply({"type": "move", "player": "black", "move": "e5"})
        Traceback (most recent call last):
        ...
        remis.arbiter.events.RefusedEvent: black cannot move: white has the move
        """
        ev = parse_event(event)
        at = self._last_at if ev.at is None else ev.at
        if at < self._last_at:
            raise RefusedEvent(f"'at' {_secs(at)} is earlier than the previous event "
                               f"({_secs(self._last_at)})")
        saved = self._snapshot()
        index = len(self._events)
        try:
            self._dispatch(ev, at, index)
        except RefusedEvent:
            self._restore(saved)
            raise
        self._events.append(dict(event))
        self._last_at = at
        return self.state()

    def state(self) -> dict[str, Any]:
        """The state after the last accepted event (a JSON-serialisable dict).

        >>> s = Arbiter({"time_control": "60+1"}).state()
        >>> s["over"], s["to_move"], s["clocks"], s["claimable"]
        (False, 'white', {'white': 60, 'black': 60}, [])
        """
        board = self.history.board
        end = self._end
        over = end is not None
        out: dict[str, Any] = {
            "over": over,
            "result": end["result"] if end else None,
            "termination": end["termination"] if end else None,
            "article": end["article"] if end else None,
            "explanation": end["explanation"] if end else None,
            "message": end["message"] if end else None,
            "params": dict(end["params"]) if end else None,
            "to_move": color_name(board.turn),
            "ply": self.history.ply,
            "fen": fast_fen(board),
            "clocks": {k: (None if v is None else _secs(v))
                       for k, v in self._clock.to_json(self._last_at).items()},
            "pending_offer": None if self._pending_offer is None else color_name(
                self._pending_offer),
            "claimable": [] if over else [c.to_json() for c in claimable(self.history)],
            "illegal_moves": {"white": self._illegal[chess.WHITE],
                              "black": self._illegal[chess.BLACK]},
            "intended_move": {color_name(c): board.san(m) if board.is_legal(m) else m.uci()
                              for c, m in self._intended.items()} or None,
            "awaiting_arbiter": self._awaiting(),
            "log": [dict(e) for e in self._log],
        }
        if end and end.get("evidence"):
            out["evidence"] = dict(end["evidence"])
        if self.config.armageddon:
            out["match_result"] = None if not over else (
                "0-1" if end and end["result"] == DRAW else end["result"] if end else None)
        return out

    # ------------------------------------------------------------ internals
    def _snapshot(self) -> tuple[Any, ...]:
        return (self._clock.copy(), self._pending_offer, self._touched, self._touch_square,
                dict(self._intended),
                dict(self._illegal), dict(self._moves_made), len(self._log), self._end,
                None if self._quickplay is None else dict(self._quickplay),
                self._increment_request, self.history.ply)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (self._clock, self._pending_offer, self._touched, self._touch_square, self._intended,
         self._illegal,
         self._moves_made, nlog, self._end, self._quickplay, self._increment_request,
         ply) = saved
        del self._log[nlog:]
        while self.history.ply > ply:
            self.history.pop()

    def _awaiting(self) -> dict[str, Any] | None:
        if self._quickplay is not None and self._quickplay["status"] in ("claimed", "flag"):
            return {"kind": "quickplay", "player": color_name(self._quickplay["player"]),
                    "article": "III.5"}
        if self._increment_request is not None:
            return {"kind": "increment", "player": color_name(self._increment_request),
                    "article": "III.4"}
        return None

    def _note(self, index: int | None, at: float, message: str, params: dict[str, Any],
              article: str | None = None) -> None:
        self._log.append({"event": index, "ply": self.history.ply, "at": _secs(at),
                          "article": article or params.get("article"), "message": message,
                          "params": params, "explanation": render(message, params)})

    def _finish(self, index: int | None, at: float, result: str, termination: str, article: str,
                message: str, params: dict[str, Any],
                evidence: dict[str, Any] | None = None) -> None:
        self._clock.pause(at)
        self._pending_offer = None
        self._quickplay = None
        self._increment_request = None
        self._end = {"result": result, "termination": termination, "article": article,
                     "message": message, "params": params,
                     "explanation": render(message, params), "evidence": evidence or {}}
        self._note(index, at, message, params, article)
        if self.config.armageddon and result == DRAW:
            self._note(index, at, "armageddon", {}, "Armageddon")

    def _finish_ruling(self, index: int | None, at: float, ruling: Any) -> None:
        self._finish(index, at, ruling.result, ruling.termination, ruling.article,
                     ruling.message, dict(ruling.params), dict(getattr(ruling, "evidence", {})))

    def _cannot_mate(self, color: chess.Color) -> str | None:
        """The proof that ``color`` cannot checkmate, or None (can, or unproven)."""
        try:
            verdict = can_checkmate(self.history.board, color)
        except ValueError:  # a position the engine refuses: no proof, so "can mate"
            return None
        return verdict.reason if verdict.value is False else None

    def _lose_or_draw(self, index: int, at: float, loser: chess.Color, termination: str,
                      article: str, loss_msg: str, draw_msg: str,
                      params: dict[str, Any]) -> None:
        """End with a loss for ``loser`` unless the opponent cannot mate (draw)."""
        winner = not loser
        reason = self._cannot_mate(winner)
        if reason is None:
            self._finish(index, at, win_for(winner), termination, article, loss_msg, params)
        else:
            self._finish(index, at, DRAW, termination, article, draw_msg,
                         {**params, "reason": reason})

    def _require_on_move(self, color: chess.Color, what: str) -> None:
        turn = self.history.board.turn
        if color != turn:
            raise RefusedEvent(f"{color_name(color)} cannot {what}: {color_name(turn)} has the "
                               "move")

    def _agreement_barred(self) -> str | None:
        n = self.config.no_agreement_before_move
        if n and min(self._moves_made.values()) < n:
            return (f"the event regulations forbid draw offers and agreements before both "
                    f"players have made {n} moves (Article 9.1.1)")
        return None

    def _parse_move(self, text: str) -> chess.Move | None:
        """A legal move from SAN or UCI text, else None."""
        board = self.history.board
        if _UCI.match(text):
            move = chess.Move.from_uci(text)
            return move if board.is_legal(move) else None
        try:
            return board.parse_san(text)
        except ValueError:
            return None

    # ------------------------------------------------------------ dispatch
    def _dispatch(self, ev: Event, at: float, index: int) -> None:
        if self._end is not None:
            raise RefusedEvent(f"the game is over ({self._end['termination']}, Article "
                               f"{self._end['article']})")
        awaiting = self._awaiting()
        if awaiting is not None and ev.type not in ("arbiter", "resign", "accept_draw",
                                                    "decline_draw"):
            raise RefusedEvent(f"the clocks are stopped: {awaiting['player']}'s "
                               f"{awaiting['kind']} request awaits the arbiter's decision "
                               f"(Guidelines {awaiting['article']})")
        if self.config.mode == "online" and self._online_flag(ev, at, index):
            return
        handler = getattr(self, f"_on_{ev.type}")
        handler(ev, at, index)

    def _online_flag(self, ev: Event, at: float, index: int) -> bool:
        """Online, a flag falls by itself: an event arriving after the running
        player's time ran out finds the game already lost (or drawn) on time."""
        if ev.type == "flag":
            return False
        running = self._clock.running
        fell = self._clock.fell_at(running, at)
        if fell is None or (fell == at and ev.type == "move" and ev.color == running):
            return False
        self._flag_ruling(running, fell, index, at)
        self._note(index, at, "online_flag", {"player": _title(running), "time": _secs(fell)},
                   "6.9")
        return True

    # moves ---------------------------------------------------------------
    def _on_move(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None and ev.move is not None
        color = ev.color
        self._require_on_move(color, "move")
        move = self._parse_move(ev.move)
        if move is None:
            if self.config.mode == "online":
                raise RefusedEvent(f"{ev.move!r} is not a legal move here; the server rejects "
                                   "illegal moves")
            raise RefusedEvent(f"{ev.move!r} is not a legal move for {color_name(color)} here "
                               "(report a completed illegal move with an illegal_move event)")
        required = self._intended.get(color)
        if required is not None and move != required:
            board = self.history.board
            raise RefusedEvent(f"{color_name(color)} must play the written move "
                               f"{board.san(required)} (Article 9.5.3)")
        if required is None:
            self._check_touch_move(move)
        if color in self.config.auto_claim_threefold and self.history.may_repeat_after_move():
            claim = rule_on_claim(self.history, player=color, kind="threefold_repetition",
                                  move=move, dead_test=self.dead_test)
            if claim.valid:  # 9.2.1 on the player's behalf: the move is not played
                self._note(index, at, "online_auto_claim", {"player": _title(color)}, "9.2.1")
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
                raise RefusedEvent(f"the touched piece on {name} must be moved (Article 4.3.1)")
        elif move.to_square != sq and any(
                m.to_square == sq for m in board.generate_legal_moves(
                    chess.BB_ALL, chess.BB_SQUARES[sq])):
            raise RefusedEvent(f"the touched piece on {name} must be captured (Article 4.3.2)")

    def _play(self, move: chess.Move, color: chess.Color, at: float, index: int, *,
              increment: bool = True) -> None:
        """Complete ``move`` (pressing the clock) and apply the automatic ends."""
        if self._pending_offer == (not color):
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_move",
                       {"player": _title(color), "opponent": _title(not color),
                        "article": "9.1.2.1"})
        self._clock.press(color, at, increment=increment)
        self._moves_made[color] += 1
        self.history.push(move)
        self._touched = None
        self._touch_square = None
        self._intended.pop(color, None)
        end = automatic_end(self.history, self.dead_test)
        if end is not None:
            self._finish_ruling(index, at, end)
            return
        mover = self.history.board.turn
        if mover in self.config.auto_claim_threefold and self.history.count() >= 3:
            claim = rule_on_claim(self.history, player=mover, kind="threefold_repetition",
                                  dead_test=self.dead_test)
            if claim.valid:
                self._note(index, at, "online_auto_claim", {"player": _title(mover)}, "9.2.2")
                self._finish(index, at, DRAW, claim.kind, claim.article, claim.message,
                             dict(claim.params))

    # offers --------------------------------------------------------------
    def _on_offer_draw(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        barred = self._agreement_barred()
        if barred:
            raise RefusedEvent(barred)
        if self._pending_offer == color:
            raise RefusedEvent(f"{color_name(color)}'s draw offer is already pending")
        if self._pending_offer is not None:
            raise RefusedEvent(f"{color_name(not color)}'s draw offer is pending: accept or "
                               "decline it")
        self._pending_offer = color
        self._note(index, at, "draw_offered",
                   {"player": _title(color), "opponent": _title(not color), "article": "9.1.2"})

    def _on_accept_draw(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        if self._pending_offer != (not color):
            raise RefusedEvent(f"{color_name(color)} has no draw offer to accept")
        if min(self._moves_made.values()) < 1:
            raise RefusedEvent("a draw can be agreed only after both players have made at "
                               "least one move (Article 5.2.3)")
        barred = self._agreement_barred()
        if barred:
            raise RefusedEvent(barred)
        if self._increment_request == (not color):
            self._increment_request = None
        self._finish(index, at, DRAW, "agreement", "5.2.3", "draw_agreed",
                     {"player": _title(color), "opponent": _title(not color),
                      "article": "5.2.3"})

    def _on_decline_draw(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        if self._pending_offer != (not color):
            raise RefusedEvent(f"{color_name(color)} has no draw offer to decline")
        self._pending_offer = None
        self._note(index, at, "draw_declined", {"player": _title(color), "article": "9.1.2.1"})

    def _on_touch(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        self._require_on_move(color, "touch a piece to move it")
        self._touched = color
        if ev.square is not None and self._touch_square is None:
            self._touch_square = chess.parse_square(ev.square)
        self._note(index, at, "touched", {"player": _title(color), "article": "9.4"})
        if self._pending_offer == (not color):
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_touch",
                       {"player": _title(color), "opponent": _title(not color),
                        "article": "9.1.2.1"})

    # claims --------------------------------------------------------------
    def _on_claim(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        if ev.kind in ("quickplay", "increment"):
            self._quickplay_request(ev, color, at, index)
            return
        self._require_on_move(color, "claim a draw (only the player having the move may "
                              "claim, Articles 9.2 and 9.3)")
        if self._touched == color:
            raise RefusedEvent(f"{color_name(color)} has touched a piece and may not claim on "
                               "this move (Article 9.4)")
        if color in self._intended:
            raise RefusedEvent(f"{color_name(color)} must first play the written move "
                               f"{self.history.board.san(self._intended[color])} (Article 9.5.3)")
        cfg = self.config
        claim = rule_on_claim(self.history, player=color, kind=ev.kind, move=ev.move,
                              penalty_seconds=cfg.penalty_seconds, dead_test=self.dead_test)
        if claim.message == "claim_illegal_move":
            raise RefusedEvent(f"the written move {ev.move!r} is not legal here, so it cannot "
                               "support a claim")
        if claim.valid:
            self._finish(index, at, DRAW, claim.kind, claim.article, claim.message,
                         dict(claim.params))
            return
        if cfg.mode == "online":
            raise RefusedEvent(f"no draw can be claimed here ({claim.explanation.split(';')[0]})")
        self._note(index, at, claim.message, dict(claim.params), claim.article)
        self._penalise(not color, at, index, "9.5.3" if cfg.mode == "standard"
                       else cfg.penalty_article)
        if self._agreement_barred() is None:
            self._pending_offer = color
            self._note(index, at, "claim_as_offer", {"player": _title(color),
                                                     "article": "9.1.2.3"})
        if ev.move is not None:
            move = self._parse_move(ev.move)
            assert move is not None
            self._intended[color] = move
            self._note(index, at, "intended_move_required",
                       {"player": _title(color), "move": claim.move or ev.move,
                        "article": "9.5.3"})

    def _penalise(self, color: chess.Color, at: float, index: int, article: str,
                  seconds: float | None = None) -> None:
        """Give ``color`` the penalty time of the mode (or ``seconds``)."""
        if not self._clock.clocked:
            return
        secs = self.config.penalty_seconds if seconds is None else seconds
        if self._clock.add(color, secs, at):
            self._note(index, at, "penalty", {"player": _title(color), "seconds": _secs(secs),
                                              "article": article})
        else:
            self._note(index, at, "penalty_not_given", {"player": _title(color)}, "6.8")

    # Guidelines III ------------------------------------------------------
    def _quickplay_request(self, ev: Event, color: chess.Color, at: float, index: int) -> None:
        cfg = self.config
        art = "III.5" if ev.kind == "quickplay" else "III.4"
        if not cfg.quickplay_finish:
            raise RefusedEvent(f"Guidelines III ({art}) apply only if announced beforehand "
                               "(III.2.1): set quickplay_finish in the config")
        self._require_on_move(color, f"make a Guidelines {art} request (only the player "
                              "having the move)")
        left = self._clock.remaining(color, at)
        if left <= 0:
            raise RefusedEvent(f"{color_name(color)}'s flag has already fallen")
        if left >= _QUICKPLAY_LIMIT:
            raise RefusedEvent(f"{color_name(color)} has {_secs(left)} s left; a Guidelines "
                               f"{art} request needs less than two minutes")
        if self._clock.increment(color) > 0:
            raise RefusedEvent(f"the game already has an increment; Guidelines {art} does not "
                               "apply")
        if self._quickplay is not None:
            raise RefusedEvent(f"{color_name(self._quickplay['player'])}'s claim under "
                               "Guidelines III.5 is still undecided")
        self._clock.pause(at)
        if ev.kind == "quickplay":
            self._quickplay = {"player": color, "status": "claimed"}
            self._note(index, at, "quickplay_claimed",
                       {"player": _title(color), "time": _secs(left), "article": "III.5"})
        else:
            self._increment_request = color
            self._pending_offer = color
            self._note(index, at, "increment_requested",
                       {"player": _title(color), "seconds": int(_III_INCREMENT),
                        "article": "III.4"})

    def _on_arbiter(self, ev: Event, at: float, index: int) -> None:
        decision = ev.decision
        extra = _III_EXTRA if ev.seconds is None else ev.seconds
        if self._increment_request is not None:
            requester = self._increment_request
            self._increment_request = None
            if self._pending_offer == requester:
                self._pending_offer = None
            if decision == "accept":
                self._clock.extra_increment = _III_INCREMENT
                self._note(index, at, "increment_granted",
                           {"seconds": int(_III_INCREMENT), "article": "III.4"})
                self._penalise(not requester, at, index, "III.4", extra)
            elif decision == "reject":
                self._note(index, at, "increment_refused", {"article": "III.4"})
            else:
                raise RefusedEvent("an increment request (III.4) is granted or refused, not "
                                   "postponed")
            self._clock.resume(at)
            return
        qp = self._quickplay
        if qp is None:
            raise RefusedEvent("no claim awaits the arbiter's decision")
        claimant: chess.Color = qp["player"]
        params = {"player": _title(claimant), "article": "III.5"}
        if decision == "accept":
            self._finish(index, at, DRAW, "quickplay_finish", "III.5", "quickplay_accepted",
                         params)
        elif qp["status"] == "flag":
            if decision != "reject":
                raise RefusedEvent("after the flag fell the arbiter must accept or reject the "
                                   "claim (Guidelines III.5)")
            self._note(index, at, "quickplay_rejected", params, "III.5")
            self._flag_ruling(claimant, qp["fell"], index, at)
        elif decision == "postpone":
            if qp["status"] == "postponed":
                raise RefusedEvent("the decision is already postponed")
            qp["status"] = "postponed"
            self._note(index, at, "quickplay_postponed", params, "III.5")
            self._penalise(not claimant, at, index, "III.5", extra)
            self._clock.resume(at)
        else:
            self._quickplay = None
            self._note(index, at, "quickplay_rejected", params, "III.5")
            self._penalise(not claimant, at, index, "III.5", extra)
            self._clock.resume(at)

    # flags ---------------------------------------------------------------
    def _on_flag(self, ev: Event, at: float, index: int) -> None:
        clock = self._clock
        if not clock.clocked:
            raise RefusedEvent("this game is played without a clock")
        if ev.color is None:
            self._both_flags(at, index)
            return
        color = ev.color
        fell = clock.fell_at(color, at)
        if fell is None:
            raise RefusedEvent(f"{color_name(color)}'s flag has not fallen: "
                               f"{_secs(clock.remaining(color, at))} s left at {_secs(at)} s")
        qp = self._quickplay
        if qp is not None and qp["player"] == color and qp["status"] == "postponed":
            qp["status"] = "flag"
            qp["fell"] = fell
            clock.pause(at)
            self._note(index, at, "quickplay_flag_pending", {"player": _title(color),
                                                             "article": "III.5"}, "III.5")
            return
        self._flag_ruling(color, fell, index, at)

    def _flag_ruling(self, color: chess.Color, fell: float, index: int, at: float) -> None:
        cfg = self.config
        article = "A.5.3" if (cfg.mode in ("rapid", "blitz") and cfg.supervision == "partial") \
            else "6.9"
        params = {"player": _title(color), "opponent": _title(not color), "time": _secs(fell),
                  "article": article}
        self._lose_or_draw(index, at, color, "time_forfeit", article, "flag_loss", "flag_draw",
                           params)

    def _both_flags(self, at: float, index: int) -> None:
        clock = self._clock
        fell = {c: clock.fell_at(c, at) for c in chess.COLORS}
        if fell[chess.WHITE] is None or fell[chess.BLACK] is None:
            up = chess.WHITE if fell[chess.WHITE] is None else chess.BLACK
            raise RefusedEvent(f"{color_name(up)}'s flag has not fallen: "
                               f"{_secs(clock.remaining(up, at))} s left at {_secs(at)} s")
        if self.config.quickplay_finish:
            if all(clock.in_last_period(c) for c in chess.COLORS):
                self._finish(index, at, DRAW, "both_flags", "III.3.1.2", "both_flags_draw",
                             {"article": "III.3.1.2"})
                return
            for c in chess.COLORS:
                clock.next_period(c, at)
            self._note(index, at, "both_flags_continue", {"article": "III.3.1.1"}, "III.3.1.1")
            return
        w, b = fell[chess.WHITE], fell[chess.BLACK]
        assert w is not None and b is not None
        first = chess.WHITE if w <= b else chess.BLACK
        first_time = min(w, b)
        self._note(index, at, "flag_first", {"player": _title(first), "time": _secs(first_time)},
                   "6.9")
        self._flag_ruling(first, first_time, index, at)

    # illegal moves -------------------------------------------------------
    def _on_illegal_move(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        cfg = self.config
        color = ev.color
        if cfg.mode == "online":
            raise RefusedEvent("online, illegal moves are rejected by the server and never "
                               "completed")
        self._require_on_move(color, "complete a move")
        caller = ev.called_by or ("arbiter" if cfg.full_supervision else "opponent")
        kind = ev.kind or "move"
        move_text = f" ({ev.move})" if ev.move else ""
        base = {"player": _title(color), "opponent": _title(not color)}
        if self._pending_offer == (not color):  # the player handled a piece: 9.1.2.1
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_touch", {**base, "article": "9.1.2.1"})
        if caller == "nobody":
            if cfg.full_supervision:
                raise RefusedEvent("under full supervision the arbiter acts on every completed "
                                   "illegal move (Article 7.5.1; A.4, B.2): called_by cannot be "
                                   "'nobody'")
            self._illegal_stands(ev, color, at, index, base, move_text)
            return
        if kind == "unpromoted_pawn":
            move = self._unpromoted(ev)
            self._note(index, at, "illegal_promoted", {**base, "move": self.history.board.san(
                move), "article": "7.5.2"}, "7.5.2")
            self._play(move, color, at, index, increment=False)
        elif kind == "two_hands":
            legal = self._parse_move(ev.move or "")
            if legal is None:
                raise RefusedEvent("a two-handed move (7.5.4) needs the legal 'move' that was "
                                   "made")
            self._note(index, at, "illegal_two_hands",
                       {**base, "move": self.history.board.san(legal), "article": "7.5.4"},
                       "7.5.4")
            self._play(legal, color, at, index, increment=False)
        else:
            if ev.move is not None and self._parse_move(ev.move) is not None:
                raise RefusedEvent(f"{ev.move!r} is a legal move; play it with a move event")
            article = "7.5.3" if kind == "no_move" else "7.5.1"
            self._note(index, at, "illegal_corrected", {**base, "move_text": move_text,
                                                        "article": article}, article)
            self._touched = color
            # 7.5.1: touch-move (4.3) applies to the replacement move
            if ev.move and _UCI.match(ev.move) and self._touch_square is None:
                square = chess.parse_square(ev.move[:2])
                piece = self.history.board.piece_at(square)
                if piece is not None and piece.color == color:
                    self._touch_square = square
        if self._end is not None:
            return
        self._illegal[color] += 1
        if self._illegal[color] >= 2:
            self._lose_or_draw(index, at, color, "illegal_move", "7.5.5", "illegal_second_loss",
                               "illegal_second_draw", {**base, "article": "7.5.5"})
        else:
            self._penalise(not color, at, index, "7.5.5" if cfg.mode == "standard"
                           else cfg.penalty_article)

    def _unpromoted(self, ev: Event) -> chess.Move:
        board = self.history.board
        text = ev.move or ""
        move: chess.Move | None
        try:
            move = chess.Move.from_uci(text[:4])
        except ValueError:
            move = None
        if move is None:
            try:
                move = board.parse_san(text + "=Q")
            except ValueError:
                move = None
        if move is not None:
            move = chess.Move(move.from_square, move.to_square, chess.QUEEN)
        if move is None or not board.is_legal(move):
            raise RefusedEvent("an unpromoted pawn (7.5.2) needs 'move': the pawn's move to the "
                               "last rank, e.g. 'e7e8'")
        return move

    def _illegal_stands(self, ev: Event, color: chess.Color, at: float, index: int,
                        base: dict[str, Any], move_text: str) -> None:
        """A.5.2 / B.3: an illegal move nobody called before the opponent's next
        move stands.  It is played on the board if the result is a valid position."""
        board = self.history.board
        kind = ev.kind or "move"
        if kind == "no_move":
            move = chess.Move.null()
            trial = board.copy(stack=False)
            trial.push(move)
            if board.is_check() or not trial.is_valid():
                raise RefusedEvent("a clock press without a move cannot stand on the board "
                                   "here (the player is in check)")
        elif kind == "two_hands":
            parsed = self._parse_move(ev.move or "")
            if parsed is None:
                raise RefusedEvent("a two-handed move (7.5.4) needs the legal 'move' that was "
                                   "made")
            move = parsed
        else:
            move = self._standing_move(ev.move)
        self._note(index, at, "illegal_stands", {**base, "move_text": move_text,
                                                 "article": "A.5.2"}, "A.5.2")
        self._play(move, color, at, index)

    def _standing_move(self, text: str | None) -> chess.Move:
        board = self.history.board
        if text is None:
            raise RefusedEvent("an illegal move that stands needs 'move' in UCI (e.g. 'e1e3') "
                               "so that it can be played on the board")
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            raise RefusedEvent(f"an illegal move that stands must be given in UCI, not "
                               f"{text!r}") from None
        if board.is_legal(move):
            raise RefusedEvent(f"{text!r} is a legal move; play it with a move event")
        piece = board.piece_at(move.from_square)
        target = board.piece_at(move.to_square)
        if piece is None or piece.color != board.turn or move.drop is not None or (
                target is not None and (target.color == board.turn
                                        or target.piece_type == chess.KING)):
            raise RefusedEvent(f"{text!r} does not move one of the mover's pieces to a free or "
                               "enemy (non-king) square")
        if move.promotion is not None and piece.piece_type != chess.PAWN:
            raise RefusedEvent(f"{text!r}: only a pawn can promote")
        trial = board.copy(stack=False)
        trial.push(move)
        if not trial.is_valid():
            raise RefusedEvent(f"{text!r} would leave an impossible position on the board "
                               "(A.5.4 cases are not supported); it cannot stand")
        return move

    # resignation ---------------------------------------------------------
    def _on_resign(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        self._quickplay = None
        self._increment_request = None
        params = {"loser": _title(color), "winner": _title(not color), "article": "5.1.2"}
        self._lose_or_draw(index, at, color, "resignation", "5.1.2", "resigned",
                           "resigned_draw", params)

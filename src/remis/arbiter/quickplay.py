"""Guidelines III (games without increment, quickplay finishes): the III.4
increment request, the III.5 claim and the arbiter's decision on it, and both
flags down (III.3.1).  Announced in the config with ``quickplay_finish``.
"""

from __future__ import annotations

import chess

from remis.arbiter.base import (
    _III_EXTRA,
    _III_INCREMENT,
    _QUICKPLAY_LIMIT,
    ArbiterBase,
    _secs,
    _title,
)
from remis.arbiter.clock import clock_text
from remis.arbiter.events import Event, RefusedEvent
from remis.ruling import DRAW, color_name


class QuickplayFinish(ArbiterBase):
    """Guidelines III events of :class:`~remis.arbiter.Arbiter`.

    >>> QuickplayFinish({"time_control": "60", "quickplay_finish": True}).config.quickplay_finish
    True
    """

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
                       {"player": _title(color), "time": _secs(left),
                        "clock": clock_text(left), "article": "III.5"})
        else:
            self._increment_request = color
            self._pending_offer = color
            self._consented = None
            self._note(index, at, "increment_requested",
                       {"player": _title(color), "seconds": int(_III_INCREMENT),
                        "article": "III.4"})

    def _on_arbiter(self, ev: Event, at: float, index: int) -> None:
        decision = ev.decision
        if self._consent is not None:
            self._consent_decision(decision, at, index)
            return
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

    def _consent_decision(self, decision: str | None, at: float, index: int) -> None:
        """9.1.1: the arbiter consents to a draw offer (it then stands as any
        offer, 9.1.2.1) or does not (the game continues)."""
        offerer = self._consent
        assert offerer is not None
        self._consent = None
        params = {"player": _title(offerer), "opponent": _title(not offerer),
                  "article": "9.1.1"}
        if decision == "accept":
            self._pending_offer = offerer
            self._consented = offerer
            self._note(index, at, "draw_consent_given", params)
        elif decision == "reject":
            self._note(index, at, "draw_consent_refused", params)
        else:
            raise RefusedEvent("the arbiter consents to a draw offer (accept) or not (reject) "
                               "under Article 9.1.1; it is not postponed")
        self._clock.resume(at)

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
        self._note(index, at, "flag_first",
                   {"player": self._name(first), "time": _secs(first_time)}, "6.9")
        self._flag_ruling(first, first_time, index, at)

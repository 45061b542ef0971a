"""The state of a live game under the arbiter and the helpers every event
handler shares: snapshot and restore (a refused event changes nothing), notes
and endings with their articles, "can the opponent still mate" (6.9, 5.1.2,
7.5.5), penalties, and completing a move.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import chess

from remis.arbiter.clock import Clock
from remis.arbiter.config import Config
from remis.arbiter.events import RefusedEvent
from remis.arbiter.messages import render
from remis.arbiter.state import ArbiterState, Awaiting, ClockFields, Clocks, LogEntry
from remis.history import History
from remis.identity import position_key
from remis.rules import (
    DeadTest,
    DeadVerdict,
    automatic_end,
    checkmate_or_stalemate,
    fivefold,
    rule_on_claim,
    seventyfive_moves,
)
from remis.ruling import DRAW, color_name, move_label, win_for
from remis.unwinnable import Verdict, can_checkmate
from remis.unwinnable.deadtest import EngineDeadTest, dead_verdict
from remis.unwinnable.first_dead import FirstDead, first_dead, full_dead_test, positions

_QUICKPLAY_LIMIT = 120.0  # Guidelines III.4/III.5: less than two minutes
_III_EXTRA = 120.0  # III.4/III.5: the opponent's two extra minutes
_III_INCREMENT = 5.0  # III.4: five seconds a move
_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")

#: "can ``color`` still checkmate on ``board``?" (6.9, 5.1.2, 7.5.5)
MateTest = Callable[[chess.Board, chess.Color], Verdict]


def illegal_position(board: chess.Board) -> bool:
    """True when ``board`` shows a position no series of legal moves reaches
    (3.10.3) in one of the ways an illegal move that stood can leave: a pawn
    on the rank furthest from its start, or the side that just moved in check.

    >>> illegal_position(chess.Board("4P3/8/8/8/8/k7/8/4K3 b - - 0 1"))
    True
    >>> illegal_position(chess.Board())
    False
    """
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    return bool(white_pawns & chess.BB_RANK_8 or black_pawns & chess.BB_RANK_1) \
        or board.was_into_check()


def _title(color: chess.Color) -> str:
    return "White" if color else "Black"


#: below this many milliseconds a double's product by 1000 is within 1e-7 of
#: the exact product, so that :func:`_secs` can tell a tie from the rest
_EXACT_MS = float(2 ** 30)


def _secs(t: float) -> float | int:
    """Seconds as the state shows them: ``round(t, 3)``, whole numbers as
    ints.  ``round`` with digits converts through a decimal string, and it ran
    several times for every event: away from a tie (half a millisecond) the
    nearest millisecond is read off ``t * 1000`` instead, which gives the same
    double (``n / 1000`` is correctly rounded).

    >>> [_secs(t) for t in (60.0, 59.9996, 0.0005, 1.0015, 12.3456789, 2.675)]
    [60, 60, 0.001, 1.002, 12.346, 2.675]
    """
    if t == int(t):  # whole seconds: nothing to round (the usual case)
        return int(t)
    ms = t * 1000.0
    whole = math.floor(ms)
    frac = ms - whole
    if abs(frac - 0.5) < 1e-6 or not 0.0 <= ms < _EXACT_MS:
        r = round(t, 3)  # a tie, or too large to tell: the exact rule
    else:
        r = (whole + (frac > 0.5)) / 1000.0
    return int(r) if r == int(r) else r


class ArbiterBase:
    """The game state and shared machinery of :class:`~remis.arbiter.Arbiter`.

    >>> ArbiterBase({"time_control": "60"}).history.ply
    0
    """

    #: the engine's search behind "can the opponent still checkmate?"; a caller (the
    #: HTTP service) may set, per instance, a callable that runs the same search
    #: elsewhere, e.g. in a worker process: the same answers, off its own threads
    mate_test: MateTest = staticmethod(can_checkmate)

    def __init__(self, config: Any = None, *, dead_test: DeadTest | None = None) -> None:
        self.config = Config.from_dict(config)
        self.dead_test = EngineDeadTest() if dead_test is None else dead_test
        # the history asks the dead test within each push; the arbiter reads the
        # python-chess board only where a rule needs it (lazy); the usual start is
        # the core's own (a board given would be read back from its FEN)
        board = self.config.board() if self.config.start_fen else None
        self.history = History(board, dead_test=self.dead_test, lazy=True)
        self._start_game(self.history.turn)
        # a game set up in a position that has already ended (mate, stalemate, a
        # dead position, 75 moves without progress) is over before its first move,
        # as remis position and remis game say of that position
        start_end = automatic_end(self.history, self.dead_test)
        if start_end is not None:
            self._finish_ruling(None, 0.0, start_end)

    def _start_game(self, start_turn: chess.Color) -> None:
        """The bookkeeping every game starts with (chess and variants alike)."""
        self._start_turn: chess.Color = start_turn
        self._clock = Clock(self.config.time_controls, start_turn,
                            first_move=self.config.clock_start == "first_move")
        self._events: list[dict[str, Any]] = []
        self._log: list[LogEntry] = []
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
        #: illegal moves on the board that nobody called yet: ply -> (player, kind, move)
        self._standing: dict[int, tuple[chess.Color, str, chess.Move]] = {}
        #: A.5.4: the ply after which the arbiter saw an illegal position (both
        #: kings in check, a pawn on the last rank) and waits for the next move
        self._a54: int | None = None
        #: 9.1.1: a draw offer awaiting the arbiter's consent
        self._consent: chess.Color | None = None
        #: 9.1.1: the player whose pending draw offer has the arbiter's consent
        self._consented: chess.Color | None = None

    def _state(self, to_move: str, fen: str, claimable: list[dict[str, Any]],
               illegal_moves: dict[str, int], intended_move: dict[str, str] | None,
               awaiting: Awaiting | None) -> ArbiterState:
        """The state (chess and variants alike) from the keys that differ:
        the end of the game (all None while it goes on), the clocks and the
        pending offer are added here.

        >>> ArbiterBase({"time_control": "60"})._state("white", "", [], {}, None, None)["over"]
        False
        """
        end = self._end
        clocks = self._clock_fields()
        return {
            "over": end is not None,
            "result": None if end is None else end["result"],
            "termination": None if end is None else end["termination"],
            "article": None if end is None else end["article"],
            "explanation": None if end is None else end["explanation"],
            "message": None if end is None else end["message"],
            "params": None if end is None else dict(end["params"]),
            "to_move": to_move,
            "ply": self.history.ply,
            "fen": fen,
            "clocks": clocks["clocks"],
            "clock": clocks["clock"],
            "pending_offer": None if self._pending_offer is None else color_name(
                self._pending_offer),
            "claimable": claimable,
            "illegal_moves": illegal_moves,
            "intended_move": intended_move,
            "awaiting_arbiter": awaiting,
        }

    def _clock_fields(self) -> ClockFields:
        """The state's clocks at the last event (``clocks``) and ``clock``: which
        one runs from then on (None while they stand: no clock, game over, not
        started, stopped for the arbiter) and the time ``at`` of that event, so
        that a client shows a running clock without guessing.

        >>> ArbiterBase({"time_control": "60"})._clock_fields()
        {'clocks': {'white': 60, 'black': 60}, 'clock': {'running': 'white', 'at': 0}}
        """
        clock = self._clock
        at = self._last_at
        clocks: Clocks
        if clock.clocked:
            running = not clock.paused and self._end is None
            white, black = clock.faces(at)
            clocks = {"white": _secs(white), "black": _secs(black)}
        else:
            running = False
            clocks = {"white": None, "black": None}
        return {"clocks": clocks,
                "clock": {"running": color_name(clock.running) if running else None,
                          "at": _secs(at)}}

    def _touch_rejects_offer(self, color: chess.Color, at: float, index: int) -> None:
        """A touch by ``color`` rejects the opponent's pending draw offer (9.1.2.1)."""
        if self._pending_offer == (not color):
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_touch",
                       {"player": self._name(color), "opponent": self._name(not color),
                        "article": "9.1.2.1"})

    def _name(self, color: chess.Color) -> str:
        """The player's name in rulings: White or Black (a variant game uses
        its own names, see :mod:`remis.arbiter.variant`)."""
        return _title(color)

    def _snapshot(self) -> tuple[Any, ...]:
        # every event takes it: the clock's state as a tuple, the dicts that are
        # almost always empty copied only when they are not
        return (self._clock.save(), self._pending_offer, self._touched, self._touch_square,
                dict(self._intended) if self._intended else None,
                self._illegal[chess.WHITE], self._illegal[chess.BLACK],
                self._moves_made[chess.WHITE], self._moves_made[chess.BLACK], len(self._log),
                self._end, None if self._quickplay is None else dict(self._quickplay),
                self._increment_request, self.history.ply,
                dict(self._standing) if self._standing else None, self._a54,
                self._consent, self._consented)

    def _restore(self, saved: tuple[Any, ...]) -> None:
        (clock, self._pending_offer, self._touched, self._touch_square, intended,
         white_illegal, black_illegal, white_moves, black_moves, nlog, self._end,
         self._quickplay, self._increment_request, ply, standing, self._a54, self._consent,
         self._consented) = saved
        self._clock.load(clock)
        self._intended = intended or {}
        self._illegal = {chess.WHITE: white_illegal, chess.BLACK: black_illegal}
        self._moves_made = {chess.WHITE: white_moves, chess.BLACK: black_moves}
        self._standing = standing or {}
        del self._log[nlog:]
        while self.history.ply > ply:
            self.history.pop()

    def _awaiting(self) -> Awaiting | None:
        if self._quickplay is not None and self._quickplay["status"] in ("claimed", "flag"):
            return {"kind": "quickplay", "player": color_name(self._quickplay["player"]),
                    "article": "III.5"}
        if self._increment_request is not None:
            return {"kind": "increment", "player": color_name(self._increment_request),
                    "article": "III.4"}
        if self._consent is not None:
            return {"kind": "draw_offer", "player": color_name(self._consent),
                    "article": "9.1.1"}
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
        self._consent = None
        self._end = {"result": result, "termination": termination, "article": article,
                     "message": message, "params": params,
                     "explanation": render(message, params), "evidence": evidence or {}}
        self._note(index, at, message, params, article)
        if self.config.armageddon and result == DRAW:
            self._note(index, at, "armageddon", {}, "Armageddon")

    def _finish_ruling(self, index: int | None, at: float, ruling: Any) -> None:
        self._finish(index, at, ruling.result, ruling.termination, ruling.article,
                     ruling.message, dict(ruling.params), dict(getattr(ruling, "evidence", {})))

    def _mate_verdict(self, board: chess.Board, color: chess.Color) -> Verdict | None:
        """:attr:`mate_test`'s verdict, None for a position the engine refuses
        (no proof, so "can mate")."""
        try:
            return self.mate_test(board, color)
        except ValueError:
            return None

    def _lose_or_draw(self, index: int, at: float, loser: chess.Color, termination: str,
                      article: str, loss_msg: str, draw_msg: str,
                      params: dict[str, Any]) -> None:
        """End with a loss for ``loser`` unless the opponent cannot mate (draw);
        where neither side can mate, the game had already ended at the first
        dead position a move produced (5.2.2; the per-move test is cheap and
        lets a few dead positions go by, see :func:`_dead_since`)."""
        winner = not loser
        verdict = self._mate_verdict(self.history.board, winner)
        if verdict is None or verdict.value is not False:
            self._finish(index, at, win_for(winner), termination, article, loss_msg, params)
            return
        dead = self._dead_since(verdict)
        if dead is not None and dead.ply == 0:  # a game set up in a dead position
            self._finish(index, at, DRAW, dead.verdict.termination, "5.2.2",
                         "dead_found_at_start", {"ply": 0, "reason": dead.verdict.reason,
                                                 "article": "5.2.2"},
                         dict(dead.verdict.evidence))
            return
        if dead is not None:
            self._finish(index, at, DRAW, dead.verdict.termination, "5.2.2", "dead_found_late",
                         {"ply": dead.ply, "reason": dead.verdict.reason, "article": "5.2.2",
                          "after": move_label(dead.ply, self.history.board, self.history.ply)},
                         dict(dead.verdict.evidence))
            return
        self._finish(index, at, DRAW, termination, article, draw_msg,
                     {**params, "reason": verdict.reason})

    def _dead_since(self, proof: Verdict) -> FirstDead | None:
        """Where ``proof`` shows that one side cannot mate in the position on
        the board: if the other cannot either, the first position of the game
        that full mode proves dead (a binary search over the plies,
        :func:`~remis.unwinnable.first_dead.first_dead`), else None.  The
        position the game was set up in counts, as in ``remis game``: a game
        set up in a dead position has ended before its first move.  A
        position an illegal move that stood produced does not (5.2.2 asks
        for a move made under Article 3): then the first dead position after
        a legal move."""
        board = self.history.board
        other = self._mate_verdict(board, not proof.color)
        if other is None or other.value is not False:
            return None
        last = position_key(board)
        known = dead_verdict(*((proof, other) if proof.color else (other, proof)))

        def test(position: chess.Board) -> DeadVerdict | None:
            if position_key(position) == last:
                return known
            try:
                return full_dead_test(position, mate_test=self.mate_test)
            except ValueError:  # a position the engine refuses: no proof
                return None

        found = first_dead(board.root(), board.move_stack, last=board, test=test)
        if found is None or found.ply not in self._standing:
            return found
        # 5.2.2 ends the game only after a move made under Article 3: after an
        # illegal move that stood, the first dead position a legal move produced
        ply = found.ply
        while ply in self._standing:
            ply += 1
        if ply > self.history.ply:
            return None
        after = positions(board.root(), board.move_stack[:ply])[-1]
        verdict = test(after)
        return None if verdict is None else FirstDead(ply, verdict, after)

    def _require_on_move(self, color: chess.Color, what: str) -> None:
        turn = self.history.turn
        if color != turn:
            raise RefusedEvent(f"{color_name(color)} cannot {what}: {color_name(turn)} has the "
                               "move", "not_on_move", player=color_name(turn))

    def _agreement_barred(self) -> str | None:
        """Why the event regulations forbid a draw offer or agreement now
        without the arbiter's consent (9.1.1), or None."""
        if self.config.arbiter_only:
            return ("the event regulations allow draw offers and agreements only with the "
                    "arbiter's consent (Article 9.1.1)")
        n = self.config.no_agreement_before_move
        if n and min(self._moves_made.values()) < n:
            return (f"the event regulations forbid draw offers and agreements before both "
                    f"players have made {n} moves without the arbiter's consent (Article 9.1.1)")
        return None

    def _legal_uci(self, text: str) -> str | None:
        """The UCI of the legal move that SAN or UCI text names, else None
        (read by the core where it holds the position)."""
        core = self.history.core
        if core.exact:
            return core.legal_uci(text)
        move = self._board_move(text)
        return None if move is None else move.uci()

    def _parse_move(self, text: str) -> chess.Move | None:
        """A legal move from SAN or UCI text, else None."""
        uci = self._legal_uci(text)
        return None if uci is None else chess.Move.from_uci(uci)

    def _board_move(self, text: str) -> chess.Move | None:
        """:meth:`_parse_move` read by python-chess (a position the core does
        not hold: an illegal move stood)."""
        board = self.history.board
        if _UCI.match(text):
            move = chess.Move.from_uci(text)
            return move if board.is_legal(move) else None
        try:
            return board.parse_san(text)
        except ValueError:
            return None

    def _penalise(self, color: chess.Color, at: float, index: int, article: str,
                  seconds: float | None = None) -> None:
        """Give ``color`` the penalty time of the mode (or ``seconds``)."""
        if not self._clock.clocked:
            return
        secs = self.config.penalty_seconds if seconds is None else seconds
        if self._clock.add(color, secs, at):
            self._note(index, at, "penalty", {"player": self._name(color),
                                              "seconds": _secs(secs), "article": article})
        else:
            self._note(index, at, "penalty_not_given", {"player": self._name(color)}, "6.8")

    # Guidelines III ------------------------------------------------------

    def _play(self, move: chess.Move | str, color: chess.Color, at: float, index: int, *,
              increment: bool = True, legal: bool = True) -> None:
        """Complete ``move`` (pressing the clock) and apply the automatic ends;
        an illegal move that stands (``legal=False``) ends nothing under 5.1.1,
        5.2.1 or 5.2.2, whose provisos ask for a move in accordance with Article 3."""
        if self._pending_offer == (not color):
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_move",
                       {"player": self._name(color), "opponent": self._name(not color),
                        "article": "9.1.2.1"})
        self._clock.press(color, at, increment=increment)
        self._moves_made[color] += 1
        if isinstance(move, str):
            self.history.push_uci(move)
        else:
            self.history.push(move)
        self._touched = None
        self._touch_square = None
        self._intended.pop(color, None)
        end = self._automatic_end(legal)
        if end is not None:
            self._finish_ruling(index, at, end)
            return
        if self._a54 is not None and self.history.ply > self._a54:
            self._a54_decide(index, at)
            if self._end is not None:
                return
        mover = self.history.turn
        if mover in self.config.auto_claim_threefold and self.history.count() >= 3:
            claim = rule_on_claim(self.history, player=mover, kind="threefold_repetition",
                                  dead_test=self.dead_test)
            if claim.valid:
                self._note(index, at, "online_auto_claim", {"player": self._name(mover)}, "9.2.2")
                self._finish(index, at, DRAW, claim.kind, claim.article, claim.message,
                             dict(claim.params))

    def _automatic_end(self, legal: bool) -> Any:
        """The automatic end after a move: all of them after a legal move in a
        legal position; only 5.1.1/5.2.1 and 9.6 in an illegal position (no
        dead-position proof there); only 9.6 after an illegal move."""
        history = self.history
        # only an illegal move that stood can leave an illegal position, and
        # one that stands is either a legal-looking position or an A.5.4 case
        if legal and (self._a54 is None or not illegal_position(history.board)):
            return automatic_end(history, self.dead_test)
        return ((checkmate_or_stalemate(history) if legal else None)
                or fivefold(history) or seventyfive_moves(history))

    def _a54_decide(self, index: int, at: float) -> None:
        """A.5.4: the next move after the arbiter saw an illegal position is
        completed; the game is drawn if an illegal position is still on the board."""
        self._a54 = None
        if illegal_position(self.history.board):
            self._finish(index, at, DRAW, "illegal_position", "A.5.4", "a54_draw",
                         {"article": "A.5.4"})
        else:
            self._note(index, at, "a54_cleared", {"article": "A.5.4"})

    def _flag_ruling(self, color: chess.Color, fell: float, index: int, at: float) -> None:
        cfg = self.config
        article = "A.5.3" if (cfg.mode in ("rapid", "blitz") and cfg.supervision == "partial") \
            else "6.9"
        params = {"player": self._name(color), "opponent": self._name(not color),
                  "time": _secs(fell), "article": article}
        self._lose_or_draw(index, at, color, "time_forfeit", article, "flag_loss", "flag_draw",
                           params)

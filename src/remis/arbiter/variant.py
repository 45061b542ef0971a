"""The arbiter of a live shogi or xiangqi game (config ``"variant"``).

Moves are USI (shogi) or UCI / ICCS (xiangqi, config ``"notation"``) and are
judged by :class:`remis.variants.VariantHistory` (Fairy-Stockfish move
generation, our repetition tracking); it also ends the game by itself:
fourfold repetition (``JSA sennichite`` / ``WXF repetition``, xiangqi
``"repetitions": 3`` if the event says so), perpetual check (the checking
side loses, ``JSA perpetual check`` / ``WXF perpetual check``), checkmate or
no legal move (a loss, ``JSA checkmate`` / ``WXF no legal move``...).

Clocks and the procedure around the board are the event's own rules; remis
applies those of chess and cites the FIDE article it applies (documented
choice, the JSA and WXF texts we follow do not number such articles):

* a flag fall loses, Article 6.9 (A.5.3 in rapid/blitz under partial
  supervision); both flags down: the first to fall loses (6.9);
* resignation loses, Article 5.1.2;
* draw offers, their lapse and agreement: Articles 9.1.2, 9.1.2.1, 5.2.3
  (and 9.1.1 for ``no_agreement_before_move``); touching a piece lapses the
  opponent's offer (9.1.2.1) and is noted under 4.3;
* Armageddon (a draw counts for the second player) as the event's regulations.

Shogi impasse, as ``claim`` events: ``"kind": "entering_king"`` is the
player on move declaring a win under the CSA 27-point rule (a correct
declaration wins, an incorrect one loses, ``CSA entering-king declaration``);
``"kind": "impasse"`` asks for the adjudication of an impasse under the JSA
24-point rule (refused unless both kings have entered the enemy camp; the side
under 24 points loses, else a draw, ``JSA impasse``).

Not applied, and refused with a message saying so, because they are
chess-only: draw claims (9.2 repetition, 9.3 fifty moves; a variant
repetition ends the game without a claim), 9.6, the dead position of 5.2.2,
the "cannot checkmate" exceptions of 6.9, 5.1.2 and 7.5.5 (so a flag fall or
a resignation simply loses), Guidelines III, touch-move on a named square
(4.3, checked for chess only) and the ``illegal_move`` procedure of 7.5.  An
illegal move given as a ``move`` event is refused.  An ``illegal_move`` event
(the player completed an illegal move and it was called) is refused in
xiangqi (the WXF rules we cite do not define the procedure); in shogi it
loses at once, as the JSA rules say (*hansoku-make*, ``JSA illegal move``).

Players: ``"white"`` in events means the first player (sente, red) and
``"black"`` the second (gote, black), as in pyffish's FEN and in results
(``1-0``: the first player wins); rulings name them Sente/Gote or Red/Black.

>>> from remis.arbiter import Arbiter
>>> a = Arbiter({"variant": "xiangqi", "time_control": "300", "repetitions": 3})
>>> for n, mv in enumerate(["b1c3", "b10c8", "c3b1", "c8b10"] * 2):
...     s = a.apply({"type": "move", "player": "white" if n % 2 == 0 else "black",
...                  "move": mv, "at": n})
>>> s["result"], s["article"], s["fen"].split()[1]
('1/2-1/2', 'WXF repetition', 'w')
"""

from __future__ import annotations

from typing import Any

import chess

from remis.arbiter.arbiter import Arbiter
from remis.arbiter.config import Config
from remis.arbiter.events import SHOGI_CLAIM_KINDS, Event, RefusedEvent
from remis.arbiter.state import ArbiterState
from remis.rules import DeadTest, material_dead_test
from remis.ruling import color_name, win_for
from remis.variants.board import Board
from remis.variants.history import VariantError, VariantHistory
from remis.variants.impasse import declaration_ruling, impasse_ruling

_CLAIMS = {
    "threefold_repetition": "a {variant} game has no repetition claim: FIDE Article 9.2 is "
    "chess-only, and a position occurring {reps} times ends the game by itself ({article})",
    "fifty_moves": "a {variant} game has no fifty-move claim: FIDE Article 9.3 is chess-only",
    "quickplay": "the quickplay finish (FIDE Guidelines III) is chess-only, not for {variant}",
    "increment": "the quickplay finish (FIDE Guidelines III) is chess-only, not for {variant}",
}

# pieces in hand in the order pyffish writes them (sente's first), so that the
# state's SFEN is the text VariantHistory.position and `remis position` give
_HAND_ORDER = "GNLPSRBgnlpsrb"


def _sfen(board: Board, number: int) -> str:
    """SFEN of a shogi :class:`~remis.variants.board.Board` without a pyffish
    call (``VariantHistory.position`` asks pyffish, about 3 ms per event).

    >>> _sfen(Board.from_fen("shogi", "4k4/9/9/9/9/9/9/9/4K4[PPrb] b"), 7)
    '4k4/9/9/9/9/9/9/9/4K4 w 2Prb 7'
    >>> from remis.variants import ffish
    >>> fen = "4k4/9/9/9/9/9/9/9/4K4[RBGSNLPPrbgsnlpp] w - - 0 1"
    >>> _sfen(Board.from_fen("shogi", fen), 1) == ffish.sfen("shogi", fen)
    True
    """
    hand = "".join(("" if board.hand[p] == 1 else str(board.hand[p])) + p
                   for p in _HAND_ORDER if board.hand.get(p))
    side = "b" if board.turn == "w" else "w"
    return f"{board.fen().split('[')[0]} {side} {hand or '-'} {number}"


class VariantArbiter(Arbiter):
    """An :class:`~remis.arbiter.Arbiter` for shogi and xiangqi; build it as
    ``Arbiter({"variant": ...})``.

    >>> a = Arbiter({"variant": "shogi", "time_control": "-"})
    >>> type(a).__name__, a.state()["fen"]
    ('VariantArbiter', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1')
    >>> a.apply({"type": "claim", "player": "white", "kind": "fifty_moves"})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    remis.arbiter.events.RefusedEvent: a shogi game has no fifty-move claim: FIDE Article 9.3 ...
    """

    quiet_moves = False  # its moves are not chess moves: always the full path

    history: VariantHistory  # type: ignore[assignment]  # the variant game's own history

    def __init__(self, config: Any = None, *, dead_test: DeadTest = material_dead_test) -> None:
        self.config = Config.from_dict(config)
        cfg = self.config
        self.dead_test = dead_test
        start = cfg.start_fen or "startpos"
        try:
            self.history = VariantHistory(cfg.variant, start, repetitions=cfg.repetitions,
                                          notation=cfg.notation)
        except VariantError as exc:
            raise ValueError(f"config: start_fen {start!r}: {exc}") from None
        self._start_game(self._turn())
        end = self.history.end  # a start position without a legal move
        if end is not None:
            self._finish_ruling(None, 0.0, end)

    # ----------------------------------------------------------- helpers
    def _turn(self) -> chess.Color:
        return chess.WHITE if self.history.board.turn == "w" else chess.BLACK

    def _name(self, color: chess.Color) -> str:
        return self.history.rules.players[0 if color else 1]

    def _require_on_move(self, color: chess.Color, what: str) -> None:
        turn = self._turn()
        if color != turn:
            raise RefusedEvent(f"{color_name(color)} ({self._name(color)}) cannot {what}: "
                               f"{color_name(turn)} ({self._name(turn)}) has the move")

    def _lose_or_draw(self, index: int, at: float, loser: chess.Color, termination: str,
                      article: str, loss_msg: str, draw_msg: str,
                      params: dict[str, Any]) -> None:
        """A loss for ``loser``: the "cannot checkmate" exceptions are chess-only."""
        self._finish(index, at, win_for(not loser), termination, article, loss_msg, params)

    def _position(self) -> str:
        h = self.history
        if h.rules.variant == "shogi":
            return _sfen(h.board, h.start_number + h.ply)
        return h.position

    def _chess_only(self, what: str) -> RefusedEvent:
        return RefusedEvent(f"{what} is chess-only and does not apply to {self.config.variant}")

    # ------------------------------------------------------------ events
    def state(self, *, log: bool = True) -> ArbiterState:
        """The state after the last accepted event: the keys of a chess
        game's state, ``fen`` being the SFEN / FEN of the position, with
        ``claimable`` always empty, plus ``variant``.

        >>> s = Arbiter({"variant": "xiangqi", "time_control": "60"}).state()
        >>> s["to_move"], s["claimable"], s["variant"], s["fen"].split()[0][:9]
        ('white', [], 'xiangqi', 'rnbakabnr')
        """
        end = self._end
        out = self._state(color_name(self._turn()), self._position(), [],
                          {"white": 0, "black": 0}, None, None)
        if log:
            out["log"] = self.rulings()
        self._add_end_details(out, end)
        out["variant"] = self.config.variant
        return out

    def _on_move(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None and ev.move is not None
        color = ev.color
        self._require_on_move(color, "move")
        try:
            self.history.push(ev.move)
        except VariantError as exc:
            raise RefusedEvent(f"ply {exc.ply}: {exc}") from None
        if self._pending_offer == (not color):
            self._pending_offer = None
            self._note(index, at, "offer_lapsed_move",
                       {"player": self._name(color), "opponent": self._name(not color),
                        "article": "9.1.2.1"})
        self._clock.press(color, at)
        self._moves_made[color] += 1
        self._touched = None
        end = self.history.end
        if end is not None:
            self._finish_ruling(index, at, end)

    def _on_claim(self, ev: Event, at: float, index: int) -> None:
        r = self.history.rules
        assert ev.kind is not None and ev.color is not None
        if ev.kind in SHOGI_CLAIM_KINDS:
            self._shogi_claim(ev.kind, ev.color, at, index)
            return
        raise RefusedEvent(_CLAIMS[ev.kind].format(variant=r.variant, reps=r.repetitions,
                                                   article=r.article("repetition")))

    def _shogi_claim(self, kind: str, color: chess.Color, at: float, index: int) -> None:
        """``entering_king``: the player on move declares a win (CSA 27-point
        rule: a correct declaration wins, an incorrect one loses).
        ``impasse``: either player asks for the impasse to be adjudicated
        (JSA 24-point rule; refused unless both kings have entered)."""
        if self.config.variant != "shogi":
            raise RefusedEvent(f"the claim {kind!r} is a shogi rule, not {self.config.variant}")
        h = self.history
        if kind == "entering_king":
            self._require_on_move(color, "declare a win by entering king (CSA: only on one's "
                                  "own turn)")
            self._finish_ruling(index, at, declaration_ruling(h.board, h.ply))
            return
        try:
            ruling = impasse_ruling(h.board, h.ply)
        except ValueError as exc:
            raise RefusedEvent(f"{exc} (JSA 24-point rule)") from None
        self._finish_ruling(index, at, ruling)

    def accept(self, event: Any) -> None:
        """Apply one event (see :meth:`remis.arbiter.Arbiter.accept`).

        >>> a = Arbiter({"variant": "shogi"})
        >>> a.accept({"type": "touch", "player": "white", "square": "7g"})
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        remis.arbiter.events.RefusedEvent: checking touch-move on a named square ...
        """
        if isinstance(event, dict) and event.get("type") == "touch" \
                and event.get("square") is not None:
            raise self._chess_only("checking touch-move on a named square (FIDE Article 4.3)")
        super().accept(event)

    def _dispatch(self, ev: Event, at: float, index: int) -> None:
        if self._end is not None:
            art = self._end["article"]
            art = f", Article {art}" if art[:1].isdigit() else f", {art}" if art else ""
            raise RefusedEvent(f"the game is over ({self._end['termination']}{art})", "game_over")
        super()._dispatch(ev, at, index)

    def _on_illegal_move(self, ev: Event, at: float, index: int) -> None:
        """Shogi: a completed illegal move loses at once (JSA, *hansoku-make*).
        Xiangqi: refused, the WXF rules cited here do not define the procedure."""
        assert ev.color is not None
        color = ev.color
        variant = self.config.variant
        if variant != "shogi":
            raise RefusedEvent(f"illegal_move events are chess-only (FIDE Article 7.5): the "
                               f"{self.history.rules.authority} rules cited for {variant} do "
                               "not define that procedure here; an illegal move is refused as "
                               "a move event")
        if self.config.mode == "online":
            raise RefusedEvent("online, illegal moves are rejected by the server and never "
                               "completed")
        if ev.kind != "move" or ev.ply is not None:
            what = "an illegal move found later ('ply', FIDE Article 7.5.1)" if ev.ply \
                else f"the illegal_move kind {ev.kind!r} (FIDE Article 7.5)"
            raise self._chess_only(what)
        if ev.called_by == "nobody":
            raise RefusedEvent("in shogi an illegal move loses when it is pointed out (JSA); "
                               "remis does not rule on one nobody called")
        self._require_on_move(color, "complete a move")
        if ev.move is not None:
            try:
                self.history.push(ev.move)
            except VariantError:
                pass  # illegal or unreadable, as reported
            else:
                self.history.pop()
                raise RefusedEvent(f"{ev.move!r} is a legal move; play it with a move event")
        article = f"{self.history.rules.authority} illegal move"
        self._finish(index, at, win_for(not color), "illegal_move", article,
                     "variant_illegal_move_loss",
                     {"player": self._name(color), "opponent": self._name(not color),
                      "move_text": f" ({ev.move})" if ev.move else "", "article": article})

    def _on_touch(self, ev: Event, at: float, index: int) -> None:
        assert ev.color is not None
        color = ev.color
        self._require_on_move(color, "touch a piece to move it")
        self._touched = color
        self._note(index, at, "variant_touched", {"player": self._name(color), "article": "4.3"})
        self._touch_rejects_offer(color, at, index)

    def _on_request(self, ev: Event, at: float, index: int) -> None:
        """Refused: the arbiter of a variant game has no act to answer it with.

        >>> a = Arbiter({"variant": "xiangqi", "mode": "online", "time_control": "60"})
        >>> a.accept({"type": "request", "player": "white", "kind": "time"})
        ... # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        remis.arbiter.events.RefusedEvent: a request to the arbiter (FIDE ...) is chess-only ...
        """
        raise self._chess_only("a request to the arbiter (FIDE Article 12)")

    def _on_arbiter(self, ev: Event, at: float, index: int) -> None:
        raise RefusedEvent("no claim or request awaits the arbiter's decision (the requests "
                           "of FIDE Guidelines III are chess-only)")

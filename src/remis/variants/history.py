"""Incremental history of a shogi or xiangqi game: the same shape as
:class:`remis.history.History` (``push``, ``ply``, ``occurrences``, an
automatic ``end``) so the arbiter can drive either.

Per ply it asks pyffish three questions about the *current* position only
(the FEN after the move, whether it gives check, the legal replies), never
re-parsing the game; repetition is tracked by us in a dict of occurrences.
"""

from __future__ import annotations

from remis.ruling import DRAW
from remis.variants import ffish
from remis.variants.messages import NO_CHASE_NOTE, VariantRuling
from remis.variants.notation import (
    NotationError,
    move_to_iccs,
    move_to_usi,
    sfen_to_fen,
    usi_to_move,
    xiangqi_fen,
    xiangqi_move,
)
from remis.variants.rules import FIRST, SECOND, VariantRules, perpetual_checkers, rules_for

_IDENTITY = {
    "shogi": "board, pieces in hand and side to move",
    "xiangqi": "board and side to move",
}


class VariantError(ValueError):
    """An unreadable position or move, or one that breaks the rules.

    ``ply`` is the ply the bad move would have had (0 for the start position).
    """

    def __init__(self, message: str, ply: int = 0) -> None:
        super().__init__(message)
        self.ply = ply


class GameOver(VariantError):
    """A move pushed after the game has ended."""


def _key(fen: str) -> str:
    # board (with the hand in brackets for shogi) and side to move
    board, side = fen.split(" ", 2)[:2]
    return f"{board} {side}"


class VariantHistory:
    """A shogi or xiangqi game in progress with repetition bookkeeping.

    ``start`` is an SFEN (shogi) or FEN (xiangqi), or ``"startpos"``; moves
    are USI (shogi) or UCI / ICCS (xiangqi, ``notation``).  The start position
    is occurrence number one.

    >>> h = VariantHistory("shogi")
    >>> for m in ["2h3h", "8b7b", "3h2h", "7b8b"] * 3:
    ...     h.push(m)
    >>> h.occurrences(), h.end is None
    ((0, 4, 8, 12), False)
    >>> h.end.termination, h.end.result, h.end.article
    ('repetition', '1/2-1/2', 'JSA sennichite')
    """

    __slots__ = ("_checks", "_fens", "_keys", "_legal", "_moves", "_occ", "end", "first_mover",
                 "notation", "rules")

    def __init__(self, variant: str | VariantRules = "shogi", start: str = "startpos", *,
                 repetitions: int | None = None, notation: str | None = None) -> None:
        rules = variant if isinstance(variant, VariantRules) else rules_for(variant, repetitions)
        self.rules: VariantRules = rules
        v = rules.variant
        #: move notation of :meth:`push`: ``usi`` (shogi), ``uci`` or ``iccs`` (xiangqi)
        self.notation: str = notation or ("usi" if v == "shogi" else "uci")
        fen = ffish.start_fen(v) if start == "startpos" else self._read_start(start)
        fen = ffish.normalize(v, fen)
        self._fens: list[str] = [fen]
        k = _key(fen)
        self._keys: list[str] = [k]
        self._occ: dict[str, list[int]] = {k: [0]}
        self._checks: list[bool] = [ffish.in_check(v, fen)]
        self._moves: list[str] = []
        #: side (0 first player, 1 second) that makes the move of ply 1
        self.first_mover: int = FIRST if fen.split()[1] == "w" else SECOND
        self._check_other_king(fen)
        self._legal: set[str] = set(ffish.legal_moves(v, fen))
        #: the automatic end of the game, if it has ended
        self.end: VariantRuling | None = self._no_move_end(0)

    # ----------------------------------------------------------- reading
    def _read_start(self, text: str) -> str:
        v = self.rules.variant
        try:
            fen = sfen_to_fen(text) if v == "shogi" else xiangqi_fen(text)
        except NotationError as exc:
            raise VariantError(f"malformed {'SFEN' if v == 'shogi' else 'FEN'}: {exc}") from None
        problem = ffish.validate(v, fen)
        if problem is not None:
            raise VariantError(f"invalid {v} position {text!r}: {problem}")
        return fen

    def _check_other_king(self, fen: str) -> None:
        board, side = fen.split()[:2]
        flipped = f"{board} {'b' if side == 'w' else 'w'} - - 0 1"
        if ffish.in_check(self.rules.variant, flipped):
            raise VariantError("invalid position: the side that has just moved is in check")

    def native(self, move: str) -> str:
        """Translate ``move`` from the game's notation into pyffish's.

        >>> VariantHistory("shogi").native("7g7f")
        'c3c4'
        """
        try:
            if self.rules.variant == "shogi":
                return usi_to_move(move)
            return xiangqi_move(move, self.notation)
        except NotationError as exc:
            raise VariantError(str(exc), self.ply + 1) from None

    # ------------------------------------------------------------- moves
    @property
    def ply(self) -> int:
        """Number of plies played since the start position."""
        return len(self._keys) - 1

    def push(self, move: str) -> None:
        """Play ``move`` (in the game's notation), update the bookkeeping and
        decide whether the game has ended.  Raises :class:`VariantError` for
        an unreadable or illegal move and :class:`GameOver` after the end.

        >>> h = VariantHistory("xiangqi")
        >>> h.push("h3e3"); h.ply
        1
        >>> try: h.push("h3e3")
        ... except VariantError as e: print(e.ply, e)
        2 illegal move h3e3 for Black
        """
        if self.end is not None:
            raise GameOver(f"the game is over ({self.end.termination} at ply {self.end.ply}); "
                           f"move {move} cannot be played", self.ply + 1)
        m = self.native(move)
        if m not in self._legal:
            raise VariantError(f"illegal move {move} for {self.side_to_move}", self.ply + 1)
        self._push_legal(m, move)

    def _push_legal(self, m: str, shown: str) -> None:
        v = self.rules.variant
        fen = ffish.after(v, self._fens[-1], m)
        ply = len(self._keys)
        k = _key(fen)
        self._fens.append(fen)
        self._keys.append(k)
        self._moves.append(shown)
        self._checks.append(ffish.in_check(v, fen))
        self._legal = set(ffish.legal_moves(v, fen))
        occ = self._occ.get(k)
        if occ is None:
            self._occ[k] = [ply]
        else:
            occ.append(ply)
            if len(occ) >= self.rules.repetitions:
                self.end = self._repetition_end(ply, tuple(occ))
                return
        self.end = self._no_move_end(ply)

    def pop(self) -> str:
        """Take back the last move; returns it as it was pushed.

        >>> h = VariantHistory("shogi"); h.push("7g7f")
        >>> h.pop(), h.ply
        ('7g7f', 0)
        """
        if not self._moves:
            raise IndexError("pop from a variant history with no moves")
        k = self._keys.pop()
        self._fens.pop()
        self._checks.pop()
        occ = self._occ[k]
        occ.pop()
        if not occ:
            del self._occ[k]
        self._legal = set(ffish.legal_moves(self.rules.variant, self._fens[-1]))
        self.end = None  # play went on after every earlier position
        return self._moves.pop()

    # ----------------------------------------------------------- rulings
    def _side(self, ply: int) -> int:
        """Side to move in the position after ``ply`` plies."""
        return self.first_mover ^ (ply & 1)

    def _no_move_end(self, ply: int) -> VariantRuling | None:
        if self._legal:
            return None
        r = self.rules
        loser = self._side(ply)
        rule = "checkmate" if self._checks[ply] else "no_legal_move"
        article = r.article(rule)
        return VariantRuling(
            ply=ply, result="0-1" if loser == FIRST else "1-0",
            termination=rule if rule == "checkmate" else "no_legal_move",
            article=article, plies=(ply,), message=f"variant_{rule}",
            params={"loser": r.players[loser], "winner": r.players[1 - loser],
                    "game": r.variant, "article": article})

    def _repetition_end(self, ply: int, occ: tuple[int, ...]) -> VariantRuling:
        r = self.rules
        first = occ[0]
        offenders = (perpetual_checkers(first, ply, self.first_mover, self._checks)
                     if r.perpetual_check_loses else ())
        params: dict[str, object] = {
            "identity": _IDENTITY[r.variant], "count": len(occ),
            "plies": ", ".join(map(str, occ)),
        }
        note = NO_CHASE_NOTE if r.variant == "xiangqi" else ""
        if len(offenders) == 1:
            loser = offenders[0]
            article = r.article("perpetual_check")
            check_plies = list(range(first + 1, ply + 1))
            check_plies = [k for k in check_plies if self._side(k - 1) == loser]
            params.update(loser=r.players[loser], winner=r.players[1 - loser],
                          checks=len(check_plies), article=article,
                          check_plies=", ".join(map(str, check_plies)))
            return VariantRuling(
                ply=ply, result="0-1" if loser == FIRST else "1-0",
                termination="perpetual_check", article=article, plies=occ,
                message="variant_perpetual_check", params=params,
                evidence={"cycle_moves": self._moves[first:ply], "check_plies": check_plies})
        article = r.article("repetition")
        params.update(article=article, note=note)
        message = "variant_mutual_perpetual_check" if offenders else "variant_repetition_draw"
        evidence: dict[str, object] = {"cycle_moves": self._moves[first:ply]}
        if r.variant == "xiangqi":
            evidence["chase_analysed"] = False
        return VariantRuling(ply=ply, result=DRAW, termination="repetition", article=article,
                             plies=occ, message=message, params=params, evidence=evidence)

    # ----------------------------------------------------------- queries
    @property
    def fen(self) -> str:
        """The current position in pyffish's FEN."""
        return self._fens[-1]

    @property
    def position(self) -> str:
        """The current position in the players' notation: SFEN for shogi,
        FEN for xiangqi.

        >>> VariantHistory("shogi").position
        'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
        """
        v = self.rules.variant
        return ffish.sfen(v, self.fen) if v == "shogi" else self.fen

    @property
    def side_to_move(self) -> str:
        """Name of the player to move (``Sente``/``Gote``, ``Red``/``Black``)."""
        return self.rules.players[self._side(self.ply)]

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played, as pushed."""
        return tuple(self._moves)

    def legal_moves(self) -> list[str]:
        """Legal moves in the game's notation, sorted.

        >>> len(VariantHistory("shogi").legal_moves())
        30
        """
        if self.rules.variant == "shogi":
            return sorted(move_to_usi(m) for m in self._legal)
        if self.notation == "iccs":
            return sorted(move_to_iccs(m) for m in self._legal)
        return sorted(self._legal)

    def is_check(self) -> bool:
        """True if the side to move is in check."""
        return self._checks[-1]

    def key(self) -> str:
        """The identity of the current position (board [+ hand], side to move)."""
        return self._keys[-1]

    def key_at(self, ply: int) -> str:
        """The identity of the position after ``ply`` plies."""
        return self._keys[ply]

    def occurrences(self, key: str | None = None) -> tuple[int, ...]:
        """Plies at which ``key`` (default: the current position) stood.

        >>> VariantHistory("xiangqi").occurrences()
        (0,)
        """
        k = self._keys[-1] if key is None else key
        return tuple(self._occ.get(k, ()))

    def count(self, key: str | None = None) -> int:
        """How often ``key`` (default: the current position) has appeared."""
        k = self._keys[-1] if key is None else key
        return len(self._occ.get(k, ()))

    def gave_check(self, ply: int) -> bool:
        """True if the move that produced position ``ply`` gave check."""
        return self._checks[ply]

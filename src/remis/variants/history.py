"""Incremental history of a shogi or xiangqi game: the same shape as
:class:`remis.history.History` (``push``, ``ply``, ``occurrences``, an
automatic ``end``) so the arbiter can drive either.

Each pyffish call costs about 3 ms whatever it does (pyffish re-initialises
its piece tables per call) plus the replay of the move list it is given, so
the history keeps its own :class:`~remis.variants.board.Board` for position
identity and asks pyffish only what needs a move generator: is the move legal
and does it give check (one call per :meth:`push`, or one call for a whole
move list with :meth:`extend`), and, when :attr:`end` is read, does the side
to move have any legal move (one call per position, cached).
"""

from __future__ import annotations

from collections.abc import Sequence

from remis.ruling import DRAW
from remis.variants import ffish
from remis.variants.board import Board
from remis.variants.chase import PIECE_NAMES, chased, square_before, square_name
from remis.variants.messages import (
    CHASE_NOTE,
    CHECK_BEATS_CHASE_NOTE,
    NO_CHASE_NOTE,
    VariantRuling,
)
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
from remis.variants.xqboard import check_xiangqi_board

_IDENTITY = {
    "shogi": "board, pieces in hand and side to move",
    "xiangqi": "board and side to move",
}


class VariantError(ValueError):
    """An unreadable position or move, or one that breaks the rules.

    ``ply`` is the ply the bad move would have had (0 for the start position).

    >>> VariantError("illegal move", 3).ply
    3
    """

    def __init__(self, message: str, ply: int = 0) -> None:
        super().__init__(message)
        self.ply = ply


class GameOver(VariantError):
    """A move pushed after the game has ended.

    >>> issubclass(GameOver, VariantError)
    True
    """


class VariantHistory:
    """A shogi or xiangqi game in progress with repetition bookkeeping.

    ``start`` is an SFEN (shogi) or FEN (xiangqi), or ``"startpos"``; moves
    are USI (shogi) or UCI / ICCS (xiangqi, ``notation``).  The start position
    is occurrence number one.

    >>> h = VariantHistory("shogi")
    >>> for m in ["2h3h", "8b7b", "3h2h", "7b8b"] * 3:
    ...     h.push(m)
    >>> h.occurrences()
    (0, 4, 8, 12)
    >>> h.end.termination, h.end.result, h.end.article
    ('repetition', '1/2-1/2', 'JSA sennichite')
    """

    __slots__ = ("_boards", "_chased", "_checks", "_end", "_keys", "_legal", "_legal_ply", "_moves",
                 "_natives", "_occ", "board", "first_mover", "notation", "rules", "start_number")

    def __init__(self, variant: str | VariantRules = "shogi", start: str = "startpos", *,
                 repetitions: int | None = None, notation: str | None = None) -> None:
        rules = variant if isinstance(variant, VariantRules) else rules_for(variant, repetitions)
        self.rules: VariantRules = rules
        v = rules.variant
        #: move notation of :meth:`push`: ``usi`` (shogi), ``uci`` or ``iccs`` (xiangqi)
        self.notation: str = notation or ("usi" if v == "shogi" else "uci")
        fen = ffish.start_fen(v) if start == "startpos" else self._read_start(start)
        #: move number of the start position (SFEN: plies; FEN: full moves)
        self.start_number: int = 1
        fields = start.split()
        number = fields[3] if v == "shogi" and len(fields) > 3 else (
            fields[5] if v == "xiangqi" and len(fields) > 5 else "1")
        if number.isdigit() and int(number) > 0:
            self.start_number = int(number)
        #: the current position
        self.board: Board = Board.from_fen(v, fen)
        k = self.board.key()
        self._boards: list[Board] = []  # positions before each move, for pop()
        self._keys: list[str] = [k]
        self._occ: dict[str, list[int]] = {k: [0]}
        # did the move of ply k give check (None: not known yet, only ply 0)
        self._checks: list[bool | None] = [None]
        # xiangqi: the pieces the move of ply k chased (None: not known yet)
        self._chased: list[dict[int, int] | None] = [{}]
        self._moves: list[str] = []
        self._natives: list[str] = []
        self._end: VariantRuling | None = None
        self._legal: set[str] | None = None
        self._legal_ply = -1
        #: side (0 first player, 1 second) that makes the move of ply 1
        self.first_mover: int = FIRST if self.board.turn == "w" else SECOND

    @classmethod
    def from_config(cls, config: dict[str, object]) -> VariantHistory:
        """Build the history an arbiter config asks for: ``variant`` (shogi or
        xiangqi), optional ``start`` (SFEN/FEN, default the start position),
        ``repetitions`` (xiangqi) and ``notation`` (``uci``/``iccs``).

        >>> VariantHistory.from_config({"variant": "xiangqi", "repetitions": 3}).rules.repetitions
        3
        """
        reps = config.get("repetitions")
        notation = config.get("notation")
        return cls(str(config["variant"]), str(config.get("start", "startpos")),
                   repetitions=None if reps is None else int(str(reps)),
                   notation=None if notation is None else str(notation))

    # ----------------------------------------------------------- reading
    def _read_start(self, text: str) -> str:
        v = self.rules.variant
        try:
            fen = sfen_to_fen(text) if v == "shogi" else xiangqi_fen(text)
            if v == "xiangqi":
                check_xiangqi_board(fen.split()[0])
        except NotationError as exc:
            raise VariantError(f"malformed {'SFEN' if v == 'shogi' else 'FEN'}: {exc}") from None
        problem = ffish.validate(v, fen)
        if problem is not None:
            raise VariantError(f"invalid {v} position {text!r}: {problem}")
        board, side = fen.split()[:2]
        if ffish.in_check(v, f"{board} {'b' if side == 'w' else 'w'} - - 0 1"):
            raise VariantError(f"invalid {v} position {text!r}: the side that has just moved "
                               "is in check")
        return fen

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
        """Number of plies played since the start position.

        >>> VariantHistory("shogi").ply
        0
        """
        return len(self._keys) - 1

    def push(self, move: str) -> None:
        """Play ``move`` (in the game's notation), update the bookkeeping and
        decide whether the game has ended.  Raises :class:`VariantError` for
        an unreadable or illegal move and :class:`GameOver` after the end.

        One pyffish call: the legal replies after the move (the move itself is
        checked against the legal moves of the previous call).  Whether moves
        gave check is asked only when a repetition has to be judged (one call
        for the whole cycle) or when :meth:`gave_check` / :meth:`is_check`
        ask.

        >>> h = VariantHistory("xiangqi")
        >>> h.push("h3e3"); h.ply
        1
        >>> try: h.push("h3e3")
        ... except VariantError as e: print(e.ply, e)
        2 illegal move h3e3 for Black
        """
        if self._end is not None:
            raise GameOver(f"the game is over ({self._end.termination} at ply {self._end.ply}); "
                           f"move {move} cannot be played", self.ply + 1)
        m = self.native(move)
        if m not in self._legal_set():
            raise VariantError(f"illegal move {move} for {self.side_to_move}", self.ply + 1)
        replies = set(ffish.legal_moves(self.rules.variant, self.board.fen(), [m]))
        self._apply(m, move, None)
        self._legal, self._legal_ply = replies, self.ply
        if self._end is None and not replies:
            self._end = self._no_move_end(self.ply, in_check=self.is_check())

    def extend(self, moves: Sequence[str]) -> int:
        """Play ``moves`` until the game ends; return how many were played.
        Checks the whole list with one pyffish call (falling back to
        :meth:`push` per move to find the ply of an illegal one).

        >>> h = VariantHistory("shogi")
        >>> h.extend(["2h3h", "8b7b", "3h2h", "7b8b"] * 4), h.end.ply
        (12, 12)
        """
        if self._end is not None:
            if moves:
                self.push(moves[0])  # raises GameOver
            return 0
        natives: list[str] = []
        bad: VariantError | None = None
        for i, mv in enumerate(moves):
            try:
                natives.append(self.native(mv))
            except VariantError as exc:
                exc.ply = self.ply + i + 1
                bad = exc
                break
        try:
            sans = ffish.san_moves(self.rules.variant, self.board.fen(), natives)
        except ValueError:
            return self._extend_slowly(moves)
        played = 0
        for m, mv, san in zip(natives, moves, sans, strict=False):
            self._apply(m, mv, san)
            played += 1
            if self._end is not None:
                return played
        if bad is not None:
            raise bad
        return played

    def _extend_slowly(self, moves: Sequence[str]) -> int:
        played = 0
        for mv in moves:
            if self._end is not None:
                break
            self.push(mv)
            played += 1
        return played

    def _apply(self, m: str, shown: str, san: str | None) -> None:
        b = self.board
        self._boards.append(b.copy())
        b.play(m)
        k = b.key()
        ply = len(self._keys)
        self._keys.append(k)
        self._moves.append(shown)
        self._natives.append(m)
        self._checks.append(None if san is None else san[-1] in "+#")
        self._chased.append(None)
        occ = self._occ.get(k)
        if occ is None:
            self._occ[k] = [ply]
        else:
            occ.append(ply)
            if len(occ) >= self.rules.repetitions:
                self._end = self._repetition_end(ply, tuple(occ))
                return
        if san is not None and san[-1] == "#":
            self._end = self._no_move_end(ply, in_check=True)

    def pop(self) -> str:
        """Take back the last move; returns it as it was pushed.

        >>> h = VariantHistory("shogi"); h.push("7g7f")
        >>> h.pop(), h.ply
        ('7g7f', 0)
        """
        if not self._moves:
            raise IndexError("pop from a variant history with no moves")
        k = self._keys.pop()
        self.board = self._boards.pop()
        self._checks.pop()
        self._chased.pop()
        self._natives.pop()
        occ = self._occ[k]
        occ.pop()
        if not occ:
            del self._occ[k]
        self._end = None  # play went on after every earlier position
        self._legal_ply = -1
        return self._moves.pop()

    # ----------------------------------------------------------- rulings
    @property
    def end(self) -> VariantRuling | None:
        """The automatic end of the game, if it has ended: repetition or
        perpetual check (known at once), checkmate, or no legal move (asks
        pyffish once per position, on first reading).

        >>> VariantHistory("xiangqi", "R3k4/R8/9/9/9/9/9/9/9/3K5 b").end.termination
        'checkmate'
        """
        if self._end is None and not self._legal_set():
            self._end = self._no_move_end(self.ply, in_check=self.is_check())
        return self._end

    def _legal_set(self) -> set[str]:
        if self._legal is None or self._legal_ply != self.ply:
            self._legal = set(ffish.legal_moves(self.rules.variant, self.board.fen()))
            self._legal_ply = self.ply
        return self._legal

    def _side(self, ply: int) -> int:
        """Side to move in the position after ``ply`` plies."""
        return self.first_mover ^ (ply & 1)

    def _no_move_end(self, ply: int, *, in_check: bool) -> VariantRuling:
        r = self.rules
        loser = self._side(ply)
        rule = "checkmate" if in_check else "no_legal_move"
        article = r.article(rule)
        return VariantRuling(
            ply=ply, result="0-1" if loser == FIRST else "1-0", termination=rule,
            article=article, plies=(ply,), message=f"variant_{rule}",
            params={"loser": r.players[loser], "winner": r.players[1 - loser],
                    "game": r.variant, "article": article})

    def _repetition_end(self, ply: int, occ: tuple[int, ...]) -> VariantRuling:
        r = self.rules
        first = occ[0]
        if any(c is None for c in self._checks[first + 1:ply + 1]):
            sans = ffish.san_moves(r.variant, self._boards[first].fen(),
                                   self._natives[first:ply])
            self._checks[first + 1:ply + 1] = [san[-1] in "+#" for san in sans]
        checks = [bool(c) for c in self._checks]
        offenders = (perpetual_checkers(first, ply, self.first_mover, checks)
                     if r.perpetual_check_loses else ())
        params: dict[str, object] = {
            "identity": _IDENTITY[r.variant], "count": len(occ),
            "plies": ", ".join(map(str, occ)),
        }
        cycle = self._moves[first:ply]
        if len(offenders) == 1:
            loser = offenders[0]
            article = r.article("perpetual_check")
            check_plies = [k for k in range(first + 1, ply + 1) if self._side(k - 1) == loser]
            params.update(loser=r.players[loser], winner=r.players[1 - loser],
                          checks=len(check_plies), article=article,
                          check_plies=", ".join(map(str, check_plies)), note="")
            evidence: dict[str, object] = {"cycle_moves": cycle, "check_plies": check_plies}
            if r.variant == "xiangqi" and r.chase != "none":
                # check beats chase: the checked side's own perpetual chase is not held
                # against it, but the ruling says it was seen
                chase = self.chase_in_cycle(first, ply, 1 - loser)
                if chase:
                    evidence["outweighed_chase"] = chase
                    params["note"] = CHECK_BEATS_CHASE_NOTE.format(player=r.players[1 - loser])
            return VariantRuling(
                ply=ply, result="0-1" if loser == FIRST else "1-0",
                termination="perpetual_check", article=article, plies=occ,
                message="variant_perpetual_check", params=params, evidence=evidence)
        evidence = {"cycle_moves": cycle}
        note = ""
        if r.variant == "xiangqi" and r.chase == "none":
            note = NO_CHASE_NOTE
            evidence["chase_analysed"] = False
        elif r.variant == "xiangqi" and not offenders:
            chases = {side: self.chase_in_cycle(first, ply, side) for side in (FIRST, SECOND)}
            chasers = [side for side, found in chases.items() if found]
            evidence["chase_analysed"] = True
            evidence["chases"] = {r.players[side].lower(): found
                                  for side, found in chases.items() if found}
            if len(chasers) == 1:
                return self._chase_end(ply, occ, params, cycle, chasers[0], chases[chasers[0]])
            if chasers:
                article = r.article("perpetual_chase")
                params.update(article=article, red=r.players[0], black=r.players[1],
                              **{f"{k}_{side}": v
                                 for side, found in zip(("red", "black"), chases.values(),
                                                        strict=True)
                                 for k, v in _chase_params(found).items()})
                return VariantRuling(ply=ply, result=DRAW, termination="repetition",
                                     article=article, plies=occ,
                                     message="variant_mutual_perpetual_chase", params=params,
                                     evidence=evidence)
            note = CHASE_NOTE
        article = r.article("repetition")
        params.update(article=article, note=note)
        message = "variant_mutual_perpetual_check" if offenders else "variant_repetition_draw"
        return VariantRuling(ply=ply, result=DRAW, termination="repetition", article=article,
                             plies=occ, message=message, params=params, evidence=evidence)

    def _chase_end(self, ply: int, occ: tuple[int, ...], params: dict[str, object],
                   cycle: list[str], loser: int, found: list[dict[str, object]]
                   ) -> VariantRuling:
        r = self.rules
        article = r.article("perpetual_chase")
        params.update(loser=r.players[loser], winner=r.players[1 - loser], article=article,
                      **_chase_params(found))
        return VariantRuling(
            ply=ply, result="0-1" if loser == FIRST else "1-0", termination="perpetual_chase",
            article=article, plies=occ, message="variant_perpetual_chase", params=params,
            evidence={"cycle_moves": cycle, "chase_analysed": True, "chase": found})

    def chased_pieces(self, ply: int) -> dict[str, str]:
        """The pieces the move of ``ply`` chased: chased square -> square of
        the piece chasing it (xiangqi; AXF, see :mod:`remis.variants.chase`).

        >>> h = VariantHistory("xiangqi", "4k4/9/1n7/9/9/9/9/R8/9/3K5 w"); h.push("a3b3")
        >>> h.chased_pieces(1)
        {'b8': 'b3'}
        """
        if self.rules.variant != "xiangqi" or not 1 <= ply <= self.ply:
            return {}
        return {square_name(k): square_name(v) for k, v in self._chased_at(ply).items()}

    def _chased_at(self, k: int) -> dict[int, int]:
        """The pieces the move of ply ``k`` chased (computed once, when a
        repetition is judged)."""
        got = self._chased[k]
        if got is None:
            after = self.board if k == self.ply else self._boards[k]
            got = chased(self._boards[k - 1], after, self._natives[k - 1])
            self._chased[k] = got
        return got

    def chase_in_cycle(self, first: int, last: int, side: int) -> list[dict[str, object]]:
        """How ``side`` (``FIRST``/``SECOND``) chased one and the same piece
        with every one of its moves played from position ``first`` to
        position ``last`` (one entry per move: ply, chasing and chased piece
        and squares), or [] if it did not.

        The chased piece is followed through its own side's moves: it may
        flee, the chaser must keep chasing it wherever it goes.

        >>> h = VariantHistory("xiangqi", "4k4/9/n8/9/9/9/9/R8/9/3K5 b")
        >>> h.extend(["a8b6", "a3b3", "b6a8", "b3a3"])
        4
        >>> [(m["ply"], m["chaser_square"], m["chased_square"]) for m in h.chase_in_cycle(0, 4, 0)]
        [(2, 'b3', 'b6'), (4, 'a3', 'a8')]
        """
        plies = [k for k in range(first + 1, last + 1) if self._side(k - 1) == side]
        if not plies:
            return []
        # square of a chased piece at the latest ply -> [(ply, its square, chaser's square)]
        paths = {sq: [(plies[-1], sq, by)] for sq, by in self._chased_at(plies[-1]).items()}
        for k in reversed(plies[:-1]):
            here = self._chased_at(k)
            moves_back = ((square_before(sq, self._natives[k]), path)  # its side's move: ply k+1
                          for sq, path in paths.items())
            paths = {sq: [(k, sq, here[sq]), *path] for sq, path in moves_back if sq in here}
            if not paths:
                return []
        path = min(paths.values())
        out: list[dict[str, object]] = []
        for k, sq, by in path:
            board = self.board if k == self.ply else self._boards[k]
            out.append({"ply": k, "chaser": PIECE_NAMES[board.cells[by].upper()],
                        "chaser_square": square_name(by),
                        "chased": PIECE_NAMES[board.cells[sq].upper()],
                        "chased_square": square_name(sq)})
        return out

    # ----------------------------------------------------------- queries
    @property
    def fen(self) -> str:
        """The current position in pyffish's FEN.

        >>> VariantHistory("shogi").fen
        'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1'
        """
        return self.board.fen()

    @property
    def position(self) -> str:
        """The current position in the players' notation: SFEN for shogi,
        FEN for xiangqi.

        >>> h = VariantHistory("shogi"); h.position
        'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'
        >>> h.extend(["7g7f", "3c3d", "8h2b+"]); h.position
        3
        'lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4'
        >>> h = VariantHistory("xiangqi"); h.extend(["h3e3", "h10g8", "b1c3"]); h.position
        3
        'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b - - 0 2'
        """
        v = self.rules.variant
        if v == "shogi":
            return ffish.sfen(v, self.fen).rsplit(" ", 1)[0] + f" {self.start_number + self.ply}"
        # the halfmove (no-capture) counter is not tracked: always 0
        black_first = self.first_mover == SECOND
        full = self.start_number + (self.ply + black_first) // 2
        return self.fen.rsplit(" ", 1)[0] + f" {full}"

    @property
    def side_to_move(self) -> str:
        """Name of the player to move (``Sente``/``Gote``, ``Red``/``Black``).

        >>> VariantHistory("xiangqi").side_to_move
        'Red'
        """
        return self.rules.players[self._side(self.ply)]

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played, as pushed.

        >>> h = VariantHistory("shogi"); h.push("7g7f"); h.moves
        ('7g7f',)
        """
        return tuple(self._moves)

    def legal_moves(self) -> list[str]:
        """Legal moves in the game's notation, sorted.

        >>> len(VariantHistory("shogi").legal_moves())
        30
        """
        legal = self._legal_set()
        if self.rules.variant == "shogi":
            return sorted(move_to_usi(m) for m in legal)
        if self.notation == "iccs":
            return sorted(move_to_iccs(m) for m in legal)
        return sorted(legal)

    def is_check(self) -> bool:
        """True if the side to move is in check.

        >>> h = VariantHistory("xiangqi", "4k4/9/9/9/9/9/9/9/5R3/3K5 w"); h.push("f2e2")
        >>> h.is_check()
        True
        """
        return self.gave_check(self.ply)

    def key(self) -> str:
        """The identity of the current position (board, hand, side to move).

        >>> h = VariantHistory("shogi"); h.extend(["2h3h", "8b7b", "3h2h", "7b8b"])
        4
        >>> h.key() == h.key_at(0)
        True
        """
        return self._keys[-1]

    def key_at(self, ply: int) -> str:
        """The identity of the position after ``ply`` plies.

        >>> h = VariantHistory("shogi"); h.push("7g7f"); h.key_at(0) == h.key()
        False
        """
        return self._keys[ply]

    def occurrences(self, key: str | None = None) -> tuple[int, ...]:
        """Plies at which ``key`` (default: the current position) stood.

        >>> VariantHistory("xiangqi").occurrences()
        (0,)
        """
        k = self._keys[-1] if key is None else key
        return tuple(self._occ.get(k, ()))

    def count(self, key: str | None = None) -> int:
        """How often ``key`` (default: the current position) has appeared.

        >>> h = VariantHistory("shogi"); h.extend(["2h3h", "8b7b", "3h2h", "7b8b"])
        4
        >>> h.count()
        2
        """
        k = self._keys[-1] if key is None else key
        return len(self._occ.get(k, ()))

    def gave_check(self, ply: int) -> bool:
        """True if the move that produced position ``ply`` gave check (for
        ply 0: if the side to move is in check at the start).

        >>> h = VariantHistory("xiangqi", "4k4/9/9/9/9/9/9/9/5R3/3K5 w")
        >>> h.extend(["f2e2", "e10f10", "e2e1"])
        3
        >>> [h.gave_check(k) for k in (1, 2, 3)]
        [True, False, False]
        """
        c = self._checks[ply]
        if c is None:
            board = self.board if ply == self.ply else self._boards[ply]
            c = ffish.in_check(self.rules.variant, board.fen())
            self._checks[ply] = c
        return c


def _chase_params(found: list[dict[str, object]]) -> dict[str, object]:
    """The ruling's words for one side's perpetual chase: the chased piece,
    where it stood when the chase began, the chasing piece (``pieces`` when
    several kinds took turns), the squares it chased from and the plies.

    >>> p = _chase_params([{"ply": 9, "chaser": "chariot", "chaser_square": "b3",
    ...                     "chased": "horse", "chased_square": "b8"},
    ...                    {"ply": 11, "chaser": "chariot", "chaser_square": "a3",
    ...                     "chased": "horse", "chased_square": "a8"}])
    >>> p["chaser"], p["chaser_squares"], p["chase_plies"]
    ('chariot', 'b3, a3', '9, 11')
    """
    kinds = {str(m["chaser"]) for m in found}
    return {"chased": found[0]["chased"], "chased_square": found[0]["chased_square"],
            "chaser": kinds.pop() if len(kinds) == 1 else "pieces",
            "chaser_squares": ", ".join(dict.fromkeys(str(m["chaser_square"]) for m in found)),
            "chases": len(found), "chase_plies": ", ".join(str(m["ply"]) for m in found)}

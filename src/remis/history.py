"""A game's history: occurrences of each position (9.2.3 identity), the
no-progress counter and what the rules say after each move, kept by the
core (``remis._core``) so that the live arbiter and the batch (``remis
game``, the audit) count and rule alike.

A position can only recur after the last *irreversible* move (a capture, a pawn
move, or a change of castling rights): every later position differs from every
earlier one in material, pawn structure or rights.  The history therefore keeps
a small "window" of positions that can still repeat, and the list of those that
have already appeared twice in it; a 9.2.1 claim (intended move) is only
possible when that list holds a position with the opponent to move.

Each push has the core work out the automatic end (checkmate, stalemate, the
history's dead-position test, fivefold, 75 moves) and the claims of the
position the move leaves: :func:`remis.rules.automatic_end` and
:func:`remis.rules.claimable` read them instead of asking again.

This module is the Python face: it keeps a python-chess board in step with the
core's history for the caller (SAN, FEN, the move stack) and asks the core
everything about repetitions, counts and rulings.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import chess

from remis import _core
from remis import facts as F
from remis.ends import automatic_end
from remis.identity import PositionKey
from remis.material import DeadTest, material_dead_test
from remis.ruling import Ruling, positions_text

#: what a push worked out (:meth:`History.found`)
Found = Literal[False] | tuple[F.EndFacts | None, list[F.ClaimFacts]] | None
#: :meth:`History.found` not asked of the core since the last move
_UNASKED: object = object()


class History:
    """A game in progress: a python-chess board plus repetition bookkeeping.

    The start position is occurrence number one (FIDE 9.2, case R03).  A game
    started from a FEN takes the FEN's halfmove clock as its no-progress count.

    >>> h = History()
    >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
    ...     _ = h.push_san(san)
    >>> h.occurrences()
    (0, 4, 8)
    >>> h.ply, h.board.halfmove_clock
    (8, 8)

    ``stack=False`` is for a caller that only plays moves forward: the board
    keeps no python-chess move stack, and :meth:`pop` is not available.  The
    position, the clocks and every answer are the same.

    >>> fast, usual = History(stack=False), History()
    >>> for san in ["e4", "c5", "e5", "d5", "exd6", "Qxd6", "Nf3", "Nc6", "Bb5", "Bd7", "O-O"]:
    ...     _ = fast.push(fast.board.parse_san(san)), usual.push_san(san)
    >>> fast.board.fen()
    'r3kbnr/pp1bpppp/2nq4/1Bp5/8/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 6'
    >>> fast.board.fen() == usual.board.fen(), fast.key() == usual.key(), fast.board.move_stack
    (True, True, [])

    ``dead_test`` is the dead-position test (5.2.2) asked after every move
    (default :func:`~remis.rules.material_dead_test`); the core runs it
    within the push when it is that test or an
    :class:`~remis.unwinnable.deadtest.EngineDeadTest` (any other callable
    is asked by :func:`~remis.rules.automatic_end`, as before).

    ``lazy=True`` is for a caller that rarely looks at the python-chess
    board (a server that keeps its own): :attr:`board` is brought up to date
    only when read, so a move costs only the core's work.  Read
    :attr:`board` afresh after each push then: a board held across a push is
    behind until :attr:`board` is read again.

    >>> h = History(lazy=True)
    >>> h.play("e4"), h.play("e5"), h.fen()
    (None, None, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2')
    >>> h.board.move_stack
    [Move.from_uci('e2e4'), Move.from_uci('e7e5')]
    """

    __slots__ = ("_board", "_core", "_dead", "_found", "_in_core", "_lazy",
                 "_pending", "_ply", "_stack", "_turn")

    def __init__(self, board: chess.Board | None = None, *, stack: bool = True,
                 dead_test: DeadTest | None = None, lazy: bool = False) -> None:
        b = chess.Board() if board is None else board.copy(stack=False)
        self._board: chess.Board = b
        self._stack = stack
        self._lazy = lazy
        #: moves the core played that the board has not (``lazy``): chess.Move or UCI
        self._pending: list[chess.Move | str] = []
        self._dead: DeadTest = material_dead_test if dead_test is None else dead_test
        engine = getattr(self._dead, "core", None)
        engine = engine if isinstance(engine, _core.DeadTest) else None
        #: whether the core runs the dead test itself, within each push
        self._in_core = engine is not None or self._dead is material_dead_test
        self._core = _core.History(None if board is None else b.fen(), chess960=b.chess960,
                                   dead=engine)
        # asked at every event of a live game: kept here rather than asked of the core
        self._ply = 0
        self._turn: chess.Color = b.turn
        self._found: Found | object = _UNASKED

    @property
    def core(self) -> _core.History:
        """The core's history (``remis._core.History``) that this face keeps;
        :mod:`remis.rules` asks it for the facts of ends and claims.

        >>> History().core.ply
        0
        """
        return self._core

    @property
    def board(self) -> chess.Board:
        """The python-chess board of the current position, with the moves
        played (unless ``stack=False``).

        >>> h = History(lazy=True)
        >>> _ = h.play("d4")
        >>> h.board.fen()
        'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1'
        """
        if self._pending:
            self._catch_up()
        return self._board

    def _catch_up(self) -> None:
        """Play on the board the moves only the core has played (``lazy``)."""
        b = self._board
        for m in self._pending:
            b.push(m if isinstance(m, chess.Move) else chess.Move.from_uci(m))
        self._pending.clear()
        if not self._stack:
            b.clear_stack()

    @property
    def dead_test(self) -> DeadTest:
        """The dead-position test asked after every move.

        >>> History().dead_test.__name__
        'material_dead_test'
        """
        return self._dead

    @property
    def ruled(self) -> bool:
        """Whether the last push had the core work out the rulings of the
        position with this history's dead test (false after an illegal move
        that stood, whose position the core does not hold, and for a dead
        test the core cannot run): :mod:`remis.rules` then asks afresh.

        >>> History().ruled, History(dead_test=lambda board: None).ruled
        (True, False)
        """
        return self.found() is not False

    def found(self) -> Found:
        """What the last push worked out, as the core's facts: None where the
        position has no automatic end and no claim (the usual case), else
        ``(end, claims)`` (:data:`remis.facts.EndFacts` or None, a list of
        :data:`remis.facts.ClaimFacts`); False where it worked out nothing
        (see :attr:`ruled`).  :func:`remis.rules.automatic_end` and
        :func:`remis.rules.claimable` read it.

        >>> h = History()
        >>> h.found() is None, [h.play(m) for m in ["f3", "e5", "g4"]]
        (True, [None, None, None])
        >>> _ = h.push_san("Qh4#"); h.found()[0][:3]
        (4, 'checkmate', '5.1.1')
        """
        found = self._found
        if found is _UNASKED:
            found = self._found = self._core.rulings() if self._in_core else False
        return found  # type: ignore[return-value]

    # ------------------------------------------------------------------ moves
    @property
    def ply(self) -> int:
        """Number of plies played since the start position.

        >>> h = History()
        >>> _ = h.push_san("e4"); _ = h.push_san("e5")
        >>> h.ply
        2
        """
        return self._ply

    @property
    def turn(self) -> chess.Color:
        """The side to move (without looking at the board).

        >>> h = History(); _ = h.push_san("e4")
        >>> h.turn == chess.BLACK
        True
        """
        return self._turn

    def fen(self) -> str:
        """The FEN of the current position, as ``board.fen()`` gives it (the
        core writes it where it holds the position).

        >>> History().fen() == chess.STARTING_FEN
        True
        """
        if self._core.exact and not self._board.chess960:
            return self._core.fen()
        return self.board.fen()

    def push(self, move: chess.Move) -> int:
        """Play ``move`` and return how often the new position has now
        appeared.  A move that is not legal (an illegal move that stood, in the
        live arbiter) is played on the board as python-chess plays it; the
        history then counts the position it leaves.

        >>> h = History()
        >>> h.push(chess.Move.from_uci("e2e4"))
        1
        >>> h.board.fen()
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
        """
        try:
            n = self._core.push_squares(move.from_square, move.to_square, move.promotion or 0)
        except ValueError:  # not legal where the core stands: the board's position
            return self._push_board(move)
        self._moved()
        if self._lazy:
            self._pending.append(move)
        else:
            b = self._board
            b.push(move)
            if not self._stack:
                b.clear_stack()
        return n

    def push_uci(self, uci: str) -> int:
        """:meth:`push` for a move given in UCI.

        >>> h = History(); h.push_uci("g1f3")
        1
        """
        try:
            n = self._core.push_uci(uci)
        except ValueError:
            return self._push_board(chess.Move.from_uci(uci))
        self._played(uci)
        return n

    def play_legal(self, text: str) -> str | None:
        """Play the legal move ``text`` names (UCI where it looks like UCI, else
        SAN) and return its UCI; None, with nothing played, where it names no
        legal move or the core does not hold the position (an illegal move
        stood).  The live arbiter's usual move: one call to the core, which
        also says whether the new position has anything to rule on.

        >>> h = History()
        >>> h.play_legal("Nf3"), h.play_legal("e2e4"), h.play_legal("e7e5"), h.ply
        ('g1f3', None, 'e7e5', 2)
        >>> h.found() is None
        True
        """
        core = self._core
        played = core.play_legal(text) if core.exact else None
        if played is None:
            return None
        uci, found = played
        self._played(uci)
        if not found and self._in_core:
            self._found = None  # what rulings() would say: no end, no claim
        return uci

    def _moved(self) -> None:
        """A legal move was played: the next side moves, nothing is known yet."""
        self._ply += 1
        self._turn = not self._turn
        self._found = _UNASKED

    def _played(self, uci: str) -> None:
        """Keep the board in step with a legal move the core played."""
        self._moved()
        if self._lazy:
            self._pending.append(uci)
            return
        b = self._board
        b.push(chess.Move.from_uci(uci))
        if not self._stack:
            b.clear_stack()

    def _push_board(self, move: chess.Move) -> int:
        """A move the core cannot play, played on the board: the core learns
        of the position it leaves."""
        b = self.board
        b.push(move)
        if not self._stack:
            b.clear_stack()
        n = int(self._core.push_fen(b.fen()))
        self._synced()
        return n

    def _synced(self) -> None:
        """Read the ply and the side to move from the core again."""
        self._ply = int(self._core.ply)
        self._turn = bool(self._core.turn)
        self._found = _UNASKED

    def play(self, move: str | chess.Move) -> Ruling | None:
        """Play a legal move (UCI, SAN or a :class:`chess.Move`) and return
        the automatic end it brought, if any (:func:`remis.rules.automatic_end`
        of the new position); ``ValueError`` for a move that is not legal.

        >>> h = History()
        >>> [h.play(m) for m in ["f3", "e5", "g2g4"]]
        [None, None, None]
        >>> h.play("Qh4#").article
        '5.1.1'
        """
        text = move.uci() if isinstance(move, chess.Move) else move
        if not self._core.exact:  # an illegal move stood: the board reads the move
            b = self.board
            legal = move if isinstance(move, chess.Move) else _read_move(b, text)
            if legal is None or not b.is_legal(legal):
                raise ValueError(f"{text!r} is not a legal move in {b.fen()}")
            self._push_board(legal)
            return automatic_end(self)
        uci, end = self._core.play(text)
        self._played(uci)
        if not self._in_core:
            return automatic_end(self)
        return None if end is None else F.ruling(end, self.where)

    def push_san(self, san: str) -> int:
        """Parse ``san`` in the current position, play it, and return how often
        the new position has now appeared.

        >>> h = History()
        >>> h.push_san("e4")
        1
        >>> h.ply
        1
        """
        return self.push(self.board.parse_san(san))

    def pop(self) -> chess.Move:
        """Take back the last move and restore the bookkeeping.

        >>> h = History()
        >>> _ = h.push_san("e4")
        >>> h.pop().uci(), h.ply
        ('e2e4', 0)
        """
        if self._core.ply == 0:
            raise IndexError("pop from a history with no moves")
        if not self._stack:
            raise ValueError("pop from a history made with stack=False")
        if self._pending:
            last = self._pending.pop()
            move = last if isinstance(last, chess.Move) else chess.Move.from_uci(last)
        else:
            move = self._board.pop()
        self._core.pop()
        self._synced()
        return move

    def where(self, plies: tuple[int, ...] | list[int]) -> str:
        """Where the positions of ``plies`` stood, as players say it.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> h.where((0, 4))
        'at the start, after 2…'
        """
        return positions_text(plies, self.board, self.ply)

    # --------------------------------------------------------------- queries
    def key(self) -> PositionKey:
        """The 9.2.3 identity of the current position.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> h.key() == h.key_at(0), h.key() == h.key_at(2)
        (True, False)
        """
        return tuple(self._core.key())

    def key_at(self, ply: int) -> PositionKey:
        """The 9.2.3 identity of the position after ``ply`` plies.

        >>> History().key_at(0) == History().key()
        True
        """
        return tuple(self._core.key_at(ply))

    def position_keys(self) -> Iterator[PositionKey]:
        """Iterate over the identities of all positions, from ply 0.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> keys = list(h.position_keys())
        >>> len(keys), keys[0] == keys[4]
        (5, True)
        """
        return (tuple(k) for k in self._core.position_keys())

    def occurrences(self, key: PositionKey | None = None) -> tuple[int, ...]:
        """Plies at which ``key`` (default: the current position) stood on the board.

        >>> History().occurrences()
        (0,)
        """
        return tuple(self._core.occurrences(None if key is None else list(key)))

    def count(self, key: PositionKey | None = None) -> int:
        """How often ``key`` (default: the current position) has appeared.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> h.count(), h.count(h.key_at(1))
        (2, 1)
        """
        if key is None:
            return int(self._core.count())
        return len(self._core.occurrences(list(key)))

    def window_start(self) -> int:
        """Ply of the last irreversible move (capture, pawn move or change of
        castling rights); no position before it can appear again.

        >>> h = History(); _ = h.push_san("Nf3"); _ = h.push_san("e5")
        >>> h.window_start()
        2
        """
        return int(self._core.window_start())

    def may_repeat_after_move(self) -> bool:
        """True if some position that appeared twice (in the current window)
        has the opponent to move: only then can an intended move make a
        third occurrence (9.2.1).  O(1) in all but repetitive games.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        ...     _ = h.push_san(san)
        >>> h.may_repeat_after_move()
        True
        """
        return bool(self._core.may_repeat_after_move())

    def repeating_moves(self) -> list[tuple[chess.Move, tuple[int, ...]]]:
        """Every legal move after which the position would stand on the board
        for at least the third time (a 9.2.1 claim), with the plies of its
        earlier occurrences.

        Such a move is reversible, so the target is a position seen twice in the
        current window, with the opponent's pieces where they are now and the
        mover's pieces differing on exactly two squares: the move is read off
        that difference instead of trying every legal move.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        ...     _ = h.push_san(san)
        >>> [(m.uci(), plies) for m, plies in h.repeating_moves()]
        [('f6g8', (0, 4))]
        """
        return [(chess.Move.from_uci(u), tuple(plies))
                for u, plies in self._core.repeating_moves()]

    def occurrences_after(self, move: chess.Move) -> tuple[int, ...]:
        """Plies at which the position after ``move`` already stood (empty if it
        is new).  ``move`` must be legal.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1"]:
        ...     _ = h.push_san(san)
        >>> h.occurrences_after(h.board.parse_san("Ng8"))
        (0,)
        """
        if self._core.exact:
            return tuple(self._core.occurrences_after(move.uci()))
        return tuple(self._core.occurrences_after_fen(*self.after(move)))

    def after(self, move: chess.Move) -> tuple[str, bool]:
        """The FEN of the position after ``move`` and whether ``move`` is a pawn
        move or a capture: how the core learns of a move in a position it
        does not hold (after an illegal move that stood).

        >>> History().after(chess.Move.from_uci("g1f3"))
        ('rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1', False)
        """
        b = self.board
        zeroing = b.is_zeroing(move)
        b.push(move)
        try:
            return b.fen(), zeroing
        finally:
            b.pop()


def _read_move(board: chess.Board, text: str) -> chess.Move | None:
    """The move ``text`` names on ``board`` (UCI, else SAN), read by python-chess."""
    try:
        return chess.Move.from_uci(text)
    except ValueError:
        pass
    try:
        return board.parse_san(text)
    except ValueError:
        return None

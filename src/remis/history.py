"""A game's history: occurrences of each position (9.2.3 identity) and the
no-progress counter, kept by the core (``remis._core``) so that the live
arbiter and the batch (``remis game``, the audit) count alike.

A position can only recur after the last *irreversible* move (a capture, a pawn
move, or a change of castling rights): every later position differs from every
earlier one in material, pawn structure or rights.  The history therefore keeps
a small "window" of positions that can still repeat, and the list of those that
have already appeared twice in it; a 9.2.1 claim (intended move) is only
possible when that list holds a position with the opponent to move.

This module is the Python face: it keeps a python-chess board in step with the
core's history for the caller (SAN, FEN, the move stack) and asks the core
everything about repetitions and counts.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

import chess

from remis import _core
from remis.identity import PositionKey


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
    """

    __slots__ = ("_candidates", "_core", "_stack", "board", "start_ply")

    def __init__(self, board: chess.Board | None = None, *, stack: bool = True) -> None:
        b = chess.Board() if board is None else board.copy(stack=False)
        self.board: chess.Board = b
        self._stack = stack
        #: ply number of the start position (0); kept for symmetry with PGN plies.
        self.start_ply = 0
        self._core = _core.History(None if board is None else b.fen(), chess960=b.chess960)
        self._candidates = _Candidates(self._core)

    @property
    def core(self) -> _core.History:
        """The core's history (``remis._core.History``) that this face keeps;
        :mod:`remis.rules` asks it for the facts of ends and claims.

        >>> History().core.ply
        0
        """
        return self._core

    # ------------------------------------------------------------------ moves
    @property
    def ply(self) -> int:
        """Number of plies played since the start position.

        >>> h = History()
        >>> _ = h.push_san("e4"); _ = h.push_san("e5")
        >>> h.ply
        2
        """
        return int(self._core.ply)

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
        b = self.board
        uci = move.uci()
        b.push(move)
        if not self._stack:
            b.clear_stack()
        try:
            return int(self._core.push_uci(uci))
        except ValueError:  # not legal where the core stands: the board's position
            return int(self._core.push_fen(b.fen()))

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
        move = self.board.pop()
        self._core.pop()
        return move

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
        return len(self._core.occurrences(None if key is None else list(key)))

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

    def repeat_candidates(self) -> Sequence[PositionKey]:
        """The positions that have appeared twice since the last irreversible
        move: the only possible targets of a 9.2.1 claim, and empty in all but
        repetitive games.  This is a live view of the history's own list, kept
        up to date by :meth:`push` and :meth:`pop` (a caller may hold on to it
        and test it after every move).

        >>> h = History()
        >>> live = h.repeat_candidates()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> live == [h.key()], live is h.repeat_candidates()
        (True, True)
        """
        return self._candidates

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


class _Candidates(Sequence[PositionKey]):
    """The core's list of positions that stood twice in the window, read
    afresh at every use (see :meth:`History.repeat_candidates`)."""

    __slots__ = ("_core",)

    def __init__(self, core: _core.History) -> None:
        self._core = core

    def __len__(self) -> int:
        return len(self._core.doubles())

    @overload
    def __getitem__(self, i: int) -> PositionKey: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[PositionKey]: ...
    def __getitem__(self, i: int | slice) -> PositionKey | Sequence[PositionKey]:
        keys = [tuple(k) for k in self._core.doubles()]
        return keys[i]

    def __eq__(self, other: object) -> bool:
        return list(self) == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))

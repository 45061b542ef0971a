"""Incremental game history: occurrences of each position (9.2.3 identity) and
the no-progress counter, so that repetition and move-count rules cost O(1) per
move instead of a rescan of the game.

A position can only recur after the last *irreversible* move (a capture, a pawn
move, or a change of castling rights): every later position differs from every
earlier one in material, pawn structure or rights.  The history therefore keeps
a small "window" of positions that can still repeat, and the list of those that
have already appeared twice in it; a 9.2.1 claim (intended move) is only
possible when that list holds a position with the opponent to move.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess

from remis.identity import PositionKey, position_key
from remis.unwinnable.moves import fast_ok, make, usable_ep

_WHITE = chess.WHITE
_BLACK = chess.BLACK
_SQUARES = chess.BB_SQUARES


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

    ``stack=False`` is for a caller that only plays moves forward (the
    audit): the board keeps no python-chess move stack, and :meth:`push`
    plays each move by bitboard updates (:func:`remis.unwinnable.moves.make`)
    with python-chess's clocks, about a third of the cost of
    ``Board.push``.  The position, the clocks and every answer are the
    same; only :meth:`pop` is not available.  (Chess960 boards and null
    moves still go through ``Board.push``.)

    >>> fast, usual = History(stack=False), History()
    >>> for san in ["e4", "c5", "e5", "d5", "exd6", "Qxd6", "Nf3", "Nc6", "Bb5", "Bd7", "O-O"]:
    ...     _ = fast.push(fast.board.parse_san(san)), usual.push_san(san)
    >>> fast.board.fen()
    'r3kbnr/pp1bpppp/2nq4/1Bp5/8/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 6'
    >>> fast.board.fen() == usual.board.fen(), fast.key() == usual.key(), fast.board.move_stack
    (True, True, [])
    """

    __slots__ = ("_doubles", "_keys", "_make", "_occ", "_windows", "board", "start_ply")

    def __init__(self, board: chess.Board | None = None, *, stack: bool = True) -> None:
        b = chess.Board() if board is None else board.copy(stack=False)
        self.board: chess.Board = b
        #: moves are played by :func:`make` (``stack=False`` on a standard board)
        self._make = not stack and fast_ok(b)
        #: ply number of the start position (0); kept for symmetry with PGN plies.
        self.start_ply = 0
        k = position_key(b)
        self._keys: list[PositionKey] = [k]
        self._occ: dict[PositionKey, list[int]] = {k: [0]}
        # plies at which a new window of repeatable positions began
        self._windows: list[int] = [0]
        # keys seen at least twice within the current window
        self._doubles: list[PositionKey] = []

    # ------------------------------------------------------------------ moves
    @property
    def ply(self) -> int:
        """Number of plies played since the start position.

        >>> h = History()
        >>> _ = h.push_san("e4"); _ = h.push_san("e5")
        >>> h.ply
        2
        """
        return len(self._keys) - 1

    def push(self, move: chess.Move) -> int:
        """Play ``move`` (which must be legal), update the bookkeeping in O(1)
        and return how often the new position has now appeared.

        >>> h = History()
        >>> h.push(chess.Move.from_uci("e2e4"))
        1
        >>> h.board.fen()
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
        """
        b = self.board
        if self._make and move:
            # Board.push's counters: the halfmove clock restarts on a pawn
            # move or a capture, the move number grows after Black's move
            zeroing = b.pawns & _SQUARES[move.from_square] or (
                b.occupied_co[not b.turn] & _SQUARES[move.to_square])
            if not b.turn:
                b.fullmove_number += 1
            make(b, move)
            b.halfmove_clock = 0 if zeroing else b.halfmove_clock + 1
        else:
            b.push(move)
        ep = b.ep_square
        # an en passant right counts only if a capture is legal (9.2.3.1); most double
        # steps have no enemy pawn beside them, which one table lookup shows (usable_ep)
        if ep is not None and (usable_ep(b) is None or not b.has_legal_en_passant()):
            ep = None
        occupied = b.occupied_co
        # after a push python-chess keeps ``castling_rights`` clean (its own
        # ``clean_castling_rights()`` returns them as they are once a move was made)
        castling = b.castling_rights
        k = (
            b.pawns,
            b.knights,
            b.bishops,
            b.rooks,
            b.queens,
            b.kings,
            occupied[1],
            occupied[0],
            int(b.turn),
            castling,
            -1 if ep is None else ep,
        )
        keys = self._keys
        ply = len(keys)
        prev = keys[-1]
        keys.append(k)
        if b.halfmove_clock == 0 or castling != prev[9]:
            # irreversible: nothing from before can ever appear again (material,
            # pawn structure and castling rights only ever decrease), so the
            # position is new
            self._windows.append(ply)
            if self._doubles:
                self._doubles.clear()
            self._occ[k] = [ply]
            return 1
        occ = self._occ.setdefault(k, [])
        occ.append(ply)
        n = len(occ)
        if n == 2:
            self._doubles.append(k)
        return n

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
        if len(self._keys) == 1:
            raise IndexError("pop from a history with no moves")
        if self._make:
            raise ValueError("pop from a history made with stack=False")
        move = self.board.pop()
        ply = len(self._keys) - 1
        k = self._keys.pop()
        occ = self._occ[k]
        occ.pop()
        if not occ:
            del self._occ[k]
        if self._windows[-1] == ply:
            self._windows.pop()
        start = self._windows[-1]
        self._doubles[:] = [
            key
            for key, plies in self._occ.items()
            if len(plies) >= 2 and plies[0] >= start
        ]
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
        return self._keys[-1]

    def key_at(self, ply: int) -> PositionKey:
        """The 9.2.3 identity of the position after ``ply`` plies.

        >>> History().key_at(0) == History().key()
        True
        """
        return self._keys[ply]

    def position_keys(self) -> Iterator[PositionKey]:
        """Iterate over the identities of all positions, from ply 0.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> keys = list(h.position_keys())
        >>> len(keys), keys[0] == keys[4]
        (5, True)
        """
        return iter(self._keys)

    def occurrences(self, key: PositionKey | None = None) -> tuple[int, ...]:
        """Plies at which ``key`` (default: the current position) stood on the board.

        >>> History().occurrences()
        (0,)
        """
        k = self._keys[-1] if key is None else key
        return tuple(self._occ.get(k, ()))

    def count(self, key: PositionKey | None = None) -> int:
        """How often ``key`` (default: the current position) has appeared.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> h.count(), h.count(h.key_at(1))
        (2, 1)
        """

        k = self._keys[-1] if key is None else key
        return len(self._occ.get(k, ()))

    def window_start(self) -> int:
        """Ply of the last irreversible move (capture, pawn move or change of
        castling rights); no position before it can appear again.

        >>> h = History(); _ = h.push_san("Nf3"); _ = h.push_san("e5")
        >>> h.window_start()
        2
        """
        return self._windows[-1]

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
        if not self._doubles:  # the usual case: nothing has appeared twice lately
            return False
        opp = int(not self.board.turn)
        return any(k[8] == opp for k in self._doubles)

    def repeat_candidates(self) -> list[PositionKey]:
        """The positions that have appeared twice since the last irreversible
        move: the only possible targets of a 9.2.1 claim, and empty in all but
        repetitive games.  This is the history's own list, kept up to date by
        :meth:`push` and :meth:`pop` (a replay may hold on to it and test it
        after every move): read it, never change it.

        >>> h = History()
        >>> live = h.repeat_candidates()
        >>> for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        ...     _ = h.push_san(san)
        >>> live == [h.key()], live is h.repeat_candidates()
        (True, True)
        """
        return self._doubles

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
        if not self._doubles:
            return []
        b = self.board
        cur = self._keys[-1]
        opp = int(not b.turn)
        mine, theirs = (6, 7) if b.turn == _WHITE else (7, 6)
        found: list[tuple[chess.Move, tuple[int, ...]]] = []
        for k in self._doubles:
            if k[8] != opp or k[theirs] != cur[theirs] or k[9] != cur[9] or k[10] != -1:
                continue
            before, after = cur[mine], k[mine]
            src, dst = before & ~after, after & ~before
            if chess.popcount(src) != 1 or chess.popcount(dst) != 1:
                continue
            move = chess.Move(chess.lsb(src), chess.lsb(dst))
            if not b.is_legal(move):
                continue
            plies = self.occurrences_after(move)
            if len(plies) >= 2:
                found.append((move, plies))
        return found

    def occurrences_after(self, move: chess.Move) -> tuple[int, ...]:
        """Plies at which the position after ``move`` already stood (empty if it
        is new).  ``move`` must be legal.

        >>> h = History()
        >>> for san in ["Nf3", "Nf6", "Ng1"]:
        ...     _ = h.push_san(san)
        >>> h.occurrences_after(h.board.parse_san("Ng8"))
        (0,)
        """
        b = self.board
        if b.is_zeroing(move) or b.is_castling(move):
            return ()
        b.push(move)
        try:
            k = position_key(b)
        finally:
            b.pop()
        if k[9] != self._keys[-1][9]:
            return ()
        return tuple(self._occ.get(k, ()))

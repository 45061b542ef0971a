"""The positions one legal move away, as packed keys, without playing the
moves: the width search's inner loop (:mod:`remis.unwinnable.width`).

Most moves a search generates lead to a position it has already seen (three
in four on the pawn walls of the CHA test vectors).  Playing each move on
the board, packing the result and undoing the move costs more than the rest
of the work on such a child; here the child's key (the integer of
:func:`remis.unwinnable.width.pack`) is computed from the parent's key with
a few bit operations per move, and the move generation works on bitboards
without building :class:`chess.Move` objects.

The children come in the order of python-chess's
:meth:`chess.Board.generate_legal_moves` (the same moves, the same order), so
a search gives the same results either way.  The common case only: out of
check, no castling right, no usable en passant square (the key says so).
Elsewhere :func:`successors` returns None and the caller plays the moves.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from remis.unwinnable.moves import attacked, attacked_squares, pin_blockers
from remis.unwinnable.reach import slider_targets

__all__ = ["successors"]

# python-chess's tables, as module globals (cheaper to look up in the loops)
_KNIGHT, _KING, _PAWN, _RAYS, _BACKRANKS = (
    chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS, chess.BB_PAWN_ATTACKS, chess.BB_RAYS,
    chess.BB_BACKRANKS)
#: The key's layout (:func:`remis.unwinnable.width.pack`): a bitboard per
#: piece type at ``64 * (type - 1)``, White's pieces at 384, the side to move
#: at 448, the en passant square and the castling rights above it.
_WHITE = 384
_TURN = 1 << 448
_EP = 449
#: Promotions in python-chess's order (queen, rook, bishop, knight): the
#: offset of the new piece's bitboard and the promotion's move code.
_PROMOTIONS = tuple((64 * (p - 1), p << 12)
                    for p in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT))


def successors(b: chess.Board, key: int) -> list[tuple[int, int]] | None:
    """The legal moves of ``b`` (a standard-chess board set to the packed
    ``key``) as ``(child key, move code)`` pairs, in python-chess's order;
    the move code is ``from | to << 6 | promotion << 12``.  None where the
    position is not the common case (in check, castling rights, a usable en
    passant square, no king).

    >>> from remis.unwinnable.width import pack, unpack
    >>> b = chess.Board("7k/8/8/8/8/8/8/R6K w - - 0 1")
    >>> kids = successors(b, pack(b))
    >>> len(kids) == b.legal_moves.count()
    True
    >>> child, code = kids[0]  # python-chess's first move: the king on h1, to h2
    >>> chess.Move(code & 63, code >> 6 & 63).uci()
    'h1h2'
    >>> unpack(b, child); b.fen()
    '7k/8/8/8/8/8/7K/R7 b - - 0 1'
    >>> successors(chess.Board(), pack(chess.Board())) is None  # castling rights
    True
    """
    if key >> _EP:
        return None
    turn = b.turn
    us = b.occupied_co[turn]
    own = b.kings & us
    if not own:
        return None
    king = own.bit_length() - 1
    if attacked(b, not turn, king):
        return None
    them = b.occupied_co[not turn]
    occupied = b.occupied
    pawns, knights, bishops, rooks = b.pawns, b.knights, b.bishops, b.rooks
    pinned = pin_blockers(b, king)
    base = key ^ _TURN
    out: list[tuple[int, int]] = []
    append = out.append

    def taken(s: int, sb: int) -> int:
        """The key bits of the enemy piece on ``s`` (never a king)."""
        if pawns & sb:
            bits = 1 << s
        elif knights & sb:
            bits = 1 << (s + 64)
        elif bishops & sb:
            bits = 1 << (s + 128)
        elif rooks & sb:
            bits = 1 << (s + 192)
        else:
            bits = 1 << (s + 256)
        return bits if turn else bits | 1 << (s + _WHITE)

    # pieces, from the highest square down (scan_reversed), each target so
    x = us & ~pawns
    while x:
        f = x.bit_length() - 1
        fb = 1 << f
        x ^= fb
        if knights & fb:
            offset, targets = 64, _KNIGHT[f]
        elif bishops & fb:
            offset, targets = 128, slider_targets(f, True, False, occupied)
        elif rooks & fb:
            offset, targets = 192, slider_targets(f, False, True, occupied)
        elif f != king:
            offset, targets = 256, slider_targets(f, True, True, occupied)
        else:
            offset, targets = 320, _KING[f] & ~us
            if targets:
                targets &= ~attacked_squares(b, not turn)
        targets &= ~us
        if pinned & fb:
            targets &= _RAYS[king][f]
        from_key = base ^ 1 << (f + offset)
        if turn:
            from_key ^= 1 << (f + _WHITE)
        while targets:
            s = targets.bit_length() - 1
            sb = 1 << s
            targets ^= sb
            child = from_key ^ 1 << (s + offset)
            if turn:
                child ^= 1 << (s + _WHITE)
            if them & sb:
                child ^= taken(s, sb)
            append((child, f | s << 6))
    mine = pawns & us
    if not mine:
        return out
    attacks = _PAWN[turn]
    # pawn captures, by pawn from the highest square down
    x = mine
    while x:
        f = x.bit_length() - 1
        fb = 1 << f
        x ^= fb
        targets = attacks[f] & them
        if targets and pinned & fb:
            targets &= _RAYS[king][f]
        while targets:
            s = targets.bit_length() - 1
            sb = 1 << s
            targets ^= sb
            child = base ^ fb ^ taken(s, sb)
            if turn:
                child ^= 1 << (f + _WHITE) | 1 << (s + _WHITE)
            _pawn_arrives(append, child, f, s, sb)
    # pushes: single steps, then double steps, by target square
    if turn:
        single = mine << 8 & ~occupied
        double = single << 8 & ~occupied & chess.BB_RANK_4
        step = 8
    else:
        single = mine >> 8 & ~occupied
        double = single >> 8 & ~occupied & chess.BB_RANK_5
        step = -8
    while single:
        s = single.bit_length() - 1
        sb = 1 << s
        single ^= sb
        f = s - step
        if pinned >> f & 1 and not _RAYS[king][f] & sb:
            continue
        child = base ^ 1 << f
        if turn:
            child ^= 1 << (f + _WHITE) | 1 << (s + _WHITE)
        _pawn_arrives(append, child, f, s, sb)
    while double:
        s = double.bit_length() - 1
        sb = 1 << s
        double ^= sb
        f = s - 2 * step
        if pinned >> f & 1 and not _RAYS[king][f] & sb:
            continue
        child = base ^ 1 << f ^ sb
        if turn:
            child ^= 1 << (f + _WHITE) | 1 << (s + _WHITE)
        ep = f + step
        if _PAWN[turn][ep] & pawns & them:  # the en passant right a pawn can use
            child |= (ep + 1) << _EP
        append((child, f | s << 6))
    return out


def _pawn_arrives(append: Callable[[tuple[int, int]], None], child: int, f: int, s: int,
                  sb: int) -> None:
    """Add the child where a pawn from ``f`` lands on ``s`` (``child``: the
    key with the pawn gone from ``f``, the capture and the colour bits
    done): as a pawn, or promoted to each piece on the last rank."""
    if sb & _BACKRANKS:
        for offset, code in _PROMOTIONS:
            append((child ^ 1 << (s + offset), f | s << 6 | code))
    else:
        append((child ^ sb, f | s << 6))

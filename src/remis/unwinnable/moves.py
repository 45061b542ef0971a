"""Cheap make/unmake of legal moves, and a search key of a position.

``python-chess``'s :meth:`chess.Board.push` keeps a move stack, clocks and a
full snapshot per move; a replay that only needs the positions needs none of
that (it identifies a position by :func:`search_key` and goes back to it by
:func:`restore`).
:func:`make` plays a *legal* move of a standard-chess board by bitboard
updates only, with the same placement, side to move, castling rights and en
passant square as ``push`` (the clocks and the move stack are left alone).
Boards in Chess960 mode keep using ``push``: callers check :func:`fast_ok`
first.
"""

from __future__ import annotations

from itertools import islice

import chess

Key = tuple[int, int, int, int, int, int, int, bool, int, int | None]

_SQ = chess.BB_SQUARES
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_BACK = (chess.BB_RANK_8, chess.BB_RANK_1)  # indexed by the side that moves

def usable_ep(b: chess.Board) -> int | None:
    """The en passant square of ``b`` if a pawn of the side to move attacks
    it, else None.  python-chess sets the square after every double step;
    where no pawn can capture there, the position has the same moves (and
    so the same future) as without it, and the searches take the two for
    one position (FIDE's "same position", Article 9.2.3, likewise ignores
    an en passant right that cannot be used).

    >>> usable_ep(chess.Board("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")) is None
    True
    >>> usable_ep(chess.Board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")) == chess.E3
    True
    """
    ep = b.ep_square
    if ep is None or not _PAWN_ATTACKS[not b.turn][ep] & b.pawns & b.occupied_co[b.turn]:
        return None
    return ep


def search_key(b: chess.Board) -> Key:
    """A search's key of a position: placement, side to move, castling
    rights and the en passant square if a pawn attacks it (:func:`usable_ep`;
    clocks do not matter for mates).  It is not the FIDE identity of 9.2.3
    (:func:`remis.position_key`, the core's, which keeps the square only
    where the capture is legal): a search may take one position for two,
    never two for one, and this key is cheaper and restores the board.

    >>> search_key(chess.Board())[7]
    True
    >>> (search_key(chess.Board("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"))
    ...  == search_key(chess.Board("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")))
    True
    """
    return (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings,
            b.occupied_co[True], b.turn, b.castling_rights, usable_ep(b))


def restore(b: chess.Board, k: Key) -> None:
    """Set ``b`` to the position of key ``k`` (no FEN parsing; the move
    stack and the clocks are not touched; an en passant square no pawn
    could use is gone, see :func:`search_key`).

    >>> b = chess.Board()
    >>> k = search_key(b)
    >>> make(b, chess.Move.from_uci("e2e4"))
    >>> restore(b, k)
    >>> b.fen() == chess.STARTING_FEN
    True
    """
    b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings = k[:6]
    occ = k[0] | k[1] | k[2] | k[3] | k[4] | k[5]
    b.occupied = occ
    b.occupied_co[True] = k[6]
    b.occupied_co[False] = occ & ~k[6]
    b.turn, b.castling_rights, b.ep_square = k[7], k[8], k[9]


def pseudo_legal_count(b: chess.Board, color: chess.Color, most: int | None = None) -> int:
    """The pseudo-legal moves ``color`` would have in ``b`` if it were to move
    (``b`` is left as it was), counted up to ``most`` when given.

    >>> pseudo_legal_count(chess.Board(), chess.BLACK), pseudo_legal_count(chess.Board(),
    ...                                                                    chess.BLACK, 7)
    (20, 7)
    """
    turn = b.turn
    b.turn = color
    try:
        return sum(1 for _ in islice(b.generate_pseudo_legal_moves(), most))
    finally:
        b.turn = turn


def legal_count(b: chess.Board, most: int) -> int:
    """The legal moves of the side to move in ``b``, counted up to ``most``
    (a cheap "are there at most so many?").

    >>> legal_count(chess.Board(), 5), legal_count(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), 5)
    (5, 0)
    """
    return sum(1 for _ in islice(b.generate_legal_moves(), most))


def fast_ok(b: chess.Board) -> bool:
    """Can :func:`make` be used on ``b``: standard chess, no promoted-piece
    bookkeeping, castling rights already clean (the moves keep them so).

    >>> fast_ok(chess.Board()), fast_ok(chess.Board(chess960=True))
    (True, False)
    """
    return not b.chess960 and not b.promoted and b.castling_rights == b.clean_castling_rights()


def make(b: chess.Board, move: chess.Move) -> None:
    """Play the legal ``move`` on ``b`` (see the module docstring); undo with
    :func:`restore` and the key taken before.

    >>> b = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    >>> make(b, chess.Move.from_uci("e1g1"))
    >>> b.board_fen(), b.castling_rights == chess.BB_A8 | chess.BB_H8
    ('r3k2r/8/8/8/8/8/8/R4RK1', True)
    """
    frm, to = move.from_square, move.to_square
    fbb, tbb = _SQ[frm], _SQ[to]
    turn = b.turn
    us = b.occupied_co[turn]
    them = b.occupied_co[not turn]
    ep = b.ep_square
    b.ep_square = None
    rights = b.castling_rights & ~fbb & ~tbb
    if them & tbb:
        keep = ~tbb
        b.pawns &= keep
        b.knights &= keep
        b.bishops &= keep
        b.rooks &= keep
        b.queens &= keep
        them &= keep
    elif b.pawns & fbb and to == ep and (to - frm) & 7:
        gone = ~_SQ[to - 8 if turn else to + 8]  # en passant
        b.pawns &= gone
        them &= gone
    us ^= fbb | tbb
    if b.pawns & fbb:
        b.pawns ^= fbb
        promo = move.promotion
        if promo is None:
            b.pawns |= tbb
            if to - frm == 16 or frm - to == 16:
                b.ep_square = (frm + to) >> 1
        elif promo == chess.QUEEN:
            b.queens |= tbb
        elif promo == chess.KNIGHT:
            b.knights |= tbb
        elif promo == chess.ROOK:
            b.rooks |= tbb
        else:
            b.bishops |= tbb
    elif b.knights & fbb:
        b.knights ^= fbb | tbb
    elif b.bishops & fbb:
        b.bishops ^= fbb | tbb
    elif b.rooks & fbb:
        b.rooks ^= fbb | tbb
    elif b.queens & fbb:
        b.queens ^= fbb | tbb
    else:
        b.kings ^= fbb | tbb
        rights &= ~_BACK[turn]
        if to - frm == 2 or frm - to == 2:  # castling (standard chess only)
            rook = _SQ[frm + 3] | _SQ[frm + 1] if to > frm else _SQ[frm - 4] | _SQ[frm - 1]
            b.rooks ^= rook
            us ^= rook
    b.occupied_co[turn] = us
    b.occupied_co[not turn] = them
    b.occupied = us | them
    b.castling_rights = rights
    b.turn = not turn

"""Cheap make/unmake of legal moves for the searches.

``python-chess``'s :meth:`chess.Board.push` keeps a move stack, clocks and a
full snapshot per move; the searches need none of that (they identify a
position by :func:`position_key` and go back to it by :func:`restore`).
:func:`make` plays a *legal* move of a standard-chess board by bitboard
updates only, with the same placement, side to move, castling rights and en
passant square as ``push`` (the clocks and the move stack are left alone).
Boards in Chess960 mode keep using ``push``: the searches check
:func:`fast_ok` first.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

import chess

from remis.unwinnable.ordered import KING_DIST
from remis.unwinnable.reach import pawn_spread

Key = tuple[int, int, int, int, int, int, int, bool, int, int | None]

_SQ = chess.BB_SQUARES
_KING_ATTACKS = chess.BB_KING_ATTACKS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_BACK = (chess.BB_RANK_8, chess.BB_RANK_1)  # indexed by the side that moves

#: By square, the whole lines through it (edges included; python-chess's
#: ``BB_*_MASKS`` leave the edge squares out): diagonals, file and rank, both.
DIAGONALS = [chess.BB_DIAG_ATTACKS[sq][0] for sq in chess.SQUARES]
ORTHOGONALS = [chess.BB_FILE_ATTACKS[sq][0] | chess.BB_RANK_ATTACKS[sq][0]
               for sq in chess.SQUARES]
LINES = [d | o for d, o in zip(DIAGONALS, ORTHOGONALS, strict=True)]

_KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
_RANK_ATTACKS, _FILE_ATTACKS, _DIAG_ATTACKS = (
    chess.BB_RANK_ATTACKS, chess.BB_FILE_ATTACKS, chess.BB_DIAG_ATTACKS)
_RANK_MASKS, _FILE_MASKS, _DIAG_MASKS = (
    chess.BB_RANK_MASKS, chess.BB_FILE_MASKS, chess.BB_DIAG_MASKS)

#: ``safe(king, blockers, move)``: is the pseudo-legal ``move`` legal?
SafeTest = Callable[[int, int, chess.Move], bool]


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


def position_key(b: chess.Board) -> Key:
    """The searches' identity of a position: placement, side to move,
    castling rights and the en passant square if a capture could use it
    (:func:`usable_ep`; clocks do not matter for mates).

    >>> position_key(chess.Board())[7]
    True
    >>> (position_key(chess.Board("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"))
    ...  == position_key(chess.Board("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")))
    True
    """
    return (b.pawns, b.knights, b.bishops, b.rooks, b.queens, b.kings,
            b.occupied_co[True], b.turn, b.castling_rights, usable_ep(b))


def restore(b: chess.Board, k: Key) -> None:
    """Set ``b`` to the position of key ``k`` (no FEN parsing; the move
    stack and the clocks are not touched; an en passant square no pawn
    could use is gone, see :func:`position_key`).

    >>> b = chess.Board()
    >>> k = position_key(b)
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


def attacked(b: chess.Board, color: chess.Color, square: int) -> bool:
    """``bool(b.attackers_mask(color, square))``, cheaper where nothing
    attacks: the steps (pawns, knights, king) first, the lines only where a
    slider of ``color`` stands on one through ``square``.

    >>> b = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> attacked(b, chess.WHITE, chess.A8), attacked(b, chess.WHITE, chess.B8)
    (True, False)
    """
    them = b.occupied_co[color]
    if (_KNIGHT_ATTACKS[square] & b.knights | _KING_ATTACKS[square] & b.kings
            | _PAWN_ATTACKS[not color][square] & b.pawns) & them:
        return True
    queens = b.queens
    straight = (b.rooks | queens) & them
    occupied = b.occupied
    if straight & ORTHOGONALS[square] and (
            _RANK_ATTACKS[square][_RANK_MASKS[square] & occupied]
            | _FILE_ATTACKS[square][_FILE_MASKS[square] & occupied]) & straight:
        return True
    diagonal = (b.bishops | queens) & them
    return bool(diagonal & DIAGONALS[square]
                and _DIAG_ATTACKS[square][_DIAG_MASKS[square] & occupied] & diagonal)


def attackers(b: chess.Board, color: chess.Color, square: int) -> int:
    """``b.attackers_mask(color, square)``, asked of python-chess only where
    :func:`attacked` finds an attacker (the common answer, none, costs a
    few table lookups).

    >>> b = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> attackers(b, chess.WHITE, chess.A8) == chess.BB_A1, attackers(b, chess.WHITE, chess.B8)
    (True, 0)
    """
    return b.attackers_mask(color, square) if attacked(b, color, square) else 0


def legality_test(board: chess.Board) -> SafeTest:
    """``board._is_safe`` (is the pseudo-legal ``move`` legal, given the
    king's square and its slider blockers?  Out of check, or among
    python-chess's evasions in check) for a standard-chess board, with the
    same answers and fewer calls: a king's step of two files is a castling
    (python-chess generates only legal ones), an en passant capture is left
    to python-chess.

    >>> b = chess.Board("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    >>> safe = legality_test(b)
    >>> [safe(b.king(chess.WHITE), 0, chess.Move.from_uci(u)) for u in ("e1d1", "e1f1")]
    [False, True]
    """
    is_safe = board._is_safe
    ray = chess.ray

    def safe(king: int, blockers: int, move: chess.Move) -> bool:
        frm, to = move.from_square, move.to_square
        if frm == king:
            return KING_DIST[frm][to] > 1 or not attacked(board, not board.turn, to)
        if to == board.ep_square and board.pawns & (1 << frm):
            return is_safe(king, blockers, move)
        return not blockers & (1 << frm) or bool(ray(frm, to) & (1 << king))

    return safe


def pin_blockers(b: chess.Board, king: int) -> int:
    """``b._slider_blockers(king)`` (the pieces that may be pinned to the
    king of the side to move on ``king``), skipped where no enemy slider
    stands on a line through the king (python-chess would find no sniper:
    the answer is 0).

    >>> b = chess.Board("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1")
    >>> chess.SquareSet(pin_blockers(b, chess.E1)) == chess.SquareSet([chess.E2])
    True
    """
    if (ORTHOGONALS[king] & (b.rooks | b.queens)
            | DIAGONALS[king] & (b.bishops | b.queens)) & b.occupied_co[not b.turn]:
        return b._slider_blockers(king)
    return 0


def attacked_squares(b: chess.Board, color: chess.Color) -> int:
    """The squares ``color`` attacks in ``b`` (the union of
    :meth:`chess.Board.attacks_mask` over its pieces): a square is in it
    exactly when ``b.attackers_mask(color, square)`` is not empty.  One
    pass over the attacker's pieces answers every king step of a
    position, where :meth:`chess.Board.is_attacked_by` would be asked once
    per step.

    >>> b = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    >>> chess.SquareSet(attacked_squares(b, chess.BLACK)) == chess.SquareSet(
    ...     chess.BB_KING_ATTACKS[chess.E8])
    True
    >>> bool(attacked_squares(b, chess.WHITE) & chess.BB_A8)
    True
    """
    them = b.occupied_co[color]
    out = pawn_spread(b.pawns & them, color)
    attacks = b.attacks_mask
    x = them & ~b.pawns
    while x:
        sq = x.bit_length() - 1
        x ^= 1 << sq
        out |= attacks(sq)
    return out


def legal_moves(b: chess.Board, safe: SafeTest) -> list[chess.Move]:
    """The legal moves of ``b``, as :meth:`chess.Board.generate_legal_moves`
    gives them (the same moves in the same order), tested with ``safe``
    (:func:`legality_test` of ``b``; ``b._is_safe`` for Chess960), with
    :func:`pin_blockers`; a king's steps are tested at once against
    :func:`attacked_squares` instead (the same answers as ``safe``: in
    check, python-chess's evasions already leave out the steps along a
    checking line).

    >>> b = chess.Board()
    >>> legal_moves(b, legality_test(b)) == list(b.generate_legal_moves())
    True
    """
    turn = b.turn
    own = b.kings & b.occupied_co[turn]
    if not own or b.chess960:
        return list(b.generate_legal_moves())
    king = own.bit_length() - 1  # as Board.king: the highest such square
    checkers = attackers(b, not turn, king)
    blockers = pin_blockers(b, king)
    moves = b._generate_evasions(king, checkers) if checkers else b.generate_pseudo_legal_moves()
    out = []
    danger = -1  # the squares the opponent attacks, once a king's step asks
    near = _KING_ATTACKS[king]
    for m in moves:
        to = m.to_square
        if m.from_square == king and near >> to & 1:
            if danger < 0:
                danger = attacked_squares(b, not turn)
            if not danger >> to & 1:
                out.append(m)
        elif safe(king, blockers, m):
            out.append(m)
    return out


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

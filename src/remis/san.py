"""Reading SAN moves fast: the common forms (a piece move that needs no
disambiguation, a king step, a pawn push, a pawn capture) straight from the
attack tables, everything else through python-chess's ``Board.parse_san``.

The result is always the move (or the error) that ``Board.parse_san`` gives
(except that a null move, ``--``, which is no move under the Laws, is an error):
a shortcut is taken only when exactly one piece of the named kind can reach
the target square and the move does not leave the king in check, which is
the case where ``parse_san`` finds exactly that one legal move (a king step
is always tested).  Castling (also written as a king move of two squares),
promotions, en passant and disambiguated or unusual forms always go to
``parse_san``.
"""

from __future__ import annotations

import re

import chess

_FORMS = re.compile(r"([KNBRQ]x?|[a-h]x)?([a-h][1-8])[+#]?\Z")
_SQUARES = {name: sq for sq, name in enumerate(chess.SQUARE_NAMES)}
_FILES = {name: i for i, name in enumerate(chess.FILE_NAMES)}
_KNIGHT = chess.BB_KNIGHT_ATTACKS
_KING = chess.BB_KING_ATTACKS
_DIAG, _DIAG_MASKS = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_RANK, _RANK_MASKS = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_FILE, _FILE_MASKS = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_RAYS = chess.BB_RAYS


def parse_san(board: chess.Board, san: str) -> chess.Move:
    """The move ``san`` names in ``board``'s position, exactly as
    ``board.parse_san(san)`` reads it (and raising the same errors), only
    faster for the common forms.

    >>> b = chess.Board()
    >>> parse_san(b, "Nf3").uci(), parse_san(b, "e4").uci(), parse_san(b, "e3").uci()
    ('g1f3', 'e2e4', 'e2e3')
    >>> parse_san(b, "Nd2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chess.IllegalMoveError: illegal san: 'Nd2' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR ...
    >>> parse_san(b, "--")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chess.IllegalMoveError: null move '--' is not a legal move in rnbqkbnr/...
    """
    m = _FORMS.match(san)
    if m is None:
        parsed = board.parse_san(san)
        if not parsed:  # "--", "Z0", "0000", "@@@@": python-chess reads them as a null move
            raise chess.IllegalMoveError(f"null move {san!r} is not a legal move in {board.fen()}")
        return parsed
    move = _shortcut(board, m.group(1), _SQUARES[m.group(2)])
    if move is None:
        return board.parse_san(san)  # the rare forms, and the errors
    # a piece off every line through its king, when the king is not in check,
    # cannot expose it: only the other moves need python-chess's full test
    turn = board.turn
    king = board.king(turn)
    if (king is None or move.from_square == king or _RAYS[king][move.from_square]
            or board.attackers_mask(not turn, king)) and board.is_into_check(move):
        return board.parse_san(san)
    return move


def _shortcut(board: chess.Board, head: str | None, to: int) -> chess.Move | None:
    """The one pseudo-legal move of the form, or None when there is not
    exactly one or the form is left to python-chess."""
    turn = board.turn
    own = board.occupied_co[turn]
    bit = 1 << to
    if own & bit:
        return None
    occupied = board.occupied
    if head is not None and head[0] in "KNBRQ":
        kind = head[0]
        if kind == "N":
            sources = _KNIGHT[to] & board.knights
        elif kind == "K":  # a step: castling written as a king move is python-chess's
            sources = _KING[to] & board.kings
        else:
            lines = 0
            if kind != "R":
                lines = _DIAG[to][_DIAG_MASKS[to] & occupied]
            if kind != "B":
                lines |= (_RANK[to][_RANK_MASKS[to] & occupied]
                          | _FILE[to][_FILE_MASKS[to] & occupied])
            sources = lines & (board.queens if kind == "Q" else
                               board.rooks if kind == "R" else board.bishops)
        sources &= own
        if not sources or sources & (sources - 1):
            return None  # no such piece, or a choice (pins decide): python-chess
        return chess.Move(sources.bit_length() - 1, to)
    rank = to >> 3
    if not (2 <= rank <= 6 if turn else 1 <= rank <= 5):
        return None  # a promotion, or no pawn could come from behind
    step = 8 if turn else -8
    pawns = board.pawns & own
    if head is None:  # a push
        if occupied & bit:
            return None
        src = to - step
        if pawns >> src & 1:
            return chess.Move(src, to)
        if rank == (3 if turn else 4) and not occupied >> src & 1 and pawns >> (src - step) & 1:
            return chess.Move(src - step, to)
        return None
    # a capture of a piece on the target square (en passant: python-chess)
    if not board.occupied_co[not turn] & bit:
        return None
    file = _FILES[head[0]]
    if abs(file - (to & 7)) != 1:
        return None
    src = to - step + file - (to & 7)
    if pawns >> src & 1:
        return chess.Move(src, to)
    return None

"""Positions given as FEN: read, and checked for legality with the reason
named (a position no series of legal moves reaches)."""

from __future__ import annotations

import chess


def parse_fen(fen: str) -> chess.Board:
    """Parse a FEN (X-FEN/Shredder castling selects Chess960) and check that
    the position is legal; raise :class:`ValueError` with a clear message.

    >>> parse_fen("8/8/8/8/8/8/8/Kk6 w - - 0 1").fen()
    Traceback (most recent call last):
    ...
    ValueError: illegal position: kings on adjacent squares (8/8/8/8/8/8/8/Kk6 w - - 0 1)
    """
    try:
        board = chess.Board(fen)
    except ValueError as exc:
        raise ValueError(f"malformed FEN {fen!r}: {exc}") from None
    if board.has_chess960_castling_rights():
        board.chess960 = True
    reason = illegal_reason(board)
    if reason is not None:
        raise ValueError(f"illegal position: {reason} ({fen})")
    return board


def illegal_reason(board: chess.Board) -> str | None:
    """Why python-chess finds the position illegal, or None when it is valid.

    >>> illegal_reason(chess.Board()) is None
    True
    >>> illegal_reason(chess.Board("k7/8/8/8/8/8/8/K6r b - - 0 1"))
    'the side not to move is in check'
    """
    status = board.status()
    if status != chess.STATUS_VALID:
        return _status_text(board, status)
    return _double_check_reason(board)


def _double_check_reason(board: chess.Board) -> str | None:
    """Why a double check cannot have arisen, or None.  python-chess refuses
    three checkers and two sliders on one line with the king; a double
    check needs more: the move before uncovered one checker, a bishop,
    rook or queen, by moving the other one (the mover) off the line between
    it and the king.  So a double check stands only if the mover could have
    come from a square of that line (a pawn, or a piece just promoted, by a
    pawn's step or capture).  Castling and en passant, which move or take
    two units, are given the benefit of the doubt, as is Chess960.

    >>> _double_check_reason(chess.Board("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1"))
    'two pieces give check and neither is a bishop, rook or queen'
    >>> _double_check_reason(chess.Board("4k3/8/8/8/1b5b/8/8/4K3 w - - 0 1"))
    'a double check that no move can have given'
    >>> _double_check_reason(chess.Board("4k3/8/8/1B6/8/8/8/4RK2 b - - 0 1")) is None
    True
    """
    checkers = board.checkers_mask()
    if checkers.bit_count() != 2:
        return None
    sliders = checkers & (board.bishops | board.rooks | board.queens)
    if not sliders:
        return "two pieces give check and neither is a bishop, rook or queen"
    king = board.king(board.turn)
    if king is None or board.chess960 or _castled_or_en_passant(board):
        return None
    for d in chess.scan_forward(sliders):
        line = chess.between(d, king)
        mover = (checkers & ~chess.BB_SQUARES[d]).bit_length() - 1
        if line & _origins(board, mover):
            return None
    return "a double check that no move can have given"


def _origins(board: chess.Board, to: chess.Square) -> int:
    """The squares the unit on ``to`` (of the side that just moved) could
    have moved from in one move: a piece's own moves (on today's board,
    which the move left as it is but for its from-square, empty now), and
    a pawn's steps and captures backward (for a pawn, or a piece on the
    last rank that may have just been promoted)."""
    bit = chess.BB_SQUARES[to]
    white = bool(board.occupied_co[chess.WHITE] & bit)
    out = 0
    if not board.pawns & bit:
        out |= board.attacks_mask(to)
    last = chess.BB_RANK_8 if white else chess.BB_RANK_1
    if board.pawns & bit or last & bit:
        back = -8 if white else 8
        src = to + back
        if 0 <= src < 64:
            out |= chess.BB_SQUARES[src]
            for side in (-1, 1):
                if 0 <= chess.square_file(to) + side < 8:
                    out |= chess.BB_SQUARES[src + side]
            start = chess.BB_RANK_4 if white else chess.BB_RANK_5
            if start & bit and 0 <= src + back < 64:
                out |= chess.BB_SQUARES[src + back]
    return out


def _castled_or_en_passant(board: chess.Board) -> bool:
    """The side that just moved may have castled (its king on c or g of its
    first rank, a rook beside it) or taken en passant (a pawn on its sixth
    rank with the square behind it empty): moves of two units, whose double
    checks :func:`_double_check_reason` does not try to explain."""
    moved = not board.turn
    own = board.occupied_co[moved]
    first = chess.BB_RANK_1 if moved else chess.BB_RANK_8
    kings = board.kings & own & first & (chess.BB_FILE_C | chess.BB_FILE_G)
    if kings and board.rooks & own & first & (chess.BB_FILE_D | chess.BB_FILE_F):
        return True
    sixth = chess.BB_RANK_6 if moved else chess.BB_RANK_3
    pawns = board.pawns & own & sixth
    behind = (pawns >> 8) if moved else (pawns << 8) & chess.BB_ALL
    return bool(behind & ~board.occupied)


_STATUS = [
    (chess.STATUS_NO_WHITE_KING, "no white king"),
    (chess.STATUS_NO_BLACK_KING, "no black king"),
    (chess.STATUS_TOO_MANY_KINGS, "too many kings"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "more than 8 white pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "more than 8 black pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "pawns on the first or last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "more than 16 white pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "more than 16 black pieces"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "castling rights without king and rook on their squares"),
    (chess.STATUS_INVALID_EP_SQUARE, "impossible en passant square"),
    (chess.STATUS_OPPOSITE_CHECK, "the side not to move is in check"),
    (chess.STATUS_EMPTY, "empty board"),
    (chess.STATUS_RACE_CHECK, "race check"),
    (chess.STATUS_RACE_OVER, "race over"),
    (chess.STATUS_RACE_MATERIAL, "race material"),
    (chess.STATUS_TOO_MANY_CHECKERS, "more than two pieces give check"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "a check no legal move can have given"),
]


def _status_text(board: chess.Board, status: int) -> str:
    wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
    if wk is not None and bk is not None and chess.square_distance(wk, bk) <= 1:
        return "kings on adjacent squares"
    if (status & chess.STATUS_OPPOSITE_CHECK and wk is not None and bk is not None
            and board.is_attacked_by(chess.BLACK, wk) and board.is_attacked_by(chess.WHITE, bk)):
        return "both kings in check"
    names = [text for flag, text in _STATUS if status & flag]
    return ", ".join(names) or f"status {status}"

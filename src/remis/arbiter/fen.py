"""A fast FEN of a standard-chess board, for the arbiter's state after every
event (python-chess's ``Board.fen()`` walks the 64 squares one by one and was
half the cost of an event).  The result is identical to ``board.fen()``."""

from __future__ import annotations

import chess

_LETTERS = "PNBRQK"
_DIGITS = "012345678"
_CASTLING = ((chess.BB_H1, "K"), (chess.BB_A1, "Q"), (chess.BB_H8, "k"), (chess.BB_A8, "q"))


def board_placement(board: chess.Board) -> str:
    """The piece-placement field of the FEN (``board.board_fen()``).

    >>> board_placement(chess.Board())
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'
    """
    cells = [""] * 64
    white = board.occupied_co[chess.WHITE]
    masks = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    for upper, mask in zip(_LETTERS, masks, strict=True):
        lower = upper.lower()
        while mask:
            lsb = mask & -mask
            cells[lsb.bit_length() - 1] = upper if white & lsb else lower
            mask ^= lsb
    rows = []
    for start in range(56, -8, -8):
        empty = 0
        row = ""
        for c in cells[start:start + 8]:
            if c:
                if empty:
                    row += _DIGITS[empty]
                    empty = 0
                row += c
            else:
                empty += 1
        if empty:
            row += _DIGITS[empty]
        rows.append(row)
    return "/".join(rows)


def fast_fen(board: chess.Board) -> str:
    """``board.fen()`` for a standard (non-Chess960) board, several times faster.

    >>> b = chess.Board(); b.push(chess.Move.from_uci("e2e4"))
    >>> fast_fen(b) == b.fen()
    True
    """
    if board.chess960:
        return board.fen()
    rights = board.clean_castling_rights()
    castling = "".join(letter for bb, letter in _CASTLING if rights & bb) or "-"
    ep = board.ep_square
    ep_text = chess.SQUARE_NAMES[ep] if ep is not None and board.has_legal_en_passant() else "-"
    return (f"{board_placement(board)} {'w' if board.turn else 'b'} {castling} {ep_text} "
            f"{board.halfmove_clock} {board.fullmove_number}")

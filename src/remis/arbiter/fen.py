"""A fast FEN of a standard-chess board, for the arbiter's state after every
event (python-chess's ``Board.fen()`` walks the 64 squares one by one and was
half the cost of an event).  The result is identical to ``board.fen()``."""

from __future__ import annotations

import re

import chess

_SYMBOLS = [(chess.PAWN, ("p", "P")), (chess.KNIGHT, ("n", "N")), (chess.BISHOP, ("b", "B")),
            (chess.ROOK, ("r", "R")), (chess.QUEEN, ("q", "Q")), (chess.KING, ("k", "K"))]
_RUNS = re.compile("1{2,8}")
_CASTLING = ((chess.BB_H1, "K"), (chess.BB_A1, "Q"), (chess.BB_H8, "k"), (chess.BB_A8, "q"))


def _run_length(m: re.Match[str]) -> str:
    return str(len(m.group()))


def fast_fen(board: chess.Board) -> str:
    """``board.fen()`` for a standard (non-Chess960) board, several times faster.

    >>> b = chess.Board(); b.push(chess.Move.from_uci("e2e4"))
    >>> fast_fen(b) == b.fen()
    True
    """
    if board.chess960:
        return board.fen()
    cells = ["1"] * 64
    occ_w = board.occupied_co[chess.WHITE]
    for piece_type, (low, high) in _SYMBOLS:
        mask = board.pieces_mask(piece_type, chess.WHITE) | board.pieces_mask(
            piece_type, chess.BLACK)
        for sq in chess.scan_forward(mask):
            cells[sq] = high if occ_w >> sq & 1 else low
    placement = _RUNS.sub(_run_length, "/".join(
        "".join(cells[rank * 8:rank * 8 + 8]) for rank in range(7, -1, -1)))
    rights = board.clean_castling_rights()
    castling = "".join(letter for bb, letter in _CASTLING if rights & bb) or "-"
    ep = board.ep_square
    ep_text = chess.SQUARE_NAMES[ep] if ep is not None and board.has_legal_en_passant() else "-"
    return (f"{placement} {'w' if board.turn else 'b'} {castling} {ep_text} "
            f"{board.halfmove_clock} {board.fullmove_number}")

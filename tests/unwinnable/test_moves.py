"""The searches' cheap make/restore agrees with python-chess's push."""

from __future__ import annotations

import random

import chess

from remis.unwinnable.moves import fast_ok, make, position_key, restore

FENS = [
    chess.STARTING_FEN,
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",      # castling both ways, promotions
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",              # en passant
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1",
]


def test_make_matches_push_on_random_walks() -> None:
    rng = random.Random(7)
    checked = 0
    for fen in FENS:
        for _ in range(5):
            board = chess.Board(fen)
            assert fast_ok(board)
            for _ply in range(40):
                moves = list(board.generate_legal_moves())
                if not moves:
                    break
                key = position_key(board)
                for move in moves:
                    pushed = board.copy(stack=False)
                    pushed.push(move)
                    make(board, move)
                    assert position_key(board) == position_key(pushed), (board.fen(), move)
                    restore(board, key)
                    assert position_key(board) == key
                    checked += 1
                board.push(rng.choice(moves))
    assert checked > 5000


def test_fast_path_refuses_unclean_castling_rights() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1")  # rights without rooks
    assert not fast_ok(board)

"""The cheap make/restore of legal moves and the search key agree with
python-chess."""

from __future__ import annotations

import random

import chess

from remis.unwinnable.moves import fast_ok, make, restore, search_key

FENS = [
    chess.STARTING_FEN,
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1",      # castling both ways, promotions
    "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",              # en passant
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1",
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",               # en passant skewered on the rank
    "4k3/8/8/1b6/3pP3/8/5K2/8 b - e3 0 1",            # en passant, the capturer pinned
    "r3k2r/8/8/8/1b6/8/3N4/R3K2R w KQkq - 0 1",       # a pinned knight, castling
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
                key = search_key(board)
                for move in moves:
                    pushed = board.copy(stack=False)
                    pushed.push(move)
                    make(board, move)
                    assert search_key(board) == search_key(pushed), (board.fen(), move)
                    restore(board, key)
                    assert search_key(board) == key
                    checked += 1
                board.push(rng.choice(moves))
    assert checked > 5000


def test_positions_that_differ_only_by_an_unusable_en_passant_square_are_one() -> None:
    # python-chess sets the square after every double step; the key
    # keeps it only where a pawn of the side to move attacks it
    walked = unusable = 0
    rng = random.Random(5)
    for fen in FENS:
        board = chess.Board(fen)
        for _ply in range(60):
            moves = list(board.generate_legal_moves())
            if not moves:
                break
            board.push(rng.choice(moves))
            plain = board.copy(stack=False)
            plain.ep_square = None
            key = search_key(board)
            if board.ep_square is None:
                continue
            walked += 1
            if key == search_key(plain):
                unusable += 1
                assert set(board.generate_legal_moves()) == set(plain.generate_legal_moves())
                assert not board.has_legal_en_passant()
            else:
                assert key[9] == board.ep_square
    assert unusable > 5
    # a pawn that could capture keeps the square, even where the capture
    # would be illegal (the key is on the safe side: never two positions
    # with different moves taken for one)
    for fen in ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"):
        board = chess.Board(fen)
        assert search_key(board)[9] == board.ep_square is not None


def test_fast_path_refuses_unclean_castling_rights() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1")  # rights without rooks
    assert not fast_ok(board)

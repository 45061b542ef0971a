"""The bitboard helpers and the frozen/confined fixed point of
:mod:`remis.unwinnable.reach`."""

from __future__ import annotations

import random

import chess

from remis.unwinnable.reach import (
    BB_ALL,
    analyse,
    king_spread,
    knight_spread,
    pawn_spread,
    push_stop,
    slide_attacks,
    slider_targets,
)


def test_spreads_match_python_chess_tables() -> None:
    for sq in chess.SQUARES:
        bb = chess.BB_SQUARES[sq]
        assert king_spread(bb) == chess.BB_KING_ATTACKS[sq] | bb
        assert knight_spread(bb) == chess.BB_KNIGHT_ATTACKS[sq]
        for color in chess.COLORS:
            assert pawn_spread(bb, color) == chess.BB_PAWN_ATTACKS[color][sq]


def test_parallel_slides_match_table_lookups() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        occupied = rng.getrandbits(64) & rng.getrandbits(64)
        sq = rng.randrange(64)
        for diagonal, straight in ((True, False), (False, True), (True, True)):
            assert (slide_attacks(chess.BB_SQUARES[sq], BB_ALL & ~occupied, diagonal, straight)
                    == slider_targets(sq, diagonal, straight, occupied))


def test_push_stop_for_black() -> None:
    stop = push_stop(chess.D7, chess.BLACK, chess.BB_D3)
    assert stop == chess.BB_D1 | chess.BB_D2 | chess.BB_D3
    assert push_stop(chess.D7, chess.BLACK, chess.BB_E3) == 0


def test_wall_freezes_pawns_and_splits_the_kings() -> None:
    board = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
    a = analyse(board)
    assert a is not None
    assert a.frozen == board.pawns
    assert a.king_region[chess.WHITE] & chess.BB_RANK_5 == 0
    assert a.king_region[chess.BLACK] & chess.BB_RANK_4 == 0


def test_pawn_that_can_be_won_is_not_frozen() -> None:
    # The black king can take h5 (nothing defends it): the wall is not frozen.
    board = chess.Board("8/8/6k1/1p1p1p1P/1P1P1P2/4K3/8/8 w - - 0 1")
    a = analyse(board)
    assert a is not None
    assert not a.frozen & chess.BB_H5


def test_confined_pawns_never_pass_each_other() -> None:
    # a2 and a5 can never capture (nothing ever stands on the b-file) nor be
    # captured: neither passes the other.
    board = chess.Board("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1")
    a = analyse(board)
    assert a is not None
    assert not a.mobility[chess.A2].promotes
    assert a.king_region[chess.BLACK] & chess.BB_RANK_6 == 0

"""Quick mode: what it decides cheaply (the final positions of real lichess
losses on time that should have been draws) and what it leaves open."""

from __future__ import annotations

import random

import chess
import pytest

from remis.position import illegal_reason
from remis.unwinnable import can_checkmate

# from lichess-unfair-timeouts.txt: the side to move lost on time; the other
# side cannot mate, and quick mode proves it by the stage named
QUICK_PROOFS = [
    # both captures of the rook on g6 leave Black a bare king
    ("6k1/6PR/6rK/7P/8/8/8/8 w - - 0 55", "exhaustive"),
    # every white pawn is blocked; the white king never passes the wall
    ("8/8/1k6/1p1p2p1/1P1P2P1/1K4P1/8/8 b - - 1 52", "static"),
    # White's only move, Kxb7, takes Black's last piece
    ("K7/1r6/8/8/8/8/3k4/8 w - - 0 64", "forced"),
    # Black (king and two pawns, no move at all) waits for a mate that never comes
    ("8/7R/2R4p/4P2k/P4Pp1/5KP1/P6P/8 w - - 0 43", "exhaustive"),
    # Black's only move ...g3+ leaves it stalemated after any white reply
    ("3R4/8/8/5p2/1P3Pp1/k1P5/2Q2KP1/8 b - - 2 50", "exhaustive"),
    # White's only move h5 is forced; from the start, every line of three plies
    # stalemates White (the proof tried where the forced moves end on Black's turn)
    ("r1b5/pp4p1/2p3kp/8/6PP/6bK/5q2/8 w - - 0 42", "exhaustive"),
    # the white king is in check from e5: after each of its moves the structure holds
    ("8/8/p2k4/Pp2p3/1P1KP1p1/4P1P1/8/8 w - - 0 34", "static"),
    # Black's f7 and f6 stand behind f5, rammed by f4: no black pawn is free
    ("8/5p2/1k3p1p/3p1p1P/p1pP1P2/P1P4K/8/8 w - - 28 76", "static"),
    # a black knight behind a locked wall never reaches the white king's side
    ("1n6/2Bp4/p1pPp1k1/PpP1Pp1p/1P3P1P/2K5/8/8 w - - 7 53", "static"),
]

#: CHA test vectors (unwinnable for both sides) where a knight stands beside
#: a locked structure
KNIGHTS_BEHIND_WALLS = [
    "7k/8/8/8/4p1p1/p2pP1Pp/P2P3P/2K2N2 w - - 0 1",
    "4k3/8/8/8/1p1p1p2/1P1P1Pp1/B1BPB1P1/NB1B1BK1 w - - 0 1",
]


#: questions that CHA's quick mode proves (CHA test vectors and mutations of
#: them, with the colours asked): every line of seven plies ends, or few positions
#: are reachable behind a closed structure or beside a king that cannot move
CHA_QUICK_PROOFS = [
    ("8/7p/k4p1P/5p1K/5Pp1/6P1/6P1/8 w - - 0 1", "white black"),
    ("8/1p6/kPp3p1/2P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1", "white black"),
    ("k7/p1p1p3/8/8/P1P5/4P1p1/6Pp/7K w - - 0 1", "white black"),
    ("1kb5/1p1p4/1P1P2p1/6p1/6Pb/6p1/6P1/7K w - - 0 1", "white black"),
    ("8/1p6/1p6/kPp5/2P5/1pP5/1P1K4/8 b - - 0 1", "white black"),
    ("1Q6/8/p7/P1p5/K1p5/P1Pn4/PQQ5/k2n4 b - - 0 1", "white black"),
    ("Bk6/1P6/1P6/8/5p1p/P7/RPPP1P1P/4K3 w - - 0 1", "white black"),
    ("n6k/2p1q1Q1/pppp1PPK/5PPP/8/6PP/8/8 b - - 0 1", "black"),
    ("1N5B/p5K1/P2p4/2pPk1p1/2P1p1P1/b3P1P1/2P5/8 b - - 0 1", "black"),
    ("5brk/4p1p1/3pP1P1/1B1P2p1/3p4/3P2p1/5KP1/8 w - - 0 1", "white black"),
    ("k1b5/1pPp4/1P1P3p/1P6/5P1P/5PNR/3NPBBQ/4K2R w - - 0 1", "white black"),
    ("k1b5/1pPp4/1P1P3p/1P6/5P1P/5PNR/3NPBBQ/4K2R w K - 0 1", "black"),
    ("8/1p6/1Pp3p1/k1P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1", "white black"),
    ("n6k/2p1q1Q1/pppp1PPK/6PP/8/6PP/8/8 b - - 0 1", "white"),
    ("k7/Pp6/1P2K3/8/5p1p/P7/RPPP1P1P/8 b - - 0 1", "white"),
    ("8/1p6/1p1K4/kPp5/2P5/1pP5/1P6/8 b - - 0 1", "black"),
]


@pytest.mark.parametrize(("fen", "colors"), CHA_QUICK_PROOFS)
def test_quick_mode_proves_what_chas_quick_mode_proves(fen: str, colors: str) -> None:
    board = chess.Board(fen)
    for color in colors.split():
        quick = can_checkmate(board, color == "white", mode="quick")
        assert quick.value is False, (color, quick.reason)


@pytest.mark.parametrize(("fen", "method"), QUICK_PROOFS)
def test_quick_mode_proves_real_unfair_timeouts(fen: str, method: str) -> None:
    board = chess.Board(fen)
    quick = can_checkmate(board, not board.turn, mode="quick")
    assert (quick.value, quick.method) == (False, method), quick.reason
    assert board.fen() == fen and not board.move_stack  # the caller's board is left alone
    assert can_checkmate(board, not board.turn).value is False


@pytest.mark.parametrize("fen", KNIGHTS_BEHIND_WALLS)
def test_quick_mode_proves_knights_behind_walls(fen: str) -> None:
    board = chess.Board(fen)
    for color in chess.COLORS:
        quick = can_checkmate(board, color, mode="quick")
        assert (quick.value, quick.method) == (False, "static"), quick.reason
        assert can_checkmate(board, color).value is False


def test_quick_mode_leaves_open_positions_without_searching() -> None:
    # the starting position and a middlegame: a glance (a few nodes), no search
    for fen in (chess.STARTING_FEN,
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"):
        v = can_checkmate(chess.Board(fen), chess.WHITE, mode="quick")
        assert v.value is None and v.nodes < 20, v.reason


def test_quick_mode_mates_with_a_lone_queen_rook_or_pawn() -> None:
    # with at most four units on the board quick mode searches longer
    # (QUICK_FEW_NODES): the mate in one it used to miss, and most random
    # K+Q v K, K+R v K and K+P v K positions; every line replays to a mate
    from tests.unwinnable.helpers import mates

    fen = "8/8/8/8/8/2k5/4q3/K7 b - - 0 1"
    quick = can_checkmate(chess.Board(fen), chess.BLACK, mode="quick")
    assert quick.value is True and mates(fen, chess.BLACK, quick.line), quick.reason
    rng = random.Random(3)
    for unit in "QRP":
        found = tried = 0
        while tried < 100:
            board = chess.Board(None)
            squares = rng.sample(range(64), 3)
            for square, symbol in zip(squares, ("K", "k", unit), strict=True):
                board.set_piece_at(square, chess.Piece.from_symbol(symbol))
            board.turn = rng.random() < 0.5
            if illegal_reason(board) is not None:
                continue
            tried += 1
            verdict = can_checkmate(board, chess.WHITE, mode="quick")
            if verdict.value:
                assert mates(board.fen(), chess.WHITE, verdict.line)
                found += 1
            else:  # a forced stalemate or capture, or left open
                assert verdict.value is None or verdict.method in ("forced", "exhaustive")
        assert found >= 50, (unit, found)  # now 77, 61, 88; 23, 21, 20 with 20 nodes

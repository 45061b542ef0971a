"""The focus of :mod:`remis.unwinnable.focus`: pieces that can never take
part in a mate held still, so that the width search finds deep helpmates
behind pawn walls; a heuristic for finding mates, never for proofs."""

from __future__ import annotations

import chess
import pytest

import remis
from remis.unwinnable.focus import idle_pieces
from remis.unwinnable.width import WidthSearch

from .helpers import mates

# left open by full mode before the focus (a differential check against CHA,
# which finds a mate): Black's king and three dark bishops are shut above a
# wall that no piece can cross; the mate is below it, with White's king and
# light bishops filling a1, a2 and b1 and Black's last bishop giving it
WALL = "3b4/b1k5/7b/p1p1p1p1/P1P1P1P1/2K5/4BbB1/8 w - - 0 1"


def test_the_pieces_shut_above_the_wall_are_idle_but_one() -> None:
    board = chess.Board(WALL)
    still = idle_pieces(board, chess.BLACK)
    # of Black's king and bishops above the wall, all but the most mobile one
    # (kept for waiting moves); nothing of White's, nor the bishop below
    assert chess.SquareSet(still) == chess.SquareSet([chess.H6, chess.A7, chess.D8])
    assert not still & (board.pawns | board.occupied_co[chess.WHITE])


def test_the_focused_width_search_finds_the_mate_the_whole_one_misses() -> None:
    board = chess.Board(WALL)
    focused = WidthSearch(board, chess.BLACK, still=idle_pieces(board, chess.BLACK))
    found = focused.run(150_000)
    assert found.outcome == "mate" and mates(WALL, chess.BLACK, found.line)
    assert WidthSearch(board, chess.BLACK).run(150_000).outcome == "limit"


# the other question that differential check left open: White's light
# bishops above the wall must mate Black's king in a corner; Black's dark
# bishops below it (CHA's helpmate is about 400 plies long)
BELOW = "4B1Bb/7B/1k5b/5B2/1p1p1pBp/bPpP1P1P/2Pb4/N1b1b1K1 b - - 0 1"


@pytest.mark.parametrize("fen,color", [(WALL, chess.BLACK), (BELOW, chess.WHITE)])
def test_full_mode_decides_the_question_by_the_focus(fen: str, color: chess.Color) -> None:
    verdict = remis.can_checkmate(chess.Board(fen), color)
    assert (verdict.value, verdict.method) == (True, "focus")
    assert mates(fen, color, verdict.line)


def test_the_losers_pieces_that_can_neither_block_nor_take_are_idle() -> None:
    # Black's dark bishops below the wall can neither come near Black's king
    # nor take a light bishop of White's: all but one are held; White's
    # knight in the corner is idle too (White's king is its side's kept piece)
    still = idle_pieces(chess.Board(BELOW), chess.WHITE)
    assert chess.SquareSet(still) == chess.SquareSet([chess.A1, chess.C1, chess.E1, chess.D2])


def test_running_out_of_positions_with_pieces_held_is_no_proof() -> None:
    # White mates with its bishop; held still, only the kings move: the
    # focused search runs out of positions, and that proves nothing
    board = chess.Board("kb6/8/1K6/8/8/8/8/3B4 w - - 0 1")
    assert WidthSearch(board, chess.WHITE).run(300_000).outcome == "mate"
    held = WidthSearch(board, chess.WHITE, still=chess.BB_D1)
    result = held.run(300_000)
    assert result.outcome == "limit" and result.line == () and result.nodes < 300_000
    assert held.run(600_000).nodes == result.nodes  # and stays so, at no cost


@pytest.mark.parametrize("fen,color", [
    ("rnbqkbnr/pppp1ppp/8/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3", chess.WHITE),  # en passant
    (chess.STARTING_FEN, chess.WHITE),
    ("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", chess.WHITE),
])
def test_nothing_is_held_where_the_analysis_does_not_apply_or_all_pieces_matter(
        fen: str, color: chess.Color) -> None:
    assert idle_pieces(chess.Board(fen), color) == 0

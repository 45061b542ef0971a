"""Soundness against an independent proof: on random positions behind a pawn
wall (where "cannot mate" is common and comes from every stage: the static
proof, forced moves, exhausted searches), every "cannot" of full mode is
confirmed by the breadth-first visit of every reachable position, every
"can" replays to a mate, and nothing is left undecided."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from remis.unwinnable import can_checkmate
from remis.unwinnable.search import Visit
from tests.unwinnable.helpers import mates


@st.composite
def walled(draw: st.DrawFn) -> chess.Board:
    """A white pawn and a black pawn in front of it on every file, on ranks
    that differ from the next file's (so that no pawn can capture), the
    white king below the wall and the black king above it, and at most one
    more piece anywhere."""
    board = chess.Board(None)
    rank = None
    for file in range(8):
        rank = draw(st.sampled_from([r for r in range(1, 6) if r != rank]))
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(chess.square(file, rank + 1), chess.Piece(chess.PAWN, chess.BLACK))
    if draw(st.booleans()):
        square = draw(st.sampled_from([s for s in chess.SQUARES if not board.piece_at(s)]))
        board.set_piece_at(square, chess.Piece.from_symbol(draw(st.sampled_from("BbNnRrQq"))))
    walls = {(chess.square_file(s), chess.square_rank(s)) for s in chess.SquareSet(board.pawns)}
    empty = [s for s in chess.SQUARES if not board.piece_at(s)]
    below = [s for s in empty if all(chess.square_rank(s) < r for f, r in walls
                                     if f == chess.square_file(s))]
    above = [s for s in empty if all(chess.square_rank(s) > r for f, r in walls
                                     if f == chess.square_file(s))]
    board.set_piece_at(draw(st.sampled_from(below)), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(draw(st.sampled_from(above)), chess.Piece(chess.KING, chess.BLACK))
    board.turn = draw(st.booleans())
    return board


@settings(max_examples=60, deadline=None)
@given(walled(), st.booleans())
def test_every_cannot_is_confirmed_by_visiting_every_reachable_position(
        board: chess.Board, white: bool) -> None:
    if not board.is_valid():
        return
    color = chess.WHITE if white else chess.BLACK
    verdict = can_checkmate(board, color)
    assert verdict.value is not None, verdict.reason
    quick = can_checkmate(board, color, mode="quick")
    assert quick.value in (None, verdict.value), (board.fen(), quick.reason, verdict.reason)
    if verdict.value:
        assert mates(board.fen(), color, verdict.line)
    else:
        visit = Visit(board, color).run(300_000)
        assert visit.outcome != "mate", (board.fen(), verdict.reason, visit.line)

"""Quick mode's proof by the replies (:mod:`remis.unwinnable.replies`): every
line of one (or three) plies ends the game or leaves the would-be winner
without mating material."""

from __future__ import annotations

import chess
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from remis.position import illegal_reason
from remis.unwinnable import can_checkmate
from remis.unwinnable.material import material_reason
from remis.unwinnable.replies import every_line_ends
from tests.unwinnable.helpers import mates

# final positions of lichess-unfair-timeouts.txt that quick mode left open
# before this proof (the side to move lost on time; the other cannot mate)
REAL = [
    # White, in check from the pawn on a3, has seven king moves; each stalemates Black
    ("5Q2/8/7R/2p1k3/2P3Q1/p7/PK6/8 w - - 0 45", chess.BLACK),
    # Black, in check from the queen, must take it (three ways); each stalemates White
    ("8/5p1p/4pbQk/p2p2N1/7K/r6P/1p4r1/8 b - - 0 51", chess.WHITE),
    # not in check: every one of Black's 40 moves stalemates the white king and pawn
    ("4q2k/7p/6pK/6P1/8/8/8/3q4 b - - 0 67", chess.WHITE),
]


@pytest.mark.parametrize(("fen", "winner"), REAL)
def test_quick_mode_proves_real_timeouts_by_the_replies(fen: str, winner: chess.Color) -> None:
    board = chess.Board(fen)
    ends = every_line_ends(board, winner)
    assert ends == (board.legal_moves.count(), 0)  # each ends the game
    quick = can_checkmate(board, winner, mode="quick")
    assert (quick.value, quick.method) == (False, "exhaustive"), quick.reason
    assert quick.reason.startswith("exhausted search: every legal move of")
    assert board.fen() == fen and not board.move_stack  # left as it was
    # full mode does not use this proof: its own stages must agree
    assert can_checkmate(board, winner).value is False


def test_material_replies() -> None:
    # both captures of the rook on g6 leave Black a bare king
    board = chess.Board("6k1/6PR/6rK/7P/8/8/8/8 w - - 0 55")
    assert every_line_ends(board, chess.BLACK) == (0, 2)


def test_no_proof_where_a_reply_keeps_the_game_going() -> None:
    # Black to move, in check from the rook; ...Kb8 keeps White's queen and rook
    assert every_line_ends(chess.Board("k7/8/8/8/8/8/8/R1Q1K3 b - - 0 1"), chess.WHITE) is None
    assert every_line_ends(chess.Board(), chess.WHITE) is None
    # the would-be winner to move: its quiet moves keep the game going
    assert every_line_ends(chess.Board("7k/6Q1/8/8/8/8/8/K7 w - - 0 1"), chess.WHITE) is None
    # no legal move at all (checkmate): the game is over, nothing to prove here
    assert every_line_ends(chess.Board("R6k/6pp/8/8/8/8/8/K7 b - - 0 1"), chess.WHITE) is None


def test_a_mate_within_the_plies_is_not_an_end() -> None:
    # White must play Kh8; then every black move but one stalemates White (or leaves it
    # stalemated a ply later), and that one, Qg7, mates: nothing is proved
    board = chess.Board("6K1/5q2/7k/8/8/1b6/8/8 w - - 0 1")
    assert every_line_ends(board, chess.BLACK, 3) is None
    v = can_checkmate(board, chess.BLACK)
    assert v.value is True and mates(board.fen(), chess.BLACK, v.line)


@st.composite
def near_the_end(draw: st.DrawFn) -> tuple[chess.Board, chess.Color]:
    """The would-be winner (not to move) with a queen, rook or pawn next to
    the loser's king and up to two more units on random squares (a minor
    piece of either side, a pawn or a queen of the loser): positions where
    the loser's replies often must take the last unit that could mate, or
    stalemate the winner.  Only legal positions where material alone does
    not already decide."""
    winner = draw(st.booleans())
    board = chess.Board(None)
    board.turn = not winner
    king = draw(st.sampled_from(chess.SQUARES))
    board.set_piece_at(king, chess.Piece(chess.KING, not winner))
    beside = draw(st.sampled_from(list(chess.SquareSet(chess.BB_KING_ATTACKS[king]))))
    kind = draw(st.sampled_from([chess.QUEEN, chess.ROOK, chess.PAWN]))
    if kind == chess.PAWN and chess.square_rank(beside) in (0, 7):
        kind = chess.QUEEN
    board.set_piece_at(beside, chess.Piece(kind, winner))
    free = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
    squares = draw(st.lists(st.sampled_from(free), min_size=1, max_size=3, unique=True))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, winner))
    for square in squares[1:]:
        symbol = draw(st.sampled_from("NBpnbq"))
        if symbol in "Pp" and chess.square_rank(square) in (0, 7):
            symbol = "N" if symbol == "P" else "n"
        board.set_piece_at(square, chess.Piece.from_symbol(symbol))
    assume(illegal_reason(board) is None and material_reason(board, winner) is None)
    return board, winner


def _mates_within(board: chess.Board, winner: chess.Color, plies: int) -> bool:
    """python-chess alone: a checkmate by ``winner`` within ``plies`` plies."""
    if board.is_checkmate():
        return board.turn != winner
    if plies == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        found = _mates_within(board, winner, plies - 1)
        board.pop()
        if found:
            return True
    return False


@settings(max_examples=1500, deadline=None)
@given(near_the_end(), st.sampled_from([1, 3]))
def test_every_proof_is_confirmed_by_python_chess_and_by_full_mode(
        case: tuple[chess.Board, chess.Color], plies: int) -> None:
    board, winner = case
    fen = board.fen()
    ends = every_line_ends(board, winner, plies)
    event(f"{plies} plies: {'proved' if ends else 'not proved'}")
    assert board.fen() == fen and not board.move_stack
    if ends is None:
        return
    ended, short = ends
    assert ended + short > 0
    if plies == 1:
        replies = list(board.legal_moves)
        assert ended + short == len(replies)
        game_over = 0
        for move in replies:
            board.push(move)
            game_over += not any(board.legal_moves)  # python-chess: the winner cannot move
            board.pop()
        # a reply counts as ending the game only where python-chess sees no move (a
        # reply that both ends it and leaves too little material counts as the latter)
        assert ended <= game_over
    # no mate within the plies looked at (python-chess alone) ...
    assert not _mates_within(board, winner, plies)
    # ... and none after them: full mode's stages (material, forced moves, search,
    # width visit; not this proof) say so on their own
    assert can_checkmate(board, winner).value is False

"""Quick mode's proof by the replies: every line of one (or three) plies ends
the game or leaves the would-be winner without mating material."""

from __future__ import annotations

import chess
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from remis.position import illegal_reason
from remis.unwinnable import can_checkmate
from tests.unwinnable.helpers import mates
from tests.unwinnable.reference import helpmate_exists

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
    quick = can_checkmate(board, winner, mode="quick")
    assert quick.value is False, quick.reason
    if quick.method == "exhaustive":  # (a forced move may decide first)
        n = board.legal_moves.count()
        assert quick.reason.startswith("exhausted search: every legal move of")
        assert quick.details["ends_game_over"] == n  # each ends the game
    assert board.fen() == fen and not board.move_stack  # left as it was
    assert can_checkmate(board, winner).value is False


def test_material_replies() -> None:
    # both captures of the rook on g6 leave Black a bare king
    board = chess.Board("6k1/6PR/6rK/7P/8/8/8/8 w - - 0 55")
    quick = can_checkmate(board, chess.BLACK, mode="quick")
    assert quick.reason == ("exhausted search: every legal move of White leaves Black "
                            "without mating material (2 ends)")


def test_no_proof_where_a_reply_keeps_the_game_going() -> None:
    # Black to move, in check from the rook; ...Kb8 keeps White's queen and rook
    for fen in ("k7/8/8/8/8/8/8/R1Q1K3 b - - 0 1", chess.STARTING_FEN,
                # the would-be winner to move: its quiet moves keep the game going
                "7k/5Q2/8/8/8/8/8/K7 w - - 0 1",
                # checkmate already: White has mated
                "R6k/6pp/8/8/8/8/8/K7 b - - 0 1"):
        assert can_checkmate(chess.Board(fen), chess.WHITE, mode="quick").value is not False


def test_a_mate_within_the_plies_is_not_an_end() -> None:
    # White must play Kh8; then every black move but one stalemates White (or leaves it
    # stalemated a ply later), and that one, Qg7, mates: nothing is proved
    board = chess.Board("6K1/5q2/7k/8/8/1b6/8/8 w - - 0 1")
    assert can_checkmate(board, chess.BLACK, mode="quick").value is not False
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
    assume(illegal_reason(board) is None)
    assume(can_checkmate(board, winner, mode="quick").method != "material")
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


@settings(max_examples=300, deadline=None)
@given(near_the_end())
def test_every_quick_proof_is_confirmed_by_python_chess(
        case: tuple[chess.Board, chess.Color]) -> None:
    board, winner = case
    fen = board.fen()
    quick = can_checkmate(board, winner, mode="quick")
    event(f"quick: {quick.value} ({quick.method})")
    assert board.fen() == fen and not board.move_stack
    if quick.value is None:
        return
    if quick.value:
        assert mates(fen, winner, quick.line)
        return
    # no mate within a few plies (python-chess alone) ...
    assert not _mates_within(board, winner, 3)
    # ... and none at all, where the reachable positions are few enough to visit
    exists = helpmate_exists(board, winner, 20_000)
    event("confirmed by the visit" if exists is not None else "too many positions to visit")
    assert exists is not True, quick.reason
    assert can_checkmate(board, winner).value is False

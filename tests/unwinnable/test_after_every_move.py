"""The static proof after every legal move, each followed by its forced
replies (``remis.unwinnable._static_after_every_move``): tempo proofs where
the would-be winner has (almost) no move left, so that most moves of the
other side stalemate it."""

from __future__ import annotations

import chess

from remis.unwinnable import can_checkmate
from remis.unwinnable.static import static_unwinnable
from remis.unwinnable.width import WidthSearch
from tests.unwinnable.helpers import mates

#: From the mutations of the CHA vectors (tests.unwinnable.mutations): Black's
#: king and pawns cannot move; 11 of White's 13 moves stalemate Black, the
#: two king moves leave Black one move (Ka6), after which the static proof
#: holds.  CHA proves it in 15 nodes; full mode used to enumerate all 72,252
#: reachable positions (about 2 s).
TEMPO = "8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 w - - 0 1"


def test_most_moves_stalemate_the_rest_are_blocked() -> None:
    board = chess.Board(TEMPO)
    assert static_unwinnable(board, chess.BLACK) is None  # not at the root
    v = can_checkmate(board, chess.BLACK)
    assert v.value is False and v.method == "static", v
    assert "11 to stalemate, 2 to a blocked structure" in v.reason
    assert "a7b8 a5a6" in v.reason  # the forced reply named
    assert board.fen() == TEMPO


def test_the_proof_agrees_with_the_enumeration_of_every_reachable_position() -> None:
    result = WidthSearch(chess.Board(TEMPO), chess.BLACK).run(200_000)
    assert result.outcome == "exhausted"


def test_with_a_black_knight_there_is_a_mate_and_no_proof() -> None:
    # the same position with a black knight on a1: Black has moves of its
    # own, so few of White's moves stalemate it, and a helpmate exists
    board = chess.Board("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/n5B1 w - - 0 1")
    v = can_checkmate(board, chess.BLACK)
    assert v.value is True, v
    assert mates(board.fen(), chess.BLACK, v.line)

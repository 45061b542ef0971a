"""The static proof after every legal move, each followed by its forced
replies (the core's ``blocked::after_every_move``): tempo proofs where
the would-be winner has (almost) no move left, so that most moves of the
other side stalemate it."""

from __future__ import annotations

import re

import chess

from remis.unwinnable import can_checkmate
from tests.unwinnable.helpers import mates

#: From the mutations of the CHA vectors (tests.unwinnable.mutations): Black's
#: king and pawns cannot move; 11 of White's 13 moves stalemate Black, the
#: two king moves leave Black one move (Ka6), after which the static proof
#: holds.  CHA proves it in 15 nodes; enumerating the 72,252 reachable
#: positions takes seconds.
TEMPO = "8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 w - - 0 1"


def test_most_moves_stalemate_the_rest_are_blocked() -> None:
    board = chess.Board(TEMPO)
    v = can_checkmate(board, chess.BLACK)
    assert v.value is False and v.method == "static", v
    assert "11 to stalemate, 2 to a blocked structure" in v.reason
    assert re.search(r"e\.g\. a7[ab]8 a5a6: ", v.reason)  # the forced reply named
    assert board.fen() == TEMPO


def test_with_a_black_knight_there_is_a_mate_and_no_proof() -> None:
    # the same position with a black knight on a1: Black has moves of its
    # own, so few of White's moves stalemate it, and a helpmate exists
    board = chess.Board("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/n5B1 w - - 0 1")
    v = can_checkmate(board, chess.BLACK)
    assert v.value is True, v
    assert mates(board.fen(), chess.BLACK, v.line)

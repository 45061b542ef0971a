"""Full mode on the positions that were hard for the earlier engines (the
Python engine's tests: deep helpmates behind pawn walls and bishop walls,
promotions, sacrifices, tempo endings, a wall only a boxed king keeps shut;
more promoted bishops than a game can have): each decided as the Python
engine decided it under its default budgets (its verdicts were checked
against CHA and against visits of every reachable position), every
helpmate line replayed in python-chess."""

from __future__ import annotations

import chess
import pytest

from remis.unwinnable import can_checkmate
from tests.unwinnable.helpers import mates

HARD = [
    # no engine decided this CHA vector before (CHA left it open at 10 million
    # nodes): White's eight dark bishops mate the king on c1, where White's
    # own king guards the light flights the black bishops do not fill; found
    # by the search that heads for the squares where the reach analysis
    # leaves a mate possible
    ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", chess.WHITE, True),
    ("k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1", chess.BLACK, False),
    # a mutation of it (tests.unwinnable.mutations), left open by CHA too
    ("7B/1b4B1/2b2B2/1k2B3/3B4/1pB1B3/p2B4/K7 b - - 0 1", chess.WHITE, True),
    ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.WHITE, True),
    ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.BLACK, True),
    ("8/3k4/6p1/p2p1pP1/P2P1P2/2K5/8/8 b - - 0 1", chess.WHITE, False),
    ("8/3k4/6p1/p2p1pP1/P2P1P2/2K5/8/8 b - - 0 1", chess.BLACK, False),
    ("8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1", chess.WHITE, True),
    ("8/7k/5p1p/5P2/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1", chess.BLACK, True),
    ("3kb3/8/8/8/8/3KB3/8/8 w - - 0 1", chess.WHITE, True),
    ("3kb3/8/8/8/8/3KB3/8/8 w - - 0 1", chess.BLACK, True),
    ("5r1k/1pp3p1/p7/4P3/3PB2K/4P3/8/6q1 b - - 2 47", chess.WHITE, True),
    ("5r1k/1pp3p1/p7/4P3/3PB2K/4P3/8/6q1 b - - 2 47", chess.BLACK, True),
    ("3r1r2/1ppb3k/p1n4P/4ppP1/2B5/8/PPP3P1/2KR3R b - - 0 30", chess.WHITE, True),
    ("3r1r2/1ppb3k/p1n4P/4ppP1/2B5/8/PPP3P1/2KR3R b - - 0 30", chess.BLACK, True),
    ("8/b7/8/5k1p/5P2/8/4K3/8 w - - 0 60", chess.WHITE, True),
    ("8/b7/8/5k1p/5P2/8/4K3/8 w - - 0 60", chess.BLACK, True),
    ("8/b7/8/5k2/5P2/8/4K3/8 w - - 0 60", chess.WHITE, True),
    ("8/b7/8/5k2/5P2/8/4K3/8 w - - 0 60", chess.BLACK, True),
    ("4k3/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/8 w - - 0 1", chess.WHITE, True),
    ("4k3/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/8 w - - 0 1", chess.BLACK, True),
    ("8/8/5pK1/4b3/1k6/1B6/1q6/q7 b - - 1 88", chess.WHITE, True),
    ("8/8/5pK1/4b3/1k6/1B6/1q6/q7 b - - 1 88", chess.BLACK, True),
    ("8/7Q/1r1p1k2/p1pPp3/PpP1Pp1p/1P3PpP/K5P1/8 w - - 0 1", chess.WHITE, True),
    ("8/7Q/1r1p1k2/p1pPp3/PpP1Pp1p/1P3PpP/K5P1/8 w - - 0 1", chess.BLACK, True),
    ("6k1/p3p1P1/p1p3PB/6P1/8/4P3/PKP5/8 w - - 0 1", chess.WHITE, True),
    ("6k1/p3p1P1/p1p3PB/6P1/8/4P3/PKP5/8 w - - 0 1", chess.BLACK, True),
    ("1k6/1P1p1p1p/BP6/1P1P3p/5P2/8/6KP/8 b - - 0 1", chess.WHITE, True),
    ("1k6/1P1p1p1p/BP6/1P1P3p/5P2/8/6KP/8 b - - 0 1", chess.BLACK, False),
    ("1k6/1P1p1p1p/BP6/1P5p/8/8/3P1PKP/8 w - - 0 1", chess.WHITE, True),
    ("1k6/1P1p1p1p/BP6/1P5p/8/8/3P1PKP/8 w - - 0 1", chess.BLACK, True),
    ("k7/p1p1p3/8/8/8/P1P1P1p1/6Pp/7K w - - 0 1", chess.WHITE, False),
    ("k7/p1p1p3/8/8/8/P1P1P1p1/6Pp/7K w - - 0 1", chess.BLACK, False),
    ("8/8/8/8/3k4/2n5/BKB5/1B1B4 w - - 0 1", chess.WHITE, True),
    ("8/8/8/8/3k4/2n5/BKB5/1B1B4 w - - 0 1", chess.BLACK, True),
    ("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - - 0 1", chess.WHITE, True),
    ("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - - 0 1", chess.BLACK, False),
    ("8/8/8/3B4/8/6p1/1b4Pp/2b2k1K w - - 0 1", chess.WHITE, True),
    ("8/8/8/3B4/8/6p1/1b4Pp/2b2k1K w - - 0 1", chess.BLACK, False),
    ("3b4/b1k5/7b/p1p1p1p1/P1P1P1P1/2K5/4BbB1/8 w - - 0 1", chess.WHITE, False),
    ("3b4/b1k5/7b/p1p1p1p1/P1P1P1P1/2K5/4BbB1/8 w - - 0 1", chess.BLACK, True),
    ("4B1Bb/7B/1k5b/5B2/1p1p1pBp/bPpP1P1P/2Pb4/N1b1b1K1 b - - 0 1", chess.WHITE, True),
    ("4B1Bb/7B/1k5b/5B2/1p1p1pBp/bPpP1P1P/2Pb4/N1b1b1K1 b - - 0 1", chess.BLACK, False),
    ("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 w - - 0 1", chess.WHITE, False),
    ("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/6B1 w - - 0 1", chess.BLACK, False),
    ("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/n5B1 w - - 0 1", chess.WHITE, True),
    ("8/Kp2B3/1Pp5/k1P5/p1P5/P7/8/n5B1 w - - 0 1", chess.BLACK, True),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", chess.WHITE, False),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", chess.BLACK, False),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/8/8 w - - 0 1", chess.WHITE, True),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/8/8 w - - 0 1", chess.BLACK, True),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/6n1 w - - 0 1", chess.WHITE, True),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/6n1 w - - 0 1", chess.BLACK, True),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/4q3 w - - 0 1", chess.WHITE, True),
    ("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/4q3 w - - 0 1", chess.BLACK, True),
    ("8/8/3k4/8/3b4/8/3B4/4K3 w - - 0 1", chess.WHITE, False),
    ("8/8/3k4/8/3b4/8/3B4/4K3 w - - 0 1", chess.BLACK, False),
    ("2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - - 0 1", chess.WHITE, False),
    ("2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - - 0 1", chess.BLACK, False),
    ("8/8/p3k3/Pp1p1p1p/1P1P1P1P/4K3/8/8 w - b6 0 2", chess.WHITE, True),
    ("8/8/p3k3/Pp1p1p1p/1P1P1P1P/4K3/8/8 w - b6 0 2", chess.BLACK, True),
    ("8/8/p3k3/Pp1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 2", chess.WHITE, False),
    ("8/8/p3k3/Pp1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 2", chess.BLACK, False),
    ("7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 b - - 0 1", chess.WHITE, False),
    ("7k/8/1p6/1Pp5/2Pp4/pB1Pp1p1/P1B1P1P1/1B1B2K1 b - - 0 1", chess.BLACK, False),
    ("8/6kp/8/7P/8/5q1r/8/6K1 w - - 11 67", chess.WHITE, False),
    ("8/6kp/8/7P/8/5q1r/8/6K1 w - - 11 67", chess.BLACK, False),
]


@pytest.mark.parametrize(("fen", "color", "expected"), HARD)
def test_hard_positions_are_decided(fen: str, color: chess.Color, expected: bool) -> None:
    v = can_checkmate(chess.Board(fen), color)
    assert v.value is expected, v.reason
    if v.value:
        assert mates(fen, color, v.line)

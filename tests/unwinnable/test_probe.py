"""The helpmate probe: a "can mate" with a line that replays to checkmate, or
nothing; never a "cannot"."""

from __future__ import annotations

import chess
import pytest

from remis.unwinnable import can_checkmate
from remis.unwinnable.probe import helpmate_probe
from tests.unwinnable.helpers import mates

# final positions of real lichess time forfeits (lichess_2016-05.pgn,
# lichess_pnmadelaine.pgn, lichess_2021-10_excerpt.pgn) and masters
# resignations, with the side that did not lose: each one took the full mode
# hundreds to thousands of nodes
CAN_MATE = [
    ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", chess.WHITE),
    ("r3k2r/ppp1q1pp/4ppn1/8/3p1P2/P2P2Q1/1PP1B1PP/R3K2R w KQkq - 1 16", chess.BLACK),
    ("5rk1/pp4pp/2pb3q/5r2/3PR3/7P/PPP2PP1/R2Q2K1 w - - 1 20", chess.BLACK),
    ("8/2n2K1b/8/4N2k/2N5/8/8/8 w - - 26 67", chess.BLACK),
    ("r2q1rk1/p3bpp1/n2p1n1p/1p1Pp3/2p1P3/2P2N1P/PPB2PP1/R1BQR1K1 w - - 2 15", chess.BLACK),
    ("4rrk1/pp4pp/2bnpp2/3p4/3N2P1/8/PP2BP1P/2RR2K1 w - - 3 22", chess.BLACK),
    ("8/p6p/1p6/4k3/2Pp2pP/3p2P1/P2P1K2/8 b - - 3 43", chess.BLACK),
    ("8/5p2/2K5/b7/3P3k/5P1P/8/8 w - - 2 51", chess.BLACK),
    ("8/8/8/4k3/8/2n5/P7/K7 w - - 0 1", chess.BLACK),
]


@pytest.mark.parametrize(("fen", "color"), CAN_MATE)
def test_a_found_mate_replays_to_checkmate(fen: str, color: chess.Color) -> None:
    board = chess.Board(fen)
    v = helpmate_probe(board, color)
    assert v is not None and v.value is True and v.color == color
    assert v.method in ("search", "visit")
    assert v.line and mates(fen, color, v.line)
    assert board.fen() == fen  # left unchanged
    # the full mode agrees that this side can mate
    assert can_checkmate(board, color, mode="full", max_nodes=20_000).value is True


@pytest.mark.parametrize(("fen", "color"), [
    ("8/8/4k3/8/8/Q2K4/8/8 w - - 0 1", chess.BLACK),            # bare king
    ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.WHITE),  # locked pawns
    ("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1", chess.BLACK),
    ("8/8/8/8/8/2k5/8/K1q5 w - - 0 1", chess.WHITE),            # bare king, about to be mated
])
def test_where_no_mate_exists_it_says_nothing(fen: str, color: chess.Color) -> None:
    assert helpmate_probe(chess.Board(fen), color) is None


def test_a_position_already_mated_needs_no_line() -> None:
    board = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    v = helpmate_probe(board, chess.BLACK)
    assert v is not None and v.value is True and v.line == ()


def test_the_budget_counts_nodes_and_the_answer_is_repeatable() -> None:
    fen, color = CAN_MATE[2]
    first = helpmate_probe(chess.Board(fen), color)
    assert first is not None
    # other searches in between change nothing
    for other, c in CAN_MATE[:2]:
        helpmate_probe(chess.Board(other), c)
    assert helpmate_probe(chess.Board(fen), color) == first
    # below the nodes that mate needed: nothing, the same every time
    assert first.nodes > 2
    assert helpmate_probe(chess.Board(fen), color, max_nodes=2) is None


def test_an_illegal_position_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="side not to move is in check"):
        helpmate_probe(chess.Board("4k3/8/8/8/8/8/8/4K2r b - - 0 1"), chess.WHITE)

"""Static unwinnability proofs (the core's ``blocked`` and ``reach``), through
quick mode, which runs them: soundness first, then the coverage reached.

A proof of "cannot mate" where a helpmate exists would steal a game, so the
soundness tests run over every CHA test vector (both colours) and over every
position of real games that ended in checkmate (the winner could mate from
each of them: he did).
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn
import pytest
from tests.unwinnable.helpers import mates

from remis.unwinnable import can_checkmate

DEAD_S06 = "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"

#: Coverage floors of quick mode's "cannot" (any stage: material, forced
#: moves, the static proofs, the short exhaustive lines) on the data: raise
#: them when the engine gets stronger, never lower them silently.
VECTOR_FLOOR = 1514          # of 1,857 "cannot mate" answers in cha-test-vectors.txt
TIMEOUT_SAMPLE_FLOOR = 5200  # of the 5,200 lines of the every-17th-line sample: all


def static_unwinnable(board: chess.Board, color: chess.Color) -> str | None:
    """The static proof's reason when quick mode proves "cannot mate" by it
    (at the root or after its forced moves), else None."""
    v = can_checkmate(board, color, mode="quick")
    return v.reason if v.value is False and v.method == "static" else None


def read_vectors(path: Path) -> list[tuple[str, chess.Board]]:
    """The CHA vectors as (expected code, board)."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        out.append((line[:2], chess.Board(line[3:].strip())))
    return out


def test_s06_blocked_wall_is_dead_for_both() -> None:
    board = chess.Board(DEAD_S06)
    for color in chess.COLORS:
        reason = static_unwinnable(board, color)
        assert reason is not None
        assert "b4, d4, f4, h4, b5, d5, f5, h5" in reason


@pytest.mark.parametrize("fen", [
    "8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1",    # h-pawn free: the wall leaks
    "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/7Q w - - 0 1",  # a queen behind the wall
    "2k5/3n4/8/8/8/8/8/2KB4 w - - 0 1",              # lone bishop, the knight blocks
    "8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1",             # opposite bishops can mate
    "8/8/8/8/8/8/4P3/k1K5 w - - 0 1",                # a free pawn promotes
    chess.STARTING_FEN,
])
def test_white_can_mate_is_never_denied(fen: str) -> None:
    assert static_unwinnable(chess.Board(fen), chess.WHITE) is None


def test_already_mated_position_is_not_denied() -> None:
    board = chess.Board()
    for san in ("f3", "e5", "g4", "Qh4#"):
        board.push_san(san)
    assert board.is_checkmate()
    assert static_unwinnable(board, chess.BLACK) is None


def test_pending_en_passant_is_left_to_the_search() -> None:
    # Black has just played ...b7-b5: axb6 en passant breaks the wall, so no
    # static claim; the same placement without the en passant right is dead.
    fen = "8/8/p3k3/Pp1p1p1p/1P1P1P1P/4K3/8/8 w - {} 0 2"
    pending = chess.Board(fen.format("b6"))
    assert pending.has_legal_en_passant()
    assert static_unwinnable(pending, chess.WHITE) is None
    assert static_unwinnable(chess.Board(fen.format("-")), chess.WHITE) is not None


def test_one_colour_bishops_cannot_box_the_king() -> None:
    # a CHA "W-" vector: White's bishop checks only on dark squares, and the
    # black king behind the chain always keeps a light flight
    board = chess.Board("3B4/8/4p3/3pP2k/2pP4/1pP5/pPb5/K7 w - - 0 1")
    assert "bishops on dark squares" in (static_unwinnable(board, chess.WHITE) or "")


def test_pawns_that_check_leave_a_flight() -> None:
    # Black's c5 pawn may give check on the b- and d-files, but the white king
    # always keeps a flight that no black piece can guard (a CHA "--" vector).
    board = chess.Board("2k5/2p1p1p1/p1P1P1P1/P1p4K/8/8/2P5/8 w - - 0 1")
    reason = static_unwinnable(board, chess.BLACK) or ""
    assert reason.startswith("blocked structure (static): wherever Black could give check")


def test_invalid_positions_are_refused() -> None:
    for fen in ("8/8/8/8/8/8/8/8 w - - 0 1", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"):
        with pytest.raises(ValueError, match="illegal position"):
            can_checkmate(chess.Board(fen), chess.BLACK, mode="quick")


@pytest.mark.shared
def test_vectors_sound_and_coverage(shared_data: Path) -> None:
    vectors = read_vectors(shared_data / "unwinnability" / "cha-test-vectors.txt")
    assert len(vectors) == 1803
    unsound = []
    proved = cannot = 0
    for code, board in vectors:
        for color, letter in ((chess.WHITE, "W"), (chess.BLACK, "B")):
            v = can_checkmate(board, color, mode="quick")
            if letter in code:
                if v.value is False:
                    unsound.append((board.fen(), letter, v.reason))
            else:
                cannot += 1
                proved += v.value is False
    assert unsound == []
    assert cannot == 1857
    assert proved >= VECTOR_FLOOR


@pytest.mark.shared
def test_unfair_timeouts_coverage(shared_data: Path) -> None:
    lines = (shared_data / "unwinnability" / "lichess-unfair-timeouts.txt").read_text()
    sample = lines.splitlines()[::17]
    proved = 0
    for line in sample:
        board = chess.Board(" ".join(line.split()[:6]))
        proved += can_checkmate(board, not board.turn, mode="quick").value is False
    assert proved >= TIMEOUT_SAMPLE_FLOOR


@pytest.mark.shared
def test_never_denies_a_mate_that_was_played(shared_data: Path) -> None:
    pgn = shared_data / "lichess" / "lichess_2021-10_excerpt.pgn"
    checked = 0
    with pgn.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            final = game.end().board()
            if not final.is_checkmate():
                continue
            winner = not final.turn
            board = game.board()
            for move in game.mainline_moves():
                v = can_checkmate(board, winner, mode="quick")
                assert v.value is not False, (board.fen(), v.reason)
                board.push(move)
                checked += 1
            assert can_checkmate(board, winner, mode="quick").value is True
    assert checked > 10_000


BOXED = "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1"  # a CHA "--" vector


def test_boxed_king_keeps_the_chain_frozen() -> None:
    # The white king only shuffles h3-h4: the black king can take g2 only by
    # stepping next to h3 with the white king on h4, which stalemates White
    # at once.  So the chain never opens and neither side can mate.
    board = chess.Board(BOXED)
    assert "g2, f3, g3, f4, f5, h5, h6 can never move" in (static_unwinnable(board, chess.BLACK)
                                                           or "")
    assert static_unwinnable(board, chess.WHITE) is not None


@pytest.mark.parametrize("fen", [
    "1k6/b1b5/7p/5p1P/5p2/5PpK/8/8 w - - 0 1",      # no g2 pawn: ...g3-g2-g1=Q
    "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/6n1 w - - 0 1",  # a knight takes f3 and opens the chain
    "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/4q3 w - - 0 1",  # a queen mates on the h-file
])
def test_boxed_king_variants_where_black_mates(fen: str) -> None:
    board = chess.Board(fen)
    assert static_unwinnable(board, chess.BLACK) is None
    v = can_checkmate(board, chess.BLACK, max_nodes=30_000)
    assert v.value is True and mates(fen, chess.BLACK, v.line)

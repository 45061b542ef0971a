"""The per-ply dead test: instant on ordinary positions, sound on all."""

from __future__ import annotations

from pathlib import Path

import chess

from remis.unwinnable.deadtest import engine_dead_test, is_candidate


def test_ordinary_positions_are_not_candidates() -> None:
    for fen in [chess.STARTING_FEN,
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
                "8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1",  # h4 pawn is free
                "8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/6N1 w - - 0 1"]:  # a knight
        board = chess.Board(fen)
        assert not is_candidate(board)
        assert engine_dead_test(board) is None


def test_material_case_and_locked_case() -> None:
    v = engine_dead_test(chess.Board("8/8/8/4k3/8/8/8/K2n4 w - - 0 1"))
    assert v is not None and v.termination == "insufficient_material"
    v = engine_dead_test(chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 b - - 0 1"))
    assert v is not None and v.termination == "dead_position"
    assert v.evidence["can_checkmate"]["white"]["value"] is False  # type: ignore[index]


def test_locked_but_live_structure_is_not_dead() -> None:
    # the white bishop can take the pawn on b5... and so on: both can mate
    board = chess.Board("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/5B2 w - - 0 1")
    assert is_candidate(board)
    assert engine_dead_test(board) is None


def test_never_dead_where_a_vector_says_a_mate_exists(shared_data: Path) -> None:
    path = shared_data / "unwinnability" / "cha-test-vectors.txt"
    lines = [x for x in path.read_text().splitlines() if x.strip() and not x.startswith("#")]
    dead_found = 0
    for line in lines[::6]:
        code, fen = line.split(" ", 1)
        verdict = engine_dead_test(chess.Board(fen.strip()))
        if verdict is not None:
            assert code == "--", (code, fen, verdict.reason)
            dead_found += 1
    assert dead_found > 0

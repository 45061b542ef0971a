"""docs/cases.md S01-S05 (and witnesses S05w, T02w): stalemate, mate, material dead positions."""

from __future__ import annotations

import chess

from remis.rules import automatic_end
from tests.cases.helpers import play


def test_s01_stalemate() -> None:
    end = automatic_end(play("1.Qf7", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"))
    assert end is not None and (end.termination, end.article, end.result) == (
        "stalemate", "5.2.1", "1/2-1/2")


def test_s02_fools_mate() -> None:
    end = automatic_end(play("1.f3 e5 2.g4 Qh4#"))
    assert end is not None and (end.termination, end.article, end.result) == (
        "checkmate", "5.1.1", "0-1")


def test_s03_knight_v_king_is_dead() -> None:
    end = automatic_end(play("1...Nxd1", "8/8/8/4k3/8/2n5/8/K2R4 b - - 0 1"))
    assert end is not None and end.article == "5.2.2" and end.result == "1/2-1/2"
    assert end.termination == "insufficient_material"
    assert "K v K+N" in end.explanation


def test_s04_same_coloured_bishops_dead() -> None:
    end = automatic_end(play("1...Bxf3", "8/8/3k4/8/4b3/5N2/2B5/4K3 b - - 0 1"))
    assert end is not None and end.article == "5.2.2"


def test_s05_opposite_bishops_not_insufficient() -> None:
    assert automatic_end(play("1.Kf2", "8/8/3k4/8/4b3/8/3B4/4K3 w - - 0 1")) is None


def test_s05w_witness_mate_with_opposite_bishops() -> None:
    b = chess.Board("kb6/8/1K6/8/4B3/8/8/8 b - - 0 1")
    assert b.is_checkmate()


def test_t02w_witness_knight_mates_king_and_pawn() -> None:
    b = chess.Board("8/8/8/8/8/8/P1n5/K1k5 w - - 0 1")
    assert b.is_checkmate()

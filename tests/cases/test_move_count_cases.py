"""docs/cases.md F01-F13: fifty-move claims (9.3.1/9.3.2) and the 75-move rule (9.6.2)."""

from __future__ import annotations

import chess

from remis.rules import automatic_end, claimable, rule_on_claim
from tests.cases.helpers import play

ROOK = "8/8/4k3/8/8/3K4/8/6R1 w - - 99 80"


def test_f01_fifty_on_board() -> None:
    h = play("80.Rg2", ROOK)
    v = rule_on_claim(h)
    assert v.valid and v.article == "9.3.2" and v.player == "black"
    assert [c.article for c in claimable(h)] == ["9.3.2"]


def test_f02_fifty_with_written_move() -> None:
    h = play("", ROOK)
    v = rule_on_claim(h, move="Rg2")
    assert v.valid and v.article == "9.3.1" and v.move == "Rg2"
    c = claimable(h)
    assert [x.article for x in c] == ["9.3.1"] and "Rg2" in c[0].moves


def test_f03_written_capture_is_incorrect() -> None:
    h = play("", "8/8/4k3/8/8/3K4/6n1/6R1 w - - 99 80")
    v = rule_on_claim(h, move="Rxg2")
    assert not v.valid and v.kind == "fifty_moves" and v.article == "9.3.1"
    assert "Rxg2 must be played" in v.explanation


def test_f04_written_castling_is_fine() -> None:
    h = play("", "4k3/8/8/8/8/8/8/4K2R w K - 99 80")
    v = rule_on_claim(h, move="O-O")
    assert v.valid and v.article == "9.3.1"


def test_f05_written_promotion_is_incorrect() -> None:
    h = play("", "8/P7/8/8/8/3K4/8/k7 w - - 99 80")
    v = rule_on_claim(h, move="a8=Q", kind="fifty_moves")
    assert not v.valid


def test_f06_late_claim() -> None:
    h = play("86.Rg2", "8/8/4k3/8/8/3K4/8/6R1 w - - 110 86")
    v = rule_on_claim(h)
    assert v.valid and v.article == "9.3.2" and h.board.halfmove_clock == 111


def test_f07_player_who_just_moved() -> None:
    h = play("80.Rg2", ROOK)
    v = rule_on_claim(h, player=chess.WHITE, kind="fifty_moves")
    assert not v.valid and "does not have the move" in v.explanation


def test_f08_en_passant_resets() -> None:
    h = play("70...d5 71.exd6", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 98 70")
    assert h.board.halfmove_clock == 0
    assert not rule_on_claim(h, kind="fifty_moves").valid


def test_f09_seventyfive_automatic() -> None:
    h = play("100.Rg2", "8/8/4k3/8/8/3K4/8/6R1 w - - 149 100")
    end = automatic_end(h)
    assert end is not None and end.termination == "seventyfive_moves" and end.article == "9.6.2"


def test_f10_mate_on_150th_ply_prevails() -> None:
    h = play("100.Rh8#", "k7/8/1K6/8/8/8/8/7R w - - 149 100")
    end = automatic_end(h)
    assert end is not None and end.termination == "checkmate" and end.result == "1-0"


def test_f11_stalemate_on_150th_ply() -> None:
    h = play("100.Qc7", "k7/8/1K6/8/8/8/8/2Q5 w - - 149 100")
    end = automatic_end(h)
    assert end is not None and end.result == "1/2-1/2" and end.termination == "stalemate"


def test_f12_149_plies_not_enough() -> None:
    h = play("99.Rg2", "8/8/4k3/8/8/3K4/8/6R1 w - - 148 99")
    assert automatic_end(h) is None and h.board.halfmove_clock == 149
    h.push_san("Ke5")
    end = automatic_end(h)
    assert end is not None and end.termination == "seventyfive_moves"


def test_f13_castling_does_not_reset() -> None:
    h = play("100.O-O", "4k3/8/8/8/8/8/8/4K2R w K - 149 100")
    end = automatic_end(h)
    assert end is not None and end.termination == "seventyfive_moves"

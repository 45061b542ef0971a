"""docs/cases.md R01-R22: threefold (9.2.1/9.2.2), fivefold (9.6.1), identity (9.2.3)."""

from __future__ import annotations

import chess
import pytest

from remis.rules import automatic_end, claimable, rule_on_claim
from tests.cases.helpers import play

QUEEN_SHUFFLE = "1.e4 e5 2.Qf3 Qe7 3.Qe2 Qd8 4.Qd1 Qf6 5.Qe2 Qe7 6.Qd1 Qd8"
KING_WALK = "1.e4 e5 2.Nf3 Nc6 3.Bc4 Be7 4.Ke2 Nf6 5.Ke1 Ng8 6.Ke2 Nf6 7.Ke1 Ng8"
KNIGHTS_8 = "1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8"
PINNED_EP = "1n2r1k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"
FREE_EP = "rn4k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"
EP_MOVES = "1...d5 2.Nf3 Nc6 3.Ng1 Nb8 4.Nf3 Nc6 5.Ng1 Nb8"


def naive_count(h, key_fn) -> int:
    """Count the current position under another (wrong) identity."""
    b = h.board.copy()
    target = key_fn(b)
    n = 1
    while b.move_stack:
        b.pop()
        n += key_fn(b) == target
    return n


def test_r01_side_to_move_matters() -> None:
    h = play(QUEEN_SHUFFLE)
    v = rule_on_claim(h)
    assert not v.valid and v.article == "9.2.2"
    assert h.count() == 2
    assert "stands as a draw offer" in v.explanation and "2 minutes" in v.explanation
    assert max(h.count(k) for k in h.position_keys()) == 2  # no position appeared three times


def test_r01b_placement_only_counts_three() -> None:
    h = play(QUEEN_SHUFFLE)
    assert naive_count(h, lambda b: b.board_fen()) == 3
    assert h.count() == 2


def test_r02_castling_rights_matter() -> None:
    h = play(KING_WALK)
    v = rule_on_claim(h)
    assert not v.valid
    assert h.count() == 2


def test_r02b_key_without_rights_counts_three() -> None:
    h = play(KING_WALK)
    assert naive_count(h, lambda b: (b.board_fen(), b.turn)) == 3


def test_r02c_claim_with_written_move() -> None:
    h = play(KING_WALK)
    v = rule_on_claim(h, move="Ke2")
    assert v.valid and v.article == "9.2.1" and v.move == "Ke2"
    assert v.plies == (7, 11, 15)
    assert [(c.article, c.move) for c in claimable(h)] == [("9.2.1", "Ke2")]


def test_r03_start_position_counts() -> None:
    h = play(KNIGHTS_8)
    v = rule_on_claim(h)
    assert v.valid and v.article == "9.2.2" and v.plies == (0, 4, 8)
    assert v.player == "white"


def test_r04_black_writes_ng8() -> None:
    h = play("1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1")
    v = rule_on_claim(h, move="Ng8")
    assert v.valid and v.article == "9.2.1" and v.plies == (0, 4, 8)
    assert v.player == "black"


def test_r05_player_not_on_move_cannot_claim() -> None:
    h = play(KNIGHTS_8)
    v = rule_on_claim(h, player=chess.BLACK)
    assert not v.valid and "does not have the move" in v.explanation


def test_r06_only_two_occurrences_on_board() -> None:
    h = play("1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1")
    v = rule_on_claim(h, kind="threefold_repetition")
    assert not v.valid and v.plies == (3, 7)


def test_r07_written_move_gives_only_second_occurrence() -> None:
    h = play("1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6")
    v = rule_on_claim(h, move="Ng1", kind="threefold_repetition")
    assert not v.valid and v.article == "9.2.1"
    assert len(v.plies) == 2 and "Ng1 must be played" in v.explanation
    assert "1 minute" in rule_on_claim(h, move="Ng1", penalty_seconds=60).explanation


def test_r08_swapped_identical_pieces_are_the_same() -> None:
    h = play("1.Ne2 Kd8 2.Nec3 Ke8 3.Nd2 Kd8 4.Nf3 Ke8 5.Ng1 Kd8 6.Nb1 Ke8 7.Nc3 Kd8 8.Nb1 Ke8",
             "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1")
    v = rule_on_claim(h)
    assert v.valid and v.plies == (0, 12, 16)


def test_r09_right_exists_while_castling_impossible() -> None:
    h = play("1.Nf3 Nf6 2.Rg1 Rg8 3.Rh1 Rh8 4.Ng1 Ng8 5.Nf3 Nf6 6.Ng1 Ng8")
    assert not rule_on_claim(h).valid
    assert h.count() == 2
    assert naive_count(h, lambda b: (b.board_fen(), b.turn)) == 3


def test_r10_third_genuine_occurrence() -> None:
    h = play("1.Nf3 Nf6 2.Rg1 Rg8 3.Rh1 Rh8 4.Ng1 Ng8 5.Nf3 Nf6 6.Ng1 Ng8 7.Nf3 Nf6 8.Ng1 Ng8")
    v = rule_on_claim(h)
    assert v.valid and v.plies == (8, 12, 16)


def test_r11_pinned_ep_does_not_distinguish() -> None:
    h = play(EP_MOVES, PINNED_EP)
    v = rule_on_claim(h)
    assert v.valid and v.plies == (1, 5, 9)


def test_r11b_pseudo_legal_ep_key_undercounts() -> None:
    h = play(EP_MOVES, PINNED_EP)
    assert naive_count(h, lambda b: (b.board_fen(), b.turn, b.ep_square)) == 2


def test_r11c_pinned_ep_capture_is_illegal() -> None:
    h = play("1...d5", PINNED_EP)
    move = chess.Move.from_uci("e5d6")
    assert h.board.is_pseudo_legal(move) and not h.board.is_legal(move)


def test_r12_legal_ep_distinguishes() -> None:
    h = play(EP_MOVES, FREE_EP)
    assert not rule_on_claim(h).valid
    assert h.count() == 2


def test_r12c_written_move_available() -> None:
    h = play(EP_MOVES, FREE_EP)
    v = rule_on_claim(h, move="Nf3")
    assert v.valid and v.article == "9.2.1" and v.plies == (2, 6, 10)


def test_r12b_third_occurrence_without_ep() -> None:
    h = play(EP_MOVES + " 6.Nf3 Nc6 7.Ng1 Nb8", FREE_EP)
    v = rule_on_claim(h)
    assert v.valid and v.plies == (5, 9, 13)


def test_r13_horizontal_pin_ep_illegal() -> None:
    h = play("1...c5 2.Nf3 Kg8 3.Ng1 Kh8 4.Nf3 Kg8 5.Ng1 Kh8", "7k/2p5/8/KP5r/8/8/8/6N1 b - - 0 1")
    v = rule_on_claim(h)
    assert v.valid and v.plies == (1, 5, 9)


def test_r14_claim_at_fourth_occurrence() -> None:
    h = play(KNIGHTS_8 + " 5.Nf3 Nf6 6.Ng1 Ng8")
    v = rule_on_claim(h)
    assert v.valid and v.plies == (0, 4, 8, 12)
    assert automatic_end(h) is None


def test_r15_no_retrospective_claim() -> None:
    h = play(KNIGHTS_8 + " 5.e4")
    assert not rule_on_claim(h).valid
    assert claimable(h) == []


def test_r17_fivefold_is_automatic() -> None:
    h = play(KNIGHTS_8 + " 5.Nf3 Nf6 6.Ng1 Ng8 7.Nf3 Nf6 8.Ng1 Ng8")
    end = automatic_end(h)
    assert end is not None and end.termination == "fivefold_repetition"
    assert end.article == "9.6.1" and end.result == "1/2-1/2" and end.plies == (0, 4, 8, 12, 16)


def test_r18_fivefold_need_not_be_consecutive() -> None:
    h = play("1.Nf3 Nf6 2.Ng1 Ng8 3.Nc3 Nc6 4.Nb1 Nb8 5.Nf3 Nc6 6.Ng1 Nb8 7.Nc3 Nf6 8.Nb1 Ng8")
    end = automatic_end(h)
    assert end is not None and end.plies == (0, 4, 8, 12, 16)


def test_r19_four_occurrences_not_automatic() -> None:
    h = play(KNIGHTS_8 + " 5.Nf3 Nf6 6.Ng1 Ng8 7.Nf3")
    assert automatic_end(h) is None
    assert max(h.count(k) for k in h.position_keys()) == 4


def test_r20_chess960_rights_per_rook() -> None:
    h = play("1.g3 g6 2.Rg2 Rg7 3.Rg1 Rg8 4.Rg2 Rg7 5.Rg1 Rg8",
             "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1", chess960=True)
    assert not rule_on_claim(h).valid
    assert h.count() == 2
    assert naive_count(h, lambda b: (b.board_fen(), b.turn)) == 3


def test_r21_chess960_castling_without_king_move() -> None:
    h = play("1.Ng3 Ng6 2.O-O", "qnbbrnkr/pppppppp/8/8/8/8/PPPPPPPP/QNBBRNKR w HEhe - 0 1",
             chess960=True)
    b = h.board
    assert b.king(chess.WHITE) == chess.G1 and b.piece_at(chess.F1) == chess.Piece.from_symbol("R")
    assert not b.castling_rights & chess.BB_RANK_1
    assert b.halfmove_clock == 3


@pytest.mark.parametrize("written", [None, "Nb5"])
def test_r22_r22b_karpov_miles(written: str | None) -> None:
    h = play("22.Nb5 Ra4 23.Nc3 Ra8 24.Nb5 Ra4 25.Nc3 Ra8",
             "r3kb1r/5ppp/4p3/8/4P3/2N5/Pn1BK1PP/R6R w q - 0 22")
    v = rule_on_claim(h, move=written, kind="threefold_repetition")
    assert not v.valid
    assert len(v.plies) == 2


def test_r16_touch_forfeits_claim_is_procedural() -> None:
    # 9.4 is procedure (the arbiter tracks touches); the board condition holds.
    h = play(KNIGHTS_8)
    assert rule_on_claim(h).valid

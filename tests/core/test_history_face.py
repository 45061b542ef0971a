"""remis.History is a face over the core's history: the claims it rules on
agree with a naive reference, and positions the core cannot hold (an illegal
move that stood, A.5.4) are still counted and taken back."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from remis.history import History
from remis.identity import position_key
from remis.rules import automatic_end, claimable, rule_on_claim
from tests.core.test_properties import STARTS, choices, random_game


def _naive_after(start: chess.Board, moves: list[chess.Move], move: chess.Move) -> int:
    """Occurrences of the position after ``move`` before it, by rescanning."""
    b = start.copy()
    keys = [position_key(b)]
    for m in moves:
        b.push(m)
        keys.append(position_key(b))
    b.push(move)
    return keys.count(position_key(b))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STARTS), choices)
def test_claims_with_every_intended_move_agree_with_a_rescan(fen: str, picks: list[int]) -> None:
    start, moves = random_game(fen, picks)
    h = History(start)
    for m in moves:
        h.push(m)
    if automatic_end(h) is not None:
        return
    b = h.board
    for move in b.legal_moves:
        c = rule_on_claim(h, kind="threefold_repetition", move=move)
        repeats = _naive_after(start, moves, move) >= 2
        assert c.valid == (repeats or h.count() >= 3), (b.fen(), move)
        assert c.article == ("9.2.2" if c.valid and not repeats else "9.2.1")
        f = rule_on_claim(h, kind="fifty_moves", move=move)
        clock = b.halfmove_clock
        assert f.valid == (clock >= 100 or (not b.is_zeroing(move) and clock + 1 >= 100))


def test_claim_reasons() -> None:
    h = History()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        h.push_san(san)
    wrong = rule_on_claim(h, player=chess.WHITE, move="Nf3")
    assert (wrong.valid, wrong.message, wrong.article) == (False, "claim_wrong_player", "9.2.1")
    illegal = rule_on_claim(h, move="Qh5")
    assert (illegal.message, illegal.move) == ("claim_illegal_move", "Qh5")
    good = rule_on_claim(h, move="f6g8")  # UCI, read as python-chess reads it
    assert (good.valid, good.article, good.move, good.plies) == (True, "9.2.1", "Ng8", (0, 4, 8))
    bad = rule_on_claim(h, move="Nh5")
    assert (bad.valid, bad.message, bad.params["count"]) == (False, "claim_threefold_incorrect", 1)
    pawn = rule_on_claim(chess_history("8/8/4k3/8/8/3K4/6P1/6R1 w - - 99 80"), kind="fifty_moves",
                         move="g4")
    assert not pawn.valid and "pawn move or a capture" in pawn.params["move_note"]


def chess_history(fen: str) -> History:
    return History(chess.Board(fen))


def test_castling_completes_fifty_moves() -> None:
    h = chess_history("r3k3/8/8/8/8/8/8/4K2R w K - 99 80")
    c = rule_on_claim(h, kind="fifty_moves", move="O-O")
    assert (c.valid, c.article, c.move) == (True, "9.3.1", "O-O")


def test_a_position_the_core_cannot_hold_is_counted_and_taken_back() -> None:
    # a pawn left on the last rank (7.5.2, standing until called: A.5.4)
    h = chess_history("8/4P3/8/8/8/k7/8/4K3 w - - 10 60")
    n = h.push(chess.Move.from_uci("e7e8"))
    assert n == 1 and not h.core.exact
    assert h.board.piece_at(chess.E8) == chess.Piece.from_symbol("P")
    assert h.board.halfmove_clock == 0 and h.window_start() == 1
    # the kings walk about: the position with the pawn on e8 stands again
    for uci in ["a3a4", "e1e2", "a4a3", "e2e1"]:
        h.push(chess.Move.from_uci(uci))
    assert h.count() == 2 and h.occurrences() == (1, 5)
    assert not h.core.exact  # the pawn is still on e8
    assert claimable(h) == [] and automatic_end(h) is None
    assert rule_on_claim(h, move="a3a4").plies == (2, 6)  # where it stood, and ply 6
    for _ in range(5):
        h.pop()
    assert h.core.exact and h.ply == 0 and h.board.halfmove_clock == 10
    assert [c.article for c in claimable(h)] == []

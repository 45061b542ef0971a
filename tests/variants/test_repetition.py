"""Shogi sennichite and xiangqi repetition: draws, perpetual-check losses, and
when the game does *not* end yet.  The moves are inputs; every verdict is
computed by remis (pyffish only generates and checks the moves)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyffish")

from remis.variants import VariantHistory
from remis.variants.rules import FIRST, SECOND, perpetual_checkers

# shogi: gote king 5a, sente rook 4h, sente king 5i, sente to move
SHOGI_ROOK = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1"
# the same after 4h5h: gote to move, in check
SHOGI_ROOK_CHECKED = "4k4/9/9/9/9/9/9/4R4/4K4 w - 2"
# shogi: gote rook 6b checks the sente king 5i, gote to move
SHOGI_GOTE_ROOK = "4k4/3r5/9/9/9/9/9/9/4K4 w - 1"
SHOGI_CHECKS = ["4h5h", "5a4a", "5h4h", "4a5a"]  # sente checks with both moves
SHOGI_QUIET = ["4h4i", "5a5b", "4i4h", "5b5a"]  # nobody checks
SHOGI_HALF = ["4h5h", "5a6a", "5h4h", "6a5a"]  # sente checks, then retreats quietly

# xiangqi: black king e10, red chariot f2, red king d1, red to move
XQ_ROOK = "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1"
XQ_CHECKS = ["f2e2", "e10f10", "e2f2", "f10e10"]
XQ_QUIET = ["f2f1", "e10e9", "f1f2", "e9e10"]
XQ_HALF = ["f2f10", "e10e9", "f10f2", "e9e10"]


def play(variant: str, start: str, moves: list[str], **kw: object) -> VariantHistory:
    h = VariantHistory(variant, start, **kw)  # type: ignore[arg-type]
    for m in moves:
        h.push(m)
    return h


# ------------------------------------------------------------------ shogi
def test_shogi_perpetual_check_loses_at_fourth_occurrence() -> None:
    h = play("shogi", SHOGI_ROOK, SHOGI_CHECKS * 2)
    assert h.end is None and h.count() == 3          # third occurrence: play on
    for m in SHOGI_CHECKS[:3]:
        h.push(m)
        assert h.end is None
    h.push(SHOGI_CHECKS[3])
    e = h.end
    assert e is not None
    assert (e.ply, e.result, e.termination, e.article) == (
        12, "0-1", "perpetual_check", "JSA perpetual check")
    assert e.plies == (0, 4, 8, 12)
    assert e.evidence["check_plies"] == [1, 3, 5, 7, 9, 11]
    assert "Sente loses" in e.explanation


def test_shogi_perpetual_check_when_the_checker_moves_last() -> None:
    # the repeated position is the one *after* the check: the fourth occurrence
    # is made by the checking side's own move, and it still loses
    moves = (SHOGI_CHECKS[1:] + SHOGI_CHECKS[:1]) * 3
    h = play("shogi", SHOGI_ROOK_CHECKED, moves)
    assert h.end is not None
    assert (h.end.ply, h.end.result, h.end.termination) == (12, "0-1", "perpetual_check")
    assert h.end.evidence["check_plies"] == [2, 4, 6, 8, 10, 12]


def test_shogi_gote_perpetual_check_loses() -> None:
    h = play("shogi", SHOGI_GOTE_ROOK, ["6b5b", "5i6i", "5b6b", "6i5i"] * 3)
    assert h.end is not None
    assert (h.end.result, h.end.termination) == ("1-0", "perpetual_check")
    assert "Gote loses" in h.end.explanation


def test_shogi_repetition_without_checks_is_a_draw_at_fourth_not_before() -> None:
    h = VariantHistory("shogi", SHOGI_ROOK)
    for i, m in enumerate(SHOGI_QUIET * 3, start=1):
        h.push(m)
        assert (h.end is None) == (i < 12), i
    e = h.end
    assert e is not None
    assert (e.result, e.termination, e.article, e.plies) == (
        "1/2-1/2", "repetition", "JSA sennichite", (0, 4, 8, 12))
    assert "chase" not in e.explanation


def test_shogi_checks_on_some_moves_only_is_a_draw() -> None:
    h = play("shogi", SHOGI_ROOK, SHOGI_HALF * 3)
    assert h.end is not None
    assert (h.end.ply, h.end.result, h.end.termination) == (12, "1/2-1/2", "repetition")


def test_shogi_cycle_beginning_with_a_non_check_is_a_draw() -> None:
    # first round quiet, then rounds of checks: the cycle from the first to
    # the fourth occurrence holds sente's quiet moves, so it is a draw
    h = play("shogi", SHOGI_ROOK, SHOGI_QUIET + SHOGI_CHECKS + SHOGI_CHECKS[:3])
    assert h.end is None
    h.push(SHOGI_CHECKS[3])
    assert h.end is not None
    assert (h.end.ply, h.end.result, h.end.termination) == (12, "1/2-1/2", "repetition")


def test_shogi_same_board_other_hand_is_another_position() -> None:
    # identical boards, but sente holds a pawn in one: never the same position
    a = VariantHistory("shogi", "4k4/9/9/9/9/9/9/5R3/4K4 b P 1")
    b = VariantHistory("shogi", SHOGI_ROOK)
    assert a.key() != b.key()
    assert a.key().split("|")[0] == b.key().split("|")[0]


def test_moves_after_the_end_are_refused() -> None:
    from remis.variants import GameOver

    h = play("shogi", SHOGI_ROOK, SHOGI_QUIET * 3)
    with pytest.raises(GameOver):
        h.push("4h4i")


def test_pop_restores_the_bookkeeping() -> None:
    h = play("shogi", SHOGI_ROOK, SHOGI_QUIET * 3)
    assert h.end is not None
    h.pop()
    assert h.end is None and h.ply == 11
    h.push(SHOGI_QUIET[3])
    assert h.end is not None and h.count() == 4


# ---------------------------------------------------------------- xiangqi
def test_xiangqi_perpetual_check_loses() -> None:
    h = play("xiangqi", XQ_ROOK, XQ_CHECKS * 3)
    assert h.end is not None
    assert (h.end.ply, h.end.result, h.end.termination, h.end.article) == (
        12, "0-1", "perpetual_check", "WXF perpetual check")
    assert "Red loses" in h.end.explanation


def test_xiangqi_quiet_repetition_draw_at_fourth_not_before_and_says_no_chase() -> None:
    h = VariantHistory("xiangqi", XQ_ROOK)
    for i, m in enumerate(XQ_QUIET * 3, start=1):
        h.push(m)
        assert (h.end is None) == (i < 12), i
    e = h.end
    assert e is not None
    assert (e.result, e.termination, e.article) == ("1/2-1/2", "repetition", "WXF repetition")
    assert "Neither side chased with every one" in e.explanation
    assert e.evidence["chase_analysed"] is True and e.evidence["chases"] == {}


def test_xiangqi_checks_on_some_moves_only_is_a_draw() -> None:
    h = play("xiangqi", XQ_ROOK, XQ_HALF * 3)
    assert h.end is not None and (h.end.result, h.end.termination) == ("1/2-1/2", "repetition")


def test_xiangqi_cycle_beginning_with_a_non_check_is_a_draw() -> None:
    h = play("xiangqi", XQ_ROOK, XQ_QUIET + XQ_CHECKS * 2)
    assert h.end is not None
    assert (h.end.ply, h.end.result, h.end.termination) == (12, "1/2-1/2", "repetition")


def test_xiangqi_configurable_threefold() -> None:
    h = VariantHistory("xiangqi", XQ_ROOK, repetitions=3)
    for i, m in enumerate(XQ_CHECKS * 2, start=1):
        h.push(m)
        assert (h.end is None) == (i < 8), i
    assert h.end is not None
    assert (h.end.result, h.end.termination, h.end.plies) == ("0-1", "perpetual_check", (0, 4, 8))
    q = play("xiangqi", XQ_ROOK, XQ_QUIET * 2, repetitions=3)
    assert q.end is not None and q.end.result == "1/2-1/2"


def test_xiangqi_iccs_moves() -> None:
    iccs = ["F1-E1", "E9-F9", "E1-F1", "F9-E9"] * 3
    h = play("xiangqi", XQ_ROOK, iccs, notation="iccs")
    assert h.end is not None and h.end.termination == "perpetual_check"
    assert h.end.evidence["cycle_moves"][:2] == ["F1-E1", "E9-F9"]
    assert "f1e1" in VariantHistory("xiangqi", XQ_ROOK, notation="iccs").legal_moves()


def test_checkmate_and_no_legal_move_lose() -> None:
    mate = VariantHistory("xiangqi", "R3k4/R8/9/9/9/9/9/9/9/3K5 b")
    assert mate.end is not None and (mate.end.result, mate.end.termination) == ("1-0", "checkmate")
    # shogi: a gote king with no legal move that is not in check still loses
    stuck = VariantHistory("shogi", "k8/2G6/1G7/9/9/9/9/9/4K4 w - 1")
    assert stuck.end is not None
    assert (stuck.end.result, stuck.end.termination) == ("1-0", "no_legal_move")


# ------------------------------------------------------------ pure rule
@pytest.mark.parametrize(
    ("checks", "first_mover", "expected"),
    [
        ([False, True, False, True, False], FIRST, (FIRST,)),
        ([False, True, True, True, True], FIRST, (FIRST, SECOND)),
        ([False, True, False, False, False], FIRST, ()),
        ([False, True, False, True, False], SECOND, (SECOND,)),
    ],
)
def test_perpetual_checkers(checks: list[bool], first_mover: int,
                            expected: tuple[int, ...]) -> None:
    assert perpetual_checkers(0, 4, first_mover, checks) == expected


def test_perpetual_checkers_from_a_later_first_occurrence() -> None:
    # cycle plies 3..6 (first occurrence at ply 2); the first mover's moves in it
    # are 3 and 5 (both checks), the quiet move at ply 1 is outside the cycle
    checks = [False, False, False, True, False, True, False]
    assert perpetual_checkers(2, 6, FIRST, checks) == (FIRST,)


@pytest.mark.parametrize("batch", [False, True])
def test_mate_by_a_move_push_and_extend(batch: bool) -> None:
    h = VariantHistory("xiangqi", "4k4/R8/9/9/9/9/9/9/1R7/3K5 w")
    if batch:
        assert h.extend(["b2b10", "e10e9"]) == 1  # the move after mate is not played
    else:
        h.push("b2b10")
    assert h.end is not None
    assert (h.end.ply, h.end.result, h.end.termination) == (1, "1-0", "checkmate")


def test_push_and_extend_agree_on_generated_games() -> None:
    import random

    from remis.variants.randgames import random_game

    rng = random.Random(99)
    seen = set()
    for i in range(12):
        variant = "shogi" if i % 2 else "xiangqi"
        g = random_game(variant, rng, sparse=i % 4 < 2, prefix=4 if i % 4 < 2 else 16)
        a = VariantHistory(variant, g.start)
        a.extend(g.shown)
        b = VariantHistory(variant, g.start)
        for m in g.shown:
            if b.end is not None:
                break
            b.push(m)
        assert a.ply == b.ply
        ea, eb = a.end, b.end
        assert (ea is None) == (eb is None)
        if ea is not None and eb is not None:
            assert ea.to_json() == eb.to_json()
            seen.add(ea.termination)
        assert [a.gave_check(k) for k in range(1, a.ply + 1)] == [
            b.gave_check(k) for k in range(1, b.ply + 1)]
    assert "repetition" in seen

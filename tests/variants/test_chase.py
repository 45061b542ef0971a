"""Xiangqi perpetual chase (AXF rules as Fairy-Stockfish applies them): the
hand-verified cases of ``tests/data/variants/chase.txt``, which pieces one
move chases (the special cases one by one), the ruling's words, and the same
verdicts from ``remis game``, the library and the live arbiter."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("pyffish")

from remis.arbiter import Arbiter
from remis.cli import main
from remis.i18n import translate
from remis.variants import VariantHistory
from remis.variants.board import Board
from remis.variants.chase import chased, square_name
from remis.variants.game import rule_on_line
from remis.variants.rules import rules_for

CHASE = "4k4/9/n8/9/9/9/9/R8/9/3K5 b - - 0 1"
CYCLE = ["a8b6", "a3b3", "b6a8", "b3a3"]


def _cases(path: Path) -> list[tuple[str, int | None, str | None, str | None, int | None]]:
    """(game line, repetitions, termination, result, ply) of each case of a data file."""
    out = []
    expect: tuple[int | None, str | None, str | None, int | None] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"# expect(?:\((\d+)\))?: (.*)", raw)
        if m:
            words = m[2].split()
            reps = int(m[1]) if m[1] else None
            expect = (reps, None, None, None) if words == ["none"] else (
                reps, words[0], words[1], int(words[2]) if len(words) > 2 else None)
        elif raw.strip() and not raw.startswith("#"):
            assert expect is not None, f"no expect line before {raw!r}"
            out.append((raw, *expect))
            expect = None
    return out


def test_hand_verified_chase_cases(test_data: Path) -> None:
    cases = _cases(test_data / "variants" / "chase.txt")
    assert len(cases) == 9
    for line, reps, termination, result, ply in cases:
        g = rule_on_line(line, "xiangqi", repetitions=reps)
        assert g.error is None, line
        assert g.end is not None, line
        assert (g.end.termination, g.end.result, g.end.ply) == (termination, result, ply), line


def _chased(fen: str, move: str) -> dict[str, str]:
    before = Board.from_fen("xiangqi", fen)
    after = before.copy()
    after.play(move)
    return {square_name(k): square_name(v) for k, v in chased(before, after, move).items()}


@pytest.mark.parametrize(("fen", "move", "expected"), [
    # a chariot newly attacks an unprotected horse
    ("4k4/9/1n7/9/9/9/9/R8/9/3K5 w", "a3b3", {"b8": "b3"}),
    # the same horse protected by a black chariot on the rank: no chase
    ("4k4/9/1n6r/9/9/9/9/R8/9/3K5 w", "a3b3", {}),
    # the protector pinned against its general by the red chariot on e1: a chase
    ("4k4/9/1n2r4/9/9/9/9/R8/9/3KR4 w", "a3b3", {"b8": "b3"}),
    # a horse attacks a chariot: a chase even though the chariot is protected
    ("3k5/9/r7r/9/9/9/N8/9/9/4K4 w", "a4b6", {"a8": "b6"}),
    # a chariot attacking a chariot that attacks it back: not a chase
    ("4k4/9/1r7/9/9/9/9/R8/9/3K5 w", "a3b3", {}),
    # the general attacks an unprotected horse: generals may attack freely
    ("3k5/9/9/9/9/9/9/4n4/5K3/9 w", "f2e2", {}),
    # a soldier attacks an unprotected chariot: soldiers may attack freely
    ("3k5/9/9/9/9/9/r1P6/9/9/4K4 w", "c4b4", {}),
    # a chariot attacks a soldier that has not crossed the river: allowed ...
    ("3k5/9/9/9/2p6/9/9/R8/9/4K4 w", "a3c3", {}),
    # ... and one that has crossed it, unprotected: a chase
    ("3k5/9/9/9/9/2p6/9/R8/9/4K4 w", "a3c3", {"c5": "c3"}),
    # only new attacks count: a chariot sliding along the rank it already attacks on
    ("4k4/9/9/9/9/9/9/R3n4/9/3K5 w", "a3b3", {}),
    # but backing away on the file reaches the horse past the square it left: counted
    ("4k4/9/n8/9/9/9/9/R8/9/3K5 w", "a3a2", {"a8": "a2"}),
    # the horse on e9 is protected by its general alone, which may not take back: on e9 it
    # would face red's general on the open e-file; with red's general on d1 it may
    ("4k4/4n4/9/9/9/9/9/9/9/R3K4 w", "a1a9", {"e9": "a9"}),
    ("4k4/4n4/9/9/9/9/9/9/9/R2K5 w", "a1a9", {}),
])
def test_which_pieces_a_move_chases(fen: str, move: str, expected: dict[str, str]) -> None:
    assert _chased(fen, move) == expected


def test_a_horse_whose_leg_is_blocked_cannot_attack_back() -> None:
    # red's horse on c6 attacks black's horse on b8; black's horse cannot attack back
    # (its leg, b7, is blocked), so the attack is a chase; with the leg free it is not
    blocked = "4k4/9/1n7/1P7/9/N8/9/9/9/4K4 w"
    free = "4k4/9/1n7/9/9/N8/9/9/9/4K4 w"
    assert _chased(blocked, "a5c6") == {"b8": "c6"}
    assert _chased(free, "a5c6") == {}


def test_the_ruling_names_the_rule_pieces_and_plies() -> None:
    h = VariantHistory("xiangqi", CHASE)
    h.extend(CYCLE * 3)
    e = h.end
    assert e is not None and (e.termination, e.result, e.article) == (
        "perpetual_chase", "0-1", "AXF perpetual chase")
    assert e.plies == (0, 4, 8, 12)
    assert e.params["chased"] == "horse" and e.params["chaser"] == "chariot"
    assert e.params["chase_plies"] == "2, 4, 6, 8, 10, 12"
    assert [m["chased_square"] for m in e.evidence["chase"]] == ["b6", "a8"] * 3
    assert "Red chased Black's horse (on b6" in e.explanation
    cs, pl = translate(e.message, e.params, "cs"), translate(e.message, e.params, "pl")
    assert "kůň" in cs and "vůz" in cs and "Červený prohrává" in cs
    assert "koń" in pl and "rydwan" in pl
    assert h.chased_pieces(2) == {"b6": "b3"}


def test_a_mutual_chase_is_a_draw_that_names_both_chases(test_data: Path) -> None:
    (line,) = [x for x in (test_data / "variants" / "chase.txt").read_text().splitlines()
               if x.startswith("9/2rk4c")]
    g = rule_on_line(line, "xiangqi")
    assert g.end is not None and g.end.message == "variant_mutual_perpetual_chase"
    assert (g.end.result, g.end.article) == ("1/2-1/2", "AXF perpetual chase")
    assert set(g.end.evidence["chases"]) == {"red", "black"}
    assert "Red chased the chariot on c9" in g.end.explanation
    assert "Black the horse on d2" in g.end.explanation


def test_the_repetition_count_stays_configurable() -> None:
    h = VariantHistory("xiangqi", CHASE, repetitions=3)
    h.extend(CYCLE * 2)
    assert h.end is not None and (h.end.termination, h.end.ply) == ("perpetual_chase", 8)
    h = VariantHistory("xiangqi", CHASE)
    assert h.extend(CYCLE * 2) == 8 and h.end is None


def test_chase_rule_off_rules_a_draw_and_says_so() -> None:
    h = VariantHistory(rules_for("xiangqi", chase="none"), CHASE)
    h.extend(CYCLE * 3)
    assert h.end is not None and h.end.result == "1/2-1/2"
    assert "Perpetual chase was not analysed" in h.end.explanation
    assert h.end.evidence["chase_analysed"] is False


def test_check_beats_chase_is_said() -> None:
    fen = "8R/2c1k4/3r5/9/9/2B6/1r1NC4/5K3/9/9 w - - 0 1"
    h = VariantHistory("xiangqi", fen)
    h.extend(["d4e6", "d8e8", "e6d4", "e8d8"] * 3)
    e = h.end
    assert e is not None and (e.termination, e.result) == ("perpetual_check", "0-1")
    assert "a perpetual check outweighs a perpetual chase" in e.explanation
    assert e.evidence["outweighed_chase"][0]["chased"] == "horse"


def test_remis_game_rules_the_chase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.txt"
    path.write_text(f"{CHASE} moves {' '.join(CYCLE * 3)}\n")
    assert main(["game", "--variant", "xiangqi", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["end"]["termination"] == "perpetual_chase" and out["end"]["result"] == "0-1"
    assert main(["game", "--variant", "xiangqi", "--repetitions", "3", str(path)]) == 0
    assert "ends ply 8: perpetual_chase 0-1 (AXF perpetual chase)" in capsys.readouterr().out


def test_the_live_arbiter_rules_the_chase() -> None:
    a = Arbiter({"variant": "xiangqi", "time_control": "-", "start_fen": CHASE})
    s: dict[str, object] = {}
    for n, mv in enumerate(CYCLE * 3):
        s = a.apply({"type": "move", "player": "black" if n % 2 == 0 else "white", "move": mv})
    assert (s["result"], s["termination"], s["article"]) == (
        "0-1", "perpetual_chase", "AXF perpetual chase")
    # a protected target: the repetition is a draw
    a = Arbiter({"variant": "xiangqi", "time_control": "-",
                 "start_fen": "4k4/9/c7r/9/9/9/9/R8/9/3K5 b - - 0 1"})
    for n, mv in enumerate(["a8b8", "a3b3", "b8a8", "b3a3"] * 3):
        s = a.apply({"type": "move", "player": "black" if n % 2 == 0 else "white", "move": mv})
    assert (s["result"], s["termination"]) == ("1/2-1/2", "repetition")


def test_audit_finds_a_chase_scored_as_a_draw() -> None:
    from remis.variants.audit import audit_records
    from remis.variants.records import read_lines

    line = f"{CHASE} moves {' '.join(CYCLE * 3)} result 1/2-1/2\n".encode()
    (f,) = audit_records(read_lines([line], "xiangqi"), rules_for("xiangqi"), "x")
    assert (f.check, f.result_under_laws, f.article) == (
        "result_after_end", "0-1", "AXF perpetual chase")
    assert f.laws.endswith("perpetual chase loses (AXF)")

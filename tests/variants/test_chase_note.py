"""Every xiangqi repetition ruled a draw says whether chases were judged,
wherever the ruling is shown (the ruling, ``remis game`` in JSON and in text,
the audit's findings and their rule set): by default they are (AXF perpetual
chase) and the draw says nobody chased perpetually; with the chase rule off
(``chase="none"``) it says chases were not analysed.  No shogi ruling or
perpetual-check loss does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyffish")

from remis.cli import main
from remis.variants import VariantHistory
from remis.variants.audit import audit_records, rules_label
from remis.variants.records import read_lines
from remis.variants.rules import rules_for

NOTE = "Neither side chased with every one"
OFF = "Perpetual chase was not analysed"
XQ_ROOK = "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1"
XQ_CHECKS = ["f2e2", "e10f10", "e2f2", "f10e10"]  # red checks with every move
XQ_QUIET = ["f2f1", "e10e9", "f1f2", "e9e10"]
XQ_HALF = ["f2f10", "e10e9", "f10f2", "e9e10"]  # red checks on one move of two


@pytest.mark.parametrize(("moves", "repetitions", "draw"), [
    (XQ_QUIET * 3, 4, True),
    (XQ_HALF * 3, 4, True),
    (XQ_QUIET + XQ_CHECKS * 2, 4, True),  # the cycle began with a quiet move
    (XQ_QUIET * 2, 3, True),
    (XQ_CHECKS * 3, 4, False),  # perpetual check: red loses, no chase question
])
def test_every_xiangqi_repetition_draw_says_chases_were_judged(
        moves: list[str], repetitions: int, draw: bool) -> None:
    h = VariantHistory("xiangqi", XQ_ROOK, repetitions=repetitions)
    h.extend(moves)
    e = h.end
    assert e is not None and (e.result == "1/2-1/2") == draw
    assert (NOTE in e.explanation) == draw
    assert e.evidence.get("chase_analysed") is (True if draw else None)
    off = VariantHistory(rules_for("xiangqi", repetitions, "none"), XQ_ROOK)
    off.extend(moves)
    assert off.end is not None and (OFF in off.end.explanation) == draw
    assert off.end.evidence.get("chase_analysed") is (False if draw else None)


def test_shogi_repetitions_say_nothing_of_chases() -> None:
    h = VariantHistory("shogi")
    h.extend(["2h3h", "8b7b", "3h2h", "7b8b"] * 3)
    assert h.end is not None and h.end.result == "1/2-1/2"
    assert "chase" not in h.end.explanation and "chase_analysed" not in h.end.evidence


def test_game_command_says_it_in_json_and_text(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.txt"
    path.write_text(f"{XQ_ROOK} moves {' '.join(XQ_QUIET * 3)}\n")
    assert main(["game", "--variant", "xiangqi", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert NOTE in out["end"]["explanation"] and out["end"]["evidence"]["chase_analysed"] is True
    assert main(["game", "--variant", "xiangqi", str(path)]) == 0
    text = capsys.readouterr().out
    assert "repetition 1/2-1/2 (WXF repetition)" in text and "not analysed" not in text


def test_audit_findings_on_repetition_draws_say_it() -> None:
    line = f"{XQ_ROOK} moves {' '.join(XQ_QUIET * 3)} result 1-0\n".encode()
    (f,) = audit_records(read_lines([line], "xiangqi"), rules_for("xiangqi"), "x")
    assert (f.check, f.result_under_laws) == ("result_after_end", "1/2-1/2")
    assert NOTE in f.explanation and f.evidence["end"]["evidence"]["chase_analysed"] is True
    assert f.laws.endswith("perpetual chase loses (AXF)")
    assert rules_label(rules_for("xiangqi", chase="none")).endswith("chase not analysed")
    assert "chase" not in rules_label(rules_for("shogi"))

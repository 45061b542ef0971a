"""Shogi impasse: the CSA 27-point declaration (against cshogi's
``is_nyugyoku``) and the JSA 24-point adjudication, on the hand-verified cases
of ``tests/data/variants/impasse.txt``, in ``remis position``, ``remis game``
and ``remis audit`` (a CSA ``%KACHI``), the live arbiter and the service."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("pyffish")
pytest.importorskip("cshogi")

from remis.arbiter import Arbiter
from remis.arbiter.events import RefusedEvent
from remis.cli import main
from remis.i18n import translate
from remis.variants.board import Board
from remis.variants.compare import declaration_verdicts, entering_positions
from remis.variants.game import rule_on_line
from remis.variants.impasse import declaration, impasse_count
from remis.variants.notation import sfen_to_fen

DECLARABLE = "KRB+P+P+P+P+P+P/GGSS5/9/9/9/9/9/9/8k b RB 1"
BOTH_ENTERED = "K8/9/9/9/9/9/9/9/8k b R2G2S2N2L10Pr2b2g2s2n2l8p 1"  # sente 23, gote 31


def _cases(path: Path) -> list[tuple[str, str | None, str | None]]:
    out = []
    expect: tuple[str | None, str | None] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"# expect: (.*)", raw)
        if m:
            words = m[1].split()
            expect = (None, None) if words == ["none"] else (words[0], words[1])
        elif raw.strip() and not raw.startswith("#"):
            assert expect is not None
            out.append((raw, *expect))
            expect = None
    return out


def test_hand_verified_impasse_cases(test_data: Path) -> None:
    cases = _cases(test_data / "variants" / "impasse.txt")
    assert len(cases) == 9
    for line, termination, result in cases:
        g = rule_on_line(line, "shogi")
        assert g.error is None, line
        got = None if g.end is None else (g.end.termination, g.end.result)
        assert got == (None if termination is None else (termination, result)), line
        if line.endswith("declare"):  # cshogi's own test agrees with each declaration
            sfen = line.split(maxsplit=1)[1].rsplit(" ", 1)[0]
            ours, theirs = declaration_verdicts(sfen)
            assert ours == theirs == ((result == "1-0") == (" b " in sfen)), line


def test_declarations_agree_with_cshogi_on_generated_positions() -> None:
    # a fast sample; benchmarks/variants.py --agreement runs the full count
    verdicts = collections.Counter(declaration_verdicts(s)
                                   for s in entering_positions(300, seed=3))
    assert set(verdicts) <= {(True, True), (False, False)}, verdicts
    assert verdicts[(True, True)] >= 10 and verdicts[(False, False)] >= 100


def test_the_counts_of_a_declaration() -> None:
    d = declaration(Board.from_fen("shogi", sfen_to_fen(DECLARABLE)))
    assert (d.side, d.king_in_camp, d.pieces_in_camp, d.points, d.needed, d.in_check) == (
        0, True, 12, 30, 28, False)
    assert d.may_declare and d.failed() == []
    c = impasse_count(Board.from_fen("shogi", sfen_to_fen(BOTH_ENTERED)))
    assert c.points == (23, 31) and c.kings_in_camp == (True, True) and c.result == "0-1"


def test_remis_position_answers_both_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", "--variant", "shogi", "--json", DECLARABLE]) == 0
    out = json.loads(capsys.readouterr().out)
    d, c = out["declaration"], out["impasse"]
    assert (d["may_declare"], d["pieces_in_camp"], d["points"], d["needed"]) == (True, 12, 30, 28)
    assert d["rule"] == "CSA entering-king declaration" and out["end"] is None
    assert c["points"] == {"Sente": 30, "Gote": 0} and c["result"] == "1-0"
    assert c["kings_in_camp"] == {"Sente": True, "Gote": True}
    assert main(["position", "--variant", "shogi", "startpos"]) == 0
    text = capsys.readouterr().out
    assert "declaration (CSA 27-point rule): Sente may not declare" in text
    assert "impasse count (JSA 24-point rule): Sente 27, Gote 27 points" in text


def test_a_csa_kachi_is_ruled_in_game_and_audit(test_data: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = test_data / "variants" / "kachi.csa"
    assert main(["game", "--variant", "shogi", "--json", str(path)]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["end"]["termination"], r["end"]["result"], r["recorded_result"]) for r in rows] \
        == [("impasse_declaration", "1-0", "1-0"), ("impasse_declaration", "0-1", "1-0")]
    out = tmp_path / "f.jsonl"
    assert main(["audit", "--variant", "shogi", "-q", str(path), "--out", str(out)]) == 0
    (f,) = [json.loads(x) for x in out.read_text().splitlines()]
    assert (f["game"], f["check"], f["result_under_laws"], f["article"]) == (
        2, "result_of_impasse", "0-1", "CSA entering-king declaration")
    assert "9 other pieces there, 10 needed" in f["explanation"]


def test_an_impasse_in_a_record_is_adjudicated(tmp_path: Path) -> None:
    from remis.variants.audit import audit_records
    from remis.variants.records import read_lines
    from remis.variants.rules import SHOGI

    line = f"sfen {BOTH_ENTERED} impasse result 1/2-1/2\n".encode()
    (f,) = audit_records(read_lines([line], "shogi"), SHOGI, "x")
    assert (f.check, f.result_under_laws, f.article) == ("result_of_impasse", "0-1", "JSA impasse")
    assert "Sente has 23 points and Gote 31" in f.explanation


def test_rulings_in_three_languages() -> None:
    g = rule_on_line(f"sfen {BOTH_ENTERED} impasse", "shogi")
    assert g.end is not None
    assert "23" in translate(g.end.message, g.end.params, "cs")
    assert "przegrywa strona Sente" in translate(g.end.message, g.end.params, "pl")


def _shogi_arbiter(sfen: str) -> Arbiter:
    return Arbiter({"variant": "shogi", "time_control": "-", "start_fen": sfen})


def test_the_arbiter_rules_on_a_declaration() -> None:
    s = _shogi_arbiter(DECLARABLE).apply(
        {"type": "claim", "player": "white", "kind": "entering_king"})
    assert (s["result"], s["termination"], s["article"]) == (
        "1-0", "impasse_declaration", "CSA entering-king declaration")
    a = _shogi_arbiter(DECLARABLE)
    with pytest.raises(RefusedEvent, match="declare a win by entering king"):
        a.apply({"type": "claim", "player": "black", "kind": "entering_king"})
    s = _shogi_arbiter("startpos").apply(
        {"type": "claim", "player": "white", "kind": "entering_king"})
    assert s["result"] == "0-1"  # an incorrect declaration loses


def test_the_arbiter_adjudicates_an_impasse() -> None:
    s = _shogi_arbiter(BOTH_ENTERED).apply({"type": "claim", "player": "black", "kind": "impasse"})
    assert (s["result"], s["termination"], s["article"]) == ("0-1", "impasse", "JSA impasse")
    assert s["log"][-1]["params"]["sente_points"] == 23
    with pytest.raises(RefusedEvent, match="both kings have entered"):
        _shogi_arbiter("startpos").apply({"type": "claim", "player": "white", "kind": "impasse"})


def test_the_claims_are_shogi_only() -> None:
    with pytest.raises(RefusedEvent, match="shogi rule, not chess"):
        Arbiter({"time_control": "-"}).apply(
            {"type": "claim", "player": "white", "kind": "impasse"})
    with pytest.raises(RefusedEvent, match="shogi rule, not xiangqi"):
        Arbiter({"variant": "xiangqi", "time_control": "-"}).apply(
            {"type": "claim", "player": "white", "kind": "entering_king"})


def test_the_service_passes_the_claim_to_the_arbiter(tmp_path: Path) -> None:
    from remis.service.games import Games
    from remis.service.store import open_store

    url = f"sqlite:///{tmp_path / 'v.db'}"
    games = Games(open_store(url))
    gid, tokens, _ = games.create({"variant": "shogi", "start_fen": DECLARABLE})
    state, _n = games.post(gid, tokens["white"],
                           {"type": "claim", "player": "white", "kind": "entering_king"})
    assert (state["result"], state["article"]) == ("1-0", "CSA entering-king declaration")
    again = Games(open_store(url))  # rebuilt from the stored events
    assert again.state(gid)[1]["result"] == "1-0"


def test_declare_and_impasse_are_shogi_words(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    g = rule_on_line("startpos h3e3 declare", "xiangqi")
    assert g.end is None and g.error is not None
    assert g.error["message"] == "'declare' and 'impasse' end shogi games only, not xiangqi"
    path = tmp_path / "g.txt"
    path.write_text("startpos h3e3 impasse\n")
    assert main(["game", "--variant", "xiangqi", str(path)]) == 1
    assert "end shogi games only" in capsys.readouterr().out

"""KI2 records (moves without origin squares, ``▲７六歩　△３四歩``), read
through cshogi's KI2 parser: several moves a line, several games a file,
and a clear ``unread`` ply for any move it cannot read or resolve."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("pyffish")
pytest.importorskip("cshogi")

from remis.cli import main
from remis.variants.audit import audit_records
from remis.variants.ki2 import read_ki2
from remis.variants.records import read_lines, read_records
from remis.variants.rules import rules_for

_HEAD = "開始日時：2024/05/01 10:00:00\n手合割：平手\n先手：先手さん\n後手：後手さん\n"


def _ki2(moves: list[str], per_line: int = 6) -> str:
    rows = ["    ".join(moves[i:i + per_line]) for i in range(0, len(moves), per_line)]
    return "\n".join(rows) + "\n"


def test_random_games_read_back_from_ki2(tmp_path: Path) -> None:
    """Random games with drops, promotions, recaptures (同) and moves that
    need 右/左/上/引/寄/直, written by cshogi's KI2 notation six moves a line
    as KI2 files have them, read back move for move, with the same findings
    as their game lines."""
    import cshogi
    from cshogi import KI2

    from remis.variants.randgames import random_game

    rng = random.Random(5)
    games = [random_game("shogi", rng, prefix=80) for _ in range(6)]
    played = [m for g in games for m in g.shown]
    assert any("*" in m for m in played) and any(m.endswith("+") for m in played)
    rules = rules_for("shogi")
    relative = 0
    for i, g in enumerate(games):
        board = cshogi.Board()
        notation = []
        for m in g.shown:
            move = board.move_from_usi(m)
            notation.append(KI2.move_to_ki2(move, board))
            board.push(move)
        relative += sum(any(c in x for c in "右左上引寄直") for x in notation)
        text = _HEAD + _ki2(notation) + f"まで{len(notation)}手で千日手\n"
        path = tmp_path / f"g{i}.ki2"
        path.write_bytes(text.encode("cp932"))
        (rec,) = read_records(str(path), "shogi")
        assert rec.error is None and rec.unread is None, rec.unread
        assert tuple(rec.moves) == g.shown
        assert rec.result == "1/2-1/2" and rec.termination == "repetition"
        line = f"startpos {' '.join(g.shown)} result 1/2-1/2\n".encode()
        expected = [(f.check, f.ply, f.result_under_laws)
                    for f in audit_records(read_lines([line], "shogi"), rules, "x")]
        assert [(f.check, f.ply, f.result_under_laws)
                for f in audit_records([rec], rules, str(path))] == expected
    assert relative > 0  # the notation had to say which piece moved


@pytest.mark.parametrize(
    ("moves", "ply", "needle"),
    [
        # both golds can go to 5八: KI2 must say which (５八金右)
        ("▲７六歩    △３四歩    ▲５八金", 3, "is ambiguous"),
        ("▲７六歩    △３四歩    ▲５八金右  △８四歩", None, None),
        ("▲７六歩    △３四歩    ▲２二飛成", 3, "(▲２二飛成, line 5) matches no legal move"),
        ("▲７六歩    ▲２六歩", 2, "marked ▲, but gote (△) has the move"),
        ("▲７六歩    △３四歩    ▲２二角ナ  △同　銀", 3, "cannot be read ('▲２二角ナ"),
        ("☗７六歩    ☖３四歩    ☗２二角成  ☖同銀", None, None),
        # sente holds a gold: 左 names the gold on 6九, not a drop (cshogi reads a drop)
        ("▲７六歩 △３四歩 ▲２二角成 △６二銀 ▲３二馬 △９四歩 ▲４一馬 △同　玉 ▲５八金左", None,
         "6i5h"),
        ("▲７六歩 △３四歩 ▲２二角成 △６二銀 ▲３二馬 △９四歩 ▲４一馬 △同　玉 ▲５八金打", None,
         "G*5h"),
        ("▲７六歩 △３四歩 ▲２二角成 △６二銀 ▲３二馬 △９四歩 ▲４一馬 △同　玉 ▲５八金", 9,
         "is ambiguous"),
    ],
)
def test_ki2_moves_that_cannot_be_read_end_the_game_there(moves: str, ply: int | None,
                                                          needle: str | None) -> None:
    (rec,) = read_ki2((_HEAD + moves + "\nまで4手で後手の勝ち\n").encode())
    assert rec.error is None and rec.result == "0-1"
    if ply is None:
        assert rec.unread is None and len(rec.moves) == len(re.findall("[▲△☗☖]", moves))
        assert needle is None or rec.moves[-1] == needle
        return
    assert rec.unread is not None and rec.unread["ply"] == ply
    assert needle is not None and needle in rec.unread["message"]
    assert "line 5)" in rec.unread["message"]  # the moves are on line 5, after 4 headers
    assert len(rec.moves) == ply - 1  # the moves before it are kept


def test_ki2_collection_with_inline_end_words_and_findings(tmp_path: Path) -> None:
    rook = ["▲３八飛", "△７二飛", "▲２八飛", "△８二飛"] * 3
    one = "# ---- KI2 ----\n" + _HEAD + _ki2(rook) + "まで12手で先手の勝ち\n"  # sennichite
    two = _HEAD.replace("先手さん", "B") + "▲７六歩    △３四歩    ▲投了\n"  # no まで line
    three = _HEAD + "|v香v桂v銀v金v玉v金v銀v桂v香|一\n▲７六歩\n"  # a board diagram
    path = tmp_path / "games.ki2u"
    text = one + "\n" + two + three
    path.write_text(text, encoding="utf-8")
    recs = list(read_records(str(path), "shogi"))
    lines = text.split("\n")
    assert [(r.index, lines[r.line - 1][:5]) for r in recs] == [
        (1, "# ---"), (2, "開始日時："), (3, "開始日時：")]
    assert recs[1].headers["Sente"] == "B" and recs[1].moves == ["7g7f", "3c3d"]
    assert (recs[1].result, recs[1].termination) == ("0-1", "resignation")
    assert recs[2].error is not None and "board diagram" in recs[2].error
    found = audit_records(recs, rules_for("shogi"), str(path))
    assert [(f.game, f.line, f.check, f.ply, f.result_under_laws) for f in found] == [
        (1, 1, "result_after_end", 12, "1/2-1/2"),
        (3, recs[2].line, "illegal_move", 0, None)]


def test_cli_game_reads_ki2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.ki2"
    path.write_bytes((_HEAD + "▲７六歩    △３四歩\nまで2手で中断\n").encode("cp932"))
    assert main(["game", "--variant", "shogi", "--json", str(path)]) == 0
    (out,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert (out["plies"], out["recorded_result"], out["headers"]["Sente"]) == (2, "*", "先手さん")
    assert main(["game", "--variant", "xiangqi", str(path)]) == 1
    assert "KI2 is a shogi format, not xiangqi" in capsys.readouterr().err

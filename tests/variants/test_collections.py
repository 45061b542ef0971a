"""Files of several shogi games: KIF collections (games one after another,
each with its headers) and CSA files (games separated by a ``/`` line), every
game read, with its game number and line in records, errors and findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyffish")
pytest.importorskip("cshogi")

from remis.cli import main
from remis.variants.audit import audit_records
from remis.variants.kifu import read_csa, read_kif
from remis.variants.kifutext import is_kif_move, split_kifu
from remis.variants.records import read_records
from remis.variants.rules import rules_for

_ROOK_SHUFFLE = ["３八飛(28)", "７二飛(82)", "２八飛(38)", "８二飛(72)"] * 3


def _kif_game(sente: str, moves: list[str], end: str, *, extra: str = "") -> str:
    """One game in KIF as Kifu for Windows writes it."""
    lines = ["# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----",
             "開始日時：2024/05/01 10:00:00", "手合割：平手", f"先手：{sente}", "後手：後手さん",
             "手数----指手---------消費時間--"]
    lines += [f"{i:>4} {m}   ( 0:01/00:00:01)" for i, m in enumerate(moves, start=1)]
    return "\n".join([*lines, end, extra]) + "\n"


def _collection() -> str:
    one = _kif_game("一", ["７六歩(77)", "３四歩(33)", "投了"], "まで2手で後手の勝ち")
    # a sennichite scored as a win for sente, with a variation after the main line
    two = _kif_game("二", _ROOK_SHUFFLE, "まで12手で先手の勝ち",
                    extra="\n変化：3手\n   3 ２六歩(27)   ( 0:01/00:00:01)\n")
    # a move line the KIF parser would skip silently
    three = _kif_game("三", ["７六歩(77)", "３四歩(33)", "２二角ナ(88)"], "")
    return one + "\n" + two + three


def test_every_game_of_a_kif_collection_is_read() -> None:
    data = _collection().encode("cp932")
    recs = list(read_kif(data))
    assert [(r.index, r.headers["Sente"]) for r in recs] == [(1, "一"), (2, "二"), (3, "三")]
    lines = data.split(b"\n")
    for r in recs:  # each game starts at its own '# ----' line, by line and byte offset
        assert lines[r.line - 1].startswith(b"# ---- Kifu")
        assert data[r.offset:].startswith(b"# ---- Kifu")
    assert recs[0].moves == ["7g7f", "3c3d"] and recs[0].result == "0-1"
    assert len(recs[1].moves) == 12 and recs[1].result == "1-0"  # the variation is not read
    assert recs[2].moves == ["7g7f", "3c3d"]
    bad = next(n for n, x in enumerate(data.split(b"\n"), 1) if "ナ".encode("cp932") in x)
    assert recs[2].unread == {"ply": 3, "message": f"move 3 of the KIF cannot be read (line {bad})"}


def _starts(text: str) -> list[int]:
    """The lines where the games of a collection begin."""
    return [n for n, line in enumerate(text.split("\n"), start=1) if line.startswith("# ---- ")]


def test_kif_collection_findings_name_game_and_line(tmp_path: Path) -> None:
    path = tmp_path / "collection.kif"
    path.write_bytes(_collection().encode("cp932"))
    found = audit_records(read_records(str(path), "shogi"), rules_for("shogi"), str(path))
    _, two, three = _starts(_collection())
    assert [(f.game, f.line, f.check, f.ply, f.result_under_laws) for f in found] == [
        (2, two, "result_after_end", 12, "1/2-1/2"), (3, three, "illegal_move", 3, None)]


def test_kif_split_keeps_headers_after_moves_and_comments_with_their_game() -> None:
    # '#' comments may stand anywhere, and a header written after the moves
    # (no move follows it) is not a game of its own
    game = _kif_game("一", ["７六歩(77)", "３四歩(33)"], "まで2手で中断")
    game = game.replace("   2 ３四歩", "# a comment\n   2 ３四歩")
    data = (game + "備考：headers after the moves\n").encode()
    (part,) = split_kifu(data, is_kif_move)
    assert part.line == 1 and part.text.endswith("備考：headers after the moves\n")
    (rec,) = read_kif(data)
    assert rec.moves == ["7g7f", "3c3d"] and rec.error is None


def test_headers_then_variations_after_a_game_stay_with_it() -> None:
    one = _kif_game("一", ["７六歩(77)", "３四歩(33)"], "まで2手で後手の勝ち")
    tail = "備考：after the moves\n変化：2手\n   2 ８四歩(83)   ( 0:01/00:00:01)\n"
    two = _kif_game("二", ["２六歩(27)"], "まで1手で先手の勝ち")
    recs = list(read_kif((one + tail + two).encode()))
    assert [(r.index, r.headers["Sente"], r.moves) for r in recs] == [
        (1, "一", ["7g7f", "3c3d"]), (2, "二", ["2g2f"])]
    assert all(r.error is None and r.unread is None for r in recs)


def test_a_bad_kif_game_does_not_hide_the_next() -> None:
    diagram = ("後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
               "|v香v桂v銀v金v玉v金v銀v桂v香|一\n+---------------------------+\n"
               "先手の持駒：なし\n手数----指手---------消費時間--\n   1 ７六歩(77)\n")
    one = _kif_game("一", ["７六歩(77)"], "まで1手で中断")
    text = one + diagram + one
    recs = list(read_kif(text.encode()))
    lines = text.split("\n")
    assert [(r.index, r.error is None, len(r.moves)) for r in recs] == [
        (1, True, 1), (2, False, 0), (3, True, 1)]
    assert [lines[r.line - 1][:6] for r in recs] == ["# ----", "後手の持駒：", "# ----"]
    assert recs[1].error is not None and "board diagram" in recs[1].error


def test_csa_games_are_numbered_across_separators() -> None:
    game = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"
    data = (game + "/\n" + game + "/\n/\n" + game).encode()
    recs = list(read_csa(data))
    size = len(game)  # ASCII: one byte a character
    assert [(r.index, r.line, r.offset, r.result) for r in recs] == [
        (1, 1, 0, "0-1"), (2, 10, size + 2, "0-1"), (3, 20, 2 * size + 6, "0-1")]


def test_cli_game_lists_every_game_of_a_collection(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "collection.kifu"
    path.write_text(_collection(), encoding="utf-8")
    assert main(["game", "--variant", "shogi", "--json", str(path)]) == 1  # game 3 is unread
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    one, two, three = _starts(_collection())
    assert [(o["game"], o["line"], o["plies"]) for o in out] == [(1, one, 2), (2, two, 12),
                                                                 (3, three, 2)]
    assert out[1]["end"]["termination"] == "repetition"
    assert out[2]["error"]["ply"] == 3 and out[2]["error"]["line"] == three


def test_kif_moves_the_parser_would_play_wrongly_are_unread() -> None:
    """A gold 'promoting' (cshogi's KIF parser plays it and its board is then
    corrupt: later moves crashed the process) and a move line that lost its
    number (the parser skips it and the moves after it shift) end the readable
    part of the game at their ply, naming the line."""
    head = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
    shuffle = "".join(f"{n:>4} {m}\n" for n, m in enumerate(
        ["５八金(69)", "５二金(41)", "６九金(58)", "４一金(52)"] * 3, start=4))
    (rec,) = read_kif((head + "   3 ５八金成(69)\n" + shuffle).encode())
    assert rec.moves == ["7g7f", "3c3d"]
    assert rec.unread == {"ply": 3, "message": "move 3 of the KIF cannot be read (line 5)"}
    (rec,) = read_kif((head + "   3成 ５八金(69)\n" + shuffle).encode())
    assert rec.moves == ["7g7f", "3c3d"]
    assert rec.unread == {"ply": 3, "message": "move 3 of the KIF cannot be read (line 5)"}


def test_kif_and_ki2_readers_survive_garbled_records() -> None:
    """Random edits of KIF and KI2 collections (written by cshogi's writers)
    never raise nor crash: every game comes back with its place, and what
    cannot be read is an error or an unread ply."""
    import random

    import cshogi
    from cshogi import KI2, KIF

    from remis.variants.ki2 import read_ki2
    from remis.variants.randgames import random_game

    rng = random.Random(12)
    kif, ki2 = [], []
    for g in [random_game("shogi", rng, prefix=30) for _ in range(3)]:
        board, prev, kif_moves, ki2_moves = cshogi.Board(), None, [], []
        for n, m in enumerate(g.shown, start=1):
            move = board.move_from_usi(m)
            kif_moves.append(f"{n:>4} {KIF.move_to_kif(move, prev)}")
            ki2_moves.append(KI2.move_to_ki2(move, board))
            board.push(move)
            prev = move
        kif.append("手合割：平手\n先手：A\n" + "\n".join(kif_moves) + "\nまで30手で千日手\n")
        ki2.append("手合割：平手\n先手：A\n" + "  ".join(ki2_moves) + "\nまで30手で千日手\n")
    pieces = ["▲", "△", "同　", "歩", "金", "成", "打", "左", "右", "上", "引", "(", ")", "1",
              "９", "一", "\n", "：", "変化：3手\n", "手合割：その他\n", "|v香|\n", "まで"]
    for reader, text in ((read_kif, "".join(kif)), (read_ki2, "".join(ki2))):
        for _ in range(40):
            t = list(text)
            for _ in range(rng.randint(1, 12)):
                pos = rng.randrange(len(t))
                if rng.random() < 0.4:
                    del t[pos]
                else:
                    t[pos:pos] = list(rng.choice(pieces))
            recs = list(reader("".join(t).encode()))
            assert recs and all(r.line >= 1 and r.index == i for i, r in enumerate(recs, 1))

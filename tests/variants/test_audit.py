"""``remis audit --variant``: shogi and xiangqi records whose recorded result
or moves contradict the rules, one finding per wrong game, in the chess
audit's shapes; KIF and CSA records (Shift-JIS or UTF-8) read through cshogi."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

pytest.importorskip("pyffish")
pytest.importorskip("cshogi")

from remis.audit.checks import Finding
from remis.cli import main
from remis.variants.audit import audit_records
from remis.variants.kifu import read_csa, read_kif
from remis.variants.records import read_records
from remis.variants.rules import rules_for


def _audit(path: Path, variant: str) -> list[tuple[int, str, int, str | None, str]]:
    findings = audit_records(read_records(str(path), variant), rules_for(variant), str(path))
    return [(f.game, f.check, f.ply, f.result_under_laws, f.article) for f in findings]


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("shogi", [("moves_after_end", 12, "1/2-1/2", "JSA sennichite"),
                   ("result_after_end", 12, "0-1", "JSA perpetual check"),
                   ("result_vs_position", 1, "1-0", "JSA checkmate"),
                   ("illegal_move", 3, None, "JSA illegal move"),
                   ("illegal_move", 0, None, "unreadable record")]),  # 'result 2-0'
        ("xiangqi", [("result_after_end", 12, "0-1", "WXF perpetual check"),
                     ("moves_after_end", 12, "0-1", "WXF perpetual check"),
                     ("result_vs_position", 1, "1-0", "WXF checkmate"),
                     ("illegal_move", 2, None, "WXF illegal move"),
                     ("illegal_move", 0, None, "unreadable record")]),  # a FEN of 9 ranks
    ],
)
def test_game_lines_one_finding_per_check(test_data: Path, variant: str,
                                          expected: list[tuple[str, int, str | None, str]]
                                          ) -> None:
    found = _audit(test_data / "variants" / f"audit-{variant}.txt", variant)
    # games 2-6 are wrong, each in one way; the others (some after the malformed
    # line) are audited and correct
    assert found == [(game, *f) for game, f in enumerate(expected, start=2)]


def test_threefold_xiangqi_moves_the_end(test_data: Path) -> None:
    path = test_data / "variants" / "audit-xiangqi.txt"
    rules = rules_for("xiangqi", 3)
    found = [(f.game, f.check, f.ply) for f in
             audit_records(read_records(str(path), "xiangqi"), rules, str(path))]
    # with 3 occurrences the perpetual check ends at ply 8: both records go on
    assert found[:2] == [(2, "moves_after_end", 8), (3, "moves_after_end", 8)]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Shift-JIS, CRLF: a sennichite scored as a win for Gote
        ("sennichite-scored-as-win.kif",
         [(1, "result_after_end", 12, "1/2-1/2", "JSA sennichite")]),
        # UTF-8: the record goes on after the sennichite (the variation is not read)
        ("moves-after-sennichite.kifu",
         [(1, "moves_after_end", 12, "1/2-1/2", "JSA sennichite")]),
        # a move line the KIF parser would skip silently
        ("garbled-move.kif", [(1, "illegal_move", 3, None, "unreadable record")]),
        # a lance handicap, the handicap giver moving first: correct
        ("handicap.kif", []),
        # a set-up board diagram: refused, never replayed from the start position
        ("board-diagram.kif", [(1, "illegal_move", 0, None, "unreadable record")]),
        # four CSA games, in Shift-JIS: perpetual check scored as sennichite, a correct
        # game, an unreadable game, a move the parser cannot play
        ("games.csa", [(1, "result_after_end", 12, "0-1", "JSA perpetual check"),
                       (3, "illegal_move", 0, None, "unreadable record"),
                       (4, "illegal_move", 3, None, "unreadable record")]),
    ],
)
def test_kif_and_csa_findings(test_data: Path, name: str,
                              expected: list[tuple[int, str, int, str | None, str]]) -> None:
    assert _audit(test_data / "variants" / name, "shogi") == expected


def test_kif_headers_result_and_start(test_data: Path) -> None:
    (rec,) = read_records(str(test_data / "variants" / "handicap.kif"), "shogi")
    assert rec.start == "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    assert rec.moves == ["3c3d", "7g7f", "4c4d", "2g2f"]
    assert rec.result == "1-0"  # まで4手で下手の勝ち: the handicap receiver (sente) won
    assert rec.headers == {"Date": "2024/03/03 13:00:00", "Sente": "田中", "Gote": "山本"}
    (rec,) = read_records(str(test_data / "variants" / "garbled-move.kif"), "shogi")
    # no closing line: Gote resigned on ply 6 (投了), so Sente won
    assert rec.result == "1-0" and rec.termination == "resignation"
    assert rec.moves == ["7g7f", "3c3d"] and rec.unread is not None and rec.unread["ply"] == 3


def test_kif_encodings_read_alike(test_data: Path) -> None:
    sjis = (test_data / "variants" / "sennichite-scored-as-win.kif").read_bytes()
    text = sjis.decode("cp932")
    a, b, c = (next(read_kif(data)) for data in
               (sjis, text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode("utf-8")))
    assert a == b == c
    assert a.headers["Sente"] == "佐藤" and len(a.moves) == 12 and a.result == "0-1"
    (bad,) = read_kif("先手：佐藤\n".encode("cp932") + b"\x81\x20")
    assert bad.error is not None and "neither UTF-8 nor Shift-JIS" in bad.error
    (empty,) = read_kif("ただのメモ\n".encode())
    assert empty.error == "no KIF game in the file"


def test_csa_games_keep_their_place(test_data: Path) -> None:
    data = (test_data / "variants" / "games.csa").read_bytes()
    recs = list(read_csa(data))
    assert [r.index for r in recs] == [1, 2, 3, 4]
    for r in recs:  # each game starts at its line and byte offset
        assert data.splitlines(keepends=True)[r.line - 1].startswith(b"V2.2")
        assert data[r.offset:].startswith(b"V2.2")
    assert recs[0].headers["Event"] == "練習対局" and recs[0].termination == "repetition"
    assert recs[1].result == "1-0" and recs[1].moves == ["7g7f", "3c3d", "8h2b+"]
    assert recs[2].error == "unreadable CSA: invalid line 60: this is not a move"


def test_cli_audit_outputs(test_data: Path, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    src = test_data / "variants"
    out, summary, report = tmp_path / "f.jsonl", tmp_path / "s.json", tmp_path / "r.html"
    status = main(["audit", "--variant", "shogi", str(src / "audit-shogi.txt"),
                   str(src / "games.csa"), str(src / "board-diagram.kif"),
                   "--out", str(out), "--summary", str(summary), "--report", str(report)])
    assert status == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    chess_keys = set(Finding("x", 1, 0, {}, "*", None, None, "", 0, {}, "", "").to_json())
    assert all(set(r) == chess_keys | {"line", "variant"} for r in rows)
    assert [(Path(r["file"]).name, r["game"], r["line"]) for r in rows] == [
        ("audit-shogi.txt", 2, 5), ("audit-shogi.txt", 3, 7), ("audit-shogi.txt", 4, 9),
        ("audit-shogi.txt", 5, 11), ("audit-shogi.txt", 6, 13),
        ("games.csa", 1, 1), ("games.csa", 3, 55), ("games.csa", 4, 63),
        ("board-diagram.kif", 1, 1)]
    assert rows[5]["headers"]["Sente"] == "佐藤" and rows[5]["recorded_result"] == "1/2-1/2"
    s = json.loads(summary.read_text())
    assert s["games"] == 8 + 4 + 1 and s["findings"] == 9
    assert s["by_check"] == {"illegal_move": 5, "moves_after_end": 1, "result_after_end": 2,
                             "result_vs_position": 1}
    assert "audited 13 games: 9 findings" in capsys.readouterr().err
    assert "JSA rules (shogi)" in report.read_text(encoding="utf-8")


def test_cli_audit_csv_and_checks(test_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "f.csv"
    path = str(test_data / "variants" / "audit-xiangqi.txt")
    assert main(["audit", "--variant", "xiangqi", "-q", "--format", "csv", "--out", str(out),
                 "--checks", "illegal_move", path]) == 0
    with out.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["game"], r["check"], r["article"]) for r in rows] == [
        ("5", "illegal_move", "WXF illegal move"), ("6", "illegal_move", "unreadable record")]


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--resume"], "--resume needs --out FILE"),
        (["--laws", "as-played"], "--laws as-played applies to chess only"),
        (["--checks", "time_forfeit"], "unknown check(s) for shogi: time_forfeit"),
        (["--repetitions", "3"], "(sennichite) is always fourfold"),
    ],
)
def test_cli_audit_refuses_chess_only_options(test_data: Path, extra: list[str], needle: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = str(test_data / "variants" / "audit-shogi.txt")
    assert main(["audit", "--variant", "shogi", path, *extra]) == 2
    assert needle in capsys.readouterr().err


def test_cli_audit_bad_files_do_not_stop_the_run(test_data: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "f.jsonl"
    status = main(["audit", "--variant", "xiangqi", "-q", "--out", str(out), "/nonexistent.txt",
                   str(test_data / "variants" / "games.csa"),
                   str(test_data / "variants" / "audit-xiangqi.txt")])
    assert status == 1
    err = capsys.readouterr().err
    assert "/nonexistent.txt" in err and "CSA is a shogi format, not xiangqi" in err
    assert len(out.read_text().splitlines()) == 5


def test_cli_game_reads_kif_and_csa(test_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "--variant", "shogi", "--json", str(test_data / "variants" / "games.csa"),
                 str(test_data / "variants" / "moves-after-sennichite.kifu")]) == 1
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(o["game"], o["plies"], o["recorded_result"]) for o in out] == [
        (1, 12, "1/2-1/2"), (2, 3, "1-0"), (3, 0, None), (4, 2, "0-1"), (1, 12, "0-1")]
    assert out[0]["end"]["termination"] == "perpetual_check"
    assert out[4]["moves_after_end"] == 2 and out[4]["headers"]["Gote"] == "鈴木"


@pytest.mark.parametrize("suffix", [".kif", ".kifu", ".csa"])
def test_random_games_read_back_from_kif_and_csa(tmp_path: Path, suffix: str) -> None:
    """Random games with drops, promotions and recaptures (KIF's 同), written
    by cshogi's exporters (KIF in Shift-JIS, KIFU in UTF-8), read back move
    for move, with the same findings as their game lines."""
    import random

    import cshogi
    from cshogi import CSA, KIF

    from remis.variants.randgames import random_game
    from remis.variants.records import read_lines

    rng = random.Random(11)
    games = [random_game("shogi", rng, prefix=60) for _ in range(4)]
    played = [m for g in games for m in g.shown]
    assert any("*" in m for m in played) and any(m.endswith("+") for m in played)
    rules = rules_for("shogi")
    for i, g in enumerate(games):
        path = tmp_path / f"g{i}{suffix}"
        board = cshogi.Board()
        if suffix == ".csa":
            ex: object = CSA.Exporter(str(path))
            ex.info(board, names=["先手", "後手"])  # type: ignore[attr-defined]
        else:
            ex = KIF.Exporter(str(path))
            ex.header(["先手", "後手"])  # type: ignore[attr-defined]
        for m in g.shown:
            move = board.move_from_usi(m)
            ex.move(move)  # type: ignore[attr-defined]
            board.push(move)
        if suffix == ".csa":
            ex.endgame("%SENNICHITE")  # type: ignore[attr-defined]
        else:
            ex.end("sennichite")  # type: ignore[attr-defined]
        ex.close()  # type: ignore[attr-defined]
        (rec,) = read_records(str(path), "shogi")
        assert rec.error is None and rec.unread is None
        assert tuple(rec.moves) == g.shown
        assert rec.result == "1/2-1/2"
        line = f"startpos {' '.join(g.shown)} result 1/2-1/2\n".encode()
        expected = [(f.check, f.ply, f.result_under_laws)
                    for f in audit_records(read_lines([line], "shogi"), rules, "x")]
        assert [(f.check, f.ply, f.result_under_laws)
                for f in audit_records([rec], rules, str(path))] == expected


def test_csa_parser_crash_costs_only_its_game() -> None:
    """cshogi's C++ CSA parser dies (segmentation fault) on an over-long board
    row; it runs in a child process, so only that game is lost."""
    data = (b"PI\n+\n+7776FU\n%TORYO\n/\n"
            b"P1 *  *  *  * -OU *  *  *  *  *  * \n+\n+5958OU\n%TORYO\n/\n"
            b"PI\n+\n+2726FU\n-8384FU\n%TORYO\n")
    recs = list(read_csa(data))
    assert [(r.index, r.line, r.moves) for r in recs] == [
        (1, 1, ["7g7f"]), (2, 6, []), (3, 11, ["2g2f", "8c8d"])]
    assert recs[1].error is not None and "crashed" in recs[1].error
    assert recs[0].error is None and recs[2].error is None and recs[2].result == "0-1"


def test_kif_non_promotion_and_misnamed_pieces() -> None:
    head = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
    (rec,) = read_kif((head + "   3 ２二角不成(88)\n   4 同　銀(31)\n").encode("cp932"))
    assert rec.moves == ["7g7f", "3c3d", "8h2b", "3a2b"] and rec.unread is None
    # the parser goes by the squares: a move line naming another piece is not read
    (rec,) = read_kif((head + "   3 ２二飛成(88)\n").encode("cp932"))
    assert rec.moves == ["7g7f", "3c3d"]
    assert rec.unread == {"ply": 3, "message": "move 3 of the KIF names 飛, but the piece "
                          "there is 角 (line 5)"}


@pytest.mark.parametrize(("line", "message"), [
    ("５五玉打", "move 3 of the KIF drops 玉, a piece that is never in hand (line 5)"),
    ("５五歩(56)", "move 3 of the KIF names 歩, but there is no piece there (line 5)"),
])
def test_kif_moves_of_pieces_that_are_not_there(line: str, message: str) -> None:
    # the king drop raised IndexError in our reading code, which stopped the file
    head = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n"
    (rec,) = read_kif((head + f"   3 {line}\n   4 ８四歩(83)\n").encode("cp932"))
    assert rec.error is None and rec.moves == ["7g7f", "3c3d"]
    assert rec.unread == {"ply": 3, "message": message}


def test_cli_audit_jobs_give_the_same_findings(test_data: Path, tmp_path: Path) -> None:
    folder = test_data / "variants"
    next(read_csa((folder / "games.csa").read_bytes()))  # this process has a parser child now
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.jsonl"
        assert main(["audit", "--variant", "shogi", "-q", "--jobs", jobs, str(folder),
                     "--out", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    files = {Path(json.loads(x)["file"]).name for x in outs[0].splitlines()}
    assert {"games.csa", "garbled-move.kif", "audit-shogi.txt", "shogi.txt"} <= files


@pytest.mark.parametrize(("summary", "found"), [
    ("'summary:oute_sennichite:A lose:B win\n", []),  # the server scored the loss
    ("'summary:sennichite:A draw:B draw\n", [("result_after_end", "0-1")]),
    ("", [("result_after_end", "0-1")]),  # %SENNICHITE alone: a draw
])
def test_csa_server_summary_is_the_recorded_result(test_data: Path, summary: str,
                                                   found: list[tuple[str, str]]) -> None:
    # game 1 of games.csa: Sente's perpetual check, recorded %SENNICHITE
    first = (test_data / "variants" / "games.csa").read_bytes().split(b"\n/\n")[0]
    (rec,) = read_csa(first + b"\n" + summary.encode())
    assert (rec.termination, rec.result) == {
        "": ("repetition", "1/2-1/2"), "'summary:sennichite:A draw:B draw\n":
        ("sennichite", "1/2-1/2")}.get(summary, ("oute_sennichite", "0-1"))
    findings = audit_records([rec], rules_for("shogi"), "x")
    assert [(f.check, f.result_under_laws) for f in findings] == found

"""Reading variant games: SFEN/FEN and USI/UCI/ICCS, and clear errors (line,
ply, what is wrong) that never stop a file; the ``--variant`` CLI paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyffish")

from remis.cli import main
from remis.variants import VariantError, VariantHistory, rule_on_lines
from remis.variants.game import rule_on_line


@pytest.mark.parametrize(
    ("variant", "start", "needle"),
    [
        ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
         "rank 9 of the board has 8 squares"),
        ("shogi", "4k4/9/9/9/9/9/9/9/4K4 x - 1", "side to move must be b (sente) or w"),
        ("shogi", "4k4/9/9/9/9/9/9/9/4K4 b 2Q 1", "'Q' cannot be held in hand"),
        ("shogi", "4k4/9/9/9/9/9/9/9/4X4 b - 1", "Invalid piece character"),
        ("shogi", "4k4/9/9/9/9/9/9/9/9 b - 1", "kings"),
        ("shogi", "4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "side that has just moved is in check"),
        ("shogi", "4k3P/9/9/9/9/9/9/9/4K4 b - 1", "could never move again"),
        ("shogi", "4k4/9/9/9/9/9/9/4K4/n8 w - 1", "gote N on rank i (USI square 9i)"),
        ("shogi", "4k4/9/9/9/9/9/P8/P8/4K4 b - 1", "nifu"),
        ("xiangqi", "4k4/9/9/9/9/9/9/9/4R4 w", "the board has 9 ranks, not 10"),
        ("xiangqi", "4k4/9/9/9/9/9/9/9/4R4/3K5 g", "side to move must be w or r"),
        # placements pyffish accepts but no xiangqi game can reach
        ("xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 w", "generals face each other on file e"),
        ("xiangqi", "k8/9/9/9/9/9/9/9/9/4K4 w", "black general on a10 is outside its palace"),
        ("xiangqi", "4k4/9/9/9/9/9/9/9/9/3KA4 w", "red advisor on e1 is on a point it can"),
        ("xiangqi", "4k4/9/9/9/9/9/9/9/4E4/3K5 w", "red elephant on e2 is on a point"),
        ("xiangqi", "4k4/9/9/9/9/1P7/9/9/9/3K5 w", "red soldier on b5 is on a point"),
        ("xiangqi", "4k4/4p4/9/9/9/9/9/9/9/3K5 w", "black soldier on e9 is on a point"),
    ],
)
def test_malformed_positions_are_named(variant: str, start: str, needle: str) -> None:
    with pytest.raises(VariantError) as info:
        VariantHistory(variant, start)
    assert needle in str(info.value)
    assert info.value.ply == 0


@pytest.mark.parametrize(
    ("variant", "line", "ply", "needle"),
    [
        ("shogi", "startpos 7g7f 3c3d 7g7z", 3, "'7g7z' is not a USI move"),
        ("shogi", "startpos 7g7f 3c3d 7f7e 3d3e 7e7d 3e3f 7d7c+", None, None),
        ("shogi", "startpos 7g7f 3c3d 2b8h", 3, "illegal move 2b8h for Sente"),
        ("shogi", "startpos 7g7f 3c3d P*5e", 3, "illegal move P*5e for Sente"),
        ("xiangqi", "startpos h3e3 h3e3", 2, "illegal move h3e3 for Black"),
        ("xiangqi", "startpos h3e3 z9z9", 2, "'z9z9' is not a UCI xiangqi move"),
    ],
)
def test_bad_moves_name_line_and_ply(variant: str, line: str, ply: int | None,
                                     needle: str | None) -> None:
    g = rule_on_line(line, variant, line=7)
    if ply is None:
        assert g.error is None
        return
    assert g.error is not None
    assert g.error["line"] == 7 and g.error["ply"] == ply
    assert needle is not None and needle in g.error["message"]
    assert g.plies == ply - 1  # what came before the bad move is kept


def test_a_bad_game_does_not_stop_the_file(test_data: Path) -> None:
    lines = (test_data / "variants" / "shogi.txt").read_text().splitlines()
    games = list(rule_on_lines(lines, "shogi"))
    assert [g.line for g in games] == [2, 3, 4, 5, 6, 7, 8, 9]
    assert [g.error is not None for g in games] == [False] * 4 + [True] * 4
    assert games[1].end is not None and games[1].end.termination == "perpetual_check"
    assert games[2].end is not None and games[2].moves_after_end == 1


def test_cli_game_shogi_json(test_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["game", "--variant", "shogi", "--json",
                   str(test_data / "variants" / "shogi.txt")])
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert status == 1  # some lines are bad
    assert len(out) == 8
    assert out[1]["end"]["article"] == "JSA perpetual check"
    assert out[1]["end"]["result"] == "0-1"
    assert out[4]["error"] == {"line": 6, "ply": 3,
                               "message": "'7g7z' is not a USI move (like 7g7f, 8h2b+ or P*5e)"}


def test_cli_game_xiangqi_text(test_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["game", "--variant", "xiangqi", str(test_data / "variants" / "xiangqi.txt")])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert "no automatic end" in lines[0]
    assert "perpetual_check 0-1 (WXF perpetual check)" in lines[1]
    assert "perpetual_check 0-1 (WXF perpetual check)" in lines[2]  # ICCS spelling
    assert "ERROR line 5 ply 2: illegal move h3e3 for Black" in lines[3]
    assert "ERROR line 6 ply 0" in lines[4] and "ranks" in lines[4]


def test_cli_xiangqi_threefold_option(test_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["game", "--variant", "xiangqi", "--repetitions", "3", "--json",
          str(test_data / "variants" / "xiangqi.txt")])
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[1]["end"]["ply"] == 8 and out[1]["moves_after_end"] == 4


def test_cli_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", "--variant", "shogi", "--json", "startpos"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal_moves"] == 30 and out["end"] is None and out["side_to_move"] == "Sente"
    assert main(["position", "--variant", "shogi", "4k4/9/9/9/9/9/9/9/4K4 z - 1"]) == 1
    assert "ERROR line 1: malformed SFEN" in capsys.readouterr().out


def test_cli_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "--variant", "shogi", "/nonexistent/x.txt"]) == 1
    assert "/nonexistent/x.txt" in capsys.readouterr().err


def test_chess_path_untouched(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["position", "--json", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]) == 0
    assert json.loads(capsys.readouterr().out)["end"]["termination"] == "stalemate"


def test_chess_cli_works_without_pyffish(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyffish'] = None\n"
        "from remis.cli import main\n"
        "assert main(['position', '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1']) == 0\n"
        "sys.exit(main(['position', '--variant', 'shogi', 'startpos']))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "pip install 'remis[variants]'" in r.stderr


def test_cli_notation_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ICCS moves with no rank 0 and no dash look like UCI: --notation decides
    f = tmp_path / "xq.txt"
    f.write_text("4k4/9/9/9/9/9/9/9/5R3/3K5 w " + "f1e1 e9f9 e1f1 f9e9 " * 3 + "\n")
    assert main(["game", "--variant", "xiangqi", "--json", str(f)]) == 1
    guessed = json.loads(capsys.readouterr().out)
    assert guessed["error"]["ply"] == 1 and "illegal move f1e1" in guessed["error"]["message"]
    assert main(["game", "--variant", "xiangqi", "--notation", "iccs", "--json", str(f)]) == 0
    told = json.loads(capsys.readouterr().out)
    assert told["end"]["termination"] == "perpetual_check"


def test_a_truncated_csa_move_keeps_the_moves_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 50: a truncated move line (``+8822``) made cshogi's parser fail
    with "basic_string::substr" at line 1, ply 0, dropping the two readable
    moves.  Now they are kept and the error names the line (6) and ply (3)."""
    pytest.importorskip("cshogi")
    path = tmp_path / "cut.csa"
    path.write_text("V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822\n")
    assert main(["game", "--variant", "shogi", "--json", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["plies"] == 2
    assert out["error"] == {"line": 6, "ply": 3, "message": "unreadable CSA line '+8822'"}


@pytest.mark.parametrize("variant", ["shogi", "xiangqi"])
def test_a_byte_order_mark_is_no_text(variant: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 50: a UTF-8 BOM opening a game-line file, or stdin, was read as
    part of the SFEN/FEN; chess input strips it, and so does variant input."""
    import io
    import sys

    start, plies = {"shogi": ("startpos 7g7f 3c3d", 2),
                    "xiangqi": ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w "
                                "h3e3", 1)}[variant]
    data = b"\xef\xbb\xbf" + start.encode() + b"\n"
    path = tmp_path / "g.txt"
    path.write_bytes(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    for source in (str(path), "-"):
        assert main(["game", "--variant", variant, "--json", source]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["error"] is None and out["plies"] == plies

"""The CLI contract of issue 2: remis game / claim / position."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from remis.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict]]:  # type: ignore[type-arg]
    status = main(list(argv))
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines() if line.strip()]


def test_game_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, games = run_cli(capsys, "game", "--json", str(EXAMPLES / "zukertort-steinitz-1886.pgn"))
    assert status == 0
    (g,) = games
    assert set(g) >= {"game", "headers", "plies", "end", "claims", "error"}
    assert g["game"] == 1 and g["plies"] == 84 and g["error"] is None
    end = g["end"]
    assert (end["ply"], end["termination"], end["article"], end["result"]) == (
        57, "fivefold_repetition", "9.6.1", "1/2-1/2")
    assert len(end["plies_involved"]) == 5 and end["explanation"]
    first = g["claims"][0]
    assert set(first) >= {"ply", "player", "kind", "article", "move", "explanation"}
    assert all(c["ply"] < 57 for c in g["claims"])  # nothing after the game ended


def test_first_claims_keeps_one_per_kind_and_player(capsys: pytest.CaptureFixture[str]) -> None:
    _, (full,) = run_cli(capsys, "game", "--json", str(EXAMPLES / "nisipeanu-polgar-2009.pgn"))
    _, (first,) = run_cli(capsys, "game", "--json", "--first-claims",
                          str(EXAMPLES / "nisipeanu-polgar-2009.pgn"))
    tags = [(c["player"], c["kind"]) for c in first["claims"]]
    assert len(tags) == len(set(tags)) and len(full["claims"]) > len(first["claims"])
    assert full["end"]["termination"] == "seventyfive_moves"


def test_game_errors_give_exit_1_and_go_on(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "mixed.pgn"
    p.write_text("1. e4 e5 2. Qxf7 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
    status = main(["game", "--json", str(p), str(tmp_path / "missing.pgn")])
    out, err = capsys.readouterr()
    games = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert games[0]["error"]["ply"] == 3 and "Qxf7" in games[0]["error"]["message"]
    assert games[1]["end"]["termination"] == "checkmate"
    assert "missing.pgn: no such file" in err


def test_several_files_name_their_file(capsys: pytest.CaptureFixture[str]) -> None:
    one = str(EXAMPLES / "zukertort-steinitz-1886.pgn")
    two = str(EXAMPLES / "fischer-spassky-1972.pgn")
    _, games = run_cli(capsys, "game", "--json", one, two)
    assert [(g["file"], g["game"]) for g in games][:2] == [(one, 1), (two, 1)]
    _, (alone,) = run_cli(capsys, "game", "--json", one)
    assert "file" not in alone and {k: v for k, v in games[0].items() if k != "file"} == alone


def test_a_truncated_compressed_file_is_reported_and_the_run_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import gzip

    bad, good = tmp_path / "cut.pgn.gz", tmp_path / "good.pgn"
    data = gzip.compress(b"1. f3 e5 2. g4 Qh4# 0-1\n\n" * 10)
    bad.write_bytes(data[:-12])
    good.write_text("1. f3 e5 2. g4 Qh4# 0-1\n")
    status = main(["game", "--json", str(bad), str(good)])
    out, err = capsys.readouterr()
    assert status == 1
    assert "cut.pgn.gz: the compressed data ends before its end-of-stream marker" in err
    assert json.loads(out.splitlines()[-1])["end"]["termination"] == "checkmate"


def test_claim_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "k.pgn"
    p.write_text("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 *\n")
    _, (v,) = run_cli(capsys, "claim", "--json", str(p), "--move", "Ng8")
    assert v["valid"] and v["kind"] == "threefold_repetition" and v["article"] == "9.2.1"
    assert v["occurrences"] == [0, 4, 8]
    _, (w,) = run_cli(capsys, "claim", "--json", str(p), "--ply", "6")
    assert not w["valid"] and "draw offer" in w["explanation"]


def test_claim_after_the_game_ended_is_moot(capsys: pytest.CaptureFixture[str]) -> None:
    # Zukertort-Steinitz 1886: fivefold repetition at ply 57 (9.6.1), the record goes
    # on to ply 84; a claim after ply 57 is no claim at all, whatever the board shows
    pgn = str(EXAMPLES / "zukertort-steinitz-1886.pgn")
    for ply in ("84", "58"):
        _, (v,) = run_cli(capsys, "claim", "--json", pgn, "--ply", ply)
        assert not v["valid"] and v["ply"] == int(ply)
        assert (v["article"], v["message"]) == ("9.6.1", "claim_game_over")
        assert "already over (fivefold repetition, Article 9.6.1)" in v["explanation"]
    _, (before,) = run_cli(capsys, "claim", "--json", pgn, "--ply", "49")
    assert before["valid"] and before["article"] == "9.2.2"


def test_claim_on_fischer_spassky_game_17(capsys: pytest.CaptureFixture[str]) -> None:
    _, (v,) = run_cli(capsys, "claim", "--json", str(EXAMPLES / "fischer-spassky-1972.pgn"),
                      "--game", "1", "--move", "Re1")
    assert v["valid"] and v["article"] == "9.2.1" and len(v["occurrences"]) == 3


def test_position_contract(capsys: pytest.CaptureFixture[str]) -> None:
    status, (p,) = run_cli(capsys, "position", "--json", "8/8/4k3/8/8/3K4/8/6R1 b - - 100 80")
    assert status == 0 and p["claims"][0]["article"] == "9.3.2" and p["end"] is None
    _, (s,) = run_cli(capsys, "position", "--json", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert s["end"]["termination"] == "stalemate" and s["end"]["article"] == "5.2.1"


def test_position_stdin_and_bad_fen() -> None:
    fens = "8/8/8/4k3/8/8/8/K2n4 w - - 0 1\nnot a fen\n8/8/8/8/8/8/8/Kk6 w - - 0 1\n"
    r = subprocess.run([sys.executable, "-m", "remis.cli", "position", "--json", "-"],
                       input=fens, capture_output=True, text=True, check=False)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 1 and len(lines) == 3
    assert lines[0]["end"]["termination"] == "insufficient_material"
    assert lines[1]["error"]["line"] == 2 and "malformed FEN" in lines[1]["error"]["message"]
    assert "adjacent" in lines[2]["error"]["message"]
    assert "Traceback" not in r.stderr


def test_usage_error_exit_2() -> None:
    r = subprocess.run([sys.executable, "-m", "remis.cli", "game"], capture_output=True,
                       text=True, check=False)
    assert r.returncode == 2


def test_a_command_loads_only_its_own_modules(tmp_path: Path) -> None:
    # `remis game` runs on a stream without the arbiter, the audit or the service
    pgn = tmp_path / "g.pgn"
    pgn.write_text("1. f3 e5 2. g4 Qh4# 0-1\n")
    code = ("import sys; from remis.cli import main; main(['game', '--json', sys.argv[1]]); "
            "print(sorted(m for m in sys.modules if m.startswith("
            "('remis.arbiter', 'remis.audit', 'remis.service'))))")
    r = subprocess.run([sys.executable, "-c", code, str(pgn)], capture_output=True,
                       text=True, check=True)
    assert json.loads(r.stdout.splitlines()[0])["end"]["termination"] == "checkmate"
    assert r.stdout.splitlines()[1] == "[]"


def test_human_output_is_one_line_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["game", str(EXAMPLES / "fischer-spassky-1972.pgn")])
    out = capsys.readouterr().out.splitlines()
    assert status == 0 and len(out) == 3
    assert "9.2.1 Re1" in out[0] and "Art." not in out[2]


def test_human_output_says_when_the_ruling_differs_from_the_record(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["game", str(EXAMPLES / "lichess-time-forfeits-and-repetition.pgn")])
    out = capsys.readouterr().out.splitlines()
    # lichess scored a flag fall 1/2-1/2 where the opponent could still mate
    assert "time forfeit: 0-1 (Art. 6.9, not the recorded 1/2-1/2)" in out[0]
    assert out[2].endswith("time forfeit: 1/2-1/2 (Art. 6.9)")  # agrees: nothing added


def test_all_shared_data_runs_to_the_end(shared_data: Path) -> None:
    """remis game over every PGN in ../shared/data: nothing fatal, every
    unreadable game reported with its ply (issue 2, must show)."""
    files = sorted(str(p) for p in shared_data.rglob("*.pgn"))
    r = subprocess.run([sys.executable, "-m", "remis.cli", "game", "--json", "--first-claims",
                        *files], capture_output=True, text=True, check=False, timeout=900)
    assert "Traceback" not in r.stderr
    games = [json.loads(x) for x in r.stdout.splitlines()]
    errors = [g for g in games if g["error"]]
    assert r.returncode == 1  # some inputs are known to be bad
    assert len(games) > 46000
    # the known bad games: 4 with ambiguous SAN in immortal-games, one illegal O-O-O in
    # twic1256, the null move "Z0" (no move: 7.5.3) of anastasian-lewis, and the
    # crazyhouse/antichess games that must not be replayed as chess
    msgs = [g["error"]["message"] for g in errors]
    assert sum("ambiguous san" in m for m in msgs) == 4
    assert sum("O-O-O" in m for m in msgs) == 1
    assert sum("null move 'Z0'" in m for m in msgs) == 1
    assert sum("not standard chess" in m for m in msgs) == 4
    assert len(errors) == 10

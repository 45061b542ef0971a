"""Every game of a PGN file is either read or reported, wherever it stands and
however the file was put together: a game over the reader's 64 MiB at the
end of a file, a byte-order mark before a later game (``cat a.pgn b.pgn``),
lines ended by a lone CR, a stray ``)`` in the movetext."""

from __future__ import annotations

import io
import json
from pathlib import Path

import chess.pgn
import pytest
import zstandard

from remis.cli import main
from remis.game import rule_on_pgn_file

MATE = '[Event "mate"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'


@pytest.fixture(scope="module")
def long_game() -> str:
    """A game just over the reader's 64 MiB (a comment that never ends soon)."""
    return '[Event "long"]\n\n1. e4 {' + ("x" * 1023 + "\n") * (64 * 1024 + 1) + "} e5 *\n"


@pytest.mark.parametrize("place", ["first", "middle", "last", "last+blank"])
def test_a_game_over_64_mib_is_reported_wherever_it_stands(
        tmp_path: Path, long_game: str, place: str, capsys: pytest.CaptureFixture[str]) -> None:
    games = [MATE, MATE, MATE]
    at = {"first": 0, "middle": 1}.get(place, 2)
    games[at] = long_game
    text = "\n".join(games) + ("\n" if place == "last+blank" else "")
    plain = tmp_path / "g.pgn"
    plain.write_text(text)
    packed = tmp_path / "g.pgn.zst"
    packed.write_bytes(zstandard.ZstdCompressor(level=1).compress(text.encode()))
    for path in (plain, packed):
        rulings = list(rule_on_pgn_file(path))
        assert [g.index for g in rulings] == [1, 2, 3], path
        assert [g.error is not None for g in rulings] == [i == at for i in range(3)]
        err = rulings[at].error
        assert err is not None and "longer than 64 MiB" in err.message
        assert main(["game", str(path)]) == 1
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) == 3 and "longer than 64 MiB" in lines[at]
        summary = tmp_path / f"{path.name}.json"
        assert main(["audit", str(path), "-j", "1", "-q", "-o", str(tmp_path / "f.jsonl"),
                     "--summary", str(summary)]) == 0
        assert json.loads(summary.read_text())["games"] == 3


def _python_chess(path: Path) -> list[tuple[dict[str, str], list[str]]]:
    out = []
    with open(path, encoding="utf-8-sig") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            assert not g.errors, g.errors
            out.append((dict(g.headers), [m.uci() for m in g.mainline_moves()]))
    return out


def test_a_byte_order_mark_before_a_later_game_is_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = "\ufeff" + MATE + "\n"
    b = ('\ufeff[Event "b"]\n[FEN "4k3/8/4K3/8/8/8/8/7Q w - - 0 1"]\n[SetUp "1"]\n'
         '[Result "1-0"]\n\n1. Qh8# 1-0\n\n')
    c = '\ufeff[Event "c"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n'
    both = tmp_path / "both.pgn"  # cat a.pgn b.pgn c.pgn
    both.write_text(a + b + c, encoding="utf-8")
    rulings = list(rule_on_pgn_file(both))
    expected = _python_chess(both)
    assert len(rulings) == len(expected) == 3
    for g, (headers, moves) in zip(rulings, expected, strict=True):
        assert g.error is None
        assert {k: v for k, v in g.headers.items()} == {
            k: v for k, v in headers.items() if k in g.headers}
        assert g.headers["Event"] == headers["Event"] and g.plies == len(moves)
    assert [g.end.termination for g in rulings if g.end] == ["checkmate"] * 3
    # the audit finds the one game scored wrongly, game 3, and no false illegal move
    out = tmp_path / "f.jsonl"
    main(["audit", str(both), "-j", "1", "-q", "-o", str(out)])
    found = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(f["game"], f["check"]) for f in found] == [(3, "result_vs_position")]
    capsys.readouterr()


def test_a_byte_order_mark_right_after_movetext_starts_the_next_game(tmp_path: Path) -> None:
    p = tmp_path / "joined.pgn"  # the first file ends without a blank line
    p.write_text(MATE + '\ufeff[Event "b"]\n[FEN "4k3/8/4K3/8/8/8/8/7Q w - - 0 1"]\n\n'
                 "1. Qh8# 1-0\n", encoding="utf-8")
    rulings = list(rule_on_pgn_file(p))
    assert [(g.headers.get("Event"), g.error) for g in rulings] == [("mate", None), ("b", None)]
    assert rulings[1].end is not None and rulings[1].end.termination == "checkmate"


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_lines_ended_by_a_lone_cr_do_not_swallow_games(tmp_path: Path, end: str) -> None:
    text = (MATE + "\n" + '[Event "b"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'
            '[Event "c"]\n\n1. d4 ; a comment to the end of the line\nd5 *\n')
    p = tmp_path / "cr.pgn"
    p.write_bytes(text.replace("\n", end).encode())
    rulings = list(rule_on_pgn_file(p))
    assert [(g.headers["Event"], g.plies, g.error) for g in rulings] == [
        ("mate", 7, None), ("b", 4, None), ("c", 2, None)]
    with open(p, newline=None) as f:  # python-chess reads it so too
        assert chess.pgn.read_game(io.StringIO(f.read())) is not None


def test_a_stray_closing_bracket_is_reported_where_it_stands(tmp_path: Path) -> None:
    p = tmp_path / "stray.pgn"
    p.write_text("1. e4 e5 2. Nf3 2... Nc6) 2... d6 3. d4 *\n")
    (g,) = rule_on_pgn_file(p)
    assert g.error is not None and g.error.ply == 5
    assert g.error.message.startswith("a ')' closes no variation")
    assert g.error.offset == p.read_text().index(")")
    # a variation opened and closed is no error
    p.write_text("1. e4 e5 2. Nf3 (2. d4 exd4) 2... Nc6 *\n")
    (g,) = rule_on_pgn_file(p)
    assert g.error is None and g.plies == 4

"""A CSA move the parser cannot read or play is reported at its own line of
the file, not at the line where its game starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remis.cli import main

HEAD = ["V2.2", "N+Habu", "N-Hanyu", "$EVENT:test", "PI", "+"]
MOVES = ["+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU", "+6978KI",
         "-4132KI", "+2524FU", "-2324FU", "+2824HI", "-0023FU", "+2426HI", "-8586FU",
         "+8786FU", "-8286HI", "+0087FU"]


def test_an_unplayable_csa_move_is_reported_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = [*HEAD, *MOVES[:4], "%TORYO"]
    bad = [*HEAD, *MOVES[:8], "+5152OU,T4", *MOVES[8:], "+9999XX", "%TORYO"]
    lines = [*good, "/", *bad]
    p = tmp_path / "games.csa"
    p.write_text("\n".join(lines) + "\n")
    assert main(["game", "--variant", "shogi", "--json", str(p)]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["error"] is None
    assert second["line"] == len(good) + 2
    assert second["error"]["ply"] == 9  # the king's move, which shogi refuses
    assert second["error"]["line"] == lines.index("+5152OU,T4") + 1

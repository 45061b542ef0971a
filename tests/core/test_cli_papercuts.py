"""What a newcomer meets first: an unknown option gets the sub-command's usage,
and a claim on a broken record says the record is broken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remis.cli import main


@pytest.mark.parametrize("command", ["game", "claim", "position", "audit", "arbitrate"])
def test_an_unknown_option_shows_the_sub_commands_usage(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--no-such-option", "x"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: remis {command} ")
    assert f"remis {command}: error: unrecognized arguments: --no-such-option" in err


def test_a_claim_on_a_broken_record_says_it_is_broken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "broken.pgn"
    p.write_text("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Ke3 Nc6 *\n")
    assert main(["claim", str(p), "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["ply"] == 8
    assert "the record is broken at ply 9 (illegal san: 'Ke3'" in err
    assert "the claim is ruled after ply 8, the last move read" in err
    # a claim before the break rules on moves that were read: nothing to say
    assert main(["claim", str(p), "--ply", "4"]) == 0
    assert capsys.readouterr().err == ""

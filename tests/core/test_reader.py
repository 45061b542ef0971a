"""The core's PGN reader on bad input: every problem located by game, ply and
byte offset while the batch goes on (issue 47; issue 50 items 7, 8 and 11)."""

from __future__ import annotations

import gzip
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from remis import _core
from remis.cli import main
from remis.compressed import CorruptInput
from remis.game import rule_on_pgn_file


def test_an_unclosed_variation_is_reported_where_it_opens(tmp_path: Path) -> None:
    p = tmp_path / "v.pgn"
    p.write_text("1. e4 (1. d4 ((( e5 2. Nf3 *\n")
    (g,) = rule_on_pgn_file(p)
    assert g.plies == 1
    assert g.error is not None and (g.error.ply, g.error.offset) == (2, 6)
    assert "never closed" in g.error.message


def test_a_tag_block_without_moves_does_not_merge_into_the_next_game(tmp_path: Path) -> None:
    p = tmp_path / "t.pgn"
    p.write_text('[Event "c"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n'
                 '[Event "d"]\n\n1. c4 *\n')
    first, second = rule_on_pgn_file(p)
    assert first.error is not None and first.error.ply == 0
    assert "byte 52" in first.error.message
    assert (second.plies, second.error, second.headers) == (1, None, {"Event": "d"})


def test_truncated_gzip_rules_on_every_whole_game_and_reports_the_damage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = "".join(f'[Event "{i}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n' for i in range(2000))
    whole = gzip.compress(games.encode())
    p = tmp_path / "cut.pgn.gz"
    p.write_bytes(whole[: len(whole) // 2])
    seen = []
    with pytest.raises(CorruptInput, match=r"truncated.*after game (\d+)") as exc:
        for g in rule_on_pgn_file(p):
            seen.append(g.index)
    assert seen == list(range(1, len(seen) + 1)) and len(seen) > 100
    assert f"after game {len(seen)}," in str(exc.value)
    assert main(["game", str(p)]) == 1
    assert "truncated" in capsys.readouterr().err


def test_a_panic_in_the_core_is_a_python_exception() -> None:
    _core._panic_at("rule_text")
    with pytest.raises(_core.InternalError, match="internal error in the core"):
        _core.rule_text(b"1. e4 *\n")
    assert _core.rule_text(b"1. e4 *\n")[4] == 1  # and the core goes on


def _peak_kib(plies: int, tmp: Path) -> int:
    moves = " ".join(["Nf3 Nf6 Ng1 Ng8"] * (plies // 4))
    p = tmp / f"long{plies}.pgn"
    p.write_text(f"{moves} *\n")
    code = ("import resource, sys\nfrom remis.game import rule_on_pgn_file\n"
            f"g = list(rule_on_pgn_file({str(p)!r}))\nassert g[0].plies == {plies}\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return int(out.stdout)


def test_memory_stays_flat_on_a_game_of_100000_plies(tmp_path: Path) -> None:
    small, big = _peak_kib(1_000, tmp_path), _peak_kib(100_000, tmp_path)
    # the game's text (about 0.5 MB) is held while it is read; nothing per ply beyond it
    assert big - small < 8 * 1024, (small, big)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0


class _Stopped(Exception):
    pass


def _stop(_signum: int, _frame: object) -> None:
    raise _Stopped


def test_a_signal_handler_stops_the_engines_questions_on_a_game() -> None:
    """A service worker is told through a signal that its job was cancelled.
    The core's questions on a game (here the last position's: can White,
    king and seven bishops, still mate? a second of CPU) did not look at
    signals, so a cancelled worker went on and was killed.  The handler's
    exception now stops them within a few thousand nodes."""
    heavy = b'[FEN "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1"]\n\n*\n'
    before = signal.signal(signal.SIGVTALRM, _stop)
    start = time.process_time()
    try:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0.05)
        with pytest.raises(_Stopped):
            _core.rule_text(heavy, fens=False)
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, before)
    # uninterrupted, the question takes some 1.1 s of CPU (and the handler would
    # raise only after it)
    assert time.process_time() - start < 0.5

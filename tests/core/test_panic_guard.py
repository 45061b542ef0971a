"""No panic crosses into Python: every entry point of the core turns one into
``remis.InternalError`` (an ``Exception``, not pyo3's ``PanicException``) that
says where its input stood.  The panics are provoked through the core's test
hook (``_core._panic_at``), inside the same guard a real panic meets."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pytest

import remis
from remis import _core
from remis.cli import main
from remis.pgn import core_games

PGN = b'[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. d4 d5 *\n'


def _history() -> _core.History:
    h = _core.History()
    h.push_uci("e2e4")
    return h


def _second(reader: Any) -> Callable[[], Any]:
    next(reader)
    return lambda: next(reader)


#: entry point, what sets up the call that reaches it, and the place its error must name
CALLS: list[tuple[str, Callable[[], Callable[[], Any]], str]] = [
    ("History.push_uci", lambda: functools.partial(_history().push_uci, "e7e5"),
     "at ply 1 (rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1)"),
    ("History.claims", lambda: _history().claims, "at ply 1"),
    ("History.ends", lambda: _history().ends, "at ply 1"),
    ("History.key", lambda: _history().key, "at ply 1"),
    ("History.occurrences", lambda: _history().occurrences, "at ply 1"),
    ("History.pop", lambda: _history().pop, "at ply 1"),
    ("History.new", lambda: _core.History, "History.new"),
    ("GameSplitter.__next__", lambda: _second(_core.GameSplitter(PGN)),
     "after game 1, byte 25 of the stream"),
    ("GameReader.__next__", lambda: _second(_core.GameReader(PGN)),
     "after game 1, byte 25 of the stream"),
    ("GameReader.__next__", lambda: _core.GameReader(
        [(7, 40, b"1. e4 *\n", False, None, False)]).__next__, "before game 7 (byte 40)"),
    ("rule_text", lambda: lambda: _core.rule_text(b"1. e4 *\n", index=3, offset=99),
     "on game 3 (byte 99)"),
    ("position_key", lambda: lambda: _core.position_key("8/8/8/8/8/8/8/K1k5 w - - 0 1"),
     "on 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
    ("core_version", lambda: _core.core_version, "core_version"),
    ("material", lambda: lambda: _core.material(0, 0, 0, 0, 0, 0x81, 0x1), "on the pieces"),
    ("GameLines.__next__", lambda: _second(_core.GameLines(_core.GameReader(PGN))),
     "after game 1, byte 25 of the stream"),
    ("illegal_reason", lambda: lambda: remis.parse_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1"),
     "on the pieces"),
    ("can_checkmate", lambda: lambda: remis.can_checkmate(chess.Board(), chess.WHITE,
                                                          mode="quick"),
     "on rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 (white)"),
    ("DeadTest.test", lambda: lambda: remis.EngineDeadTest()(
        chess.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1")), "on 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
]


@pytest.mark.parametrize(("entry", "setup", "place"), CALLS, ids=[c[0] for c in CALLS])
def test_a_panic_is_the_librarys_exception_saying_where(
        entry: str, setup: Callable[[], Callable[[], Any]], place: str) -> None:
    call = setup()
    _core._panic_at(entry)
    try:
        call()
    except Exception as exc:  # that is the point: Exception catches it
        caught: BaseException = exc
    else:  # pragma: no cover
        pytest.fail(f"{entry} did not panic")
    assert isinstance(caught, remis.InternalError) and isinstance(caught, RuntimeError)
    assert f"in {entry}" in str(caught) and place in str(caught)
    setup()()  # the hook fires once, and the core goes on


def test_every_entry_point_of_the_core_is_tried() -> None:
    functions = {n for n in dir(_core) if not n.startswith("_")
                 and callable(getattr(_core, n)) and not isinstance(getattr(_core, n), type)}
    classes = {n for n in dir(_core) if isinstance(getattr(_core, n), type)
               and not issubclass(getattr(_core, n), BaseException)}
    tried = {entry.partition(".")[0] for entry, _, _ in CALLS}
    assert functions | classes <= tried, (functions | classes) - tried


def test_a_panic_while_reading_stops_one_file_and_the_command_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.pgn", tmp_path / "b.pgn"
    a.write_bytes(PGN)
    b.write_bytes(PGN)
    _core._panic_at("GameReader.__next__")
    assert main(["game", str(a), str(b)]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2 and all(line.startswith(f"{b}:") for line in
                                              out.splitlines())
    assert f"{a}: internal error in the core (please report it) in GameReader.__next__" in err


def test_a_stream_read_by_python_is_guarded_too() -> None:
    stream = io.BytesIO(PGN)
    games = core_games("-", lambda source: _core.GameSplitter(stream))
    assert next(games)[0] == 1
    _core._panic_at("GameSplitter.__next__")
    with pytest.raises(remis.InternalError, match="after game 1, byte"):
        next(games)

"""``remis game --json``: the lines the core writes whole (games with nothing to
word) are the lines Python writes from the same facts, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remis import _core
from remis.game import from_facts, game_lines, reading_options

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.pgn"))
ODD = (b'[Event "tab\\there \\"quoted\\" back\\\\slash"]\n[Site "\x01\x1f\x7f \xc3\xa9"]\n'
       b'[Event "twice"]\n[White "Caf\xe9"]\n\n1. e4 e5 *\n\n*\n\n1. e4 e5 2. Ke3 *\n')


def python_line(facts: tuple[object, ...], file: str | None) -> str:
    obj = from_facts(facts).to_json()
    return json.dumps({"file": file, **obj} if file else obj, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("file", [None, "dir/é \"x\".pgn"])
@pytest.mark.parametrize("source", [*EXAMPLES, ODD], ids=lambda s: getattr(s, "name", "odd"))
def test_the_core_writes_the_line_python_would(source: Path | bytes, file: str | None) -> None:
    src = str(source) if isinstance(source, Path) else source
    options = reading_options()
    facts = list(_core.GameReader(src, **options))
    lines = list(_core.GameLines(_core.GameReader(src, **options), file=file))
    assert len(lines) == len(facts)
    written = 0
    for line, f in zip(lines, facts, strict=True):
        if isinstance(line, str):
            written += 1
            assert line == python_line(f, file)
        else:
            assert line == f  # a game with words comes as its facts
    if source is ODD:
        assert written == 2  # the odd tags and the empty game; the illegal move is worded


def test_a_shared_collection_is_written_alike(shared_data: Path) -> None:
    path = shared_data / "lichess" / "lichess_2017-05.pgn"
    facts = list(_core.GameReader(str(path), **reading_options()))
    lines = list(game_lines(path))
    plain = [(line, f) for line, f in zip(lines, facts, strict=True) if isinstance(line, str)]
    assert plain, "some games have nothing to word"
    for line, f in plain:
        assert line == python_line(f, None)

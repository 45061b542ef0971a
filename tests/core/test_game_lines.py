"""``remis game --json``: the lines the core writes whole (games with nothing to
word, and, with Python's templates, games with a checkmate, a stalemate or
claims) are the lines Python writes from the same facts, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from remis import _core
from remis.game import core_words, from_facts, game_lines, reading_options

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.pgn"))
ODD = (b'[Event "tab\\there \\"quoted\\" back\\\\slash"]\n[Site "\x01\x1f\x7f \xc3\xa9"]\n'
       b'[Event "twice"]\n[White "Caf\xe9"]\n\n1. e4 e5 *\n\n*\n\n1. e4 e5 2. Ke3 *\n')


# a checkmate; a stalemate; repetitions from a start at Black's 40th move; fifty-move
# claims with and without a move (the intended moves listed); a flag fall and an
# illegal move (both worded by Python)
WORDED = (b"1. f3 e5 2. g4 Qh4# 0-1\n\n"
          b'[FEN "7k/8/6K1/5Q2/8/8/8/8 w - - 0 40"]\n\n40. Qf7 1/2-1/2\n\n'
          b'[FEN "4k3/8/8/8/8/8/8/R3K3 b - - 0 40"]\n\n'
          b"40... Kd8 41. Ra2 Ke8 42. Ra1 Kd8 43. Ra2 Ke8 44. Ra1 Kd8 *\n\n"
          b'[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 98 60"]\n\n60. Ra2 Kd8 61. Ra1 *\n\n'
          b'[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 e5 1-0\n\n'
          b"1. e4 e5 2. Ke3 *\n")


def python_line(facts: tuple[object, ...], file: str | None) -> str:
    obj = from_facts(facts).to_json()
    return json.dumps({"file": file, **obj} if file else obj, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("words", [False, True], ids=["plain", "worded"])
@pytest.mark.parametrize("file", [None, "dir/é \"x\".pgn"])
@pytest.mark.parametrize("source", [*EXAMPLES, ODD, WORDED],
                         ids=lambda s: getattr(s, "name", "odd" if s is ODD else "worded"))
def test_the_core_writes_the_line_python_would(source: Path | bytes, file: str | None,
                                               words: bool) -> None:
    src = str(source) if isinstance(source, Path) else source
    options = reading_options()
    facts = list(_core.GameReader(src, **options))
    lines = list(_core.GameLines(_core.GameReader(src, **options), file=file,
                                 words=core_words() if words else None))
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
    if source is WORDED:
        # the checkmate, the stalemate and the claims: not the flag fall or the error
        assert written == (4 if words else 0)
        if words:
            kinds = [json.loads(line)["end"] or json.loads(line)["claims"][0]["article"]
                     for line in lines[:4] if isinstance(line, str)]
            assert [k["termination"] if isinstance(k, dict) else k for k in kinds] == [
                "checkmate", "stalemate", "9.2.1", "9.3.1"]


def test_a_template_the_core_cannot_fill_is_left_to_python() -> None:
    words = {**core_words(), "checkmate": "{winner} mated {loser:>10}."}
    (line,) = _core.GameLines(_core.GameReader(b"1. f3 e5 2. g4 Qh4# 0-1\n",
                                               **reading_options()), words=words)
    assert not isinstance(line, str)


def test_a_shared_collection_is_written_alike(shared_data: Path) -> None:
    path = shared_data / "lichess" / "lichess_2017-05.pgn"
    facts = list(_core.GameReader(str(path), **reading_options()))
    lines = list(game_lines(path))
    plain = [(line, f) for line, f in zip(lines, facts, strict=True) if isinstance(line, str)]
    assert plain, "some games have nothing to word"
    assert any(f[6] for _, f in plain), "the core words claims"
    for line, f in plain:
        assert line == python_line(f, None)

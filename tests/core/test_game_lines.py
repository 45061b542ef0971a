"""``remis game --json``: the lines the core writes whole (games with nothing to
word, and, with Python's templates, games with a checkmate, a stalemate,
claims or a flag fall) are the lines Python writes from the same facts, byte
for byte."""

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
# claims with and without a move (the intended moves listed); a flag fall with a mate
# still possible; an illegal move (worded by Python)
WORDED = (b"1. f3 e5 2. g4 Qh4# 0-1\n\n"
          b'[FEN "7k/8/6K1/5Q2/8/8/8/8 w - - 0 40"]\n\n40. Qf7 1/2-1/2\n\n'
          b'[FEN "4k3/8/8/8/8/8/8/R3K3 b - - 0 40"]\n\n'
          b"40... Kd8 41. Ra2 Ke8 42. Ra1 Kd8 43. Ra2 Ke8 44. Ra1 Kd8 *\n\n"
          b'[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 98 60"]\n\n60. Ra2 Kd8 61. Ra1 *\n\n'
          b'[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 e5 1-0\n\n'
          b"1. e4 e5 2. Ke3 *\n")
TF = b'[Termination "Time forfeit"]\n'
# flag falls (6.9): Black's, White can still mate (a helpmate found); White's, Black has
# a bare king; after a checkmate; and two the core leaves to Python: Black cannot mate
# after a forced capture (a reason the core does not word), and a flag fall after a
# dead position (an end the core does not word)
FLAGS = (b'[Result "1-0"]\n' + TF + b"\n1. e4 e5 1-0\n\n"
         b'[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"]\n[Result "0-1"]\n' + TF + b"\n1. Ra2 0-1\n\n"
         b'[Result "0-1"]\n' + TF + b"\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
         b'[FEN "4k3/8/7Q/8/8/8/7r/KN6 b - - 0 1"]\n[Result "0-1"]\n' + TF
         + b"\n1... Ra2+ 0-1\n\n"
         b'[FEN "4k3/8/8/8/8/8/7r/KN6 b - - 0 1"]\n[Result "0-1"]\n' + TF
         + b"\n1... Ra2+ 0-1\n")
SOURCES = {"odd": ODD, "worded": WORDED, "flags": FLAGS}


def python_line(facts: tuple[object, ...], file: str | None) -> str:
    obj = from_facts(facts).to_json()
    return json.dumps({"file": file, **obj} if file else obj, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("words", [False, True], ids=["plain", "worded"])
@pytest.mark.parametrize("file", [None, "dir/é \"x\".pgn"])
@pytest.mark.parametrize("source", [*EXAMPLES, *SOURCES.values()],
                         ids=[*(p.name for p in EXAMPLES), *SOURCES])
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
        # the checkmate, the stalemate, the claims and the flag fall: not the error
        assert written == (5 if words else 0)
        if words:
            kinds = [json.loads(line)["end"] or json.loads(line)["claims"][0]["article"]
                     for line in lines[:4] if isinstance(line, str)]
            assert [k["termination"] if isinstance(k, dict) else k for k in kinds] == [
                "checkmate", "stalemate", "9.2.1", "9.3.1"]
            assert json.loads(lines[4])["time_forfeit"]["message"] == "flag_fall_win"
    if source is FLAGS:
        assert written == (3 if words else 0)


def flag_fall(line: object) -> tuple[str, object, str | None]:
    """The message, the verdict's value and its method of a flag fall the core wrote."""
    assert isinstance(line, str)
    tf = json.loads(line)["time_forfeit"]
    cc = tf["can_checkmate"]
    return tf["message"], cc and cc["value"], cc and cc["method"]


def test_the_core_words_the_common_flag_falls() -> None:
    win, draw, after_mate, forced, after_dead = _core.GameLines(
        _core.GameReader(FLAGS, **reading_options()), words=core_words())
    assert flag_fall(win) == ("flag_fall_win", True, "search")
    assert json.loads(win)["time_forfeit"]["result"] == "1-0"
    assert flag_fall(draw) == ("flag_fall_draw", False, "material")
    assert json.loads(draw)["time_forfeit"]["params"]["reason"] == (
        "insufficient material: Black has a bare king (K+R v K)")
    assert flag_fall(after_mate) == ("flag_fall_after_end", None, None)
    # Python words these from the facts: a forced line's reason, a dead position's end
    for facts in (forced, after_dead):
        assert not isinstance(facts, str)
    assert from_facts(forced).extra["time_forfeit"]["can_checkmate"]["method"] == "forced"
    assert from_facts(after_dead).end.termination == "dead_position"


def test_an_undecided_flag_fall_is_written_alike() -> None:
    # a node budget of one leaves the opponent's mate undecided: the loss on time stands
    options = {**reading_options(), "engine_nodes": 1}
    game = FLAGS.split(b"\n\n[FEN")[0]
    (facts,) = _core.GameReader(game, **options)
    (line,) = _core.GameLines(_core.GameReader(game, **options), words=core_words())
    assert flag_fall(line) == ("flag_fall_undecided", None, "undecided")
    assert line == python_line(facts, None)


def test_a_flag_fall_without_its_templates_is_left_to_python() -> None:
    words = {k: v for k, v in core_words().items() if k != "param.helpmate_plies"}
    (line,) = _core.GameLines(_core.GameReader(FLAGS, end=FLAGS.index(b"\n\n[FEN"),
                                               **reading_options()), words=words)
    assert not isinstance(line, str)


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

"""remis's repetition verdicts against Fairy-Stockfish's own
(``pyffish.is_optional_game_end``) on generated games forced into repetitions.

Where the rules coincide the verdicts must agree ply for ply.  Where they do
not, every disagreement must fall into a known, explained class:

* ``count``: Fairy-Stockfish's built-in xiangqi ends the game at the *third*
  occurrence (its ``nFoldRule`` is 3); remis's default follows the source
  text's fourfold rule (``--repetitions 3`` gives the servers' count).
* ``entry``: both apply the AXF perpetual-chase rule, but Fairy-Stockfish
  also asks that the move which produced the first occurrence of the position
  chased (that move is not part of the repeated cycle, which the rule judges):
  remis rules a perpetual chase where Fairy-Stockfish rules a draw
  (:func:`remis.variants.compare.explain_chase`).

The classes found are printed (``pytest -s``) so a run documents them.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

pyffish = pytest.importorskip("pyffish")

from remis.variants.compare import (  # noqa: E402
    Verdict,
    chase_games,
    explain_chase,
    fairy_verdict,
    games,
    last_judged_ply,
    remis_verdict,
)
from remis.variants.randgames import RandomGame  # noqa: E402

N_GAMES = 48  # half from the start position, half from sparse positions
N_CHASE_GAMES = 60  # the full count: benchmarks/variants.py --agreement


@pytest.fixture(scope="module", autouse=True)
def fairy_variants() -> None:
    """Fairy-Stockfish xiangqi at four occurrences, with and without the chase
    rule (custom variants; the built-in ones are untouched)."""
    pyffish.load_variant_config(
        "[remis-xq4:xiangqi]\nnFoldRule = 4\n"
        "[remis-xq4-nochase:xiangqi]\nchasingRule = none\nnFoldRule = 4\n")


@pytest.fixture(scope="module")
def shogi_games() -> list[RandomGame]:
    return games("shogi", N_GAMES, seed=11)


@pytest.fixture(scope="module")
def xiangqi_games() -> list[RandomGame]:
    # (seed 12 drew a start with the generals facing on an open file, which is no
    # longer a legal start; its set now has one perpetual check, 15 has three)
    return games("xiangqi", N_GAMES, seed=15)


def _judge(gs: list[RandomGame], fs_variant: str, repetitions: int | None = None
           ) -> tuple[list[tuple[int, Verdict, Verdict]], collections.Counter[str | None]]:
    disagreements = []
    kinds: collections.Counter[str | None] = collections.Counter()
    for i, g in enumerate(gs):
        ours, term = remis_verdict(g, repetitions)
        kinds[term] += 1
        fs = fairy_verdict(g, fs_variant, last_judged_ply(g, ours, term))
        if fs != ours:
            disagreements.append((i, ours, fs))
    return disagreements, kinds


def _not_vacuous(kinds: collections.Counter[str | None]) -> None:
    assert kinds["perpetual_check"] >= 2, kinds
    assert kinds["repetition"] >= 10, kinds


def test_shogi_agrees_with_fairy_stockfish(shogi_games: list[RandomGame]) -> None:
    # same rule: fourfold, perpetual check loses, judged on the checker's moves
    disagreements, kinds = _judge(shogi_games, "shogi")
    print(f"\nshogi: {dict(kinds)}; disagreements: {disagreements}")
    assert disagreements == []
    _not_vacuous(kinds)


def _explained(gs: list[RandomGame], fs_variant: str, repetitions: int | None
               ) -> tuple[collections.Counter[str], collections.Counter[str | None]]:
    disagreements, kinds = _judge(gs, fs_variant, repetitions)
    classes: collections.Counter[str] = collections.Counter()
    for i, ours, fs in disagreements:
        why = explain_chase(gs[i], ours, fs, repetitions)
        classes[why or f"unexplained game {i}: remis {ours}, Fairy-Stockfish {fs}"] += 1
    return classes, kinds


def test_xiangqi_fourfold_agrees_with_fairy_stockfish(xiangqi_games: list[RandomGame]) -> None:
    # remis default (fourfold, AXF chase) vs Fairy-Stockfish set to the same count
    classes, kinds = _explained(xiangqi_games, "remis-xq4", None)
    print(f"\nxiangqi 4: {dict(kinds)}; disagreements: {dict(classes)}")
    assert set(classes) <= {"entry"}
    _not_vacuous(kinds)


def test_xiangqi_threefold_agrees_with_builtin_rules(xiangqi_games: list[RandomGame]) -> None:
    # remis --repetitions 3 vs Fairy-Stockfish's built-in xiangqi (threefold, AXF chase)
    classes, kinds = _explained(xiangqi_games, "xiangqi", 3)
    print(f"\nxiangqi 3 vs built-in: {dict(kinds)}; disagreements: {dict(classes)}")
    assert set(classes) <= {"entry"}


def test_xiangqi_default_against_builtin_rules(xiangqi_games: list[RandomGame]) -> None:
    # remis default (fourfold) vs built-in (threefold): Fairy-Stockfish ends earlier,
    # at the third occurrence, where remis --repetitions 3 agrees with it
    disagreements, _ = _judge(xiangqi_games, "xiangqi")
    classes: collections.Counter[str] = collections.Counter()
    for i, ours, fs in disagreements:
        g = xiangqi_games[i]
        three, _term = remis_verdict(g, 3)
        if three == fs:
            classes["count"] += 1
        else:
            why = explain_chase(g, three, fs, 3)
            classes[why or f"unexplained game {i}: remis {ours}, Fairy-Stockfish {fs}"] += 1
    print(f"\nxiangqi default vs built-in: {dict(classes)}")
    assert set(classes) <= {"count", "entry"}
    assert classes["count"] >= 10  # the count difference is real and common


def test_chase_games_agree_with_fairy_stockfish() -> None:
    # games built so that one side attacks with every move: many perpetual chases,
    # many attacks that are no chase (protected targets, generals, soldiers...)
    gs = chase_games(N_CHASE_GAMES, seed=7)
    classes, kinds = _explained(gs, "xiangqi", 3)
    print(f"\nchase games: {dict(kinds)}; disagreements: {dict(classes)}")
    assert set(classes) <= {"entry"}
    assert kinds["perpetual_chase"] >= 3 and kinds["repetition"] >= 20, kinds


def test_the_chase_is_a_loss_for_both() -> None:
    # a red chariot chases an unprotected black horse between two squares; nobody
    # gives check: both rule that red (the chaser) loses
    from remis.variants import VariantHistory

    h = VariantHistory("xiangqi", CHASE_START, repetitions=3)
    h.extend(CHASE_CYCLE * 2)
    assert h.end is not None and (h.end.termination, h.end.result) == ("perpetual_chase", "0-1")
    ended, value = pyffish.is_optional_game_end("xiangqi", CHASE_START, CHASE_CYCLE * 2)
    assert ended and value > 0  # black (to move) wins: red chased perpetually
    ended, value = pyffish.is_optional_game_end("remis-xq4-nochase", CHASE_START,
                                                CHASE_CYCLE * 3)
    assert ended and value == 0  # without the chase rule: a draw


def test_hand_verified_chase_cases_agree(test_data: Path) -> None:
    from remis.variants.game import split_game_line

    cases = 0
    for raw in (test_data / "variants" / "chase.txt").read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        start, moves = split_game_line(raw, "xiangqi")
        reps = 3 if len(moves) == 8 else None
        g = RandomGame("xiangqi", start, start, tuple(moves), tuple(moves))
        ours, _term = remis_verdict(g, reps)
        assert fairy_verdict(g, "xiangqi" if reps else "remis-xq4", len(moves)) == ours, raw
        cases += 1
    assert cases == 9


CHASE_START = "4k4/9/n8/9/9/9/9/R8/9/3K5 b - - 0 1"
CHASE_CYCLE = ["a8b6", "a3b3", "b6a8", "b3a3"]


# the hand-made cases of test_repetition.py, judged by both
_S = "4k4/9/9/9/9/9/9/5R3/4K4 b - 1"
_S_CHECKED = "4k4/9/9/9/9/9/9/4R4/4K4 w - 2"
_S_GOTE = "4k4/3r5/9/9/9/9/9/9/4K4 w - 1"
_SC, _SQ, _SH = (["4h5h", "5a4a", "5h4h", "4a5a"], ["4h4i", "5a5b", "4i4h", "5b5a"],
                 ["4h5h", "5a6a", "5h4h", "6a5a"])
_X = "4k4/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1"
_XC, _XQ, _XH = (["f2e2", "e10f10", "e2f2", "f10e10"], ["f2f1", "e10e9", "f1f2", "e9e10"],
                 ["f2f10", "e10e9", "f10f2", "e9e10"])
HANDMADE = [
    ("shogi", _S, _SC * 3, "shogi"),
    ("shogi", _S_CHECKED, (_SC[1:] + _SC[:1]) * 3, "shogi"),
    ("shogi", _S_GOTE, ["6b5b", "5i6i", "5b6b", "6i5i"] * 3, "shogi"),
    ("shogi", _S, _SQ * 3, "shogi"),
    ("shogi", _S, _SH * 3, "shogi"),
    ("shogi", _S, _SQ + _SC * 2, "shogi"),
    ("shogi", _S, _SC + _SH + _SC, "shogi"),
    ("xiangqi", _X, _XC * 3, "remis-xq4"),
    ("xiangqi", _X, _XQ * 3, "remis-xq4"),
    ("xiangqi", _X, _XH * 3, "remis-xq4"),
    ("xiangqi", _X, _XQ + _XC * 2, "remis-xq4"),
    ("xiangqi", _X, _XC * 3, "xiangqi"),  # threefold + chase rules: ends at ply 8
]


@pytest.mark.parametrize(("variant", "start", "moves", "fs_variant"), HANDMADE)
def test_handmade_cases_agree(variant: str, start: str, moves: list[str],
                              fs_variant: str) -> None:
    from remis.variants import VariantHistory
    from remis.variants.notation import sfen_to_fen, usi_to_move

    reps = 3 if fs_variant == "xiangqi" else None
    fen = sfen_to_fen(start) if variant == "shogi" else start
    natives = [usi_to_move(m) for m in moves] if variant == "shogi" else moves
    g = RandomGame(variant, fen, start, tuple(natives), tuple(moves))
    ours, _term = remis_verdict(g, reps)
    assert ours.ply is not None
    assert fairy_verdict(g, fs_variant, len(moves)) == ours
    h = VariantHistory(variant, start, repetitions=reps)
    h.extend(moves)
    assert h.end is not None and h.end.ply == ours.ply

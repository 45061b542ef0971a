"""The unwinnability engine's reasons in Czech and Polish: each reason the
engine gives today, on real positions (CHA's test vectors and lichess), is
one of the templates of :mod:`remis.reasons` and reads with no English left;
material is written with each language's piece letters and a termination id
in words.  When the engine's sentences change, these tests name the
templates that no longer match."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest

import remis.i18n
from remis.i18n import translate, translate_param
from remis.messages import render
from remis.position import rule_on_position
from remis.reasons import REASONS
from remis.unwinnable import can_checkmate
from remis.unwinnable.budget import limit

#: One real position for each kind of reason: the budget, the side asked, the FEN.
CORPUS = Path(__file__).resolve().parents[1] / "data" / "reasons.txt"


def positions() -> Iterator[tuple[chess.Board, chess.Color, int | float | None]]:
    """The positions of :data:`CORPUS` (None: quick mode; an int: full mode with
    that many nodes; a float: full mode with that many seconds)."""
    for line in CORPUS.read_text().splitlines():
        data = line.split("#", 1)[0].split(None, 2)
        if not data:
            continue
        budget, side, fen = data
        yield (chess.Board(fen), side == "w",
               None if budget == "quick" else float(budget) if "." in budget else int(budget))


#: Templates no real position reaches: the engine's material test already
#: says "never" wherever only the opponent's promotion could help; no line
#: of CHA's vectors ends every move in a cycle of forced moves; an interrupt
#: is Ctrl-C.
UNREACHED = {"param.material_promotion", "param.to_cycle", "param.limit_interrupt"}

DEAD = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"  # both sides' reasons in one ruling


def english_left(english: str, translated: str) -> set[str]:
    """Words of four letters or more (not moves, squares or material) of the
    English that the translation still holds."""
    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}
    return words(english) & words(translated)


def engine_reasons() -> Iterator[str]:
    for board, color, budget in positions():
        if budget is None:
            yield can_checkmate(board, color, mode="quick").reason
        elif isinstance(budget, float):
            yield can_checkmate(board, color, max_seconds=budget).reason
        else:
            yield can_checkmate(board, color, max_nodes=budget).reason
    yield rule_on_position(DEAD).to_json()["end"]["params"]["reason"]
    # a request whose budget is spent leaves the rest of its questions open
    hard = chess.Board("1K1k4/8/8/8/8/8/8/5n1R w - - 0 1")
    for budget_nodes, budget_seconds in ((1, 60.0), (10**9, 0.0)):
        with limit(max_nodes=budget_nodes, max_seconds=budget_seconds):
            can_checkmate(hard, chess.BLACK)
            yield can_checkmate(hard, chess.BLACK).reason


@pytest.fixture(scope="module")
def reasons() -> list[str]:
    return list(engine_reasons())


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_every_reason_of_the_engine_reads_without_english(reasons: list[str], lang: str) -> None:
    for reason in reasons:
        text = translate_param(reason, lang)
        assert not english_left(reason, text), (reason, text, english_left(reason, text))


def test_every_template_is_a_reason_the_engine_gives(reasons: list[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Each template of remis.reasons matches some real reason (but the two no
    position reaches), so none is a guess at the engine's words."""
    used: set[str] = set()
    patterns = remis.i18n._param_patterns()

    class Recorder:
        def __init__(self, key: str, pattern: re.Pattern[str]) -> None:
            self.key, self.pattern = key, pattern

        def fullmatch(self, text: str) -> re.Match[str] | None:
            m = self.pattern.fullmatch(text)
            if m:
                used.add(self.key)
            return m

    recorded: list[tuple[str, Any]] = [(key, Recorder(key, p)) for key, p in patterns]
    monkeypatch.setattr(remis.i18n, "_param_patterns", lambda: recorded)
    for reason in reasons:
        translate_param(reason, "cs")
    assert set(REASONS) - used == UNREACHED


@pytest.mark.parametrize("key", sorted(UNREACHED))
@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_the_unreached_templates_translate_too(key: str, lang: str) -> None:
    reason = {"param.material_promotion": REASONS["param.material_promotion"].format(
                  player="Black", material="K+N v K+Q"),
              "param.to_cycle": REASONS["param.every_move"].format(
                  player="White", counts="2 to stalemate, 1 to a cycle of forced moves",
                  example=""),
              "param.limit_interrupt": REASONS["param.undecided_limit"].format(
                  limit="interrupt", n=12)}[key]
    assert not english_left(reason, translate_param(reason, lang))


@pytest.mark.parametrize(("lang", "material"), [
    ("en", "K+Q+N+P v K+R+B"), ("cs", "K+D+J+p proti K+V+S"), ("pl", "K+H+S+p przeciw K+W+G")])
def test_material_in_each_languages_piece_letters(lang: str, material: str) -> None:
    assert translate_param("K+Q+N+P v K+R+B", lang) == material
    ruling = rule_on_position("8/8/4k3/8/8/2BK4/8/8 w - - 0 1").to_json()["end"]
    text = translate(ruling["message"], ruling["params"], lang)
    assert {"en": "(K+B v K)", "cs": "(K+S proti K)", "pl": "(K+G przeciw K)"}[lang] in text


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "fivefold repetition"), ("cs", "pětinásobné opakování pozice"),
    ("pl", "pięciokrotne powtórzenie pozycji")])
def test_a_claim_after_the_end_names_the_ending_in_words(lang: str, words: str) -> None:
    """A claim once the game is over (9.6.1) says how it ended, not the id."""
    from remis.history import History
    from remis.rules import rule_on_claim

    h = History(chess.Board())
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 4:
        h.push_san(san)
    claim = rule_on_claim(h)
    assert claim.message == "claim_game_over" and claim.params["termination"] == \
        "fivefold_repetition"
    text = translate(claim.message, claim.params, lang)
    assert f"({words}, " in text and "fivefold_repetition" not in text
    if lang == "en":
        assert text == render(claim.message, claim.params)

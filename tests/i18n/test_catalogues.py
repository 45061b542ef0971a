"""The gettext catalogues: complete, in step with the English sources, and
safe to render (same placeholders as the English)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from remis.i18n import catalogue, negotiate, translate, translate_param
from remis.i18n.catalog import LANGUAGES, po_path
from remis.i18n.sources import placeholders, ruling_templates, source_texts
from remis.i18n.update import template
from remis.messages import MESSAGES

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def read(lang: str):  # type: ignore[no-untyped-def]
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain="remis")


def test_languages() -> None:
    assert LANGUAGES == ("en", "cs", "pl")


def test_every_ruling_template_is_a_source() -> None:
    texts = source_texts()
    for key, english in MESSAGES.items():
        assert texts[key] == english


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_translated(lang: str) -> None:
    catalog = read(lang)
    assert not catalog.fuzzy, f"{po_path(lang)}: header is fuzzy (pybabel compile skips it)"
    for key, english in source_texts().items():
        msg = catalog.get(english, context=key)
        assert msg is not None, f"{lang}: {key!r} missing or its English changed: run " \
            "python -m remis.i18n.update and translate it"
        assert msg.string, f"{lang}: {key!r} untranslated"
        assert not msg.fuzzy, f"{lang}: {key!r} is fuzzy"
        assert msg.string != english, f"{lang}: {key!r} is still English"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_stale_entries(lang: str) -> None:
    texts = source_texts()
    for msg in read(lang):
        if not msg.id:
            continue
        assert msg.context in texts, f"{lang}: {msg.context!r} is not a source text any more"
        assert texts[msg.context] == msg.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_preserved(lang: str) -> None:
    catalog = read(lang)
    for key, english in source_texts().items():
        msg = catalog.get(english, context=key)
        assert msg is not None
        assert placeholders(msg.string) == placeholders(english), (lang, key)
        # no stray braces that would break str.format
        assert re.sub(r"\{\w+\}", "", msg.string).count("{") == 0, (lang, key)


def test_template_matches_sources() -> None:
    pot = template()
    texts = source_texts()
    assert len([m for m in pot if m.id]) == len(texts)
    for key, english in texts.items():
        msg = pot.get(english, context=key)
        assert msg is not None
        assert ("python-brace-format" in msg.flags) == bool(placeholders(english))


def sample_params(template_text: str) -> dict[str, object]:
    values: dict[str, object] = {"player": "White", "winner": "Black", "loser": "White",
                                 "article": "9.2.2", "count": 3, "plies": "0, 4, 8",
                                 "move": "Nf3", "nth": "3rd", "penalty": "2 minutes",
                                 "must_play": ", and Nf3 must be played", "move_note": "",
                                 "material": "K v K", "reason": "K v K",
                                 "termination": "checkmate",
                                 "positions": "at the start, after 2…, after 4…"}
    return {name: values.get(name, f"<{name}>") for name in placeholders(template_text)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_ruling_renders(lang: str) -> None:
    for key, english in ruling_templates().items():
        params = sample_params(english)
        text = translate(key, params, lang)
        assert "9.2.2" in text or "{article}" not in english, (lang, key)
        assert "{" not in text, (lang, key, text)
        if lang == "en":
            assert text == english.format_map(params)
        else:
            assert text != english.format_map(params), (lang, key)


def test_params_translated() -> None:
    cs = translate("claim_threefold_incorrect",
                   {"count": 2, "plies": "0, 4", "article": "9.2.1", "penalty": "2 minutes",
                    "must_play": ", and Nf3 must be played",
                    "positions": "at the start, after 2…"}, "cs")
    assert "2 minuty" in cs and "Nf3" in cs and "must" not in cs
    assert "(na začátku, po 2…)" in cs
    assert translate_param("Black", "pl") == "Czarne"
    assert translate_param("4th", "pl") == "po raz 4."
    assert translate_param("K+B v K+B", "cs") == "K+S proti K+S"


def test_catalogue_is_complete_per_language() -> None:
    keys = set(source_texts())
    for lang in LANGUAGES:
        assert set(catalogue(lang)) == keys
    assert catalogue("cs")["ui.claim_now"] != catalogue("pl")["ui.claim_now"]


def test_unknown_language_and_message() -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        catalogue("de")
    with pytest.raises(KeyError):
        translate("no_such_message", {}, "cs")


@pytest.mark.parametrize(("header", "lang"), [
    ("cs-CZ,cs;q=0.9", "cs"), ("en-GB,pl;q=0.5", "en"), ("fr, pl;q=0.3, cs;q=0.2", "pl"),
    ("", "en"), ("*", "en"), ("pl;q=bad, cs;q=0.1", "cs"),
])
def test_negotiate(header: str, lang: str) -> None:
    assert negotiate(header) == lang


def english_left(english: str, translated: str) -> set[str]:
    """Words of the English text (four letters or more, no digits: not moves,
    squares or material) that the translation still contains."""
    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)}
    return words(english) & words(translated)


RULINGS = [  # real rulings, as the rules make them
    ("8/8/4k3/8/8/2BK4/8/8 w - - 0 1", None),  # K+B v K: insufficient material
    ("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1", None),  # blocked pawns: dead position
]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_left_in_a_ruling(lang: str) -> None:
    """The dead-position rulings (reasons from the engine included), a flag fall
    the opponent cannot win, and a correct and an incorrect threefold claim read
    without a word of English in Czech and Polish."""
    from remis.arbiter import Arbiter
    from remis.position import rule_on_position

    rulings = [rule_on_position(fen).to_json()["end"] for fen, _ in RULINGS]
    # K+Q v K+N: not dead (White can mate), but Black cannot
    a = Arbiter({"time_control": "60", "start_fen": "8/8/4k3/8/8/3K4/8/5Qn1 w - - 0 1"})
    rulings.append(a.apply({"type": "flag", "player": "white", "at": 61}))
    a = Arbiter({})
    for i, san in enumerate(["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]):
        a.apply({"type": "move", "player": ("white", "black")[i % 2], "move": san, "at": 1})
    wrong = a.apply({"type": "claim", "player": "black", "kind": "threefold_repetition",
                     "at": 2})["log"][-3]
    rulings.append(wrong)
    rulings.append(a.apply({"type": "claim", "player": "black", "kind": "threefold_repetition",
                            "move": "Ng8", "at": 3}))
    assert [r["message"] for r in rulings] == [
        "insufficient_material", "dead_position", "flag_draw", "claim_threefold_incorrect",
        "claim_threefold_with_move_upheld"]
    for r in rulings:
        text = translate(r["message"], r["params"], lang)
        assert not english_left(r["explanation"], text), (text, english_left(r["explanation"],
                                                                             text))


def test_every_word_the_page_uses_is_a_source() -> None:
    """A ui.* id the page's code names (t('ui.x'), data-i18n="ui.x") that the
    catalogues lack would show as the bare id."""
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "src" / "remis" / "service" / "web"
    code = "".join(p.read_text() for p in [web / "index.html", *sorted((web / "src").glob("*.ts"))])
    used = set(re.findall(r"['\"](ui\.[a-z0-9_]+)['\"]", code))
    assert used and not used - set(source_texts()), sorted(used - set(source_texts()))

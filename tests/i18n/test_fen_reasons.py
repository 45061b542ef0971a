"""Why a set-up position is not legal (``remis.fen.illegal_reason``) reads in
the page's language: each reason the module can give is a phrase the
catalogues translate (a start position refused on the new-game form)."""

from __future__ import annotations

import re

import pytest
from tests.conftest import ROOT

from remis.i18n import translate_param
from remis.i18n.ui import PARAMS


def reasons() -> set[str]:
    """Every phrase the core's legality test (``rust/src/unwinnable/valid.rs``,
    the one home of the rule) can name a refusal with."""
    source = (ROOT / "rust" / "src" / "unwinnable" / "valid.rs").read_text()
    source = source[:source.index("#[cfg(test)]")]
    words = set(re.findall(r'\(\s*[A-Z_]+,\s*"([a-z][^"{}]+)",?\s*\)', source))
    returned = set(re.findall(r'"([a-z][^"{}]+)"\.to_owned\(\)', source))
    return words | returned


def test_every_reason_is_a_phrase_of_the_catalogues() -> None:
    assert len(reasons()) >= 15
    assert reasons() <= set(PARAMS.values())


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_a_list_of_reasons_is_translated_item_by_item(lang: str) -> None:
    text = translate_param("no white king, more than 8 white pawns", lang)
    assert "white" not in text and ", " in text

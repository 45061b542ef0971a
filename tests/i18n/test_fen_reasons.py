"""Why a set-up position is not legal (``remis.fen.illegal_reason``) reads in
the page's language: each reason the module can give is a phrase the
catalogues translate (a start position refused on the new-game form)."""

from __future__ import annotations

import inspect
import re

import pytest

from remis import fen
from remis.i18n import translate_param
from remis.i18n.ui import PARAMS


def reasons() -> set[str]:
    source = inspect.getsource(fen)
    returned = set(re.findall(r'return "([a-z][^"{}]+)"', source))
    statuses = {text for _, text in fen._STATUS if not text.startswith("race")}
    return returned | statuses


def test_every_reason_is_a_phrase_of_the_catalogues() -> None:
    assert len(reasons()) >= 15
    assert reasons() <= set(PARAMS.values())


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_a_list_of_reasons_is_translated_item_by_item(lang: str) -> None:
    text = translate_param("no white king, more than 8 white pawns", lang)
    assert "white" not in text and ", " in text

"""Rulings and the web page in English, Czech and Polish.

The catalogues are gettext ``.po`` files (Babel) under ``locale/``: each entry
has the English source text as ``msgid`` and its stable id (a message id of
:mod:`remis.messages`, ``ui.*`` for the page, ``param.*`` for words inside
parameters) as ``msgctxt``.

>>> translate("stalemate", {"player": "Black", "article": "5.2.1"}, "pl")[-42:]
'partia kończy się remisem (Artykuł 5.2.1).'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from remis.i18n.catalog import LANGUAGES, catalogue
from remis.i18n.ui import PARAMS
from remis.reasons import OPTIONAL

__all__ = ["LANGUAGES", "catalogue", "negotiate", "translate", "translate_param"]


def translate(message: str, params: Mapping[str, object], lang: str = "en") -> str:
    """Render ruling ``message`` with ``params`` in ``lang`` (en, cs, pl).
    Parameter values that are English words of a ruling (``"White"``,
    ``"2 minutes"``, an engine's reason, material) are translated too, and a
    ``termination`` id is put in words; an unknown language raises
    :class:`ValueError`, an unknown message :class:`KeyError`.

    >>> translate("checkmate", {"winner": "White", "loser": "Black", "article": "5.1.1"}, "cs")
    'Bílý dal mat, Černý prohrává: partie ihned končí (článek 5.1.1).'
    >>> translate("stalemate", {"player": "White", "article": "5.2.1"})
    'White has no legal move and is not in check: stalemate, the game is drawn (Article 5.2.1).'
    >>> translate("claim_game_over", {"termination": "fivefold_repetition", "article": "9.6.1"},
    ...           "pl")[-50:]
    '(pięciokrotne powtórzenie pozycji, Artykuł 9.6.1).'
    """
    texts = catalogue(lang)
    if message not in texts:
        raise KeyError(f"unknown message id {message!r}")
    local = {name: _param(name, value, lang) for name, value in params.items()}
    return texts[message].format_map(local)


def _param(name: str, value: object, lang: str) -> object:
    if not isinstance(value, str):
        return value
    if name == "termination" and f"termination.{value}" in catalogue(lang):
        return catalogue(lang)[f"termination.{value}"]
    return translate_param(value, lang)


#: what a parameter slot matches; the others match any text, itself translated
_SLOTS = {"n": r"\d+", "move": r"\S+?", "material": r"[^()]+?", "squares": r"[a-h1-8, ]+?",
          "player": r"White|Black|Red|Sente|Gote", "year": r"\d{4}",
          "date": r"\d{4}\.\d\d\.\d\d",
          "moves": r"[a-h][1-8][a-h][1-8][qrbn]?(?: [a-h][1-8][a-h][1-8][qrbn]?)*"}
#: slots whose text stays as it is (numbers, moves, squares, dates)
_KEPT = frozenset({"n", "move", "moves", "squares", "year", "date"})
#: material as remis writes it: "K+R+B v K+N"
_MATERIAL = re.compile(r"K(?:\+[QRBNP])* v K(?:\+[QRBNP])*")


def _regex(template: str, named: bool) -> tuple[str, int]:
    """The regular expression of a template (its slots as named groups, or
    not), and the length of its literal text."""
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
            continue
        if part in OPTIONAL:  # nothing, or the text of its template
            slot = f"(?:{_regex(PARAMS[OPTIONAL[part]], named=False)[0]})?"
        else:
            slot = _SLOTS.get(part, ".+?")
        out.append(f"(?P<{part}>{slot})" if named else f"(?:{slot})")
    return "".join(out), len("".join(parts[::2]))


@lru_cache(maxsize=1)
def _param_patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = [(key, *_regex(english, named=True)) for key, english in PARAMS.items()]
    # the most literal text first: a sentence of its own before one that would take
    # it for the text of a slot
    return [(key, re.compile(regex)) for key, regex, _ in sorted(out, key=lambda x: -x[2])]


def translate_param(value: str, lang: str, _depth: int = 0) -> str:
    """Translate a parameter value that is one of the English words or
    phrases rulings use (see :data:`remis.i18n.ui.PARAMS`, the engine's
    reasons of :mod:`remis.reasons` among them), the text in its slots too,
    and a list of them item by item; material is written with the language's
    piece letters; other values (moves, ply lists) come back unchanged.

    >>> translate_param("2 minutes", "cs"), translate_param("Nf3", "cs")
    ('2 minuty', 'Nf3')
    >>> translate_param(", and Nf3 must be played", "pl")
    ', a posunięcie Nf3 musi zostać wykonane'
    >>> translate_param("at the start, after 2…, after 4…", "cs")
    'na začátku, po 2…, po 4…'
    >>> translate_param("insufficient material: White can never checkmate (K+B v K)", "pl")
    'niewystarczający materiał: Białe nigdy nie mogą dać mata (K+G przeciw K)'
    """
    if _depth > 8:
        return value
    if _MATERIAL.fullmatch(value):
        return _material(value, lang)
    for key, pattern in _param_patterns():
        m = pattern.fullmatch(value)
        if m:
            slots = {name: text if name in _KEPT else translate_param(text, lang, _depth + 1)
                     for name, text in m.groupdict().items()}
            return catalogue(lang)[key].format_map(slots)
    for sep in ("; ", ", "):
        if sep in value:
            return sep.join(translate_param(part, lang, _depth + 1)
                            for part in value.split(sep))
    return value


def _material(value: str, lang: str) -> str:
    """``K+B v K`` with the piece letters of ``lang``.

    >>> _material("K+Q+N+P v K+R+B", "cs"), _material("K+Q+N+P v K+R+B", "pl")
    ('K+D+J+p proti K+V+S', 'K+H+S+p przeciw K+W+G')
    """
    texts = catalogue(lang)
    letters = str.maketrans(dict[str, str | int | None](
        zip("KQRBNP", texts["notation.pieces"].split(), strict=True)))
    white, black = (side.translate(letters) for side in value.split(" v "))
    return texts["notation.versus"].format(white=white, black=black)


def negotiate(accept_language: str | None) -> str:
    """Pick the page's language from an HTTP ``Accept-Language`` header
    (highest quality first; English when nothing matches).

    >>> negotiate("pl-PL,pl;q=0.9,en;q=0.8")
    'pl'
    >>> negotiate("de, cs;q=0.5")
    'cs'
    >>> negotiate(None)
    'en'
    """
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, tag.split("-")[0].lower()))
    for _, _, lang in sorted(ranked):
        if lang in LANGUAGES:
            return lang
    return "en"

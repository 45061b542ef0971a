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

__all__ = ["LANGUAGES", "catalogue", "negotiate", "translate", "translate_param"]


def translate(message: str, params: Mapping[str, object], lang: str = "en") -> str:
    """Render ruling ``message`` with ``params`` in ``lang`` (en, cs, pl).
    Parameter values that are English words of a ruling (``"White"``,
    ``"2 minutes"``) are translated too; an unknown language raises
    :class:`ValueError`, an unknown message :class:`KeyError`.

    >>> translate("checkmate", {"winner": "White", "loser": "Black", "article": "5.1.1"}, "cs")
    'Bílý dal mat, Černý prohrává: partie ihned končí (článek 5.1.1).'
    >>> translate("stalemate", {"player": "White", "article": "5.2.1"})
    'White has no legal move and is not in check: stalemate, the game is drawn (Article 5.2.1).'
    """
    texts = catalogue(lang)
    if message not in texts:
        raise KeyError(f"unknown message id {message!r}")
    local = {name: translate_param(value, lang) if isinstance(value, str) else value
             for name, value in params.items()}
    return texts[message].format_map(local)


#: what a parameter slot matches; the others match any text, itself translated
_SLOTS = {"n": r"\d+", "move": r"\S+?", "material": r"[^()]+?", "squares": r"[a-h1-8, ]+?",
          "player": r"White|Black|Red|Sente|Gote", "year": r"\d{4}",
          "date": r"\d{4}\.\d\d\.\d\d"}
#: slots whose text stays as it is (numbers, moves, material, squares, dates)
_KEPT = frozenset({"n", "move", "material", "squares", "year", "date"})


@lru_cache(maxsize=1)
def _param_patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for key, english in PARAMS.items():
        parts = re.split(r"\{(\w+)\}", english)
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>{_SLOTS.get(p, '.+?')})"
                        for i, p in enumerate(parts))
        out.append((key, re.compile(regex), len("".join(parts[::2]))))
    # the most literal text first: "insufficient material: {reason}" before "{player}: {reason}"
    return [(key, pattern) for key, pattern, _ in sorted(out, key=lambda x: -x[2])]


def translate_param(value: str, lang: str, _depth: int = 0) -> str:
    """Translate a parameter value that is one of the English words or
    phrases rulings use (see :data:`remis.i18n.ui.PARAMS`), the text in its
    slots too, and a list of them item by item; other values (moves, ply
    lists, material) come back unchanged.

    >>> translate_param("2 minutes", "cs"), translate_param("Nf3", "cs")
    ('2 minuty', 'Nf3')
    >>> translate_param(", and Nf3 must be played", "pl")
    ', a posunięcie Nf3 musi zostać wykonane'
    >>> translate_param("at the start, after 2…, after 4…", "cs")
    'na začátku, po 2…, po 4…'
    >>> translate_param("White: insufficient material: White can never checkmate (K+B v K)", "pl")
    'Białe – niewystarczający materiał: Białe nigdy nie mogą dać mata (K+B v K)'
    """
    if _depth > 6:
        return value
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

"""Reading the gettext catalogues (Babel): ``locale/<lang>/LC_MESSAGES/remis.po``
is the committed source; ``remis.mo`` beside it is compiled by ``make``
(``pybabel compile``) and used when it is at least as new as the ``.po``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from remis.i18n.sources import source_texts

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "remis"
#: The page's languages; English is the source language.
LANGUAGES = ("en", "cs", "pl")


def po_path(lang: str) -> Path:
    """Path of the committed ``.po`` catalogue of ``lang``.

    >>> po_path("cs").name
    'remis.po'
    """
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(lang: str) -> Catalog:
    """The Babel catalogue of ``lang``: the compiled ``.mo`` when it is up to
    date, else the ``.po`` itself.

    >>> load_catalog("pl").locale.language
    'pl'
    """
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            catalog: Catalog = read_mo(f)
        catalog.locale = lang  # a .mo keeps the locale only in its header
        return catalog
    with po.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@lru_cache(maxsize=len(LANGUAGES))
def catalogue(lang: str) -> dict[str, str]:
    """Id -> text in ``lang`` for every source text; an entry missing from the
    catalogue, untranslated, fuzzy or stale (its English changed) stays English.

    >>> catalogue("cs")["ui.resign"]
    'Vzdát partii'
    >>> catalogue("en")["ui.resign"]
    'Resign'
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    texts = source_texts()
    if lang == "en":
        return texts
    catalog = load_catalog(lang)
    out: dict[str, str] = {}
    for key, english in texts.items():
        msg = catalog.get(english, context=key)
        text = msg.string if msg is not None and not msg.fuzzy else None
        out[key] = text if isinstance(text, str) and text else english
    return out

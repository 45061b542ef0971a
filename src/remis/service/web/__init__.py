"""The web page's side of the service: where its built files are and the
translations it asks for (``GET /v1/i18n/{lang}`` -> ``{id: text}``).

The page itself (``index.html``, ``src/*.ts``) is built by ``make web`` into
``dist/``, which the service serves at ``/`` and ``/static/``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException

from remis.i18n import LANGUAGES, catalogue

#: The built page (``npm run build``); absent until ``make web`` has run.
DIST = Path(__file__).parent / "dist"

router = APIRouter()


@router.get("/v1/i18n/{lang}", tags=["web"], summary="The page's words and the rulings' "
            "templates in one language")
def i18n(lang: str) -> dict[str, str]:
    """Id -> text for ``lang`` (en, cs, pl): every ruling template (keyed by
    its message id, as in a ruling's ``"message"``), the page's ``ui.*``
    words and the ``param.*`` patterns for words inside parameters.

    >>> i18n("cs")["ui.resign"], i18n("en")["stalemate"][:8]
    ('Vzdát', '{player}')
    """
    if lang not in LANGUAGES:
        raise HTTPException(404, detail=f"unknown language {lang!r}: use one of "
                            f"{', '.join(LANGUAGES)}")
    return catalogue(lang)

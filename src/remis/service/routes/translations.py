"""The web page's translations: ``GET /v1/i18n/{lang}``."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from fastapi import APIRouter

from remis.service.games import ServiceError
from remis.service.routes.common import Services
from remis.service.schemas import error_answers

#: languages of the translation endpoint
LANGS = ("en", "cs", "pl")


def router(services: Services | None = None) -> APIRouter:
    """The translation endpoint (it needs none of the services).

    >>> [route.path for route in router().routes]
    ['/v1/i18n/{lang}']
    """
    api = APIRouter()

    @api.get("/v1/i18n/{lang}", responses=error_answers(
        404, 422, s404="no translations for this language, or none in this build"))
    def i18n(lang: str) -> dict[str, str]:
        """``{msgid: translation}`` for the web page (lang: en, cs, pl)."""
        if lang not in LANGS:
            raise ServiceError(404, f"no translations for {lang!r} (use {', '.join(LANGS)})",
                               "no_language")
        try:
            module = import_module("remis.i18n.catalog")
            catalogue: Callable[[str], dict[str, str]] = module.catalogue
        except (ImportError, AttributeError):
            raise ServiceError(404, "translations are not installed in this build",
                               "no_translations") from None
        return catalogue(lang)

    return api

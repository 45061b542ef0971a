"""The body of every error answer of the service."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Problem(BaseModel):
    """Every error answer: the reason in English, and a stable ``code`` with
    the ``params`` a translation needs (the web page words its refusals from
    them in the reader's language).

    >>> Problem(detail="no game with id 'x'", code="no_game").code
    'no_game'
    """

    detail: str = Field(description="what went wrong, in English")
    code: str = Field(description="a stable name of the reason, for programs and "
                                  "translations (e.g. not_on_move, stale_ply, tc.err_order)")
    params: dict[str, Any] | None = Field(default=None, description="the details a "
                                          "translation of the code needs, when it has any")

"""The documentation says what the software does, not how it came to be: no
page names an issue, a commit or a dated run.  History is in git and in the
changelog; figures and the dates of their runs are on the benchmarks page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.pages import PAGES, ROOT

#: the pages that may carry history and dated figures
HISTORY = {"docs/changelog.md", "docs/benchmarks.md"}

DIARY = {
    "an issue": re.compile(r"\b[Ii]ssues? (?:#?\d+|\d+/\d+)|(?<![\w&])#\d{2,}\b"),
    "a commit": re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b"),
    "a dated run": re.compile(r"\b(?:19|20)\d\d-\d\d-\d\d\b"),
}


def diary(text: str) -> list[str]:
    """What in ``text`` names an issue, a commit or a dated run.

    >>> diary("The oracle of issue 47, at 0a49def, measured on 2026-12-05.")
    ['an issue: issue 47', 'a commit: 0a49def', 'a dated run: 2026-12-05']
    >>> diary("A FEN: 8/8/8/4k3/8/8/8/4K3 w - - 0 1; Article 9.6.2; a 100,000-ply game.")
    []
    """
    return [f"{what}: {m.group(0)}" for what, pattern in DIARY.items()
            for m in pattern.finditer(text)]


CHECKED = [p for p in PAGES if p.relative_to(ROOT).as_posix().startswith("docs/")
           and p.relative_to(ROOT).as_posix() not in HISTORY]


@pytest.mark.parametrize("page", CHECKED, ids=[p.relative_to(ROOT).as_posix() for p in CHECKED])
def test_the_page_names_no_issue_commit_or_dated_run(page: Path) -> None:
    rel = page.relative_to(ROOT).as_posix()
    found = diary(page.read_text(encoding="utf-8"))
    assert not found, f"{rel}: {found}"

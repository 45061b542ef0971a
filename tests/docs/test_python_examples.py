"""The ```` ```pycon ```` examples of the README and the documentation run,
and print what the pages show (doctest, with ``...`` for text left out).  The
blocks of a page run in order in one session, as a reader would type them."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from tests.docs.pages import PAGES, ROOT

_BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)


def _examples() -> list[tuple[Path, str]]:
    """Each page with examples, and its blocks one after the other."""
    found = [(p, "\n".join(m.group(1) for m in _BLOCK.finditer(p.read_text("utf-8"))))
             for p in PAGES]
    return [(p, text) for p, text in found if text]


def _run(page: Path, text: str) -> str:
    """What doctest says of the page's examples ('' when they print what is shown)."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, str(page.relative_to(ROOT)), str(page), 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    return "".join(report)


@pytest.mark.parametrize(("page", "text"), _examples(),
                         ids=[str(p.relative_to(ROOT)) for p, _ in _examples()])
def test_the_example_prints_what_the_page_shows(page: Path, text: str) -> None:
    report = _run(page, text)
    assert not report, report


def test_the_examples_are_found() -> None:
    pages = {p.relative_to(ROOT).as_posix() for p, _ in _examples()}
    assert {"docs/api/errors.md", "docs/api/laws.md"} <= pages


def test_a_wrong_example_fails() -> None:
    assert "Expected" in _run(ROOT / "README.md", ">>> 1 + 1\n3\n")

"""The documentation site's own machinery (docs/_build): the docstring
conversion to Markdown and the checks that make ``make docs`` fail."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from types import ModuleType

import pytest

BUILD = Path(__file__).resolve().parents[2] / "docs" / "_build"

pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"remis_docs_{name}", BUILD / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rest = _load("rest_docstrings")
hooks = _load("hooks")


def test_doctest_blocks_become_pycon_fences() -> None:
    text = "Replay a game.\n\n>>> r = replay(moves)\n>>> r.plies\n4\n\nMore text."
    assert rest.to_markdown(text).splitlines() == [
        "Replay a game.", "", "```pycon", ">>> r = replay(moves)", ">>> r.plies", "4", "```",
        "", "More text."]


def test_roles_and_literals_become_code_spans() -> None:
    text = "See :func:`remis.replay`, :class:`~remis.ruling.Ruling` and ``dead_test=None``."
    assert rest.to_markdown(text) == "See `remis.replay`, `Ruling` and `dead_test=None`."


def test_a_literal_block_is_fenced() -> None:
    text = "Usage::\n\n    remis game FILE\n    remis claim FILE\n\nAfter."
    assert rest.to_markdown(text).splitlines() == [
        "Usage:", "", "```text", "remis game FILE", "remis claim FILE", "```", "", "After."]


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_a_public_name_missing_from_the_api_pages_is_a_warning(
        caplog: pytest.LogCaptureFixture) -> None:
    import remis

    hooks._documented.update(f"remis.{n}" for n in remis.__all__ if n != "History")
    hooks._documented.discard("remis.replay")
    hooks._documented.add("remis.replay.replay")
    with caplog.at_level(logging.WARNING):
        hooks.on_post_build(config=None)
    assert _warnings(caplog) == [
        "the API pages do not document remis.History (add '::: remis.History' under docs/api/)"]


def test_the_rules_page_may_name_only_what_exists(caplog: pytest.LogCaptureFixture) -> None:
    page = ("`remis.rules.fivefold` `remis.rules.no_such_rule` `tests/cases/nothere.py` "
            "cases R17 and S01")
    with caplog.at_level(logging.WARNING):
        hooks._check_rules_page(page)
    found = _warnings(caplog)
    assert "rules.md: `remis.rules.no_such_rule` names nothing in the package" in found
    assert "rules.md: `tests/cases/nothere.py` does not exist" in found
    assert not any("fivefold" in w or "R17" in w or "S01" in w for w in found)
    # every other tested case is missing from this page
    assert any(w.startswith("rules.md: case R18 is tested") for w in found)

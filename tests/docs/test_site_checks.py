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


def test_a_case_of_the_specification_without_a_test_is_a_warning(
        caplog: pytest.LogCaptureFixture, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "cases.md"
    spec.write_text("### R17 - fivefold\n\n### R99 - a case nobody tested\n", encoding="utf-8")
    monkeypatch.setattr(hooks, "CASES_PAGE", spec)
    with caplog.at_level(logging.WARNING):
        hooks._check_rules_page("cases R17, R48 and `remis.rules.fivefold`")
    found = _warnings(caplog)
    assert "cases.md: case R99 has no test named test_r99_..." in found
    assert "rules.md: case R48 is not in the specification's cases (cases.md)" in found
    assert not any("R17" in w and "no test" in w for w in found)


def test_the_specification_cases_all_have_tests(caplog: pytest.LogCaptureFixture) -> None:
    """The 72 cases of docs/cases.md, each with a test named after it."""
    assert len(hooks._spec_cases()) == 72
    assert hooks._spec_cases() <= hooks._case_tests().keys()


def test_markers_become_the_parsers_and_the_schemas_text(
        caplog: pytest.LogCaptureFixture) -> None:
    page = ("<!-- remis usage serve -->\n\n<!-- remis options serve -->\n\n"
            "<!-- remis http statuses -->\n\n<!-- remis nonsense here -->\n")
    with caplog.at_level(logging.WARNING):
        out = hooks._GENERATED.sub(lambda m: hooks.generated(m.group(1), m.group(2), "x.md"),
                                   page)
    assert out.startswith("```text\nremis serve [--host HOST]")
    assert "| `--port PORT` | TCP port, 0 to 65535 (8000; 0: any free port) |" in out
    assert "| 409 | the game's present state refuses the event: the Laws do not allow it" in out
    assert _warnings(caplog) == [
        "x.md: <!-- remis nonsense here --> names nothing the build can write"]


def test_every_serve_option_is_in_its_table() -> None:
    """New options appear without a hand edit: the table is the parser's."""
    from remis.cli import build_parser

    table = hooks.cli_reference.options("serve")
    parser = build_parser("serve")
    serve = parser._subparsers._group_actions[0].choices["serve"]  # type: ignore[union-attr]
    options = [a.option_strings[0] for a in serve._actions if a.option_strings
               and a.option_strings[0] != "-h"]
    assert len(options) >= 14
    assert all(f"`{o} " in table or f"`{o}`" in table for o in options)


def test_the_machinery_doctests_pass() -> None:
    import doctest

    for module in (hooks.cli_reference, hooks.http_reference):
        assert doctest.testmod(module).failed == 0, module.__name__


def test_make_docs_is_strict_and_shows_its_warnings() -> None:
    """``--quiet`` would hide the warnings that ``--strict`` fails on."""
    makefile = (BUILD.parents[1] / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ndocs:", 1)[1].split("\n\n", 1)[0]
    assert "mkdocs build --strict" in recipe and "--quiet" not in recipe

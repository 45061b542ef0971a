"""MkDocs hooks: what keeps the site true to the code.

* ``openapi.json`` is written from the service's own application, so the HTTP
  API page links the schema of this very version;
* every public name of ``remis.__all__`` must be documented on the API pages
  (``::: remis.NAME``), with an example in its docstring;
* the "Rules -> code" page may only name objects, files and test cases that
  exist, and must name every case that has a test.

Each failure is a warning, which ``mkdocs build --strict`` (``make docs``)
turns into a failed build.
"""

from __future__ import annotations

import importlib
import json
import logging
import re
from pathlib import Path
from typing import Any

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.remis")

ROOT = Path(__file__).resolve().parents[2]
API_PAGES = "api/"
RULES_PAGE = "rules.md"
_DIRECTIVE = re.compile(r"^::: (remis\.[\w.]+)", re.M)
_CODE = re.compile(r"`([^`]+)`")
#: A case of the rules specification (CASES.md): R01, R02b, S05w, ... (its
#: numbers stay below 50 within each letter; test_a54_... names Article A.5.4)
_CASE = re.compile(r"\b([RFSTIDQA][0-4]\d[a-z]?)\b")
_CASE_TEST = re.compile(r"def test_((?:[rfstidqa][0-4]\d[a-z]?_)+)")

_documented: set[str] = set()


def on_files(files: Files, config: MkDocsConfig) -> Files:
    from remis.service.app import create_app

    schema = create_app("sqlite:///:memory:", mate_workers=0).openapi()
    files.append(File.generated(config, "openapi.json", content=json.dumps(schema, indent=2)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    uri = page.file.src_uri
    if uri.startswith(API_PAGES):
        _documented.update(_DIRECTIVE.findall(markdown))
    if uri == RULES_PAGE:
        _check_rules_page(markdown)
    return markdown


def _paths(name: str, obj: Any) -> set[str]:
    """Where ``remis.NAME`` may be documented from: its public name, or the path
    of its definition (``remis.replay`` is also a submodule, which mkdocstrings
    would render in place of the function)."""
    paths = {f"remis.{name}"}
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(module, str) and module.startswith("remis") and isinstance(qualname, str):
        paths.add(f"{module}.{qualname}")
    return paths


def on_post_build(config: MkDocsConfig) -> None:
    import remis

    public = {name: _paths(name, getattr(remis, name)) for name in remis.__all__}
    for name, paths in sorted(public.items()):
        if not paths & _documented:
            log.warning(f"the API pages do not document remis.{name} "
                        f"(add '::: remis.{name}' under docs/{API_PAGES})")
    allowed = set().union(*public.values())
    for target in sorted(_documented - allowed):
        log.warning(f"the API pages document {target}, which is not in remis.__all__")
    package = griffe.load("remis", search_paths=[str(ROOT / "src")], resolve_aliases=True,
                          resolve_external=False)
    for target in sorted(_documented & allowed):
        try:
            doc = package[target.removeprefix("remis.")].docstring
        except (KeyError, griffe.AliasResolutionError) as exc:
            log.warning(f"{target}: mkdocstrings cannot find it ({exc!r})")
            continue
        if doc is None or ">>>" not in doc.value:
            log.warning(f"{target}: its docstring has no example (a '>>>' doctest)")
    _documented.clear()


def _resolves(dotted: str) -> bool:
    """Whether ``remis.a.b.c`` names a module or an attribute of one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def _case_tests() -> dict[str, list[str]]:
    """Case id as CASES.md writes it (R02b) -> the test files with a test named for it."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for match in _CASE_TEST.finditer(path.read_text(encoding="utf-8")):
            for case in match.group(1).rstrip("_").split("_"):
                where = found.setdefault(case[0].upper() + case[1:], [])
                rel = path.relative_to(ROOT).as_posix()
                if rel not in where:
                    where.append(rel)
    return found


def _check_rules_page(markdown: str) -> None:
    for span in set(_CODE.findall(markdown)):
        if re.fullmatch(r"remis(\.\w+)+", span) and not _resolves(span):
            log.warning(f"{RULES_PAGE}: `{span}` names nothing in the package")
        elif (re.fullmatch(r"(src|tests|rust|benchmarks)/[\w/.-]+", span)
              and not (ROOT / span).exists()):
            log.warning(f"{RULES_PAGE}: `{span}` does not exist")
    tests = _case_tests()
    named = set(_CASE.findall(markdown))
    for case in sorted(named - tests.keys()):
        log.warning(f"{RULES_PAGE}: case {case} has no test named test_{case.lower()}_...")
    for case in sorted(tests.keys() - named):
        log.warning(f"{RULES_PAGE}: case {case} is tested ({', '.join(tests[case])}) "
                    "but the page does not name it")

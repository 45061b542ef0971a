"""MkDocs hooks: what keeps the site true to the code.

* ``openapi.json`` is written from the service's own application, so the HTTP
  API page links the schema of this very version, and the page's endpoints,
  bodies and statuses are written from it (``<!-- remis http endpoints -->``,
  ``<!-- remis http statuses -->``), and its error codes from the service's
  list of them (``<!-- remis http codes -->``);
* the user guide's usage lines and option tables are written from the
  command line's parsers (``<!-- remis usage serve -->``,
  ``<!-- remis options serve -->``);
* every public name of ``remis.__all__`` must be documented on the API pages
  (``::: remis.NAME``), with an example in its docstring;
* the "Rules -> code" page may only name objects, files and test cases that
  exist, and must name every case that has a test;
* every case of the specification (``cases.md``) has a test named after it.

Each failure is a warning, which ``mkdocs build --strict`` (``make docs``)
turns into a failed build.
"""

from __future__ import annotations

import importlib
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import griffe
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.remis")

ROOT = Path(__file__).resolve().parents[2]
# the site's other machinery (cli_reference, http_reference) sits beside this file
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cli_reference  # noqa: E402
import http_reference  # noqa: E402

API_PAGES = "api/"
RULES_PAGE = "rules.md"
CASES_PAGE = ROOT / "docs" / "cases.md"
_DIRECTIVE = re.compile(r"^::: (remis\.[\w.]+)", re.M)
_CODE = re.compile(r"`([^`]+)`")
#: A case of the rules specification (cases.md): R01, R02b, S05w, ... (its
#: numbers stay below 50 within each letter; test_a54_... names Article A.5.4)
_CASE = re.compile(r"\b([RFSTIDQA][0-4]\d[a-z]?)\b")
_CASE_TEST = re.compile(r"def test_((?:[rfstidqa][0-4]\d[a-z]?_)+)")

#: where a page asks for generated text: <!-- remis usage game -->, <!-- remis http endpoints -->
_GENERATED = re.compile(r"^<!-- remis (\w+) ([\w-]+) -->$", re.M)

_documented: set[str] = set()
_schema: dict[str, Any] = {}


def openapi() -> dict[str, Any]:
    """The service's OpenAPI schema, built once a run."""
    if not _schema:
        from remis.service.app import create_app

        _schema.update(create_app("sqlite:///:memory:", mate_workers=0).openapi())
    return _schema


def on_files(files: Files, config: MkDocsConfig) -> Files:
    _schema.clear()
    files.append(File.generated(config, "openapi.json", content=json.dumps(openapi(), indent=2)))
    return files


def generated(kind: str, what: str, where: str) -> str:
    """The text that ``<!-- remis KIND WHAT -->`` stands for (a warning, and
    the marker left as it is, when there is no such thing)."""
    try:
        if kind == "usage":
            return cli_reference.usage(what)
        if kind == "options":
            return cli_reference.options(what)
        if kind == "http" and what == "endpoints":
            return http_reference.endpoints(openapi())
        if kind == "http" and what == "statuses":
            return http_reference.statuses(openapi())
        if kind == "http" and what == "codes":
            return http_reference.codes()
    except KeyError as exc:
        log.warning(f"{where}: <!-- remis {kind} {what} -->: {exc}")
        return f"<!-- remis {kind} {what} -->"
    log.warning(f"{where}: <!-- remis {kind} {what} --> names nothing the build can write")
    return f"<!-- remis {kind} {what} -->"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    uri = page.file.src_uri
    if uri.startswith(API_PAGES):
        _documented.update(_DIRECTIVE.findall(markdown))
    if uri == RULES_PAGE:
        _check_rules_page(markdown)
    return _GENERATED.sub(lambda m: generated(m.group(1), m.group(2), uri), markdown)


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
    """Case id as cases.md writes it (R02b) -> the test files with a test named for it."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for match in _CASE_TEST.finditer(path.read_text(encoding="utf-8")):
            for case in match.group(1).rstrip("_").split("_"):
                where = found.setdefault(case[0].upper() + case[1:], [])
                rel = path.relative_to(ROOT).as_posix()
                if rel not in where:
                    where.append(rel)
    return found


def _spec_cases() -> set[str]:
    """The case ids of the specification, from the headings of cases.md (### R02b - ...)."""
    return set(re.findall(r"^### (\w+) - ", CASES_PAGE.read_text(encoding="utf-8"), re.M))


def _check_rules_page(markdown: str) -> None:
    for span in set(_CODE.findall(markdown)):
        if re.fullmatch(r"remis(\.\w+)+", span) and not _resolves(span):
            log.warning(f"{RULES_PAGE}: `{span}` names nothing in the package")
        elif (re.fullmatch(r"(src|tests|rust|benchmarks)/[\w/.-]+", span)
              and not (ROOT / span).exists()):
            log.warning(f"{RULES_PAGE}: `{span}` does not exist")
    tests = _case_tests()
    named = set(_CASE.findall(markdown))
    spec = _spec_cases()
    for case in sorted(named - spec):
        log.warning(f"{RULES_PAGE}: case {case} is not in the specification's cases (cases.md)")
    for case in sorted(spec - tests.keys()):
        log.warning(f"cases.md: case {case} has no test named test_{case.lower()}_...")
    for case in sorted(named - tests.keys()):
        log.warning(f"{RULES_PAGE}: case {case} has no test named test_{case.lower()}_...")
    for case in sorted(tests.keys() - named):
        log.warning(f"{RULES_PAGE}: case {case} is tested ({', '.join(tests[case])}) "
                    "but the page does not name it")

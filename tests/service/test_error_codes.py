"""Every error code the service can answer with is in the registry
(remis.service.codes), with the status, the params it comes with and
nothing more: the raise sites of the arbiter and the service are read from
the source, so a code added at a raise site and not to the list fails here,
and so does a listed code that nothing raises any more."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed")

from fastapi.testclient import TestClient

from remis.arbiter.events import RefusedEvent
from remis.service.app import create_app
from remis.service.codes import CODES, CONFIG, EVENTS, TIME_CONTROL

SRC = Path(__file__).resolve().parents[2] / "src" / "remis"
#: the exceptions that carry a code, and the position of the code among their arguments
RAISERS = {"ServiceError": 2, "RefusedEvent": 1, "ConfigError": 0, "TimeControlError": 0}


@dataclass
class Site:
    """Where a code is given: the codes it can give, its status (when the
    site says it), the params it names, and whether it hands on the code
    of an exception raised at another site."""

    where: str
    raiser: str
    codes: set[str]
    status: int | None = None
    params: set[str] = field(default_factory=set)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _enclosing(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Iterator[ast.AST]:
    while node in parents:
        node = parents[node]
        yield node


def _loop_values(name: str, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> list[str] | None:
    """The strings ``name`` takes in an enclosing ``for name in ("a", "b")``."""
    for up in _enclosing(node, parents):
        if isinstance(up, ast.For) and isinstance(up.target, ast.Name) \
                and up.target.id == name and isinstance(up.iter, ast.Tuple | ast.List):
            values = [e.value for e in up.iter.elts if isinstance(e, ast.Constant)]
            return [str(v) for v in values] if len(values) == len(up.iter.elts) else None
    return None


def codes_of(expr: ast.expr | None, parents: dict[ast.AST, ast.AST], default: str,
             where: str) -> set[str]:
    """The codes an expression can be: literals, the branches of ``a if c
    else b``, a name's assignments in its function, the values and default of
    ``{...}.get(k, d)``, the fallback of ``getattr(exc, "code", d)``, and
    nothing for ``exc.code`` (handed on from the exception's own raise site).
    An f-string is filled in from an enclosing loop over literals, or keeps
    its other parts as ``{name}``."""
    if expr is None:
        return {default}
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return {expr.value}
    if isinstance(expr, ast.IfExp):
        return codes_of(expr.body, parents, default, where) | codes_of(expr.orelse, parents,
                                                                       default, where)
    if isinstance(expr, ast.Attribute) and expr.attr == "code":
        return set()
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) \
            and expr.func.id == "getattr" and len(expr.args) == 3:
        return codes_of(expr.args[2], parents, default, where)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) \
            and expr.func.attr == "get" and isinstance(expr.func.value, ast.Dict):
        found: set[str] = set()
        for value in [*expr.func.value.values, *expr.args[1:]]:
            found |= codes_of(value, parents, default, where)
        return found
    if isinstance(expr, ast.Name):
        function = next(up for up in _enclosing(expr, parents)
                        if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef))
        found = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == expr.id for t in node.targets):
                found |= codes_of(node.value, parents, default, where)
        assert found, f"{where}: the code {expr.id!r} is assigned nowhere in its function"
        return found
    if isinstance(expr, ast.JoinedStr):
        texts = [""]
        for part in expr.values:
            if isinstance(part, ast.Constant):
                texts = [t + str(part.value) for t in texts]
                continue
            assert isinstance(part, ast.FormattedValue)
            name = ast.unparse(part.value)
            values = _loop_values(name, part, parents) if isinstance(part.value,
                                                                     ast.Name) else None
            texts = [t + v for t in texts for v in (values or ["{" + name + "}"])]
        return set(texts)
    raise AssertionError(f"{where}: cannot tell which code {ast.unparse(expr)!r} is")


def _status(node: ast.Call, raiser: str) -> int | None:
    if raiser == "ServiceError" and node.args and isinstance(node.args[0], ast.Constant):
        return int(node.args[0].value)
    return None


def _params(node: ast.Call, raiser: str) -> set[str]:
    """The params a raise site names: keywords, or ServiceError's dict."""
    if raiser == "ServiceError":
        given = node.args[3] if len(node.args) > 3 else None
        if isinstance(given, ast.Dict):
            return {k.value for k in given.keys if isinstance(k, ast.Constant)}
        return set()
    return {k.arg for k in node.keywords if k.arg not in (None, "code")}


def sites(root: Path = SRC) -> list[Site]:
    """Every place in the package that gives an error code: the calls of
    the exceptions that carry one, and the JSON bodies written by hand
    (``{"detail": ..., "code": ...}``)."""
    default = inspect.signature(RefusedEvent).parameters["code"].default
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = _parents(tree)
        rel = path.relative_to(root.parent).as_posix()
        for node in sorted(ast.walk(tree), key=lambda n: getattr(n, "lineno", 0)):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call):
                func = node.func
                raiser = func.id if isinstance(func, ast.Name) else \
                    func.attr if isinstance(func, ast.Attribute) else ""
                if raiser not in RAISERS:
                    continue
                i = RAISERS[raiser]
                expr = node.args[i] if len(node.args) > i else next(
                    (k.value for k in node.keywords if k.arg == "code"), None)
                found.append(Site(where, raiser, codes_of(expr, parents, default, where),
                                  _status(node, raiser), _params(node, raiser)))
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        found.append(Site(where, "body", codes_of(value, parents, "", where)))
    return found


@pytest.fixture(scope="module")
def found() -> list[Site]:
    return sites()


def _named(code: str) -> str:
    """A code with its ``{...}`` parts named alike (``http_{exc.status_code}``
    is the registry's ``http_{status}``)."""
    return re.sub(r"\{[^}]*\}", "{}", code)


def test_the_sites_are_found(found: list[Site]) -> None:
    """The reading finds the raise sites of each kind (a reading that found
    none would pass for nothing)."""
    by = {s.raiser for s in found}
    assert by == {*RAISERS, "body"}
    codes = set().union(*(s.codes for s in found))
    assert {"not_on_move", "stale_ply", "config.unknown_key", "config.armageddon",
            "tc.err_order", "internal_error", "http_{exc.status_code}", "event_refused",
            "config"} <= codes
    assert len(found) > 100


def test_every_code_raised_is_listed(found: list[Site]) -> None:
    listed = {_named(c) for c in CODES}
    missing = sorted(f"{s.where}: {c}" for s in found for c in s.codes
                     if _named(c) not in listed)
    assert not missing, "codes raised but not in remis.service.codes: " + ", ".join(missing)


def test_every_listed_code_is_raised(found: list[Site]) -> None:
    raised = {_named(c) for s in found for c in s.codes}
    assert sorted(c for c in CODES if _named(c) not in raised) == []


def test_the_params_are_the_listed_ones(found: list[Site]) -> None:
    given: dict[str, set[str]] = {}
    for s in found:
        for c in s.codes:
            given.setdefault(c, set()).update(s.params)
    for code, names in given.items():
        if code in CODES:
            assert names == set(CODES[code].params), code


def test_the_statuses_are_the_listed_ones(found: list[Site]) -> None:
    for s in found:
        if s.status is not None:
            for c in s.codes:
                assert CODES[c].status == s.status, (s.where, c)
    # the codes handed on: refused events get 409, configurations and time controls 422
    by_raiser = {r: set().union(*(s.codes for s in found if s.raiser == r))
                 for r in ("RefusedEvent", "ConfigError", "TimeControlError")}
    assert by_raiser["RefusedEvent"] <= set(EVENTS)
    assert by_raiser["ConfigError"] <= set(CONFIG)
    assert by_raiser["TimeControlError"] <= set(TIME_CONTROL)
    assert {CODES[c].status for c in by_raiser["RefusedEvent"]} == {409}
    assert {CODES[c].status for c in by_raiser["ConfigError"] | by_raiser["TimeControlError"]
            } == {422}


def test_a_code_the_list_lacks_fails(tmp_path: Path) -> None:
    """The reading sees a code however it is written: a literal, the
    default, a loop over literals, a name, a dict's default."""
    (tmp_path / "remis").mkdir()
    (tmp_path / "remis" / "m.py").write_text(
        "def f(key, exc):\n"
        "    for name in ('a', 'b'):\n"
        "        raise ConfigError(f'config.{name}', 'x')\n"
        "    raise RefusedEvent('no', 'brand_new', square='e4')\n"
        "    raise RefusedEvent('no')\n"
        "    code = {1: 'one'}.get(key, 'other') if key else 'none'\n"
        "    return {'detail': 'x', 'code': code}\n"
        "    raise ServiceError(409, 'x', getattr(exc, 'code', 'fallback'), {'ply': 1})\n")
    found = sites(tmp_path / "remis")
    assert [(s.raiser, s.codes, s.params) for s in found] == [
        ("ConfigError", {"config.a", "config.b"}, set()),
        ("RefusedEvent", {"brand_new"}, {"square"}),
        ("RefusedEvent", {"event_refused"}, set()),
        ("body", {"one", "other", "none"}, set()),
        ("ServiceError", {"fallback"}, {"ply"})]
    assert "brand_new" not in CODES


@pytest.mark.parametrize(("method", "path", "body", "headers", "code"), [
    ("POST", "/v1/games", b'{"config": {"mode": "bullet"}}', {}, "config.mode"),
    ("POST", "/v1/games", b'{"config": ', {}, "malformed_json"),
    ("GET", "/v1/games/nope", None, {"Authorization": "Bearer x"}, "no_game"),
    ("GET", "/v1/time-control?text=90/40%2B30", None, {}, "tc.err_order"),
    ("GET", "/v1/nowhere", None, {}, "not_found"),
    ("POST", "/v1/position", b'{"fen": "8/8/8/8 w"}', {}, "bad_input"),
])
def test_the_service_answers_with_the_listed_status(method: str, path: str, body: bytes | None,
                                                    headers: dict[str, str], code: str) -> None:
    app = create_app("sqlite:///:memory:", mate_workers=0, search_workers=0)
    with TestClient(app) as client:
        r = client.request(method, path, content=body, headers={
            "Content-Type": "application/json", **headers})
    assert r.json()["code"] == code
    assert r.status_code == CODES[code].status
    assert set(r.json().get("params") or {}) == set(CODES[code].params)

"""No import circles in the package: a module never imports, at its top or
later inside a function, one that imports it back (docs/development.md,
"Layers": move the shared piece down).  Imports for type checking only do
not count."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def _modules(src: Path = SRC) -> dict[str, Path]:
    out = {}
    for path in (src / "remis").rglob("*.py"):
        parts = path.relative_to(src).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
            and "TYPE_CHECKING" in ast.unparse(node.test)
            for child in node.body for n in ast.walk(child)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            # ``from remis import facts`` names a module; ``from remis.rules import x`` a name
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target not in modules and "." in target:
                target = target.rpartition(".")[0]
            if target in modules and target != name:
                found.add(target)
    return found


def _circle(src: Path = SRC) -> list[str] | None:
    modules = _modules(src)
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return None


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert {"remis.rules", "remis.arbiter.arbiter"} <= set(_modules())
    circle = _circle()
    assert circle is None, f"import circle: {' -> '.join(circle)}"


def test_a_late_import_back_is_a_circle_and_one_for_type_checking_is_not(
        tmp_path: Path) -> None:
    pkg = tmp_path / "remis"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("from typing import TYPE_CHECKING\n"
                                "if TYPE_CHECKING:\n    from remis.high import x\n")
    (pkg / "high.py").write_text("from remis.low import y\n")
    assert _circle(tmp_path) is None
    (pkg / "low.py").write_text("def f():\n    from . import high\n")
    assert _circle(tmp_path) in (["remis.low", "remis.high", "remis.low"],
                                 ["remis.high", "remis.low", "remis.high"])

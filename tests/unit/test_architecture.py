"""The layering of docs/architecture.md, checked from the source: the rules are pure (standard
library only), nothing imports upward into views, and no modules import each other in a circle
(even through a function-level import)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """Every scorekeeper module ``name`` imports, at any depth of its code."""
    found: set[str] = set()
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in MODULES and t != name)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _third_party(name: str) -> set[str]:
    tree = ast.parse(MODULES[name].read_text("utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots - set(sys.stdlib_module_names) - {"scorekeeper"}


def test_the_rules_use_the_standard_library_and_each_other_only() -> None:
    rules = [name for name in MODULES if name.startswith("scorekeeper.rules")]
    assert len(rules) > 10
    for name in rules:
        assert _third_party(name) == set(), name
        outside = {m for m in GRAPH[name] if not m.startswith("scorekeeper.rules")}
        assert outside == set(), f"{name} imports {outside}"


def test_only_the_app_and_each_package_import_views() -> None:
    """Services, models and rules never reach up into views; the app factory registers the
    blueprints, and a package gathers its own views."""
    for name, imported in GRAPH.items():
        if name == "scorekeeper":
            continue
        views = {m for m in imported if ".views" in m and not m.startswith(f"{name}.")}
        if ".views" not in name:
            assert views == set(), f"{name} imports {views}"


def _cycle() -> list[str] | None:
    """One import circle among scorekeeper's modules (package __init__ files excepted: a
    package gathering its own submodules is not a circle), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH[name]):
            if MODULES[target].name == "__init__.py":
                continue
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name in state or MODULES[name].name == "__init__.py":
            continue
        if found := visit(name):
            return found
    return None


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert _cycle() is None, " -> ".join(_cycle() or [])


def test_the_check_sees_a_circle_when_there_is_one() -> None:
    """The cycle finder itself: games.access importing leagues.access and back is a circle."""
    saved = GRAPH["scorekeeper.leagues.access"]
    GRAPH["scorekeeper.leagues.access"] = saved | {"scorekeeper.games.access"}
    try:
        assert _cycle() is not None
    finally:
        GRAPH["scorekeeper.leagues.access"] = saved

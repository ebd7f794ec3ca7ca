"""The layering of docs/architecture.md, checked from the source: the rules are pure (standard
library only), no module imports a higher layer (``LAYERS``: games never import leagues),
nothing imports upward into views, and no modules import each other in a circle (each even
through a function-level import)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(name: str, source: str | None = None) -> set[str]:
    """Every scorekeeper module ``name`` imports, at any depth of its code (``source``: read
    that code instead of the module's file)."""
    found: set[str] = set()
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    text = path.read_text("utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from scorekeeper import devices`` imports the module devices, not the package
            # scorekeeper (the app): the package counts only for names that are not modules.
            names = [f"{base}.{alias.name}" for alias in node.names]
            targets = names + ([base] if any(n not in MODULES for n in names) else [])
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
    saved = GRAPH["scorekeeper.games.access"], GRAPH["scorekeeper.leagues.access"]
    GRAPH["scorekeeper.games.access"] = saved[0] | {"scorekeeper.leagues.access"}
    GRAPH["scorekeeper.leagues.access"] = saved[1] | {"scorekeeper.games.access"}
    try:
        assert _cycle() is not None
    finally:
        GRAPH["scorekeeper.games.access"], GRAPH["scorekeeper.leagues.access"] = saved


# The layers, lowest first (docs/architecture.md). A module may import its own layer and the
# ones below, never one above: not at the top of the file, not inside a function. Each entry
# names modules or whole packages; every module of scorekeeper belongs to exactly one layer.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("the rules (pure domain)", ("rules",)),
    ("the photo reader (a library over the rules)", ("vision",)),
    (
        "web plumbing (no game, no league)",
        ("backup", "config", "extensions", "web"),
    ),
    ("the models", ("models",)),
    ("a game at a table", ("games",)),
    ("the deal helper", ("helper",)),
    ("leagues (nights of games)", ("leagues",)),
    (
        "the app (factory, commands, its own pages)",
        ("", "__main__", "cli", "serving"),
    ),
]


def _layer(name: str) -> int:
    """The index in LAYERS of module ``name`` (the package scorekeeper itself is the app)."""
    relative = name.removeprefix("scorekeeper").removeprefix(".")
    found = [
        index
        for index, (_, members) in enumerate(LAYERS)
        for member in members
        if relative == member or (member and relative.startswith(f"{member}."))
    ]
    assert len(found) == 1, f"{name} belongs to {len(found)} layers of LAYERS: place it in one"
    return found[0]


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{name} ({LAYERS[_layer(name)][0]}) imports {target} ({LAYERS[_layer(target)][0]})"
        for name, imported in sorted(graph.items())
        for target in sorted(imported)
        if _layer(target) > _layer(name)
    ]


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        _layer(name)


def test_no_module_imports_a_higher_layer() -> None:
    """rules < vision < web plumbing < models < games < helper < leagues < the app: games never
    import leagues (leagues register what games ask of a league table, games.league_tables),
    and the plumbing never imports a game or a league."""
    assert _upward(GRAPH) == [], "\n".join(_upward(GRAPH))


def test_the_layer_check_sees_an_import_running_up() -> None:
    """The check itself, on an import inside a function as on one at the top."""
    graph = {"scorekeeper.games.trash": {"scorekeeper.leagues.nights"}}
    assert _upward(graph) == [
        "scorekeeper.games.trash (a game at a table) imports scorekeeper.leagues.nights "
        "(leagues (nights of games))"
    ]
    inside = "def allowed():\n    from scorekeeper.leagues import access\n"
    graph = {"scorekeeper.games.trash": _imports("scorekeeper.games.trash", inside)}
    assert _upward(graph) == [
        "scorekeeper.games.trash (a game at a table) imports scorekeeper.leagues.access "
        "(leagues (nights of games))"
    ]
    relative = "from ..leagues import access\n"
    graph = {"scorekeeper.games.access": _imports("scorekeeper.games.access", relative)}
    assert len(_upward(graph)) == 1

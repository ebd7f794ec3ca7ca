"""Every list of games is read from the games' declarations (issue 38, items 1 and 3): the
registries agree because each is derived from ``rules.games``, each house rule a game offers
is a field of the stored ``HouseRules``, and no game's key is written outside its own module
(the code and the templates ask the declaration)."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

import pytest

from scorekeeper.rules import HOUSE_RULES, HouseRules
from scorekeeper.rules.games import DEFAULT_KIND, VARIANTS, default_game
from scorekeeper.rules.games.registry import deal_sources, sheet_sources, sources
from scorekeeper.rules.house import offered

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "scorekeeper" / "rules" / "games"


def test_the_registries_agree() -> None:
    assert default_game().name == DEFAULT_KIND == next(iter(VARIANTS))
    stored = {field.name for field in fields(HouseRules)}
    for name, game in VARIANTS.items():
        offered_names = [rule.name for rule in offered(name)]
        assert offered_names == [rule.name for rule in game.house_rules], name
        assert set(offered_names) <= stored <= set(HOUSE_RULES) | {"deal_table"}, name
        for rule in game.house_rules:
            assert HOUSE_RULES[rule.name].applies_to(name)
            assert {value for value, _ in rule.options} <= set(HOUSE_RULES[rule.name].values)
        if game.sheets.own:
            assert game.sheets.name is not None
            for max_pip in game.sheets.by_set:
                assert deal_sources(name, "table", max_pip), (name, max_pip)
    assert set(HOUSE_RULES) == stored
    assert {key for key, _, _ in sheet_sources()} <= set(VARIANTS)
    assert all(source.key == key for key, source in sources().items())


def _game_modules() -> list[Path]:
    """The modules that declare one game each (not the family or the registry's parts)."""
    shared = {
        "__init__",
        "declaration",
        "registry",
        "sheets",
        "points",
        "points_game",
        "point_hands",
    }
    return sorted(path for path in GAMES_DIR.glob("*.py") if path.stem not in shared)


def test_each_game_has_a_module_of_its_own() -> None:
    assert {path.stem for path in _game_modules()} == set(VARIANTS)


def _literals(path: Path) -> set[str]:
    """The game keys written as strings in a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in VARIANTS
    }


def _template_literals(path: Path) -> set[str]:
    """The game keys written as quoted strings in a template (a CSS class "block" is no
    game: only a comparison or a call's argument counts)."""
    text = path.read_text(encoding="utf-8")
    found = set()
    for key in VARIANTS:
        for match in re.finditer(rf"[\"']{key}[\"']", text):
            before = text[max(0, match.start() - 8) : match.start()]
            if "class=" not in before:
                found.add(key)
    return found


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "scorekeeper").rglob("*.py")),
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_no_game_key_outside_its_own_module(path: Path) -> None:
    found = _literals(path)
    if path.parent == GAMES_DIR:
        found -= {path.stem}
    assert not found, f"{path.relative_to(ROOT)} names {sorted(found)}: ask the declaration"


def test_no_game_key_in_the_templates() -> None:
    named = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "templates").rglob("*"))
        if path.is_file() and path.suffix in (".html", ".svg", ".txt")
        if (found := _template_literals(path))
    }
    assert named == {}

"""docs/rules.md names every game and every house rule the app knows, with a source."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.rules.games import VARIANTS
from scorekeeper.rules.house import HOUSE_RULES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [*HOUSE_RULES, *VARIANTS])
def test_every_rule_and_game_is_in_docs_rules(name: str) -> None:
    rows = [line for line in DOC.splitlines() if line.startswith(f"| `{name}`")]
    assert rows, f"docs/rules.md has no row for {name}"
    assert all(row.rstrip().endswith("|") and row.split("|")[-2].strip() for row in rows)

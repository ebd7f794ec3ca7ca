"""The deal's sources on the table view are the ones docs/rules.md cites (issue 36, item 8):
each source's address is the one in the docs' "Sources" table under the same key, and every
sheet of every game names at least one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.rules.games import VARIANTS
from scorekeeper.rules.games.registry import deal_sources, sheet_sources, sources
from scorekeeper.rules.house import DEAL_PRESETS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _cited() -> dict[str, str]:
    """docs/rules.md's sources: key -> the row's text."""
    rows = re.findall(r"^\| ([\w -]+?) \| (.+) \|$", DOCS.read_text(encoding="utf-8"), re.M)
    return {key: text for key, text in rows}


def test_each_source_is_the_one_the_docs_cite() -> None:
    cited = _cited()
    for key, source in sources().items():
        assert key == source.key and key in cited, key
        if source.url:
            assert source.url in cited[key], (key, source.url)


@pytest.mark.parametrize(
    ("game", "max_pip"),
    [(game, max_pip) for game, v in VARIANTS.items() for max_pip in v.sheets.by_set]
    + [("mexican_train", max_pip) for max_pip in (6, 9, 12, 15, 18)],
)
def test_every_sheet_names_its_source(game: str, max_pip: int) -> None:
    assert deal_sources(game, "table", max_pip)


def test_the_named_sheets_and_what_has_no_source() -> None:
    assert [s.key for s in deal_sources("mexican_train", "table", 12)] == ["htfbw-mt"]
    assert [s.key for s in deal_sources("mexican_train", "gamerules", 12)] == ["op-d12"]
    for preset in DEAL_PRESETS:
        assert deal_sources("mexican_train", preset, 12)
    # A Chicken Foot game that chose a Mexican Train sheet deals (and cites) that sheet.
    assert [s.key for s in deal_sources("chicken_foot", "cardinal", 12)] == ["card"]
    assert deal_sources("mexican_train", "custom", 12) == ()
    assert deal_sources("draw", "computed", 12) == ()
    assert deal_sources("mexican_train", "table", 12, copies=2) == ()
    assert all(keys for keys in sheet_sources().values())

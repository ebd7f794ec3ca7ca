"""House rules (rules.md 2.1-2.4, and the choices of the games of section 5), in one place.

- ``declaration``: ``HouseRule`` (a rule declared once, with keyword arguments) and the table
  of the rules each game offers (filled when a game of ``rules.games`` is registered);
- ``common``: the rules every game may offer, in "Rules in play" order;
- ``texts``: the constants the rules name and the common rules' "Rules in play" lines;
- ``stored``: ``HouseRules``, the one flat value stored with each game.

A game's own rules (All Fives' scale, Chicken Foot's losing total, ...) are declared in the
game's module (``rules.games``) and join the table when the game is registered.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from scorekeeper.rules.house import common
from scorekeeper.rules.house.declaration import (
    HOUSE_RULES,
    HouseRule,
    line_per_value,
    offer,
    offered,
    withdraw,
)
from scorekeeper.rules.house.stored import CustomDeal, DealTable, HouseRules, first_engine_options
from scorekeeper.rules.house.texts import (
    DEAL_PRESETS,
    END_ON_DOUBLE_PENALTY,
    MAX_ROUNDS,
    MAX_TARGET,
    OPEN_DOUBLE_PENALTIES,
    PRESET_DESCRIPTIONS,
    PRESET_MAX_PIP,
)
from scorekeeper.rules.words import LazyText

COMMON = common.COMMON


class _ByRule(Mapping[str, Any]):
    """One part of every declared rule, by field (read from ``HOUSE_RULES`` when asked, so a
    game's own rules are in it once the game is registered)."""

    def __init__(self, part: str) -> None:
        self._part = part

    def __getitem__(self, name: str) -> Any:
        return getattr(HOUSE_RULES[name], self._part)

    def __iter__(self) -> Iterator[str]:
        return iter(HOUSE_RULES)

    def __len__(self) -> int:
        return len(HOUSE_RULES)


#: Plain labels for the setup form, by field.
RULE_LABELS: Mapping[str, LazyText] = _ByRule("label")
#: For each rule field, the allowed values with a one-line explanation (default first).
#: first_engine also takes any double of the set: see ``first_engine_options``; deal_table
#: "custom" stands for a mapping players -> tiles typed by the group.
RULE_OPTIONS: Mapping[str, tuple[tuple[Any, LazyText], ...]] = _ByRule("options")

__all__ = [
    "COMMON",
    "DEAL_PRESETS",
    "END_ON_DOUBLE_PENALTY",
    "HOUSE_RULES",
    "MAX_ROUNDS",
    "MAX_TARGET",
    "OPEN_DOUBLE_PENALTIES",
    "PRESET_DESCRIPTIONS",
    "PRESET_MAX_PIP",
    "RULE_LABELS",
    "RULE_OPTIONS",
    "CustomDeal",
    "DealTable",
    "HouseRule",
    "HouseRules",
    "first_engine_options",
    "line_per_value",
    "offer",
    "offered",
    "withdraw",
]

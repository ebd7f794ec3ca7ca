"""Use cases of the table helper: what to deal, the schedule, counting a hand."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import (
    DominoSet,
    HandError,
    HouseRules,
    Tile,
    deal_plan,
    engine_schedule,
    parse_hand,
    score_hand,
    suggest_set,
)
from scorekeeper.rules.schedule import DealPlan


@dataclass(frozen=True)
class TableSummary:
    rules: HouseRules
    plan: DealPlan
    schedule: list[int]
    suggested_set: int
    tile_count: int


@dataclass(frozen=True)
class HandCount:
    tiles: list[Tile]
    total: int | None
    error: str | None


def summarise_table(max_pip: int, players: int, deal_table: str) -> TableSummary:
    """Tiles to deal, the boneyard and the round schedule for a set and a number of players.

    Raises ValueError (with a sentence for the player) when the set cannot seat that many.
    """
    rules = HouseRules(max_pip=max_pip, deal_table=deal_table)
    plan = deal_plan(players, rules)
    return TableSummary(
        rules=rules,
        plan=plan,
        schedule=engine_schedule(rules),
        suggested_set=suggest_set(players),
        tile_count=DominoSet(max_pip).tile_count,
    )


def count_hand(text: str, max_pip: int, double_blank: int) -> HandCount:
    """Parse the tiles typed for one hand and score them under the chosen double-blank rule."""
    try:
        tiles = parse_hand(text, max_pip=max_pip)
    except HandError as error:
        return HandCount(tiles=[], total=None, error=str(error))
    rules = HouseRules(max_pip=max_pip, double_blank=double_blank)
    return HandCount(tiles=tiles, total=score_hand(tiles, rules), error=None)

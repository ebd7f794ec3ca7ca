"""Use cases of the table helper: what to deal, the schedule, counting a hand."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import (
    DominoSet,
    HandError,
    HouseRules,
    Tile,
    engine_schedule,
    parse_hand,
    score_hand,
    suggest_set,
)
from scorekeeper.rules.games import DEFAULT_KIND, GameVariant, variant_or_default
from scorekeeper.rules.schedule import DealPlan


@dataclass(frozen=True)
class TableSummary:
    rules: HouseRules
    plan: DealPlan
    schedule: list[int]  # empty for a game without engines
    suggested_set: int
    tile_count: int
    variant: GameVariant
    notes: list[str]  # what a game without engines needs before a hand


@dataclass(frozen=True)
class HandCount:
    tiles: list[Tile]
    total: int | None
    error: str | None


def summarise_table(
    max_pip: int, players: int, deal_table: str, game: str = DEFAULT_KIND
) -> TableSummary:
    """Tiles to deal, the boneyard and the round schedule for a set and a number of players,
    in ``game`` (its declaration's deal and rules; a game with sheets of its own deals from
    them, whatever preset was chosen).

    Raises ValueError (with a sentence for the player) when the set cannot seat that many.
    """
    variant = variant_or_default(game)
    chosen = {} if variant.sheets.own else {"deal_table": deal_table}
    rules = variant.new_rules(max_pip=max_pip, **chosen)
    plan = variant.deal_plan(players, rules)
    engines = variant.uses_engines
    return TableSummary(
        rules=rules,
        plan=plan,
        schedule=engine_schedule(rules) if engines else [],
        suggested_set=suggest_set(players),
        tile_count=DominoSet(max_pip).tile_count,
        variant=variant,
        notes=[] if engines else variant.table_notes(players, rules),
    )


def count_hand(text: str, max_pip: int, double_blank: int) -> HandCount:
    """Parse the tiles typed for one hand and score them under the chosen double-blank rule."""
    try:
        tiles = parse_hand(text, max_pip=max_pip)
    except HandError as error:
        return HandCount(tiles=[], total=None, error=str(error))
    rules = HouseRules(max_pip=max_pip, double_blank=double_blank)
    return HandCount(tiles=tiles, total=score_hand(tiles, rules), error=None)

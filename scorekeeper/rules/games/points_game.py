"""A points game's declaration (``points_game``) and the house rules every points game
offers (the target, the partnerships, the ties where the highest total wins, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.games.declaration import GameVariant
from scorekeeper.rules.games.point_hands import check_hand, points_scoreboard
from scorekeeper.rules.games.points import (
    DEAL_SET,
    PointGame,
    deal_plan,
    game_over,
    in_play,
    starter_text,
    table_notes,
    target,
)
from scorekeeper.rules.games.sheets import hands_sets
from scorekeeper.rules.house import COMMON, HouseRule, HouseRules, line_per_value
from scorekeeper.rules.words import lazy

# --- The rules every points game offers -------------------------------------------------------

TARGET = HouseRule(
    name="target",
    label=lazy("Target score"),
    options=((None, lazy("The game's usual target")),),
    section="points",
    in_play=lambda rules: None,  # the game's own line says the target
    fixed=False,
)
PARTNERS = HouseRule(
    name="partners",
    label=lazy("Partnerships"),
    options=(
        (False, lazy("Everyone plays for themselves")),
        (
            True,
            lazy(
                "Four players, two against two: the 1st and 3rd seat against the 2nd "
                "and 4th; partners share one score"
            ),
        ),
    ),
    section="points",
    in_play=line_per_value(
        {
            False: None,
            True: lazy(
                "Partnerships: the 1st and 3rd seat against the 2nd and 4th, one score per side"
            ),
        },
        "partners",
    ),
)
#: What the winner of a Draw or Block hand scores.
BLOCK_WIN = HouseRule(
    name="block_win",
    label=lazy("The winner of a hand scores"),
    options=(
        ("opponents", lazy("The other players' pips")),
        ("minus_own", lazy("The other players' pips minus their own")),
    ),
    section="points",
    in_play=line_per_value(
        {
            "opponents": lazy("The winner of a hand scores the other players' pips"),
            "minus_own": lazy(
                "The winner of a hand scores the other players' pips minus their own"
            ),
        },
        "block_win",
    ),
)
#: How the tie rule reads where the highest total wins. A stored game keeps a chain chosen
#: before these games had their own wording, so every value has a line; only co-winners and
#: another hand are offered.
HIGHEST_TIES = COMMON["tie_break"].worded_as(
    label=lazy("Tie for the highest total"),
    options=(
        (
            "co_winners",
            lazy("Players tied for the highest total when the game ends are co-winners"),
        ),
        (
            "another_hand",
            lazy(
                "A tie for the highest total at the target plays another hand, until one player "
                "is ahead (a published convention)"
            ),
        ),
    ),
    in_play=line_per_value(
        {
            "co_winners": lazy("Ties: co-winners"),
            "another_hand": lazy("Ties at the target: another hand is played"),
            "chain": lazy(
                "Ties: broken by most hands gone out, then the highest lowest hand, "
                "then the highest final hand"
            ),
            "zero_rounds": lazy(
                "Ties: broken by most hands with 0 points, then the highest hand that was not 0"
            ),
        },
        "tie_break",
    ),
)
#: A late joiner where the highest total wins starts with the lowest (the worst) total.
LOWEST_JOINS = COMMON["late_joiner"].worded_as(
    options=(
        ("none", lazy("Starts at 0")),
        ("highest_total", lazy("Starts with the lowest current total at the table (the worst)")),
    ),
    in_play=line_per_value(
        {
            "none": lazy("Late joiner: starts at 0"),
            "highest_total": lazy("Late joiner: starts with the lowest current total"),
        },
        "late_joiner",
    ),
)


def house_rules_of(spec: PointGame) -> tuple[HouseRule, ...]:
    """The house rules a points game offers, in "Rules in play" order."""
    return (
        hands_sets(COMMON["max_pip"], spec.sheets),
        COMMON["copies"],
        spec.sheets.deal_rule(COMMON["deal_table"]),
        HIGHEST_TIES,
        TARGET,
        *spec.own_rules,
        PARTNERS,
        LOWEST_JOINS,
    )


def points_game(spec: PointGame) -> GameVariant:
    """The declaration of a points game (``PointGame``: what differs between them)."""

    def check(entry: Any, context: Any, partial: bool) -> Any:
        return check_hand(spec, entry, context, partial)

    def board(seats: int, rounds: Sequence[Any], rules: HouseRules, start: Any = None) -> Any:
        return points_scoreboard(spec, seats, rounds, rules, start)

    return GameVariant(
        name=spec.name,
        label=spec.label,
        description=spec.description,
        lower_is_better=False,
        round_count=lambda rules: None,
        engine_for_round=lambda number, rules: None,
        deal_plan=lambda players, rules: deal_plan(spec, players, rules),
        starter_text=starter_text,
        check_round=check,
        scoreboard=board,
        house_rules=house_rules_of(spec),
        sheets=spec.sheets,
        in_play=lambda rules: in_play(spec, rules),
        uses_engines=False,
        makes_points=spec.makes_points,
        round_word="Hand",
        default_rules=MappingProxyType({"max_pip": DEAL_SET}),
        table_notes=lambda players, rules: table_notes(spec, players, rules),
        game_over=lambda totals, rules: game_over(spec, totals, rules),
        target=lambda rules: target(spec, rules),
        family=spec,
    )

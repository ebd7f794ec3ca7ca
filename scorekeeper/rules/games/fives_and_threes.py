"""Fives and Threes (rules.md 5): double-6, 2-4 players; score when the ends add up to a
multiple of 3 or 5 (15 scores 8); going out scores 1; exactly 61 wins (pub rules)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from scorekeeper.rules.games.all_fives import FIVES_SHEET, FIVES_SOURCES
from scorekeeper.rules.games.points import PointGame
from scorekeeper.rules.games.points_game import points_game
from scorekeeper.rules.games.sheets import GameSheets
from scorekeeper.rules.house import HouseRule, HouseRules, line_per_value
from scorekeeper.rules.words import _, lazy

_PLAIN = HouseRules(max_pip=6)
#: The scales scored one point per three and per five, going out 1.
PUB_SCALES = ("pub", "pub_100")


def fives_and_threes_points(ends: int, rules: HouseRules = _PLAIN) -> int:
    """What a play scores in Fives and Threes when the open ends add up to ``ends``. Pub rules:
    ends/3 when 3 divides them plus ends/5 when 5 does (15 scores 3 + 5 = 8). Face value: the
    total when 3 or 5 divides it, twice when both do (30 scores 60)."""
    if ends <= 0:
        return 0
    by_three, by_five = ends % 3 == 0, ends % 5 == 0
    if rules.fives_threes_scale in PUB_SCALES:
        return (ends // 3 if by_three else 0) + (ends // 5 if by_five else 0)
    if by_three and by_five:
        return 2 * ends
    return ends if by_three or by_five else 0


def _bonus(opponents: Sequence[int], own: int, went_out: bool, rules: HouseRules) -> int:
    """Pub rules: 1 for going out, nothing in a blocked hand; face value: the others' pips."""
    if rules.fives_threes_scale in PUB_SCALES:
        return 1 if went_out else 0
    return sum(opponents)


def _scoring_note(rules: HouseRules) -> str:
    if rules.fives_threes_scale in PUB_SCALES:
        return _(
            "Score when the ends add up to a multiple of 3 or 5: 3 and 5 score 1, 6 scores "
            "2, 15 scores 8"
        )
    return _("Score the ends' total when 3 or 5 divides it, twice when both do (30 scores 60)")


RULES = (
    HouseRule(
        name="fives_threes_scale",
        label=lazy("Fives and Threes: how ends count"),
        options=(
            (
                "pub",
                lazy(
                    "Pub rules: one point per three and per five (15 scores 8); going out "
                    "scores 1; exactly 61 wins"
                ),
            ),
            (
                "face",
                lazy(
                    "Face value: the ends' total when it divides by 3 or 5, twice when by "
                    "both (30 scores 60); the winner takes the others' pips; target 251"
                ),
            ),
            (
                "pub_100",
                lazy(
                    "Pub scoring to 100: one point per three and per five, going out "
                    "scores 1; no exact finish: once anyone has 100 at the end of a hand, "
                    "the highest total wins"
                ),
            ),
        ),
        section="points",
        in_play=line_per_value(
            {
                "pub": lazy(
                    "Points: one per three and per five (15 scores 8); going out "
                    "scores 1; points that would pass the target are lost"
                ),
                "face": lazy(
                    "Points: face value, twice when both 3 and 5 divide (30 scores "
                    "60); the winner of a hand takes the others' pips"
                ),
                "pub_100": lazy(
                    "Points: one per three and per five (15 scores 8); going out "
                    "scores 1; the highest total once anyone has 100 wins"
                ),
            },
            "fives_threes_scale",
        ),
    ),
)

FIVES_AND_THREES = points_game(
    PointGame(
        name="fives_and_threes",
        label=lazy("Fives and Threes"),
        description=lazy(
            "Double-6, 2-4 players: score when the ends add up to a multiple of 3 or 5 "
            "(15 scores 8); going out scores 1; exactly 61 wins."
        ),
        draws=False,
        makes_points=True,
        spinner=lazy(
            "No spinner: the line has two ends. A double is laid crosswise and "
            "counts both halves at an end"
        ),
        sheets=GameSheets(
            by_set=FIVES_SHEET,
            name=lazy("Fives and Threes sheet"),
            sources=MappingProxyType({("standard", 6): FIVES_SOURCES}),
        ),
        usual_target=lambda rules: {"pub": 61, "pub_100": 100}.get(rules.fives_threes_scale, 251),
        scoring_note=_scoring_note,
        bonus=_bonus,
        # Pub rules: the target is hit exactly, and the end of a hand gives only the point for
        # going out.
        exact=lambda rules: rules.fives_threes_scale == "pub",
        needs_pips=lambda rules: rules.fives_threes_scale not in PUB_SCALES,
        own_rules=RULES,
    )
)

"""All Fives (Muggins, rules.md 5): double-6, 2-4 players; score when the ends add up to a
multiple of 5; the winner of a hand scores the others' pips rounded to 5; first to 150 wins."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from scorekeeper.rules.games.points import PointGame
from scorekeeper.rules.games.points_game import points_game
from scorekeeper.rules.games.sheets import GameSheets, SheetSource
from scorekeeper.rules.house import HouseRule, HouseRules, line_per_value
from scorekeeper.rules.words import _, lazy

_PLAIN = HouseRules(max_pip=6)

#: The sources of the double-6 sheet the fives games share (docs/rules.md).
FIVES_SOURCES = (
    SheetSource(
        "pagat-mug", lazy("pagat.com, Muggins"), "http://www.pagat.com/tile/wdom/muggins.html"
    ),
    SheetSource(
        "eighty",
        lazy("eightygames, Fives and Threes"),
        "https://eightygames.wordpress.com/2014/03/06/fives-and-threes-dominos/",
    ),
)
#: 7 each for 2 players, 5 each for 3-4, on a double-6 (All Fives, Fives and Threes, Draw).
FIVES_SHEET = MappingProxyType({6: MappingProxyType({2: 7, 3: 5, 4: 5})})


def all_fives_points(ends: int, rules: HouseRules = _PLAIN) -> int:
    """What a play scores in All Fives when the open ends add up to ``ends``: a multiple of 5
    scores its face value (or one point per five), anything else 0."""
    if ends <= 0 or ends % 5:
        return 0
    return ends if rules.all_fives_scale == "face" else ends // 5


def nearest_five(pips: int) -> int:
    """Pips rounded to the nearest 5, halves up: ``5 * floor((x + 2) / 5)`` (rules.md 5)."""
    return 5 * ((pips + 2) // 5)


def five_below(pips: int) -> int:
    """Pips rounded down to a 5: ``5 * floor(x / 5)`` (29 -> 25)."""
    return 5 * (pips // 5)


def all_fives_bonus(opponents: Sequence[int], own: int, rules: HouseRules = _PLAIN) -> int:
    """What the winner of an All Fives hand scores from the pips left (rules.md 5 and the
    published conventions of ``all_fives_rounding``): the opponents' pips added up and rounded
    to the nearest 5 (the rule book), or each opponent's hand rounded on its own, or rounded
    down instead of to the nearest 5. ``own`` is taken off first (a blocked hand under
    ``all_fives_blocked`` "minus_own"; rounded on its own like each opponent's hand). On the
    one-point scale the result counts one point per five. Never below 0."""
    rounding = rules.all_fives_rounding
    to_five = five_below if rounding.endswith("_down") else nearest_five
    if rounding.startswith("each"):
        bonus = sum(to_five(pips) for pips in opponents) - to_five(own)
    else:
        bonus = to_five(max(sum(opponents) - own, 0))
    bonus = max(bonus, 0)
    return bonus // 5 if rules.all_fives_scale == "per_five" else bonus


def _bonus(opponents: Sequence[int], own: int, went_out: bool, rules: HouseRules) -> int:
    """The others' pips rounded to 5 (``all_fives_bonus``); a blocked hand under
    ``all_fives_blocked`` "minus_own" takes the winner's own pips off."""
    blocked_minus = not went_out and rules.all_fives_blocked == "minus_own"
    return all_fives_bonus(opponents, own if blocked_minus else 0, rules)


def _made_error(points: int, rules: HouseRules) -> str | None:
    if rules.all_fives_scale == "face" and points % 5:
        return _("All Fives scores in fives: the points made are 5, 10, 15 …")
    return None


def _scoring_note(rules: HouseRules) -> str:
    if rules.all_fives_scale == "face":
        return _("Score when the ends add up to 5, 10, 15 …: the total")
    return _("Score when the ends add up to 5, 10, 15 …: one point per five")


RULES = (
    HouseRule(
        name="all_fives_scale",
        label=lazy("All Fives: how ends count"),
        options=(
            ("face", lazy("Face value: ends of 10 score 10 (target 150)")),
            ("per_five", lazy("One point per five: ends of 10 score 2 (target 61)")),
        ),
        section="points",
        in_play=line_per_value(
            {
                "face": lazy("Points: face value (ends of 10 score 10)"),
                "per_five": lazy("Points: one point per five (ends of 10 score 2)"),
            },
            "all_fives_scale",
        ),
    ),
    HouseRule(
        name="all_fives_rounding",
        label=lazy("All Fives: the winner's pips from the other hands"),
        options=(
            (
                "together_nearest",
                lazy("Added up, then rounded to the nearest 5 (27 scores 25, 28 scores 30)"),
            ),
            (
                "each_nearest",
                lazy(
                    "Each opponent's hand rounded to the nearest 5 on its own, then added up "
                    "(8 and 8 score 10 + 10 = 20)"
                ),
            ),
            ("together_down", lazy("Added up, then rounded down to a 5 (29 scores 25)")),
            (
                "each_down",
                lazy("Each opponent's hand rounded down to a 5 on its own (8 and 9 score 5 + 5)"),
            ),
        ),
        section="points",
        in_play=line_per_value(
            {
                "together_nearest": lazy(
                    "End of a hand: the others' pips added up, rounded to the nearest 5"
                ),
                "each_nearest": lazy(
                    "End of a hand: each opponent's pips rounded to the nearest 5 on their own"
                ),
                "together_down": lazy(
                    "End of a hand: the others' pips added up, rounded down to a 5"
                ),
                "each_down": lazy(
                    "End of a hand: each opponent's pips rounded down to a 5 on their own"
                ),
            },
            "all_fives_rounding",
        ),
        scoring=lazy("What the winner of a hand scores from the pips left in the other hands."),
    ),
    HouseRule(
        name="all_fives_blocked",
        label=lazy("All Fives: a blocked hand"),
        options=(
            ("others", lazy("The lowest hand scores the others' pips")),
            ("minus_own", lazy("The lowest hand scores the others' pips minus its own")),
        ),
        section="points",
        in_play=line_per_value(
            {
                "others": None,  # the rule book's blocked hand needs no line
                "minus_own": lazy(
                    "Blocked hand: the lowest hand scores the others' pips minus its own"
                ),
            },
            "all_fives_blocked",
        ),
        scoring=lazy("In a blocked hand the winner's own pips are taken off its bonus."),
    ),
)

ALL_FIVES = points_game(
    PointGame(
        name="all_fives",
        label=lazy("All Fives (Muggins)"),
        description=lazy(
            "Double-6, 2-4 players: score when the ends add up to a multiple of 5; the "
            "winner of a hand scores the others' pips rounded to 5; first to 150 wins."
        ),
        draws=True,
        makes_points=True,
        spinner=lazy(
            "The first double is the spinner: tiles go on all four sides of it. A "
            "double at an end counts both halves"
        ),
        sheets=GameSheets(
            by_set=FIVES_SHEET,
            name=lazy("All Fives sheet"),
            sources=MappingProxyType({("standard", 6): FIVES_SOURCES}),
        ),
        usual_target=lambda rules: 150 if rules.all_fives_scale == "face" else 61,
        scoring_note=_scoring_note,
        bonus=_bonus,
        made_error=_made_error,
        own_rules=RULES,
    )
)

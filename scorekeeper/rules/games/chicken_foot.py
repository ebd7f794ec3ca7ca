"""Chicken Foot (docs/rules.md): ten rounds on a double-9 set, 9-9 down to 0-0; no hub: the
round's double goes in the middle of the table and every double played makes a chicken foot;
pips left in hand count, the 0-0 50; the lowest total wins, or the game ends at a losing total.
It deals from its own sheets and words the schedule's rules its own way (htfbw-cf, cdd-cf)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from types import MappingProxyType

from scorekeeper.rules.games.declaration import GameVariant
from scorekeeper.rules.games.mexican_train import pip_rules
from scorekeeper.rules.games.sheets import GameSheets, SheetSource
from scorekeeper.rules.house import COMMON, HouseRule, HouseRules, line_per_value
from scorekeeper.rules.house.common import (
    LENGTH_CHOICES,
    ORDER_CHOICES,
    START_CHOICES,
    START_LINES,
)
from scorekeeper.rules.round_check import RoundCheck, RoundContext, RoundInput, check_round
from scorekeeper.rules.schedule import (
    LOW_BONEYARD_SHARE,
    DealPlan,
    computed_deal,
    deal_plan,
    engine_for_round,
    round_count,
    starter_text,
)
from scorekeeper.rules.scoreboard import scoreboard
from scorekeeper.rules.words import LazyText, _, lazy, ngettext

_ODG = SheetSource(
    "odg-cf",
    lazy("onlinedominogames.com, Chickenfoot"),
    "https://onlinedominogames.com/chickenfoot-dominoes",
)
_CHICKIE = SheetSource(
    "chickie",
    lazy("engraveddominoes.com, Chickie Sixes"),
    "https://engraveddominoes.com/chickie-sixes/",
)
_HTFBW = SheetSource(
    "htfbw-cf", lazy("htfbw.com, Chicken Foot"), "https://htfbw.com/games-cards/Games/39024.shtml"
)
_CDD = SheetSource(
    "cdd-cf",
    lazy("cardsdicedominoes.com, Chicken Foot"),
    "http://www.cardsdicedominoes.com/chickenfoot-domino-rules.htm",
)
_CF8 = SheetSource(
    "cf-8",
    lazy("heyreviewfood.com, Chicken Feet"),
    "https://heyreviewfood.com/chicken-feet-domino-rules-1647358645",
)

#: Double-6, 5 each for 2-4 players (Chickie Sixes, onlinedominogames.com); double-9, 9 each
#: for 2 players, 7 each for 3-6, 6 each for 7-8 (the usual double-9 sheet: "two players nine,
#: three or four seven"; "if 8 play, each draw 6").
SHEETS = GameSheets(
    by_set=MappingProxyType(
        {
            6: MappingProxyType({2: 5, 3: 5, 4: 5}),
            9: MappingProxyType({2: 9, 3: 7, 4: 7, 5: 7, 6: 7, 7: 6, 8: 6}),
        }
    ),
    name=lazy("Chicken Foot sheet"),
    sources=MappingProxyType(
        {("standard", 6): (_ODG, _CHICKIE), ("standard", 9): (_HTFBW, _CDD, _CF8)}
    ),
)

SPINNER = lazy(
    "The round's double is the centre: four tiles go on it, one on each side, before "
    "anything else; every double played after is a chicken foot: three tiles on it (the toes) "
    "before play goes anywhere else"
)


def reworded(
    choices: tuple[tuple[str, LazyText], ...],
    words: dict[str, LazyText],
    first: str | None = None,
) -> tuple[tuple[str, LazyText], ...]:
    """A shared rule's choices as this game words them: the texts in ``words`` in place of the
    shared ones (the values stay), ``first`` (its default) put first."""
    worded = tuple((value, words.get(value, text)) for value, text in choices)
    return tuple(sorted(worded, key=lambda choice: choice[0] != first)) if first else worded


# No hub and no engine: the round's double goes in the middle of the table, and by default
# whoever holds it places it and starts.
_ORDER = {
    "highest_available": lazy(
        "Each round the highest double anyone holds that has not started a round yet"
    ),
}
_LENGTH = {"doubles": lazy("One round for each double of the schedule")}
_START = {
    "engine_holder": lazy(
        "Whoever holds the round's double places it in the middle of the table and starts "
        "(every tile is dealt)"
    ),
    "rotate": lazy(
        "Rotate clockwise: the round's double is taken out and put in the middle of the table "
        "before the deal; the seat chosen for round 1 starts, then the starting seat moves one "
        "to the left each round"
    ),
    "left_of_setter": lazy("The player left of whoever set the round's double starts"),
}
_START_LINES = {
    "engine_holder": lazy("Who starts: whoever holds the round's double"),
    "left_of_setter": lazy("Who starts: the player left of whoever set the round's double"),
}

LOSING_TOTAL = HouseRule(
    name="losing_total",
    label=lazy("Losing total"),
    options=((None, lazy("None: play the rounds of the schedule")),),
    section="schedule",
    in_play=lambda rules: (
        _(
            "Game ends at the end of the round in which someone reaches %(total)s; the "
            "lowest total wins",
            total=rules.losing_total,
        )
        if rules.losing_total
        else None
    ),
    fixed=False,
)

_WORDED = {
    "max_pip": COMMON["max_pip"].worded_as(
        options=(
            (9, lazy("Double-9: 55 tiles, 10 rounds, 2-8 players (the usual set)")),
            (6, lazy("Double-6: 28 tiles, 7 rounds, 2-4 players")),
            (12, lazy("Double-12: 91 tiles, 13 rounds, for more players")),
            (15, lazy("Double-15: 136 tiles, 16 rounds")),
            (18, lazy("Double-18: 190 tiles, 19 rounds")),
        ),
    ),
    "order": COMMON["order"].worded_as(
        label=lazy("Which double starts each round"), options=reworded(ORDER_CHOICES, _ORDER)
    ),
    "length": COMMON["length"].worded_as(options=reworded(LENGTH_CHOICES, _LENGTH)),
    "deal_table": SHEETS.deal_rule(COMMON["deal_table"]),
    "start_rule": COMMON["start_rule"].worded_as(
        options=reworded(START_CHOICES, _START, first="engine_holder"),
        in_play=line_per_value({**START_LINES, **_START_LINES}, "start_rule"),
    ),
}


def _house_rules() -> tuple[HouseRule, ...]:
    """Every common rule but the train markers (no trains to mark), worded as above, and the
    losing total before the late joiner."""
    rules = [_WORDED.get(rule.name, rule) for rule in pip_rules(without=("marker_penalty",))]
    return (*rules[:-1], LOSING_TOTAL, rules[-1])


def _deal(players: int, rules: HouseRules) -> DealPlan:
    """Chicken Foot deals from its own sheets (5 each on a double-6 set; 9, then 7, then 6
    each on a double-9), never from Mexican Train's: on a set without a Chicken Foot sheet the
    computed suggestion, said as such. The group's own number, or a Mexican Train sheet chosen
    for the game before Chicken Foot had its own, deals as chosen."""
    if rules.custom_deal is not None or rules.deal_table != "standard":
        return deal_plan(players, rules)
    deal_plan(players, rules.replace(deal_table={players: 1}))  # the set's player limits
    sheet = SHEETS.sheet_for(rules.max_pip, rules.copies)
    total = rules.domino_set.total_tiles
    if players in sheet:
        tiles, source, warnings = sheet[players], "table", []
    else:
        tiles, source = computed_deal(total, players), "computed"
        if sheet or rules.copies == 1:
            warning = _(
                "The Chicken Foot sheets give no number for %(players)s players with a %(set)s "
                "set: %(tiles)s tiles each is a computed suggestion",
                players=players,
                set=rules.domino_set.name,
                tiles=tiles,
            )
        else:
            warning = _(
                "The Chicken Foot sheets give no number for %(players)s players with two sets "
                "mixed: %(tiles)s tiles each is a computed suggestion",
                players=players,
                tiles=tiles,
            )
        warnings = [warning]
    boneyard = total - 1 - players * tiles
    if boneyard < LOW_BONEYARD_SHARE * total:
        warnings.append(
            ngettext(
                "Only %(num)s tile stays in the boneyard",
                "Only %(num)s tiles stay in the boneyard",
                boneyard,
            )
        )
    return DealPlan(players, tiles, boneyard, source, warnings)


def _over(totals: Sequence[int], rules: HouseRules) -> bool:
    """To a losing total: the game ends at the end of the round in which someone reaches it;
    the lowest total wins."""
    return rules.losing_total is not None and any(t >= rules.losing_total for t in totals)


def _notes(players: int, rules: HouseRules) -> list[str]:
    notes = [str(SPINNER)]
    if rules.losing_total:
        notes.append(
            _(
                "The game ends at the end of the round in which someone reaches "
                "%(total)s: the lowest total wins",
                total=rules.losing_total,
            )
        )
    return notes


def _check_round(entry: RoundInput, context: RoundContext, partial: bool) -> RoundCheck:
    return check_round(entry, context, partial=partial)


def _engine_for_round(number: int, rules: HouseRules) -> int | None:
    return engine_for_round(number, rules)


CHICKEN_FOOT = GameVariant(
    name="chicken_foot",
    label=lazy("Chicken Foot"),
    description=lazy(
        "Ten rounds on a double-9 set, 9-9 down to 0-0; every double makes a chicken "
        "foot; pips left in hand count, the 0-0 50; the lowest total wins."
    ),
    lower_is_better=True,
    round_count=round_count,
    engine_for_round=_engine_for_round,
    deal_plan=_deal,
    starter_text=partial(starter_text, hub=False),
    check_round=_check_round,
    scoreboard=scoreboard,
    house_rules=_house_rules(),
    sheets=SHEETS,
    hub=False,
    in_play=lambda rules: (
        [_("Game: %(game)s", game=_("Chicken Foot")), str(SPINNER)] + rules.describe("chicken_foot")
    ),
    default_rules=MappingProxyType(
        {"max_pip": 9, "double_blank": 50, "start_rule": "engine_holder"}
    ),
    table_notes=_notes,
    game_over=_over,
    target=lambda rules: rules.losing_total,
)

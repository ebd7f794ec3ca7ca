"""Mexican Train (rules.md 1-4): thirteen rounds on a double-12 set, each started by the next
double down from a hub; the pips left in hand count; the lowest total wins. It deals from the
named double-12 presets (``rules.house``) and offers every common house rule."""

from __future__ import annotations

from types import MappingProxyType

from scorekeeper.rules.games.declaration import GameVariant
from scorekeeper.rules.games.sheets import GameSheets, SheetSource
from scorekeeper.rules.house import COMMON, HouseRules
from scorekeeper.rules.round_check import RoundCheck, RoundContext, RoundInput, check_round
from scorekeeper.rules.schedule import deal_plan, engine_for_round, round_count, starter_text
from scorekeeper.rules.scoreboard import scoreboard
from scorekeeper.rules.words import lazy

_MT = SheetSource(
    "htfbw-mt", lazy("htfbw.com, Mexican Train"), "https://htfbw.com/games-cards/Games/76098.shtml"
)
_OP = SheetSource(
    "op-d12",
    lazy("ourpastimes.com, double-twelve dominoes"),
    "https://ourpastimes.com/instructions-double-twelve-dominoes-8530740.html",
)
_BOX = SheetSource("card", lazy("the rule sheets in the Cardinal and Fundex boxes"), "")

#: The presets' sources, (sheet, set) as docs/rules.md's deal sheets table cites them; set
#: None: every other set of the standard table.
SHEETS = GameSheets(
    sources=MappingProxyType(
        {
            ("standard", 12): (_MT,),
            ("standard", None): (_BOX,),
            ("cardinal", 12): (_BOX,),
            ("fundex", 12): (_BOX,),
            ("gamerules", 12): (_OP,),
        }
    )
)


def pip_rules(*, without: tuple[str, ...] = ()) -> tuple:
    """The common house rules in "Rules in play" order, less ``without``."""
    return tuple(rule for name, rule in COMMON.items() if name not in without)


def _check_round(entry: RoundInput, context: RoundContext, partial: bool) -> RoundCheck:
    return check_round(entry, context, partial=partial)


def _engine_for_round(number: int, rules: HouseRules) -> int | None:
    return engine_for_round(number, rules)


MEXICAN_TRAIN = GameVariant(
    name="mexican_train",
    label=lazy("Mexican Train"),
    description=lazy(
        "Thirteen rounds on a double-12 set, each started by the next double down; "
        "the lowest total wins."
    ),
    lower_is_better=True,
    round_count=round_count,
    engine_for_round=_engine_for_round,
    deal_plan=deal_plan,
    starter_text=starter_text,
    check_round=_check_round,
    scoreboard=scoreboard,
    house_rules=pip_rules(),
    sheets=SHEETS,
)

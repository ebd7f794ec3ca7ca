"""Deal sheets (rules.md 2.3 and 5): what a game's declaration says about its sheets, and how
the app words them.

A game declares its own sheets (set -> players -> tiles each, for one set), what its sheet is
called and where each sheet comes from (``GameSheets``); a game without sheets of its own deals
from the named double-12 presets of ``rules.house`` (Mexican Train). Where a game has no sheet
for a set, the app shows the computed suggestion and says so. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from scorekeeper.rules.house import PRESET_DESCRIPTIONS, PRESET_MAX_PIP, HouseRule
from scorekeeper.rules.house.texts import deal_line
from scorekeeper.rules.tiles import set_name
from scorekeeper.rules.words import LazyText, _, lazy

Rules = Any  # a ``HouseRules``

_EMPTY: Mapping[int, int] = MappingProxyType({})


class SheetSource(NamedTuple):
    """A published source of a deal sheet, as docs/rules.md cites it: its key there, its name
    and its address ("" for the sheets printed in the makers' boxes)."""

    key: str
    name: LazyText
    url: str


@dataclass(frozen=True, kw_only=True)
class GameSheets:
    """A game's deal sheets: ``by_set`` (highest double -> players -> tiles each, one set;
    empty: the game deals from the named presets), the sheet's ``name`` in "Rules in play",
    and ``sources``: (sheet, set) -> its published sources (set None: every other set of that
    sheet)."""

    by_set: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    name: LazyText | None = None
    sources: Mapping[tuple[str, int | None], tuple[SheetSource, ...]] = field(default_factory=dict)

    @property
    def own(self) -> bool:
        """True when the game deals from sheets of its own (not the presets)."""
        return bool(self.by_set)

    def sheet_for(self, max_pip: int, copies: int = 1) -> Mapping[int, int]:
        """The sheet for one double-``max_pip`` set, players -> tiles each; empty when there
        is none for that set (or for two sets mixed)."""
        if copies != 1:
            return _EMPTY
        return self.by_set.get(max_pip, _EMPTY)

    def deal_line(self) -> Callable[[Rules], str]:
        """The "Rules in play" deal line: the sheet for the set in play, or the computed
        suggestion where there is none. A preset or a custom deal chosen for the game reads as
        it does in a game dealt from the presets."""

        def line(rules: Rules) -> str:
            if not self.own or not isinstance(rules.deal_table, str):
                return deal_line(rules)
            if rules.deal_table != "standard":
                return deal_line(rules)
            name = str(self.name)
            sheet = self.sheet_for(rules.max_pip, rules.copies)
            if rules.copies > 1:
                return _("Deal: computed suggestion (the %(sheet)s is for one set)", sheet=name)
            dominoes = set_name(rules.max_pip)
            if not sheet:
                return _(
                    "Deal: computed suggestion (the %(sheet)s has no numbers for a %(set)s set)",
                    sheet=name,
                    set=dominoes,
                )
            return _(
                "Deal: %(sheet)s for a %(set)s set, %(numbers)s",
                sheet=name,
                set=dominoes,
                numbers=sheet_words(sheet),
            )

        return line

    def used_line(self, used: str, rules: Rules) -> str:
        """The sheet a round's deal comes from, for the table view ("Why 15 each?"): the
        standard table or a named preset with its numbers, the game's own sheet as "Rules in
        play" names it, the group's own numbers, or a computed suggestion. ``used`` is the
        deal plan's source (``schedule.deal_plan``)."""
        if used == "computed":
            return _("No published sheet gives a number for this table: the app computes one")
        if used in PRESET_DESCRIPTIONS:
            return str(PRESET_DESCRIPTIONS[used])
        if used == "table" and not self.own:
            if rules.max_pip == PRESET_MAX_PIP and rules.copies == 1:
                return str(PRESET_DESCRIPTIONS["standard"])
            return _("Deal: standard table")
        return self.deal_line()(rules)

    def deal_rule(self, common: HouseRule) -> HouseRule:
        """The deal rule as this game words it: its one sheet, or the group's own number."""
        if not self.own:
            return common
        return common.worded_as(
            options=(("standard", SheetChoice(self)),), in_play=self.deal_line()
        )


def sheet_words(sheet: Mapping[int, int]) -> str:
    """A sheet in a few words: "5 each for 2-4 players", "9 each for 2 players, 7 for 3-6, 6
    for 7-8"."""
    runs: list[tuple[int, int, int]] = []  # (first players, last players, tiles)
    for players in sorted(sheet):
        tiles = sheet[players]
        if runs and runs[-1][2] == tiles and runs[-1][1] == players - 1:
            runs[-1] = (runs[-1][0], players, tiles)
        else:
            runs.append((players, players, tiles))
    parts = []
    for index, (first, last, tiles) in enumerate(runs):
        players = str(first) if first == last else f"{first}-{last}"
        if index == 0:
            parts.append(_("%(tiles)s each for %(players)s players", tiles=tiles, players=players))
        else:
            parts.append(_("%(tiles)s for %(players)s players", tiles=tiles, players=players))
    return ", ".join(parts)


class SheetChoice(LazyText):
    """A game's one deal choice besides the group's own number, worded when shown: "The Block
    sheet: 7 each for 2-4 players on a double-6; ...; computed for other sets"."""

    __slots__ = ("sheets",)

    def __init__(self, sheets: GameSheets) -> None:
        super().__init__(f"sheet choice of {sheets.name!r}")  # i18n: an identity, never shown
        self.sheets = sheets

    def __str__(self) -> str:
        words = "; ".join(
            _("%(numbers)s on a double-%(top)s", numbers=sheet_words(sheet), top=max_pip)
            for max_pip, sheet in self.sheets.by_set.items()
        )
        return _(
            "The %(sheet)s: %(sheets)s; computed for other sets",
            sheet=self.sheets.name,
            sheets=words,
        )


class SetChoice(LazyText):
    """A set offered in a game with sheets of its own, worded when shown: "Double-6: 28
    tiles, 2-4 players (All Fives sheet)"."""

    __slots__ = ("sheets", "max_pip", "count")

    def __init__(self, sheets: GameSheets, max_pip: int, count: int) -> None:
        super().__init__(f"set {max_pip} of {sheets.name!r}")  # i18n: an identity, never shown
        self.sheets, self.max_pip, self.count = sheets, max_pip, count

    def __str__(self) -> str:
        sheet = self.sheets.by_set.get(self.max_pip)
        if sheet:
            return _(
                "Double-%(top)s: %(count)s tiles, %(low)s-%(high)s players (%(sheet)s)",
                top=self.max_pip,
                count=self.count,
                low=min(sheet),
                high=max(sheet),
                sheet=self.sheets.name,
            )
        return _(
            "Double-%(top)s: %(count)s tiles, a computed deal", top=self.max_pip, count=self.count
        )


def hands_sets(common: HouseRule, sheets: GameSheets) -> HouseRule:
    """The set rule of a game played in hands: no rounds, the players its sheet deals to."""
    tiles = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}
    options = tuple(
        (max_pip, SetChoice(sheets, max_pip, count)) for max_pip, count in tiles.items()
    )
    return common.worded_as(label=lazy("Set"), options=options)

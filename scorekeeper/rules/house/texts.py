"""The constants the house rules name (the deal presets, the penalties, the limits) and the
functions that word the common rules' "Rules in play" lines (``common``).

A line function takes the game's ``stored.HouseRules``; it is typed ``Rules`` (``Any``) here
because ``stored`` imports this module, never the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.tiles import set_name
from scorekeeper.rules.words import LazyText, _, lazy, ngettext

#: A ``stored.HouseRules`` (see the module docstring).
Rules = Any

#: Named deal sheets for a double-12 set: players -> tiles each (rules.md 2.3). "standard" is the
#: default table, including 8 each for 9-10 players.
DEAL_PRESETS: Mapping[str, Mapping[int, int]] = MappingProxyType(
    {
        "standard": MappingProxyType(
            {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}
        ),
        "cardinal": MappingProxyType({2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11}),
        "fundex": MappingProxyType({2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8}),
        "gamerules": MappingProxyType({2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9}),
    }
)
#: The set the named presets are written for.
PRESET_MAX_PIP = 12

PRESET_DESCRIPTIONS: Mapping[str, LazyText] = MappingProxyType(
    {
        "standard": lazy("Standard table: 15 15 15 12 12 10 10 for 2-8 players (8 for 9-10)"),
        "cardinal": lazy("Cardinal box sheet: 15 15 15 12 12 11 11 (only 2 tiles to draw with 8)"),
        "fundex": lazy("Fundex box sheet: 15 15 15 11 11 8 8"),
        "gamerules": lazy("Game-rules sheet: 16 16 15 14 12 10 9"),
        "custom": lazy("Custom: the group types its own numbers"),
    }
)

#: Extra points for going out on a double under end_on_double="penalty".
END_ON_DOUBLE_PENALTY = 50


def set_line(rules: Rules) -> str:
    name = set_name(rules.max_pip)
    if rules.copies == 1:
        return _("Set: %(set)s", set=name)
    return _("Set: two %(set)s sets mixed (every tile twice)", set=name)


def _tile(number: int) -> str:
    """A double as players write it: "12-12"."""
    return f"{number}-{number}"


def _fixed_line(rules: Rules, cycle: list[int], words: str) -> str | None:
    """The engines' line of a game of a set number of rounds other than one pass (None: one
    pass of the schedule)."""
    count = rules.rounds
    if count > len(cycle):
        return ngettext(
            "Engines: %(order)s, then again from the %(first)s; %(num)s round",
            "Engines: %(order)s, then again from the %(first)s; %(num)s rounds",
            count,
            order=words,
            first=_tile(cycle[0]),
        )
    if count < len(cycle):
        last = _tile(cycle[count - 1])
        if rules.order in ("up_and_back", "down_and_up"):
            return ngettext(
                "Engines: %(order)s, stopping after the %(last)s; %(num)s round",
                "Engines: %(order)s, stopping after the %(last)s; %(num)s rounds",
                count,
                order=words,
                last=last,
            )
        first = _tile(cycle[0])
        if rules.order == "descending":
            return ngettext(
                "Engines: %(first)s down to %(last)s, %(num)s round (stops early)",
                "Engines: %(first)s down to %(last)s, %(num)s rounds (stops early)",
                count,
                first=first,
                last=last,
            )
        return ngettext(
            "Engines: %(first)s up to %(last)s, %(num)s round (stops early)",
            "Engines: %(first)s up to %(last)s, %(num)s rounds (stops early)",
            count,
            first=first,
            last=last,
        )
    return None


def _highest_available_line(rules: Rules, cycle: list[int], shortened: bool) -> str:
    count = rules.rounds if rules.length == "fixed" and rules.rounds else len(cycle)
    if count < len(cycle):
        return ngettext(
            "Engines: each round the highest double anyone holds that has not been an "
            "engine yet, %(num)s round (stops early)",
            "Engines: each round the highest double anyone holds that has not been an "
            "engine yet, %(num)s rounds (stops early)",
            count,
        )
    if shortened:
        return ngettext(
            "Engines: each round the highest double anyone holds that has not been an "
            "engine yet, %(num)s round (shortened game)",
            "Engines: each round the highest double anyone holds that has not been an "
            "engine yet, %(num)s rounds (shortened game)",
            count,
        )
    return ngettext(
        "Engines: each round the highest double anyone holds that has not been an "
        "engine yet, %(num)s round",
        "Engines: each round the highest double anyone holds that has not been an "
        "engine yet, %(num)s rounds",
        count,
    )


def engines_line(rules: Rules) -> str:
    """The engines' line: the order, how many rounds, a shortened game or one that stops early."""
    top = rules.highest_engine
    cycle = rules.engine_cycle
    shortened = top < rules.max_pip
    if rules.order == "highest_available":
        return _highest_available_line(rules, cycle, shortened)
    high = _tile(top)
    words = {
        "descending": lambda: _("%(high)s down to 0-0", high=high),
        "ascending": lambda: _("0-0 up to %(high)s", high=high),
        "up_and_back": lambda: _("0-0 up to %(high)s, then back down to 0-0", high=high),
        "down_and_up": lambda: _("%(high)s down to 0-0, then back up to %(high)s", high=high),
    }[rules.order]()
    if rules.length == "free":
        return _(
            "Engines: %(order)s, then again from the %(first)s; as many rounds as the table "
            "plays (end the game from the table)",
            order=words,
            first=_tile(cycle[0]),
        )
    if rules.length == "fixed" and rules.rounds is not None:
        line = _fixed_line(rules, cycle, words)
        if line is not None:
            return line
    if shortened:
        return ngettext(
            "Engines: %(order)s, %(num)s round (shortened game)",
            "Engines: %(order)s, %(num)s rounds (shortened game)",
            len(cycle),
            order=words,
        )
    return ngettext(
        "Engines: %(order)s, %(num)s round",
        "Engines: %(order)s, %(num)s rounds",
        len(cycle),
        order=words,
    )


#: Most rounds a fixed-length game may have.
MAX_ROUNDS = 200
#: Highest target score of a points game.
MAX_TARGET = 1000


def blanks_line(rules: Rules) -> str:
    half = rules.blank_half
    if half:
        if rules.double_blank_on_top and rules.double_blank:
            return _(
                "Blank halves count %(half)s each; double blank counts %(two)s + "
                "%(penalty)s = %(total)s (the double-blank penalty on top)",
                half=half,
                two=2 * half,
                penalty=rules.double_blank,
                total=2 * half + rules.double_blank,
            )
        if rules.double_blank:
            return _(
                "Blank halves count %(half)s each; double blank counts %(two)s (the "
                "double-blank %(penalty)s is not added on top)",
                half=half,
                two=2 * half,
                penalty=rules.double_blank,
            )
        return _(
            "Blank halves count %(half)s each; double blank counts %(two)s",
            half=half,
            two=2 * half,
        )
    return _("Double blank counts %(points)s", points=rules.double_blank)


#: Open-double penalties: the name stored, (points added, hand multiplied by).
OPEN_DOUBLE_PENALTIES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "none": (0, 1),
        "plus_5": (5, 1),
        "plus_10": (10, 1),
        "times_3": (0, 3),
        "times_5": (0, 5),
    }
)


def open_double_line(rules: Rules) -> str:
    added, times = OPEN_DOUBLE_PENALTIES[rules.open_double_penalty]
    if added:
        return _(
            "Double left open at round end: +%(points)s for each, to the player who left it",
            points=added,
        )
    if times > 1:
        return _("Double left open at round end: that player's hand counts ×%(times)s", times=times)
    return _("Double left open at round end: no penalty")


def deal_line(rules: Rules) -> str:
    if not isinstance(rules.deal_table, str):
        numbers = ", ".join(
            _("%(players)s players %(tiles)s", players=p, tiles=t)
            for p, t in rules.deal_table.items()
        )
        return _("Deal: custom (%(numbers)s)", numbers=numbers)
    if rules.copies > 1:
        return _("Deal: computed suggestion (the tables are for one set)")
    if rules.deal_table == "standard":
        return _("Deal: standard table")
    if rules.max_pip == PRESET_MAX_PIP:
        return _("Deal: %(sheet)s sheet", sheet=rules.deal_table)
    return _(
        "Deal: standard table (the %(sheet)s sheet is for one double-12 set)",
        sheet=rules.deal_table,
    )

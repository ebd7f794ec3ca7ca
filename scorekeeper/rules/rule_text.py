"""The parts of a house rule's declaration (``house_rules.HOUSE_RULES``): the ``HouseRule``
class, the constants the rules name, and the functions that word a rule's "Rules in play" line.

A line function takes the game's ``house.HouseRules``; it is typed ``Rules`` (``Any``) here
because ``house`` imports this module, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.deal_sheets import SHEET_NAMES, sheet_for, sheet_words
from scorekeeper.rules.tiles import set_name
from scorekeeper.rules.words import LazyText, _, lazy, ngettext

#: A ``house.HouseRules`` (see the module docstring).
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


#: The games scored by the pips left in hand, where the Mexican Train house rules apply.
PIP_GAMES = ("mexican_train", "chicken_foot")
#: The games where points are made during play and a target ends the game (rules.md 5).
POINT_GAMES = ("all_fives", "fives_and_threes", "draw", "block")


@dataclass(frozen=True)
class Wording:
    """How a rule reads in one game where the common wording does not fit it: its label, the
    choices offered there (a rule's other values stay valid for games stored with them, but
    are not offered), and its "Rules in play" line (None: the common line)."""

    label: LazyText
    options: tuple[tuple[Any, LazyText], ...]
    in_play: Callable[[Rules], str | None] | None = None


@dataclass(frozen=True)
class HouseRule:
    """A house rule, declared once: its name (the ``HouseRules`` field and the key in the JSON
    stored with each game), its label, the allowed values each with a one-line explanation (the
    rule book's default first), where the setup form shows it, how it changes the score (""
    when it does not), and its line in "Rules in play" (``in_play``; None when another rule's
    line covers it). The setup form, the league settings, validation, the stored JSON and
    "Rules in play" all read this declaration."""

    name: str
    label: LazyText  # declared with ``lazy``: worded when shown
    options: tuple[tuple[Any, LazyText], ...]
    section: str  # "set", "schedule", "scoring", "play", "ties"
    in_play: Callable[[Rules], str | None]
    scoring: LazyText | str = ""
    #: False for max_pip, first_engine and deal_table: checked apart (any set size the rules
    #: know; a double of the set; a preset or a custom deal).
    fixed: bool = True
    #: The games (``rules.variants`` names) the rule belongs to; None: every game.
    games: tuple[str, ...] | None = PIP_GAMES
    #: The games where the rule reads differently or offers other choices (``Wording``).
    worded: Mapping[str, Wording] = field(default_factory=lambda: MappingProxyType({}))

    def applies_to(self, game: str) -> bool:
        """True when the rule is part of ``game`` (shown at its setup and in its "Rules in
        play")."""
        return self.games is None or game in self.games

    @property
    def default(self) -> Any:
        return self.options[0][0]

    @property
    def values(self) -> tuple[Any, ...]:
        """Every value the rule takes in some game (what a stored game may hold)."""
        values = [value for value, _ in self.options]
        for wording in self.worded.values():
            values += [value for value, _ in wording.options if value not in values]
        return tuple(values)

    def label_in(self, game: str) -> str:
        """The rule's label in ``game``, in the language of the moment."""
        wording = self.worded.get(game)
        return str(wording.label if wording else self.label)

    def options_in(self, game: str) -> tuple[tuple[Any, str], ...]:
        """The choices ``game`` offers, each with its one-line explanation (default first), in
        the language of the moment."""
        wording = self.worded.get(game)
        options = wording.options if wording else self.options
        return tuple((value, str(text)) for value, text in options)

    def default_in(self, game: str) -> Any:
        """The rule book's choice in ``game``."""
        return self.options_in(game)[0][0]

    def line_in(self, game: str, rules: Rules) -> str | None:
        """The rule's "Rules in play" line in ``game``."""
        wording = self.worded.get(game)
        if wording is not None and wording.in_play is not None:
            return wording.in_play(rules)
        return self.in_play(rules)

    def parse(self, text: object) -> Any:
        """The value a form sent (text) as the rule's own type; raises ValueError when it is
        not one of the choices."""
        for value in self.values:
            if str(value) == str(text):
                return value
        raise ValueError(f"{text!r} is not a choice for {self.label.lower()}")


def _set_line(rules: Rules) -> str:
    name = set_name(rules.max_pip)
    if rules.copies == 1:
        return _("Set: %(set)s", set=name)
    return _("Set: two %(set)s sets mixed (every tile twice)", set=name)


def _tile(number: int) -> str:
    """A double as players write it: "12-12"."""
    return f"{number}-{number}"


def _engines_line(rules: Rules) -> str:
    top = rules.highest_engine
    cycle = rules.engine_cycle
    shortened = top < rules.max_pip
    if rules.order == "highest_available":
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


def _blanks_line(rules: Rules) -> str:
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


def _open_double_line(rules: Rules) -> str:
    added, times = OPEN_DOUBLE_PENALTIES[rules.open_double_penalty]
    if added:
        return _(
            "Double left open at round end: +%(points)s for each, to the player who left it",
            points=added,
        )
    if times > 1:
        return _("Double left open at round end: that player's hand counts ×%(times)s", times=times)
    return _("Double left open at round end: no penalty")


def _deal_line(rules: Rules) -> str:
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


def game_deal_line(game: str) -> Callable[[Rules], str]:
    """The "Rules in play" deal line of a game that deals from its own sheets
    (``deal_sheets``): the sheet for the set in play, or the computed suggestion where the
    game has no sheet for it. A Mexican Train sheet or a custom deal chosen for the game reads
    as it does in Mexican Train."""

    def line(rules: Rules) -> str:
        if not isinstance(rules.deal_table, str) or rules.deal_table != "standard":
            return _deal_line(rules)
        name = str(SHEET_NAMES[game])
        sheet = sheet_for(game, rules.max_pip, rules.copies)
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


def deal_sheet_line(game: str, used: str, rules: Rules) -> str:
    """The sheet a round's deal comes from, for the table view ("Why 15 each?"): the
    standard table or a named sheet with its numbers, the game's own sheet as "Rules in play"
    names it, the group's own numbers, or a computed suggestion. ``used`` is the deal plan's
    source (``schedule.deal_plan``)."""
    if used == "computed":
        return _("No published sheet gives a number for this table: the app computes one")
    if used in PRESET_DESCRIPTIONS:
        return str(PRESET_DESCRIPTIONS[used])
    if used == "table" and game not in SHEET_NAMES:
        if rules.max_pip == PRESET_MAX_PIP and rules.copies == 1:
            return str(PRESET_DESCRIPTIONS["standard"])
        return _("Deal: standard table")
    return game_deal_line(game)(rules) if game in SHEET_NAMES else _deal_line(rules)


def _line(lines: Mapping[Any, LazyText | None], name: str) -> Callable[[Rules], str | None]:
    """The "Rules in play" line of a rule that is one sentence per value (declared with
    ``lazy``, worded in the language of whoever looks)."""

    def line(rules: Rules) -> str | None:
        text = lines[getattr(rules, name)]
        return None if text is None else str(text)

    return line

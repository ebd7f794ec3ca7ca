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

PRESET_DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "standard": "Standard table: 15 15 15 12 12 10 10 for 2-8 players (8 for 9-10)",
        "cardinal": "Cardinal box sheet: 15 15 15 12 12 11 11 (only 2 tiles to draw with 8)",
        "fundex": "Fundex box sheet: 15 15 15 11 11 8 8",
        "gamerules": "Game-rules sheet: 16 16 15 14 12 10 9",
        "custom": "Custom: the group types its own numbers",
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

    label: str
    options: tuple[tuple[Any, str], ...]
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
    label: str
    options: tuple[tuple[Any, str], ...]
    section: str  # "set", "schedule", "scoring", "play", "ties"
    in_play: Callable[[Rules], str | None]
    scoring: str = ""
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
        """The rule's label in ``game``."""
        wording = self.worded.get(game)
        return wording.label if wording else self.label

    def options_in(self, game: str) -> tuple[tuple[Any, str], ...]:
        """The choices ``game`` offers, each with its one-line explanation (default first)."""
        wording = self.worded.get(game)
        return wording.options if wording else self.options

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
    if rules.copies == 1:
        return f"Set: {set_name(rules.max_pip)}"
    return f"Set: two {set_name(rules.max_pip)} sets mixed (every tile twice)"


def _rounds(count: int) -> str:
    return f"{count} round" if count == 1 else f"{count} rounds"


def _engines_line(rules: Rules) -> str:
    top = rules.highest_engine
    cycle = rules.engine_cycle
    short = " (shortened game)" if top < rules.max_pip else ""
    if rules.order == "highest_available":
        count = rules.rounds if rules.length == "fixed" and rules.rounds else len(cycle)
        stops = " (stops early)" if count < len(cycle) else short
        return (
            "Engines: each round the highest double anyone holds that has not been an "
            f"engine yet, {_rounds(count)}{stops}"
        )
    words = {
        "descending": f"{top}-{top} down to 0-0",
        "ascending": f"0-0 up to {top}-{top}",
        "up_and_back": f"0-0 up to {top}-{top}, then back down to 0-0",
        "down_and_up": f"{top}-{top} down to 0-0, then back up to {top}-{top}",
    }[rules.order]
    if rules.length == "free":
        return (
            f"Engines: {words}, then again from the {cycle[0]}-{cycle[0]}; as many rounds as "
            "the table plays (end the game from the table)"
        )
    if rules.length == "fixed" and rules.rounds is not None:
        count = rules.rounds
        if count > len(cycle):
            return f"Engines: {words}, then again from the {cycle[0]}-{cycle[0]}; {_rounds(count)}"
        if count < len(cycle):
            last = cycle[count - 1]
            if rules.order in ("up_and_back", "down_and_up"):
                return f"Engines: {words}, stopping after the {last}-{last}; {_rounds(count)}"
            way = "down" if rules.order == "descending" else "up"
            first = cycle[0]
            return (
                f"Engines: {first}-{first} {way} to {last}-{last}, {_rounds(count)} (stops early)"
            )
    return f"Engines: {words}, {_rounds(len(cycle))}{short}"


#: Most rounds a fixed-length game may have.
MAX_ROUNDS = 200
#: Highest target score of a points game.
MAX_TARGET = 1000


def _blanks_line(rules: Rules) -> str:
    if rules.blank_half:
        if rules.double_blank_on_top and rules.double_blank:
            return (
                f"Blank halves count {rules.blank_half} each; double blank counts "
                f"{2 * rules.blank_half} + {rules.double_blank} = "
                f"{2 * rules.blank_half + rules.double_blank} (the double-blank penalty "
                "on top)"
            )
        half = rules.blank_half
        line = f"Blank halves count {half} each; double blank counts {2 * half}"
        if rules.double_blank:
            line += f" (the double-blank {rules.double_blank} is not added on top)"
        return line
    return f"Double blank counts {rules.double_blank}"


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
        return f"Double left open at round end: +{added} for each, to the player who left it"
    if times > 1:
        return f"Double left open at round end: that player's hand counts ×{times}"
    return "Double left open at round end: no penalty"


def _deal_line(rules: Rules) -> str:
    if not isinstance(rules.deal_table, str):
        numbers = ", ".join(f"{p} players {t}" for p, t in rules.deal_table.items())
        return f"Deal: custom ({numbers})"
    if rules.copies > 1:
        return "Deal: computed suggestion (the tables are for one set)"
    if rules.deal_table == "standard":
        return "Deal: standard table"
    if rules.max_pip == PRESET_MAX_PIP:
        return f"Deal: {rules.deal_table} sheet"
    return f"Deal: standard table (the {rules.deal_table} sheet is for one double-12 set)"


def game_deal_line(game: str) -> Callable[[Rules], str]:
    """The "Rules in play" deal line of a game that deals from its own sheets
    (``deal_sheets``): the sheet for the set in play, or the computed suggestion where the
    game has no sheet for it. A Mexican Train sheet or a custom deal chosen for the game reads
    as it does in Mexican Train."""
    name = SHEET_NAMES[game]

    def line(rules: Rules) -> str:
        if not isinstance(rules.deal_table, str) or rules.deal_table != "standard":
            return _deal_line(rules)
        sheet = sheet_for(game, rules.max_pip, rules.copies)
        if rules.copies > 1:
            return f"Deal: computed suggestion (the {name} is for one set)"
        dominoes = f"a {set_name(rules.max_pip)} set"
        if not sheet:
            return f"Deal: computed suggestion (the {name} has no numbers for {dominoes})"
        return f"Deal: {name} for {dominoes}, {sheet_words(sheet)}"

    return line


def _line(lines: Mapping[Any, str | None], name: str) -> Callable[[Rules], str | None]:
    """The "Rules in play" line of a rule that is one sentence per value."""
    return lambda rules: lines[getattr(rules, name)]

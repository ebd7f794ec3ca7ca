"""House rules (rules.md 2.1-2.4): the choices a group makes before a game.

Every option is stored with each game (``to_dict`` / ``from_dict``) so old games keep their rules,
and shown on the scoreboard as "Rules in play" (``describe``). ``RULE_OPTIONS`` lists every choice
with a one-line explanation so the setup form can be generated from the domain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.tiles import DominoSet, check_max_pip, set_name

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
    in_play: Callable[[HouseRules], str | None]
    scoring: str = ""
    #: False for max_pip, first_engine and deal_table: checked apart (any set size the rules
    #: know; a double of the set; a preset or a custom deal).
    fixed: bool = True
    #: The games (``rules.variants`` names) the rule belongs to; None: every game.
    games: tuple[str, ...] | None = PIP_GAMES

    def applies_to(self, game: str) -> bool:
        """True when the rule is part of ``game`` (shown at its setup and in its "Rules in
        play")."""
        return self.games is None or game in self.games

    @property
    def default(self) -> Any:
        return self.options[0][0]

    @property
    def values(self) -> tuple[Any, ...]:
        return tuple(value for value, _ in self.options)

    def parse(self, text: object) -> Any:
        """The value a form sent (text) as the rule's own type; raises ValueError when it is
        not one of the choices."""
        for value in self.values:
            if str(value) == str(text):
                return value
        raise ValueError(f"{text!r} is not a choice for {self.label.lower()}")


def _set_line(rules: HouseRules) -> str:
    if rules.copies == 1:
        return f"Set: {set_name(rules.max_pip)}"
    return f"Set: two {set_name(rules.max_pip)} sets mixed (every tile twice)"


def _rounds(count: int) -> str:
    return f"{count} round" if count == 1 else f"{count} rounds"


def _engines_line(rules: HouseRules) -> str:
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
            if rules.order == "up_and_back":
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


def _blanks_line(rules: HouseRules) -> str:
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


def _open_double_line(rules: HouseRules) -> str:
    added, times = OPEN_DOUBLE_PENALTIES[rules.open_double_penalty]
    if added:
        return f"Double left open at round end: +{added} for each, to the player who left it"
    if times > 1:
        return f"Double left open at round end: that player's hand counts ×{times}"
    return "Double left open at round end: no penalty"


def _deal_line(rules: HouseRules) -> str:
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


def _line(lines: Mapping[Any, str | None], name: str) -> Callable[[HouseRules], str | None]:
    """The "Rules in play" line of a rule that is one sentence per value."""
    return lambda rules: lines[getattr(rules, name)]


#: Every house rule of rules.md 2.1-2.4, in the order "Rules in play" lists them.
HOUSE_RULES: Mapping[str, HouseRule] = MappingProxyType(
    {
        rule.name: rule
        for rule in (
            HouseRule(
                "max_pip",
                "Set",
                (
                    (12, "Double-12: 91 tiles, 13 rounds, 5-8 players (up to 10)"),
                    (6, "Double-6: 28 tiles, 7 rounds, 2-4 players"),
                    (9, "Double-9: 55 tiles, 10 rounds, 2-8 players"),
                    (15, "Double-15: 136 tiles, 16 rounds, 9-12 players"),
                    (18, "Double-18: 190 tiles, 19 rounds, 13-16 players"),
                ),
                "set",
                _set_line,
                fixed=False,  # any set check_max_pip allows; these are the form's choices
                games=None,
            ),
            HouseRule(
                "copies",
                "Copies of each tile",
                (
                    (1, "One set"),
                    (2, "Two identical sets mixed: every tile exists twice"),
                ),
                "set",
                lambda rules: None,  # in the set's line
                games=None,
            ),
            HouseRule(
                "first_engine",
                "First engine",
                ((None, "The set's highest double (full game)"),),
                "schedule",
                lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                "order",
                "Engine order",
                (
                    ("descending", "Highest double first, down to 0-0"),
                    ("ascending", "0-0 first, up to the highest double (house option)"),
                    (
                        "highest_available",
                        "Each round the highest double anyone holds that has not been an "
                        "engine yet",
                    ),
                    (
                        "up_and_back",
                        "0-0 up to the highest double, then back down to 0-0 (double-12: 26 "
                        "rounds, the 12-12 played twice)",
                    ),
                ),
                "schedule",
                _engines_line,
            ),
            HouseRule(
                "length",
                "How many rounds",
                (
                    ("doubles", "One round for each engine of the schedule"),
                    (
                        "fixed",
                        "A set number of rounds: the game stops early, or starts the schedule "
                        "again when there are more rounds than doubles",
                    ),
                    ("free", "As many rounds as the table wants: end the game from the table"),
                ),
                "schedule",
                lambda rules: None,  # in the engines' line
            ),
            HouseRule(
                "rounds",
                "Number of rounds",
                ((None, "One round for each engine"),),
                "schedule",
                lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                "score_by",
                "How a round is scored",
                (
                    ("pips", "Pips left in hand; the lowest total wins"),
                    (
                        "arrivals",
                        "Arrivals: one point for going out, nothing else counts; the highest "
                        "total wins",
                    ),
                ),
                "scoring",
                _line(
                    {
                        "pips": None,  # the rule book's scoring needs no line
                        "arrivals": "Scoring: arrivals, one point for each round gone out; "
                        "the highest total wins (the hand rules below do not count)",
                    },
                    "score_by",
                ),
                scoring="Arrivals: 1 point to the player who goes out, 0 to everyone else; "
                "a blocked round gives nobody a point.",
            ),
            HouseRule(
                "double_blank",
                "Double blank (0-0) left in hand",
                ((0, "Counts 0, like its pips"), (25, "Counts 25"), (50, "Counts 50")),
                "scoring",
                _blanks_line,
                scoring="The 0-0 left in hand counts this instead of 0.",
            ),
            HouseRule(
                "blank_half",
                "Each blank half left in hand",
                (
                    (0, "Counts 0, like its pips"),
                    (5, "Counts 5 (the double blank then counts 10)"),
                    (25, "Counts 25 (the double blank then counts 50)"),
                ),
                "scoring",
                lambda rules: None,  # in the double blank's line
                scoring="Every blank half left in hand counts this; the 0-0 counts it twice "
                "and the double-blank rule is not added on top unless the next rule says so.",
            ),
            HouseRule(
                "double_blank_on_top",
                "Blank halves and the double-blank penalty",
                (
                    (False, "The double blank counts its two blank halves only"),
                    (True, "The double-blank penalty is added on top of its two blank halves"),
                ),
                "scoring",
                lambda rules: None,  # in the double blank's line
                scoring="With blank halves counting: the 0-0 counts two blank halves plus the "
                "double-blank rule's 25 or 50.",
            ),
            HouseRule(
                "doubles_count",
                "Doubles left in hand",
                (
                    ("face", "Count their pips, like any tile"),
                    ("twice", "Count twice their pips (a 6-6 counts 24)"),
                ),
                "scoring",
                _line(
                    {
                        "face": None,  # the rule book's default needs no line
                        "twice": "Doubles left in hand count twice their pips",
                    },
                    "doubles_count",
                ),
                scoring="A double's pips count twice; the 0-0's blank rules are not doubled.",
            ),
            HouseRule(
                "blocked_round",
                "Blocked round (nobody goes out)",
                (
                    ("all_count", "Everyone scores their hand"),
                    ("lowest_zero", "The lowest hand scores 0 (all of them when tied)"),
                ),
                "scoring",
                _line(
                    {
                        "all_count": "Blocked round: everyone scores their hand",
                        "lowest_zero": "Blocked round: the lowest hand scores 0",
                    },
                    "blocked_round",
                ),
                scoring="In a blocked round the lowest hand (every one tied for lowest) counts "
                "0 pips; markers and open doubles still count.",
            ),
            HouseRule(
                "end_on_double",
                "Going out on a double",
                (
                    ("allowed", "Allowed, no penalty"),
                    ("penalty", "Allowed, but +50 to the player who does it"),
                    ("double_others", "The other players' round scores are doubled"),
                ),
                "scoring",
                _line(
                    {
                        "allowed": "Going out on a double: allowed, no penalty",
                        "penalty": f"Going out on a double: +{END_ON_DOUBLE_PENALTY} to the "
                        "player who does it",
                        "double_others": "Going out on a double: others' scores doubled",
                    },
                    "end_on_double",
                ),
                scoring="When a player goes out on a double: +50 to that player, or the "
                "others' hand scores doubled.",
            ),
            HouseRule(
                "marker_penalty",
                "Open-train marker still out at round end",
                (
                    (0, "No penalty"),
                    (5, "5 points per marker"),
                    (10, "10 points per marker"),
                    (25, "25 points per marker"),
                ),
                "scoring",
                lambda rules: (
                    f"Open-train markers still out: {rules.marker_penalty} points each"
                    if rules.marker_penalty
                    else "Open-train markers still out: no penalty"
                ),
                scoring="Added for each marker still out (not doubled).",
                games=("mexican_train",),  # Chicken Foot has no trains to mark
            ),
            HouseRule(
                "open_double_penalty",
                "Double left open (unsatisfied) at round end",
                (
                    ("none", "No penalty"),
                    ("plus_5", "5 points for each double the player left open"),
                    ("plus_10", "10 points for each double the player left open"),
                    ("times_3", "That player's hand counts 3 times"),
                    ("times_5", "That player's hand counts 5 times"),
                ),
                "scoring",
                _open_double_line,
                scoring="The player who left a double open at round end gets the points for "
                "each one, or their hand counted that many times.",
            ),
            HouseRule(
                "going_out_bonus",
                "Going-out bonus",
                (
                    (0, "None"),
                    (-5, "5 points off for the player who goes out"),
                    (-10, "10 points off for the player who goes out"),
                ),
                "scoring",
                lambda rules: (
                    f"Going-out bonus: {rules.going_out_bonus} to the player who goes out"
                    if rules.going_out_bonus
                    else "Going-out bonus: none"
                ),
                scoring="Added to the round score of the player who went out.",
            ),
            HouseRule(
                "deal_table",
                "Tiles to deal",
                tuple((name, text) for name, text in PRESET_DESCRIPTIONS.items()),
                "schedule",
                _deal_line,
                fixed=False,
                games=None,
            ),
            HouseRule(
                "start_rule",
                "Who starts a round",
                (
                    (
                        "rotate",
                        "Rotate clockwise: the engine is taken out before the deal; the seat "
                        "chosen for round 1 starts, then the starting seat moves one to the "
                        "left each round",
                    ),
                    (
                        "engine_holder",
                        "Whoever holds the engine places it and starts (the engine is "
                        "shuffled in and dealt)",
                    ),
                    ("previous_winner", "The previous round's winner starts"),
                    ("left_of_setter", "The player left of whoever set the engine starts"),
                    (
                        "lowest_total",
                        "The player with the lowest total so far starts the next round",
                    ),
                ),
                "play",
                _line(
                    {
                        "engine_holder": "Who starts: whoever holds the engine",
                        "rotate": "Who starts: rotates clockwise, one seat to the left each round",
                        "previous_winner": "Who starts: the previous round's winner",
                        "left_of_setter": "Who starts: the player left of whoever set the engine",
                        "lowest_total": "Who starts: the player with the lowest total so far",
                    },
                    "start_rule",
                ),
            ),
            HouseRule(
                "tie_break",
                "Tie for the lowest total",
                (
                    ("co_winners", "Players tied for the lowest total are co-winners"),
                    (
                        "chain",
                        "Break ties by most rounds gone out, then lowest worst round, "
                        "then lowest final round",
                    ),
                    (
                        "zero_rounds",
                        "Break ties by most rounds with 0 points, then the lowest round "
                        "that was not 0",
                    ),
                ),
                "ties",
                _line(
                    {
                        "co_winners": "Ties: co-winners",
                        "chain": "Ties: broken by most rounds gone out, then lowest worst "
                        "round, then lowest final round",
                        "zero_rounds": "Ties: broken by most rounds with 0 points, then the "
                        "lowest round that was not 0",
                    },
                    "tie_break",
                ),
                games=None,
            ),
            HouseRule(
                "target",
                "Target score",
                ((None, "The game's usual target"),),
                "points",
                lambda rules: None,  # the game's own line says the target
                fixed=False,
                games=POINT_GAMES,
            ),
            HouseRule(
                "all_fives_scale",
                "All Fives: how ends count",
                (
                    ("face", "Face value: ends of 10 score 10 (target 150)"),
                    ("per_five", "One point per five: ends of 10 score 2 (target 61)"),
                ),
                "points",
                _line(
                    {
                        "face": "Points: face value (ends of 10 score 10)",
                        "per_five": "Points: one point per five (ends of 10 score 2)",
                    },
                    "all_fives_scale",
                ),
                games=("all_fives",),
            ),
            HouseRule(
                "fives_threes_scale",
                "Fives and Threes: how ends count",
                (
                    (
                        "pub",
                        "Pub rules: one point per three and per five (15 scores 8); going out "
                        "scores 1; exactly 61 wins",
                    ),
                    (
                        "face",
                        "Face value: the ends' total when it divides by 3 or 5, twice when by "
                        "both (30 scores 60); the winner takes the others' pips; target 251",
                    ),
                ),
                "points",
                _line(
                    {
                        "pub": "Points: one per three and per five (15 scores 8); going out "
                        "scores 1; points that would pass the target are lost",
                        "face": "Points: face value, twice when both 3 and 5 divide (30 scores "
                        "60); the winner of a hand takes the others' pips",
                    },
                    "fives_threes_scale",
                ),
                games=("fives_and_threes",),
            ),
            HouseRule(
                "block_win",
                "The winner of a hand scores",
                (
                    ("opponents", "The other players' pips"),
                    ("minus_own", "The other players' pips minus their own"),
                ),
                "points",
                _line(
                    {
                        "opponents": "The winner of a hand scores the other players' pips",
                        "minus_own": "The winner of a hand scores the other players' pips "
                        "minus their own",
                    },
                    "block_win",
                ),
                games=("draw", "block"),
            ),
            HouseRule(
                "partners",
                "Partnerships",
                (
                    (False, "Everyone plays for themselves"),
                    (
                        True,
                        "Four players, two against two: the 1st and 3rd seat against the 2nd "
                        "and 4th; partners share one score",
                    ),
                ),
                "points",
                _line(
                    {
                        False: None,
                        True: "Partnerships: the 1st and 3rd seat against the 2nd and 4th, one "
                        "score per side",
                    },
                    "partners",
                ),
                games=POINT_GAMES,
            ),
            HouseRule(
                "late_joiner",
                "A player who joins late",
                (
                    ("none", "Starts at 0"),
                    (
                        "highest_total",
                        "Starts with the highest current total at the table (the lowest "
                        "where the highest total wins)",
                    ),
                ),
                "play",
                lambda rules: (
                    "Late joiner: starts at 0"
                    if rules.late_joiner == "none"
                    else "Late joiner: starts with the highest current total"
                    if rules.lower_is_better
                    else "Late joiner: starts with the lowest current total"
                ),
                games=None,
            ),
        )
    }
)

#: Plain labels for the setup form, by field (read from ``HOUSE_RULES``).
RULE_LABELS: Mapping[str, str] = MappingProxyType(
    {name: rule.label for name, rule in HOUSE_RULES.items()}
)
#: For each rule field, the allowed values with a one-line explanation (default first), read from
#: ``HOUSE_RULES``. first_engine also takes any double of the set: see ``first_engine_options``;
#: deal_table "custom" stands for a mapping players -> tiles typed by the group.
RULE_OPTIONS: Mapping[str, tuple[tuple[Any, str], ...]] = MappingProxyType(
    {name: rule.options for name, rule in HOUSE_RULES.items()}
)


class CustomDeal(Mapping[int, int]):
    """A group's own deal numbers, players -> tiles each: a read-only, hashable mapping (so the
    rules stay hashable) that compares equal to a dict with the same numbers."""

    __slots__ = ("_numbers",)

    def __init__(self, numbers: Iterable[tuple[int, int]]) -> None:
        self._numbers = dict(sorted(numbers))

    def __getitem__(self, players: int) -> int:
        return self._numbers[players]

    def __iter__(self) -> Iterator[int]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._numbers == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._numbers.items()))

    def __repr__(self) -> str:
        return f"CustomDeal({self._numbers!r})"


DealTable = str | CustomDeal


def first_engine_options(max_pip: int) -> list[tuple[int | None, str]]:
    """Choices for the first engine on a double-``max_pip`` set: the full game, then every lower
    double (a shortened game plays fewer rounds)."""
    options: list[tuple[int | None, str]] = [(None, f"{max_pip}-{max_pip} (full game)")]
    for number in range(max_pip - 1, -1, -1):
        rounds = number + 1
        word = "round" if rounds == 1 else "rounds"
        options.append((number, f"{number}-{number} ({rounds} {word})"))
    return options


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(name: str, value: object, allowed: Iterable[object]) -> None:
    allowed = tuple(allowed)
    numeric = any(_is_int(a) for a in allowed)
    yes_no = any(isinstance(a, bool) for a in allowed)
    # 25.0 == 25 and False == 0: numeric rules take whole numbers only, yes/no rules booleans.
    if (
        (numeric and not _is_int(value))
        or (yes_no and not isinstance(value, bool))
        or value not in allowed
    ):
        listed = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {listed}, got {value!r}")


def _normalise_deal(value: object) -> DealTable:
    """A preset name stays; a mapping (or pairs) players -> tiles becomes a checked CustomDeal."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, Iterable):
        items = []
        for item in value:
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise ValueError(
                    f"deal_table must be a preset name or a mapping players -> tiles, got {value!r}"
                )
            items.append((item[0], item[1]))
    else:
        raise ValueError(
            f"deal_table must be a preset name or a mapping players -> tiles, got {value!r}"
        )
    pairs: dict[int, int] = {}
    for players, tiles in items:
        # JSON turns integer keys into strings; accept "5" for 5.
        if isinstance(players, str) and players.strip().isdigit():
            players = int(players)
        if not _is_int(players) or players < 2:
            raise ValueError(
                f"deal_table: player counts must be whole numbers >= 2, got {players!r}"
            )
        if not _is_int(tiles) or tiles < 1:
            raise ValueError(
                f"deal_table: tiles for {players} players must be a whole number >= 1, "
                f"got {tiles!r}"
            )
        pairs[players] = tiles
    if not pairs:
        raise ValueError("deal_table: a custom deal needs at least one player count")
    return CustomDeal(pairs.items())


@dataclass(frozen=True)
class HouseRules:
    """The house rules of one game (rules.md 2). Defaults are the rule-book defaults.

    - ``max_pip``/``copies``: the set (double-12, one copy).
    - ``double_blank``: the 0-0 left in hand counts 0, 25 or 50.
    - ``blank_half``: each blank half counts 0 or 25; at 25 the 0-0 counts 50 by the same rule and
      ``double_blank`` is not added on top.
    - ``end_on_double``: going out on a double is "allowed", a "penalty" (+50 to that player) or
      "double_others" (the other players' round scores doubled).
    - ``marker_penalty``: points per open-train marker still out at round end (0, 5, 10, 25).
    - ``going_out_bonus``: 0, -5 or -10 to the player who went out.
    - ``first_engine``/``order``: the round schedule (see ``schedule.engine_schedule``).
    - ``deal_table``: "standard", "cardinal", "fundex", "gamerules" or a custom mapping
      players -> tiles (a dict or pairs; stored as a hashable ``CustomDeal``).
    - ``start_rule``, ``tie_break``, ``late_joiner``: rules.md 2.2 and 2.4 ("lowest_total":
      the lowest running total starts; "zero_rounds": ties broken by most 0 rounds, then the
      lowest round that was not 0).
    - ``length``/``rounds``: "doubles" (one round per engine of the schedule), "fixed" (exactly
      ``rounds`` rounds: stops early, or cycles through the schedule again) or "free" (the
      table ends the game; the engines cycle).
    - ``double_blank_on_top``: with ``blank_half`` counting, the 0-0 also gets ``double_blank``.
    - ``doubles_count``: "face", or "twice" (a double left in hand counts twice its pips).
    - ``blocked_round``: "all_count", or "lowest_zero" (the lowest hand scores 0).
    - ``open_double_penalty``: for a double left open at round end (``OPEN_DOUBLE_PENALTIES``).
    - ``score_by``: "pips", or "arrivals" (1 point per round gone out, the highest total wins).
    - Points games (rules.md 5): ``target`` (None: the game's usual target), how ends count in
      All Fives (``all_fives_scale``) and Fives and Threes (``fives_threes_scale``), what the
      winner of a Draw or Block hand scores (``block_win``), two against two (``partners``:
      seats 1 and 3 against 2 and 4, one score per side).
    """

    max_pip: int = 12
    copies: int = 1
    double_blank: int = 0
    blank_half: int = 0
    end_on_double: str = "allowed"
    marker_penalty: int = 0
    going_out_bonus: int = 0
    first_engine: int | None = None
    order: str = "descending"
    deal_table: str | Mapping[int, int] = "standard"
    start_rule: str = "rotate"
    tie_break: str = "co_winners"
    late_joiner: str = "none"
    double_blank_on_top: bool = False
    length: str = "doubles"
    rounds: int | None = None
    doubles_count: str = "face"
    blocked_round: str = "all_count"
    open_double_penalty: str = "none"
    score_by: str = "pips"
    target: int | None = None
    all_fives_scale: str = "face"
    fives_threes_scale: str = "pub"
    block_win: str = "opponents"
    partners: bool = False

    def __post_init__(self) -> None:
        check_max_pip(self.max_pip)
        for rule in HOUSE_RULES.values():
            if rule.fixed:
                _choice(rule.name, getattr(self, rule.name), rule.values)
        if self.first_engine is not None and (
            not _is_int(self.first_engine) or not 0 <= self.first_engine <= self.max_pip
        ):
            raise ValueError(
                f"first_engine must be None or a double of the set (0 to {self.max_pip}), "
                f"got {self.first_engine!r}"
            )

        if self.target is not None and (
            not _is_int(self.target) or not 1 <= self.target <= MAX_TARGET
        ):
            raise ValueError(f"target: a target score from 1 to {MAX_TARGET}, got {self.target!r}")
        if self.length == "fixed":
            if not _is_int(self.rounds) or not 1 <= self.rounds <= MAX_ROUNDS:  # type: ignore[operator]
                raise ValueError(
                    f"rounds: a game of a set number of rounds needs 1 to {MAX_ROUNDS} rounds, "
                    f"got {self.rounds!r}"
                )
        elif self.rounds is not None:
            raise ValueError("rounds: only a game of a set number of rounds has a number of rounds")
        if self.order == "highest_available":
            doubles = self.highest_engine + 1
            if self.length == "free" or (self.length == "fixed" and self.rounds > doubles):  # type: ignore[operator]
                raise ValueError(
                    "rounds: under “highest available” each double is the engine once: "
                    f"choose at most {doubles} rounds"
                )

        deal = _normalise_deal(self.deal_table)
        if isinstance(deal, str):
            if deal == "custom":
                raise ValueError("deal_table: a custom deal is given as a mapping players -> tiles")
            _choice("deal_table", deal, tuple(DEAL_PRESETS))
        else:
            available = self.domino_set.total_tiles - 1  # the engine is held out
            for players, tiles in deal.items():
                if players * tiles > available:
                    raise ValueError(
                        f"deal_table: {players} players with {tiles} tiles each need "
                        f"{players * tiles + 1} tiles with the engine, but the "
                        f"{set_name(self.max_pip)} set has {available + 1}"
                    )
        object.__setattr__(self, "deal_table", deal)

    @property
    def domino_set(self) -> DominoSet:
        """The set in play."""
        return DominoSet(self.max_pip, self.copies)

    @property
    def highest_engine(self) -> int:
        """The highest double used as an engine: ``first_engine`` or the set's highest double."""
        return self.max_pip if self.first_engine is None else self.first_engine

    @property
    def engine_cycle(self) -> list[int]:
        """One pass of the schedule's engines (rules.md 2.1): the highest double down to 0-0
        ("descending", and the candidates under "highest_available"), 0-0 up ("ascending"),
        or up and back down again ("up_and_back")."""
        top = self.highest_engine
        up = list(range(0, top + 1))
        if self.order == "ascending":
            return up
        if self.order == "up_and_back":
            return up + up[::-1]
        return up[::-1]

    @property
    def open_double_hint(self) -> str:
        """What a double left open costs, in a few words for the round form."""
        added, times = OPEN_DOUBLE_PENALTIES[self.open_double_penalty]
        if added:
            return f"{added} points each"
        return f"the hand counts ×{times}" if times > 1 else "no penalty"

    @property
    def lower_is_better(self) -> bool:
        """True when the lowest total wins (pips); False under arrivals scoring."""
        return self.score_by != "arrivals"

    @property
    def deal_preset(self) -> str:
        """The deal preset name, or "custom" for a typed mapping."""
        return self.deal_table if isinstance(self.deal_table, str) else "custom"

    @property
    def custom_deal(self) -> dict[int, int] | None:
        """The typed deal players -> tiles, or None when a preset is used."""
        return None if isinstance(self.deal_table, str) else dict(self.deal_table)

    def replace(self, **changes: Any) -> HouseRules:
        """A copy with some rules changed (validated like a new one)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return HouseRules(**values)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of every rule; a custom deal becomes {"5": 12, ...}."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        if not isinstance(self.deal_table, str):
            data["deal_table"] = {str(players): tiles for players, tiles in self.deal_table.items()}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """Rebuild rules stored with ``to_dict``. Missing keys take the defaults (rules added later
        keep old games valid); unknown keys raise ValueError."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"Unknown house rules: {', '.join(map(str, unknown))}")
        return cls(**dict(data))

    def describe(self, game: str = "mexican_train") -> list[str]:
        """The "Rules in play" lines shown on the scoreboard, in plain language: the declared
        line (``HOUSE_RULES``) of each rule of ``game``, in order."""
        return [
            line
            for rule in HOUSE_RULES.values()
            if rule.applies_to(game) and (line := rule.in_play(self))
        ]

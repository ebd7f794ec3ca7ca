"""House rules (rules.md 2.1-2.4): the choices a group makes before a game.

Every option is stored with each game (``to_dict`` / ``from_dict``) so old games keep their rules,
and shown on the scoreboard as "Rules in play" (``describe``). ``RULE_OPTIONS`` lists every choice
with a one-line explanation so the setup form can be generated from the domain.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
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

END_ON_DOUBLE = ("allowed", "penalty", "double_others")
ORDERS = ("descending", "ascending", "highest_available")
START_RULES = ("rotate", "engine_holder", "previous_winner", "left_of_setter")
TIE_BREAKS = ("co_winners", "chain")
LATE_JOINERS = ("none", "highest_total")
DOUBLE_BLANK_VALUES = (0, 25, 50)
BLANK_HALF_VALUES = (0, 25)
MARKER_PENALTIES = (0, 5, 10, 25)
GOING_OUT_BONUSES = (0, -5, -10)
COPIES = (1, 2)
#: Extra points for going out on a double under end_on_double="penalty".
END_ON_DOUBLE_PENALTY = 50

#: Plain labels for the setup form, by field.
RULE_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "max_pip": "Set",
        "copies": "Copies of each tile",
        "double_blank": "Double blank (0-0) left in hand",
        "blank_half": "Each blank half left in hand",
        "end_on_double": "Going out on a double",
        "marker_penalty": "Open-train marker still out at round end",
        "going_out_bonus": "Going-out bonus",
        "first_engine": "First engine",
        "order": "Engine order",
        "deal_table": "Tiles to deal",
        "start_rule": "Who starts a round",
        "tie_break": "Tie for the lowest total",
        "late_joiner": "A player who joins late",
    }
)

#: For each rule field, the allowed values with a one-line explanation (default first).
#: first_engine also takes any double of the set: see ``first_engine_options``; deal_table "custom"
#: stands for a mapping players -> tiles typed by the group.
RULE_OPTIONS: Mapping[str, tuple[tuple[Any, str], ...]] = MappingProxyType(
    {
        "max_pip": (
            (12, "Double-12: 91 tiles, 13 rounds, 5-8 players (up to 10)"),
            (6, "Double-6: 28 tiles, 7 rounds, 2-4 players"),
            (9, "Double-9: 55 tiles, 10 rounds, 2-8 players"),
            (15, "Double-15: 136 tiles, 16 rounds, 9-12 players"),
            (18, "Double-18: 190 tiles, 19 rounds, 13-16 players"),
        ),
        "copies": (
            (1, "One set"),
            (2, "Two identical sets mixed: every tile exists twice"),
        ),
        "double_blank": (
            (0, "Counts 0, like its pips"),
            (25, "Counts 25"),
            (50, "Counts 50"),
        ),
        "blank_half": (
            (0, "Counts 0, like its pips"),
            (25, "Counts 25 (the double blank then counts 50)"),
        ),
        "end_on_double": (
            ("allowed", "Allowed, no penalty"),
            ("penalty", "Allowed, but +50 to the player who does it"),
            ("double_others", "The other players' round scores are doubled"),
        ),
        "marker_penalty": (
            (0, "No penalty"),
            (5, "5 points per marker"),
            (10, "10 points per marker"),
            (25, "25 points per marker"),
        ),
        "going_out_bonus": (
            (0, "None"),
            (-5, "5 points off for the player who goes out"),
            (-10, "10 points off for the player who goes out"),
        ),
        "first_engine": ((None, "The set's highest double (full game)"),),
        "order": (
            ("descending", "Highest double first, down to 0-0"),
            ("ascending", "0-0 first, up to the highest double (house option)"),
            (
                "highest_available",
                "Each round the highest double anyone holds that has not been an engine yet",
            ),
        ),
        "deal_table": tuple((name, text) for name, text in PRESET_DESCRIPTIONS.items()),
        "start_rule": (
            (
                "rotate",
                "Rotate clockwise: the engine is taken out before the deal; the seat chosen "
                "for round 1 starts, then the starting seat moves one to the left each round",
            ),
            (
                "engine_holder",
                "Whoever holds the engine places it and starts (the engine is shuffled in "
                "and dealt)",
            ),
            ("previous_winner", "The previous round's winner starts"),
            ("left_of_setter", "The player left of whoever set the engine starts"),
        ),
        "tie_break": (
            ("co_winners", "Players tied for the lowest total are co-winners"),
            (
                "chain",
                "Break ties by most rounds gone out, then lowest worst round, "
                "then lowest final round",
            ),
        ),
        "late_joiner": (
            ("none", "Starts at 0"),
            ("highest_total", "Starts with the highest current total at the table"),
        ),
    }
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
    # 25.0 == 25 and False == 0: numeric rules take whole numbers only.
    if (numeric and not _is_int(value)) or value not in allowed:
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
    - ``start_rule``, ``tie_break``, ``late_joiner``: rules.md 2.2 and 2.4.
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

    def __post_init__(self) -> None:
        check_max_pip(self.max_pip)
        _choice("copies", self.copies, COPIES)
        _choice("double_blank", self.double_blank, DOUBLE_BLANK_VALUES)
        _choice("blank_half", self.blank_half, BLANK_HALF_VALUES)
        _choice("end_on_double", self.end_on_double, END_ON_DOUBLE)
        _choice("marker_penalty", self.marker_penalty, MARKER_PENALTIES)
        _choice("going_out_bonus", self.going_out_bonus, GOING_OUT_BONUSES)
        if self.first_engine is not None and (
            not _is_int(self.first_engine) or not 0 <= self.first_engine <= self.max_pip
        ):
            raise ValueError(
                f"first_engine must be None or a double of the set (0 to {self.max_pip}), "
                f"got {self.first_engine!r}"
            )
        _choice("order", self.order, ORDERS)
        _choice("start_rule", self.start_rule, START_RULES)
        _choice("tie_break", self.tie_break, TIE_BREAKS)
        _choice("late_joiner", self.late_joiner, LATE_JOINERS)

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

    def describe(self) -> list[str]:
        """The "Rules in play" lines shown on the scoreboard, in plain language."""
        lines: list[str] = []
        if self.copies == 1:
            lines.append(f"Set: {set_name(self.max_pip)}")
        else:
            lines.append(f"Set: two {set_name(self.max_pip)} sets mixed (every tile twice)")

        top = self.highest_engine
        rounds = top + 1
        word = "round" if rounds == 1 else "rounds"
        short = " (shortened game)" if top < self.max_pip else ""
        if self.order == "descending":
            lines.append(f"Engines: {top}-{top} down to 0-0, {rounds} {word}{short}")
        elif self.order == "ascending":
            lines.append(f"Engines: 0-0 up to {top}-{top}, {rounds} {word}{short}")
        else:
            lines.append(
                "Engines: each round the highest double anyone holds that has not been an "
                f"engine yet, {rounds} {word}{short}"
            )

        if self.blank_half:
            lines.append(
                f"Blank halves count {self.blank_half} each; double blank counts "
                f"{2 * self.blank_half}"
            )
        else:
            lines.append(f"Double blank counts {self.double_blank}")

        lines.append(
            {
                "allowed": "Going out on a double: allowed, no penalty",
                "penalty": f"Going out on a double: +{END_ON_DOUBLE_PENALTY} to the player who "
                "does it",
                "double_others": "Going out on a double: others' scores doubled",
            }[self.end_on_double]
        )
        if self.marker_penalty:
            lines.append(f"Open-train markers still out: {self.marker_penalty} points each")
        else:
            lines.append("Open-train markers still out: no penalty")
        if self.going_out_bonus:
            lines.append(f"Going-out bonus: {self.going_out_bonus} to the player who goes out")
        else:
            lines.append("Going-out bonus: none")

        if isinstance(self.deal_table, str):
            if self.copies > 1:
                lines.append("Deal: computed suggestion (the tables are for one set)")
            elif self.deal_table == "standard":
                lines.append("Deal: standard table")
            elif self.max_pip == PRESET_MAX_PIP:
                lines.append(f"Deal: {self.deal_table} sheet")
            else:
                lines.append(
                    f"Deal: standard table (the {self.deal_table} sheet is for one double-12 set)"
                )
        else:
            numbers = ", ".join(f"{p} players {t}" for p, t in self.deal_table.items())
            lines.append(f"Deal: custom ({numbers})")

        lines.append(
            {
                "engine_holder": "Who starts: whoever holds the engine",
                "rotate": "Who starts: rotates clockwise, one seat to the left each round",
                "previous_winner": "Who starts: the previous round's winner",
                "left_of_setter": "Who starts: the player left of whoever set the engine",
            }[self.start_rule]
        )
        if self.tie_break == "co_winners":
            lines.append("Ties: co-winners")
        else:
            lines.append(
                "Ties: broken by most rounds gone out, then lowest worst round, "
                "then lowest final round"
            )
        if self.late_joiner == "highest_total":
            lines.append("Late joiner: starts with the highest current total")
        else:
            lines.append("Late joiner: starts at 0")
        return lines

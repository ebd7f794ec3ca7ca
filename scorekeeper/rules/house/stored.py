"""The house rules of one game as stored (rules.md 2.1-2.4): ``HouseRules``, the choices a
group makes before a game, one flat value every game shares (which of its fields a game offers
is in the game's declaration, ``rules.games``).

Every option is stored with each game (``to_dict`` / ``from_dict``) so old games keep their rules,
and shown on the scoreboard as "Rules in play" (``describe``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from scorekeeper.rules.house.declaration import HOUSE_RULES, first_game, offered
from scorekeeper.rules.house.texts import (
    DEAL_PRESETS,
    MAX_ROUNDS,
    MAX_TARGET,
    OPEN_DOUBLE_PENALTIES,
)
from scorekeeper.rules.tiles import DominoSet, check_max_pip, set_name
from scorekeeper.rules.words import _, ngettext

__all__ = ["CustomDeal", "DealTable", "HouseRules", "first_engine_options"]


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
    options: list[tuple[int | None, str]] = [
        (None, _("%(tile)s (full game)", tile=f"{max_pip}-{max_pip}"))
    ]
    for number in range(max_pip - 1, -1, -1):
        options.append(
            (
                number,
                ngettext(
                    "%(tile)s (%(num)s round)",
                    "%(tile)s (%(num)s rounds)",
                    number + 1,
                    tile=f"{number}-{number}",
                ),
            )
        )
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
      seats 1 and 3 against 2 and 4, one score per side); how the winner of an All Fives hand
      rounds the others' pips (``all_fives_rounding``) and scores a blocked hand
      (``all_fives_blocked``); who wins a Block hand blocked with a tie for lowest
      (``block_tie``).
    - ``losing_total`` (Chicken Foot): the game ends after the round in which someone reaches
      it (None: the schedule's rounds only).

    A rule added later reads as its default from the JSON of a game stored before it
    (``from_dict``), and every default is the scoring the app had before: old games keep
    their scores.
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
    all_fives_rounding: str = "together_nearest"
    all_fives_blocked: str = "others"
    block_tie: str = "nobody"
    losing_total: int | None = None

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
        if self.losing_total is not None and (
            not _is_int(self.losing_total) or not 1 <= self.losing_total <= MAX_TARGET
        ):
            raise ValueError(
                f"losing_total: a total from 1 to {MAX_TARGET}, got {self.losing_total!r}"
            )
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
                # Said to the table at setup; the field's name leads, as in every refusal here.
                raise ValueError(
                    "rounds: "
                    + _(
                        "under “highest available” each double is the engine once: choose at "
                        "most %(rounds)s rounds",
                        rounds=doubles,
                    )
                )

        object.__setattr__(self, "deal_table", self._checked_deal())

    def _checked_deal(self) -> DealTable:
        """The deal checked: a preset's name, or a custom deal the set can deal with the
        engine held out."""
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
                        "deal_table: "
                        + _(
                            "%(players)s players with %(tiles)s tiles each need %(need)s tiles "
                            "with the engine, but the %(set)s set has %(has)s",
                            players=players,
                            tiles=tiles,
                            need=players * tiles + 1,
                            set=set_name(self.max_pip),
                            has=available + 1,
                        )
                    )
        return deal

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
        up and back down again ("up_and_back"), or down and back up ("down_and_up")."""
        top = self.highest_engine
        up = list(range(0, top + 1))
        if self.order == "ascending":
            return up
        if self.order == "up_and_back":
            return up + up[::-1]
        if self.order == "down_and_up":
            return up[::-1] + up
        return up[::-1]

    @property
    def open_double_hint(self) -> str:
        """What a double left open costs, in a few words for the round form."""
        added, times = OPEN_DOUBLE_PENALTIES[self.open_double_penalty]
        if added:
            return _("%(points)s points each", points=added)
        if times > 1:
            return _("the hand counts ×%(times)s", times=times)
        return _("no penalty")

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

    def describe(self, game: str | None = None) -> list[str]:
        """The "Rules in play" lines shown on the scoreboard, in plain language: the declared
        line of each rule ``game`` offers (None: the default game), in its order."""
        return [
            line for rule in offered(game or first_game() or "") if (line := rule.in_play(self))
        ]

"""What a game declares (``GameVariant``): everything the app needs to know about one domino
game, in one value. Each game's module (``rules.games.<game>``) builds one; the registry
(``rules.games``) collects them, and every list of games the app keeps is read from there.

What a declaration provides (CONTRIBUTING.md walks through adding a game):

- ``name`` (stored with each game) and ``label`` (shown to people), a one-line ``description``;
- ``lower_is_better``: whether the lowest total wins (Mexican Train) or the highest (points
  games); ``target`` and ``game_over``: the end of a game by its totals;
- ``round_count(rules)``: how many rounds a full game has (None: the table decides when the
  game ends); ``engine_for_round(number, rules)``: the double that starts round ``number``
  (None when the table chooses it each round); ``uses_engines``;
- ``deal_plan(players, rules)``: tiles to deal and the boneyard left; ``sheets``: its own deal
  sheets with their sources (``sheets.GameSheets``);
- ``starter_text(...)``: who starts a round, as a sentence;
- ``check_round(entry, context, partial)``: the round checks and the round's scores (the end of
  a hand); ``scoreboard(seats, rounds, rules)``: totals, ranks, movement, round wins, winners;
- ``house_rules``: the house rules it offers, as it words them, in "Rules in play" order
  (``rules.house``), and ``default_rules``: the choices a new game of this kind starts with;
- its words: ``round_word`` ("Round" or "Hand"), ``hub`` (the round's double in a hub or in
  the middle of the table), ``in_play`` and ``table_notes``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.games.sheets import GameSheets
from scorekeeper.rules.house import HOUSE_RULES, HouseRule, HouseRules
from scorekeeper.rules.round_check import RoundCheck, RoundContext, RoundInput
from scorekeeper.rules.schedule import DealPlan
from scorekeeper.rules.scoreboard import Board
from scorekeeper.rules.words import LazyText


def _no_notes(players: int, rules: HouseRules) -> list[str]:
    return []


def _never_over(totals: Sequence[int], rules: HouseRules) -> bool:
    return False


def _no_target(rules: HouseRules) -> int | None:
    return None


@dataclass(frozen=True, kw_only=True)
class GameVariant:
    """One domino game the app scores (see the module docstring for each part)."""

    name: str
    label: LazyText  # declared with ``lazy``: worded when shown
    description: LazyText
    lower_is_better: bool
    round_count: Callable[[HouseRules], int | None]
    engine_for_round: Callable[[int, HouseRules], int | None]
    deal_plan: Callable[[int, HouseRules], DealPlan]
    starter_text: Callable[..., str]
    check_round: Callable[[RoundInput, RoundContext, bool], RoundCheck]
    scoreboard: Callable[..., Board]  # (seats, rounds, rules, start=None)
    #: The house rules the game offers, as it words them, in "Rules in play" order.
    house_rules: tuple[HouseRule, ...]
    #: Its own deal sheets and their sources (none: the named presets).
    sheets: GameSheets = field(default_factory=GameSheets)
    #: "Rules in play": the game's own lines and the house rules it offers (None: the rules'
    #: lines alone).
    in_play: Callable[[HouseRules], list[str]] | None = None
    #: Each round is started by an engine double (train games).
    uses_engines: bool = True
    #: Points are made during play (the round form asks for them).
    makes_points: bool = False
    #: What a round is called at the table ("Round", "Hand"): a key the web layer words (it
    #: picks its own sentences by it), never shown as it is.
    round_word: str = "Round"
    #: The round's double goes in a hub the trains start from (Mexican Train); False: in the
    #: middle of the table (Chicken Foot has no hub), and the table's sentences say so.
    hub: bool = True
    #: House rules a new game of this kind starts with (over the rule book's defaults).
    default_rules: Mapping[str, Any] = field(default_factory=dict)
    #: What the table needs before a round besides the engine: the deal, the spinner rule, ...
    table_notes: Callable[[int, HouseRules], list[str]] = _no_notes
    #: The game ends after a round because of the totals (a target reached).
    game_over: Callable[[Sequence[int], HouseRules], bool] = _never_over
    #: The target score (None: the game ends after its rounds).
    target: Callable[[HouseRules], int | None] = _no_target
    #: What a family of games declares for its own functions (a points game's ``PointGame``).
    family: Any = None

    def __post_init__(self) -> None:
        if self.in_play is None:  # the rules' lines alone
            object.__setattr__(self, "in_play", lambda rules: rules.describe(self.name))

    def offers(self, name: str) -> bool:
        """Whether the game offers house rule ``name``."""
        return any(rule.name == name for rule in self.house_rules)

    def describe(self, rules: HouseRules) -> list[str]:
        """The "Rules in play" lines."""
        return self.in_play(rules)  # type: ignore[misc]

    def adopt(self, base: HouseRules) -> HouseRules:
        """Another game's rules (a league's) made this game's: the rules that are not part of
        this game go back to the rule book's defaults, this game's own defaults apply, the rest
        stays as chosen."""
        values = base.to_dict()
        offered = {rule.name: rule for rule in self.house_rules}
        for name, rule in HOUSE_RULES.items():
            own = offered.get(name)
            if own is None:
                values[name] = rule.default
            elif own.fixed and values[name] not in {value for value, _ in own.options}:
                # A choice this game does not offer (a league's tie-break chain for a game
                # where the highest total wins): the game's own default.
                values[name] = own.default
        if not self.offers("order") or self.sheets.own:
            values["deal_table"] = "standard"  # the game's own sheet
        return HouseRules.from_dict({**values, **self.default_rules})

    def new_rules(self, **chosen: Any) -> HouseRules:
        """The rules of a new game: the rule book's defaults, this game's own defaults, then what
        the group chose."""
        return HouseRules(**{**self.default_rules, **chosen})

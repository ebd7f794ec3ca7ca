"""Game variants: each domino game the app can score, declared once (rules.md 1-5).

A game row stores its variant's name (``Game.kind``); everything that depends on which game is
played goes through the variant's declaration, so a new game is one more entry here plus its
rules, never a new branch in the services or the templates. Mexican Train is the first entry.

What a variant provides (docs/architecture.md says the same for a new contributor):

- ``name`` (stored with each game) and ``label`` (shown to people), a one-line ``description``;
- ``lower_is_better``: whether the lowest total wins (Mexican Train) or the highest (points
  games);
- ``round_count(rules)``: how many rounds a full game has (None: the table decides when the
  game ends);
- ``engine_for_round(number, rules)``: the double that starts round ``number`` (None when the
  table chooses it each round);
- ``deal_plan(players, rules)``: tiles to deal and the boneyard left;
- ``starter_text(...)``: who starts a round, as a sentence;
- ``check_round(entry, context, partial)``: the round checks and the round's scores;
- ``scoreboard(seats, rounds, rules)``: totals, ranks, movement, round wins and winners.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

from scorekeeper.rules import point_games, point_hands
from scorekeeper.rules.deal_sheets import GAME_SHEETS, sheet_for
from scorekeeper.rules.house import HOUSE_RULES, HouseRules
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
from scorekeeper.rules.scoreboard import Board, scoreboard
from scorekeeper.rules.words import LazyText, _, lazy, ngettext


def _no_notes(players: int, rules: HouseRules) -> list[str]:
    return []


def _never_over(totals: Sequence[int], rules: HouseRules) -> bool:
    return False


def _no_target(rules: HouseRules) -> int | None:
    return None


@dataclass(frozen=True)
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
    #: "Rules in play": the game's own lines and the house rules that belong to it.
    in_play: Callable[[HouseRules], list[str]] = lambda rules: rules.describe()
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

    def adopt(self, base: HouseRules) -> HouseRules:
        """Another game's rules (a league's) made this game's: the rules that are not part of
        this game go back to the rule book's defaults, this game's own defaults apply, the rest
        stays as chosen."""
        values = base.to_dict()
        for name, rule in HOUSE_RULES.items():
            if not rule.applies_to(self.name):
                values[name] = rule.default
            elif rule.fixed and values[name] not in dict(rule.options_in(self.name)):
                # A choice this game does not offer (a league's tie-break chain for a game
                # where the highest total wins): the game's own default.
                values[name] = rule.default_in(self.name)
        if not HOUSE_RULES["order"].applies_to(self.name) or self.name in GAME_SHEETS:
            values["deal_table"] = "standard"  # the game's own sheet
        return HouseRules.from_dict({**values, **self.default_rules})

    def new_rules(self, **chosen: Any) -> HouseRules:
        """The rules of a new game: the rule book's defaults, this game's own defaults, then what
        the group chose."""
        return HouseRules(**{**self.default_rules, **chosen})


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
)

#: Chicken Foot's deal on its usual double-9 set (engine placed by whoever holds it); its
#: other sheets are in ``deal_sheets.GAME_SHEETS``.
CHICKEN_FOOT_DEAL = sheet_for("chicken_foot", 9)
CHICKEN_FOOT_SPINNER = lazy(
    "The round's double is the centre: four tiles go on it, one on each side, before "
    "anything else; every double played after is a chicken foot: three tiles on it (the toes) "
    "before play goes anywhere else"
)


def _chicken_foot_deal(players: int, rules: HouseRules) -> DealPlan:
    """Chicken Foot deals from its own sheets (``deal_sheets``: 5 each on a double-6 set; 9,
    then 7, then 6 each on a double-9), never from Mexican Train's: on a set without a Chicken
    Foot sheet the computed suggestion, said as such. The group's own number, or a Mexican
    Train sheet chosen for the game before Chicken Foot had its own, deals as chosen."""
    if rules.custom_deal is not None or rules.deal_table != "standard":
        return deal_plan(players, rules)
    deal_plan(players, rules.replace(deal_table={players: 1}))  # the set's player limits
    sheet = sheet_for("chicken_foot", rules.max_pip, rules.copies)
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


def _chicken_foot_over(totals: Sequence[int], rules: HouseRules) -> bool:
    """Chicken Foot to a losing total: the game ends at the end of the round in which someone
    reaches it; the lowest total wins."""
    return rules.losing_total is not None and any(t >= rules.losing_total for t in totals)


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
    deal_plan=_chicken_foot_deal,
    starter_text=partial(starter_text, hub=False),
    check_round=_check_round,
    scoreboard=scoreboard,
    hub=False,
    in_play=lambda rules: (
        [_("Game: %(game)s", game=_("Chicken Foot")), str(CHICKEN_FOOT_SPINNER)]
        + rules.describe("chicken_foot")
    ),
    default_rules=MappingProxyType(
        {"max_pip": 9, "double_blank": 50, "start_rule": "engine_holder"}
    ),
    table_notes=lambda players, rules: (
        [str(CHICKEN_FOOT_SPINNER)]
        + (
            [
                _(
                    "The game ends at the end of the round in which someone reaches "
                    "%(total)s: the lowest total wins",
                    total=rules.losing_total,
                )
            ]
            if rules.losing_total
            else []
        )
    ),
    game_over=_chicken_foot_over,
    target=lambda rules: rules.losing_total,
)


def _points_variant(game: str) -> GameVariant:
    spec = point_games.GAMES[game]

    def check(entry: RoundInput, context: RoundContext, partial: bool) -> RoundCheck:
        return point_hands.check_hand(game, entry, context, partial)

    def board(
        seats: int, rounds: Sequence[Any], rules: HouseRules, start: Sequence[int] | None = None
    ) -> Board:
        return point_hands.points_scoreboard(game, seats, rounds, rules, start)

    return GameVariant(
        name=game,
        label=spec.label,
        description=spec.description,
        lower_is_better=False,
        round_count=lambda rules: None,
        engine_for_round=lambda number, rules: None,
        deal_plan=lambda players, rules: point_games.deal_plan(game, players, rules),
        starter_text=point_games.starter_text,
        check_round=check,
        scoreboard=board,
        in_play=lambda rules: point_games.in_play(game, rules),
        uses_engines=False,
        makes_points=spec.makes_points,
        round_word="Hand",
        default_rules=MappingProxyType({"max_pip": point_games.DEAL_SET}),
        table_notes=lambda players, rules: point_games.table_notes(game, players, rules),
        game_over=lambda totals, rules: point_games.game_over(game, totals, rules),
        target=lambda rules: point_games.target(game, rules),
    )


VARIANTS: Mapping[str, GameVariant] = MappingProxyType(
    {
        variant.name: variant
        for variant in (
            MEXICAN_TRAIN,
            CHICKEN_FOOT,
            *(_points_variant(game) for game in point_games.GAMES),
        )
    }
)


def variant_named(name: str) -> GameVariant:
    """The variant stored as ``name``; raises ValueError for a game this version cannot score."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"Unknown game: {name!r}") from None


WHO_WINS_RULES = ("score_by",)  # the only stored house rules ``higher_wins`` looks at


def higher_wins(kind: str, rules: Mapping[str, object] | None) -> bool:
    """Whether the highest total wins a game of ``kind`` under its stored house rules (the
    points games; arrivals scoring). An unknown kind is scored as Mexican Train. It reads only
    the rules named in ``WHO_WINS_RULES`` (league standings read just those from the
    database)."""
    variant = VARIANTS.get(kind)
    if variant is not None and not variant.lower_is_better:
        return True
    return bool(rules) and rules.get("score_by") == "arrivals"  # type: ignore[union-attr]

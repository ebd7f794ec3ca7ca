"""The points games of rules.md 5: All Fives (Muggins), Fives and Threes, Draw and Block.

Points are won, the highest total wins, and a game ends when someone reaches the target at the
end of a hand. The scorekeeper records, for each player and hand, the points made during play
(All Fives, Fives and Threes: the ends added up to a multiple of 5, or of 3 and 5) and the pips
left in hand at the end; the winner of the hand (who went out, or the lowest hand when
blocked) gets the hand's bonus. Standard library only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from scorekeeper.rules.deal_sheets import sheet_for
from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.schedule import DealPlan, computed_deal, max_players
from scorekeeper.rules.tiles import set_name
from scorekeeper.rules.words import LazyText, _, lazy, ngettext

P = TypeVar("P", bound=Hashable)

#: The double-6 deal of each game (rules.md 5 and the pub rule sheets): players -> tiles each.
#: Every sheet of each game is in ``deal_sheets.GAME_SHEETS``.
DEALS: Mapping[str, Mapping[int, int]] = MappingProxyType(
    {game: sheet_for(game, 6) for game in ("all_fives", "fives_and_threes", "draw", "block")}
)
#: The set the deals are written for.
DEAL_SET = 6
#: Fives and Threes scales scored one point per three and per five, going out 1.
PUB_SCALES = ("pub", "pub_100")
_PLAIN = HouseRules(max_pip=DEAL_SET)


@dataclass(frozen=True)
class PointGame:
    """What differs between the points games: the deal, drawing, the spinner rule, how play
    makes points, what the winner of a hand gets, the target."""

    name: str
    label: LazyText
    description: LazyText
    draws: bool  # a player who cannot play draws from the boneyard
    makes_points: bool  # points are made during play
    spinner: LazyText


GAMES: Mapping[str, PointGame] = MappingProxyType(
    {
        game.name: game
        for game in (
            PointGame(
                "all_fives",
                lazy("All Fives (Muggins)"),
                lazy(
                    "Double-6, 2-4 players: score when the ends add up to a multiple of 5; the "
                    "winner of a hand scores the others' pips rounded to 5; first to 150 wins."
                ),
                draws=True,
                makes_points=True,
                spinner=lazy(
                    "The first double is the spinner: tiles go on all four sides of it. A "
                    "double at an end counts both halves"
                ),
            ),
            PointGame(
                "fives_and_threes",
                lazy("Fives and Threes"),
                lazy(
                    "Double-6, 2-4 players: score when the ends add up to a multiple of 3 or 5 "
                    "(15 scores 8); going out scores 1; exactly 61 wins."
                ),
                draws=False,
                makes_points=True,
                spinner=lazy(
                    "No spinner: the line has two ends. A double is laid crosswise and "
                    "counts both halves at an end"
                ),
            ),
            PointGame(
                "draw",
                lazy("Draw"),
                lazy(
                    "Double-6, 2-4 players, drawing when you cannot play: the winner of a hand "
                    "scores the others' pips; first to 100 wins."
                ),
                draws=True,
                makes_points=False,
                spinner=lazy("No spinner: the line has two ends; doubles are laid crosswise"),
            ),
            PointGame(
                "block",
                lazy("Block"),
                lazy(
                    "Double-6, 2-4 players, no drawing: the winner of a hand scores the others' "
                    "pips; first to 100 wins."
                ),
                draws=False,
                makes_points=False,
                spinner=lazy("No spinner: the line has two ends; doubles are laid crosswise"),
            ),
        )
    }
)


# --- Points during play -------------------------------------------------------------------------


def all_fives_points(ends: int, rules: HouseRules = _PLAIN) -> int:
    """What a play scores in All Fives when the open ends add up to ``ends``: a multiple of 5
    scores its face value (or one point per five), anything else 0."""
    if ends <= 0 or ends % 5:
        return 0
    return ends if rules.all_fives_scale == "face" else ends // 5


def fives_and_threes_points(ends: int, rules: HouseRules = _PLAIN) -> int:
    """What a play scores in Fives and Threes when the open ends add up to ``ends``. Pub rules:
    ends/3 when 3 divides them plus ends/5 when 5 does (15 scores 3 + 5 = 8). Face value: the
    total when 3 or 5 divides it, twice when both do (30 scores 60)."""
    if ends <= 0:
        return 0
    by_three, by_five = ends % 3 == 0, ends % 5 == 0
    if rules.fives_threes_scale in PUB_SCALES:
        return (ends // 3 if by_three else 0) + (ends // 5 if by_five else 0)
    if by_three and by_five:
        return 2 * ends
    return ends if by_three or by_five else 0


def nearest_five(pips: int) -> int:
    """Pips rounded to the nearest 5, halves up: ``5 * floor((x + 2) / 5)`` (rules.md 5)."""
    return 5 * ((pips + 2) // 5)


def five_below(pips: int) -> int:
    """Pips rounded down to a 5: ``5 * floor(x / 5)`` (29 -> 25)."""
    return 5 * (pips // 5)


def all_fives_bonus(opponents: Sequence[int], own: int, rules: HouseRules = _PLAIN) -> int:
    """What the winner of an All Fives hand scores from the pips left (rules.md 5 and the
    published conventions of ``all_fives_rounding``): the opponents' pips added up and rounded
    to the nearest 5 (the rule book), or each opponent's hand rounded on its own, or rounded
    down instead of to the nearest 5. ``own`` is taken off first (a blocked hand under
    ``all_fives_blocked`` "minus_own"; rounded on its own like each opponent's hand). On the
    one-point scale the result counts one point per five. Never below 0."""
    rounding = rules.all_fives_rounding
    to_five = five_below if rounding.endswith("_down") else nearest_five
    if rounding.startswith("each"):
        bonus = sum(to_five(pips) for pips in opponents) - to_five(own)
    else:
        bonus = to_five(max(sum(opponents) - own, 0))
    bonus = max(bonus, 0)
    return bonus // 5 if rules.all_fives_scale == "per_five" else bonus


# --- The end of a hand --------------------------------------------------------------------------


def hand_winner(
    hands: Mapping[P, int],
    went_out: P | None,
    lightest: Mapping[P, int | None] | None = None,
) -> P | None:
    """Who won the hand: the player who went out; in a blocked hand the one lowest hand. A tie
    for lowest: nobody, unless ``lightest`` (each player's lightest single tile, None when
    not known) is given (Block under ``block_tie`` "lightest_tile"): then the tied player
    holding the one lightest tile wins, when every tied player's tiles are known."""
    if went_out is not None:
        return went_out
    if not hands:
        return None
    lowest = min(hands.values())
    holders = [player for player, pips in hands.items() if pips == lowest]
    if len(holders) == 1:
        return holders[0]
    if lightest is None:
        return None
    tiles = [lightest.get(player) for player in holders]
    if any(tile is None for tile in tiles):
        return None
    least = min(tiles)  # type: ignore[type-var]
    by_tile = [player for player, tile in zip(holders, tiles, strict=True) if tile == least]
    return by_tile[0] if len(by_tile) == 1 else None


def hand_bonus(
    game: str,
    hands: Mapping[P, int],
    went_out: P | None,
    rules: HouseRules,
    lightest: Mapping[P, int | None] | None = None,
) -> dict[P, int]:
    """What the winner of a hand scores at its end (rules.md 5), by player (only the winner).

    - All Fives: the others' pips rounded to the nearest 5 (one point per five on that scale;
      ``all_fives_bonus`` for the house rules on rounding and blocked hands).
    - Fives and Threes, pub rules: 1 for going out, nothing in a blocked hand; face value: the
      others' pips.
    - Draw and Block: the others' pips (``block_win`` "minus_own": minus the winner's own).
    A blocked hand with a tie for the lowest hand scores nothing (in Block under ``block_tie``
    "lightest_tile", the tied player with the lightest single tile wins it: ``lightest``).
    """
    tie_rule = game == "block" and rules.block_tie == "lightest_tile"
    winner = hand_winner(hands, went_out, lightest if tie_rule else None)
    if winner is None:
        return {}
    others = sum(pips for player, pips in hands.items() if player != winner)
    if game == "all_fives":
        blocked_minus = went_out is None and rules.all_fives_blocked == "minus_own"
        bonus = all_fives_bonus(
            [pips for player, pips in hands.items() if player != winner],
            hands[winner] if blocked_minus else 0,
            rules,
        )
    elif game == "fives_and_threes" and rules.fives_threes_scale in PUB_SCALES:
        bonus = 1 if went_out is not None else 0
    elif game == "fives_and_threes":
        bonus = others
    else:
        bonus = others - (hands[winner] if rules.block_win == "minus_own" else 0)
    return {winner: max(bonus, 0)}


def target(game: str, rules: HouseRules) -> int:
    """The score that ends the game: the group's ``target``, or the game's usual one (All Fives
    150, or 61 on the one-point scale; Fives and Threes 61, or 251 at face value; Draw and
    Block 100)."""
    if rules.target is not None:
        return rules.target
    if game == "all_fives":
        return 150 if rules.all_fives_scale == "face" else 61
    if game == "fives_and_threes":
        return {"pub": 61, "pub_100": 100}.get(rules.fives_threes_scale, 251)
    return 100


def exact_target(game: str, rules: HouseRules) -> bool:
    """Fives and Threes pub rules: the target must be hit exactly; points that would pass it
    are lost."""
    return game == "fives_and_threes" and rules.fives_threes_scale == "pub"


def hand_needs_pips(game: str, rules: HouseRules) -> bool:
    """Whether the pips left in hand count: everywhere but Fives and Threes pub rules, where the
    end of a hand gives only the point for going out."""
    return not (game == "fives_and_threes" and rules.fives_threes_scale in PUB_SCALES)


def side_of(position: int) -> int:
    """The side of a seat in a partnership game: the 1st and 3rd seat (positions 0 and 2) are
    side 0, the 2nd and 4th side 1."""
    return position % 2


def score_points_hand(
    game: str,
    made: Mapping[P, int],
    hands: Mapping[P, int],
    went_out: P | None,
    rules: HouseRules,
    totals: Mapping[P, int] | None = None,
    sides: Mapping[P, int] | None = None,
    lightest: Mapping[P, int | None] | None = None,
) -> tuple[dict[P, int], dict[P, int]]:
    """Each player's score for one hand: the points made during play plus the winner's bonus.
    Under an exact target the points that would take a total past it are lost: returns the
    scores and, by player, the points lost.

    With ``sides`` (partnerships) the sides play as one: their points made and pips left add
    up, the side of the player who went out (or the side with fewer pips when blocked) wins the
    hand, and both partners get the side's score, so they share one total (a side's lightest
    tile is the lighter of its partners')."""
    if sides is not None:
        team_made: dict[int, int] = {}
        team_hands: dict[int, int] = {}
        team_lightest: dict[int, int | None] = {}
        for player, pips in hands.items():
            side = sides[player]
            team_made[side] = team_made.get(side, 0) + made.get(player, 0)
            team_hands[side] = team_hands.get(side, 0) + pips
            tile = (lightest or {}).get(player)
            known = team_lightest.get(side, tile) if side in team_lightest else tile
            team_lightest[side] = None if tile is None or known is None else min(tile, known)
        team_totals = {sides[player]: total for player, total in (totals or {}).items()}
        out_side = sides[went_out] if went_out is not None else None
        team_scores, team_lost = score_points_hand(
            game,
            team_made,
            team_hands,
            out_side,
            rules,
            team_totals,
            lightest=team_lightest if lightest is not None else None,
        )
        scores = {player: team_scores[sides[player]] for player in hands}
        lost = {player: team_lost[sides[player]] for player in hands if sides[player] in team_lost}
        return scores, lost
    bonus = hand_bonus(game, hands, went_out, rules, lightest)
    goal = target(game, rules)
    scores = {}
    lost = {}
    for player in hands:
        score = made.get(player, 0) + bonus.get(player, 0)
        before = (totals or {}).get(player, 0)
        if exact_target(game, rules) and before + score > goal:
            lost[player] = score
            score = 0
        scores[player] = score
    return scores, lost


def game_over(game: str, totals: Sequence[int], rules: HouseRules) -> bool:
    """True when someone has reached the target at the end of a hand (exactly, under an exact
    target). Under ``tie_break`` "another_hand" a tie for the highest total among those who
    reached it is played off: the game goes on until one player (one side, in partnerships)
    is ahead."""
    goal = target(game, rules)
    if exact_target(game, rules):
        reached = goal in totals
    else:
        reached = any(total >= goal for total in totals)
    if not reached or rules.tie_break != "another_hand" or exact_target(game, rules):
        # At an exact target another hand cannot part players tied on it: the tie stands.
        return reached
    # Partners share one total: seats 1 and 3 (positions 0, 2) hold one side's, 2 and 4 the other's.
    scores = list(totals[:2]) if rules.partners and len(totals) == 4 else list(totals)
    return scores.count(max(scores)) == 1


# --- The table ---------------------------------------------------------------------------------


def deal_plan(game: str, players: int, rules: HouseRules) -> DealPlan:
    """Tiles each and the boneyard: the group's own number, the game's sheet for the set
    (``deal_sheets``: double-6 for every game; Block also double-9 for 5-7 players and
    double-12 for 8-10), or the computed suggestion elsewhere. No engine is held out."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(_("%(game)s needs at least 2 players", game=GAMES[game].label))
    if rules.partners and players != 4:
        raise ValueError(_("Partnerships need four players: two against two"))
    dominoes = rules.domino_set
    limit = 4 if rules.max_pip == DEAL_SET and rules.copies == 1 else max_players(rules.max_pip)
    if players > limit:
        raise ValueError(
            _(
                "%(game)s with a %(set)s set is for at most %(limit)s players",
                game=GAMES[game].label,
                set=dominoes.name,
                limit=limit,
            )
        )
    warnings: list[str] = []
    custom = rules.custom_deal
    table = sheet_for(game, rules.max_pip, rules.copies)
    if custom is not None and players in custom:
        tiles, source = custom[players], "custom"
    elif players in table:
        tiles, source = table[players], "table"
    else:
        tiles, source = computed_deal(dominoes.total_tiles + 1, players), "computed"
        warnings.append(
            _(
                "%(tiles)s tiles each is a computed suggestion for %(players)s players with a "
                "%(set)s set",
                tiles=tiles,
                players=players,
                set=set_name(rules.max_pip),
            )
        )
    boneyard = dominoes.total_tiles - players * tiles
    if boneyard < 0:
        raise ValueError(
            _(
                "%(players)s players with %(tiles)s tiles each need %(need)s tiles, but the "
                "%(set)s set has %(has)s",
                players=players,
                tiles=tiles,
                need=players * tiles,
                set=dominoes.name,
                has=dominoes.total_tiles,
            )
        )
    return DealPlan(players, tiles, boneyard, source, warnings)


def lead_seat(number: int, seats: int, first_starter: int = 0) -> int:
    """Who leads hand ``number``: the seat chosen for the first hand, then the lead passes to
    the left each hand."""
    return (first_starter + number - 1) % seats


def starter_text(
    round_number: int,
    players: Sequence[str],
    rules: HouseRules,
    engine: int | None = None,
    first_starter: int = 0,
    **_context: object,
) -> str:
    """Who leads, as a sentence: "Ann leads with any tile"."""
    seat = lead_seat(round_number, len(players), first_starter)
    return _("%(player)s leads with any tile", player=players[seat])


def table_notes(game: str, players: int, rules: HouseRules) -> list[str]:
    """What the table needs before a hand: the deal, the boneyard, the spinner rule, how play
    scores and the target."""
    spec = GAMES[game]
    plan = deal_plan(game, players, rules)
    if spec.draws:
        deal = ngettext(
            "Shuffle, deal %(tiles)s each; %(num)s stays face down: draw one when you cannot play",
            "Shuffle, deal %(tiles)s each; %(num)s stay face down: draw one when you cannot play",
            plan.boneyard,
            tiles=plan.tiles_each,
        )
    else:
        deal = ngettext(
            "Shuffle, deal %(tiles)s each; %(num)s stays face down, out of play: knock when "
            "you cannot play",
            "Shuffle, deal %(tiles)s each; %(num)s stay face down, out of play: knock when you "
            "cannot play",
            plan.boneyard,
            tiles=plan.tiles_each,
        )
    notes = [deal, str(spec.spinner)]
    if rules.partners:
        notes.append(
            _(
                "Partners sit opposite: the 1st and 3rd seat against the 2nd and 4th, one score "
                "per side"
            )
        )
    if game == "all_fives":
        notes.append(
            _("Score when the ends add up to 5, 10, 15 …: the total")
            if rules.all_fives_scale == "face"
            else _("Score when the ends add up to 5, 10, 15 …: one point per five")
        )
    elif game == "fives_and_threes":
        notes.append(
            _(
                "Score when the ends add up to a multiple of 3 or 5: 3 and 5 score 1, 6 scores "
                "2, 15 scores 8"
            )
            if rules.fives_threes_scale in PUB_SCALES
            else _(
                "Score the ends' total when 3 or 5 divides it, twice when both do (30 scores 60)"
            )
        )
    else:
        notes.append(_("No points during play: the winner of the hand scores the others' pips"))
    goal = target(game, rules)
    notes.append(
        _("Exactly %(target)s wins: points that would pass %(target)s are lost", target=goal)
        if exact_target(game, rules)
        else _(
            "The first to %(target)s at the end of a hand wins (the highest total when several)",
            target=goal,
        )
    )
    return notes


def in_play(game: str, rules: HouseRules) -> list[str]:
    """The game's own "Rules in play" lines, then the house rules that belong to it."""
    spec = GAMES[game]
    goal = target(game, rules)
    lines = [
        _("Game: %(game)s", game=spec.label),
        _("Target: exactly %(target)s", target=goal)
        if exact_target(game, rules)
        else _("Target: %(target)s", target=goal),
        _("Drawing from the boneyard") if spec.draws else _("No drawing from the boneyard"),
        str(spec.spinner),
    ]
    # The highest total wins here: a late joiner gets the lowest (the worst) total.
    worst = {
        _("Late joiner: starts with the highest current total"): _(
            "Late joiner: starts with the lowest current total"
        )
    }
    return lines + [worst.get(line, line) for line in rules.describe(game)]

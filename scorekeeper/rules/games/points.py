"""The points games of rules.md 5 as a family (All Fives, Fives and Threes, Draw, Block: one
module each): what they share. ``points_game`` turns a ``PointGame`` (what differs between
them) into the game's declaration.

Points are won, the highest total wins, and a game ends when someone reaches the target at the
end of a hand. The scorekeeper records, for each player and hand, the points made during play
and the pips left in hand at the end; the winner of the hand (who went out, or the lowest hand
when blocked) gets the hand's bonus, which each game declares (``PointGame.bonus``). The
functions below take the game's ``PointGame`` or its name. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from scorekeeper.rules.games import registry
from scorekeeper.rules.games.sheets import GameSheets
from scorekeeper.rules.house import HouseRule, HouseRules
from scorekeeper.rules.schedule import DealPlan, computed_deal, max_players
from scorekeeper.rules.tiles import set_name
from scorekeeper.rules.words import LazyText, _, ngettext

P = TypeVar("P", bound=Hashable)

#: The set the deals are written for.
DEAL_SET = 6


def _always(rules: HouseRules) -> bool:
    return True


def _never(rules: HouseRules) -> bool:
    return False


def _no_error(points: int, rules: HouseRules) -> str | None:
    return None


def _pips_of_others(opponents: Sequence[int], own: int, went_out: bool, rules: HouseRules) -> int:
    """Draw and Block: the others' pips (``block_win`` "minus_own": minus the winner's own)."""
    return sum(opponents) - (own if rules.block_win == "minus_own" else 0)


@dataclass(frozen=True, kw_only=True)
class PointGame:
    """What differs between the points games: the deal, drawing, the spinner rule, how play
    makes points, what the winner of a hand gets, the target, its own house rules."""

    name: str
    label: LazyText
    description: LazyText
    draws: bool  # a player who cannot play draws from the boneyard
    makes_points: bool  # points are made during play
    spinner: LazyText
    sheets: GameSheets
    #: The usual target (the group's ``target`` wins over it).
    usual_target: Callable[[HouseRules], int]
    #: How play scores, for the table's notes.
    scoring_note: Callable[[HouseRules], str]
    #: What the winner of a hand scores: (opponents' pips, own pips, went out, rules).
    bonus: Callable[[Sequence[int], int, bool, HouseRules], int] = _pips_of_others
    #: The target must be hit exactly: points that would pass it are lost.
    exact: Callable[[HouseRules], bool] = _never
    #: Whether the pips left in hand count.
    needs_pips: Callable[[HouseRules], bool] = _always
    #: A sentence when a number of points made during play cannot be right.
    made_error: Callable[[int, HouseRules], str | None] = _no_error
    #: A blocked hand tied for lowest goes to the tied player with the lightest single tile.
    tie_by_lightest: Callable[[HouseRules], bool] = _never
    #: Its own house rules, between the target and the partnerships.
    own_rules: tuple[HouseRule, ...] = ()


def point_game_of(game: str | PointGame) -> PointGame:
    """A points game's ``PointGame``, from itself or its name (through the registry)."""
    if isinstance(game, PointGame):
        return game
    family = registry.variant_named(game).family
    if not isinstance(family, PointGame):
        raise ValueError(f"Not a points game: {game!r}")
    return family


# --- The end of a hand --------------------------------------------------------------------------


def hand_bonus(
    game: str | PointGame,
    hands: Mapping[P, int],
    went_out: P | None,
    rules: HouseRules,
    lightest: Mapping[P, int | None] | None = None,
) -> dict[P, int]:
    """What the winner of a hand scores at its end (rules.md 5), by player (only the winner):
    the game's ``bonus`` from the others' pips and its own. A blocked hand with a tie for the
    lowest hand scores nothing (unless the game's ``tie_by_lightest``: the tied player with
    the lightest single tile wins it, ``lightest``)."""
    spec = point_game_of(game)
    winner = hand_winner(hands, went_out, lightest if spec.tie_by_lightest(rules) else None)
    if winner is None:
        return {}
    opponents = [pips for player, pips in hands.items() if player != winner]
    bonus = spec.bonus(opponents, hands[winner], went_out is not None, rules)
    return {winner: max(bonus, 0)}


def target(game: str | PointGame, rules: HouseRules) -> int:
    """The score that ends the game: the group's ``target``, or the game's usual one."""
    if rules.target is not None:
        return rules.target
    return point_game_of(game).usual_target(rules)


def exact_target(game: str | PointGame, rules: HouseRules) -> bool:
    """The target must be hit exactly; points that would pass it are lost."""
    return point_game_of(game).exact(rules)


def hand_needs_pips(game: str | PointGame, rules: HouseRules) -> bool:
    """Whether the pips left in hand count."""
    return point_game_of(game).needs_pips(rules)


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


def side_of(position: int) -> int:
    """The side of a seat in a partnership game: the 1st and 3rd seat (positions 0 and 2) are
    side 0, the 2nd and 4th side 1."""
    return position % 2


def score_points_hand(
    game: str | PointGame,
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
    exact = exact_target(game, rules)
    scores = {}
    lost = {}
    for player in hands:
        score = made.get(player, 0) + bonus.get(player, 0)
        before = (totals or {}).get(player, 0)
        if exact and before + score > goal:
            lost[player] = score
            score = 0
        scores[player] = score
    return scores, lost


def game_over(game: str | PointGame, totals: Sequence[int], rules: HouseRules) -> bool:
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


def deal_plan(game: str | PointGame, players: int, rules: HouseRules) -> DealPlan:
    """Tiles each and the boneyard: the group's own number, the game's sheet for the set
    (each game's ``sheets``: double-6 for every game; Block also double-9 for 5-7 players and
    double-12 for 8-10), or the computed suggestion elsewhere. No engine is held out."""
    spec = point_game_of(game)
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(_("%(game)s needs at least 2 players", game=spec.label))
    if rules.partners and players != 4:
        raise ValueError(_("Partnerships need four players: two against two"))
    dominoes = rules.domino_set
    limit = 4 if rules.max_pip == DEAL_SET and rules.copies == 1 else max_players(rules.max_pip)
    if players > limit:
        raise ValueError(
            _(
                "%(game)s with a %(set)s set is for at most %(limit)s players",
                game=spec.label,
                set=dominoes.name,
                limit=limit,
            )
        )
    warnings: list[str] = []
    custom = rules.custom_deal
    table = spec.sheets.sheet_for(rules.max_pip, rules.copies)
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


def table_notes(game: str | PointGame, players: int, rules: HouseRules) -> list[str]:
    """What the table needs before a hand: the deal, the boneyard, the spinner rule, how play
    scores and the target."""
    spec = point_game_of(game)
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
    notes.append(spec.scoring_note(rules))
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


def in_play(game: str | PointGame, rules: HouseRules) -> list[str]:
    """The game's own "Rules in play" lines, then the house rules that belong to it."""
    spec = point_game_of(game)
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
    return lines + [worst.get(line, line) for line in rules.describe(spec.name)]

"""A hand of a points game (rules.md 5) as typed, and the hands of a game as a scoreboard:
the checks and scores of ``points`` applied to what the table typed. Standard library
only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scorekeeper.rules.games.points import (
    PointGame,
    hand_needs_pips,
    hand_winner,
    point_game_of,
    score_points_hand,
    side_of,
    target,
)
from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.round_check import (
    RoundCheck,
    RoundContext,
    RoundInput,
    SeatCheck,
    typed_hand,
    typed_tiles,
)
from scorekeeper.rules.scoreboard import Board, RoundResult, scoreboard
from scorekeeper.rules.validation import HandEntry, validate_round
from scorekeeper.rules.words import _

# --- Checking a hand as typed -------------------------------------------------------------------


def _pip_rules(rules: HouseRules) -> HouseRules:
    """The set of the game with plain pips (the Mexican Train hand rules do not apply)."""
    return HouseRules(max_pip=rules.max_pip, copies=rules.copies)


def check_hand(
    game: str | PointGame, entry: RoundInput, context: RoundContext, partial: bool
) -> RoundCheck:
    """Check one hand as typed and work out every player's score (rules.md 5).

    - The end of the hand: who went out, or blocked.
    - Points made during play: whole numbers from 0; in All Fives at face value a multiple of 5;
      none in Draw and Block.
    - The pips left: typed as a total or as tiles (checked like Mexican Train hands: on this
      set, no tile twice, the player who went out holds nothing); not needed under Fives and
      Threes pub rules.
    - Scores: points made plus the winner's bonus; under an exact target points that would pass
      it are lost (a warning says so).
    """
    spec = point_game_of(game)
    names = dict(context.names)
    seats = {position: SeatCheck(position=position, name=name) for position, name in names.items()}
    check = RoundCheck(number=context.number, engine=None, seats=list(seats.values()))
    if entry.went_out is None and not entry.blocked and not partial:
        check.errors.append(_("Tap who went out, or tap “Blocked” if nobody could play."))
    if entry.went_out is not None and entry.went_out not in seats:
        check.errors.append(_("The player marked as going out is not at this table."))
    made, hands = _typed_seats(spec, entry, context.rules, seats, partial)
    if hands:
        _validate_hands(check, seats, names, hands, entry, context.rules)
    if check.ok and len(hands) == len(seats):
        _score(spec, check, seats, made, hands, entry, context)
    return check


def _typed_seats(
    spec: PointGame,
    entry: RoundInput,
    rules: HouseRules,
    seats: Mapping[int, SeatCheck],
    partial: bool,
) -> tuple[dict[int, int], dict[int, HandEntry]]:
    """Each seat's points made during play (checked) and its hand as typed."""
    needs_pips = hand_needs_pips(spec, rules)
    pip_rules = _pip_rules(rules)
    hands: dict[int, HandEntry] = {}
    made: dict[int, int] = {}
    for typed in entry.seats:
        seat = seats.get(typed.position)
        if seat is None:
            continue
        points = typed.made or 0
        if points < 0:
            seat.errors.append(_("Points made cannot be below 0."))
        elif points and not spec.makes_points:
            seat.errors.append(_("%(game)s makes no points during play.", game=spec.label))
        elif points and (error := spec.made_error(points, rules)):
            seat.errors.append(error)
        made[typed.position] = points
        parsed, tiles = typed_tiles(seat, typed, rules.max_pip)
        if not parsed:
            continue
        hand = typed_hand(
            seat,
            typed.hand,
            tiles,
            pip_rules,
            blank_is_zero=typed.position == entry.went_out or not needs_pips,
            missing=_("Type the pips left in %(player)s's hand, or the tiles.", player=seat.name),
            partial=partial or typed.unreadable,
        )
        if hand is not None:
            hands[typed.position] = hand
    return made, hands


def _validate_hands(
    check: RoundCheck,
    seats: Mapping[int, SeatCheck],
    names: Mapping[int, str],
    hands: Mapping[int, HandEntry],
    entry: RoundInput,
    rules: HouseRules,
) -> None:
    """The tiles typed, checked together like Mexican Train hands (no tile twice, ...)."""
    problems = validate_round(
        {names[position]: hand for position, hand in hands.items()},
        None,
        _pip_rules(rules),
        went_out=names.get(entry.went_out) if not entry.blocked else None,  # type: ignore[arg-type]
    )
    by_name = {name: position for position, name in names.items()}
    for problem in problems:
        if problem.level != "error":
            continue
        target_seat = seats.get(by_name[problem.player]) if problem.player else None
        bucket = target_seat.errors if target_seat is not None else check.errors
        if problem.message not in bucket:
            bucket.append(problem.message)


def _score(
    spec: PointGame,
    check: RoundCheck,
    seats: Mapping[int, SeatCheck],
    made: Mapping[int, int],
    hands: Mapping[int, HandEntry],
    entry: RoundInput,
    context: RoundContext,
) -> None:
    """Every seat's score for the hand; points lost past an exact target are said."""
    rules = context.rules
    pips = {position: seats[position].hand or 0 for position in hands}
    lightest = (
        {
            position: min((tile.pips for tile in hand.tiles), default=None)
            if hand.tiles is not None
            else None
            for position, hand in hands.items()
        }
        if spec.tie_by_lightest(rules)
        else None
    )
    out = None if entry.blocked else entry.went_out
    sides = {position: side_of(position) for position in pips} if rules.partners else None
    scores, lost = score_points_hand(
        spec, made, pips, out, rules, totals=context.totals, sides=sides, lightest=lightest
    )
    if lightest is not None and out is None:
        _ask_for_tied_tiles(check, seats, pips, lightest, sides)
    goal = target(spec, rules)
    for position, value in scores.items():
        seats[position].points = value
        if position in lost:
            seats[position].warnings.append(
                _(
                    "%(points)s points would take %(player)s past %(target)s: they are lost",
                    points=lost[position],
                    player=seats[position].name,
                    target=goal,
                )
            )


def _ask_for_tied_tiles(
    check: RoundCheck,
    seats: Mapping[int, SeatCheck],
    pips: Mapping[int, int],
    lightest: Mapping[int, int | None],
    sides: Mapping[int, int] | None,
) -> None:
    """Block under "lightest tile": a blocked hand tied for lowest whose tied hands were typed
    as totals cannot be decided; say so on the round (it is saved with nobody scoring)."""
    if sides is not None:
        team: dict[int, int] = {}
        for position, value in pips.items():
            team[sides[position]] = team.get(sides[position], 0) + value
        if len(set(team.values())) > 1:
            return
        tied = list(pips)
    else:
        lowest = min(pips.values())
        tied = [position for position, value in pips.items() if value == lowest]
        if len(tied) < 2:
            return
    if any(lightest[position] is None for position in tied):
        named = [seats[position].name for position in tied]
        names = _("%(some)s and %(last)s", some=", ".join(named[:-1]), last=named[-1])
        check.warnings.append(
            _(
                "%(names)s are tied for the lowest hand: type their tiles to find who holds the "
                "lightest tile, or nobody scores this hand.",
                names=names,
            )
        )


# --- The scoreboard ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult(RoundResult):
    """A hand: every seat's score, who went out, and the pips each seat had left."""

    hands: tuple[int | None, ...] = field(default=())


def points_scoreboard(
    game: str | PointGame,
    seats: int,
    rounds: Sequence[RoundResult],
    rules: HouseRules,
    start: Sequence[int] | None = None,
) -> Board:
    """Totals, ranks (highest first), round wins (the winner of each hand) and winners."""
    wins = []
    for result in rounds:
        hands = getattr(result, "hands", ()) or ()
        pips = {seat: pip for seat, pip in enumerate(hands) if pip is not None}
        if rules.partners:
            team: dict[int, int] = {}
            for seat, pip in pips.items():
                team[side_of(seat)] = team.get(side_of(seat), 0) + pip
            out = side_of(result.went_out) if result.went_out is not None else None
            side = hand_winner(team, out) if team or out is not None else None
            wins.append(
                frozenset()
                if side is None
                else frozenset(seat for seat in range(seats) if side_of(seat) == side)
            )
            continue
        winner = hand_winner(pips, result.went_out) if pips or result.went_out is not None else None
        if winner is None and pips and point_game_of(game).tie_by_lightest(rules):
            # A blocked tie decided by the lightest tile: the tied player who scored won it.
            scored = [
                seat
                for seat, value in enumerate(result.points)
                if value and seat in pips and pips[seat] == min(pips.values())
            ]
            winner = scored[0] if len(scored) == 1 else None
        wins.append(frozenset() if winner is None else frozenset({winner}))
    return scoreboard(seats, rounds, rules, start, lower_is_better=False, round_wins=wins)

"""Checking a round as it was typed (rules.md 4): the tiles parse, the hands fit together,
the round has an end, and every player's round score under the house rules.

Plain values in (what was typed per seat, and a ``RoundContext`` of what the game knows), a
``RoundCheck`` out with each problem attached to the player it concerns. The web layer shows
it while typing and refuses a save with errors; warnings never stop a save.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorekeeper.rules.hand_totals import impossible_totals
from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.notation import HandError, parse_hand
from scorekeeper.rules.scoring import RoundEntry, score_hand, score_round
from scorekeeper.rules.tiles import Tile
from scorekeeper.rules.validation import HandEntry, validate_round
from scorekeeper.rules.words import _


@dataclass(frozen=True)
class RoundContext:
    """What the game knows that a round's check needs: the rules, the players by seat position
    (messages name them), the round's number and scheduled engine (None: chosen each round
    under "highest available", or no round left), the engines not used by other rounds, the
    previous round's hands by seat position, and the totals before this round (a points game's
    exact target)."""

    rules: HouseRules
    names: Mapping[int, str]
    number: int
    engine: int | None
    engines_left: tuple[int, ...] = ()
    previous: Mapping[int, int] = field(default_factory=dict)
    totals: Mapping[int, int] = field(default_factory=dict)  # before this round, by position


@dataclass(frozen=True)
class SeatInput:
    """What was typed for one player: ``hand`` points (None when left empty), the tiles text,
    open-train markers."""

    position: int
    hand: int | None = None
    tiles: str = ""
    markers: int = 0
    open_doubles: int = 0
    made: int | None = None  # points made during play (points games)
    # A number typed for this player could not be read (the form says why next to it): the
    # player is not reported as not entered as well.
    unreadable: bool = False


@dataclass(frozen=True)
class RoundInput:
    seats: list[SeatInput]
    went_out: int | None  # seat position; None with ``blocked``
    blocked: bool = False
    on_double: bool = False
    engine: int | None = None  # only read in "highest available" mode


@dataclass
class SeatCheck:
    position: int
    name: str
    tiles: list[Tile] | None = None
    hand: int | None = None
    points: int | None = None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class RoundCheck:
    number: int
    engine: int | None
    seats: list[SeatCheck]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and not any(seat.errors for seat in self.seats)

    @property
    def has_warnings(self) -> bool:
        return bool(self.warnings) or any(seat.warnings for seat in self.seats)

    @property
    def error_count(self) -> int:
        return len(self.errors) + sum(len(seat.errors) for seat in self.seats)


def typed_tiles(seat: SeatCheck, typed: SeatInput, max_pip: int) -> tuple[bool, list[Tile] | None]:
    """The tiles a seat typed, parsed on a set up to ``max_pip``: (True, None) when none were
    typed, (False, None) with the reason on the seat when they do not parse."""
    if not typed.tiles.strip():
        return True, None
    try:
        return True, parse_hand(typed.tiles, max_pip=max_pip)
    except HandError as error:
        seat.errors.append(str(error))
        return False, None


def typed_hand(
    seat: SeatCheck,
    total: int | None,
    tiles: list[Tile] | None,
    rules: HouseRules,
    *,
    blank_is_zero: bool,
    missing: str,
    partial: bool,
) -> HandEntry | None:
    """A seat's hand from its typed tiles (scored under ``rules``) or total; with neither, 0
    when ``blank_is_zero`` (the player went out, or the hands do not count), else ``missing``
    goes on the seat (not while typing, ``partial``) and there is no hand (None). The seat
    shows the tiles and the hand's points."""
    if tiles is None and total is None:
        if not blank_is_zero:
            if not partial:
                seat.errors.append(missing)
            return None
        total = 0
    seat.tiles = tiles
    seat.hand = score_hand(tiles, rules) if tiles is not None else total
    return HandEntry(tiles=tuple(tiles) if tiles is not None else None, total=total)


def check_round(entry: RoundInput, context: RoundContext, partial: bool = False) -> RoundCheck:
    """Check a round as typed against the rules (rules.md 4) and work out every player's score.

    - The engine: the scheduled one, or under "highest available" the double chosen, which must
      not have been an engine in another round. No scheduled engine: the game is over.
    - The end of the round: who went out, or blocked (not needed yet while typing).
    - Each player: the tiles typed must parse on this set; markers need a marker penalty; a
      player with neither points nor tiles must be entered, except the one who went out (0).
    - The validator (rules.md 4, V1-V10) on all hands together, with the previous round's
      hands for "same score as last round".
    - V11: the total of a player who did not go out is one a hand of tiles can make
      (``hand_totals``): on a double-12 with the 0-0 at 0, one such player at most counts 0.
    - When everything is right, every player's round score under the house rules.

    Problems are attached to the player they concern; errors stop a save, warnings are shown.
    ``partial`` is the live check while typing: players not entered yet and a round end not
    chosen yet are not problems (yet).
    """
    rules = context.rules
    arrivals = rules.score_by == "arrivals"
    names = dict(context.names)
    seats = {position: SeatCheck(position=position, name=name) for position, name in names.items()}
    check = RoundCheck(number=context.number, engine=None, seats=list(seats.values()))
    check.engine = _round_engine(entry, context, check.errors)
    _check_round_end(entry, seats, check.errors, partial)
    hands = _typed_hands(entry, seats, rules, partial)
    if check.engine is not None and hands:
        _run_validator(entry, context, check, seats, hands)
    if check.engine is not None and not arrivals:
        _check_possible_totals(entry, check.engine, rules, seats, hands)
    if check.ok and len(hands) == len(seats):
        _score(entry, rules, seats, hands)
    return check


def _round_engine(entry: RoundInput, context: RoundContext, errors: list[str]) -> int | None:
    """The round's engine: the scheduled one, or under "highest available" the double chosen,
    which must not have been an engine in another round. None (with an error): none chosen, one
    already used, or no round left."""
    if context.rules.order != "highest_available":
        if context.engine is None:
            errors.append(_("All rounds of this game have been played."))
        return context.engine
    if entry.engine is None:
        errors.append(_("Choose which double was the engine this round."))
        return None
    if entry.engine not in context.engines_left:
        errors.append(
            _(
                "The %(tile)s has already been an engine in this game.",
                tile=f"{entry.engine}-{entry.engine}",
            )
        )
        return None
    return entry.engine


def _check_round_end(
    entry: RoundInput, seats: Mapping[int, SeatCheck], errors: list[str], partial: bool
) -> None:
    """The end of the round: who went out (a player at the table), or blocked (not needed yet
    while typing)."""
    if entry.went_out is None and not entry.blocked and not partial:
        errors.append(_("Tap who went out, or tap “Blocked round” if nobody could play."))
    if entry.went_out is not None and entry.went_out not in seats:
        errors.append(_("The player marked as going out is not at this table."))


def _typed_hands(
    entry: RoundInput, seats: Mapping[int, SeatCheck], rules: HouseRules, partial: bool
) -> dict[int, HandEntry]:
    """Each seat's hand as typed, by position: the tiles parse on this set, markers and open
    doubles only under a house rule that gives them a penalty; a seat with neither points nor
    tiles is an error unless its player went out (0) or the hands do not count (arrivals)."""
    arrivals = rules.score_by == "arrivals"
    hands: dict[int, HandEntry] = {}
    for typed in entry.seats:
        seat = seats.get(typed.position)
        if seat is None:
            continue
        parsed, tiles = typed_tiles(seat, typed, rules.max_pip)
        if not parsed:
            continue
        if typed.markers and not rules.marker_penalty:
            seat.errors.append(_("Markers only count when the house rules give them a penalty."))
        if typed.open_doubles and rules.open_double_penalty == "none":
            seat.errors.append(
                _("A double left open only counts when the house rules give it a penalty.")
            )
        hand = typed_hand(
            seat,
            typed.hand,
            tiles,
            rules,
            # Under arrivals the hands do not count: typing them is optional.
            blank_is_zero=typed.position == entry.went_out or arrivals,
            missing=_("Type %(player)s's points, or the tiles left in the hand.", player=seat.name),
            partial=partial or typed.unreadable,
        )
        if hand is not None:
            hands[typed.position] = hand
    return hands


def _run_validator(
    entry: RoundInput,
    context: RoundContext,
    check: RoundCheck,
    seats: Mapping[int, SeatCheck],
    hands: Mapping[int, HandEntry],
) -> None:
    """The validator (rules.md 4, V1-V10) on all hands together, with the previous round's
    hands for "same score as last round"; each problem goes to its player's seat (round-wide
    ones to the round), once."""
    assert check.engine is not None
    names = dict(context.names)
    arrivals = context.rules.score_by == "arrivals"
    # The validator's messages name the player, so it is given names, not seat numbers.
    problems = validate_round(
        {names[position]: hand for position, hand in hands.items()},
        check.engine,
        context.rules,
        went_out=names.get(entry.went_out) if not entry.blocked else None,  # type: ignore[arg-type]
        # Under arrivals untyped hands are 0: "same as last round" would say nothing.
        previous={} if arrivals else {names[p]: v for p, v in context.previous.items()},
    )
    by_name = {name: position for position, name in names.items()}
    for problem in problems:
        target = seats.get(by_name[problem.player]) if problem.player is not None else None
        if target is None:
            bucket = check.errors if problem.level == "error" else check.warnings
        else:
            bucket = target.errors if problem.level == "error" else target.warnings
        if problem.message not in bucket:
            bucket.append(problem.message)


def _check_possible_totals(
    entry: RoundInput,
    engine: int,
    rules: HouseRules,
    seats: Mapping[int, SeatCheck],
    hands: Mapping[int, HandEntry],
) -> None:
    """V11: a player who did not go out holds a tile, so the total is one a hand can make."""
    totals = {
        seats[position].name: hand.total
        for position, hand in hands.items()
        if hand.tiles is None
        and hand.total is not None
        and position != entry.went_out
        and not seats[position].errors
    }
    by_name = {seat.name: position for position, seat in seats.items()}
    for name, message in impossible_totals(
        totals,
        engine,
        rules,
        one_may_be_out=entry.went_out is None and not entry.blocked,
    ).items():
        seats[by_name[name]].errors.append(message)


def _score(
    entry: RoundInput,
    rules: HouseRules,
    seats: Mapping[int, SeatCheck],
    hands: Mapping[int, HandEntry],
) -> None:
    """Every player's round score under the house rules, on the seats."""
    entries = {
        typed.position: RoundEntry(
            tiles=hands[typed.position].tiles,
            total=None if hands[typed.position].tiles is not None else seats[typed.position].hand,
            markers=typed.markers,
            open_doubles=typed.open_doubles,
        )
        for typed in entry.seats
        if typed.position in hands
    }
    points = score_round(
        entries,
        rules,
        went_out=None if entry.blocked else entry.went_out,
        went_out_on_double=entry.on_double and not entry.blocked,
    )
    for position, value in points.items():
        seats[position].points = value

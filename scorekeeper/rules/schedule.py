"""The round schedule (rules.md 2.1), who starts (2.2) and the deal in words (2.3; the
numbers in ``rules.deal``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorekeeper.rules.deal import (  # the deal's names, asked for here too
    COMPUTED_MAX_TILES as COMPUTED_MAX_TILES,
)
from scorekeeper.rules.deal import (
    CUSTOM_SET_MAX_PLAYERS as CUSTOM_SET_MAX_PLAYERS,
)
from scorekeeper.rules.deal import (
    CUSTOM_SET_MIN_TILES as CUSTOM_SET_MIN_TILES,
)
from scorekeeper.rules.deal import (
    DEAL_TABLE as DEAL_TABLE,
)
from scorekeeper.rules.deal import (
    HUB_SPOKES as HUB_SPOKES,
)
from scorekeeper.rules.deal import (
    LOW_BONEYARD_SHARE as LOW_BONEYARD_SHARE,
)
from scorekeeper.rules.deal import (
    MIN_PLAYERS as MIN_PLAYERS,
)
from scorekeeper.rules.deal import (
    PLAYER_LIMITS as PLAYER_LIMITS,
)
from scorekeeper.rules.deal import (
    DealPlan as DealPlan,
)
from scorekeeper.rules.deal import (
    computed_deal as computed_deal,
)
from scorekeeper.rules.deal import (
    deal_count as deal_count,
)
from scorekeeper.rules.deal import (
    deal_plan as deal_plan,
)
from scorekeeper.rules.deal import (
    max_players as max_players,
)
from scorekeeper.rules.deal import (
    suggest_set as suggest_set,
)
from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.words import _, ngettext

_DEFAULT_RULES = HouseRules()

# --- Round schedule (2.1) ---------------------------------------------------------------------


def engine_schedule(rules: HouseRules = _DEFAULT_RULES) -> list[int]:
    """The engines of the game, round by round (rules.md 2.1 and the schedules groups use).

    - "descending" (default): the highest double first (``first_engine`` for a shortened game),
      then each double down to 0-0. Double-12: [12, 11, ..., 0].
    - "ascending" (house option): 0-0 first, up to ``first_engine`` (or the set's highest double).
    - "up_and_back": 0-0 up to the top and back down: double-12 gives 26 rounds, the 12-12
      twice in a row.
    - "highest_available": no fixed order; this returns every candidate engine, highest first.
      Each round uses the highest double someone holds that has not been an engine yet (see
      ``remaining_engines`` and ``highest_available_engine``).

    A game of a set number of rounds (``length`` "fixed") takes the first ``rounds`` engines:
    it stops early, or starts the schedule again from the top when it has more rounds than
    the schedule. A free game ("free") has no last round: this is one pass of its cycle.
    """
    cycle = rules.engine_cycle
    if rules.length == "fixed" and rules.rounds is not None:
        return [cycle[index % len(cycle)] for index in range(rules.rounds)]
    return cycle


def round_count(rules: HouseRules = _DEFAULT_RULES) -> int | None:
    """Rounds in a game: one per engine (double-12: 13; started at 9-9: 10; up and back: 26),
    the set number of rounds, or None when the table decides (a free game)."""
    if rules.length == "free":
        return None
    return len(engine_schedule(rules))


def remaining_engines(rules: HouseRules, used: Iterable[int]) -> list[int]:
    """The engines not yet used, in schedule order (highest first for "highest_available").

    Engines of earlier rounds go back into the shuffle, but do not serve as an engine again.
    """
    done = set(used)
    return [engine for engine in rules.engine_cycle if engine not in done]


def engine_for_round(round_number: int, rules: HouseRules = _DEFAULT_RULES) -> int | None:
    """The engine of round ``round_number`` (1-based); None under "highest_available", where the
    scorekeeper records the double used. A free game cycles through its schedule for ever."""
    total = round_count(rules)
    if round_number < 1 or (total is not None and round_number > total):
        raise ValueError(f"Round {round_number} is not in a {total}-round game")
    if rules.order == "highest_available":
        return None
    cycle = rules.engine_cycle
    return cycle[(round_number - 1) % len(cycle)]


def highest_available_engine(
    held: Iterable[int], rules: HouseRules, used: Iterable[int] = ()
) -> int | None:
    """Under "highest_available": the highest double among ``held`` (doubles the players hold)
    that has not yet been an engine; None when nobody holds one."""
    candidates = set(remaining_engines(rules, used)) & set(held)
    return max(candidates) if candidates else None


# --- Who starts (2.2) -------------------------------------------------------------------------


def _seat_count(seats: int | Sequence[object]) -> int:
    count = seats if isinstance(seats, int) else len(seats)
    if count < 1:
        raise ValueError("A round needs at least one seat")
    return count


def _check_seat(name: str, seat: int | None, count: int) -> None:
    if seat is not None and not 0 <= seat < count:
        raise ValueError(f"{name} must be a seat from 0 to {count - 1}, got {seat}")


def starter_for_round(
    round_number: int,
    seats: int | Sequence[object],
    rules: HouseRules = _DEFAULT_RULES,
    first_starter: int = 0,
    previous_winner: int | None = None,
    engine_holder: int | None = None,
    engine_setter: int | None = None,
    totals: Sequence[int] | None = None,
) -> int | None:
    """The seat index that starts round ``round_number`` (1-based), for display only (rules.md
    2.2). Seats are numbered clockwise, so "to the left" is the next index.

    - "lowest_total" (house rule): round 1 is ``first_starter``; later the seat with the lowest
      running total (``totals`` in seat order); None when several share it.

    - "engine_holder": whoever holds the engine places it and starts; None when not known yet.
    - "rotate": round 1 is ``first_starter`` (chosen freely); the starting seat moves one to the
      left each round: ``(first_starter + round_number - 1) % seats``.
    - "previous_winner": round 1 is ``first_starter``; later the previous round's winner
      (None when not known).
    - "left_of_setter": the seat left of whoever set the engine; in round 1 without a known
      setter, ``first_starter``; otherwise None when not known.
    """
    count = _seat_count(seats)
    if round_number < 1:
        raise ValueError(f"Rounds are numbered from 1, got {round_number}")
    for name, seat in (
        ("first_starter", first_starter),
        ("previous_winner", previous_winner),
        ("engine_holder", engine_holder),
        ("engine_setter", engine_setter),
    ):
        _check_seat(name, seat, count)
    rule = rules.start_rule
    if rule == "engine_holder":
        return engine_holder
    if rule == "lowest_total":
        if round_number == 1 or not totals:
            return first_starter
        lowest = _lowest_seats(totals)
        return lowest[0] if len(lowest) == 1 else None
    if rule == "rotate":
        return (first_starter + round_number - 1) % count
    if rule == "previous_winner":
        return first_starter if round_number == 1 else previous_winner
    # left_of_setter
    if engine_setter is not None:
        return (engine_setter + 1) % count
    return first_starter if round_number == 1 else None


def _lowest_seats(totals: Sequence[int]) -> list[int]:
    lowest = min(totals)
    return [seat for seat, total in enumerate(totals) if total == lowest]


def starter_text(
    round_number: int,
    players: Sequence[str],
    rules: HouseRules = _DEFAULT_RULES,
    engine: int | None = None,
    first_starter: int = 0,
    previous_winner: int | None = None,
    engine_holder: int | None = None,
    engine_setter: int | None = None,
    totals: Sequence[int] | None = None,
    hub: bool = True,
) -> str:
    """Who starts, as a sentence that is true at the table: "Ann starts", "Whoever holds the
    9-9 places it and starts". Under "engine_holder" the engine is dealt with the other tiles
    (see ``deal_text``), so somebody can hold it. ``hub``: the round's double goes in a hub
    (Mexican Train); False: in the middle of the table, where a Chicken Foot grows from it."""
    seat = starter_for_round(
        round_number,
        players,
        rules,
        first_starter=first_starter,
        previous_winner=previous_winner,
        engine_holder=engine_holder,
        engine_setter=engine_setter,
        totals=totals,
    )
    double = f"{engine}-{engine}" if engine is not None else None
    if seat is not None:
        return _known_starter(
            players[seat], seat, rules.start_rule, double, hub, round_number, totals
        )
    return _open_starter(players, rules.start_rule, double, hub, round_number, totals)


def _known_starter(
    player: str,
    seat: int,
    rule: str,
    double: str | None,
    hub: bool,
    round_number: int,
    totals: Sequence[int] | None,
) -> str:
    """The sentence when the app knows who starts."""
    if rule == "engine_holder":
        if double is None and not hub:
            return _("%(player)s holds the round's double and starts", player=player)
        if double is None:
            return _("%(player)s holds the engine and starts", player=player)
        return _("%(player)s holds the %(tile)s and starts", player=player, tile=double)
    if rule == "previous_winner" and round_number > 1:
        return _("%(player)s starts (won round %(round)s)", player=player, round=round_number - 1)
    if rule == "lowest_total" and round_number > 1 and totals:
        return _("%(player)s starts (lowest total: %(total)s)", player=player, total=totals[seat])
    return _("%(player)s starts", player=player)


def _holder_places(double: str | None, hub: bool) -> str:
    """Whoever holds the round's double places it and starts (nobody known to hold it yet)."""
    if not hub:
        if double is None:
            return _(
                "Whoever holds the round's double places it in the middle of the table and "
                "starts; if nobody has it, everyone draws one tile in turn until it turns up"
            )
        return _(
            "Whoever holds the %(tile)s places it in the middle of the table and starts; if "
            "nobody has it, everyone draws one tile in turn until it turns up",
            tile=double,
        )
    if double is None:
        return _(
            "Whoever holds the engine places it in the hub and starts; if nobody has it, "
            "everyone draws one tile in turn until it turns up"
        )
    return _(
        "Whoever holds the %(tile)s places it in the hub and starts; if nobody has it, "
        "everyone draws one tile in turn until it turns up",
        tile=double,
    )


def _open_starter(
    players: Sequence[str],
    rule: str,
    double: str | None,
    hub: bool,
    round_number: int,
    totals: Sequence[int] | None,
) -> str:
    """The sentence when the table decides who starts (the app cannot know)."""
    if rule == "engine_holder":
        return _holder_places(double, hub)
    if rule == "previous_winner":
        return _(
            "Round %(round)s had more than one winner: one of them starts", round=round_number - 1
        )
    if rule == "lowest_total" and totals:
        tied = [players[index] for index in _lowest_seats(totals)]
        names = _("%(some)s and %(last)s", some=", ".join(tied[:-1]), last=tied[-1])
        return _(
            "%(names)s share the lowest total (%(total)s): one of them starts",
            names=names,
            total=min(totals),
        )
    if not hub:
        return _("The player left of whoever sets the round's double in the middle starts")
    return _("The player left of whoever sets the engine in the hub starts")


def engine_dealt(rules: HouseRules) -> bool:
    """True when the engine is shuffled in and dealt (someone finds it in their hand): when each
    round's engine is the highest double anyone holds, or when whoever holds the engine starts.
    Otherwise the engine is taken out before the deal (rules.md 2.2, 2.3)."""
    return rules.order == "highest_available" or rules.start_rule == "engine_holder"


def deal_text(
    plan: DealPlan,
    rules: HouseRules = _DEFAULT_RULES,
    engine: int | None = None,
    hub: bool = True,
) -> str:
    """What to do before a round, as one sentence: take the engine out (or not), shuffle, deal.
    The deal tables count the boneyard with the engine held out, so when the engine is dealt
    the boneyard holds one tile more until someone places it. ``hub``: the round's double goes
    in a hub (Mexican Train); False: in the middle of the table (Chicken Foot)."""
    if rules.order == "highest_available" or engine is None:
        return _highest_double_deal(plan, hub)
    if engine_dealt(rules):
        return ngettext(
            "Shuffle all the tiles, the %(tile)s too, deal %(tiles)s each; %(num)s stays in "
            "the boneyard",
            "Shuffle all the tiles, the %(tile)s too, deal %(tiles)s each; %(num)s stay in "
            "the boneyard",
            plan.boneyard + 1,
            tile=f"{engine}-{engine}",
            tiles=plan.tiles_each,
        )
    if not hub:
        return ngettext(
            "Take out the %(tile)s and put it in the middle of the table, shuffle, deal "
            "%(tiles)s each; %(num)s stays in the boneyard",
            "Take out the %(tile)s and put it in the middle of the table, shuffle, deal "
            "%(tiles)s each; %(num)s stay in the boneyard",
            plan.boneyard,
            tile=f"{engine}-{engine}",
            tiles=plan.tiles_each,
        )
    return ngettext(
        "Take out the %(tile)s and put it in the hub, shuffle, deal %(tiles)s each; %(num)s "
        "stays in the boneyard",
        "Take out the %(tile)s and put it in the hub, shuffle, deal %(tiles)s each; %(num)s "
        "stay in the boneyard",
        plan.boneyard,
        tile=f"{engine}-{engine}",
        tiles=plan.tiles_each,
    )


def _highest_double_deal(plan: DealPlan, hub: bool) -> str:
    """The deal when the round's double is the highest anyone holds: every tile is dealt."""
    if not hub:
        return ngettext(
            "Shuffle all the tiles, deal %(tiles)s each; %(num)s stays in the boneyard. The "
            "highest double anyone holds that has not started a round yet is this round's "
            "double: whoever holds it places it in the middle of the table",
            "Shuffle all the tiles, deal %(tiles)s each; %(num)s stay in the boneyard. The "
            "highest double anyone holds that has not started a round yet is this round's "
            "double: whoever holds it places it in the middle of the table",
            plan.boneyard + 1,
            tiles=plan.tiles_each,
        )
    return ngettext(
        "Shuffle all the tiles, deal %(tiles)s each; %(num)s stays in the boneyard. The "
        "highest double anyone holds that has not been an engine yet is this round's "
        "engine: whoever holds it places it in the hub",
        "Shuffle all the tiles, deal %(tiles)s each; %(num)s stay in the boneyard. The "
        "highest double anyone holds that has not been an engine yet is this round's "
        "engine: whoever holds it places it in the hub",
        plan.boneyard + 1,
        tiles=plan.tiles_each,
    )


def seats_in_order(players: Sequence[str], starter: int) -> list[str]:
    """Players in playing order (clockwise) from the starting seat."""
    ordered = list(players)
    _check_seat("starter", starter, len(ordered))
    return ordered[starter:] + ordered[:starter]

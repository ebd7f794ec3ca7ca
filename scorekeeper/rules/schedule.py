"""The round schedule (rules.md 2.1), who starts (2.2) and how many tiles to deal (2.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from scorekeeper.rules.house import DEAL_PRESETS, PRESET_MAX_PIP, HouseRules
from scorekeeper.rules.tiles import DominoSet, set_name
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


# --- How many tiles (2.3) ---------------------------------------------------------------------

#: The default deal table of rules.md 2.3: set -> players -> tiles each (engine held out).
DEAL_TABLE: Mapping[int, Mapping[int, int]] = MappingProxyType(
    {
        6: MappingProxyType({2: 9, 3: 8, 4: 6}),
        9: MappingProxyType({2: 9, 3: 9, 4: 9, 5: 7, 6: 7, 7: 7, 8: 6}),
        12: DEAL_PRESETS["standard"],
        15: MappingProxyType(
            {2: 15, 3: 15, 4: 15, 5: 15, 6: 15, 7: 13, 8: 13, 9: 11, 10: 11, 11: 11, 12: 11}
        ),
        18: MappingProxyType({13: 11, 14: 11}),
    }
)
#: Most players per set (rules.md 2.3). Double-12 with 9-10 players is allowed with a warning.
PLAYER_LIMITS: Mapping[int, int] = MappingProxyType({6: 4, 9: 8, 12: 10, 15: 12, 18: 16})
MIN_PLAYERS = 2
#: Spokes on a standard hub; more players than this on a set up to double-12 get a warning
#: (the `*` cells of the table). Bigger sets have tables made for more players.
HUB_SPOKES = 8
#: Largest computed deal.
COMPUTED_MAX_TILES = 15
#: A home-made set takes as many players as can each get at least this many tiles from the
#: computed suggestion, and never more than CUSTOM_SET_MAX_PLAYERS.
CUSTOM_SET_MIN_TILES = 5
CUSTOM_SET_MAX_PLAYERS = 16
#: Warn when fewer than this share of all tiles stays in the boneyard.
LOW_BONEYARD_SHARE = 0.10


def computed_deal(total_tiles: int, players: int) -> int:
    """The computed suggestion of rules.md 2.3: ``min(15, floor(0.8 * (tiles - 1) / players))``,
    which keeps about a fifth of the tiles in the boneyard. Exact integer arithmetic."""
    return min(COMPUTED_MAX_TILES, (4 * (total_tiles - 1)) // (5 * players))


def max_players(max_pip: int, copies: int = 1) -> int:
    """Most players for a double-``max_pip`` set (rules.md 2.3): double-6 4, double-9 8,
    double-12 10 (9-10 with a warning), double-15 12, double-18 16.

    A home-made set takes as many players as each get at least 5 tiles from the computed
    suggestion, at most 16 (0 when even 2 players would get fewer).
    """
    if max_pip in PLAYER_LIMITS:
        return PLAYER_LIMITS[max_pip]
    total = DominoSet(max_pip, copies).total_tiles
    fitting = [
        players
        for players in range(MIN_PLAYERS, CUSTOM_SET_MAX_PLAYERS + 1)
        if computed_deal(total, players) >= CUSTOM_SET_MIN_TILES
    ]
    return max(fitting, default=0)


def suggest_set(players: int) -> int:
    """Which set for how many players (a suggestion, never forced; rules.md 2.3): double-9 for
    2-4, double-12 for 5-8, double-15 for 9-12, double-18 for 13 or more."""
    _check_players(players)
    if players <= 4:
        return 9
    if players <= 8:
        return 12
    if players <= 12:
        return 15
    return 18


@dataclass(frozen=True)
class DealPlan:
    """How to deal: ``tiles_each`` per player after holding out one engine; ``boneyard`` tiles stay
    to draw. ``source`` is "table", a preset name ("cardinal", "fundex", "gamerules"), "custom" or
    "computed". ``warnings`` are plain sentences to show next to the deal."""

    players: int
    tiles_each: int
    boneyard: int
    source: str
    warnings: list[str] = field(default_factory=list)

    @property
    def computed(self) -> bool:
        """True when no table gives a number and the computed suggestion is used."""
        return self.source == "computed"

    @property
    def tiles_dealt(self) -> int:
        """Tiles in all hands together."""
        return self.players * self.tiles_each


def _check_players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"The number of players must be a whole number, got {players!r}")
    if players < MIN_PLAYERS:
        raise ValueError(
            _(
                "Mexican Train needs at least %(least)s players, got %(players)s",
                least=MIN_PLAYERS,
                players=players,
            )
        )
    return players


def _set_words(rules: HouseRules) -> str:
    name = set_name(rules.max_pip)
    if rules.copies == 1:
        return _("a %(set)s set", set=name)
    return _("two %(set)s sets mixed", set=name)


def deal_plan(players: int, rules: HouseRules = _DEFAULT_RULES) -> DealPlan:
    """Tiles per player, boneyard and warnings (rules.md 2.3).

    Order of sources: the group's custom numbers; for one double-12 set the chosen preset (the
    named sheets cover 2-8 players); the default table; otherwise the computed suggestion. Two
    sets mixed always use the computed suggestion (the tables are for one set) unless the group
    typed its own numbers. Raises ValueError for fewer than 2 players or more than the set takes.
    Warnings: more players than the 8 spokes of a hub (sets up to double-12), fewer than 10% of
    the tiles left to draw, a computed number, a preset that does not apply.
    """
    _check_players(players)
    dominoes = rules.domino_set
    limit = max_players(rules.max_pip, rules.copies)
    if players > limit:
        if limit < MIN_PLAYERS:
            raise ValueError(_too_small(dominoes.name, players))
        bigger = suggest_set(players)
        if bigger > rules.max_pip:
            raise ValueError(
                _(
                    "A %(set)s set is for at most %(limit)s players; for %(players)s players "
                    "try a double-%(bigger)s set",
                    set=dominoes.name,
                    limit=limit,
                    players=players,
                    bigger=bigger,
                )
            )
        raise ValueError(
            _(
                "A %(set)s set is for at most %(limit)s players",
                set=dominoes.name,
                limit=limit,
            )
        )

    warnings: list[str] = []
    total = dominoes.total_tiles
    custom = rules.custom_deal
    preset = rules.deal_preset
    table = DEAL_TABLE.get(rules.max_pip) if rules.copies == 1 else None

    fallback: str | None = None  # why a chosen deal did not apply
    if custom is not None and players not in custom:
        fallback = _("The custom deal has no number for %(players)s players", players=players)
    elif custom is None and preset != "standard":
        sheet = DEAL_PRESETS[preset]
        if rules.max_pip != PRESET_MAX_PIP or rules.copies != 1:
            fallback = _("The %(sheet)s sheet is for one double-12 set", sheet=preset)
        elif players not in sheet:
            fallback = _(
                "The %(sheet)s sheet stops at %(players)s players", sheet=preset, players=max(sheet)
            )

    if custom is not None and players in custom:
        tiles_each, source = custom[players], "custom"
    elif custom is None and preset != "standard" and fallback is None:
        tiles_each, source = DEAL_PRESETS[preset][players], preset
    elif table is not None and players in table:
        tiles_each, source = table[players], "table"
        if fallback:
            warnings.append(_("%(why)s: using the standard table", why=fallback))
    else:
        tiles_each, source = computed_deal(total, players), "computed"
        if fallback:
            warnings.append(_("%(why)s: using a computed suggestion", why=fallback))
        warnings.append(
            _(
                "No rule book gives a number for %(players)s players with %(set)s: %(tiles)s "
                "tiles each is a computed suggestion",
                players=players,
                set=_set_words(rules),
                tiles=tiles_each,
            )
        )
    if tiles_each < 1:
        raise ValueError(_too_small(dominoes.name, players))

    boneyard = total - 1 - players * tiles_each
    if boneyard < 0:  # HouseRules checks custom numbers; kept as a guard.
        raise ValueError(
            _(
                "%(players)s players with %(tiles)s tiles each need %(need)s tiles, but "
                "%(set)s has %(has)s",
                players=players,
                tiles=tiles_each,
                need=players * tiles_each + 1,
                set=_set_words(rules),
                has=total,
            )
        )
    if players > HUB_SPOKES and rules.max_pip <= PRESET_MAX_PIP:
        warnings.append(
            _(
                "%(players)s players are more than the %(spokes)s spokes of a standard hub: "
                "allowed, but the table gets crowded",
                players=players,
                spokes=HUB_SPOKES,
            )
        )
    if boneyard < LOW_BONEYARD_SHARE * total:
        if boneyard == 0:
            warnings.append(_("No tiles stay in the boneyard to draw"))
        else:
            warnings.append(
                ngettext(
                    "Only %(num)s tile stays in the boneyard",
                    "Only %(num)s tiles stay in the boneyard",
                    boneyard,
                )
            )
    return DealPlan(players, tiles_each, boneyard, source, warnings)


def _too_small(name: str, players: int) -> str:
    return _("A %(set)s set is too small to deal to %(players)s players", set=name, players=players)


def deal_count(players: int, rules: HouseRules = _DEFAULT_RULES) -> int:
    """Tiles to deal to each player (rules.md 2.3): see ``deal_plan`` for the sources and limits.
    Raises ValueError for impossible player counts."""
    return deal_plan(players, rules).tiles_each


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
    rule = rules.start_rule
    if seat is not None:
        player = players[seat]
        if rule == "engine_holder":
            if double is None and not hub:
                return _("%(player)s holds the round's double and starts", player=player)
            if double is None:
                return _("%(player)s holds the engine and starts", player=player)
            return _("%(player)s holds the %(tile)s and starts", player=player, tile=double)
        if rule == "previous_winner" and round_number > 1:
            return _(
                "%(player)s starts (won round %(round)s)", player=player, round=round_number - 1
            )
        if rule == "lowest_total" and round_number > 1 and totals:
            return _(
                "%(player)s starts (lowest total: %(total)s)", player=player, total=totals[seat]
            )
        return _("%(player)s starts", player=player)
    if rule == "engine_holder" and not hub:
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
    if rule == "engine_holder":
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
    if (rules.order == "highest_available" or engine is None) and not hub:
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
    if rules.order == "highest_available" or engine is None:
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


def seats_in_order(players: Sequence[str], starter: int) -> list[str]:
    """Players in playing order (clockwise) from the starting seat."""
    ordered = list(players)
    _check_seat("starter", starter, len(ordered))
    return ordered[starter:] + ordered[:starter]

"""Checking a round before it is saved (rules.md section 4).

Errors block saving; warnings ask for a confirmation. Every problem carries the rule code
("V1".."V10"), the level, the player it concerns (None for the whole round) and a sentence a
player understands.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.scoring import (
    RoundEntry,
    hand_capacity,
    hand_floor,
    hand_pool_size,
    round_capacity,
    score_hand,
    set_score,
)
from scorekeeper.rules.tiles import Tile
from scorekeeper.rules.words import _, ngettext

ERROR = "error"
WARNING = "warning"

#: The level of each check (rules.md 4). V5 has one warning case: see ``validate_round``.
LEVELS: Mapping[str, str] = MappingProxyType(
    {
        "V1": ERROR,
        "V2": ERROR,
        "V3": ERROR,
        "V4": ERROR,
        "V5": ERROR,
        "V6": ERROR,
        "V7": ERROR,
        "V8": ERROR,
        "V9": WARNING,
        "V10": ERROR,
    }
)

_DEFAULT_RULES = HouseRules()


@dataclass(frozen=True)
class Problem:
    """One finding of the validator: ``code`` "V1".."V10", ``level`` "error" or "warning",
    ``player`` it concerns (None for the round as a whole) and a plain ``message``."""

    code: str
    level: str
    player: Any
    message: str

    @property
    def is_error(self) -> bool:
        """Errors block saving."""
        return self.level == ERROR


@dataclass(frozen=True)
class HandEntry:
    """One player's entry when more than a tile list is known: the tiles left (``tiles``), a
    typed ``total`` and/or the number of tiles left (``tile_count``). Any of them may be None.
    ``total`` is kept as typed so that the validator can report a wrong one (V10)."""

    tiles: tuple[Tile, ...] | None = None
    total: int | None = None
    tile_count: int | None = None

    def __post_init__(self) -> None:
        if self.tiles is not None:
            tiles = tuple(self.tiles)
            if not all(isinstance(tile, Tile) for tile in tiles):
                raise TypeError("HandEntry.tiles must hold Tile values")
            object.__setattr__(self, "tiles", tiles)
        count = self.tile_count
        if count is not None and (
            isinstance(count, bool) or not isinstance(count, int) or count < 0
        ):
            raise ValueError(f"tile_count must be a whole number >= 0, got {count!r}")


@dataclass
class _Hand:
    player: Any
    tiles: tuple[Tile, ...] | None
    has_total: bool
    raw_total: object
    tile_count: int | None

    @property
    def known_empty(self) -> bool:
        return self.tiles == () or self.tile_count == 0


_MISSING = object()


def _as_hand(player: Any, value: object) -> _Hand:
    if isinstance(value, HandEntry):
        has_total = value.total is not None
        return _Hand(player, value.tiles, has_total, value.total, value.tile_count)
    if isinstance(value, RoundEntry):
        has_total = value.total is not None
        return _Hand(player, value.tiles, has_total, value.total, None)
    if isinstance(value, list | tuple):
        if not all(isinstance(tile, Tile) for tile in value):
            raise TypeError(f"The hand of {player} must be a list of Tile values")
        return _Hand(player, tuple(value), False, _MISSING, None)
    return _Hand(player, None, True, value, None)


def _whole(value: object) -> int | None:
    """The value as a whole number, or None when it is not one (bool and text are not)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float | Decimal | Fraction):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, Decimal) and not value.is_finite():
            return None
        if value == int(value):
            return int(value)
    return None


def _names(players: Sequence[Any]) -> str:
    names = [str(player) for player in players]
    if len(names) == 1:
        return names[0]
    return _("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])


def _number_word(count: int) -> str:
    """How many copies of the set, in words: "two" (a number past four)."""
    words = {1: _("one"), 2: _("two"), 3: _("three"), 4: _("four")}
    return words.get(count, str(count))


def _too_many(player: Any, tile: Tile, count: int, copies: int) -> str:
    """V2: a hand holds a tile more often than the set has it."""
    if copies == 1:
        if count == 2:
            return _(
                "%(player)s has %(tile)s twice: there is only one %(tile)s in the set",
                player=player,
                tile=tile,
            )
        return _(
            "%(player)s has %(tile)s %(count)s times: there is only one %(tile)s in the set",
            player=player,
            tile=tile,
            count=count,
        )
    if count == 2:
        return _(
            "%(player)s has %(tile)s twice: there are only %(copies)s %(tile)s tiles",
            player=player,
            tile=tile,
            copies=_number_word(copies),
        )
    return _(
        "%(player)s has %(tile)s %(count)s times: there are only %(copies)s %(tile)s tiles",
        player=player,
        tile=tile,
        count=count,
        copies=_number_word(copies),
    )


def _cannot_hold(
    player: Any, count: int, pool: int, name: str, copies: int, engine: Tile | None
) -> str:
    """V6: more tiles in a hand than the set has (outside the engine)."""
    facts = {"player": player, "count": count, "pool": pool, "set": name, "engine": engine}
    if copies == 1 and engine is not None:
        return _(
            "%(player)s cannot hold %(count)s tiles: the %(set)s set has only %(pool)s outside "
            "the %(engine)s engine",
            **facts,
        )
    if copies == 1:
        return _(
            "%(player)s cannot hold %(count)s tiles: the %(set)s set has only %(pool)s", **facts
        )
    if engine is not None:
        return _(
            "%(player)s cannot hold %(count)s tiles: the two %(set)s sets have only %(pool)s "
            "outside the %(engine)s engine",
            **facts,
        )
    return _(
        "%(player)s cannot hold %(count)s tiles: the two %(set)s sets have only %(pool)s", **facts
    )


def _all_hands(together: int, most: int, name: str, copies: int, engine: Tile | None) -> str:
    """V7: the hands together hold more pips than the set (outside the engine)."""
    facts = {"pips": together, "most": most, "set": name, "engine": engine}
    if copies == 1 and engine is not None:
        return _(
            "All hands together hold %(pips)s pips, but the %(set)s set holds only %(most)s "
            "outside the %(engine)s engine",
            **facts,
        )
    if copies == 1:
        return _(
            "All hands together hold %(pips)s pips, but the %(set)s set holds only %(most)s",
            **facts,
        )
    if engine is not None:
        return _(
            "All hands together hold %(pips)s pips, but the two %(set)s sets hold only "
            "%(most)s outside the %(engine)s engine",
            **facts,
        )
    return _(
        "All hands together hold %(pips)s pips, but the two %(set)s sets hold only %(most)s",
        **facts,
    )


def validate_round(
    hands: Mapping[Any, Any],
    engine: int | None,
    rules: HouseRules = _DEFAULT_RULES,
    went_out: Any = None,
    *,
    previous: Mapping[Any, int] | None = None,
    blocked: bool | None = None,
) -> list[Problem]:
    """Check one round's entries (rules.md 4) and return the problems, ordered by player (in the
    order of ``hands``, round-wide problems last) then by code.

    ``hands`` maps each player to a list of Tile, an int total (when only the total is known) or a
    ``HandEntry``/``RoundEntry``. ``engine`` is the round's engine double (None: not known).
    ``went_out`` is the player who went out, None for a blocked round; ``blocked`` True says the
    round was blocked. ``previous`` maps players to their previous round's score (V9).

    - V1 every half between 0 and the set's highest number;
    - V2 no tile in one hand more often than there are copies of it;
    - V3 no tile in two hands (more often than copies), reported for every player holding it;
    - V4 the engine is in the middle, in no hand (with two copies, at most one in the hands);
    - V5 at most one player went out, that player has no tiles and total 0, nobody went out in
      a blocked round; a single empty hand in a round marked as nobody going out is a warning;
    - V6 a total without tiles fits the hand: for a known tile count k between the k lightest
      and the k heaviest tiles other than the engine, otherwise at most the whole set minus the
      engine;
    - V7 all hands together hold no more than the set minus the engine (double-12, 12-12: 1068);
    - V8 tiles and a total both given agree (and tiles and a tile count);
    - V9 (warning) a non-zero score identical to the same player's previous round;
    - V10 a total is a whole number, not negative, not more than the whole set holds.
    A value gets either V10 (wrong type, negative, absurd) or V6 (above the hand's capacity).
    """
    dominoes = rules.domino_set
    copies = rules.copies
    if engine is not None and (
        isinstance(engine, bool)
        or not isinstance(engine, int)
        or not 0 <= engine <= dominoes.max_pip
    ):
        raise ValueError(
            f"The engine must be a double from 0 to {dominoes.max_pip}, got {engine!r}"
        )
    engine_tile = Tile(engine, engine) if engine is not None else None
    name = dominoes.name  # "double-12", in the player's language
    whole_set = set_score(rules)
    entries = [_as_hand(player, value) for player, value in hands.items()]
    problems: list[Problem] = []

    def report(code: str, player: Any, message: str, level: str | None = None) -> None:
        problems.append(Problem(code, level or LEVELS[code], player, message))

    hand_scores: dict[Any, int] = {}
    misfits: set[Any] = set()  # totals already reported by V6 stay out of V7
    counts_by_player: dict[Any, Counter[Tile]] = {}

    for hand in entries:
        player = hand.player
        total: int | None = None

        if hand.tiles is not None:
            counts = Counter(hand.tiles)
            counts_by_player[player] = counts
            # V1
            for tile in sorted(counts):
                if tile.high > dominoes.max_pip:
                    bad = sorted({h for h in tile.halves if h > dominoes.max_pip})
                    if len(bad) == 1:
                        message = _(
                            "%(player)s's %(tile)s: %(number)s is not on a %(set)s set",
                            player=player,
                            tile=tile,
                            number=bad[0],
                            set=name,
                        )
                    else:
                        message = _(
                            "%(player)s's %(tile)s: %(numbers)s are not on a %(set)s set",
                            player=player,
                            tile=tile,
                            numbers=_names(bad),
                            set=name,
                        )
                    report("V1", player, message)
            # V2
            for tile, count in sorted(counts.items()):
                if count > copies:
                    report("V2", player, _too_many(player, tile, count, copies))

        # V10 and the total's value
        if hand.has_total:
            raw = hand.raw_total
            value = _whole(raw)
            if raw is None:
                report("V10", player, _("%(player)s's total is missing", player=player))
            elif value is None:
                shown = f'"{raw}"' if isinstance(raw, str) else str(raw)
                report(
                    "V10",
                    player,
                    _(
                        "%(player)s's total must be a whole number, not %(value)s",
                        player=player,
                        value=shown,
                    ),
                )
            elif value < 0:
                report(
                    "V10",
                    player,
                    _(
                        "%(player)s's total cannot be negative (%(value)s)",
                        player=player,
                        value=value,
                    ),
                )
            elif value > whole_set:
                if copies == 1:
                    message = _(
                        "%(player)s's total %(total)s is more than the whole of the %(set)s set "
                        "holds (%(most)s)",
                        player=player,
                        total=value,
                        set=name,
                        most=whole_set,
                    )
                else:
                    message = _(
                        "%(player)s's total %(total)s is more than the whole of the two %(set)s "
                        "sets hold (%(most)s)",
                        player=player,
                        total=value,
                        set=name,
                        most=whole_set,
                    )
                report("V10", player, message)
            else:
                total = value

        # V8: tiles and total (or tile count) both given
        if hand.tiles is not None:
            tiles_score = score_hand([t for t in hand.tiles if t.high <= dominoes.max_pip], rules)
            if total is not None and total != score_hand(hand.tiles, rules):
                report(
                    "V8",
                    player,
                    _(
                        "%(player)s's tiles add up to %(sum)s, but the total says %(total)s",
                        player=player,
                        sum=score_hand(hand.tiles, rules),
                        total=total,
                    ),
                )
            if hand.tile_count is not None and hand.tile_count != len(hand.tiles):
                report(
                    "V8",
                    player,
                    ngettext(
                        "%(player)s has %(num)s tile entered, but the tile count says %(count)s",
                        "%(player)s has %(num)s tiles entered, but the tile count says %(count)s",
                        len(hand.tiles),
                        player=player,
                        count=hand.tile_count,
                    ),
                )
            hand_scores[player] = tiles_score
        elif total is not None:
            # V6: total only
            before = len(problems)
            k = hand.tile_count
            if k is not None:
                pool = hand_pool_size(engine, rules)
                if k > pool:
                    report("V6", player, _cannot_hold(player, k, pool, name, copies, engine_tile))
                else:
                    most = hand_capacity(k, engine, rules)
                    least = hand_floor(k, engine, rules)
                    if total > most:
                        report(
                            "V6",
                            player,
                            ngettext(
                                "%(player)s's total %(total)s is more than %(num)s tile can "
                                "hold (at most %(most)s)",
                                "%(player)s's total %(total)s is more than %(num)s tiles can "
                                "hold (at most %(most)s)",
                                k,
                                player=player,
                                total=total,
                                most=most,
                            ),
                        )
                    elif total < least:
                        report(
                            "V6",
                            player,
                            ngettext(
                                "%(player)s's total %(total)s is less than %(num)s tile can "
                                "hold (at least %(least)s)",
                                "%(player)s's total %(total)s is less than %(num)s tiles can "
                                "hold (at least %(least)s)",
                                k,
                                player=player,
                                total=total,
                                least=least,
                            ),
                        )
            else:
                most = round_capacity(engine, rules)
                if total > most:
                    if engine_tile:
                        message = _(
                            "%(player)s's total %(total)s is more than all the tiles outside "
                            "the %(engine)s engine hold (%(most)s)",
                            player=player,
                            total=total,
                            engine=engine_tile,
                            most=most,
                        )
                    else:
                        message = _(
                            "%(player)s's total %(total)s is more than all the tiles hold "
                            "(%(most)s)",
                            player=player,
                            total=total,
                            most=most,
                        )
                    report("V6", player, message)
            if len(problems) > before:
                misfits.add(player)
            hand_scores[player] = total

    # V3: a tile in two hands
    held: Counter[Tile] = Counter()
    for counts in counts_by_player.values():
        held.update(counts)
    for tile in sorted(held):
        if held[tile] <= copies:
            continue
        holders = [p for p, counts in counts_by_player.items() if counts[tile]]
        if len(holders) < 2:
            continue  # one hand only: that is V2
        if copies == 1 and len(holders) == 2:
            message = _(
                "%(names)s both have %(tile)s: a tile can be in only one hand",
                names=_names(holders),
                tile=tile,
            )
        elif copies == 1:
            message = _(
                "%(names)s all have %(tile)s: a tile can be in only one hand",
                names=_names(holders),
                tile=tile,
            )
        else:
            message = _(
                "%(names)s have %(tile)s %(count)s times between them: there are only "
                "%(copies)s %(tile)s tiles",
                names=_names(holders),
                tile=tile,
                count=held[tile],
                copies=_number_word(copies),
            )
        for holder in holders:
            report("V3", holder, message)

    # V4: the engine is in the middle
    if engine_tile is not None and held[engine_tile] > copies - 1:
        holders = [p for p, counts in counts_by_player.items() if counts[engine_tile]]
        for holder in holders:
            if copies == 1:
                message = _(
                    "The %(tile)s is this round's engine: it is in the middle, not in "
                    "%(player)s's hand",
                    tile=engine_tile,
                    player=holder,
                )
            else:
                message = _(
                    "The %(tile)s is this round's engine: one is in the middle, so only one can "
                    "be in a hand (%(names)s have %(count)s)",
                    tile=engine_tile,
                    names=_names(holders),
                    count=held[engine_tile],
                )
            report("V4", holder, message)

    # V5: who went out
    if went_out is not None:
        if went_out not in hands:
            report(
                "V5",
                went_out,
                _("%(player)s went out but has no entry in this round", player=went_out),
            )
        if blocked:
            report(
                "V5",
                went_out,
                _(
                    "The round was blocked, so nobody went out: %(player)s cannot have gone out",
                    player=went_out,
                ),
            )
    by_player = {hand.player: hand for hand in entries}
    if went_out is not None and went_out in by_player:
        hand = by_player[went_out]
        if hand.tiles:
            report(
                "V5",
                went_out,
                ngettext(
                    "%(player)s went out, so %(player)s has no tiles left, but %(num)s tile is "
                    "entered",
                    "%(player)s went out, so %(player)s has no tiles left, but %(num)s tiles "
                    "are entered",
                    len(hand.tiles),
                    player=went_out,
                ),
            )
        elif hand.tile_count:
            report(
                "V5",
                went_out,
                _(
                    "%(player)s went out, so %(player)s has no tiles left, not %(count)s",
                    player=went_out,
                    count=hand.tile_count,
                ),
            )
        value = _whole(hand.raw_total) if hand.has_total else None
        if value:
            report(
                "V5",
                went_out,
                _(
                    "%(player)s went out, so %(player)s's total is 0, not %(total)s",
                    player=went_out,
                    total=value,
                ),
            )
    empty = [hand.player for hand in entries if hand.known_empty and hand.player != went_out]
    if went_out is not None:
        for player in empty:
            report(
                "V5",
                player,
                _(
                    "%(player)s has no tiles left, but %(out)s went out: only one player can go "
                    "out in a round",
                    player=player,
                    out=went_out,
                ),
            )
    elif len(empty) >= 2:
        if len(empty) == 2:
            message = _(
                "%(names)s both have no tiles left: only one player can go out in a round",
                names=_names(empty),
            )
        else:
            message = _(
                "%(names)s all have no tiles left: only one player can go out in a round",
                names=_names(empty),
            )
        for player in empty:
            report("V5", player, message)
    elif empty:
        player = empty[0]
        if blocked:
            report(
                "V5",
                player,
                _(
                    "%(player)s has no tiles left, but the round was blocked: nobody went out",
                    player=player,
                ),
            )
        else:
            report(
                "V5",
                player,
                _(
                    "%(player)s has no tiles left: mark %(player)s as the player who went out",
                    player=player,
                ),
                WARNING,
            )

    # V7: all hands together
    together = sum(score for player, score in hand_scores.items() if player not in misfits)
    capacity = round_capacity(engine, rules)
    if together > capacity:
        report("V7", None, _all_hands(together, capacity, name, copies, engine_tile))

    # V9: same score as last round
    if previous:
        for player, score in hand_scores.items():
            if player != went_out and score and previous.get(player) == score:
                report(
                    "V9",
                    player,
                    _(
                        "%(player)s scored %(score)s again, the same as last round: is that right?",
                        player=player,
                        score=score,
                    ),
                )

    order = {hand.player: index for index, hand in enumerate(entries)}

    def sort_key(item: tuple[int, Problem]) -> tuple[int, int, int]:
        position, problem = item
        # Round-wide problems (player None) come last.
        place = len(order) + 1 if problem.player is None else order.get(problem.player, len(order))
        return (place, int(problem.code[1:]), position)

    return [problem for _, problem in sorted(enumerate(problems), key=sort_key)]


def errors(problems: Sequence[Problem]) -> list[Problem]:
    """The problems that block saving."""
    return [problem for problem in problems if problem.level == ERROR]


def warnings(problems: Sequence[Problem]) -> list[Problem]:
    """The problems that ask for a confirmation."""
    return [problem for problem in problems if problem.level == WARNING]

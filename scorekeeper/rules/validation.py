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
_COPY_WORDS = {1: "once", 2: "twice"}
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


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
    return ", ".join(names[:-1]) + " and " + names[-1]


def _times(count: int) -> str:
    return _COPY_WORDS.get(count, f"{count} times")


def _tiles_word(count: int) -> str:
    return "1 tile" if count == 1 else f"{count} tiles"


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
    set_words = f"a {dominoes.name} set"
    # The tiles in play, for round-wide sentences: "the double-12 set" or "the two double-12 sets".
    the_set = f"the {dominoes.name} set" if copies == 1 else f"the two {dominoes.name} sets"
    holds, has = ("holds", "has") if copies == 1 else ("hold", "have")
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
                    verb = "is" if len(bad) == 1 else "are"
                    listed = " and ".join(str(h) for h in bad)
                    report("V1", player, f"{player}'s {tile}: {listed} {verb} not on {set_words}")
            # V2
            for tile, count in sorted(counts.items()):
                if count > copies:
                    if copies == 1:
                        limit = f"there is only one {tile} in the set"
                    else:
                        limit = f"there are only {_NUMBER_WORDS.get(copies, copies)} {tile} tiles"
                    report("V2", player, f"{player} has {tile} {_times(count)}: {limit}")

        # V10 and the total's value
        if hand.has_total:
            raw = hand.raw_total
            value = _whole(raw)
            if raw is None:
                report("V10", player, f"{player}'s total is missing")
            elif value is None:
                shown = f'"{raw}"' if isinstance(raw, str) else str(raw)
                report("V10", player, f"{player}'s total must be a whole number, not {shown}")
            elif value < 0:
                report("V10", player, f"{player}'s total cannot be negative ({value})")
            elif value > whole_set:
                report(
                    "V10",
                    player,
                    f"{player}'s total {value} is more than the whole of {the_set} {holds} "
                    f"({whole_set})",
                )
            else:
                total = value

        # V8: tiles and total (or tile count) both given
        if hand.tiles is not None:
            tiles_score = score_hand([t for t in hand.tiles if t.high <= dominoes.max_pip], rules)
            if total is not None and total != score_hand(hand.tiles, rules):
                report(
                    "V8",
                    player,
                    f"{player}'s tiles add up to {score_hand(hand.tiles, rules)}, "
                    f"but the total says {total}",
                )
            if hand.tile_count is not None and hand.tile_count != len(hand.tiles):
                report(
                    "V8",
                    player,
                    f"{player} has {_tiles_word(len(hand.tiles))} entered, but the tile count "
                    f"says {hand.tile_count}",
                )
            hand_scores[player] = tiles_score
        elif total is not None:
            # V6: total only
            before = len(problems)
            k = hand.tile_count
            engine_words = f" outside the {engine_tile} engine" if engine_tile else ""
            if k is not None:
                pool = hand_pool_size(engine, rules)
                if k > pool:
                    report(
                        "V6",
                        player,
                        f"{player} cannot hold {k} tiles: {the_set} {has} only {pool}"
                        f"{engine_words}",
                    )
                else:
                    most = hand_capacity(k, engine, rules)
                    least = hand_floor(k, engine, rules)
                    if total > most:
                        report(
                            "V6",
                            player,
                            f"{player}'s total {total} is more than {_tiles_word(k)} can hold "
                            f"(at most {most})",
                        )
                    elif total < least:
                        report(
                            "V6",
                            player,
                            f"{player}'s total {total} is less than {_tiles_word(k)} can hold "
                            f"(at least {least})",
                        )
            else:
                most = round_capacity(engine, rules)
                if total > most:
                    report(
                        "V6",
                        player,
                        f"{player}'s total {total} is more than all the tiles{engine_words} "
                        f"hold ({most})",
                    )
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
        if copies == 1:
            both = "both" if len(holders) == 2 else "all"
            message = f"{_names(holders)} {both} have {tile}: a tile can be in only one hand"
        else:
            message = (
                f"{_names(holders)} have {tile} {held[tile]} times between them: there are "
                f"only {_NUMBER_WORDS.get(copies, copies)} {tile} tiles"
            )
        for holder in holders:
            report("V3", holder, message)

    # V4: the engine is in the middle
    if engine_tile is not None and held[engine_tile] > copies - 1:
        holders = [p for p, counts in counts_by_player.items() if counts[engine_tile]]
        for holder in holders:
            if copies == 1:
                message = (
                    f"The {engine_tile} is this round's engine: it is in the middle, "
                    f"not in {holder}'s hand"
                )
            else:
                message = (
                    f"The {engine_tile} is this round's engine: one is in the middle, so only "
                    f"one can be in a hand ({_names(holders)} have {held[engine_tile]})"
                )
            report("V4", holder, message)

    # V5: who went out
    if went_out is not None:
        if went_out not in hands:
            report("V5", went_out, f"{went_out} went out but has no entry in this round")
        if blocked:
            report(
                "V5",
                went_out,
                f"The round was blocked, so nobody went out: {went_out} cannot have gone out",
            )
    by_player = {hand.player: hand for hand in entries}
    if went_out is not None and went_out in by_player:
        hand = by_player[went_out]
        if hand.tiles:
            report(
                "V5",
                went_out,
                f"{went_out} went out, so {went_out} has no tiles left, but "
                f"{_tiles_word(len(hand.tiles))} {'is' if len(hand.tiles) == 1 else 'are'} "
                "entered",
            )
        elif hand.tile_count:
            report(
                "V5",
                went_out,
                f"{went_out} went out, so {went_out} has no tiles left, not {hand.tile_count}",
            )
        value = _whole(hand.raw_total) if hand.has_total else None
        if value:
            report("V5", went_out, f"{went_out} went out, so {went_out}'s total is 0, not {value}")
    empty = [hand.player for hand in entries if hand.known_empty and hand.player != went_out]
    if went_out is not None:
        for player in empty:
            report(
                "V5",
                player,
                f"{player} has no tiles left, but {went_out} went out: only one player can "
                "go out in a round",
            )
    elif len(empty) >= 2:
        for player in empty:
            report(
                "V5",
                player,
                f"{_names(empty)} {'both' if len(empty) == 2 else 'all'} have no tiles left: "
                "only one player can go out in a round",
            )
    elif empty:
        player = empty[0]
        if blocked:
            report(
                "V5",
                player,
                f"{player} has no tiles left, but the round was blocked: nobody went out",
            )
        else:
            report(
                "V5",
                player,
                f"{player} has no tiles left: mark {player} as the player who went out",
                WARNING,
            )

    # V7: all hands together
    together = sum(score for player, score in hand_scores.items() if player not in misfits)
    capacity = round_capacity(engine, rules)
    if together > capacity:
        outside = f" outside the {engine_tile} engine" if engine_tile else ""
        report(
            "V7",
            None,
            f"All hands together hold {together} pips, but {the_set} {holds} only "
            f"{capacity}{outside}",
        )

    # V9: same score as last round
    if previous:
        for player, score in hand_scores.items():
            if player != went_out and score and previous.get(player) == score:
                report(
                    "V9",
                    player,
                    f"{player} scored {score} again, the same as last round: is that right?",
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

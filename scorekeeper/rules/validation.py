"""Checking a round before it is saved (rules.md section 4).

Errors block saving; warnings ask for a confirmation. Every problem carries the rule code
("V1".."V10"), the level, the player it concerns (None for the whole round) and a sentence a
player understands.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from scorekeeper.rules import validation_messages as messages
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
from scorekeeper.rules.words import _

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


def _engine_tile(engine: int | None, rules: HouseRules) -> Tile | None:
    """The engine double, after checking that it is one of the set (ValueError otherwise)."""
    max_pip = rules.domino_set.max_pip
    if engine is None:
        return None
    if isinstance(engine, bool) or not isinstance(engine, int) or not 0 <= engine <= max_pip:
        raise ValueError(f"The engine must be a double from 0 to {max_pip}, got {engine!r}")
    return Tile(engine, engine)


@dataclass
class _Round:
    """What every check of ``validate_round`` reads (the round's entries and facts) and the one
    thing they write: the problems found so far, in the order found."""

    entries: list[_Hand]
    engine: int | None
    engine_tile: Tile | None
    rules: HouseRules
    went_out: Any
    went_out_entered: bool
    blocked: bool | None
    previous: Mapping[Any, int] | None
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        dominoes = self.rules.domino_set
        self.max_pip = dominoes.max_pip
        self.name = dominoes.name  # "double-12", in the player's language
        self.copies = self.rules.copies
        self.whole_set = set_score(self.rules)
        self.counts = {h.player: Counter(h.tiles) for h in self.entries if h.tiles is not None}
        self.held: Counter[Tile] = Counter()
        for counts in self.counts.values():
            self.held.update(counts)

    def report(self, code: str, player: Any, message: str, level: str | None = None) -> None:
        self.problems.append(Problem(code, level or LEVELS[code], player, message))

    def total(self, hand: _Hand) -> int | None:
        """The hand's typed total when it is usable (V10 reports the others), else None."""
        value = _whole(hand.raw_total) if hand.has_total else None
        if value is None or not 0 <= value <= self.whole_set:
            return None
        return value

    def scores(self) -> dict[Any, int]:
        """Each hand's score, in the order of the entries: its tiles (those on the set) when
        given, else its usable total; hands with neither have none."""
        found: dict[Any, int] = {}
        for hand in self.entries:
            if hand.tiles is not None:
                on_set = [t for t in hand.tiles if t.high <= self.max_pip]
                found[hand.player] = score_hand(on_set, self.rules)
            elif (total := self.total(hand)) is not None:
                found[hand.player] = total
        return found

    def holders(self, tile: Tile) -> list[Any]:
        return [player for player, counts in self.counts.items() if counts[tile]]

    def in_order(self) -> list[Problem]:
        """The problems ordered by player (in the order of the entries, round-wide problems
        last), then by code, then in the order found."""
        order = {hand.player: index for index, hand in enumerate(self.entries)}

        def key(item: tuple[int, Problem]) -> tuple[int, int, int]:
            position, problem = item
            place = len(order) + 1 if problem.player is None else order.get(problem.player)
            return (len(order) if place is None else place, int(problem.code[1:]), position)

        return [problem for _, problem in sorted(enumerate(self.problems), key=key)]


def _check_halves(facts: _Round) -> None:
    """V1: every half between 0 and the set's highest number."""
    for player, counts in facts.counts.items():
        for tile in sorted(counts):
            if tile.high > facts.max_pip:
                bad = sorted({half for half in tile.halves if half > facts.max_pip})
                facts.report("V1", player, messages.off_the_set(player, tile, bad, facts.name))


def _check_copies_in_a_hand(facts: _Round) -> None:
    """V2: no tile in one hand more often than the set has it."""
    for player, counts in facts.counts.items():
        for tile, count in sorted(counts.items()):
            if count > facts.copies:
                facts.report("V2", player, messages.too_many(player, tile, count, facts.copies))


def _check_totals(facts: _Round) -> None:
    """V10: a typed total is a whole number, not negative, not more than the whole set holds."""
    for hand in facts.entries:
        if hand.has_total and facts.total(hand) is None:
            raw = hand.raw_total
            message = messages.total_unusable(
                hand.player, raw, _whole(raw), facts.whole_set, facts.name, facts.copies
            )
            facts.report("V10", hand.player, message)


def _check_tiles_agree(facts: _Round) -> None:
    """V8: tiles and a total both given agree, and so do tiles and a tile count."""
    for hand in facts.entries:
        if hand.tiles is None:
            continue
        total = facts.total(hand)
        tiles_sum = score_hand(hand.tiles, facts.rules)
        if total is not None and total != tiles_sum:
            facts.report("V8", hand.player, messages.tiles_disagree(hand.player, tiles_sum, total))
        if hand.tile_count is not None and hand.tile_count != len(hand.tiles):
            message = messages.count_disagrees(hand.player, len(hand.tiles), hand.tile_count)
            facts.report("V8", hand.player, message)


def _check_total_fits(facts: _Round) -> None:
    """V6: a total without tiles fits the hand: for a known tile count k between the k lightest
    and the k heaviest tiles other than the engine, otherwise at most the whole set minus the
    engine."""
    engine, rules = facts.engine, facts.rules
    for hand in facts.entries:
        total = facts.total(hand)
        if hand.tiles is not None or total is None:
            continue
        player, count = hand.player, hand.tile_count
        if count is None:
            most = round_capacity(engine, rules)
            if total > most:
                message = messages.above_all_tiles(player, total, most, facts.engine_tile)
                facts.report("V6", player, message)
            continue
        pool = hand_pool_size(engine, rules)
        if count > pool:
            message = messages.cannot_hold(
                player, count, pool, facts.name, facts.copies, facts.engine_tile
            )
            facts.report("V6", player, message)
        elif total > (most := hand_capacity(count, engine, rules)):
            facts.report("V6", player, messages.above_count(player, total, count, most))
        elif total < (least := hand_floor(count, engine, rules)):
            facts.report("V6", player, messages.below_count(player, total, count, least))


def _check_shared_tiles(facts: _Round) -> None:
    """V3: no tile in two hands (more often than the set has it), reported for every holder."""
    for tile in sorted(facts.held):
        if facts.held[tile] <= facts.copies:
            continue
        holders = facts.holders(tile)
        if len(holders) < 2:
            continue  # one hand only: that is V2
        message = messages.shared_tile(holders, tile, facts.held[tile], facts.copies)
        for holder in holders:
            facts.report("V3", holder, message)


def _check_engine(facts: _Round) -> None:
    """V4: the engine is in the middle, in no hand (with two copies, at most one in the hands)."""
    engine = facts.engine_tile
    if engine is None or facts.held[engine] <= facts.copies - 1:
        return
    holders = facts.holders(engine)
    for holder in holders:
        message = messages.engine_in_hand(holder, holders, engine, facts.held[engine], facts.copies)
        facts.report("V4", holder, message)


def _check_who_went_out(facts: _Round) -> None:
    """V5, the player who went out: has an entry, in a round that was not blocked, with no
    tiles and a total of 0."""
    out = facts.went_out
    if out is None:
        return
    if not facts.went_out_entered:
        message = _("%(player)s went out but has no entry in this round", player=out)
        facts.report("V5", out, message)
    if facts.blocked:
        message = _(
            "The round was blocked, so nobody went out: %(player)s cannot have gone out",
            player=out,
        )
        facts.report("V5", out, message)
    hand = next((hand for hand in facts.entries if hand.player == out), None)
    if hand is None:
        return
    if hand.tiles:
        facts.report("V5", out, messages.went_out_with_tiles(out, len(hand.tiles)))
    elif hand.tile_count:
        message = _(
            "%(player)s went out, so %(player)s has no tiles left, not %(count)s",
            player=out,
            count=hand.tile_count,
        )
        facts.report("V5", out, message)
    if value := (_whole(hand.raw_total) if hand.has_total else None):
        message = _(
            "%(player)s went out, so %(player)s's total is 0, not %(total)s",
            player=out,
            total=value,
        )
        facts.report("V5", out, message)


def _check_empty_hands(facts: _Round) -> None:
    """V5, the empty hands: only the player who went out has one; a single empty hand in a round
    marked as nobody going out is a warning (an error in a blocked round)."""
    out = facts.went_out
    empty = [hand.player for hand in facts.entries if hand.known_empty and hand.player != out]
    if out is not None:
        for player in empty:
            message = _(
                "%(player)s has no tiles left, but %(out)s went out: only one player can go "
                "out in a round",
                player=player,
                out=out,
            )
            facts.report("V5", player, message)
    elif len(empty) >= 2:
        message = messages.several_empty(empty)
        for player in empty:
            facts.report("V5", player, message)
    elif empty and facts.blocked:
        message = _(
            "%(player)s has no tiles left, but the round was blocked: nobody went out",
            player=empty[0],
        )
        facts.report("V5", empty[0], message)
    elif empty:
        message = _(
            "%(player)s has no tiles left: mark %(player)s as the player who went out",
            player=empty[0],
        )
        facts.report("V5", empty[0], message, WARNING)


def _check_all_hands(facts: _Round) -> None:
    """V7: all hands together hold no more than the set minus the engine (double-12: 1068).
    Totals V6 already reported stay out."""
    misfits = {problem.player for problem in facts.problems if problem.code == "V6"}
    scores = facts.scores()
    together = sum(score for player, score in scores.items() if player not in misfits)
    capacity = round_capacity(facts.engine, facts.rules)
    if together > capacity:
        message = messages.all_hands(
            together, capacity, facts.name, facts.copies, facts.engine_tile
        )
        facts.report("V7", None, message)


def _check_repeats(facts: _Round) -> None:
    """V9 (warning): a non-zero score identical to the same player's previous round."""
    if not facts.previous:
        return
    for player, score in facts.scores().items():
        if player != facts.went_out and score and facts.previous.get(player) == score:
            message = _(
                "%(player)s scored %(score)s again, the same as last round: is that right?",
                player=player,
                score=score,
            )
            facts.report("V9", player, message)


#: The checks ``validate_round`` runs, in this order, on one shared ``_Round``. A check reads the
#: round and reports what it finds; only V7 reads what an earlier check found (the V6 totals).
CHECKS: tuple[Callable[[_Round], None], ...] = (
    _check_halves,
    _check_copies_in_a_hand,
    _check_totals,
    _check_tiles_agree,
    _check_total_fits,
    _check_shared_tiles,
    _check_engine,
    _check_who_went_out,
    _check_empty_hands,
    _check_all_hands,
    _check_repeats,
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
    engine_tile = _engine_tile(engine, rules)
    facts = _Round(
        entries=[_as_hand(player, value) for player, value in hands.items()],
        engine=engine,
        engine_tile=engine_tile,
        rules=rules,
        went_out=went_out,
        went_out_entered=went_out in hands,
        blocked=blocked,
        previous=previous,
    )
    for check in CHECKS:
        check(facts)
    return facts.in_order()


def errors(problems: Sequence[Problem]) -> list[Problem]:
    """The problems that block saving."""
    return [problem for problem in problems if problem.level == ERROR]


def warnings(problems: Sequence[Problem]) -> list[Problem]:
    """The problems that ask for a confirmation."""
    return [problem for problem in problems if problem.level == WARNING]

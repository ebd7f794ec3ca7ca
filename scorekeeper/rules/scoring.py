"""Scoring a Mexican Train round and a game (rules.md 2.4).

Base rule: a player's round score is the sum of the pips left in their hand; the player who went
out scores 0; in a blocked round everyone scores their hand; scores add up over the rounds and the
lowest total wins. The house rules change how tiles count and add penalties and bonuses.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from scorekeeper.rules.house import END_ON_DOUBLE_PENALTY, OPEN_DOUBLE_PENALTIES, HouseRules
from scorekeeper.rules.tiles import Tile

P = TypeVar("P", bound=Hashable)

_DEFAULT_RULES = HouseRules()


def tile_score(tile: Tile, rules: HouseRules = _DEFAULT_RULES) -> int:
    """What one tile left in hand counts (rules.md 2.4).

    Its pips, except: with ``blank_half`` 5 or 25 every blank half counts that (so 0-4 counts 29
    and 0-0 counts 50 at 25), and ``double_blank`` is added on top of the 0-0 only with
    ``double_blank_on_top``; otherwise the 0-0 counts ``double_blank`` (0, 25 or 50). With
    ``doubles_count`` "twice" any other double counts twice its pips (6-6: 24).
    """
    if rules.blank_half:
        value = sum(rules.blank_half if half == 0 else half for half in tile.halves)
        if tile.high == 0 and rules.double_blank_on_top:
            value += rules.double_blank
        elif tile.is_double and tile.high and rules.doubles_count == "twice":
            value *= 2
        return value
    if tile.high == 0:
        return rules.double_blank
    if tile.is_double and rules.doubles_count == "twice":
        return 2 * tile.pips
    return tile.pips


def score_hand(tiles: Iterable[Tile], rules: HouseRules = _DEFAULT_RULES) -> int:
    """Pips left in a hand under the house rules: the sum of ``tile_score`` over its tiles.

    An empty hand scores 0, but so can a hand holding only the 0-0 under the default rule: a 0
    score does not mean the player went out.
    """
    return sum(tile_score(tile, rules) for tile in tiles)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class RoundEntry:
    """What was recorded for one player in one round: the tiles left (``tiles``) or, when only
    the sum is known, ``total`` (already a hand score under the house rules), plus the number of
    open-train ``markers`` still out at round end. When both are given the tiles count; the
    validator (V8) checks that they agree."""

    tiles: tuple[Tile, ...] | None = None
    total: int | None = None
    markers: int = 0
    open_doubles: int = 0

    def __post_init__(self) -> None:
        if self.tiles is not None:
            tiles = tuple(self.tiles)
            if not all(isinstance(tile, Tile) for tile in tiles):
                raise TypeError("RoundEntry.tiles must hold Tile values")
            object.__setattr__(self, "tiles", tiles)
        if self.tiles is None and self.total is None:
            raise ValueError("A round entry needs the tiles left or a total")
        if self.total is not None and (not _is_whole(self.total) or self.total < 0):
            raise ValueError(f"A total must be a whole number >= 0, got {self.total!r}")
        if not _is_whole(self.markers) or self.markers < 0:
            raise ValueError(f"markers must be a whole number >= 0, got {self.markers!r}")
        if not _is_whole(self.open_doubles) or self.open_doubles < 0:
            raise ValueError(f"open_doubles must be a whole number >= 0, got {self.open_doubles!r}")

    def hand_score(self, rules: HouseRules = _DEFAULT_RULES) -> int:
        """The pips this entry stands for: the tiles' score, else the typed total."""
        if self.tiles is not None:
            return score_hand(self.tiles, rules)
        assert self.total is not None
        return self.total


def score_round(
    entries: Mapping[P, RoundEntry],
    rules: HouseRules = _DEFAULT_RULES,
    went_out: P | None = None,
    went_out_on_double: bool = False,
) -> dict[P, int]:
    """Each player's score for one round (rules.md 2.4 and the house rules), in this order:

    1. hand score: the tiles left under the house rules, or the typed total;
    2. the player who went out scores 0 pips (``went_out`` None: a blocked round, everyone
       scores their hand; under ``blocked_round`` "lowest_zero" the lowest hand, every one tied
       for lowest, scores 0);
    3. a double left open (``open_double_penalty`` "times_3"/"times_5"): that player's hand
       counts 3 or 5 times;
    4. going out on a double (``went_out_on_double``): "penalty" adds 50 to the player who went
       out; "double_others" doubles the other players' hand scores; "allowed" changes nothing;
    5. marker penalty: ``marker_penalty`` for each open-train marker still out, and
       "plus_5"/"plus_10" for each double left open (not doubled);
    6. going-out bonus (0, -5 or -10) to the player who went out; a round score can go negative.

    Under ``score_by`` "arrivals" none of this counts: the player who went out scores 1, everyone
    else 0 (a blocked round gives nobody a point).
    """
    if went_out is not None and went_out not in entries:
        raise ValueError(f"{went_out!r} went out but has no entry in this round")
    if went_out_on_double and went_out is None:
        raise ValueError("Going out on a double needs the player who went out")
    if rules.score_by == "arrivals":
        return {player: int(player == went_out) for player in entries}
    hands = {player: entry.hand_score(rules) for player, entry in entries.items()}
    zeroed: set[P] = set()
    if went_out is not None:
        zeroed = {went_out}
    elif rules.blocked_round == "lowest_zero" and hands:
        lowest = min(hands.values())
        zeroed = {player for player, hand in hands.items() if hand == lowest}
    added, times = OPEN_DOUBLE_PENALTIES[rules.open_double_penalty]
    scores: dict[P, int] = {}
    for player, entry in entries.items():
        score = 0 if player in zeroed else hands[player]
        if entry.open_doubles:
            score *= times
        if went_out_on_double:
            if rules.end_on_double == "penalty" and player == went_out:
                score += END_ON_DOUBLE_PENALTY
            elif rules.end_on_double == "double_others" and player != went_out:
                score *= 2
        score += rules.marker_penalty * entry.markers
        score += added * entry.open_doubles
        if player == went_out:
            score += rules.going_out_bonus
        scores[player] = score
    return scores


def round_winners(
    scores: Mapping[P, int], went_out: P | None = None, rules: HouseRules = _DEFAULT_RULES
) -> list[P]:
    """Who won a round: the player who went out; in a blocked round, the lowest score (several
    when tied), and nobody under arrivals scoring (nobody arrived)."""
    if went_out is not None:
        return [went_out]
    if not scores or rules.score_by == "arrivals":
        return []
    best = min(scores.values())
    return [player for player, score in scores.items() if score == best]


def game_totals(
    rounds: Sequence[Mapping[P, int]], start: Mapping[P, int] | None = None
) -> dict[P, int]:
    """Each player's game total: the sum of their round scores (a player missing from a round
    adds nothing), plus a starting total (``start``, for a late joiner)."""
    totals: dict[P, int] = dict(start or {})
    for scores in rounds:
        for player, score in scores.items():
            totals[player] = totals.get(player, 0) + score
    return totals


def running_totals(
    rounds: Sequence[Mapping[P, int]], start: Mapping[P, int] | None = None
) -> list[dict[P, int]]:
    """The totals after each round (the scoreboard's cumulative rows)."""
    totals: dict[P, int] = dict(start or {})
    rows: list[dict[P, int]] = []
    for scores in rounds:
        for player, score in scores.items():
            totals[player] = totals.get(player, 0) + score
        rows.append(dict(totals))
    return rows


def late_joiner_start(
    totals: Mapping[object, int],
    rules: HouseRules = _DEFAULT_RULES,
    lower_is_better: bool | None = None,
) -> int:
    """The total a late joiner starts with: 0, or under "highest_total" the highest current total
    at the table (house option of rules.md 2.4): the worst total, so joining late never pays
    (the lowest under arrivals scoring or in a points game, where the highest total wins:
    ``lower_is_better`` False)."""
    lower = rules.lower_is_better if lower_is_better is None else lower_is_better
    if rules.late_joiner == "highest_total" and totals:
        return max(totals.values()) if lower else min(totals.values())
    return 0


# --- What hands can hold (used by the validator, V6 and V7) ----------------------------------


def _check_engine(engine: int | None, rules: HouseRules) -> None:
    if engine is not None and (not _is_whole(engine) or not 0 <= engine <= rules.max_pip):
        raise ValueError(f"The engine must be a double from 0 to {rules.max_pip}, got {engine!r}")


@lru_cache(maxsize=256)
def _pool_scores(rules: HouseRules, engine: int | None) -> tuple[int, ...]:
    """Scores of every tile that can be in a hand (every copy, minus one engine), heaviest first."""
    scores = [tile_score(tile, rules) for tile in rules.domino_set.tiles] * rules.copies
    if engine is not None:
        scores.remove(tile_score(Tile(engine, engine), rules))
    return tuple(sorted(scores, reverse=True))


def hand_pool_size(engine: int | None, rules: HouseRules = _DEFAULT_RULES) -> int:
    """How many tiles can be in hands: every tile of the set(s) minus the engine."""
    _check_engine(engine, rules)
    return len(_pool_scores(rules, engine))


def set_score(rules: HouseRules = _DEFAULT_RULES) -> int:
    """The whole set (every copy) scored under the house rules (double-12, defaults: 1092)."""
    return sum(_pool_scores(rules, None))


def hand_capacity(k: int, engine: int | None, rules: HouseRules = _DEFAULT_RULES) -> int:
    """The most a hand of ``k`` tiles can score (rule V6): the sum of the ``k`` heaviest tiles,
    by score under the house rules, other than the round's engine. More tiles than the set holds
    count as the whole pool."""
    if not _is_whole(k) or k < 0:
        raise ValueError(f"A tile count must be a whole number >= 0, got {k!r}")
    _check_engine(engine, rules)
    return sum(_pool_scores(rules, engine)[:k])


def hand_floor(k: int, engine: int | None, rules: HouseRules = _DEFAULT_RULES) -> int:
    """The least a hand of ``k`` tiles can score: the sum of the ``k`` lightest tiles other than
    the engine."""
    if not _is_whole(k) or k < 0:
        raise ValueError(f"A tile count must be a whole number >= 0, got {k!r}")
    _check_engine(engine, rules)
    pool = _pool_scores(rules, engine)
    return sum(pool[max(0, len(pool) - k) :]) if k else 0


def round_capacity(engine: int | None, rules: HouseRules = _DEFAULT_RULES) -> int:
    """The most all hands together can score (rule V7): the whole set minus the engine
    (double-12, 12-12 engine, defaults: 1092 - 24 = 1068)."""
    _check_engine(engine, rules)
    return sum(_pool_scores(rules, engine))

"""Ranking players in a game (rules.md 2.4) with helpers shared by the league standings (6).

Standard competition ranking: equal values share a rank and the next rank skips (1, 1, 3).
Mexican Train: the lowest total wins. The points games of rules.md 5 rank the highest first
(``lower_is_better=False``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from scorekeeper.rules.house import HouseRules

P = TypeVar("P", bound=Hashable)
Number = int | float

_DEFAULT_RULES = HouseRules()


@dataclass(frozen=True)
class Standing:
    """One line of a ranking: ``rank`` is shared by tied players (``tied`` True); ``note`` says how
    a tie was broken or that it stands ("" when there was no tie)."""

    player: Any
    total: Number
    rank: int
    tied: bool
    note: str = ""


@dataclass(frozen=True)
class _Step:
    label: str
    value: Callable[[Any], Number | None]
    higher_is_better: bool


def rank_values(values: Mapping[P, Number], lower_is_better: bool = True) -> dict[P, int]:
    """Standard competition ranks of ``values``: equal values share a rank, the next rank skips
    (totals 10, 10, 12 -> ranks 1, 1, 3)."""
    ordered = sorted(values.values(), reverse=not lower_is_better)
    first_place: dict[Number, int] = {}
    for index, value in enumerate(ordered):
        first_place.setdefault(value, index + 1)
    return {player: first_place[value] for player, value in values.items()}


def _chain_steps(
    round_scores: Mapping[Any, Sequence[Number]] | None,
    went_out_counts: Mapping[Any, int] | None,
    lower_is_better: bool,
) -> list[_Step]:
    steps: list[_Step] = []
    if went_out_counts is not None:
        steps.append(_Step("rounds gone out", lambda p: went_out_counts.get(p, 0), True))
    if round_scores is not None:

        def worst(player: Any) -> Number | None:
            scores = round_scores.get(player)
            if not scores:
                return None
            return max(scores) if lower_is_better else min(scores)

        def final(player: Any) -> Number | None:
            scores = round_scores.get(player)
            return scores[-1] if scores else None

        steps.append(_Step("worst round", worst, not lower_is_better))
        steps.append(_Step("final round", final, not lower_is_better))
    return steps


def _refine(block: list[Any], steps: list[_Step], index: int) -> tuple[list[list[Any]], list[int]]:
    """Split a tied block by the tie-break steps from ``index`` on. Returns the ordered sub-blocks
    and, for each boundary between consecutive sub-blocks, the step that decided it."""
    if len(block) == 1 or index >= len(steps):
        return [block], []
    step = steps[index]
    values = {player: step.value(player) for player in block}
    if any(value is None for value in values.values()):
        return _refine(block, steps, index + 1)
    distinct = sorted({v for v in values.values() if v is not None}, reverse=step.higher_is_better)
    blocks: list[list[Any]] = []
    boundaries: list[int] = []
    for position, value in enumerate(distinct):
        sub_blocks, sub_boundaries = _refine(
            [player for player in block if values[player] == value], steps, index + 1
        )
        if position:
            boundaries.append(index)
        blocks.extend(sub_blocks)
        boundaries.extend(sub_boundaries)
    return blocks, boundaries


def _fmt(value: Number | None) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def rank_players(
    totals: Mapping[P, Number],
    rules: HouseRules = _DEFAULT_RULES,
    round_scores: Mapping[P, Sequence[Number]] | None = None,
    went_out_counts: Mapping[P, int] | None = None,
    *,
    lower_is_better: bool = True,
) -> list[Standing]:
    """Rank a game's players (rules.md 2.4): the lowest total first (``lower_is_better=False``
    for points games). Tied players share a rank (1, 1, 3) and are co-winners, unless
    ``rules.tie_break`` is "chain": then ties are broken by, in order,

    1. most rounds gone out (``went_out_counts``),
    2. lowest worst round (``round_scores``; the highest single round score is the worst),
    3. lowest final round (the last of ``round_scores``),

    skipping a step whose data is missing. The note says which step decided ("ahead on rounds
    gone out: 3 to 1"); players still level after every step keep sharing the rank.
    """
    order = list(totals)
    ordered = sorted(order, key=lambda p: totals[p], reverse=not lower_is_better)
    chain = rules.tie_break == "chain"
    steps = _chain_steps(round_scores, went_out_counts, lower_is_better) if chain else []

    standings: list[Standing] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and totals[ordered[end]] == totals[ordered[start]]:
            end += 1
        group = ordered[start:end]
        total_text = _fmt(totals[group[0]])
        if len(group) == 1:
            standings.append(Standing(group[0], totals[group[0]], start + 1, False, ""))
        elif not chain:
            for player in group:
                standings.append(
                    Standing(player, totals[player], start + 1, True, f"tied on {total_text}")
                )
        else:
            blocks, boundaries = _refine(group, steps, 0)
            place = start
            for number, block in enumerate(blocks):
                notes: list[str] = []
                if number > 0:
                    step = steps[boundaries[number - 1]]
                    mine, theirs = step.value(block[0]), step.value(blocks[number - 1][0])
                    notes.append(f"behind on {step.label}: {_fmt(mine)} to {_fmt(theirs)}")
                if number < len(blocks) - 1:
                    step = steps[boundaries[number]]
                    mine, theirs = step.value(block[0]), step.value(blocks[number + 1][0])
                    notes.append(f"ahead on {step.label}: {_fmt(mine)} to {_fmt(theirs)}")
                if len(block) > 1:
                    notes.append(f"tied on {total_text} after every tie-break")
                note = f"tied on {total_text}; " if len(block) == 1 else ""
                note += "; ".join(notes)
                for player in block:
                    standings.append(
                        Standing(player, totals[player], place + 1, len(block) > 1, note)
                    )
                place += len(block)
        start = end
    return standings


def winners(standings: Sequence[Standing]) -> list[Any]:
    """The players ranked first: one winner, or co-winners when a tie stands."""
    return [standing.player for standing in standings if standing.rank == 1]


def rank_movement(
    previous: Sequence[Standing], current: Sequence[Standing]
) -> dict[Any, int | None]:
    """How far each player moved since the previous standings: positive is up (rank 3 -> 1 is
    +2), 0 unchanged, None for a player who was not ranked before."""
    before = {standing.player: standing.rank for standing in previous}
    return {
        standing.player: (before[standing.player] - standing.rank)
        if standing.player in before
        else None
        for standing in current
    }

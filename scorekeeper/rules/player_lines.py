"""A player's line over many games (rules.md 6): games, wins, totals, rounds, nights and
placement points, worked out from plain per-seat game results. The standings methods
(``rules.standings_methods``) rank these lines."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorekeeper.rules.placings import DEFAULT_PLACEMENT_POINTS, Placing, SeatResult, placings


@dataclass(frozen=True)
class PlayerLine:
    """What a player did over the results given: games, wins, totals, rounds, nights, points."""

    player: Any
    games: int
    wins: int
    total: int
    rounds: int
    went_out: int
    best: int | None
    worst: int | None
    nights: int
    points: Fraction | int
    rating: float | None = None

    @property
    def average(self) -> Fraction | None:
        """Average game total (lower is better)."""
        return Fraction(self.total, self.games) if self.games else None

    @property
    def per_round(self) -> Fraction | None:
        """Average points per round played."""
        return Fraction(self.total, self.rounds) if self.rounds else None

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.games) if self.games else None


def player_lines(
    results: Sequence[SeatResult],
    table: Sequence[int] = DEFAULT_PLACEMENT_POINTS,
    best_nights: int | None = None,
    ratings: Mapping[Hashable, float] | None = None,
    placed: Mapping[tuple[Hashable, Hashable], Placing] | None = None,
) -> dict[Hashable, PlayerLine]:
    """Each player's line. Placement points are summed over all games, or, with ``best_nights``
    N, over the player's N best nights (a night's points are the sum of its games).
    ``placed`` is ``placings(results, table)`` when the caller has it already."""
    if placed is None:
        placed = placings(results, table)
    mine: dict[Hashable, list[SeatResult]] = defaultdict(list)
    for result in results:
        mine[result.player].append(result)
    # Shared places give fractions (two tied for 1st get 8/2, three for 2nd get 6/3 or 5/3):
    # points are added as whole multiples of 1/scale, exactly, and made a Fraction once.
    scale = math.lcm(
        1, *{p.points.denominator for p in placed.values() if isinstance(p.points, Fraction)}
    )
    lines: dict[Hashable, PlayerLine] = {}
    for player, games in mine.items():
        night_points: dict[Hashable, int] = defaultdict(int)
        wins = 0
        for result in games:
            placing = placed[(result.game, player)]
            wins += placing.win
            points = placing.points
            night_points[result.night] += (
                points * scale
                if isinstance(points, int)
                else points.numerator * (scale // points.denominator)
            )
        counted = list(night_points.values())
        if best_nights is not None:
            counted = sorted(counted, reverse=True)[:best_nights]
        summed = sum(counted)
        totals = [result.total for result in games]
        lines[player] = PlayerLine(
            player=player,
            games=len(games),
            wins=wins,
            total=sum(totals),
            rounds=sum(result.rounds for result in games),
            went_out=sum(result.went_out for result in games),
            best=min(totals),
            worst=max(totals),
            nights=len(night_points),
            points=summed // scale if summed % scale == 0 else Fraction(summed, scale),
            rating=ratings.get(player) if ratings is not None else None,
        )
    return lines

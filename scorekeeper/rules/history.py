"""A player's history in a league: one night's results, the games a player played, and
head-to-head records against each opponent."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorekeeper.rules.placings import (
    DEFAULT_PLACEMENT_POINTS,
    Placing,
    SeatResult,
    by_game,
    placings,
)
from scorekeeper.rules.ranking import Ranked
from scorekeeper.rules.standings import AVERAGE, WINS, player_lines, rank_lines

# --------------------------------------------------------------------------------------------
# A night across its tables; a player's games and head-to-head


NIGHT_CHAIN = (AVERAGE, WINS)


def night_results(
    results: Sequence[SeatResult],
    table: Sequence[int] = DEFAULT_PLACEMENT_POINTS,
    order: Callable[[Any], Any] | None = None,
) -> list[Ranked]:
    """One night's results across its tables: every player by their game total (the average
    when they played more than one game), lowest first; ties: more wins, then shared."""
    return rank_lines(player_lines(results, table).values(), NIGHT_CHAIN, order)


@dataclass(frozen=True)
class PlayedGame:
    result: SeatResult
    placing: Placing


def games_of(
    results: Sequence[SeatResult],
    player: Hashable,
    table: Sequence[int] = DEFAULT_PLACEMENT_POINTS,
    placed: Mapping[tuple[Hashable, Hashable], Placing] | None = None,
) -> list[PlayedGame]:
    """A player's games in the order of ``results`` with their place at each table."""
    if placed is None:
        placed = placings(results, table)
    return [
        PlayedGame(result, placed[(result.game, player)])
        for result in results
        if result.player == player
    ]


@dataclass(frozen=True)
class Rivalry:
    """A player against one opponent over the games they shared a table: ``ahead`` when the
    player's game total was lower, ``behind`` when higher, ``level`` when equal."""

    opponent: Any
    games: int
    ahead: int
    behind: int
    level: int
    my_total: int
    their_total: int

    @property
    def my_average(self) -> Fraction:
        return Fraction(self.my_total, self.games)

    @property
    def their_average(self) -> Fraction:
        return Fraction(self.their_total, self.games)


def head_to_head(results: Sequence[SeatResult], player: Hashable) -> list[Rivalry]:
    """Head-to-head against every opponent the player shared a table with, most games first."""
    tallies: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for seats in by_game(results).values():
        mine = next((s for s in seats if s.player == player), None)
        if mine is None:
            continue
        for other in seats:
            if other.player == player:
                continue
            tally = tallies[other.player]
            tally[0] += 1
            # Ahead: the better total at that table (the lower one, the higher in points games).
            better, worse = (
                (mine.total > other.total, mine.total < other.total)
                if mine.higher_wins
                else (mine.total < other.total, mine.total > other.total)
            )
            if better:
                tally[1] += 1
            elif worse:
                tally[2] += 1
            else:
                tally[3] += 1
            tally[4] += mine.total
            tally[5] += other.total
    rivalries = [Rivalry(opponent, *tally) for opponent, tally in tallies.items()]
    rivalries.sort(key=lambda r: -r.games)
    return rivalries

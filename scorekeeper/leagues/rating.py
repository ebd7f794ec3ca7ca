"""The skill rating of rules.md 6: OpenSkill's Plackett-Luce model, which rates multiplayer
games from finishing places and accounts for the strength of everyone at the table.

Games are rated in the order played. Everyone starts at the model's default (mu 25, sigma 25/3);
the rating shown is the model's ordinal, mu - 3 * sigma, a cautious estimate that starts at 0 and
grows as a player's games make the estimate surer. Ratings depend only on the results, so they
are cached per set of results.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

from openskill.models import PlackettLuce

from scorekeeper.rules.placings import SeatResult, by_game
from scorekeeper.rules.ranking import rank_values


def ratings(results: Sequence[SeatResult]) -> dict[Hashable, float]:
    """Each player's rating after the games of ``results`` (in the order given)."""
    return dict(_ratings(tuple(results)))


@lru_cache(maxsize=16)
def _ratings(results: tuple[SeatResult, ...]) -> tuple[tuple[Hashable, float], ...]:
    model = PlackettLuce()
    current = {}
    for seats in by_game(results).values():
        if len(seats) < 2:
            continue
        places = rank_values(
            {seat.player: seat.total for seat in seats}, lower_is_better=not seats[0].higher_wins
        )
        players = [seat.player for seat in seats]
        teams = [[current.get(player) or model.rating()] for player in players]
        rated = model.rate(teams, ranks=[places[player] for player in players])
        for player, team in zip(players, rated, strict=True):
            current[player] = team[0]
    return tuple((player, rating.ordinal()) for player, rating in current.items())

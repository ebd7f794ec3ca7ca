"""The skill rating of a league (rules.md 6, docs/rules.md "How the rating treats ties").

Weng and Lin's Bayesian approximation ("A Bayesian Approximation Method for Online Ranking",
JMLR 12, 2011), the method OpenSkill implements, with its Bradley-Terry full-pair model: every
game counts as one match against each other player at the table. Finishing ahead of a player
is a win against them, behind a loss, and **a tie half of each**, so tied players are rated
alike whatever order they are listed in, and a player never gains on someone who finished
ahead of them. (OpenSkill's Plackett-Luce model, used before, could rate the third of a game
above the two who tied for first: openskill.py issue 155.)

Everyone starts at ``MU`` with uncertainty ``SIGMA``; each game moves a player's estimate by how
surprising the results against each opponent were (beating a stronger player counts for more)
and makes it surer. Games are rated in the order played. The rating shown is the cautious
estimate mu - 3 sigma: it starts at 0 and grows as a player's level becomes clearer.

Standard library only: results in, numbers out.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import NamedTuple

from scorekeeper.rules.placings import SeatResult, by_game
from scorekeeper.rules.ranking import rank_values

MU = 25.0  # where everyone starts
SIGMA = MU / 3  # how unsure the start is
BETA = SIGMA / 2  # how much one game's result varies around a player's level
TAU = MU / 300  # added uncertainty before each game, so a level can still move after many games
KAPPA = 0.0001  # the least share of its uncertainty a game may leave a player


class Rating(NamedTuple):
    """A player's estimated level ``mu`` and how unsure it is (``sigma``)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> float:
        """The cautious estimate the standings show: mu - 3 sigma (0 at the start)."""
        return self.mu - 3 * self.sigma


def rate_game(
    before: Mapping[Hashable, Rating], places: Mapping[Hashable, int]
) -> dict[Hashable, Rating]:
    """Everyone's rating after one game. ``places``: each player's place at the table (1 the
    best; equal places for a tie); ``before``: the ratings going in (missing: a new player)."""
    start = {
        player: Rating(rating.mu, math.sqrt(rating.sigma**2 + TAU**2))
        for player, rating in ((p, before.get(p) or Rating()) for p in places)
    }
    after = {}
    for player, mine in start.items():
        omega = delta = 0.0
        for other, theirs in start.items():
            if other == player:
                continue
            c = math.sqrt(mine.sigma**2 + theirs.sigma**2 + 2 * BETA**2)
            expected = 1 / (1 + math.exp((theirs.mu - mine.mu) / c))
            if places[player] < places[other]:
                outcome = 1.0
            elif places[player] == places[other]:
                outcome = 0.5
            else:
                outcome = 0.0
            share = mine.sigma**2 / c
            omega += share * (outcome - expected)
            gamma = mine.sigma / c
            delta += gamma * share / c * expected * (1 - expected)
        sigma = mine.sigma * math.sqrt(max(1 - delta, KAPPA))
        after[player] = Rating(mine.mu + omega, sigma)
    return after


def rate_games(games: Iterable[Mapping[Hashable, int]]) -> dict[Hashable, Rating]:
    """Everyone's rating after ``games`` (each a player -> place mapping), in the order given;
    a game of one player rates nobody."""
    current: dict[Hashable, Rating] = {}
    for places in games:
        if len(places) >= 2:
            current.update(rate_game(current, places))
    return current


def ratings(results: Sequence[SeatResult]) -> dict[Hashable, float]:
    """Each player's shown rating after the finished games of ``results`` (in the order given):
    places by each game's total in its own direction (lowest wins Mexican Train, highest the
    points games), equal totals a tie."""
    games = (
        rank_values(
            {seat.player: seat.total for seat in seats}, lower_is_better=not seats[0].higher_wins
        )
        for seats in by_game(results).values()
    )
    return {player: rating.shown for player, rating in rate_games(games).items()}

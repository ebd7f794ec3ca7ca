"""The skill rating of rules.md 6, kept per set of results: the rule itself (a Bayesian rating
where each game is a match against everyone else at the table, a tie half a win) is
``scorekeeper.rules.rating``. Ratings depend only on the results, so they are cached."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

from scorekeeper.rules import rating
from scorekeeper.rules.placings import SeatResult


def ratings(results: Sequence[SeatResult]) -> dict[Hashable, float]:
    """Each player's rating after the games of ``results`` (in the order given)."""
    return dict(_ratings(tuple(results)))


@lru_cache(maxsize=16)
def _ratings(results: tuple[SeatResult, ...]) -> tuple[tuple[Hashable, float], ...]:
    return tuple(rating.ratings(results).items())

"""Game variants: each domino game the app can score, declared once (rules.md 1-5).

A game row stores its variant's name (``Game.kind``); everything that depends on which game is
played goes through the variant's declaration, so a new game is one more entry here plus its
rules, never a new branch in the services or the templates. Mexican Train is the first entry.

What a variant provides (docs/architecture.md says the same for a new contributor):

- ``name`` (stored with each game) and ``label`` (shown to people), a one-line ``description``;
- ``lower_is_better``: whether the lowest total wins (Mexican Train) or the highest (points
  games);
- ``round_count(rules)``: how many rounds a full game has (None: the table decides when the
  game ends);
- ``engine_for_round(number, rules)``: the double that starts round ``number`` (None when the
  table chooses it each round);
- ``deal_plan(players, rules)``: tiles to deal and the boneyard left;
- ``starter_text(...)``: who starts a round, as a sentence;
- ``check_round(entry, context, partial)``: the round checks and the round's scores;
- ``scoreboard(seats, rounds, rules)``: totals, ranks, movement, round wins and winners.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.round_check import RoundCheck, RoundContext, RoundInput, check_round
from scorekeeper.rules.schedule import (
    DealPlan,
    deal_plan,
    engine_for_round,
    round_count,
    starter_text,
)
from scorekeeper.rules.scoreboard import Board, scoreboard


@dataclass(frozen=True)
class GameVariant:
    """One domino game the app scores (see the module docstring for each part)."""

    name: str
    label: str
    description: str
    lower_is_better: bool
    round_count: Callable[[HouseRules], int | None]
    engine_for_round: Callable[[int, HouseRules], int | None]
    deal_plan: Callable[[int, HouseRules], DealPlan]
    starter_text: Callable[..., str]
    check_round: Callable[[RoundInput, RoundContext, bool], RoundCheck]
    scoreboard: Callable[..., Board]  # (seats, rounds, rules, start=None)


def _check_round(entry: RoundInput, context: RoundContext, partial: bool) -> RoundCheck:
    return check_round(entry, context, partial=partial)


def _engine_for_round(number: int, rules: HouseRules) -> int | None:
    return engine_for_round(number, rules)


MEXICAN_TRAIN = GameVariant(
    name="mexican_train",
    label="Mexican Train",
    description="Thirteen rounds on a double-12 set, each started by the next double down; "
    "the lowest total wins.",
    lower_is_better=True,
    round_count=round_count,
    engine_for_round=_engine_for_round,
    deal_plan=deal_plan,
    starter_text=starter_text,
    check_round=_check_round,
    scoreboard=scoreboard,
)

VARIANTS: Mapping[str, GameVariant] = {variant.name: variant for variant in (MEXICAN_TRAIN,)}


def variant_named(name: str) -> GameVariant:
    """The variant stored as ``name``; raises ValueError for a game this version cannot score."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"Unknown game: {name!r}") from None

"""A game as a value the rules understand (rules.md 2.4): rounds in; running totals, round
wins, ranks, movement and winners out.

Players are seat indexes 0..n-1. Each recorded round gives every seat's round score (already
scored under the house rules) and who went out (None: a blocked round). A late joiner has no
score (None) in the rounds before they sat down, and starts with a total of their own
(``start``, rules.md 2.4). The lowest total leads;
ties share a rank unless the house rules break them with the chain (``rules.ranking``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.ranking import Standing, rank_movement, rank_players, winners
from scorekeeper.rules.scoring import round_winners


@dataclass(frozen=True)
class RoundResult:
    """One recorded round: every seat's round score in seat order (None for a seat that had
    not joined yet), and the seat that went out (None: blocked)."""

    points: tuple[int | None, ...]
    went_out: int | None = None

    def present(self) -> dict[int, int]:
        """The scores of the seats that played this round, by seat."""
        return {seat: points for seat, points in enumerate(self.points) if points is not None}


class PlayerSummary(NamedTuple):
    """A seat's game so far: total, shared rank (and how a tie was decided), the gap to the
    leader, places gained since the previous round (negative: lost), rounds won, rounds gone
    out, best and worst round."""

    seat: int
    total: int
    rank: int
    tied: bool
    gap: int
    movement: int
    rounds_won: int
    went_out: int
    best: int | None
    worst: int | None
    note: str


@dataclass(frozen=True)
class Board:
    """The whole scoreboard: per round the running totals and the seats that won it; per seat
    the summary (seat order, and rank order in ``standings``); the seats ranked first."""

    running: list[tuple[int, ...]]
    round_wins: list[frozenset[int]]
    players: list[PlayerSummary]
    standings: list[PlayerSummary]
    winners: list[int]


def _ranking(
    totals: Sequence[int],
    scores: Sequence[Sequence[int]],
    went_out: Sequence[int],
    rules: HouseRules,
    lower_is_better: bool,
) -> list[Standing]:
    """The seats ranked on their totals, round scores and rounds gone out (seat order)."""
    return rank_players(
        dict(enumerate(totals)),
        rules,
        round_scores=dict(enumerate(scores)),
        went_out_counts=dict(enumerate(went_out)),
        lower_is_better=lower_is_better,
    )


def _tally(
    seats: int, rounds: Sequence[RoundResult], start: Sequence[int] | None
) -> tuple[list[list[int]], list[int], list[int], list[tuple[int, ...]]]:
    """One pass over the rounds: each seat's round scores, total and rounds gone out, and the
    running totals after each round."""
    scores: list[list[int]] = [[] for _ in range(seats)]
    totals = list(start) if start is not None else [0] * seats
    went_out = [0] * seats
    running = []
    for result in rounds:
        points = result.points
        for seat in range(seats):
            if (score := points[seat]) is not None:
                scores[seat].append(score)
                totals[seat] += score
        running.append(tuple(totals))
        if result.went_out is not None and 0 <= result.went_out < seats:
            went_out[result.went_out] += 1
    return scores, totals, went_out, running


def _movement(
    rounds: Sequence[RoundResult],
    now: list[Standing],
    scores: list[list[int]],
    totals: list[int],
    went_out: list[int],
    rules: HouseRules,
    lower: bool,
) -> dict[int, int | None]:
    """Each seat's move since the ranks before the last round (its scores and going out taken
    off); none after one round."""
    if len(rounds) <= 1:
        return {}
    last = rounds[-1]
    before_out = list(went_out)
    if last.went_out is not None and 0 <= last.went_out < len(went_out):
        before_out[last.went_out] -= 1
    before = _ranking(
        [total - (last.points[seat] or 0) for seat, total in enumerate(totals)],
        [mine if last.points[seat] is None else mine[:-1] for seat, mine in enumerate(scores)],
        before_out,
        rules,
        lower,
    )
    return rank_movement(before, now)


def _rounds_won(seats: int, round_wins: Sequence[frozenset[int]]) -> list[int]:
    """How many rounds each seat won."""
    won = [0] * seats
    for wins in round_wins:
        for seat in wins:
            if 0 <= seat < seats:
                won[seat] += 1
    return won


def scoreboard(
    seats: int,
    rounds: Sequence[RoundResult],
    rules: HouseRules,
    start: Sequence[int] | None = None,
    *,
    lower_is_better: bool | None = None,
    round_wins: Sequence[frozenset[int]] | None = None,
) -> Board:
    """Work out the scoreboard of a game with ``seats`` players from its recorded ``rounds``.

    - Running totals add each round's scores to each seat's starting total (``start``: 0, or
      what a late joiner started with); a seat that had not joined yet keeps its start.
    - A round is won by the player who went out; in a blocked round by the lowest score (all of
      them when tied; nobody under arrivals scoring).
    - Ranks: lowest total first (highest under arrivals scoring), ties shared (or broken by the
      chain the house rules choose); movement compares with the ranks before the last round
      (0 after one round).
    - Winners: the seats ranked first, once at least one round was played.

    A points game (rules.md 5) passes ``lower_is_better=False`` and its own ``round_wins`` (the
    winner of each hand).
    """
    lower = rules.lower_is_better if lower_is_better is None else lower_is_better
    scores, totals, went_out, running = _tally(seats, rounds, start)
    if round_wins is None:
        round_wins = [frozenset(round_winners(r.present(), r.went_out, rules)) for r in rounds]
    won = _rounds_won(seats, round_wins)
    now = _ranking(totals, scores, went_out, rules, lower)
    movement = _movement(rounds, now, scores, totals, went_out, rules, lower)
    best_of, worst_of = (min, max) if lower else (max, min)
    leader = best_of((s.total for s in now), default=0)
    by_seat = {standing.player: standing for standing in now}
    players = []
    for seat in range(seats):
        standing = by_seat[seat]
        mine = scores[seat]
        players.append(
            PlayerSummary(
                seat=seat,
                total=int(standing.total),
                rank=standing.rank,
                tied=standing.tied,
                gap=abs(int(standing.total) - leader),
                movement=movement.get(seat) or 0,
                rounds_won=won[seat],
                went_out=went_out[seat],
                best=best_of(mine) if mine else None,
                worst=worst_of(mine) if mine else None,
                note=standing.note,
            )
        )
    return Board(
        running=running,
        round_wins=list(round_wins),
        players=players,
        standings=sorted(players, key=lambda p: (p.rank, p.seat)),
        winners=winners(now) if rounds else [],
    )

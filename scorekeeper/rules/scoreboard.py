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

from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.ranking import Standing, rank_movement, rank_players, winners
from scorekeeper.rules.scoring import round_winners, running_totals


@dataclass(frozen=True)
class RoundResult:
    """One recorded round: every seat's round score in seat order (None for a seat that had
    not joined yet), and the seat that went out (None: blocked)."""

    points: tuple[int | None, ...]
    went_out: int | None = None

    def present(self) -> dict[int, int]:
        """The scores of the seats that played this round, by seat."""
        return {seat: points for seat, points in enumerate(self.points) if points is not None}


@dataclass(frozen=True)
class PlayerSummary:
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
    seats: int,
    rounds: Sequence[RoundResult],
    rules: HouseRules,
    start: Sequence[int],
    lower_is_better: bool,
) -> list[Standing]:
    per_round = {
        seat: [p for r in rounds if (p := r.points[seat]) is not None] for seat in range(seats)
    }
    totals = {seat: start[seat] + sum(per_round[seat]) for seat in range(seats)}
    went_out = {seat: sum(r.went_out == seat for r in rounds) for seat in range(seats)}
    return rank_players(
        totals,
        rules,
        round_scores=per_round,
        went_out_counts=went_out,
        lower_is_better=lower_is_better,
    )


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
    begin = list(start) if start is not None else [0] * seats
    running = [
        tuple(row.get(seat, begin[seat]) for seat in range(seats))
        for row in running_totals([r.present() for r in rounds], start=dict(enumerate(begin)))
    ]
    if round_wins is None:
        round_wins = [frozenset(round_winners(r.present(), r.went_out, rules)) for r in rounds]
    now = _ranking(seats, rounds, rules, begin, lower)
    movement = (
        rank_movement(_ranking(seats, rounds[:-1], rules, begin, lower), now)
        if len(rounds) > 1
        else {}
    )
    best_of, worst_of = (min, max) if lower else (max, min)
    leader = best_of((s.total for s in now), default=0)
    by_seat = {standing.player: standing for standing in now}
    players = []
    for seat in range(seats):
        standing = by_seat[seat]
        mine = [p for r in rounds if (p := r.points[seat]) is not None]
        players.append(
            PlayerSummary(
                seat=seat,
                total=int(standing.total),
                rank=standing.rank,
                tied=standing.tied,
                gap=abs(int(standing.total) - leader),
                movement=movement.get(seat) or 0,
                rounds_won=sum(seat in wins for wins in round_wins),
                went_out=sum(r.went_out == seat for r in rounds),
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

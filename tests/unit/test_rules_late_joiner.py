"""A late joiner on the scoreboard (rules.md 2.4): no score before they sat down, their own
starting total, ranked with everyone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules
from scorekeeper.rules.scoreboard import RoundResult, scoreboard
from scorekeeper.rules.scoring import late_joiner_start

fast = settings(database=None, deadline=None, max_examples=60)


@pytest.mark.parametrize(
    ("rules", "totals", "start"),
    [
        (HouseRules(), {0: 40, 1: 12}, 0),
        (HouseRules(late_joiner="highest_total"), {0: 40, 1: 12}, 40),
        (HouseRules(late_joiner="highest_total"), {}, 0),
        # under arrivals the highest total is the best: the joiner gets the lowest
        (HouseRules(late_joiner="highest_total", score_by="arrivals"), {0: 3, 1: 1}, 1),
    ],
)
def test_late_joiner_start(rules: HouseRules, totals: dict[int, int], start: int) -> None:
    assert late_joiner_start(totals, rules) == start


def test_a_late_joiner_in_a_points_game_starts_with_the_lowest_total() -> None:
    rules = HouseRules(late_joiner="highest_total")
    assert late_joiner_start({0: 40, 1: 12}, rules, lower_is_better=False) == 12


def test_a_joiner_from_round_three() -> None:
    rounds = [
        RoundResult((0, 30, 12, None), went_out=0),
        RoundResult((10, 27, 0, None), went_out=2),
        RoundResult((5, 6, 0, 8), went_out=2),
    ]
    board = scoreboard(4, rounds, HouseRules(), start=[0, 0, 0, 57])
    assert board.running == [(0, 30, 12, 57), (10, 57, 12, 57), (15, 63, 12, 65)]
    assert [p.total for p in board.players] == [15, 63, 12, 65]
    assert [p.rank for p in board.players] == [2, 3, 1, 4]
    joiner = board.players[3]
    assert (joiner.best, joiner.worst, joiner.went_out, joiner.rounds_won) == (8, 8, 0, 0)
    # a blocked round before the join is won among the players at the table
    blocked = scoreboard(3, [RoundResult((9, 4, None), went_out=None)], HouseRules())
    assert blocked.round_wins == [frozenset({1})]


@fast
@given(
    st.lists(st.lists(st.integers(0, 80), min_size=3, max_size=3), min_size=1, max_size=8),
    st.integers(0, 7),
    st.integers(0, 300),
)
def test_the_joiners_total_is_their_start_plus_their_rounds(
    rounds: list[list[int]], joined: int, start: int
) -> None:
    joined = min(joined, len(rounds) - 1)
    results = [
        RoundResult((a, b, c if index >= joined else None))
        for index, (a, b, c) in enumerate(rounds)
    ]
    board = scoreboard(3, results, HouseRules(), start=[0, 0, start])
    assert board.players[2].total == start + sum(r[2] for r in rounds[joined:])
    assert board.players[0].total == sum(r[0] for r in rounds)
    assert all(row[2] == start for row in board.running[:joined])

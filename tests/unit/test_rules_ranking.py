"""Ranking a game's players (rules.md 2.4) and the shared ranking helpers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    HouseRules,
    Standing,
    rank_movement,
    rank_players,
    rank_values,
    winners,
)
from scorekeeper.rules.ranking import _rank_by_chain

CO = HouseRules()
CHAIN = HouseRules(tie_break="chain")


def table(standings: list[Standing]) -> list[tuple[str, int, bool]]:
    return [(s.player, s.rank, s.tied) for s in standings]


def test_lowest_total_first() -> None:
    standings = rank_players({"ann": 120, "bob": 80, "cy": 200})
    assert table(standings) == [("bob", 1, False), ("ann", 2, False), ("cy", 3, False)]
    assert [s.total for s in standings] == [80, 120, 200]
    assert winners(standings) == ["bob"]
    assert all(s.note == "" for s in standings)


def test_ties_share_a_rank_and_the_next_rank_skips() -> None:
    standings = rank_players({"ann": 100, "bob": 100, "cy": 150, "di": 150, "ed": 90}, CO)
    assert table(standings) == [
        ("ed", 1, False),
        ("ann", 2, True),
        ("bob", 2, True),
        ("cy", 4, True),
        ("di", 4, True),
    ]
    assert standings[1].note == "tied on 100"


def test_co_winners() -> None:
    standings = rank_players({"ann": 100, "bob": 100, "cy": 150}, CO, went_out_counts={"ann": 5})
    assert winners(standings) == ["ann", "bob"]
    assert table(standings)[:2] == [("ann", 1, True), ("bob", 1, True)]


def test_chain_step_1_most_rounds_gone_out() -> None:
    standings = rank_players(
        {"ann": 100, "bob": 100},
        CHAIN,
        round_scores={"ann": [50, 50], "bob": [0, 100]},
        went_out_counts={"ann": 1, "bob": 3},
    )
    assert table(standings) == [("bob", 1, False), ("ann", 2, False)]
    assert "ahead on rounds gone out: 3 to 1" in standings[0].note
    assert "behind on rounds gone out: 1 to 3" in standings[1].note
    assert winners(standings) == ["bob"]


def test_chain_step_2_lowest_worst_round() -> None:
    standings = rank_players(
        {"ann": 100, "bob": 100},
        CHAIN,
        round_scores={"ann": [50, 50], "bob": [0, 100]},
        went_out_counts={"ann": 1, "bob": 1},
    )
    assert table(standings) == [("ann", 1, False), ("bob", 2, False)]
    assert "ahead on worst round: 50 to 100" in standings[0].note


def test_chain_step_3_lowest_final_round() -> None:
    standings = rank_players(
        {"ann": 100, "bob": 100},
        CHAIN,
        round_scores={"ann": [60, 40], "bob": [40, 60]},
        went_out_counts={"ann": 1, "bob": 1},
    )
    assert table(standings) == [("ann", 1, False), ("bob", 2, False)]
    assert "ahead on final round: 40 to 60" in standings[0].note


def test_chain_tie_that_survives_every_step_is_shared() -> None:
    standings = rank_players(
        {"ann": 100, "bob": 100, "cy": 100},
        CHAIN,
        round_scores={"ann": [60, 40], "bob": [60, 40], "cy": [30, 70]},
        went_out_counts={"ann": 1, "bob": 1, "cy": 1},
    )
    assert table(standings) == [("ann", 1, True), ("bob", 1, True), ("cy", 3, False)]
    assert "after every tie-break" in standings[0].note
    assert "ahead on worst round: 60 to 70" in standings[0].note
    assert winners(standings) == ["ann", "bob"]


def test_chain_skips_steps_without_data() -> None:
    standings = rank_players(
        {"ann": 100, "bob": 100}, CHAIN, round_scores={"ann": [70, 30], "bob": [50, 50]}
    )
    assert table(standings) == [("bob", 1, False), ("ann", 2, False)]
    no_data = rank_players({"ann": 100, "bob": 100}, CHAIN)
    assert table(no_data) == [("ann", 1, True), ("bob", 1, True)]


def test_chain_three_way_uses_different_steps() -> None:
    standings = rank_players(
        {"ann": 10, "bob": 10, "cy": 10, "di": 5},
        CHAIN,
        round_scores={"ann": [5, 5], "bob": [2, 8], "cy": [3, 7]},
        went_out_counts={"ann": 1, "bob": 1, "cy": 0},
    )
    assert table(standings) == [
        ("di", 1, False),
        ("ann", 2, False),
        ("bob", 3, False),
        ("cy", 4, False),
    ]
    assert standings[2].note == (
        "tied on 10; behind on worst round: 8 to 5; ahead on rounds gone out: 1 to 0"
    )


def test_points_games_rank_highest_first() -> None:
    standings = rank_players({"ann": 150, "bob": 95, "cy": 150}, lower_is_better=False)
    assert table(standings) == [("ann", 1, True), ("cy", 1, True), ("bob", 3, False)]
    chain = rank_players(
        {"ann": 150, "cy": 150},
        CHAIN,
        round_scores={"ann": [0, 150], "cy": [70, 80]},
        lower_is_better=False,
    )
    assert table(chain) == [("cy", 1, False), ("ann", 2, False)]  # cy's worst hand is better


@pytest.mark.parametrize(
    ("values", "lower", "ranks"),
    [
        ({"a": 10, "b": 10, "c": 12}, True, {"a": 1, "b": 1, "c": 3}),
        ({"a": 10.5, "b": 9.25, "c": 10.5}, True, {"a": 2, "b": 1, "c": 2}),
        ({"a": 10, "b": 10, "c": 12}, False, {"a": 2, "b": 2, "c": 1}),
        ({}, True, {}),
    ],
)
def test_rank_values(values: dict[str, float], lower: bool, ranks: dict[str, int]) -> None:
    assert rank_values(values, lower_is_better=lower) == ranks


def test_rank_movement() -> None:
    before = rank_players({"ann": 10, "bob": 20, "cy": 30})
    after = rank_players({"ann": 40, "bob": 20, "cy": 30, "di": 5})
    assert rank_movement(before, after) == {"di": None, "bob": 0, "cy": 0, "ann": -3}


def test_empty() -> None:
    assert rank_players({}) == []
    assert winners([]) == []


# --------------------------------------------------------------------------------------------
# Nobody level on the total: ranked by the totals alone, exactly as the whole chain ranks them

_scores = st.lists(st.integers(0, 60), max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    players=st.dictionaries(
        st.sampled_from(["ann", "bob", "cy", "di", "ed", "flo", "gus", "hal"]),
        st.tuples(st.integers(-20, 40) | st.integers(0, 400), _scores, st.integers(0, 4)),
        max_size=8,
    ),
    tie_break=st.sampled_from(["co_winners", "chain", "zero_rounds"]),
    lower_is_better=st.booleans(),
)
def test_the_totals_alone_rank_as_the_whole_chain_does(
    players: dict[str, tuple[int, list[int], int]], tie_break: str, lower_is_better: bool
) -> None:
    """The shortcut taken when no two totals are equal gives what the chain gives, and ties
    (frequent here: small totals) still go through the chain."""
    rules = HouseRules(tie_break=tie_break)
    totals = {name: total for name, (total, _, _) in players.items()}
    scores = {name: tuple(mine) for name, (_, mine, _) in players.items()}
    went_out = {name: out for name, (_, _, out) in players.items()}
    ranked = rank_players(totals, rules, scores, went_out, lower_is_better=lower_is_better)
    assert ranked == _rank_by_chain(totals, rules, scores, went_out, lower_is_better)

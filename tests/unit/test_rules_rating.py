"""The skill rating and ties (issue 36 item 17): a player who finished behind another in every
game they shared is never rated above them after a night; tied players are rated alike."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import BradleyTerryFull

from scorekeeper.rules.placings import SeatResult
from scorekeeper.rules.ranking import rank_values
from scorekeeper.rules.rating import Rating, rate_game, rate_games, ratings

DAY = date(2026, 11, 26)


def _order(rated: dict) -> list:
    """The players from the highest shown rating down."""
    return sorted(rated, key=lambda player: -rated[player])


# One game of a first night: places in (1 the best, equal for a tie), the rating order out.
# "Cy, 3rd behind tied Ann and Bob" is the trial's case (issue 36 item 17).
@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ({"Ann": 1, "Bob": 1, "Cy": 3}, [{"Ann", "Bob"}, {"Cy"}]),
        ({"Ann": 1, "Bob": 1, "Cy": 3, "Di": 4}, [{"Ann", "Bob"}, {"Cy"}, {"Di"}]),
        ({"Ann": 1, "Bob": 1, "Cy": 1, "Di": 4, "Ed": 5}, [{"Ann", "Bob", "Cy"}, {"Di"}, {"Ed"}]),
        ({"Ann": 1, "Bob": 2, "Cy": 2, "Di": 4}, [{"Ann"}, {"Bob", "Cy"}, {"Di"}]),
        ({"Ann": 1, "Bob": 2, "Cy": 3, "Di": 3, "Ed": 5}, [{"Ann"}, {"Bob"}, {"Cy", "Di"}, {"Ed"}]),
        ({"Ann": 1, "Bob": 1}, [{"Ann", "Bob"}]),
        ({"Ann": 1, "Bob": 2}, [{"Ann"}, {"Bob"}]),
        ({p: 1 for p in "ABCDEFGH"}, [set("ABCDEFGH")]),
    ],
)
def test_one_game_rates_in_the_order_of_the_places(places: dict, expected: list) -> None:
    rated = {player: rating.shown for player, rating in rate_game({}, places).items()}
    groups: list[set] = []
    for player in _order(rated):
        if groups and rated[next(iter(groups[-1]))] == pytest.approx(rated[player], abs=1e-9):
            groups[-1].add(player)
        else:
            groups.append({player})
    assert groups == expected


@pytest.mark.parametrize(
    ("places", "listed"),
    [
        ({"Ann": 1, "Bob": 1, "Cy": 3}, ["Cy", "Bob", "Ann"]),
        ({"Ann": 2, "Bob": 1, "Cy": 2, "Di": 2}, ["Di", "Cy", "Bob", "Ann"]),
    ],
)
def test_the_order_players_are_listed_in_changes_nothing(places: dict, listed: list) -> None:
    before = {"Ann": Rating(27, 6), "Bob": Rating(24, 7), "Cy": Rating(30, 5)}
    again = rate_game(before, {player: places[player] for player in listed})
    first = rate_game(before, places)
    for player in places:
        assert tuple(first[player]) == pytest.approx(tuple(again[player]))


def test_the_league_rating_reads_places_from_totals_in_each_games_direction() -> None:
    # Ann and Bob tie on 80 for the lowest total, Cy 95: Cy is rated below both.
    night = [SeatResult("g1", 1, DAY, p, t) for p, t in (("Ann", 80), ("Bob", 80), ("Cy", 95))]
    rated = ratings(night)
    assert rated["Ann"] == rated["Bob"] > rated["Cy"]
    # A points game: the highest total wins.
    fives = [
        SeatResult("f1", 1, DAY, p, t, kind="all_fives", higher_wins=True)
        for p, t in (("Ann", 150), ("Bob", 150), ("Cy", 90), ("Di", 60))
    ]
    rated = ratings(fives)
    assert rated["Ann"] == rated["Bob"] > rated["Cy"] > rated["Di"]


def test_it_is_weng_and_lins_bradley_terry_rating_as_openskill_computes_it() -> None:
    """Without ties the numbers are the published model's (openskill's BradleyTerryFull)."""
    model = BradleyTerryFull()
    before = {"Ann": Rating(30.0, 5.0), "Bob": Rating(), "Cy": Rating(22.5, 7.0)}
    places = {"Ann": 3, "Bob": 1, "Cy": 2}
    theirs = model.rate(
        [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before.values()],
        ranks=[places[p] for p in before],
    )
    mine = rate_game(before, places)
    for player, (team,) in zip(before, theirs, strict=True):
        assert (mine[player].mu, mine[player].sigma) == pytest.approx((team.mu, team.sigma))


def test_a_one_player_game_rates_nobody() -> None:
    assert rate_games([{"Ann": 1}]) == {}


# A first night: tables of 2 to 8 players, each playing 1 to 4 games together, any totals
# (ties likely: totals of 0 to 6).
tables = st.integers(2, 8).flatmap(
    lambda seats: st.lists(
        st.lists(st.integers(0, 6), min_size=seats, max_size=seats), min_size=1, max_size=4
    )
)


@settings(database=None, deadline=None, max_examples=150)
@given(st.lists(tables, min_size=1, max_size=3), st.booleans())
def test_after_a_night_nobody_is_rated_above_who_beat_them_every_time(
    night: list[list[list[int]]], shuffled_order: bool
) -> None:
    games = []
    for table, table_games in enumerate(night):
        for totals in table_games:
            games.append(rank_values({(table, seat): total for seat, total in enumerate(totals)}))
    if shuffled_order:
        games.reverse()  # the tables' games interleaved differently
    rated = {player: rating.shown for player, rating in rate_games(games).items()}
    for places in games:
        for a in places:
            for b in places:
                shared = [game for game in games if a in game and b in game]
                if all(game[a] == game[b] for game in shared):  # tied every time
                    assert rated[a] == pytest.approx(rated[b], abs=1e-9)
                elif all(game[a] <= game[b] for game in shared):  # never behind, once ahead
                    assert rated[a] > rated[b]

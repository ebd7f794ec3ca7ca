"""League standings across game types (issue 13): wins, placement points, the rating and
head-to-head take each game's direction; the average counts one game type and says so."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.leagues.rating import ratings
from scorekeeper.rules.history import head_to_head
from scorekeeper.rules.placings import SeatResult, game_placings, placings
from scorekeeper.rules.standings import Method, average_kind, standings

DAY = date(2024, 1, 4)


def _train(game: str, player: str, total: int) -> SeatResult:
    return SeatResult(game, 1, DAY, player, total)


def _fives(game: str, player: str, total: int) -> SeatResult:
    return SeatResult(game, 1, DAY, player, total, kind="all_fives", higher_wins=True)


# Night: a Mexican Train table (Ann lowest wins) and an All Fives table (Bob highest wins).
RESULTS = [
    _train("t1", "Ann", 40),
    _train("t1", "Bob", 90),
    _train("t1", "Cy", 120),
    _fives("f1", "Ann", 85),
    _fives("f1", "Bob", 155),
    _fives("f1", "Cy", 100),
    _train("t2", "Ann", 70),
    _train("t2", "Cy", 60),
]


@pytest.mark.parametrize(
    ("totals", "higher_wins", "places"),
    [
        ({"a": 40, "b": 90, "c": 90}, False, {"a": 1, "b": 2, "c": 2}),
        ({"a": 40, "b": 90, "c": 90}, True, {"a": 3, "b": 1, "c": 1}),
        ({"a": 150, "b": 155}, True, {"a": 2, "b": 1}),
    ],
)
def test_places_follow_the_game(totals: dict, higher_wins: bool, places: dict) -> None:
    placed = game_placings(totals, higher_wins=higher_wins)
    assert {player: p.place for player, p in placed.items()} == places


def test_wins_and_placement_points_across_games() -> None:
    placed = placings(RESULTS)
    assert placed[("f1", "Bob")].win and not placed[("f1", "Ann")].win
    assert placed[("t1", "Ann")].win
    table = standings(RESULTS, Method(kind="wins"))
    # One win each: the All Fives win counts like the Mexican Train ones (Bob, in fewer games,
    # leads on the tie-break).
    assert {r.item.player: r.item.wins for r in table.ranked} == {"Ann": 1, "Bob": 1, "Cy": 1}
    assert table.ranked[0].item.player == "Bob"
    points = standings(RESULTS, Method(kind="points"))
    # Ann 5 + 1... : t1 1st (5), f1 3rd (2), t2 2nd (3) = 10; Bob 3 + 5 = 8; Cy 2 + 3 + 5 = 10
    assert {r.item.player: r.item.points for r in points.ranked} == {"Ann": 10, "Bob": 8, "Cy": 10}


def test_the_average_counts_one_game_type_and_says_so() -> None:
    assert average_kind(RESULTS) == "mexican_train"
    table = standings(RESULTS, Method(kind="average", min_games=1))
    lines = {r.item.player: r.item for r in table.ranked}
    assert lines["Ann"].games == 2 and lines["Ann"].average == 55
    assert lines["Bob"].games == 1 and lines["Bob"].average == 90
    assert "Only Mexican Train games count here; 1 game of other types is left out." in (
        table.method_text
    )
    only_trains = standings([r for r in RESULTS if r.game != "f1"], Method(min_games=1))
    assert "left out" not in only_trains.method_text
    assert "one game type only" in only_trains.method_text


def test_a_league_of_points_games_only_has_no_average() -> None:
    fives = [r for r in RESULTS if r.game == "f1"]
    assert average_kind(fives) is None
    assert standings(fives, Method(min_games=1)).ranked == []
    assert [r.item.player for r in standings(fives, Method(kind="wins")).ranked][0] == "Bob"


def test_head_to_head_takes_each_games_direction() -> None:
    ann = {r.opponent: r for r in head_to_head(RESULTS, "Ann")}
    # Against Bob: ahead at t1 (40 v 90, lower wins), behind at f1 (85 v 155, higher wins).
    assert (ann["Bob"].ahead, ann["Bob"].behind) == (1, 1)
    # Against Cy: ahead at t1, behind at f1 (85 v 100), behind at t2 (70 v 60).
    assert (ann["Cy"].ahead, ann["Cy"].behind) == (1, 2)


def test_the_rating_rewards_the_highest_total_in_points_games() -> None:
    fives = [_fives("f1", "Ann", 150), _fives("f1", "Bob", 30)] * 1
    fives += [_fives("f2", "Ann", 151), _fives("f2", "Bob", 20)]
    rated = ratings(fives)
    assert rated["Ann"] > rated["Bob"]
    trains = [_train("t1", "Ann", 150), _train("t1", "Bob", 30)]
    trains += [_train("t2", "Ann", 151), _train("t2", "Bob", 20)]
    rated = ratings(trains)
    assert rated["Bob"] > rated["Ann"]


@settings(database=None, deadline=None, max_examples=60)
@given(st.dictionaries(st.sampled_from("abcdef"), st.integers(0, 300), min_size=2))
def test_turning_the_direction_mirrors_the_places(totals: dict[str, int]) -> None:
    low = game_placings(totals)
    high = game_placings({p: -t for p, t in totals.items()}, higher_wins=True)
    assert {p: x.place for p, x in low.items()} == {p: x.place for p, x in high.items()}

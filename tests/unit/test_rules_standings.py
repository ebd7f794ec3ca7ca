"""League standings (rules.md 6), checked against a hand calculation.

The league below, worked out on paper:

    night 1, table A: Ann 50, Bob 80, Cy 80, Di 120    places 1, 2=, 2=, 4
    night 1, table B: Ed 60, Fay 40, Gus 100            places 2, 1, 3
    night 2, table A: Ann 90, Bob 70, Ed 70             places 3, 1=, 1=
    night 2, table B: Cy 30, Di 60, Fay 60, Gus 90      places 1, 2=, 2=, 4
    night 3, table A: Ann 40, Bob 100, Cy 70, Fay 55    places 1, 4, 3, 2

Placement points 5, 3, 2, 1 (shared places share the points of the places they cover):

    player games total  average wins points  nights: points       best 2
    Ann    3     180    60.0    2    12      5, 2, 5              10
    Bob    3     250    83.3    1    7.5     2.5, 4, 1            6.5
    Cy     3     180    60.0    1    9.5     2.5, 5, 2            7.5
    Di     2     180    90.0    0    3.5     1, 2.5               3.5
    Ed     2     130    65.0    1    7       3, 4                 7
    Fay    3     155    51.7    1    10.5    5, 2.5, 3            8
    Gus    2     190    95.0    0    3       2, 1                 3
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.history import games_of, head_to_head, night_results
from scorekeeper.rules.placings import (
    SeatResult,
    game_placings,
    parse_placement_points,
    placings,
    shared_points,
    shown,
)
from scorekeeper.rules.standings import (
    METHOD_REGISTRY,
    WINS,
    Method,
    PlayerLine,
    min_games_needed,
    player_lines,
    rank_lines,
    standings,
    tie_break_text,
)

NIGHTS = {1: date(2024, 1, 4), 2: date(2024, 1, 11), 3: date(2024, 1, 18)}
TABLES = [
    (1, "1A", {"Ann": 50, "Bob": 80, "Cy": 80, "Di": 120}),
    (1, "1B", {"Ed": 60, "Fay": 40, "Gus": 100}),
    (2, "2A", {"Ann": 90, "Bob": 70, "Ed": 70}),
    (2, "2B", {"Cy": 30, "Di": 60, "Fay": 60, "Gus": 90}),
    (3, "3A", {"Ann": 40, "Bob": 100, "Cy": 70, "Fay": 55}),
]
RESULTS = [
    SeatResult(game, night, NIGHTS[night], player, total, rounds=13, went_out=1)
    for night, game, totals in TABLES
    for player, total in totals.items()
]


def order(standing: list) -> list[tuple[str, int, str]]:
    return [(r.line.player, r.rank, str(r.value)) for r in standing]


def test_player_lines_match_the_hand_calculation() -> None:
    lines = player_lines(RESULTS)
    expected = {
        "Ann": (3, 180, 2, Fraction(12)),
        "Bob": (3, 250, 1, Fraction(15, 2)),
        "Cy": (3, 180, 1, Fraction(19, 2)),
        "Di": (2, 180, 0, Fraction(7, 2)),
        "Ed": (2, 130, 1, Fraction(7)),
        "Fay": (3, 155, 1, Fraction(21, 2)),
        "Gus": (2, 190, 0, Fraction(3)),
    }
    assert {p: (x.games, x.total, x.wins, x.points) for p, x in lines.items()} == expected
    assert lines["Ann"].best == 40 and lines["Ann"].worst == 90
    assert lines["Ann"].rounds == 39 and lines["Ann"].went_out == 3
    assert lines["Ann"].per_round == Fraction(180, 39)
    assert lines["Ann"].win_rate == Fraction(2, 3)
    assert lines["Di"].nights == 2


def test_average_with_minimum_games_and_tie_break_on_wins() -> None:
    table = standings(RESULTS, Method("average", min_games=3))
    assert order(table.ranked) == [
        ("Fay", 1, "51.7"),
        ("Ann", 2, "60.0"),
        ("Cy", 3, "60.0"),
        ("Bob", 4, "83.3"),
    ]
    assert table.ranked[1].note == ""
    assert table.ranked[2].note == (
        "Level on 60.0 with the place above, which goes ahead on more wins: 2 to 1."
    )
    assert [line.player for line in table.unranked] == ["Di", "Ed", "Gus"]
    assert table.min_games == 3
    assert "at least 3 games" in table.method_text


def test_average_with_a_lower_minimum_ranks_everyone() -> None:
    table = standings(RESULTS, Method("average", min_games=2))
    assert [r.line.player for r in table.ranked] == ["Fay", "Ann", "Cy", "Ed", "Bob", "Di", "Gus"]
    assert not table.unranked


def test_minimum_as_a_share_of_nights_held() -> None:
    # 3 nights held; 100% asks for 3 games, more than min_games 1.
    method = Method("average", min_games=1, min_nights_percent=100)
    assert min_games_needed(method, 3) == 3
    assert min_games_needed(Method("average", min_games=1, min_nights_percent=50), 3) == 2
    assert min_games_needed(Method("average", min_games=5, min_nights_percent=50), 3) == 5
    table = standings(RESULTS, method)
    assert [r.line.player for r in table.ranked] == ["Fay", "Ann", "Cy", "Bob"]
    assert "50%" not in table.method_text and "100% of the 3 nights" in table.method_text


def test_wins_with_co_winners_and_fewer_games_first() -> None:
    table = standings(RESULTS, Method("wins"))
    assert order(table.ranked) == [
        ("Ann", 1, "2"),
        ("Ed", 2, "1"),
        ("Fay", 3, "1"),
        ("Cy", 4, "1"),
        ("Bob", 5, "1"),
        ("Di", 6, "0"),
        ("Gus", 7, "0"),
    ]
    assert table.ranked[1].note == ""  # Ed: Ann above has more wins
    assert table.ranked[2].note == (
        "Level on 1 with the place above, which goes ahead on fewer games played: 2 to 3."
    )
    assert (
        table.ranked[3].note
        == "Level on 1 with the place above, which goes ahead on lowest average game total: "
        "51.7 to 60.0."
    )


@pytest.mark.parametrize(
    ("best", "expected"),
    [
        (
            None,
            [
                ("Ann", 1, "12.0"),
                ("Fay", 2, "10.5"),
                ("Cy", 3, "9.5"),
                ("Bob", 4, "7.5"),
                ("Ed", 5, "7.0"),
                ("Di", 6, "3.5"),
                ("Gus", 7, "3.0"),
            ],
        ),
        (
            2,
            [
                ("Ann", 1, "10.0"),
                ("Fay", 2, "8.0"),
                ("Cy", 3, "7.5"),
                ("Ed", 4, "7.0"),
                ("Bob", 5, "6.5"),
                ("Di", 6, "3.5"),
                ("Gus", 7, "3.0"),
            ],
        ),
    ],
)
def test_placement_points_summed_and_best_n_nights(
    best: int | None, expected: list[tuple[str, int, str]]
) -> None:
    table = standings(RESULTS, Method("points", best_nights=best))
    assert order(table.ranked) == expected
    if best:
        assert "best 2 of 3" in table.method_text


def test_rating_uses_the_ratings_given_and_breaks_ties_by_games() -> None:
    ratings = {"Ann": 5.04, "Bob": 1.0, "Cy": 5.0, "Di": 0.0, "Ed": 5.0, "Fay": 7.0, "Gus": -1}
    table = standings(RESULTS, Method("rating"), ratings=ratings)
    # Ann 5.04 is shown as 5.0: level with Cy and Ed; more games (3) puts Ann and Cy first,
    # then more wins: Ann 2, Cy 1.
    assert order(table.ranked)[:4] == [
        ("Fay", 1, "7.0"),
        ("Ann", 2, "5.0"),
        ("Cy", 3, "5.0"),
        ("Ed", 4, "5.0"),
    ]


def test_guests_count_for_places_but_are_not_ranked() -> None:
    table = standings(RESULTS, Method("points"), ranked_players={"Ann", "Bob", "Cy"})
    assert order(table.ranked) == [("Ann", 1, "12.0"), ("Cy", 2, "9.5"), ("Bob", 3, "7.5")]


def test_players_level_on_everything_share_the_rank_and_the_next_rank_skips() -> None:
    results = [
        SeatResult("g1", 1, NIGHTS[1], "Ann", 40),
        SeatResult("g1", 1, NIGHTS[1], "Bob", 40),
        SeatResult("g1", 1, NIGHTS[1], "Cy", 90),
    ]
    table = standings(results, Method("wins"))
    assert [(r.line.player, r.rank, r.tied) for r in table.ranked] == [
        ("Ann", 1, True),
        ("Bob", 1, True),
        ("Cy", 3, False),
    ]
    assert table.ranked[0].note == (
        "Shares this place with another player, level on every tie-break."
    )


def test_night_results_across_tables() -> None:
    night_one = [r for r in RESULTS if r.night == 1]
    ranked = night_results(night_one)
    assert [(r.line.player, r.rank, str(r.value)) for r in ranked] == [
        ("Fay", 1, "40.0"),
        ("Ann", 2, "50.0"),
        ("Ed", 3, "60.0"),
        ("Bob", 4, "80.0"),
        ("Cy", 4, "80.0"),
        ("Gus", 6, "100.0"),
        ("Di", 7, "120.0"),
    ]


def test_head_to_head() -> None:
    rivals = {
        r.opponent: (r.games, r.ahead, r.behind, r.level) for r in head_to_head(RESULTS, "Ann")
    }
    assert rivals == {
        "Bob": (3, 2, 1, 0),
        "Cy": (2, 2, 0, 0),
        "Di": (1, 1, 0, 0),
        "Ed": (1, 0, 1, 0),
        "Fay": (1, 1, 0, 0),
    }
    bob = head_to_head(RESULTS, "Ann")[0]
    assert bob.opponent == "Bob" and bob.my_average == 60 and bob.their_average == Fraction(250, 3)
    level = head_to_head(RESULTS, "Bob")
    assert {r.opponent: r.level for r in level}["Cy"] == 1


def test_games_of_a_player_with_places() -> None:
    played = games_of(RESULTS, "Bob")
    assert [(g.result.game, g.placing.place, g.placing.tied, g.placing.win) for g in played] == [
        ("1A", 2, True, False),
        ("2A", 1, True, True),
        ("3A", 4, False, False),
    ]


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ({"a": 10, "b": 20, "c": 30}, {"a": (1, 5), "b": (2, 3), "c": (3, 2)}),
        ({"a": 10, "b": 10, "c": 30}, {"a": (1, 4), "b": (1, 4), "c": (3, 2)}),
        ({"a": 10, "b": 10, "c": 10}, {"a": (1, Fraction(10, 3)), "b": (1, Fraction(10, 3))}),
        (
            {"a": 1, "b": 2, "c": 3, "d": 4, "e": 4, "f": 9},
            {"d": (4, Fraction(1, 2)), "e": (4, Fraction(1, 2)), "f": (6, 0)},
        ),
    ],
)
def test_game_placings_share_places_and_points(
    totals: dict[str, int], expected: dict[str, tuple[int, Fraction]]
) -> None:
    placed = game_placings(totals)
    for player, (place, points) in expected.items():
        assert (placed[player].place, placed[player].points) == (place, points)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5,3,2,1", (5, 3, 2, 1)),
        (" 10; 6 ; 3 ", (10, 6, 3)),
        ("3 2 1 0", (3, 2, 1, 0)),
        ("1", (1,)),
    ],
)
def test_parse_placement_points(text: str, expected: tuple[int, ...]) -> None:
    assert parse_placement_points(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "separated by commas"),
        ("5,x,1", "not a whole number"),
        ("1,2,3", "cannot earn fewer"),
        ("0,0", "must earn some"),
        ("-1", "not a whole number"),
        ("5000", "at most 1000"),
        (",".join(["1"] * 17), "at most 16"),
    ],
)
def test_parse_placement_points_refuses_with_a_sentence(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_placement_points(text)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(1705, 20), "85.3"),  # 85.25 rounds half up
        (Fraction(256, 3), "85.3"),
        (Fraction(170, 2), "85.0"),
        (5.04, "5.0"),
        (-0.05, "-0.1"),
        (None, "None"),
    ],
)
def test_shown_rounds_half_up_to_one_decimal(value: object, expected: str) -> None:
    assert str(shown(value)) == expected  # type: ignore[arg-type]


def test_methods_refuse_bad_settings() -> None:
    with pytest.raises(ValueError):
        Method("golf")
    with pytest.raises(ValueError):
        Method(min_games=0)
    with pytest.raises(ValueError):
        Method(min_nights_percent=101)
    with pytest.raises(ValueError):
        Method("points", best_nights=0)


@pytest.mark.parametrize("kind", ["average", "wins", "points", "rating"])
def test_every_method_states_its_tie_breaks(kind: str) -> None:
    text = tie_break_text(Method(kind))
    assert text.startswith("Ties: ") and "share the place" in text


# --------------------------------------------------------------------------------------------
# Properties

totals_strategy = st.dictionaries(
    st.sampled_from("ABCDEFGH"), st.integers(0, 60), min_size=2, max_size=8
)


@given(totals_strategy)
def test_a_game_hands_out_the_same_points_with_or_without_ties(totals: dict[str, int]) -> None:
    table = (5, 3, 2, 1)
    placed = game_placings(totals, table)
    handed_out = sum((p.points for p in placed.values()), Fraction(0))
    assert handed_out == sum(table[: len(totals)])
    assert any(p.win for p in placed.values())
    assert shared_points(1, 1, table) == 5


@given(st.lists(totals_strategy, min_size=1, max_size=6))
def test_ranks_follow_the_chain_and_ties_share(games: list[dict[str, int]]) -> None:
    results = [
        SeatResult(index, index, date(2024, 1, 1), player, total)
        for index, totals in enumerate(games)
        for player, total in totals.items()
    ]
    for kind in ("average", "wins", "points"):
        table = standings(results, Method(kind, min_games=1))
        keys = {
            r.line.player: tuple(
                -c.value(r.line) if c.higher_is_better else c.value(r.line)
                for c in METHOD_REGISTRY[kind].chain
            )
            for r in table.ranked
        }
        for ranked in table.ranked:
            mine = keys[ranked.line.player]
            better = sum(1 for key in keys.values() if key < mine)
            same = sum(1 for key in keys.values() if key == mine)
            assert ranked.rank == better + 1
            assert ranked.tied == (same > 1)
        wins = sum(line.wins for line in player_lines(results).values())
        assert wins >= len(games)


def test_rank_by_orders_within_a_shared_rank() -> None:
    lines = [
        PlayerLine(name, 1, 1, 10, 1, 0, 10, 10, 1, Fraction(0)) for name in ("Cy", "Ann", "Bob")
    ]
    ranked = rank_lines(lines, (WINS,), order=lambda p: p)
    assert [(r.line.player, r.rank) for r in ranked] == [("Ann", 1), ("Bob", 1), ("Cy", 1)]
    assert ranked[0].value == 1 and isinstance(shown(Fraction(1)), Decimal)


def test_placings_key_by_game_and_player() -> None:
    placed = placings(RESULTS)
    assert placed[("2A", "Bob")].place == 1 and placed[("2A", "Bob")].points == 4


@given(
    st.lists(st.tuples(totals_strategy, st.booleans()), min_size=1, max_size=6),
    st.lists(st.integers(0, 12), min_size=1, max_size=6).map(lambda p: tuple(sorted(p)[::-1])),
)
def test_placings_of_many_games_are_each_games_placings(
    games: list[tuple[dict[str, int], bool]], table: tuple[int, ...]
) -> None:
    """``placings`` (written out for speed) agrees with ``game_placings`` game by game, in
    games where the lowest or the highest total wins; and a league's placement points, added
    in whole multiples of a common fraction, equal the plain sum of Fractions."""
    results = [
        SeatResult(index, index % 2, date(2024, 1, 1), player, total, higher_wins=higher)
        for index, (totals, higher) in enumerate(games)
        for player, total in totals.items()
    ]
    placed = placings(results, table)
    for index, (totals, higher) in enumerate(games):
        for player, placing in game_placings(totals, table, higher).items():
            assert placed[(index, player)] == placing
    lines = player_lines(results, table, placed=placed)
    for player, line in lines.items():
        mine = [p for (game, who), p in placed.items() if who == player]
        assert line.points == sum((p.points for p in mine), Fraction(0))


def test_a_place_decided_above_and_shared_below_says_both_without_contradiction() -> None:
    from scorekeeper.rules.ranking import Decision, Ranked
    from scorekeeper.rules.standings import WINS, league_note

    entry: Ranked = Ranked("Bob", 2, True, Decimal("60.0"), Decision(WINS, 0, 1), None)
    note = league_note(entry)
    assert note == (
        "Level on 60.0 with the place above, which goes ahead on more wins: 1 to 0. "
        "Shares this place with another player, level on every tie-break."
    )
    assert "decided by" not in note and "Level on every tie-break" not in note


def test_a_new_league_ranks_from_the_second_game_and_says_why_not_before() -> None:
    from scorekeeper.rules.standings import not_ranked_reason

    assert Method().min_games == 2
    one_night = [r for r in RESULTS if r.night == 1]
    table = standings(one_night, Method())
    assert not table.ranked and table.min_games == 2
    assert not_ranked_reason(1, 2) == "1 game of the 2 needed to be ranked"
    assert not_ranked_reason(2, 3) == "2 games of the 3 needed to be ranked"

"""Scoring a round and a game (rules.md 2.4)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    HouseRules,
    RoundEntry,
    Tile,
    game_totals,
    hand_capacity,
    late_joiner_start,
    parse_hand,
    round_capacity,
    round_winners,
    running_totals,
    score_hand,
    score_round,
    set_score,
    tile_score,
)
from scorekeeper.rules.scoring import hand_floor, hand_pool_size

DEFAULT = HouseRules()
DB25 = HouseRules(double_blank=25)
DB50 = HouseRules(double_blank=50)
BH25 = HouseRules(blank_half=25)
BH25_DB50 = HouseRules(blank_half=25, double_blank=50)


@pytest.mark.parametrize(
    ("rules", "tile", "score"),
    [
        (DEFAULT, Tile(3, 5), 8),
        (DEFAULT, Tile(0, 0), 0),
        (DEFAULT, Tile(0, 4), 4),
        (DEFAULT, Tile(12, 12), 24),
        (DB25, Tile(0, 0), 25),
        (DB25, Tile(0, 4), 4),
        (DB50, Tile(0, 0), 50),
        (BH25, Tile(0, 4), 29),
        (BH25, Tile(0, 0), 50),
        (BH25, Tile(3, 5), 8),
        (BH25_DB50, Tile(0, 0), 50),  # not added twice
    ],
)
def test_tile_score(rules: HouseRules, tile: Tile, score: int) -> None:
    assert tile_score(tile, rules) == score


@pytest.mark.parametrize(
    ("rules", "hand", "score"),
    [
        (DEFAULT, "", 0),
        (DEFAULT, "3-5, 12-12, 0-4", 36),
        (DEFAULT, "double blank", 0),
        (DB50, "double blank, 1-2", 53),
        (BH25, "double blank, 0-6, 1-2", 50 + 31 + 3),
        (HouseRules(marker_penalty=25, going_out_bonus=-10), "3-5", 8),  # round-level rules only
    ],
)
def test_score_hand(rules: HouseRules, hand: str, score: int) -> None:
    assert score_hand(parse_hand(hand), rules) == score


def test_score_hand_defaults() -> None:
    assert score_hand([Tile(3, 5)]) == 8


@pytest.mark.parametrize(("n", "total"), [(6, 168), (9, 495), (12, 1092), (15, 2040), (18, 3420)])
def test_whole_set_scores_its_pip_total_under_the_defaults(n: int, total: int) -> None:
    rules = HouseRules(max_pip=n)
    assert score_hand(rules.domino_set.tiles, rules) == total == set_score(rules)


def _entries(**hands: str | int) -> dict[str, RoundEntry]:
    return {
        player: RoundEntry(total=hand) if isinstance(hand, int) else RoundEntry(parse_hand(hand))
        for player, hand in hands.items()
    }


def test_went_out_scores_zero_others_their_hands() -> None:
    entries = _entries(ann="", bob="3-5, 6-6", cy=20)
    assert score_round(entries, went_out="ann") == {"ann": 0, "bob": 20, "cy": 20}


def test_blocked_round_everyone_scores_their_hand() -> None:
    entries = _entries(ann="1-2", bob="3-5, 6-6", cy=20)
    assert score_round(entries) == {"ann": 3, "bob": 20, "cy": 20}


def test_zero_score_does_not_mean_went_out() -> None:
    entries = _entries(ann="double blank", bob="1-2")
    assert score_round(entries) == {"ann": 0, "bob": 3}
    assert round_winners(score_round(entries)) == ["ann"]
    # With the bonus, only the player who actually went out gets it.
    rules = HouseRules(going_out_bonus=-10)
    assert score_round(entries, rules) == {"ann": 0, "bob": 3}
    assert score_round(entries, DB50) == {"ann": 50, "bob": 3}


@pytest.mark.parametrize(
    ("rules", "on_double", "expected"),
    [
        (HouseRules(end_on_double="allowed"), True, {"ann": 0, "bob": 20, "cy": 7}),
        (HouseRules(end_on_double="penalty"), True, {"ann": 50, "bob": 20, "cy": 7}),
        (HouseRules(end_on_double="penalty"), False, {"ann": 0, "bob": 20, "cy": 7}),
        (HouseRules(end_on_double="double_others"), True, {"ann": 0, "bob": 40, "cy": 14}),
        (HouseRules(end_on_double="double_others"), False, {"ann": 0, "bob": 20, "cy": 7}),
    ],
)
def test_end_on_double(rules: HouseRules, on_double: bool, expected: dict[str, int]) -> None:
    entries = _entries(ann="", bob="3-5, 6-6", cy=7)
    assert score_round(entries, rules, went_out="ann", went_out_on_double=on_double) == expected


@pytest.mark.parametrize(("penalty", "bob"), [(0, 20), (5, 30), (10, 40), (25, 70)])
def test_marker_penalty(penalty: int, bob: int) -> None:
    entries = {
        "ann": RoundEntry(()),
        "bob": RoundEntry(total=20, markers=2),
        "cy": RoundEntry(total=7),
    }
    scores = score_round(entries, HouseRules(marker_penalty=penalty), went_out="ann")
    assert scores == {"ann": 0, "bob": bob, "cy": 7}


@pytest.mark.parametrize(("bonus", "ann"), [(0, 0), (-5, -5), (-10, -10)])
def test_going_out_bonus_can_make_a_score_negative(bonus: int, ann: int) -> None:
    entries = _entries(ann="", bob="3-5")
    scores = score_round(entries, HouseRules(going_out_bonus=bonus), went_out="ann")
    assert scores == {"ann": ann, "bob": 8}


def test_order_of_adjustments() -> None:
    # Hand doubled, then markers (not doubled), then the bonus for the player who went out.
    rules = HouseRules(end_on_double="double_others", marker_penalty=10, going_out_bonus=-5)
    entries = {
        "ann": RoundEntry((), markers=1),
        "bob": RoundEntry(total=20, markers=1),
    }
    assert score_round(entries, rules, went_out="ann", went_out_on_double=True) == {
        "ann": 5,
        "bob": 50,
    }
    penalty = HouseRules(end_on_double="penalty", going_out_bonus=-10)
    assert score_round(entries, penalty, went_out="ann", went_out_on_double=True)["ann"] == 40


def test_typed_total_is_already_a_hand_score() -> None:
    assert score_round({"bob": RoundEntry(total=50)}, DB50) == {"bob": 50}


def test_tiles_count_when_tiles_and_total_are_given() -> None:
    assert score_round({"bob": RoundEntry((Tile(3, 5),), total=9)}) == {"bob": 8}


def test_score_round_input_errors() -> None:
    entries = _entries(ann="1-2")
    with pytest.raises(ValueError):
        score_round(entries, went_out="zed")
    with pytest.raises(ValueError):
        score_round(entries, went_out_on_double=True)


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"total": -1}, {"total": 4.5}, {"total": True}, {"total": 3, "markers": -1}],
)
def test_round_entry_validation(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        RoundEntry(**kwargs)  # type: ignore[arg-type]


def test_round_entry_tiles_become_a_tuple() -> None:
    entry = RoundEntry([Tile(1, 2)])  # type: ignore[arg-type]
    assert entry.tiles == (Tile(1, 2),)
    with pytest.raises(TypeError):
        RoundEntry(["1-2"])  # type: ignore[list-item]


def test_game_and_running_totals() -> None:
    rounds = [{"ann": 10, "bob": 0}, {"ann": 0, "bob": 25}, {"ann": -5, "bob": 3, "cy": 40}]
    assert game_totals(rounds) == {"ann": 5, "bob": 28, "cy": 40}
    assert running_totals(rounds) == [
        {"ann": 10, "bob": 0},
        {"ann": 10, "bob": 25},
        {"ann": 5, "bob": 28, "cy": 40},
    ]
    assert game_totals(rounds, start={"cy": 25}) == {"cy": 65, "ann": 5, "bob": 28}
    assert game_totals([]) == {}


def test_late_joiner_start() -> None:
    totals = {"ann": 40, "bob": 75}
    assert late_joiner_start(totals) == 0
    assert late_joiner_start(totals, HouseRules(late_joiner="highest_total")) == 75
    assert late_joiner_start({}, HouseRules(late_joiner="highest_total")) == 0


def test_round_winners() -> None:
    assert round_winners({"ann": 0, "bob": 12}, went_out="ann") == ["ann"]
    assert round_winners({"ann": 5, "bob": 5, "cy": 9}) == ["ann", "bob"]
    assert round_winners({}) == []


# --- capacities (V6, V7) --------------------------------------------------------------------


def test_round_capacity_double_12_engine_12_is_1068() -> None:
    assert round_capacity(12, DEFAULT) == 1068
    assert round_capacity(0, DEFAULT) == 1092
    assert round_capacity(None, DEFAULT) == 1092
    assert round_capacity(0, DB50) == 1092  # the 0-0 engine is out, its 50 with it
    assert round_capacity(5, DB50) == 1092 + 50 - 10
    assert round_capacity(12, HouseRules(copies=2)) == 2 * 1092 - 24


@pytest.mark.parametrize(
    ("k", "engine", "rules", "most"),
    [
        (0, 12, DEFAULT, 0),
        (1, 12, DEFAULT, 23),  # 11-12: the 12-12 is the engine
        (1, 11, DEFAULT, 24),
        (3, 12, DEFAULT, 23 + 22 + 22),  # 11-12, 10-12, 11-11
        (1, 12, DB50, 50),
        (2, 0, DB50, 24 + 23),  # the 0-0 is the engine: 12-12 and 11-12
        (1, 12, BH25, 50),
        (2, 12, BH25, 50 + 37),  # 0-0 then 0-12
        (91, 12, DEFAULT, 1068),  # more than the pool: the whole pool
        (2, 12, HouseRules(copies=2), 24 + 23),  # the second 12-12 can be in a hand
    ],
)
def test_hand_capacity(k: int, engine: int, rules: HouseRules, most: int) -> None:
    assert hand_capacity(k, engine, rules) == most


def test_hand_floor_and_pool() -> None:
    assert hand_floor(0, 12) == 0
    assert hand_floor(2, 12) == 0 + 1  # 0-0 and 0-1
    assert hand_floor(1, 0) == 1  # the 0-0 is the engine
    assert hand_floor(200, 12) == 1068
    assert hand_pool_size(12) == 90
    assert hand_pool_size(None, HouseRules(copies=2)) == 182


@pytest.mark.parametrize("bad", [-1, 13, True])
def test_capacity_rejects_bad_engines(bad: int) -> None:
    with pytest.raises(ValueError):
        round_capacity(bad)
    with pytest.raises(ValueError):
        hand_capacity(1, bad)


def test_capacity_rejects_bad_counts() -> None:
    with pytest.raises(ValueError):
        hand_capacity(-1, 12)

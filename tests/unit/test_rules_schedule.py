"""Round schedule (rules.md 2.1), who starts (2.2) and how many tiles to deal (2.3)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    HouseRules,
    deal_count,
    deal_plan,
    deal_text,
    engine_dealt,
    engine_for_round,
    engine_schedule,
    highest_available_engine,
    max_players,
    remaining_engines,
    round_count,
    starter_for_round,
    starter_text,
    suggest_set,
)
from scorekeeper.rules.schedule import computed_deal, seats_in_order

# --- 2.1 schedule ---------------------------------------------------------------------------


def test_default_schedule_is_12_down_to_0() -> None:
    assert engine_schedule() == [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert engine_schedule(HouseRules()) == list(range(12, -1, -1))


@pytest.mark.parametrize(("n", "rounds"), [(6, 7), (9, 10), (12, 13), (15, 16), (18, 19)])
def test_rounds_per_set(n: int, rounds: int) -> None:
    rules = HouseRules(max_pip=n)
    assert round_count(rules) == rounds
    assert engine_schedule(rules)[0] == n and engine_schedule(rules)[-1] == 0


@pytest.mark.parametrize(
    ("rules", "schedule"),
    [
        (HouseRules(first_engine=9), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
        (HouseRules(first_engine=0), [0]),
        (HouseRules(max_pip=6, order="ascending"), [0, 1, 2, 3, 4, 5, 6]),
        (HouseRules(order="ascending", first_engine=4), [0, 1, 2, 3, 4]),
        (HouseRules(max_pip=9, order="highest_available"), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),
    ],
)
def test_schedule_options(rules: HouseRules, schedule: list[int]) -> None:
    assert engine_schedule(rules) == schedule
    assert round_count(rules) == len(schedule)


def test_shortened_double_12_game_started_at_9_plays_10_rounds() -> None:
    assert round_count(HouseRules(first_engine=9)) == 10


def test_remaining_engines() -> None:
    rules = HouseRules(max_pip=6, order="highest_available")
    assert remaining_engines(rules, [6, 4]) == [5, 3, 2, 1, 0]
    assert remaining_engines(HouseRules(max_pip=6, order="ascending"), {0, 1}) == [2, 3, 4, 5, 6]
    assert remaining_engines(rules, range(7)) == []


def test_highest_available_engine() -> None:
    rules = HouseRules(order="highest_available")
    assert highest_available_engine([3, 11, 12], rules, used=[12]) == 11
    assert highest_available_engine([12], rules, used=[12]) is None


def test_engine_for_round() -> None:
    assert engine_for_round(1) == 12
    assert engine_for_round(13) == 0
    assert engine_for_round(1, HouseRules(order="ascending")) == 0
    assert engine_for_round(2, HouseRules(order="highest_available")) is None
    with pytest.raises(ValueError):
        engine_for_round(14)
    with pytest.raises(ValueError):
        engine_for_round(0)


# --- 2.3 deal -------------------------------------------------------------------------------

C = "c"
# rules.md 2.3, every row; "8*" marks a crowded cell, "c" a computed one.
DEAL_TABLE_MD: dict[int, list[int | str | None]] = {
    #    2   3   4   5     6     7     8     9     10    11    12    13  14
    6: [9, 8, 6, None, None, None, None, None, None, None, None, None, None],
    9: [9, 9, 9, 7, 7, 7, 6, None, None, None, None, None, None],
    12: [15, 15, 15, 12, 12, 10, 10, "8*", "8*", None, None, None, None],
    15: [15, 15, 15, 15, 15, 13, 13, 11, 11, 11, 11, None, None],
    18: [C, C, C, C, C, C, C, C, C, C, C, 11, 11],
}
CELLS = [
    (n, players, cell)
    for n, row in DEAL_TABLE_MD.items()
    for players, cell in zip(range(2, 15), row, strict=True)
    if cell is not None
]
SPOKES = "more than the 8 spokes of a standard hub"


@pytest.mark.parametrize(("n", "players", "cell"), CELLS)
def test_deal_table_cell(n: int, players: int, cell: int | str) -> None:
    rules = HouseRules(max_pip=n)
    plan = deal_plan(players, rules)
    tiles = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}[n]
    assert plan.players == players
    assert plan.boneyard == tiles - 1 - players * plan.tiles_each
    assert plan.boneyard >= 0
    assert deal_count(players, rules) == plan.tiles_each
    if cell == C:
        assert plan.source == "computed" and plan.computed
        assert plan.tiles_each == min(15, int(0.8 * (tiles - 1) / players))
        assert any("computed suggestion" in w for w in plan.warnings)
    elif isinstance(cell, str):
        assert plan.tiles_each == int(cell.rstrip("*"))
        assert plan.source == "table"
        assert any(SPOKES in w for w in plan.warnings)
    else:
        assert plan.tiles_each == cell
        assert plan.source == "table"
        assert not any(SPOKES in w for w in plan.warnings)
        assert not any("computed" in w for w in plan.warnings)


@pytest.mark.parametrize(
    ("players", "tiles_each"),
    [(2, 15), (3, 15), (6, 15), (10, 15), (11, 13), (12, 12), (15, 10), (16, 9)],
)
def test_double_18_computed_numbers(players: int, tiles_each: int) -> None:
    plan = deal_plan(players, HouseRules(max_pip=18))
    assert (plan.tiles_each, plan.source) == (tiles_each, "computed")
    assert f"{tiles_each} tiles each is a computed suggestion" in plan.warnings[0]


PRESETS_MD = {
    "standard": [15, 15, 15, 12, 12, 10, 10],
    "cardinal": [15, 15, 15, 12, 12, 11, 11],
    "fundex": [15, 15, 15, 11, 11, 8, 8],
    "gamerules": [16, 16, 15, 14, 12, 10, 9],
}


@pytest.mark.parametrize(
    ("preset", "players", "tiles_each"),
    [
        (preset, players, tiles)
        for preset, row in PRESETS_MD.items()
        for players, tiles in zip(range(2, 9), row, strict=True)
    ],
)
def test_double_12_presets(preset: str, players: int, tiles_each: int) -> None:
    plan = deal_plan(players, HouseRules(deal_table=preset))
    assert plan.tiles_each == tiles_each
    assert plan.source == ("table" if preset == "standard" else preset)
    assert plan.boneyard == 90 - players * tiles_each


@pytest.mark.parametrize("preset", ["standard", "cardinal", "fundex", "gamerules"])
@pytest.mark.parametrize("players", [9, 10])
def test_presets_for_9_and_10_players_use_the_standard_8(preset: str, players: int) -> None:
    plan = deal_plan(players, HouseRules(deal_table=preset))
    assert plan.tiles_each == 8 and plan.source == "table"
    assert any(SPOKES in w for w in plan.warnings)
    if preset != "standard":
        assert f"The {preset} sheet stops at 8 players: using the standard table" in plan.warnings


def test_cardinal_leaves_two_tiles_with_8_players() -> None:
    plan = deal_plan(8, HouseRules(deal_table="cardinal"))
    assert plan.boneyard == 2
    assert "Only 2 tiles stay in the boneyard" in plan.warnings


def test_preset_on_another_set_falls_back_to_the_table() -> None:
    plan = deal_plan(4, HouseRules(max_pip=9, deal_table="cardinal"))
    assert (plan.tiles_each, plan.source) == (9, "table")
    assert "The cardinal sheet is for one double-12 set: using the standard table" in plan.warnings


@pytest.mark.parametrize(
    ("n", "players", "boneyard", "warned"),
    [
        (6, 2, 9, False),
        (6, 3, 3, False),  # 3 of 28 is just over 10%
        (6, 4, 3, False),
        (9, 7, 5, True),  # 5 of 55 is under 10%
        (9, 8, 6, False),
        (12, 4, 30, False),
        (12, 8, 10, False),
        (12, 10, 10, False),
        (15, 11, 14, False),
        (15, 12, 3, True),
        (18, 14, 35, False),
    ],
)
def test_boneyard_sizes_and_low_boneyard_warning(
    n: int, players: int, boneyard: int, warned: bool
) -> None:
    plan = deal_plan(players, HouseRules(max_pip=n))
    assert plan.boneyard == boneyard
    assert (f"Only {boneyard} tiles stay in the boneyard" in plan.warnings) == warned


def test_custom_deal() -> None:
    rules = HouseRules(deal_table={4: 13, 5: 11})
    plan = deal_plan(4, rules)
    assert (plan.tiles_each, plan.source, plan.boneyard) == (13, "custom", 38)
    other = deal_plan(6, rules)
    assert (other.tiles_each, other.source) == (12, "table")
    assert "The custom deal has no number for 6 players: using the standard table" in other.warnings


def test_two_copies_use_the_computed_suggestion() -> None:
    plan = deal_plan(4, HouseRules(copies=2))
    assert plan.source == "computed"
    assert plan.tiles_each == min(15, (4 * 181) // 20) == 15
    assert plan.boneyard == 182 - 1 - 60
    assert "two double-12 sets mixed" in plan.warnings[-1]


@pytest.mark.parametrize(("n", "limit"), [(6, 4), (9, 8), (12, 10), (15, 12), (18, 16)])
def test_player_limits(n: int, limit: int) -> None:
    rules = HouseRules(max_pip=n)
    assert max_players(n) == limit
    deal_plan(limit, rules)
    deal_plan(2, rules)
    with pytest.raises(ValueError, match=f"at most {limit} players"):
        deal_plan(limit + 1, rules)


@pytest.mark.parametrize("players", [1, 0, -3])
def test_fewer_than_two_players(players: int) -> None:
    with pytest.raises(ValueError, match="at least 2 players"):
        deal_count(players)


@pytest.mark.parametrize("players", [2.5, "4", True, None])
def test_player_count_must_be_whole(players: object) -> None:
    with pytest.raises(ValueError):
        deal_count(players)  # type: ignore[arg-type]


def test_too_many_players_suggests_a_bigger_set() -> None:
    with pytest.raises(ValueError, match="try a double-12 set"):
        deal_count(5, HouseRules(max_pip=6))


@pytest.mark.parametrize(
    ("n", "limit", "deal_for_two"), [(4, 2, 5), (5, 3, 8), (10, 10, 15), (3, 0, None)]
)
def test_home_made_sets(n: int, limit: int, deal_for_two: int | None) -> None:
    assert max_players(n) == limit
    if deal_for_two is None:
        with pytest.raises(ValueError, match="too small"):
            deal_count(2, HouseRules(max_pip=n))
    else:
        plan = deal_plan(2, HouseRules(max_pip=n))
        assert (plan.tiles_each, plan.source) == (deal_for_two, "computed")


def test_computed_deal_formula() -> None:
    assert computed_deal(190, 11) == 13
    assert computed_deal(91, 2) == 15  # capped


@pytest.mark.parametrize(
    ("players", "n"), [(2, 9), (4, 9), (5, 12), (8, 12), (9, 15), (12, 15), (13, 18), (20, 18)]
)
def test_suggest_set(players: int, n: int) -> None:
    assert suggest_set(players) == n


# --- 2.2 who starts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "round_number", "kwargs", "seat"),
    [
        ("engine_holder", 1, {"engine_holder": 2}, 2),
        ("engine_holder", 5, {"engine_holder": 0}, 0),
        ("engine_holder", 1, {}, None),
        ("rotate", 1, {}, 0),
        ("rotate", 2, {}, 1),
        ("rotate", 4, {}, 3),
        ("rotate", 5, {}, 0),
        ("rotate", 1, {"first_starter": 2}, 2),
        ("rotate", 3, {"first_starter": 2}, 0),
        ("previous_winner", 1, {"first_starter": 3}, 3),
        ("previous_winner", 2, {"previous_winner": 1}, 1),
        ("previous_winner", 2, {}, None),
        ("left_of_setter", 2, {"engine_setter": 1}, 2),
        ("left_of_setter", 2, {"engine_setter": 3}, 0),
        ("left_of_setter", 1, {"first_starter": 2}, 2),
        ("left_of_setter", 3, {}, None),
    ],
)
def test_starter_for_round(
    rule: str, round_number: int, kwargs: dict[str, int], seat: int | None
) -> None:
    rules = HouseRules(start_rule=rule)
    assert starter_for_round(round_number, 4, rules, **kwargs) == seat
    assert starter_for_round(round_number, ["A", "B", "C", "D"], rules, **kwargs) == seat


def test_starter_for_round_checks_its_input() -> None:
    with pytest.raises(ValueError):
        starter_for_round(0, 4)
    with pytest.raises(ValueError):
        starter_for_round(1, 4, engine_holder=4)
    with pytest.raises(ValueError):
        starter_for_round(1, 0)


def test_starter_text() -> None:
    players = ["Ann", "Bob", "Cy"]
    holder = HouseRules(max_pip=9, start_rule="engine_holder")
    assert starter_text(4, players, holder, engine=9).startswith(
        "Whoever holds the 9-9 places it in the hub and starts"
    )
    assert starter_text(4, players, holder, engine=9, engine_holder=1) == (
        "Bob holds the 9-9 and starts"
    )
    assert starter_text(2, players, HouseRules(start_rule="rotate")) == "Bob starts"
    # The default rule takes the engine out and uses the seat chosen for round 1.
    assert starter_text(1, players, HouseRules(), engine=12, first_starter=2) == "Cy starts"
    assert starter_text(3, players, HouseRules(), engine=10, first_starter=2) == "Bob starts"
    previous = HouseRules(start_rule="previous_winner")
    assert starter_text(1, players, previous, first_starter=1) == "Bob starts"
    assert starter_text(3, players, previous, previous_winner=2) == "Cy starts (won round 2)"
    assert starter_text(3, players, previous) == (
        "Round 2 had more than one winner: one of them starts"
    )
    assert "left of whoever sets the engine" in starter_text(
        2, players, HouseRules(start_rule="left_of_setter")
    )


@pytest.mark.parametrize(
    ("rules", "engine", "text"),
    [
        (
            HouseRules(),
            12,
            "Take out the 12-12 and put it in the hub, shuffle, deal 12 each; "
            "30 stay in the boneyard",
        ),
        (
            HouseRules(start_rule="previous_winner"),
            12,
            "Take out the 12-12 and put it in the hub, shuffle, deal 12 each; "
            "30 stay in the boneyard",
        ),
        (
            HouseRules(start_rule="engine_holder"),
            11,
            "Shuffle all the tiles, the 11-11 too, deal 12 each; 31 stay in the boneyard",
        ),
        (
            HouseRules(order="highest_available"),
            None,
            "Shuffle all the tiles, deal 12 each; 31 stay in the boneyard. The highest double",
        ),
    ],
)
def test_deal_text_takes_the_engine_out_only_when_nobody_needs_to_hold_it(
    rules: HouseRules, engine: int | None, text: str
) -> None:
    """Nobody can hold a tile that was taken out: only the engine-holder rule (and the
    highest-double order) deal the engine."""
    sentence = deal_text(deal_plan(5, rules), rules, engine)
    assert sentence.startswith(text)
    assert engine_dealt(rules) == sentence.startswith("Shuffle all")


def test_seats_in_order() -> None:
    assert seats_in_order(["Ann", "Bob", "Cy"], 1) == ["Bob", "Cy", "Ann"]

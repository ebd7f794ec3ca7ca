"""Round schedules groups use (issue 13, item 5): fixed length that stops early, up and back,
cycling when there are more rounds than doubles, a free number of rounds."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules
from scorekeeper.rules.schedule import engine_for_round, engine_schedule, round_count

fast = settings(database=None, deadline=None, max_examples=60)


@pytest.mark.parametrize(
    ("rules", "engines"),
    [
        (HouseRules(), list(range(12, -1, -1))),
        # 7 rounds 12-12 down to 6-6
        (HouseRules(length="fixed", rounds=7), [12, 11, 10, 9, 8, 7, 6]),
        # up and back: 26 rounds on double-12, the 12-12 twice
        (HouseRules(order="up_and_back"), list(range(13)) + list(range(12, -1, -1))),
        # more rounds than doubles: the schedule starts again from the top
        (HouseRules(max_pip=6, length="fixed", rounds=12), [6, 5, 4, 3, 2, 1, 0, 6, 5, 4, 3, 2]),
        (HouseRules(max_pip=6, order="ascending", length="fixed", rounds=9), [*range(7), 0, 1]),
        # a shortened game of a set length
        (HouseRules(first_engine=9, length="fixed", rounds=3), [9, 8, 7]),
        (HouseRules(max_pip=6, order="up_and_back", length="fixed", rounds=9), [*range(7), 6, 5]),
    ],
)
def test_schedules(rules: HouseRules, engines: list[int]) -> None:
    assert engine_schedule(rules) == engines
    assert round_count(rules) == len(engines)
    assert [engine_for_round(n, rules) for n in range(1, len(engines) + 1)] == engines
    with pytest.raises(ValueError):
        engine_for_round(len(engines) + 1, rules)


def test_up_and_back_plays_the_top_double_twice_in_a_row() -> None:
    rules = HouseRules(order="up_and_back")
    assert round_count(rules) == 26
    assert engine_for_round(13, rules) == engine_for_round(14, rules) == 12
    assert engine_for_round(1, rules) == engine_for_round(26, rules) == 0


def test_a_free_game_has_no_last_round_and_cycles() -> None:
    rules = HouseRules(max_pip=6, length="free")
    assert round_count(rules) is None
    assert [engine_for_round(n, rules) for n in (1, 7, 8, 15, 100)] == [6, 0, 6, 6, 5]


def test_highest_available_with_a_set_number_of_rounds() -> None:
    rules = HouseRules(order="highest_available", length="fixed", rounds=5)
    assert round_count(rules) == 5
    assert engine_for_round(5, rules) is None


@pytest.mark.parametrize(
    "changes",
    [
        {"length": "fixed"},
        {"length": "fixed", "rounds": 0},
        {"length": "fixed", "rounds": 201},
        {"length": "fixed", "rounds": 7.0},
        {"rounds": 7},
        {"length": "free", "rounds": 7},
        {"length": "endless"},
        {"order": "highest_available", "length": "free"},
        {"order": "highest_available", "length": "fixed", "rounds": 14},
    ],
)
def test_impossible_lengths_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="rounds|length"):
        HouseRules(**changes)


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        (HouseRules(), "Engines: 12-12 down to 0-0, 13 rounds"),
        (
            HouseRules(length="fixed", rounds=7),
            "Engines: 12-12 down to 6-6, 7 rounds (stops early)",
        ),
        (
            HouseRules(order="up_and_back"),
            "Engines: 0-0 up to 12-12, then back down to 0-0, 26 rounds",
        ),
        (
            HouseRules(max_pip=6, length="fixed", rounds=12),
            "Engines: 6-6 down to 0-0, then again from the 6-6; 12 rounds",
        ),
        (
            HouseRules(length="free"),
            "Engines: 12-12 down to 0-0, then again from the 12-12; as many rounds as the table "
            "plays (end the game from the table)",
        ),
        (
            HouseRules(order="highest_available", length="fixed", rounds=5),
            "Engines: each round the highest double anyone holds that has not been an engine "
            "yet, 5 rounds (stops early)",
        ),
        (
            HouseRules(max_pip=6, order="up_and_back", length="fixed", rounds=9),
            "Engines: 0-0 up to 6-6, then back down to 0-0, stopping after the 5-5; 9 rounds",
        ),
    ],
)
def test_rules_in_play(rules: HouseRules, line: str) -> None:
    assert line in rules.describe()


def test_a_schedule_is_stored_with_the_game() -> None:
    rules = HouseRules(order="up_and_back", length="fixed", rounds=30)
    assert HouseRules.from_dict(rules.to_dict()) == rules


@fast
@given(
    st.sampled_from([6, 9, 12, 15]),
    st.sampled_from(["descending", "ascending", "up_and_back"]),
    st.integers(1, 200),
)
def test_fixed_length_schedules(max_pip: int, order: str, rounds: int) -> None:
    rules = HouseRules(max_pip=max_pip, order=order, length="fixed", rounds=rounds)
    engines = engine_schedule(rules)
    assert len(engines) == rounds == round_count(rules)
    assert all(0 <= engine <= max_pip for engine in engines)
    # It starts like the full schedule and repeats it pass after pass.
    cycle = rules.engine_cycle
    assert engines[: len(cycle)] == cycle[:rounds]
    assert all(engines[i] == engines[i - len(cycle)] for i in range(len(cycle), rounds))

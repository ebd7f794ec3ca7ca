"""Which totals a hand that did not go out can make (rules.md 4, V11): pure, table-driven,
and a property: every real hand's score is a total the rules accept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules
from scorekeeper.rules.hand_totals import (
    hand_can_total,
    impossible_totals,
    lightest_hand,
    zero_tiles,
)
from scorekeeper.rules.round_check import RoundContext, RoundInput, SeatInput, check_round
from scorekeeper.rules.scoring import score_hand
from scorekeeper.rules.tiles import Tile

DEFAULT = HouseRules()


@pytest.mark.parametrize(
    ("rules", "engine", "lightest", "zeros"),
    [
        (DEFAULT, 12, 0, 1),  # the 0-0 counts 0
        (DEFAULT, 0, 1, 0),  # the 0-0 is the engine: the 0-1 is the lightest
        (HouseRules(double_blank=25), 12, 1, 0),
        (HouseRules(double_blank=50), 12, 1, 0),
        (HouseRules(copies=2), 12, 0, 2),
        (HouseRules(copies=2), 0, 0, 1),  # one 0-0 in the middle, one in a hand
        (HouseRules(blank_half=25), 12, 2, 0),  # 0-1 counts 26, 1-1 counts 2
        (HouseRules(max_pip=6, double_blank=50), 6, 1, 0),
    ],
)
def test_the_lightest_hand_and_the_tiles_worth_0(
    rules: HouseRules, engine: int, lightest: int, zeros: int
) -> None:
    assert lightest_hand(engine, rules) == lightest
    assert zero_tiles(engine, rules) == zeros


@pytest.mark.parametrize(
    ("rules", "engine", "total", "possible"),
    [
        (DEFAULT, 12, 0, True),
        (DEFAULT, 0, 0, False),
        (HouseRules(double_blank=50), 12, 0, False),
        (HouseRules(double_blank=50), 12, 50, True),
        (HouseRules(blank_half=25), 12, 1, False),
        (HouseRules(blank_half=25), 12, 2, True),
        (DEFAULT, 12, 1068, True),  # every tile but the engine
        (DEFAULT, 12, 1069, False),
        (HouseRules(max_pip=6), 6, 0, True),
        (HouseRules(max_pip=6), 6, 156, True),  # double-6: 168 pips minus the 6-6
        (HouseRules(max_pip=6), 6, 155, True),
        (HouseRules(max_pip=6), 6, 157, False),
    ],
)
def test_which_totals_a_hand_can_make(
    rules: HouseRules, engine: int, total: int, possible: bool
) -> None:
    assert hand_can_total(total, engine, rules) is possible


@pytest.mark.parametrize(
    ("rules", "engine", "totals", "maybe_out", "refused"),
    [
        (DEFAULT, 12, {"Bob": 0, "Cy": 0}, False, {"Bob", "Cy"}),
        (DEFAULT, 12, {"Bob": 0, "Cy": 4}, False, set()),
        (DEFAULT, 12, {"Bob": 0, "Cy": 0}, True, set()),  # one may be the one out
        (DEFAULT, 12, {"Bob": 0, "Cy": 0, "Di": 0}, True, {"Bob", "Cy", "Di"}),
        (DEFAULT, 0, {"Bob": 0}, False, {"Bob"}),
        (HouseRules(double_blank=50), 12, {"Bob": 0}, False, {"Bob"}),
        (HouseRules(double_blank=50), 12, {"Bob": 0}, True, set()),
        (HouseRules(double_blank=50), 12, {"Bob": 0, "Cy": 0}, True, {"Bob", "Cy"}),
        (HouseRules(copies=2), 12, {"Bob": 0, "Cy": 0}, False, set()),
        (HouseRules(copies=2), 12, {"Bob": 0, "Cy": 0, "Di": 0}, False, {"Bob", "Cy", "Di"}),
        (HouseRules(blank_half=25), 12, {"Bob": 1}, True, {"Bob"}),
    ],
)
def test_totals_no_hands_make_are_named_with_the_reason(
    rules: HouseRules, engine: int, totals: dict[str, int], maybe_out: bool, refused: set[str]
) -> None:
    found = impossible_totals(totals, engine, rules, one_may_be_out=maybe_out)
    assert set(found) == refused
    for player, message in found.items():
        assert player in message


def test_the_messages_give_the_reason() -> None:
    found = impossible_totals({"Bob": 0, "Cy": 0}, 12, DEFAULT)
    assert found["Bob"].startswith("Bob and Cy both count 0, but only the 0-0 counts 0")
    found = impossible_totals({"Bob": 0}, 12, HouseRules(double_blank=25))
    assert "no tile counts 0 here (the 0-0 counts 25)" in found["Bob"]
    found = impossible_totals({"Bob": 1}, 12, HouseRules(blank_half=25))
    assert "the lightest counts 2, so 1 cannot be right" in found["Bob"]


NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


@pytest.mark.parametrize(
    ("points", "went_out", "blocked", "errors"),
    [
        ({0: 0, 1: 0, 2: 0}, 0, False, {"Bob", "Cy"}),
        ({0: 0, 1: 0, 2: 5}, 0, False, set()),
        ({0: 3, 1: 0, 2: 0}, None, True, {"Bob", "Cy"}),  # blocked: nobody went out
        ({0: None, 1: 0, 2: 0}, None, False, set()),  # while typing, nobody chosen yet
    ],
)
def test_the_round_check_refuses_them(
    points: dict[int, int | None], went_out: int | None, blocked: bool, errors: set[str]
) -> None:
    entry = RoundInput(
        seats=[SeatInput(position=p, hand=v) for p, v in points.items()],
        went_out=went_out,
        blocked=blocked,
    )
    check = check_round(
        entry, RoundContext(rules=DEFAULT, names=NAMES, number=1, engine=12), partial=True
    )
    assert {seat.name for seat in check.seats if seat.errors} == errors


def test_arrivals_scoring_leaves_hands_alone() -> None:
    rules = HouseRules(score_by="arrivals")
    entry = RoundInput(
        seats=[SeatInput(position=p, hand=0) for p in NAMES], went_out=0, blocked=False
    )
    check = check_round(entry, RoundContext(rules=rules, names=NAMES, number=1, engine=12))
    assert check.ok


RULES = st.sampled_from(
    [
        DEFAULT,
        HouseRules(double_blank=25),
        HouseRules(double_blank=50),
        HouseRules(blank_half=25),
        HouseRules(copies=2),
        HouseRules(max_pip=6),
        HouseRules(max_pip=9, doubles_count="twice"),
    ]
)


@given(data=st.data(), rules=RULES)
def test_every_real_hand_is_a_possible_total(data: st.DataObject, rules: HouseRules) -> None:
    engine = data.draw(st.integers(0, rules.max_pip))
    pool = list(rules.domino_set.tiles) * rules.copies
    pool.remove(Tile(engine, engine))
    picked = data.draw(st.lists(st.sampled_from(range(len(pool))), min_size=1, unique=True))
    total = score_hand([pool[i] for i in picked], rules)
    assert hand_can_total(total, engine, rules)
    assert total >= lightest_hand(engine, rules)
    assert impossible_totals({"Bob": total}, engine, rules) == {}


@given(data=st.data(), rules=RULES)
def test_hands_dealt_from_one_set_are_never_refused(data: st.DataObject, rules: HouseRules) -> None:
    """Players holding disjoint non-empty hands of the same pool: their totals together pass."""
    engine = data.draw(st.integers(0, rules.max_pip))
    pool = list(rules.domino_set.tiles) * rules.copies
    pool.remove(Tile(engine, engine))
    order = data.draw(st.permutations(range(len(pool))))
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=6))
    totals, start = {}, 0
    for player, size in enumerate(sizes):
        totals[f"P{player}"] = score_hand([pool[i] for i in order[start : start + size]], rules)
        start += size
    assert impossible_totals(totals, engine, rules) == {}

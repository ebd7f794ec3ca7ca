"""Checking a round (rules.md section 4): each check fires on a minimal example, never on a clean
round."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.rules import (
    HandEntry,
    HouseRules,
    Problem,
    RoundEntry,
    Tile,
    parse_hand,
    validate_round,
)
from scorekeeper.rules.validation import errors, warnings


def hand(text: str) -> list[Tile]:
    return parse_hand(text)


def codes(problems: list[Problem]) -> list[tuple[str, Any]]:
    return [(p.code, p.player) for p in problems]


CLEAN = {
    "Ann": [],
    "Bob": hand("3-5, 6-6"),
    "Cy": 20,
    "Di": HandEntry(total=13, tile_count=2),
    "Ed": HandEntry(tiles=tuple(hand("0-0, 1-2")), total=3, tile_count=2),
    "Flo": RoundEntry(tiles=tuple(hand("11-12")), markers=1),
}


def test_clean_round_went_out() -> None:
    assert validate_round(CLEAN, 12, HouseRules(), went_out="Ann", previous={"Bob": 7}) == []


def test_clean_blocked_round() -> None:
    hands = {"Ann": hand("0-0"), "Bob": hand("3-5"), "Cy": 0}
    assert validate_round(hands, 9, went_out=None) == []
    assert validate_round(hands, 9, went_out=None, blocked=True) == []


def test_clean_round_is_clean_under_every_set() -> None:
    for n in (6, 9, 12, 15, 18):
        hands = {"Ann": [], "Bob": [Tile(n, n - 1)], "Cy": [Tile(0, n)]}
        assert validate_round(hands, n, HouseRules(max_pip=n), went_out="Ann") == []


R = HouseRules()
TWO = HouseRules(copies=2)

# (hands, engine, rules, went_out, keyword arguments, expected (code, player) in order)
CASES: list[
    tuple[str, dict[str, Any], int | None, HouseRules, Any, dict[str, Any], list[tuple[str, Any]]]
] = [
    ("V1", {"Ann": [Tile(13, 2)], "Bob": hand("1-2")}, 12, R, None, {}, [("V1", "Ann")]),
    (
        "V1 on double-6",
        {"Ann": [Tile(7, 1)], "Bob": hand("6-6")},
        5,
        HouseRules(max_pip=6),
        None,
        {},
        [("V1", "Ann")],
    ),
    ("V2", {"Ann": hand("3-5, 5-3"), "Bob": hand("1-2")}, 12, R, None, {}, [("V2", "Ann")]),
    ("V2 not with two copies", {"Ann": hand("3-5, 5-3")}, 12, TWO, None, {}, []),
    ("V2 with two copies", {"Ann": hand("3-5, 5-3, 3-5")}, 12, TWO, None, {}, [("V2", "Ann")]),
    (
        "V3",
        {"Ann": hand("3-5"), "Bob": hand("1-2, 3-5")},
        12,
        R,
        None,
        {},
        [("V3", "Ann"), ("V3", "Bob")],
    ),
    ("V3 not with two copies", {"Ann": hand("3-5"), "Bob": hand("3-5")}, 12, TWO, None, {}, []),
    (
        "V3 three holders of two copies",
        {"Ann": hand("3-5"), "Bob": hand("3-5"), "Cy": hand("3-5")},
        12,
        TWO,
        None,
        {},
        [("V3", "Ann"), ("V3", "Bob"), ("V3", "Cy")],
    ),
    ("V4", {"Ann": hand("9-9, 1-2"), "Bob": hand("1-3")}, 9, R, None, {}, [("V4", "Ann")]),
    ("V4 in the 0-0 round", {"Ann": hand("0-0")}, 0, R, None, {}, [("V4", "Ann")]),
    ("V4 earlier engines may be in hands", {"Ann": hand("12-12")}, 11, R, None, {}, []),
    ("V4 one of two copies", {"Ann": hand("9-9")}, 9, TWO, None, {}, []),
    (
        "V4 both of two copies",
        {"Ann": hand("9-9"), "Bob": hand("9-9")},
        9,
        TWO,
        None,
        {},
        [("V4", "Ann"), ("V4", "Bob")],
    ),
    (
        "V5 went out with tiles",
        {"Ann": hand("1-2"), "Bob": hand("1-3")},
        12,
        R,
        "Ann",
        {},
        [("V5", "Ann")],
    ),
    ("V5 went out with a total", {"Ann": 5, "Bob": hand("1-3")}, 12, R, "Ann", {}, [("V5", "Ann")]),
    (
        "V5 went out with a tile count",
        {"Ann": HandEntry(tile_count=2), "Bob": hand("1-3")},
        12,
        R,
        "Ann",
        {},
        [("V5", "Ann")],
    ),
    ("V5 went out with total 0", {"Ann": 0, "Bob": hand("1-3")}, 12, R, "Ann", {}, []),
    ("V5 two went out", {"Ann": [], "Bob": []}, 12, R, "Ann", {}, [("V5", "Bob")]),
    ("V5 two empty hands", {"Ann": [], "Bob": []}, 12, R, None, {}, [("V5", "Ann"), ("V5", "Bob")]),
    ("V5 unknown player", {"Ann": hand("1-2")}, 12, R, "Zed", {}, [("V5", "Zed")]),
    (
        "V5 blocked round",
        {"Ann": [], "Bob": hand("1-3")},
        12,
        R,
        "Ann",
        {"blocked": True},
        [("V5", "Ann")],
    ),
    (
        "V5 empty hand when blocked",
        {"Ann": [], "Bob": hand("1-3")},
        12,
        R,
        None,
        {"blocked": True},
        [("V5", "Ann")],
    ),
    (
        "V6 known count",
        {"Ann": HandEntry(total=70, tile_count=3)},
        12,
        R,
        None,
        {},
        [("V6", "Ann")],
    ),
    ("V6 at capacity", {"Ann": HandEntry(total=67, tile_count=3)}, 12, R, None, {}, []),
    (
        "V6 below the lightest",
        {"Ann": HandEntry(total=0, tile_count=3)},
        12,
        R,
        None,
        {},
        [("V6", "Ann")],
    ),
    (
        "V6 more tiles than exist",
        {"Ann": HandEntry(total=100, tile_count=91)},
        12,
        R,
        None,
        {},
        [("V6", "Ann")],
    ),
    ("V6 unknown count", {"Ann": 1070}, 12, R, None, {}, [("V6", "Ann")]),
    ("V6 unknown count at capacity", {"Ann": 1068}, 12, R, None, {}, []),
    ("V7", {"Ann": 600, "Bob": 500}, 12, R, None, {}, [("V7", None)]),
    ("V7 at capacity", {"Ann": 568, "Bob": 500}, 12, R, None, {}, []),
    (
        "V8 total",
        {"Ann": HandEntry(tiles=(Tile(3, 5),), total=9)},
        12,
        R,
        None,
        {},
        [("V8", "Ann")],
    ),
    (
        "V8 house rules",
        {"Ann": HandEntry(tiles=(Tile(0, 0),), total=0)},
        12,
        HouseRules(double_blank=50),
        None,
        {},
        [("V8", "Ann")],
    ),
    (
        "V8 tile count",
        {"Ann": HandEntry(tiles=(Tile(3, 5),), tile_count=2)},
        12,
        R,
        None,
        {},
        [("V8", "Ann")],
    ),
    (
        "V9",
        {"Ann": hand("3-5"), "Bob": 7},
        12,
        R,
        None,
        {"previous": {"Ann": 8, "Bob": 9}},
        [("V9", "Ann")],
    ),
    ("V9 not for 0", {"Ann": [], "Bob": 0}, 12, R, "Ann", {"previous": {"Ann": 0, "Bob": 0}}, []),
    ("V10 fraction", {"Ann": 4.5}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 bool", {"Ann": True}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 text", {"Ann": "12"}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 missing", {"Ann": None}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 negative", {"Ann": -3}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 absurd", {"Ann": 5000}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 just above the set", {"Ann": 1093}, 12, R, None, {}, [("V10", "Ann")]),
    ("V10 nan", {"Ann": float("nan")}, 12, R, None, {}, [("V10", "Ann")]),
    (
        "V10 entry total",
        {"Ann": HandEntry(total=-1, tile_count=2)},
        12,
        R,
        None,
        {},
        [("V10", "Ann")],
    ),
    ("whole float is fine", {"Ann": 4.0}, 12, R, None, {}, []),
    ("Decimal and Fraction", {"Ann": Decimal(4), "Bob": Fraction(6, 2)}, 12, R, None, {}, []),
]


@pytest.mark.parametrize(
    ("hands", "engine", "rules", "went_out", "kwargs", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_check(
    hands: dict[str, Any],
    engine: int | None,
    rules: HouseRules,
    went_out: Any,
    kwargs: dict[str, Any],
    expected: list[tuple[str, Any]],
) -> None:
    problems = validate_round(hands, engine, rules, went_out, **kwargs)
    assert codes(problems) == expected
    for problem in problems:
        assert problem.level == ("warning" if problem.code == "V9" else "error")
        assert not problem.message.endswith(".")
        assert problem.message[0].isupper()


def test_one_empty_hand_in_an_unmarked_round_is_a_warning() -> None:
    problems = validate_round({"Ann": [], "Bob": hand("1-2")}, 12)
    assert codes(problems) == [("V5", "Ann")]
    assert problems[0].level == "warning"
    assert "mark Ann as the player who went out" in problems[0].message


@pytest.mark.parametrize(
    ("hands", "engine", "rules", "went_out", "message"),
    [
        ({"Ann": [Tile(13, 2)]}, 12, R, None, "Ann's 2-13: 13 is not on a double-12 set"),
        ({"Ann": [Tile(13, 14)]}, 12, R, None, "Ann's 13-14: 13 and 14 are not on a double-12 set"),
        (
            {"Bob": hand("3-5"), "Ann": hand("3-5")},
            12,
            R,
            None,
            "Bob and Ann both have 3-5: a tile can be in only one hand",
        ),
        (
            {"Ann": hand("9-9")},
            9,
            R,
            None,
            "The 9-9 is this round's engine: it is in the middle, not in Ann's hand",
        ),
        (
            {"Ann": hand("3-5, 3-5")},
            12,
            R,
            None,
            "Ann has 3-5 twice: there is only one 3-5 in the set",
        ),
        (
            {"Ann": hand("1-2")},
            12,
            R,
            "Ann",
            "Ann went out, so Ann has no tiles left, but 1 tile is entered",
        ),
        (
            {"Ann": hand("1-2, 3-4")},
            12,
            R,
            "Ann",
            "Ann went out, so Ann has no tiles left, but 2 tiles are entered",
        ),
        (
            {"Ann": 1070},
            12,
            R,
            None,
            "Ann's total 1070 is more than all the tiles outside the 12-12 engine hold (1068)",
        ),
        (
            {"Ann": HandEntry(total=70, tile_count=3)},
            12,
            R,
            None,
            "Ann's total 70 is more than 3 tiles can hold (at most 67)",
        ),
        (
            {"Ann": 600, "Bob": 500},
            12,
            R,
            None,
            "All hands together hold 1100 pips, but the double-12 set holds only 1068 "
            "outside the 12-12 engine",
        ),
        (
            {"Ann": HandEntry(tiles=(Tile(3, 5),), total=9)},
            12,
            R,
            None,
            "Ann's tiles add up to 8, but the total says 9",
        ),
        ({"Ann": 4.5}, 12, R, None, "Ann's total must be a whole number, not 4.5"),
        ({"Ann": "abc"}, 12, R, None, 'Ann\'s total must be a whole number, not "abc"'),
        ({"Ann": -3}, 12, R, None, "Ann's total cannot be negative (-3)"),
        (
            {"Ann": 5000},
            12,
            R,
            None,
            "Ann's total 5000 is more than the whole of the double-12 set holds (1092)",
        ),
    ],
)
def test_messages(
    hands: dict[str, Any], engine: int, rules: HouseRules, went_out: Any, message: str
) -> None:
    assert message in [p.message for p in validate_round(hands, engine, rules, went_out)]


def test_v6_and_v10_never_both_fire_for_one_value() -> None:
    for total in (-1, 4.5, 1069, 1093, 10**6):
        problems = validate_round({"Ann": total}, 12)
        assert len(problems) == 1, problems


def test_v7_sums_tiles_and_totals() -> None:
    all_but_engine = [t for t in R.domino_set.tiles if t != Tile(12, 12)]
    half = len(all_but_engine) // 2
    hands = {"Ann": all_but_engine[:half], "Bob": all_but_engine[half:]}
    assert validate_round(hands, 12) == []
    hands["Cy"] = 1
    assert codes(validate_round(hands, 12)) == [("V7", None)]


def test_problems_are_ordered_by_player_then_code() -> None:
    hands = {
        "Zoe": [Tile(13, 1), Tile(9, 9), Tile(3, 5)],
        "Abe": hand("3-5"),
        "Cy": 4.5,
    }
    problems = validate_round(hands, 9, went_out="Zoe")
    assert codes(problems) == [
        ("V1", "Zoe"),
        ("V3", "Zoe"),
        ("V4", "Zoe"),
        ("V5", "Zoe"),
        ("V3", "Abe"),
        ("V10", "Cy"),
    ]


def test_engine_unknown_skips_v4() -> None:
    assert validate_round({"Ann": hand("12-12")}, None) == []


def test_bad_engine_raises() -> None:
    with pytest.raises(ValueError):
        validate_round({"Ann": []}, 13)


def test_bad_hand_values_raise() -> None:
    with pytest.raises(TypeError):
        validate_round({"Ann": ["3-5"]}, 12)
    with pytest.raises(ValueError):
        HandEntry(tile_count=-1)
    with pytest.raises(TypeError):
        HandEntry(tiles=("3-5",))  # type: ignore[arg-type]


def test_errors_and_warnings_helpers() -> None:
    problems = validate_round({"Ann": [], "Bob": []}, 12) + validate_round(
        {"Ann": 8}, 12, previous={"Ann": 8}
    )
    assert all(p.is_error for p in errors(problems))
    assert [p.code for p in warnings(problems)] == ["V9"]

"""House rules: defaults, validation, storage round trip, "Rules in play" and form options."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from scorekeeper.rules import (
    DEAL_PRESETS,
    PRESET_DESCRIPTIONS,
    RULE_LABELS,
    RULE_OPTIONS,
    DominoSet,
    HouseRules,
    first_engine_options,
)


def test_defaults_follow_rules_md() -> None:
    rules = HouseRules()
    assert rules.max_pip == 12
    assert rules.copies == 1
    assert rules.double_blank == 0
    assert rules.blank_half == 0
    assert rules.end_on_double == "allowed"
    assert rules.marker_penalty == 0
    assert rules.going_out_bonus == 0
    assert rules.first_engine is None
    assert rules.order == "descending"
    assert rules.deal_table == "standard"
    assert rules.start_rule == "rotate"
    assert rules.tie_break == "co_winners"
    assert rules.late_joiner == "none"
    assert rules.domino_set == DominoSet(12)
    assert rules.highest_engine == 12


def test_rules_are_frozen_and_hashable() -> None:
    rules = HouseRules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.max_pip = 9  # type: ignore[misc]
    assert hash(rules) == hash(HouseRules())
    assert {HouseRules(double_blank=50), HouseRules(double_blank=50)} == {
        HouseRules(double_blank=50)
    }


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("max_pip", -1),
        ("max_pip", "12"),
        ("copies", 3),
        ("double_blank", 10),
        ("double_blank", 25.0),
        ("double_blank", False),
        ("blank_half", 50),
        ("end_on_double", "forbidden"),
        ("marker_penalty", 15),
        ("going_out_bonus", 5),
        ("first_engine", 13),
        ("first_engine", -1),
        ("first_engine", "9"),
        ("order", "random"),
        ("deal_table", "box"),
        ("deal_table", "custom"),
        ("deal_table", {1: 10}),
        ("deal_table", {4: 0}),
        ("deal_table", {8: 12}),  # 97 tiles needed, 91 in a double-12 set
        ("deal_table", 15),
        ("start_rule", "youngest"),
        ("tie_break", "coin"),
        ("late_joiner", "average"),
    ],
)
def test_bad_choices_name_the_field(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=field):
        HouseRules(**{field: value})


@pytest.mark.parametrize("field", sorted(RULE_OPTIONS))
def test_every_listed_option_is_accepted(field: str) -> None:
    for value, text in RULE_OPTIONS[field]:
        assert text
        if field == "deal_table" and value == "custom":
            continue
        # A set number of rounds comes with its number.
        extra = {"rounds": 10} if field == "length" and value == "fixed" else {}
        assert getattr(HouseRules(**{field: value}, **extra), field) == value


def test_rule_options_cover_every_field_default_first() -> None:
    names = [f.name for f in dataclasses.fields(HouseRules)]
    assert set(RULE_OPTIONS) == set(names) == set(RULE_LABELS)
    defaults = HouseRules()
    for name in names:
        assert RULE_OPTIONS[name][0][0] == getattr(defaults, name), name


def test_custom_deal_is_normalised_and_hashable() -> None:
    rules = HouseRules(deal_table={5: 11, "2": 14})
    assert rules.deal_table == {2: 14, 5: 11}
    assert rules.deal_table[5] == 11 and list(rules.deal_table) == [2, 5]
    assert rules.custom_deal == {2: 14, 5: 11}
    assert rules.deal_preset == "custom"
    assert HouseRules(deal_table=[(5, 11), (2, 14)]) == rules
    hash(rules)


def test_to_dict_from_dict_round_trip_through_json() -> None:
    rules = HouseRules(
        max_pip=9,
        double_blank=50,
        end_on_double="double_others",
        marker_penalty=10,
        going_out_bonus=-5,
        first_engine=7,
        order="ascending",
        deal_table={3: 8, 2: 10},
        start_rule="rotate",
        tie_break="chain",
        late_joiner="highest_total",
    )
    stored = json.loads(json.dumps(rules.to_dict()))
    assert HouseRules.from_dict(stored) == rules
    assert HouseRules.from_dict(json.loads(json.dumps(HouseRules().to_dict()))) == HouseRules()


def test_from_dict_defaults_missing_and_rejects_unknown() -> None:
    assert HouseRules.from_dict({"max_pip": 9}) == HouseRules(max_pip=9)
    with pytest.raises(ValueError, match="colour"):
        HouseRules.from_dict({"colour": "red"})


def test_replace() -> None:
    assert HouseRules().replace(max_pip=9) == HouseRules(max_pip=9)
    with pytest.raises(ValueError, match="max_pip"):
        HouseRules().replace(max_pip=99)


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        (HouseRules(), "Set: double-12"),
        (HouseRules(copies=2), "Set: two double-12 sets mixed (every tile twice)"),
        (HouseRules(), "Engines: 12-12 down to 0-0, 13 rounds"),
        (HouseRules(first_engine=9), "Engines: 9-9 down to 0-0, 10 rounds (shortened game)"),
        (HouseRules(order="ascending"), "Engines: 0-0 up to 12-12, 13 rounds"),
        (HouseRules(), "Double blank counts 0"),
        (HouseRules(double_blank=50), "Double blank counts 50"),
        (HouseRules(blank_half=25), "Blank halves count 25 each; double blank counts 50"),
        (HouseRules(), "Going out on a double: allowed, no penalty"),
        (
            HouseRules(end_on_double="double_others"),
            "Going out on a double: others' scores doubled",
        ),
        (
            HouseRules(end_on_double="penalty"),
            "Going out on a double: +50 to the player who does it",
        ),
        (HouseRules(marker_penalty=10), "Open-train markers still out: 10 points each"),
        (HouseRules(going_out_bonus=-10), "Going-out bonus: -10 to the player who goes out"),
        (HouseRules(), "Deal: standard table"),
        (HouseRules(deal_table="cardinal"), "Deal: cardinal sheet"),
        (HouseRules(deal_table={2: 14}), "Deal: custom (2 players 14)"),
        (HouseRules(copies=2), "Deal: computed suggestion (the tables are for one set)"),
        (
            HouseRules(start_rule="rotate"),
            "Who starts: rotates clockwise, one seat to the left each round",
        ),
        (HouseRules(), "Ties: co-winners"),
        (
            HouseRules(late_joiner="highest_total"),
            "Late joiner: starts with the highest current total",
        ),
    ],
)
def test_describe(rules: HouseRules, line: str) -> None:
    assert line in rules.describe()


def test_describe_mentions_every_rule_once() -> None:
    assert len(HouseRules().describe()) == 12
    assert any(
        "highest double anyone holds" in line
        for line in HouseRules(order="highest_available").describe()
    )
    assert any(
        "for one double-12 set" in line
        for line in HouseRules(max_pip=9, deal_table="fundex").describe()
    )


def test_presets() -> None:
    assert set(DEAL_PRESETS) == {"standard", "cardinal", "fundex", "gamerules"}
    assert set(PRESET_DESCRIPTIONS) == {*DEAL_PRESETS, "custom"}
    assert [DEAL_PRESETS["standard"][p] for p in range(2, 11)] == [15, 15, 15, 12, 12, 10, 10, 8, 8]


def test_first_engine_options() -> None:
    options = first_engine_options(12)
    assert options[0] == (None, "12-12 (full game)")
    assert options[1] == (11, "11-11 (12 rounds)")
    assert options[-1] == (0, "0-0 (1 round)")
    assert len(options) == 13


def test_every_house_rule_is_declared_once_and_read_from_its_declaration() -> None:
    from dataclasses import fields

    from scorekeeper.rules.house import HOUSE_RULES

    assert sorted(HOUSE_RULES) == sorted(f.name for f in fields(HouseRules))
    for rule in HOUSE_RULES.values():
        assert rule.default == getattr(HouseRules(), rule.name), rule.name
        for value in rule.values:
            assert rule.parse(str(value)) == value
        with pytest.raises(ValueError):
            rule.parse("no such choice")
        if rule.section == "scoring":
            assert rule.scoring, f"{rule.name} does not say how it scores"
    # "Rules in play" is the declared lines, in declaration order.
    rules = HouseRules(double_blank=50, marker_penalty=10, tie_break="chain")
    lines = [
        line
        for rule in HOUSE_RULES.values()
        if rule.applies_to("mexican_train") and (line := rule.in_play(rules))
    ]
    assert rules.describe() == lines
    assert (
        "Double blank counts 50" in lines
        and "Open-train markers still out: 10 points each" in lines
    )

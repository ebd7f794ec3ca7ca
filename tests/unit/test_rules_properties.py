"""Properties of the rules engine, checked with hypothesis."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    DEAL_PRESETS,
    SETS,
    DominoSet,
    HandError,
    HouseRules,
    Tile,
    deal_plan,
    format_hand,
    max_players,
    parse_hand,
    score_hand,
    set_score,
    validate_round,
)
from scorekeeper.rules.notation import NUMBER_WORDS
from scorekeeper.rules.tiles import MAX_SUPPORTED_PIP

fast = settings(database=None, deadline=None, max_examples=60)
WORD_FOR = {value: word for word, value in NUMBER_WORDS.items() if word not in {"none", "nil"}}


@st.composite
def set_and_tiles(draw: st.DrawFn, unique: bool = True) -> tuple[int, list[Tile]]:
    n = draw(st.sampled_from(SETS))
    tiles = draw(st.lists(st.sampled_from(DominoSet(n).tiles), unique=unique, max_size=20))
    return n, tiles


@fast
@given(set_and_tiles())
def test_format_then_parse_gives_the_tiles_back(case: tuple[int, list[Tile]]) -> None:
    n, tiles = case
    assert parse_hand(format_hand(tiles), max_pip=n) == tiles


def _number(draw: st.DrawFn, value: int) -> str:
    forms = [str(value)]
    if value in WORD_FOR:
        forms.append(WORD_FOR[value])
        forms.append(WORD_FOR[value].upper())
    if value == 0:
        forms += ["blank", "Blank", "none", "nil"]
    return draw(st.sampled_from(forms))


@st.composite
def written_hand(draw: st.DrawFn) -> tuple[int, list[Tile], str]:
    """A hand written with a random notation for every tile and random separators."""
    n, tiles = draw(set_and_tiles(unique=False))
    pieces = []
    for tile in tiles:
        a, b = draw(st.permutations(list(tile.halves)))
        x, y = _number(draw, a), _number(draw, b)
        forms = [
            f"{x}-{y}",
            f"{x}/{y}",
            f"{x}:{y}",
            f"{x}|{y}",
            f"[{x}|{y}]",
            f"({x} {y})",
            f"{x}x{y}" if not (x[-1].isalpha() or y[0].isalpha()) else f"{x} x {y}",
            f"{x} - {y}",
        ]
        if tile.is_double:
            forms += [f"double {x}", f"dbl {x}", f"double-{x}", f"DBL. {x}"]
        if n <= 9 and x.isdigit() and y.isdigit():
            forms.append(f"{x}{y}")
        pieces.append(draw(st.sampled_from(forms)))
    text = ""
    for piece in pieces:
        text += piece + draw(st.sampled_from([", ", ",", ";", " + ", "\n", " ", "  ", " ;\n"]))
    return n, tiles, text


@fast
@given(written_hand())
def test_any_notation_and_separators_parse_to_the_same_tiles(
    case: tuple[int, list[Tile], str],
) -> None:
    n, tiles, text = case
    assert parse_hand(text, max_pip=n) == tiles


@fast
@given(st.text(max_size=40), st.sampled_from(SETS))
def test_parse_never_fails_with_anything_but_hand_error(text: str, n: int) -> None:
    try:
        tiles = parse_hand(text, max_pip=n)
    except HandError as error:
        assert error.text and error.text in text
        assert f'"{error.text}"' in str(error)
    else:
        assert all(tile.high <= n for tile in tiles)


@fast
@given(
    st.sampled_from(SETS),
    st.sampled_from([0, 25, 50]),
    st.sampled_from([0, 25]),
    st.sampled_from([1, 2]),
)
def test_whole_set_score(n: int, double_blank: int, blank_half: int, copies: int) -> None:
    rules = HouseRules(max_pip=n, double_blank=double_blank, blank_half=blank_half, copies=copies)
    dominoes = rules.domino_set
    if blank_half:
        # Each number appears n+2 times as a half, so the blank halves add 25 each.
        expected = dominoes.pip_total + blank_half * dominoes.number_count
    else:
        expected = dominoes.pip_total + double_blank
    assert score_hand(dominoes.tiles, rules) == expected
    assert set_score(rules) == expected * copies
    if (double_blank, blank_half) == (0, 0):
        assert score_hand(dominoes.tiles) == dominoes.pip_total  # the defaults


def _mentions(message: str, tile: Tile) -> bool:
    return re.search(rf"(?<![\d-]){re.escape(str(tile))}(?![\d-])", message) is not None


@st.composite
def hands_with_duplicates(draw: st.DrawFn) -> tuple[int, dict[str, list[Tile]]]:
    n = draw(st.sampled_from(SETS))
    players = ["Ann", "Bob", "Cy", "Di"][: draw(st.integers(2, 4))]
    pool = DominoSet(n).tiles
    hands: dict[str, list[Tile]] = {p: [] for p in players}
    for tile in draw(st.lists(st.sampled_from(pool), min_size=1, max_size=25)):
        hands[draw(st.sampled_from(players))].append(tile)
    return n, hands


@fast
@given(hands_with_duplicates())
def test_validator_reports_every_duplicate(case: tuple[int, dict[str, list[Tile]]]) -> None:
    n, hands = case
    problems = validate_round(hands, None, HouseRules(max_pip=n))
    holders: dict[Tile, Counter[str]] = {}
    for player, tiles in hands.items():
        for tile in tiles:
            holders.setdefault(tile, Counter())[player] += 1
    expected_v2 = {(p, t) for t, count in holders.items() for p, k in count.items() if k > 1}
    expected_v3 = {(p, t) for t, count in holders.items() if len(count) > 1 for p in count}
    for code, expected in (("V2", expected_v2), ("V3", expected_v3)):
        found = [p for p in problems if p.code == code]
        assert len(found) == len(expected)
        for player, tile in expected:
            assert any(p.player == player and _mentions(p.message, tile) for p in found)
    assert not [p for p in problems if p.code in {"V1", "V4", "V6", "V8", "V9", "V10"}]


@fast
@given(st.sampled_from(SETS), st.data())
def test_a_real_deal_is_clean(n: int, data: st.DataObject) -> None:
    rules = HouseRules(max_pip=n)
    players = data.draw(st.integers(2, max_players(n)))
    engine = data.draw(st.integers(0, n))
    pool = [t for t in rules.domino_set.tiles if t != Tile(engine, engine)]
    shuffled = data.draw(st.permutations(pool))
    each = deal_plan(players, rules).tiles_each
    names = [f"P{i}" for i in range(players)]
    hands = {name: list(shuffled[i * each : (i + 1) * each]) for i, name in enumerate(names)}
    hands[names[0]] = []  # P0 went out
    assert validate_round(hands, engine, rules, went_out=names[0]) == []
    totals = {name: score_hand(tiles, rules) for name, tiles in hands.items()}
    assert validate_round(totals, engine, rules, went_out=names[0]) == []


DEAL_CASES = [
    (n, copies, preset, players)
    for n in SETS
    for copies in (1, 2)
    for preset in DEAL_PRESETS
    for players in range(2, max_players(n) + 1)
]


@pytest.mark.parametrize(("n", "copies", "preset", "players"), DEAL_CASES)
def test_deal_never_deals_more_than_the_set_holds(
    n: int, copies: int, preset: str, players: int
) -> None:
    rules = HouseRules(max_pip=n, copies=copies, deal_table=preset)
    plan = deal_plan(players, rules)
    assert plan.tiles_each >= 1
    assert players * plan.tiles_each + 1 <= rules.domino_set.total_tiles
    assert plan.boneyard == rules.domino_set.total_tiles - 1 - players * plan.tiles_each


@fast
@given(
    st.integers(0, MAX_SUPPORTED_PIP),
    st.sampled_from([1, 2]),
    st.integers(-2, 40),
    st.sampled_from(list(DEAL_PRESETS)),
)
def test_deal_for_any_set_is_possible_or_refused(
    n: int, copies: int, players: int, preset: str
) -> None:
    rules = HouseRules(max_pip=n, copies=copies, deal_table=preset)
    try:
        plan = deal_plan(players, rules)
    except ValueError as error:
        assert str(error)
        assert players < 2 or players > max_players(n, copies)
    else:
        assert 2 <= players <= max_players(n, copies)
        assert plan.tiles_each >= 1
        assert players * plan.tiles_each + 1 <= rules.domino_set.total_tiles

"""The house rules real groups use (issue 13, items 1-4 and 6-8), from the rule sheets:
one declaration each in ``HOUSE_RULES``, their scoring, their "Rules in play" line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules, Tile, rank_players, score_hand
from scorekeeper.rules.house import HOUSE_RULES
from scorekeeper.rules.schedule import starter_for_round, starter_text
from scorekeeper.rules.scoreboard import RoundResult, scoreboard
from scorekeeper.rules.scoring import RoundEntry, round_winners, score_round, tile_score

fast = settings(database=None, deadline=None, max_examples=60)


# --- 1 and 3: what a tile left in hand counts -------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "tile", "counts"),
    [
        # 5 points per blank half, the double-blank penalty not on top (the default)
        (HouseRules(blank_half=5), Tile(0, 4), 9),
        (HouseRules(blank_half=5), Tile(0, 0), 10),
        (HouseRules(blank_half=5, double_blank=50), Tile(0, 0), 10),
        (HouseRules(blank_half=5), Tile(3, 4), 7),
        # ... and with it on top
        (HouseRules(blank_half=5, double_blank=50, double_blank_on_top=True), Tile(0, 0), 60),
        (HouseRules(blank_half=5, double_blank=25, double_blank_on_top=True), Tile(0, 0), 35),
        (HouseRules(blank_half=5, double_blank=25, double_blank_on_top=True), Tile(0, 6), 11),
        (HouseRules(blank_half=25), Tile(0, 0), 50),
        # on top needs blank halves to count: the plain 0-0 rule is unchanged
        (HouseRules(double_blank=50, double_blank_on_top=True), Tile(0, 0), 50),
        # doubles count twice their pips
        (HouseRules(doubles_count="twice"), Tile(6, 6), 24),
        (HouseRules(doubles_count="twice"), Tile(12, 12), 48),
        (HouseRules(doubles_count="twice"), Tile(5, 6), 11),
        (HouseRules(doubles_count="twice", double_blank=25), Tile(0, 0), 25),
        (HouseRules(doubles_count="twice", blank_half=5), Tile(0, 0), 10),
        (HouseRules(doubles_count="twice", blank_half=5), Tile(4, 4), 16),
        (HouseRules(doubles_count="twice", blank_half=5), Tile(0, 4), 9),
    ],
)
def test_tile_scores(rules: HouseRules, tile: Tile, counts: int) -> None:
    assert tile_score(tile, rules) == counts


def test_a_hand_under_blank_halves_and_doubles() -> None:
    rules = HouseRules(blank_half=5, doubles_count="twice")
    hand = [Tile(0, 3), Tile(6, 6), Tile(2, 5)]
    assert score_hand(hand, rules) == 8 + 24 + 7


# --- 2 and 4: the round -------------------------------------------------------------------------


def _entries(**hands: int) -> dict[str, RoundEntry]:
    return {name: RoundEntry(total=total) for name, total in hands.items()}


@pytest.mark.parametrize(
    ("rules", "entries", "went_out", "expected"),
    [
        # blocked round, everyone scores their hand (default)
        (HouseRules(), _entries(a=10, b=4, c=7), None, {"a": 10, "b": 4, "c": 7}),
        # blocked-round cap: the lowest hand scores 0, every one tied for lowest
        (
            HouseRules(blocked_round="lowest_zero"),
            _entries(a=10, b=4, c=7),
            None,
            {"a": 10, "b": 0, "c": 7},
        ),
        (
            HouseRules(blocked_round="lowest_zero"),
            _entries(a=10, b=4, c=4),
            None,
            {"a": 10, "b": 0, "c": 0},
        ),
        # ... and when someone went out it changes nothing
        (
            HouseRules(blocked_round="lowest_zero"),
            _entries(a=0, b=4, c=7),
            "a",
            {"a": 0, "b": 4, "c": 7},
        ),
        # markers still count for the capped hand
        (
            HouseRules(blocked_round="lowest_zero", marker_penalty=10),
            {"a": RoundEntry(total=10), "b": RoundEntry(total=4, markers=1)},
            None,
            {"a": 10, "b": 10},
        ),
        # unsatisfied double: fixed points per double left open
        (
            HouseRules(open_double_penalty="plus_5"),
            {"a": RoundEntry(total=0), "b": RoundEntry(total=12, open_doubles=1)},
            "a",
            {"a": 0, "b": 17},
        ),
        (
            HouseRules(open_double_penalty="plus_10"),
            {"a": RoundEntry(total=0), "b": RoundEntry(total=12, open_doubles=2)},
            "a",
            {"a": 0, "b": 32},
        ),
        # ... or the hand counted as a multiple
        (
            HouseRules(open_double_penalty="times_3"),
            {"a": RoundEntry(total=0), "b": RoundEntry(total=12, open_doubles=1)},
            "a",
            {"a": 0, "b": 36},
        ),
        (
            HouseRules(open_double_penalty="times_5"),
            {
                "a": RoundEntry(total=0),
                "b": RoundEntry(total=12, open_doubles=1),
                "c": RoundEntry(total=9),
            },
            "a",
            {"a": 0, "b": 60, "c": 9},
        ),
        # a multiple on top of markers: the markers are not multiplied
        (
            HouseRules(open_double_penalty="times_3", marker_penalty=5),
            {"a": RoundEntry(total=0), "b": RoundEntry(total=10, open_doubles=1, markers=1)},
            "a",
            {"a": 0, "b": 35},
        ),
        # arrivals: one point for going out, nothing else counts
        (
            HouseRules(score_by="arrivals", marker_penalty=10, going_out_bonus=-10),
            {"a": RoundEntry(total=0), "b": RoundEntry(total=30, markers=2)},
            "a",
            {"a": 1, "b": 0},
        ),
        (HouseRules(score_by="arrivals"), _entries(a=3, b=30), None, {"a": 0, "b": 0}),
    ],
)
def test_round_scores(
    rules: HouseRules, entries: dict[str, RoundEntry], went_out: str | None, expected: dict
) -> None:
    assert score_round(entries, rules, went_out=went_out) == expected


def test_arrivals_blocked_round_has_no_winner() -> None:
    arrivals = HouseRules(score_by="arrivals")
    assert round_winners({"a": 0, "b": 0}, None, arrivals) == []
    assert round_winners({"a": 1, "b": 0}, "a", arrivals) == ["a"]
    assert round_winners({"a": 3, "b": 5}, None) == ["a"]


# --- 6: the lowest running total starts ---------------------------------------------------------

LOWEST = HouseRules(start_rule="lowest_total")


@pytest.mark.parametrize(
    ("number", "totals", "first", "starter"),
    [
        (1, None, 2, 2),  # round 1: the seat chosen at setup
        (2, [30, 12, 40], 0, 1),
        (5, [3, 12, 0, 7], 0, 2),
        (3, [10, 10, 40], 0, None),  # tied: one of them starts
    ],
)
def test_lowest_total_starts(
    number: int, totals: list[int] | None, first: int, starter: int | None
) -> None:
    assert (
        starter_for_round(
            number, 4 if totals is None else len(totals), LOWEST, first, totals=totals
        )
        == starter
    )


def test_lowest_total_starter_in_words() -> None:
    names = ["Ann", "Bob", "Cy"]
    assert starter_text(2, names, LOWEST, totals=[30, 12, 40]) == "Bob starts (lowest total: 12)"
    assert (
        starter_text(3, names, LOWEST, totals=[10, 10, 40])
        == "Ann and Bob share the lowest total (10): one of them starts"
    )
    assert starter_text(1, names, LOWEST, first_starter=2) == "Cy starts"


# --- 7: arrivals on the scoreboard --------------------------------------------------------------


def test_arrivals_highest_total_wins() -> None:
    rules = HouseRules(score_by="arrivals")
    rounds = [
        RoundResult((1, 0, 0), went_out=0),
        RoundResult((0, 1, 0), went_out=1),
        RoundResult((1, 0, 0), went_out=0),
        RoundResult((0, 0, 0), went_out=None),
    ]
    board = scoreboard(3, rounds, rules)
    assert [p.total for p in board.players] == [2, 1, 0]
    assert [p.rank for p in board.players] == [1, 2, 3]
    assert board.winners == [0]
    assert [p.gap for p in board.players] == [0, 1, 2]
    assert board.round_wins[3] == frozenset()
    assert board.players[0].best == 1 and board.players[0].worst == 0


# --- 8: the club's tie-break chain --------------------------------------------------------------


ZEROS = HouseRules(tie_break="zero_rounds")


@pytest.mark.parametrize(
    ("rounds", "ranks", "note"),
    [
        # most rounds with 0 points
        ({"a": [0, 10, 0], "b": [5, 5, 0]}, {"a": 1, "b": 2}, "ahead on rounds with 0: 2 to 1"),
        # then the lowest round that was not 0
        (
            {"a": [0, 3, 7], "b": [0, 4, 6]},
            {"a": 1, "b": 2},
            "ahead on lowest round that was not 0: 3 to 4",
        ),
        # level on both: the tie stands
        ({"a": [0, 4, 6], "b": [6, 4, 0]}, {"a": 1, "b": 1}, "tied on 10 after every tie-break"),
    ],
)
def test_zero_rounds_chain(rounds: dict[str, list[int]], ranks: dict, note: str) -> None:
    totals = {player: sum(scores) for player, scores in rounds.items()}
    standings = rank_players(totals, ZEROS, round_scores=rounds, went_out_counts={"a": 3, "b": 0})
    assert {s.player: s.rank for s in standings} == ranks
    assert note in standings[0].note


def test_the_zero_rounds_chain_ignores_rounds_gone_out() -> None:
    # The default chain would put b first (more rounds gone out); the club's chain looks at 0s.
    rounds = {"a": [0, 10, 0], "b": [5, 5, 0]}
    standings = rank_players(
        {"a": 10, "b": 10}, ZEROS, round_scores=rounds, went_out_counts={"a": 0, "b": 3}
    )
    assert standings[0].player == "a"
    chain = rank_players(
        {"a": 10, "b": 10},
        HouseRules(tie_break="chain"),
        round_scores=rounds,
        went_out_counts={"a": 0, "b": 3},
    )
    assert chain[0].player == "b"


# --- Declarations and "Rules in play" -----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        (
            HouseRules(blank_half=5),
            "Blank halves count 5 each; double blank counts 10",
        ),
        (
            HouseRules(blank_half=5, double_blank=50),
            "Blank halves count 5 each; double blank counts 10 (the double-blank 50 is not "
            "added on top)",
        ),
        (
            HouseRules(blank_half=5, double_blank=50, double_blank_on_top=True),
            "Blank halves count 5 each; double blank counts 10 + 50 = 60 (the double-blank "
            "penalty on top)",
        ),
        (HouseRules(blocked_round="lowest_zero"), "Blocked round: the lowest hand scores 0"),
        (HouseRules(doubles_count="twice"), "Doubles left in hand count twice their pips"),
        (
            HouseRules(open_double_penalty="plus_10"),
            "Double left open at round end: +10 for each, to the player who left it",
        ),
        (
            HouseRules(open_double_penalty="times_3"),
            "Double left open at round end: that player's hand counts ×3",
        ),
        (
            HouseRules(start_rule="lowest_total"),
            "Who starts: the player with the lowest total so far",
        ),
        (
            HouseRules(score_by="arrivals"),
            "Scoring: arrivals, one point for each round gone out; the highest total wins "
            "(the hand rules below do not count)",
        ),
        (
            HouseRules(tie_break="zero_rounds"),
            "Ties: broken by most rounds with 0 points, then the lowest round that was not 0",
        ),
    ],
)
def test_rules_in_play(rules: HouseRules, line: str) -> None:
    assert line in rules.describe()


def test_the_new_rules_are_stored_with_the_game() -> None:
    rules = HouseRules(
        blank_half=5,
        double_blank=50,
        double_blank_on_top=True,
        doubles_count="twice",
        blocked_round="lowest_zero",
        open_double_penalty="times_5",
        start_rule="lowest_total",
        score_by="arrivals",
        tie_break="zero_rounds",
    )
    assert HouseRules.from_dict(rules.to_dict()) == rules
    # a game stored before these rules existed keeps the rule book's defaults
    old = HouseRules().to_dict()
    for name in ("double_blank_on_top", "doubles_count", "blocked_round", "open_double_penalty"):
        del old[name]
    assert HouseRules.from_dict(old) == HouseRules()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("double_blank_on_top", 1),
        ("double_blank_on_top", "yes"),
        ("doubles_count", "thrice"),
        ("blocked_round", "nobody"),
        ("open_double_penalty", 5),
        ("score_by", "points"),
        ("blank_half", 10),
    ],
)
def test_bad_choices_are_refused(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        HouseRules(**{field: value})


def test_each_rule_is_one_declaration_the_forms_read() -> None:
    for name in ("double_blank_on_top", "doubles_count", "blocked_round", "open_double_penalty"):
        rule = HOUSE_RULES[name]
        assert rule.section == "scoring" and rule.scoring
        assert rule.parse(str(rule.default)) == rule.default
    assert HOUSE_RULES["double_blank_on_top"].parse("True") is True


# --- Properties ----------------------------------------------------------------------------------

hands = st.lists(st.integers(0, 200), min_size=2, max_size=8)


@fast
@given(hands)
def test_blocked_cap_always_leaves_a_zero(totals: list[int]) -> None:
    rules = HouseRules(blocked_round="lowest_zero")
    scores = score_round({i: RoundEntry(total=t) for i, t in enumerate(totals)}, rules)
    assert 0 in scores.values()
    assert all(scores[i] in (0, t) for i, t in enumerate(totals))
    assert sorted(i for i, s in scores.items() if s == 0 and totals[i]) == sorted(
        i for i, t in enumerate(totals) if t == min(totals) and t
    )


@fast
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=15))
def test_doubles_twice_never_counts_less(pairs: list[tuple[int, int]]) -> None:
    hand = [Tile(a, b) for a, b in pairs]
    face = score_hand(hand)
    twice = score_hand(hand, HouseRules(doubles_count="twice"))
    assert twice - face == sum(t.pips for t in hand if t.is_double)


@fast
@given(hands, st.integers(0, 7) | st.none())
def test_arrivals_give_at_most_one_point_a_round(totals: list[int], out: int | None) -> None:
    went_out = None if out is None or out >= len(totals) else out
    scores = score_round(
        {i: RoundEntry(total=t) for i, t in enumerate(totals)},
        HouseRules(score_by="arrivals"),
        went_out=went_out,
    )
    assert sum(scores.values()) == (0 if went_out is None else 1)

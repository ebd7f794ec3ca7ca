"""The other games of rules.md 5 from their rule sheets: All Fives (Muggins), Fives and Threes,
Draw, Block, and Chicken Foot as a train game."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import VARIANTS, variant_named
from scorekeeper.rules.games.all_fives import all_fives_points, nearest_five
from scorekeeper.rules.games.fives_and_threes import fives_and_threes_points
from scorekeeper.rules.games.point_hands import HandResult
from scorekeeper.rules.games.points import (
    deal_plan,
    game_over,
    hand_bonus,
    score_points_hand,
    starter_text,
    table_notes,
    target,
)
from scorekeeper.rules.round_check import RoundContext, RoundInput, SeatInput

fast = settings(database=None, deadline=None, max_examples=80)
SIX = HouseRules(max_pip=6)


@pytest.mark.parametrize(
    ("ends", "face", "per_five"),
    [(5, 5, 1), (10, 10, 2), (15, 15, 3), (20, 20, 4), (12, 0, 0), (0, 0, 0), (3, 0, 0)],
)
def test_all_fives_play_points(ends: int, face: int, per_five: int) -> None:
    assert all_fives_points(ends, SIX) == face
    assert all_fives_points(ends, SIX.replace(all_fives_scale="per_five")) == per_five


@pytest.mark.parametrize(
    ("ends", "pub", "face"),
    [
        (3, 1, 3),
        (5, 1, 5),
        (6, 2, 6),
        (9, 3, 9),
        (10, 2, 10),
        (12, 4, 12),
        (15, 8, 30),
        (18, 6, 18),
        (20, 4, 20),
        (30, 16, 60),
        (7, 0, 0),
        (0, 0, 0),
    ],
)
def test_fives_and_threes_play_points(ends: int, pub: int, face: int) -> None:
    assert fives_and_threes_points(ends, SIX) == pub
    assert fives_and_threes_points(ends, SIX.replace(fives_threes_scale="face")) == face


@pytest.mark.parametrize(
    ("pips", "rounded"), [(0, 0), (2, 0), (3, 5), (7, 5), (8, 10), (12, 10), (13, 15), (22, 20)]
)
def test_nearest_five(pips: int, rounded: int) -> None:
    assert nearest_five(pips) == rounded


@pytest.mark.parametrize(
    ("game", "rules", "hands", "went_out", "bonus"),
    [
        # All Fives: the others' pips rounded to 5
        ("all_fives", SIX, {"a": 0, "b": 13, "c": 9}, "a", {"a": 20}),
        ("all_fives", SIX, {"a": 3, "b": 10, "c": 12}, None, {"a": 20}),
        ("all_fives", SIX, {"a": 3, "b": 3, "c": 9}, None, {}),  # a tie in a block: nothing
        ("all_fives", SIX.replace(all_fives_scale="per_five"), {"a": 0, "b": 22}, "a", {"a": 4}),
        # Fives and Threes: 1 for going out; nothing when blocked; face value takes the pips
        ("fives_and_threes", SIX, {"a": 0, "b": 13}, "a", {"a": 1}),
        ("fives_and_threes", SIX, {"a": 2, "b": 13}, None, {"a": 0}),
        (
            "fives_and_threes",
            SIX.replace(fives_threes_scale="face"),
            {"a": 0, "b": 13, "c": 4},
            "a",
            {"a": 17},
        ),
        # Draw and Block: the others' pips, or minus the winner's own
        ("draw", SIX, {"a": 0, "b": 13, "c": 9}, "a", {"a": 22}),
        ("block", SIX, {"a": 3, "b": 10, "c": 12}, None, {"a": 22}),
        ("block", SIX.replace(block_win="minus_own"), {"a": 3, "b": 10, "c": 12}, None, {"a": 19}),
        ("block", SIX, {"a": 5, "b": 5}, None, {}),
    ],
)
def test_hand_bonus(
    game: str, rules: HouseRules, hands: dict[str, int], went_out: str | None, bonus: dict
) -> None:
    assert hand_bonus(game, hands, went_out, rules) == bonus


@pytest.mark.parametrize(
    ("game", "rules", "goal"),
    [
        ("all_fives", SIX, 150),
        ("all_fives", SIX.replace(all_fives_scale="per_five"), 61),
        ("fives_and_threes", SIX, 61),
        ("fives_and_threes", SIX.replace(fives_threes_scale="face"), 251),
        ("draw", SIX, 100),
        ("block", SIX, 100),
        ("all_fives", SIX.replace(target=250), 250),
    ],
)
def test_targets(game: str, rules: HouseRules, goal: int) -> None:
    assert target(game, rules) == goal


@pytest.mark.parametrize(
    ("game", "totals", "over"),
    [
        ("all_fives", [150, 20], True),
        ("all_fives", [145, 20], False),
        ("draw", [99, 120], True),
        ("fives_and_threes", [61, 40], True),
        ("fives_and_threes", [60, 59], False),
    ],
)
def test_game_over(game: str, totals: list[int], over: bool) -> None:
    assert game_over(game, totals, SIX) is over


def test_points_past_an_exact_target_are_lost() -> None:
    scores, lost = score_points_hand(
        "fives_and_threes", {"a": 4, "b": 3}, {"a": 0, "b": 9}, "a", SIX, totals={"a": 58, "b": 10}
    )
    assert scores == {"a": 0, "b": 3}
    assert lost == {"a": 5}
    scores, lost = score_points_hand(
        "fives_and_threes", {"a": 2, "b": 0}, {"a": 0, "b": 9}, "a", SIX, totals={"a": 58}
    )
    assert scores == {"a": 3, "b": 0} and lost == {}


@pytest.mark.parametrize(
    ("game", "players", "tiles", "boneyard"),
    [
        ("all_fives", 2, 7, 14),
        ("all_fives", 3, 5, 13),
        ("all_fives", 4, 5, 8),
        ("fives_and_threes", 2, 7, 14),
        ("draw", 4, 5, 8),
        ("block", 4, 7, 0),
        ("block", 3, 7, 7),
    ],
)
def test_deals(game: str, players: int, tiles: int, boneyard: int) -> None:
    plan = deal_plan(game, players, SIX)
    assert (plan.tiles_each, plan.boneyard) == (tiles, boneyard)


def test_a_double_6_seats_four() -> None:
    with pytest.raises(ValueError, match="at most 4 players"):
        deal_plan("all_fives", 5, SIX)
    assert deal_plan("draw", 6, HouseRules(max_pip=9)).computed


def test_the_table_is_told_who_leads_the_deal_and_the_spinner() -> None:
    names = ["Ann", "Bob", "Cy"]
    assert starter_text(1, names, SIX) == "Ann leads with any tile"
    assert starter_text(2, names, SIX) == "Bob leads with any tile"
    assert starter_text(4, names, SIX, first_starter=2) == "Cy leads with any tile"
    notes = table_notes("all_fives", 3, SIX)
    assert notes[0] == "Shuffle, deal 5 each; 13 stay face down: draw one when you cannot play"
    assert notes[1].startswith("The first double is the spinner")
    assert (
        notes[-1] == "The first to 150 at the end of a hand wins (the highest total when several)"
    )
    notes = table_notes("fives_and_threes", 2, SIX)
    assert "out of play" in notes[0] and notes[1].startswith("No spinner")
    assert "15 scores 8" in notes[2] and notes[-1].startswith("Exactly 61 wins")


# --- A hand as typed -------------------------------------------------------------------------


def _context(rules: HouseRules, totals: dict[int, int] | None = None) -> RoundContext:
    return RoundContext(
        rules=rules, names={0: "Ann", 1: "Bob", 2: "Cy"}, number=1, engine=None, totals=totals or {}
    )


def _seats(**typed: Any) -> list[SeatInput]:
    return [SeatInput(position=p, **typed.get(f"s{p}", {})) for p in range(3)]


def test_all_fives_hand() -> None:
    entry = RoundInput(
        seats=_seats(s0={"made": 15}, s1={"made": 10, "tiles": "6-6, 1-0"}, s2={"hand": 9}),
        went_out=0,
    )
    check = variant_named("all_fives").check_round(entry, _context(SIX), False)
    assert check.ok, check
    assert [s.points for s in check.seats] == [15 + 20, 10, 0]


def test_all_fives_points_come_in_fives() -> None:
    entry = RoundInput(seats=_seats(s0={"made": 7}, s1={"hand": 3}, s2={"hand": 9}), went_out=0)
    check = variant_named("all_fives").check_round(entry, _context(SIX), False)
    assert check.seats[0].errors == ["All Fives scores in fives: the points made are 5, 10, 15 …"]


def test_a_hand_is_checked_like_a_round() -> None:
    entry = RoundInput(seats=_seats(s1={"tiles": "6-6, 6-6"}, s2={"tiles": "9-1"}), went_out=0)
    check = variant_named("draw").check_round(entry, _context(SIX), False)
    assert not check.ok
    assert any("6-6" in e for e in check.seats[1].errors)
    assert check.seats[2].errors and "9" in check.seats[2].errors[0]
    missing = RoundInput(seats=_seats(), went_out=None)
    check = variant_named("block").check_round(missing, _context(SIX), False)
    assert "Tap who went out, or tap “Blocked” if nobody could play." in check.errors
    assert check.seats[1].errors == ["Type the pips left in Bob's hand, or the tiles."]


def test_draw_makes_no_points_during_play() -> None:
    entry = RoundInput(seats=_seats(s0={"made": 5}, s1={"hand": 3}, s2={"hand": 9}), went_out=0)
    check = variant_named("draw").check_round(entry, _context(SIX), False)
    assert check.seats[0].errors == ["Draw makes no points during play."]


def test_fives_and_threes_needs_no_pips_and_loses_points_past_61() -> None:
    entry = RoundInput(seats=_seats(s0={"made": 4}, s1={"made": 2}), went_out=0)
    check = variant_named("fives_and_threes").check_round(
        entry, _context(SIX, totals={0: 58, 1: 3, 2: 0}), False
    )
    assert check.ok, check
    assert [s.points for s in check.seats] == [0, 2, 0]
    assert check.seats[0].warnings == ["5 points would take Ann past 61: they are lost"]


def test_a_points_scoreboard_ranks_the_highest_first() -> None:
    variant = variant_named("block")
    rounds = [
        HandResult((22, 0, 0), went_out=0, hands=(0, 13, 9)),
        HandResult((0, 0, 19), went_out=None, hands=(10, 12, 3)),
        HandResult((0, 0, 0), went_out=None, hands=(5, 5, 9)),
    ]
    board = variant.scoreboard(3, rounds, SIX)
    assert [p.total for p in board.players] == [22, 0, 19]
    assert [p.rank for p in board.players] == [1, 3, 2]
    assert board.round_wins == [frozenset({0}), frozenset({2}), frozenset()]
    assert board.winners == [0]


def test_every_variant_is_one_declaration() -> None:
    assert list(VARIANTS) == [
        "mexican_train",
        "chicken_foot",
        "all_fives",
        "fives_and_threes",
        "draw",
        "block",
    ]
    for variant in VARIANTS.values():
        rules = variant.new_rules()
        assert variant.deal_plan(2, rules).tiles_each >= 1
        assert variant.in_play(rules)
        assert variant.label and variant.description
    points = [v.name for v in VARIANTS.values() if not v.lower_is_better]
    assert points == ["all_fives", "fives_and_threes", "draw", "block"]


def test_chicken_foot() -> None:
    variant = variant_named("chicken_foot")
    rules = variant.new_rules()
    assert (rules.max_pip, rules.double_blank, rules.start_rule) == (9, 50, "engine_holder")
    assert variant.round_count(rules) == 10
    assert [variant.engine_for_round(n, rules) for n in (1, 10)] == [9, 0]
    assert [variant.deal_plan(p, rules).tiles_each for p in (2, 4, 8)] == [9, 7, 6]
    assert variant.table_notes(4, rules)[0].startswith("The round's double is the centre")
    assert "Double blank counts 50" in variant.in_play(rules)
    assert not any("marker" in line for line in variant.in_play(rules))
    # scored like Mexican Train: pips left, the 0-0 at 50
    entry = RoundInput(
        seats=[SeatInput(0), SeatInput(1, tiles="0-0, 3-4"), SeatInput(2, hand=12)], went_out=0
    )
    context = RoundContext(rules=rules, names={0: "A", 1: "B", 2: "C"}, number=1, engine=9)
    check = variant.check_round(entry, context, False)
    assert [s.points for s in check.seats] == [0, 57, 12]


@fast
@given(st.dictionaries(st.sampled_from("abcd"), st.integers(0, 60), min_size=2), st.booleans())
def test_all_fives_bonus_is_always_in_fives(hands: dict[str, int], out: bool) -> None:
    went_out = min(hands) if out else None
    if went_out is not None:
        hands[went_out] = 0
    bonus = hand_bonus("all_fives", hands, went_out, SIX)
    assert all(value % 5 == 0 for value in bonus.values())
    assert len(bonus) <= 1
    for player, value in bonus.items():
        others = sum(v for p, v in hands.items() if p != player)
        assert abs(value - others) <= 2


@fast
@given(st.integers(1, 60))
def test_fives_and_threes_points_follow_the_divisors(ends: int) -> None:
    pub = fives_and_threes_points(ends, SIX)
    assert pub == (ends // 3 if ends % 3 == 0 else 0) + (ends // 5 if ends % 5 == 0 else 0)
    face = fives_and_threes_points(ends, SIX.replace(fives_threes_scale="face"))
    assert face in (0, ends, 2 * ends)
    assert (face == 0) == (pub == 0)


def test_a_league_table_of_another_game_adopts_the_leagues_rules() -> None:
    league = HouseRules(
        marker_penalty=10, double_blank=25, tie_break="zero_rounds", blocked_round="lowest_zero"
    )
    foot = variant_named("chicken_foot").adopt(league)
    assert (foot.max_pip, foot.double_blank, foot.marker_penalty) == (9, 50, 0)
    assert (foot.tie_break, foot.blocked_round) == ("zero_rounds", "lowest_zero")
    fives = variant_named("all_fives").adopt(league)
    # A chain of the lowest total is not offered where the highest total wins: co-winners.
    assert (fives.max_pip, fives.blocked_round, fives.tie_break) == (6, "all_count", "co_winners")
    assert variant_named("all_fives").adopt(HouseRules(tie_break="another_hand")).tie_break == (
        "another_hand"
    )
    assert variant_named("mexican_train").adopt(league) == league


def test_a_late_joiner_in_a_points_game_is_told_the_lowest_total() -> None:
    lines = variant_named("draw").in_play(SIX.replace(late_joiner="highest_total"))
    assert "Late joiner: starts with the lowest current total" in lines


# --- Partnerships (rules.md 5: two against two share one score) -------------------------------

PARTNERS = SIX.replace(partners=True)


@pytest.mark.parametrize(
    ("game", "made", "hands", "went_out", "scores"),
    [
        # All Fives: Ann (seat 0) goes out; the other side holds 8 + 6 = 14 -> 15; Cy's 5 made
        # counts for Ann's side too: both get 10 + 5 + 15 = 30.
        ("all_fives", {0: 10, 2: 5}, {0: 0, 1: 8, 2: 3, 3: 6}, 0, [30, 0, 30, 0]),
        # Block, blocked: side 1 holds 4 + 2 = 6 against 3 + 9 = 12: it scores 12.
        ("block", {}, {0: 3, 1: 4, 2: 9, 3: 2}, None, [0, 12, 0, 12]),
        # a blocked tie between the sides scores nothing
        ("draw", {}, {0: 3, 1: 4, 2: 5, 3: 4}, None, [0, 0, 0, 0]),
        # Fives and Threes: the side of who went out gets the point; made points add up
        ("fives_and_threes", {0: 2, 1: 3, 3: 1}, {0: 5, 1: 0, 2: 4, 3: 2}, 1, [2, 5, 2, 5]),
    ],
)
def test_partners_share_one_score(
    game: str, made: dict, hands: dict, went_out: int | None, scores: list[int]
) -> None:
    sides = {seat: seat % 2 for seat in hands}
    result, _ = score_points_hand(game, made, hands, went_out, PARTNERS, sides=sides)
    assert [result[seat] for seat in range(4)] == scores


def test_partners_need_four_and_the_table_is_told() -> None:
    with pytest.raises(ValueError, match="Partnerships need four players"):
        deal_plan("block", 3, PARTNERS)
    assert any("Partners sit opposite" in note for note in table_notes("block", 4, PARTNERS))
    lines = variant_named("block").in_play(PARTNERS)
    assert "Partnerships: the 1st and 3rd seat against the 2nd and 4th, one score per side" in lines


def test_a_partnership_scoreboard_has_co_winners() -> None:
    variant = variant_named("draw")
    rounds = [HandResult((14, 0, 14, 0), went_out=0, hands=(0, 8, 3, 6))]
    board = variant.scoreboard(4, rounds, PARTNERS)
    assert board.winners == [0, 2]
    assert board.round_wins == [frozenset({0, 2})]


def test_a_partnership_hand_as_typed() -> None:
    context = RoundContext(
        rules=PARTNERS, names={0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}, number=1, engine=None
    )
    entry = RoundInput(
        seats=[
            SeatInput(0, made=10),
            SeatInput(1, hand=8),
            SeatInput(2, hand=3, made=5),
            SeatInput(3, hand=6),
        ],
        went_out=0,
    )
    check = variant_named("all_fives").check_round(entry, context, False)
    assert check.ok, check
    assert [s.points for s in check.seats] == [30, 0, 30, 0]

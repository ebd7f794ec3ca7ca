"""Each game's own sheets and words, and the published conventions offered as house rules
(issue 21, items 18-23): deal sheets per game, ties where the highest total wins, All Fives'
rounding and blocked hands, Fives and Threes to 100, Block's lightest-tile tie, the down-then-up
schedule, Chicken Foot to a losing total. Stored games keep their scores: every new rule's
default is the scoring the app had before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import variant_named
from scorekeeper.rules.games.all_fives import all_fives_bonus, nearest_five
from scorekeeper.rules.games.fives_and_threes import fives_and_threes_points
from scorekeeper.rules.games.point_hands import HandResult, points_scoreboard
from scorekeeper.rules.games.points import (
    exact_target,
    game_over,
    hand_bonus,
    hand_winner,
    target,
)
from scorekeeper.rules.games.sheets import sheet_words
from scorekeeper.rules.house import HOUSE_RULES
from scorekeeper.rules.ranking import rank_players
from scorekeeper.rules.round_check import RoundContext, RoundInput, SeatInput
from scorekeeper.rules.schedule import engine_schedule, round_count

fast = settings(database=None, deadline=None, max_examples=80)
SIX = HouseRules(max_pip=6)

# --- Deal sheets (item 20, 22) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "max_pip", "players", "tiles", "source"),
    [
        # Chicken Foot deals from its own sheets, never Mexican Train's (9, 8, 6 on double-6).
        ("chicken_foot", 6, 2, 5, "table"),
        ("chicken_foot", 6, 4, 5, "table"),
        ("chicken_foot", 9, 2, 9, "table"),
        ("chicken_foot", 9, 4, 7, "table"),
        ("chicken_foot", 9, 6, 7, "table"),
        ("chicken_foot", 9, 8, 6, "table"),
        ("chicken_foot", 12, 5, 14, "computed"),  # no Chicken Foot sheet for double-12
        # Block: 7 each, double-6 for 2-4, double-9 for 5-7, double-12 for 8-10.
        ("block", 6, 4, 7, "table"),
        ("block", 9, 5, 7, "table"),
        ("block", 9, 6, 7, "table"),
        ("block", 9, 7, 7, "table"),
        ("block", 12, 8, 7, "table"),
        ("block", 12, 9, 7, "table"),
        ("block", 12, 10, 7, "table"),
        ("block", 9, 3, 14, "computed"),
        ("all_fives", 6, 2, 7, "table"),
        ("all_fives", 6, 3, 5, "table"),
        ("all_fives", 9, 3, 14, "computed"),
        ("mexican_train", 6, 2, 9, "table"),  # Mexican Train keeps its own table
    ],
)
def test_each_game_deals_from_its_own_sheet(
    game: str, max_pip: int, players: int, tiles: int, source: str
) -> None:
    variant = variant_named(game)
    plan = variant.deal_plan(players, variant.new_rules(max_pip=max_pip))
    assert (plan.tiles_each, plan.source) == (tiles, source)
    if source == "computed":
        assert any("computed suggestion" in warning for warning in plan.warnings)


def test_a_chicken_foot_game_stored_with_a_mexican_train_sheet_keeps_it() -> None:
    variant = variant_named("chicken_foot")
    rules = variant.new_rules(max_pip=12, deal_table="cardinal")
    assert variant.deal_plan(7, rules).tiles_each == 11  # the Cardinal sheet, as chosen
    assert "Deal: cardinal sheet" in variant.in_play(rules)
    custom = variant.new_rules(max_pip=9, deal_table={4: 10})
    assert variant.deal_plan(4, custom).tiles_each == 10


@pytest.mark.parametrize(
    ("game", "max_pip", "line"),
    [
        ("mexican_train", 12, "Deal: standard table"),
        ("chicken_foot", 6, "Deal: Chicken Foot sheet for a double-6 set, 5 each for 2-4 players"),
        (
            "chicken_foot",
            9,
            "Deal: Chicken Foot sheet for a double-9 set, 9 each for 2 players, 7 for 3-6 "
            "players, 6 for 7-8 players",
        ),
        (
            "chicken_foot",
            12,
            "Deal: computed suggestion (the Chicken Foot sheet has no numbers for a double-12 set)",
        ),
        (
            "all_fives",
            6,
            "Deal: All Fives sheet for a double-6 set, 7 each for 2 players, 5 for 3-4 players",
        ),
        ("block", 9, "Deal: Block sheet for a double-9 set, 7 each for 5-7 players"),
    ],
)
def test_rules_in_play_name_the_games_own_deal(game: str, max_pip: int, line: str) -> None:
    variant = variant_named(game)
    lines = variant.in_play(variant.new_rules(max_pip=max_pip))
    assert line in lines
    assert [other for other in lines if other.startswith("Deal:")] == [line]


@pytest.mark.parametrize(
    ("sheet", "words"),
    [
        ({2: 5, 3: 5, 4: 5}, "5 each for 2-4 players"),
        ({2: 7, 3: 5, 4: 5}, "7 each for 2 players, 5 for 3-4 players"),
        ({5: 7}, "7 each for 5 players"),
    ],
)
def test_sheet_words(sheet: dict[int, int], words: str) -> None:
    assert sheet_words(sheet) == words


def test_chicken_foot_setup_offers_its_own_sheet_only() -> None:
    rule = HOUSE_RULES["deal_table"]
    offered = rule.options_in("chicken_foot")
    assert [value for value, _ in offered] == ["standard"]
    assert "Chicken Foot sheet" in offered[0][1] and "15 15 15" not in offered[0][1]
    assert [value for value, _ in rule.options_in("mexican_train")][:2] == ["standard", "cardinal"]


# --- Ties where the highest total wins (items 18, 21) ---------------------------------------------


@pytest.mark.parametrize("game", ["all_fives", "fives_and_threes", "draw", "block"])
def test_a_points_game_offers_ties_worded_for_the_highest_total(game: str) -> None:
    rule = HOUSE_RULES["tie_break"]
    assert rule.label_in(game) == "Tie for the highest total"
    assert [value for value, _ in rule.options_in(game)] == ["co_winners", "another_hand"]
    words = " ".join(text for _, text in rule.options_in(game))
    assert "lowest" not in words and "worst round" not in words


@pytest.mark.parametrize("game", ["mexican_train", "chicken_foot"])
def test_a_pip_game_keeps_its_ties(game: str) -> None:
    rule = HOUSE_RULES["tie_break"]
    assert rule.label_in(game) == "Tie for the lowest total"
    assert [value for value, _ in rule.options_in(game)] == ["co_winners", "chain", "zero_rounds"]


def test_a_stored_points_game_with_a_chain_keeps_it_in_its_own_words() -> None:
    rules = SIX.replace(tie_break="chain")
    lines = variant_named("all_fives").in_play(rules)
    assert (
        "Ties: broken by most hands gone out, then the highest lowest hand, then the highest "
        "final hand"
    ) in lines
    standings = rank_players(
        {"a": 40, "b": 40}, rules, {"a": [30, 10], "b": [20, 20]}, lower_is_better=False
    )
    assert [s.player for s in standings] == ["b", "a"]  # the chain still breaks the tie


@pytest.mark.parametrize("tie_break", ["co_winners", "another_hand"])
def test_no_tie_break_note_where_no_tie_break_applies(tie_break: str) -> None:
    standings = rank_players({"a": 295, "b": 295}, SIX.replace(tie_break=tie_break))
    assert all(s.note == "tied on 295" and s.rank == 1 for s in standings)


@pytest.mark.parametrize(
    ("totals", "partners", "over"),
    [
        ([150, 150, 20], False, False),  # tied at the top: another hand
        ([155, 150, 20], False, True),
        ([150, 140, 150], False, False),
        ([149, 0, 0], False, False),
        ([160, 150, 160, 150], True, True),  # partners share one total: one side ahead
        ([150, 150, 150, 150], True, False),  # the two sides tied at 150
    ],
)
def test_a_tie_at_the_target_plays_another_hand(
    totals: list[int], partners: bool, over: bool
) -> None:
    rules = SIX.replace(tie_break="another_hand", partners=partners)
    assert game_over("all_fives", totals, rules) is over
    # Co-winners (the rule book): the game ends as soon as someone reaches the target.
    assert game_over("all_fives", totals, rules.replace(tie_break="co_winners")) is (
        max(totals) >= 150
    )


@fast
@given(st.lists(st.integers(0, 300), min_size=2, max_size=4))
def test_another_hand_ends_the_game_only_with_one_player_ahead(totals: list[int]) -> None:
    over = game_over("all_fives", totals, SIX.replace(tie_break="another_hand"))
    leaders = totals.count(max(totals))
    assert over == (max(totals) >= 150 and leaders == 1)


def test_another_hand_cannot_part_a_tie_at_an_exact_target() -> None:
    rules = SIX.replace(tie_break="another_hand")
    assert exact_target("fives_and_threes", rules)
    assert game_over("fives_and_threes", [61, 61], rules)


# --- All Fives (item 23) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounding", "opponents", "own", "bonus"),
    [
        ("together_nearest", [8, 8], 0, 15),  # 16 -> 15 (the rule book)
        ("each_nearest", [8, 8], 0, 20),  # 10 + 10
        ("together_down", [8, 8], 0, 15),
        ("each_down", [8, 9], 0, 10),  # 5 + 5
        ("together_nearest", [27], 0, 25),
        ("together_nearest", [28], 0, 30),
        ("together_down", [29], 0, 25),
        ("together_nearest", [20, 9], 6, 25),  # 29 - 6 = 23 -> 25
        ("each_nearest", [20, 9], 6, 25),  # 20 + 10 - 5
        ("together_down", [3], 4, 0),  # never below 0
    ],
)
def test_all_fives_rounding(rounding: str, opponents: list[int], own: int, bonus: int) -> None:
    rules = SIX.replace(all_fives_rounding=rounding)
    assert all_fives_bonus(opponents, own, rules) == bonus
    per_five = rules.replace(all_fives_scale="per_five")
    assert all_fives_bonus(opponents, own, per_five) == bonus // 5


def test_all_fives_blocked_hand_minus_the_winners_own() -> None:
    hands = {"a": 4, "b": 13, "c": 9}
    assert hand_bonus("all_fives", hands, None, SIX) == {"a": 20}  # 22 -> 20
    minus = SIX.replace(all_fives_blocked="minus_own")
    assert hand_bonus("all_fives", hands, None, minus) == {"a": 20}  # 22 - 4 = 18 -> 20
    hands = {"a": 7, "b": 13, "c": 9}
    assert hand_bonus("all_fives", hands, None, minus) == {"a": 15}  # 22 - 7 = 15
    # Going out: the winner holds nothing; the rule is for blocked hands only.
    assert hand_bonus("all_fives", {"a": 0, "b": 13, "c": 9}, "a", minus) == {"a": 20}


@fast
@given(st.dictionaries(st.sampled_from("abcd"), st.integers(0, 80), min_size=2), st.booleans())
def test_the_defaults_score_as_before(hands: dict[str, int], out: bool) -> None:
    """A game stored before these rules reads them as their defaults, which score as the app
    did: the others' pips added up and rounded to the nearest 5."""
    stored = HouseRules.from_dict({"max_pip": 6, "all_fives_scale": "face"})
    went_out = min(hands) if out else None
    if went_out is not None:
        hands[went_out] = 0
    winner = hand_winner(hands, went_out)
    expected = (
        {}
        if winner is None
        else {winner: nearest_five(sum(v for k, v in hands.items() if k != winner))}
    )
    assert hand_bonus("all_fives", hands, went_out, stored) == expected


@fast
@given(st.lists(st.integers(0, 80), min_size=1, max_size=3), st.integers(0, 40))
def test_all_fives_bonus_is_in_fives_and_never_negative(opponents: list[int], own: int) -> None:
    for rounding in HOUSE_RULES["all_fives_rounding"].values:
        bonus = all_fives_bonus(opponents, own, SIX.replace(all_fives_rounding=rounding))
        assert bonus >= 0 and bonus % 5 == 0
        if rounding.endswith("_down") and not own:
            assert bonus <= sum(opponents)


# --- Fives and Threes to 100 (item 23) -----------------------------------------------------------


def test_fives_and_threes_to_the_highest_above_100() -> None:
    rules = SIX.replace(fives_threes_scale="pub_100")
    assert target("fives_and_threes", rules) == 100
    assert not exact_target("fives_and_threes", rules)
    assert fives_and_threes_points(15, rules) == 8
    assert hand_bonus("fives_and_threes", {"a": 0, "b": 12}, "a", rules) == {"a": 1}
    assert not game_over("fives_and_threes", [99, 60], rules)
    assert game_over("fives_and_threes", [104, 60], rules)  # no exact finish


# --- Block's lightest tile (item 23) -------------------------------------------------------------


def _block_hand(rules: HouseRules, tiles: dict[int, str], hands: dict[int, int]) -> list:
    seats = [SeatInput(p, tiles=tiles.get(p, ""), hand=hands.get(p)) for p in range(3)]
    context = RoundContext(rules=rules, names={0: "Ann", 1: "Bob", 2: "Cy"}, number=1, engine=None)
    return variant_named("block").check_round(
        RoundInput(seats=seats, went_out=None, blocked=True), context, False
    )


def test_a_blocked_block_tie_goes_to_the_lightest_tile() -> None:
    rules = SIX.replace(block_tie="lightest_tile")
    # Ann 1-0 + 6-6 = 13, Bob 3-4 + 3-3 = 13: Ann's 1-0 is the lightest tile.
    check = _block_hand(rules, {0: "1-0, 6-6", 1: "3-4, 3-3"}, {2: 20})
    assert check.ok, check
    assert [s.points for s in check.seats] == [33, 0, 0]
    # The rule book: a tie for lowest scores nothing.
    check = _block_hand(SIX, {0: "1-0, 6-6", 1: "3-4, 3-3"}, {2: 20})
    assert [s.points for s in check.seats] == [0, 0, 0]
    # Totals only: nobody can tell; the round says why nobody scores.
    check = _block_hand(rules, {}, {0: 13, 1: 13, 2: 20})
    assert [s.points for s in check.seats] == [0, 0, 0]
    assert any("lightest tile" in warning for warning in check.warnings)


def test_the_lightest_tile_winner_is_marked_on_the_scoreboard() -> None:
    rules = SIX.replace(block_tie="lightest_tile")
    hand = HandResult(points=(33, 0, 0), went_out=None, hands=(13, 13, 20))
    board = points_scoreboard("block", 3, [hand], rules)
    assert board.round_wins == [frozenset({0})]
    plain = points_scoreboard("block", 3, [HandResult((0, 0, 0), None, (13, 13, 20))], SIX)
    assert plain.round_wins == [frozenset()]


@pytest.mark.parametrize(
    ("lightest", "winner"),
    [({"a": 1, "b": 3}, "a"), ({"a": 2, "b": 2}, None), ({"a": None, "b": 3}, None)],
)
def test_hand_winner_by_the_lightest_tile(lightest: dict, winner: str | None) -> None:
    assert hand_winner({"a": 13, "b": 13, "c": 20}, None, lightest) == winner
    assert hand_winner({"a": 13, "b": 13, "c": 20}, None) is None


# --- Down then up (item 23) ----------------------------------------------------------------------


def test_a_down_then_up_schedule() -> None:
    rules = HouseRules(max_pip=6, order="down_and_up")
    assert engine_schedule(rules) == [6, 5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 6]
    assert round_count(rules) == 14
    assert "Engines: 6-6 down to 0-0, then back up to 6-6, 14 rounds" in rules.describe()
    short = rules.replace(length="fixed", rounds=9)
    assert engine_schedule(short) == [6, 5, 4, 3, 2, 1, 0, 0, 1]


# --- Chicken Foot to a losing total (item 23) ----------------------------------------------------


def test_chicken_foot_to_a_losing_total() -> None:
    variant = variant_named("chicken_foot")
    rules = variant.new_rules(losing_total=100)
    assert variant.target(rules) == 100
    assert not variant.game_over([99, 40, 12], rules)
    assert variant.game_over([101, 40, 12], rules)
    assert any("reaches 100" in line for line in variant.in_play(rules))
    assert any("reaches 100" in note for note in variant.table_notes(3, rules))
    plain = variant.new_rules()
    assert variant.target(plain) is None and not variant.game_over([900, 0], plain)
    with pytest.raises(ValueError, match="losing_total"):
        variant.new_rules(losing_total=0)


@pytest.mark.parametrize(
    "name", ["all_fives_rounding", "all_fives_blocked", "block_tie", "losing_total"]
)
def test_a_stored_game_without_a_new_rule_reads_its_default(name: str) -> None:
    stored = HouseRules(max_pip=6).to_dict()
    del stored[name]
    assert getattr(HouseRules.from_dict(stored), name) == HOUSE_RULES[name].default


def _sheet_rows() -> list[tuple[str, int, int, int]]:
    from scorekeeper.rules.games import VARIANTS

    return [
        (game, max_pip, players, tiles)
        for game, variant in VARIANTS.items()
        for max_pip, sheet in variant.sheets.by_set.items()
        for players, tiles in sheet.items()
    ]


@pytest.mark.parametrize(("game", "max_pip", "players", "tiles"), _sheet_rows())
def test_every_sheet_deals_as_written_and_leaves_a_boneyard(
    game: str, max_pip: int, players: int, tiles: int
) -> None:
    variant = variant_named(game)
    plan = variant.deal_plan(players, variant.new_rules(max_pip=max_pip))
    assert (plan.tiles_each, plan.source) == (tiles, "table")
    assert plan.boneyard >= 0

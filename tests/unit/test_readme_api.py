"""The rules API exactly as docs/rules.md shows it (so the page stays true)."""

from __future__ import annotations

from scorekeeper.rules import (
    HOUSE_RULES,
    DominoSet,
    HouseRules,
    RoundContext,
    RoundInput,
    RoundResult,
    SeatInput,
    Tile,
    check_round,
    deal_count,
    engine_schedule,
    parse_hand,
    score_hand,
    scoreboard,
    validate_round,
    variant_named,
)


def test_the_contract_examples() -> None:
    assert Tile(5, 3) == Tile(3, 5) and str(Tile(5, 3)) == "3-5"
    assert DominoSet(12).tile_count == 91 and DominoSet(12).pip_total == 1092
    assert parse_hand("12-5, 3/4, double blank") == [Tile(5, 12), Tile(3, 4), Tile(0, 0)]
    assert score_hand([Tile(0, 0)], HouseRules(double_blank=50)) == 50
    assert engine_schedule(HouseRules())[:2] == [12, 11]
    assert deal_count(6, HouseRules()) == 12
    problems = validate_round(
        {"Ann": [Tile(3, 5)], "Bob": [Tile(5, 3)]}, engine=12, rules=HouseRules(), went_out=None
    )
    assert [(p.code, p.level, p.player) for p in problems][0] == ("V3", "error", "Ann")


def test_a_game_as_a_value_and_the_declarations() -> None:
    board = scoreboard(3, [RoundResult((0, 5, 7), went_out=0)], HouseRules())
    assert (board.running, board.winners) == ([(0, 5, 7)], [0])
    check = check_round(
        RoundInput([SeatInput(0, 0), SeatInput(1, 5), SeatInput(2, 7)], went_out=0),
        RoundContext(rules=HouseRules(), names={0: "Ann", 1: "Bob", 2: "Cy"}, number=1, engine=12),
    )
    assert (check.ok, [seat.points for seat in check.seats]) == (True, [0, 5, 7])
    assert HOUSE_RULES["double_blank"].options[0] == (0, "Counts 0, like its pips")
    assert variant_named("mexican_train").round_count(HouseRules()) == 13

"""Checking a round as typed, without a database: the rules of rules.md 4 on plain values."""

from __future__ import annotations

import pytest

from scorekeeper.rules import HouseRules
from scorekeeper.rules.round_check import RoundContext, RoundInput, SeatInput, check_round

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


DEFAULT = HouseRules()


def context(rules: HouseRules = DEFAULT, **changes: object) -> RoundContext:
    values: dict[str, object] = {"rules": rules, "names": NAMES, "number": 1, "engine": 12}
    values.update(changes)
    return RoundContext(**values)  # type: ignore[arg-type]


def typed(points: dict[int, int | None], went_out: int | None = 0, **extra: object) -> RoundInput:
    seats = [SeatInput(position=p, hand=v) for p, v in points.items()]
    return RoundInput(seats=seats, went_out=went_out, **extra)  # type: ignore[arg-type]


def problems(check: object) -> list[str]:
    found = list(check.errors)  # type: ignore[attr-defined]
    for seat in check.seats:  # type: ignore[attr-defined]
        found += [f"{seat.name}: {e}" for e in seat.errors]
    return found


def test_a_good_round_is_scored() -> None:
    check = check_round(typed({0: 0, 1: 5, 2: 7}), context())
    assert check.ok and check.engine == 12
    assert [seat.points for seat in check.seats] == [0, 5, 7]


def test_the_player_who_went_out_counts_0_without_typing_it() -> None:
    check = check_round(typed({0: None, 1: 5, 2: 7}), context())
    assert check.ok and check.seats[0].points == 0


@pytest.mark.parametrize(
    ("entry", "ctx", "message"),
    [
        (typed({0: 0, 1: 5, 2: 7}, went_out=None), context(), "Tap who went out"),
        (typed({0: 0, 1: None, 2: 7}), context(), "Bob: Type Bob's points"),
        (typed({0: 0, 1: 5, 2: 7}, went_out=5), context(), "not at this table"),
        (typed({0: 0, 1: 5, 2: 7}), context(engine=None), "All rounds of this game"),
        (
            RoundInput([SeatInput(0, 0), SeatInput(1, 5, markers=2), SeatInput(2, 7)], 0),
            context(),
            "Bob: Markers only count",
        ),
        (
            RoundInput([SeatInput(0, 0), SeatInput(1, None, tiles="13-2"), SeatInput(2, 7)], 0),
            context(),
            "Bob: ",
        ),
        (
            typed({0: 0, 1: 5, 2: 7}, engine=11),
            context(HouseRules(order="highest_available"), engine=None, engines_left=(12, 10)),
            "The 11-11 has already been an engine",
        ),
        (
            typed({0: 0, 1: 5, 2: 7}),
            context(HouseRules(order="highest_available"), engine=None, engines_left=(12,)),
            "Choose which double was the engine",
        ),
    ],
)
def test_refused_rounds(entry: RoundInput, ctx: RoundContext, message: str) -> None:
    check = check_round(entry, ctx)
    assert not check.ok
    assert any(message in text for text in problems(check)), problems(check)


def test_while_typing_missing_players_and_end_are_not_problems_yet() -> None:
    check = check_round(typed({0: 3, 1: None, 2: None}, went_out=None), context(), partial=True)
    assert check.ok and check.seats[0].hand == 3 and check.seats[0].points is None


def test_same_score_as_last_round_is_a_warning_only() -> None:
    check = check_round(typed({0: 0, 1: 5, 2: 7}), context(number=2, previous={1: 5, 2: 9}))
    assert check.ok and check.has_warnings
    assert any("same as last round" in w for w in check.seats[1].warnings)

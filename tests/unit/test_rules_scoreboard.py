"""The pure scoreboard: rounds in, totals, round wins, ranks, movement and winners out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import HouseRules
from scorekeeper.rules.scoreboard import RoundResult, scoreboard

CO = HouseRules()
CHAIN = HouseRules(tie_break="chain")


def test_no_rounds_yet() -> None:
    board = scoreboard(3, [], CO)
    assert board.running == [] and board.winners == []
    assert [p.total for p in board.players] == [0, 0, 0]
    assert {p.rank for p in board.players} == {1}


@pytest.mark.parametrize(
    ("rounds", "running", "wins", "ranks", "winners"),
    [
        # Ann goes out twice: lowest total, two round wins.
        (
            [RoundResult((0, 5, 7), 0), RoundResult((0, 9, 3), 0)],
            [(0, 5, 7), (0, 14, 10)],
            [{0}, {0}],
            [1, 3, 2],
            [0],
        ),
        # A blocked round is won by the lowest score, by everyone tied on it.
        (
            [RoundResult((4, 4, 9), None)],
            [(4, 4, 9)],
            [{0, 1}],
            [1, 1, 3],
            [0, 1],
        ),
        # Tied totals share the rank and the win (co-winners).
        (
            [RoundResult((0, 5, 7), 0), RoundResult((5, 0, 9), 1)],
            [(0, 5, 7), (5, 5, 16)],
            [{0}, {1}],
            [1, 1, 3],
            [0, 1],
        ),
    ],
)
def test_scoreboard_table(
    rounds: list[RoundResult],
    running: list[tuple[int, ...]],
    wins: list[set[int]],
    ranks: list[int],
    winners: list[int],
) -> None:
    board = scoreboard(3, rounds, CO)
    assert board.running == running
    assert [set(w) for w in board.round_wins] == wins
    assert [p.rank for p in board.players] == ranks
    assert board.winners == winners


def test_movement_gap_best_and_worst() -> None:
    board = scoreboard(
        3, [RoundResult((0, 5, 7), 0), RoundResult((20, 0, 1), 1)], CO
    )  # totals 20, 5, 8: Bob up from 2nd to 1st, Ann down from 1st to 3rd
    ann, bob, cy = board.players
    assert (ann.movement, bob.movement, cy.movement) == (-2, 1, 1)
    assert (ann.gap, bob.gap, cy.gap) == (15, 0, 3)
    assert (ann.best, ann.worst) == (0, 20)
    assert [p.seat for p in board.standings] == [1, 2, 0]


def test_the_chain_breaks_a_tie_by_rounds_gone_out() -> None:
    rounds = [RoundResult((0, 5, 9), 0), RoundResult((5, 0, 0), 2), RoundResult((0, 0, 1), 0)]
    # Totals 5, 5, 10; Ann went out twice, Bob never.
    board = scoreboard(3, rounds, CHAIN)
    assert [p.rank for p in board.players] == [1, 2, 3]
    assert board.players[0].note == "tied on 5; ahead on rounds gone out: 2 to 0"
    assert board.winners == [0]
    assert scoreboard(3, rounds, CO).winners == [0, 1]


rounds_strategy = st.integers(2, 6).flatmap(
    lambda seats: st.tuples(
        st.just(seats),
        st.lists(
            st.tuples(
                st.lists(st.integers(0, 120), min_size=seats, max_size=seats),
                st.one_of(st.none(), st.integers(0, seats - 1)),
            ).map(lambda pair: RoundResult(tuple(pair[0]), pair[1])),
            max_size=13,
        ),
    )
)


@given(rounds_strategy, st.sampled_from([CO, CHAIN]))
def test_totals_ranks_and_winners_agree(
    data: tuple[int, list[RoundResult]], rules: HouseRules
) -> None:
    seats, rounds = data
    board = scoreboard(seats, rounds, rules)
    for player in board.players:
        assert player.total == sum(r.points[player.seat] for r in rounds)
        # A lower total never ranks behind a higher one.
        for other in board.players:
            if player.total < other.total:
                assert player.rank < other.rank
    if rounds:
        assert board.running[-1] == tuple(p.total for p in board.players)
        lowest = min(p.total for p in board.players)
        assert board.winners and all(board.players[s].total == lowest for s in board.winners)
        assert sum(p.rounds_won for p in board.players) >= len(rounds)
    else:
        assert board.winners == []


def test_mexican_train_is_the_first_game_variant() -> None:
    from scorekeeper.rules.games import VARIANTS, variant_named

    train = variant_named("mexican_train")
    assert next(iter(VARIANTS.values())) is train and train.lower_is_better
    assert train.round_count(CO) == 13 and train.engine_for_round(1, CO) == 12
    assert train.scoreboard(2, [RoundResult((0, 9), 0)], CO).winners == [0]
    with pytest.raises(ValueError, match="Unknown game"):
        variant_named("dominoes_of_mars")

"""The game's use cases on the real database: recording, conflicts, corrections, undo,
the scoreboard and the version phones poll."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games import services
from tests.services.conftest import typed_round


def test_a_round_is_recorded_scored_and_moves_the_version(make_game: Any, play: Any) -> None:
    game = make_game()
    before = game.version
    outcome = play(game, [0, 5, 7])
    assert outcome.saved.number == 1 and [s.points for s in outcome.saved.scores] == [0, 5, 7]
    assert game.version == before + 1
    state = services.game_state(game.public_id)
    assert (state.version, state.rounds, state.status) == (game.version, 1, "playing")


def test_a_form_for_a_saved_round_is_refused_not_moved_on(make_game: Any, play: Any) -> None:
    game = make_game()
    play(game, [0, 5, 7])
    with pytest.raises(services.RoundTaken) as refused:
        services.record_round(
            services.load(game), typed_round([9, 0, 4], 1), "other-phone-token-1", 1
        )
    assert refused.value.saved.number == 1
    assert len(game.rounds) == 1


def test_the_same_token_saves_once(make_game: Any, play: Any, session: Any) -> None:
    game = make_game()
    first = services.record_round(
        services.load(game), typed_round([0, 5, 7], 0), "token-0000000001", 1
    )
    again = services.record_round(
        services.load(game), typed_round([0, 5, 7], 0), "token-0000000001", 2
    )
    assert again.duplicate and again.saved is first.saved and len(game.rounds) == 1


def test_warnings_do_not_stop_a_save(make_game: Any, play: Any) -> None:
    game = make_game()
    play(game, [0, 5, 7])
    outcome = play(game, [9, 5, 0], went_out=2)
    assert outcome.saved is not None and outcome.check.has_warnings


def test_a_correction_based_on_old_values_is_refused(make_game: Any, play: Any) -> None:
    game = make_game()
    saved = play(game, [0, 5, 7]).saved
    seen = services.round_values(game, saved)
    services.correct_round(services.load(game), 1, typed_round([0, 6, 7], 0), seen)
    with pytest.raises(services.RoundChanged) as changed:
        services.correct_round(services.load(game), 1, typed_round([0, 5, 9], 0), seen)
    assert changed.value.current["1.hand"] == "6" and changed.value.seen["1.hand"] == "5"
    lines = services.describe_changes(
        services.load(game), changed.value.seen, changed.value.current
    )
    assert [(c.who, c.what, c.seen, c.now) for c in lines] == [("Bob", "points", "5", "6")]


def test_undo_reverts_the_newest_batch_onto_its_own_round(make_game: Any, play: Any) -> None:
    game = make_game()
    one = play(game, [0, 5, 7]).saved
    two = play(game, [3, 0, 8], went_out=1).saved
    services.correct_round(
        services.load(game), 1, typed_round([0, 6, 7], 0), services.round_values(game, one)
    )
    services.correct_round(
        services.load(game), 2, typed_round([3, 0, 9], 1), services.round_values(game, two)
    )
    first_batch = min(c.batch for c in game.corrections)
    with pytest.raises(services.GameError, match="Another correction was saved"):
        services.undo_last_correction(services.load(game), first_batch)
    undone = services.undo_last_correction(
        services.load(game), services.last_correction_batch(game)
    )
    assert {c.round_number for c in undone} == {2}
    assert [s.points for s in two.scores] == [3, 0, 8] and [s.points for s in one.scores] == [
        0,
        6,
        7,
    ]


def test_the_scoreboard_comes_from_the_rules(make_game: Any, play: Any) -> None:
    game = make_game()
    play(game, [0, 5, 7])
    play(game, [5, 0, 9], went_out=1)
    board = services.scoreboard(services.load(game))
    assert [p.total for p in board.players] == [5, 5, 16]
    assert board.winners == ["Ann", "Bob"] and [p.rank for p in board.players] == [1, 1, 3]
    assert [row.running for row in board.rows] == [[0, 5, 7], [5, 5, 16]]


def test_a_loaded_game_takes_its_rows_once_and_afresh_after_a_write(
    make_game: Any, play: Any, session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``load``: the rules and the variant at once, the rows on first use and then never
    again, unless the request has written to the game since (they then describe the version
    before the write, so they are read as the game holds them now)."""
    from scorekeeper.games import loaded as loaded_module

    game = make_game()
    play(game, [0, 5, 7])
    public_id = game.public_id
    session.expunge_all()  # the next request finds the game afresh
    game = services.find_game(public_id, for_update=True)
    taken: list[int] = []
    table = loaded_module.table_rows.table
    monkeypatch.setattr(
        loaded_module.table_rows, "table", lambda game: taken.append(1) or table(game)
    )
    loaded = services.load(game)
    assert loaded.rules == services.game_rules(game) and loaded.variant.name == game.kind
    assert not taken  # nothing read until asked for
    assert len(loaded.rows.rounds) == 1 and len(loaded.rows.rounds) == 1
    assert len(taken) == 1
    services.record_round(loaded, typed_round([4, 0, 6], 1), "token-loaded-0001", 2)
    assert len(loaded.rows.rounds) == 2  # written: read as it is now

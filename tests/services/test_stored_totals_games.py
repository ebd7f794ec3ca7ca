"""Stored seat totals and places (``games.totals``) under issue 13's rules: a late joiner's
start counts, and the place follows the game's direction (the highest total first in a points
game and under arrivals scoring)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.rules import HouseRules
from scorekeeper.rules.round_check import RoundInput, SeatInput
from tests.services.conftest import DEVICE


def _stored(game: Game) -> list[tuple[str, int, int]]:
    return [(seat.player.name, seat.total, seat.place) for seat in game.seats]


def test_a_late_joiner_is_stored_with_the_start(
    session: Any, make_game: Callable[..., Game], play: Callable[..., Any]
) -> None:
    game = make_game(["Ann", "Bob"], late_joiner="highest_total")
    play(game, [0, 30], went_out=0)
    services.join_game(services.load(game), "Cy")
    session.commit()
    assert _stored(game) == [("Ann", 0, 1), ("Bob", 30, 2), ("Cy", 30, 2)]
    play(game, [5, 0, 9], went_out=1)
    assert _stored(game) == [("Ann", 5, 1), ("Bob", 30, 2), ("Cy", 39, 3)]


def test_a_points_game_stores_the_highest_first(session: Any) -> None:
    game = services.create_game(
        ["Ann", "Bob", "Cy"], HouseRules(max_pip=6), 0, DEVICE, kind="all_fives"
    )
    session.commit()
    entry = RoundInput(
        seats=[SeatInput(0, made=15), SeatInput(1, hand=13, made=10), SeatInput(2, hand=9)],
        went_out=0,
    )
    services.record_round(services.load(game), entry, secrets.token_urlsafe(16), 1)
    session.commit()
    assert _stored(game) == [("Ann", 35, 1), ("Bob", 10, 2), ("Cy", 0, 3)]


def test_arrivals_store_the_highest_first(
    session: Any, make_game: Callable[..., Game], play: Callable[..., Any]
) -> None:
    game = make_game(["Ann", "Bob"], score_by="arrivals")
    play(game, [None, 7], went_out=0)
    assert _stored(game) == [("Ann", 1, 1), ("Bob", 0, 2)]

"""Service-level tests: the use cases called directly on the real database, no HTML.

Factory fixtures make the rows a test needs in one line: ``make_game(["Ann", "Bob"])``,
``play(game, [0, 5], went_out=0)``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.games import services
from scorekeeper.models import Game
from scorekeeper.rules import HouseRules
from scorekeeper.rules.round_check import RoundInput, SeatInput

DEVICE = "d" * 64


@pytest.fixture
def session(app: Flask) -> Iterator[Any]:
    """An application context and its database session; committed work is emptied after."""
    with app.app_context():
        yield db.session
        db.session.rollback()


def typed_round(points: list[int | None], went_out: int | None, **extra: Any) -> RoundInput:
    """What a phone typed: points in seat order, who went out (None: blocked)."""
    return RoundInput(
        seats=[SeatInput(position=i, hand=p) for i, p in enumerate(points)],
        went_out=went_out,
        blocked=went_out is None,
        **extra,
    )


@pytest.fixture
def make_game(session: Any) -> Callable[..., Game]:
    def make(names: list[str] | None = None, **rules: Any) -> Game:
        game = services.create_game(names or ["Ann", "Bob", "Cy"], HouseRules(**rules), 0, DEVICE)
        session.commit()
        return game

    return make


@pytest.fixture
def play(session: Any) -> Callable[..., services.RecordOutcome]:
    """Record the game's next round as typed and commit, as a request would."""

    def record(game: Game, points: list[int | None], went_out: int | None = 0) -> Any:
        outcome = services.record_round(
            services.load(game),
            typed_round(points, went_out),
            secrets.token_urlsafe(16),
            len(game.rounds) + 1,
        )
        session.commit()
        return outcome

    return record


@pytest.fixture
def make_league(session: Any) -> Callable[..., Any]:
    """A league with a roster: ``make_league(["Ann", "Bob"])``."""
    from scorekeeper.leagues import services as leagues

    def make(names: list[str] | None = None, name: str = "Thursday Club") -> Any:
        league = leagues.create_league(name, "correct horse", DEVICE)
        for player in names or []:
            leagues.add_player(league, player)
        session.commit()
        return league

    return make

"""The games package asks the leagues about a league table through what the leagues register
(games.league_tables), never by importing them (tests/unit/test_architecture.py)."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper import leagues
from scorekeeper.games import league_tables


def test_the_app_registers_the_leagues_answers(app: Flask) -> None:
    assert app.extensions[league_tables.EXTENSION] is leagues.LEAGUE_TABLES
    # The answers are the leagues' own; the league's language is set where a table is loaded
    # (tests/web/test_league_language.py), not as a side effect of asking.
    assert leagues.LEAGUE_TABLES.league_rights is leagues.access.league_rights


def test_an_app_without_leagues_says_so_rather_than_grant_or_refuse() -> None:
    bare = Flask("bare")
    with bare.app_context(), pytest.raises(RuntimeError, match="no leagues are registered"):
        league_tables.delete_lonely_guests(1)

"""Leagues: the same group over many nights, several tables a night, standings (rules.md 6)."""

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from flask import Flask

from scorekeeper.games import league_tables
from scorekeeper.leagues import access
from scorekeeper.leagues.nights import delete_lonely_guests
from scorekeeper.leagues.views import bp
from scorekeeper.models import League
from scorekeeper.web.i18n import use_league_language

__all__ = ["bp", "init_app"]

Answer = TypeVar("Answer")


def _in_its_language(question: Callable[[League], Answer]) -> Callable[[League], Answer]:
    """A league table's pages are in its league's language (unless the phone chose one): every
    page of a league table asks about its league's rights before it says anything, so the
    answer sets the language on the way (``scorekeeper.web.i18n.use_league_language``)."""

    @wraps(question)
    def asked(league: League) -> Answer:
        use_league_language(league.language)
        return question(league)

    return asked


# What the games package asks about a table of a league night (games.league_tables), answered
# by the league's rights: the games package never imports the leagues.
LEAGUE_TABLES = league_tables.LeagueTables(
    league_rights=_in_its_language(access.league_rights),
    is_organiser=_in_its_language(access.is_organiser),
    can_read=_in_its_language(access.can_read),
    passphrase_changed=_in_its_language(access.passphrase_changed),
    may_start_table_game=access.may_start_table_game,
    delete_lonely_guests=delete_lonely_guests,
)


def init_app(app: Flask) -> None:
    """The leagues' pages, and their answers to what games ask of a league table."""
    app.register_blueprint(bp)
    league_tables.register(app, LEAGUE_TABLES)

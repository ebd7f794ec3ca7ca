"""Leagues: the same group over many nights, several tables a night, standings (rules.md 6)."""

from flask import Flask

from scorekeeper.games import league_tables
from scorekeeper.leagues import access
from scorekeeper.leagues.nights import delete_lonely_guests
from scorekeeper.leagues.views import bp

__all__ = ["bp", "init_app"]

# What the games package asks about a table of a league night (games.league_tables), answered
# by the league's rights: the games package never imports the leagues.
LEAGUE_TABLES = league_tables.LeagueTables(
    league_rights=access.league_rights,
    is_organiser=access.is_organiser,
    can_read=access.can_read,
    passphrase_changed=access.passphrase_changed,
    may_start_table_game=access.may_start_table_game,
    delete_lonely_guests=delete_lonely_guests,
)


def init_app(app: Flask) -> None:
    """The leagues' pages, and their answers to what games ask of a league table."""
    app.register_blueprint(bp)
    league_tables.register(app, LEAGUE_TABLES)

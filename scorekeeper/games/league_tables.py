"""What the games package asks about a table of a league night, answered by the leagues package.

A game of a league night (``Game.night_id``) takes its rights from its league: who keeps score
there, who runs it, who may read it, who may start another game at the night. Those are the
league's rules, written in ``leagues.access``; the games package sits below the leagues
(docs/architecture.md: rules < models < games < leagues < the app) and never imports them.
It declares here what it needs to know (``LeagueTables``) and asks through these functions;
``leagues.init_app`` registers the leagues' answers on the app at start.

An app without the leagues registered has no league tables to ask about: asking is a
programming error and says so, rather than quietly granting or refusing a right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from flask import Flask, current_app

from scorekeeper.models import League

EXTENSION = "scorekeeper.league_tables"


@dataclass(frozen=True)
class LeagueTables:
    """The questions the games package asks about the league of a league table."""

    league_rights: Callable[[League], bool]  # keeps score at the league's tables
    is_organiser: Callable[[League], bool]  # runs the league
    can_read: Callable[[League], bool]  # may read the league (its pages, the members' link)
    passphrase_changed: Callable[[League], bool]  # had the league's passphrase, now an old one
    may_start_table_game: Callable[[League, date, date], bool]  # (league, night's date, today)
    delete_lonely_guests: Callable[[int], object]  # after games are purged: by league id


def register(app: Flask, tables: LeagueTables) -> None:
    """Have the games of ``app`` ask ``tables`` about their leagues."""
    app.extensions[EXTENSION] = tables


def _tables() -> LeagueTables:
    tables = current_app.extensions.get(EXTENSION)
    if tables is None:
        raise RuntimeError(
            "A league table was met but no leagues are registered on the app "
            "(scorekeeper.leagues.init_app)."
        )
    return tables


def league_rights(league: League) -> bool:
    return _tables().league_rights(league)


def is_organiser(league: League) -> bool:
    return _tables().is_organiser(league)


def can_read(league: League) -> bool:
    return _tables().can_read(league)


def passphrase_changed(league: League) -> bool:
    return _tables().passphrase_changed(league)


def may_start_table_game(league: League, played_on: date, today: date) -> bool:
    return _tables().may_start_table_game(league, played_on, today)


def delete_lonely_guests(league_id: int) -> None:
    _tables().delete_lonely_guests(league_id)

"""A league night's result leaving the app: its card for the group chat."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.leagues.setup import night_day_text, number_text
from scorekeeper.leagues.standings import NightView
from scorekeeper.models import League
from scorekeeper.web.result_cards import Card, Entry, make_card


def points_text(value: object) -> str:
    """12.0 -> 12, 10.5 -> 10.5."""
    text = str(value)
    return number_text(int(text[:-2])) if text.endswith(".0") else number_text(value)


def night_title(view: NightView) -> str:
    night = view.night
    place = f" · {night.place}" if night.place else ""
    return f"{night_day_text(night.played_on)}{place}"


def night_card(league: League, view: NightView, shown: object) -> Card:
    """The card of a night: every player across the finished tables in the night's order
    (game total, the average for two games), the night's winner marked, who won a table, and
    the placement points; how they are ranked in a line. ``shown`` rounds a placement value
    as the pages do."""
    entries = []
    for r in view.results:
        line = r.line
        table = view.tables_of[line.player]
        won = _("won %(table)s", table=table) if line.wins else table
        points = points_text(shown(line.points))  # type: ignore[operator]
        entries.append(
            Entry(
                place=r.rank,
                tied=r.tied,
                name=view.names[line.player],
                total=str(line.total) if line.games == 1 else number_text(r.value),
                detail=_(
                    "%(table)s · %(points)s",
                    table=won,
                    points=ngettext(
                        "%(points)s placement point",
                        "%(points)s placement points",
                        1 if points == "1" else 2,
                        points=points,
                    ),
                ),
                winner=view.finished and r.rank == 1,
            )
        )
    tables = ngettext("%(num)s table", "%(num)s tables", len(view.tables))
    status = _("final") if view.finished else _("so far")
    notes = [
        _(
            "Every player across the tables by game total (the average after two games); "
            "ties: more wins."
        ),
    ]
    return make_card(league.name, f"{night_title(view)} · {tables} · {status}", entries, notes)

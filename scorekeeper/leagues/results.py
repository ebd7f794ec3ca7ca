"""A league night's result leaving the app: its card for the group chat."""

from __future__ import annotations

from scorekeeper.cards import Card, Entry, make_card
from scorekeeper.leagues.setup import day_text
from scorekeeper.leagues.standings import NightView
from scorekeeper.models import League
from scorekeeper.presentation import plural


def points_text(value: object) -> str:
    """12.0 -> 12, 10.5 -> 10.5."""
    text = str(value)
    return text[:-2] if text.endswith(".0") else text


def night_title(view: NightView) -> str:
    night = view.night
    place = f" · {night.place}" if night.place else ""
    return f"{night.played_on:%A} {day_text(night.played_on)}{place}"


def night_card(league: League, view: NightView, shown: object) -> Card:
    """The card of a night: every player across the finished tables in the night's order
    (game total, the average for two games), the night's winner marked, who won a table, and
    the placement points; how they are ranked in a line. ``shown`` rounds a placement value
    as the pages do."""
    entries = []
    for r in view.results:
        line = r.line
        won = f"won {view.tables_of[line.player]}" if line.wins else view.tables_of[line.player]
        points = points_text(shown(line.points))  # type: ignore[operator]
        entries.append(
            Entry(
                place=r.rank,
                tied=r.tied,
                name=view.names[line.player],
                total=str(line.total if line.games == 1 else r.value),
                detail=f"{won} · {points} placement point{'' if points == '1' else 's'}",
                winner=view.finished and r.rank == 1,
            )
        )
    tables = plural(len(view.tables), "table")
    status = "final" if view.finished else "so far"
    notes = [
        "Every player across the tables by game total (the average after two games); "
        "ties: more wins.",
    ]
    return make_card(league.name, f"{night_title(view)} · {tables} · {status}", entries, notes)

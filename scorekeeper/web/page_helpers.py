"""Presentation helpers shared by every blueprint: navigation and domino drawing.

Layout only; no rules live here.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from babel.dates import format_date as babel_format_date
from flask import Flask, get_template_attribute, has_app_context
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.web.i18n import format_day, names_list

# Pips per column (left, middle, right) for each count, as printed on double-12..18 sets
# (8 = 3-2-3, 10 = 4-2-4, 11 = 4-3-4, 12 = 4-4-4 ...). 2 and 3 are diagonals.
_COLUMNS: dict[int, tuple[int, int, int]] = {
    0: (0, 0, 0),
    1: (0, 1, 0),
    4: (2, 0, 2),
    5: (2, 1, 2),
    6: (3, 0, 3),
    7: (3, 1, 3),
    8: (3, 2, 3),
    9: (3, 3, 3),
    10: (4, 2, 4),
    11: (4, 3, 4),
    12: (4, 4, 4),
    13: (5, 3, 5),
    14: (5, 4, 5),
    15: (5, 5, 5),
    16: (6, 4, 6),
    17: (6, 5, 6),
    18: (6, 6, 6),
}
_TOP, _BOTTOM = 20.0, 80.0
_X = (24.0, 50.0, 76.0)

# Pip colours by number, after the coloured double-12 sets, darkened so every colour keeps at
# least 3:1 contrast on the ivory face (WCAG non-text contrast).
PIP_COLOURS = (
    "#111111",
    "#0b5a8a",
    "#1d6b2f",
    "#a1150f",
    "#6b3d12",
    "#1f3fb0",
    "#7a5a00",
    "#6a3d9a",
    "#0f5132",
    "#7b1fa2",
    "#b43c00",
    "#111111",
    "#4d4d4d",
    "#005f73",
    "#9b2226",
    "#3a5a40",
    "#5e548e",
    "#7f4f24",
    "#264653",
)


def _spread(count: int, outer: int) -> list[float]:
    """``count`` evenly spaced y positions, centred between the rows of an ``outer`` column."""
    if count == 0:
        return []
    if count == 1:
        return [50.0]
    rows = max(outer, count)
    step = (_BOTTOM - _TOP) / (rows - 1)
    start = _TOP + (rows - count) * step / 2
    return [start + i * step for i in range(count)]


def pip_positions(n: int) -> list[tuple[float, float]]:
    """Pip centres for a half showing ``n`` pips, in a 100 x 100 box."""
    if n == 2:
        return [(28.0, 28.0), (72.0, 72.0)]
    if n == 3:
        return [(26.0, 26.0), (50.0, 50.0), (74.0, 74.0)]
    left, middle, right = _COLUMNS[n]
    outer = max(left, right, 1)
    points: list[tuple[float, float]] = []
    for x, count in zip(_X, (left, middle, right), strict=True):
        points.extend((x, y) for y in _spread(count, outer))
    return points


def pip_radius(n: int) -> float:
    return 9.0 if n <= 9 else 7.5 if n <= 12 else 6.0


def pip_colour(n: int) -> str:
    return PIP_COLOURS[n % len(PIP_COLOURS)]


def domino(a: int, b: int, size: str = "md", label: str | None = None) -> Markup:
    """A domino as SVG: the ``domino`` macro of ``templates/_domino.html``."""
    return Markup(get_template_attribute("_domino.html", "domino")(a, b, size, label))


def utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC with its offset (SQLite hands back naive datetimes, stored as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def nav_links() -> list[tuple[str, str]]:
    """(endpoint, label) pairs for the top bar."""
    return [
        ("games.new_game", _("New game")),
        ("leagues.index", _("Leagues")),
        ("helper.table_helper", _("Helper")),
    ]


def and_list(words: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy" (in the page's language: ``names_list``)."""
    return names_list(words)


def date_in(day: date, pattern: str) -> str:
    """``day`` written by a CLDR ``pattern`` ("d MMM y") in the page's language: the month's
    name is the language's own ("4 Jan 2024", "4 ene 2024", "4 janv. 2024")."""
    if has_app_context():
        return format_day(day, pattern)
    return babel_format_date(day, pattern, locale="en")


def day_text(day: date) -> str:
    """A day as the app writes it: "4 Jan 2024" (no leading zero), in the page's language."""
    return date_in(day, "d MMM y")


def init_app(app: Flask) -> None:
    app.add_template_global(day_text)
    app.add_template_global(domino)
    app.add_template_global(pip_positions)
    app.add_template_global(pip_radius)
    app.add_template_global(pip_colour)
    app.add_template_global(nav_links)
    app.add_template_filter(utc_iso)
    # Python's zip: a board row's cells beside its running totals, without a ``loop`` object.
    app.add_template_global(zip)

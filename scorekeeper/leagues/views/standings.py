"""League standings for a period (private and public)."""

from __future__ import annotations

from datetime import date

from flask import (
    g,
    request,
)
from flask_babel import gettext as _
from wtforms import SelectChoice

from scorekeeper.leagues import services
from scorekeeper.leagues.forms import (
    PeriodForm,
)
from scorekeeper.leagues.standings import Period, league_table
from scorekeeper.leagues.views.common import (
    bp,
    league_link,
    league_page,
    public_league,
    reader_required,
)
from scorekeeper.models import League
from scorekeeper.rules.standings import METHOD_REGISTRY

# --------------------------------------------------------------------------------------------
# Standings


def period_of(league: League) -> tuple[Period, PeriodForm]:
    """The nights the page covers, from ?season= or ?start=&end= (bad dates get a message next
    to the field and the page falls back to the default)."""
    seasons = list(league.seasons)
    form = PeriodForm(request.args)
    form.season.choices = [
        *(SelectChoice(str(s.id), s.name) for s in reversed(seasons)),
        SelectChoice("all", _("All nights")),
        SelectChoice("dates", _("The dates below")),
    ]
    valid = form.validate()
    start, end = (form.start.data, form.end.data) if valid else (None, None)
    if start and end and end < start:
        form.end.errors = [*form.end.errors, _("The last day is before the first.")]
        start = end = None
    if start or end:
        form.season.data = "dates"
        if start and end:
            label = _(
                "%(start)s to %(end)s", start=services.day_text(start), end=services.day_text(end)
            )
        elif start:
            label = _("%(start)s to today", start=services.day_text(start))
        else:
            label = _("The start to %(end)s", end=services.day_text(end))  # type: ignore[arg-type]
        return Period(start, end, label), form
    chosen = form.season.data
    if not chosen or chosen == "dates":
        default = services.default_season(seasons, date.today())
        chosen = str(default.id) if default else "all"
        form.season.data = chosen
    season = next((s for s in seasons if str(s.id) == chosen), None)
    if season is None:
        form.season.data = "all"
        return Period(), form
    return Period(season.starts_on, season.ends_on, _("Season %(name)s", name=season.name)), form


def _standings_page(league: League) -> str:
    period, form = period_of(league)
    # ?method= shows the standings by another method, to look: read-only, for every reader;
    # the organiser's choice stays the default and the one the league is ranked by.
    asked = request.args.get("method", "")
    viewed = asked if asked in METHOD_REGISTRY and asked != league.ranking else None
    table = league_table(league, period, kind=viewed)
    kept = {key: value for key, value in request.args.items() if key in ("season", "start", "end")}
    method_links = [
        (
            name,
            spec.label,
            league_link(
                league, "standings", **kept, **({} if name == league.ranking else {"method": name})
            ),
        )
        for name, spec in METHOD_REGISTRY.items()
    ]
    return league_page(
        "leagues/standings.html",
        league,
        period=period,
        period_form=form,
        result=table,
        viewed=viewed,
        method_links=method_links,
        league_method=services.league_method(league).spec,
        tonight=services.tonight(league, date.today()) if not g.get("public_token") else None,
        recent=services.recent_nights(league),
    )


@bp.get("/leagues/<code>")
@reader_required
def standings(league: League) -> str:
    return _standings_page(league)


@bp.get("/p/<token>")
def public_standings(token: str) -> str:
    return _standings_page(public_league(token))

"""A league's results leaving the app: a night's card for the group chat, and print views of a
night's results and of the standings (read right: the members' link, or the public page)."""

from __future__ import annotations

import re
import unicodedata

from flask import Response, render_template, request
from flask_babel import gettext as _

from scorekeeper.leagues import results
from scorekeeper.leagues.standings import NightView, league_table, night_view
from scorekeeper.leagues.views.common import (
    bp,
    league_link,
    league_page,
    public_league,
    reader_required,
)
from scorekeeper.leagues.views.nights import _night_or_404
from scorekeeper.leagues.views.standings import period_of
from scorekeeper.models import League
from scorekeeper.rules.placings import shown
from scorekeeper.web.responses import svg_for_version
from scorekeeper.web.result_cards import CardLinks


@bp.app_template_global()
def night_card_links(league: League, view: NightView) -> CardLinks:
    """A night page's card: its URLs, file name and words."""
    night = view.night
    return CardLinks(
        card_url=league_link(league, "night_card", night_id=night.id, v=view.version_hash),
        file_name=f"{slug(league.name)}-{night.played_on.isoformat()}.png",
        title=_("%(league)s: %(title)s", league=league.name, title=results.night_title(view)),
        print_url=league_link(league, "night_print", night_id=night.id),
        alt=results.night_card(league, view, shown).description,
    )


@bp.app_template_global()
def standings_print_link(league: League) -> str:
    """The print view of the standings for the period on screen (only the period's own
    parameters are carried over)."""
    period = {k: request.args[k] for k in ("season", "start", "end") if request.args.get(k)}
    return league_link(league, "standings_print", **period)


def slug(name: str) -> str:
    """A file name's part made of a league's name: ASCII letters and digits, dashes between."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "league"


def _night_card(league: League, night_id: int) -> Response:
    view = night_view(league, _night_or_404(league, night_id, rounds=False))
    return svg_for_version(
        f"night-card-{view.version}",  # i18n: a version key (an ETag), not shown
        lambda: render_template("cards/card.svg", card=results.night_card(league, view, shown)),
    )


def _night_print(league: League, night_id: int) -> str:
    view = night_view(league, _night_or_404(league, night_id, rounds=False))
    return league_page(
        "leagues/print_night.html", league, view=view, title=results.night_title(view)
    )


def _standings_print(league: League) -> str:
    period, _form = period_of(league)
    return league_page(
        "leagues/print_standings.html", league, period=period, result=league_table(league, period)
    )


@bp.get("/leagues/<code>/nights/<int:night_id>/card.svg")
@reader_required
def night_card(league: League, night_id: int) -> Response:
    return _night_card(league, night_id)


@bp.get("/p/<token>/nights/<int:night_id>/card.svg")
def public_night_card(token: str, night_id: int) -> Response:
    return _night_card(public_league(token), night_id)


@bp.get("/leagues/<code>/nights/<int:night_id>/print")
@reader_required
def night_print(league: League, night_id: int) -> str:
    return _night_print(league, night_id)


@bp.get("/p/<token>/nights/<int:night_id>/print")
def public_night_print(token: str, night_id: int) -> str:
    return _night_print(public_league(token), night_id)


@bp.get("/leagues/<code>/print")
@reader_required
def standings_print(league: League) -> str:
    return _standings_print(league)


@bp.get("/p/<token>/print")
def public_standings_print(token: str) -> str:
    return _standings_print(public_league(token))

"""Leagues on this phone: creating one, joining with the passphrase, the members' and join
links, claiming the organiser's right, forgetting a league."""

from __future__ import annotations

import re
from datetime import date

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.extensions import limiter
from scorekeeper.games import access as game_access
from scorekeeper.games.setup import find_game
from scorekeeper.leagues import access, services
from scorekeeper.leagues.forms import (
    ConfirmForm,
    JoinForm,
    NewLeagueForm,
    PassphraseForm,
)
from scorekeeper.leagues.views.common import (
    bp,
    form_page,
    join_attempts,
    league_or_404,
    link_attempts,
    passphrase_attempts,
    passphrase_cap,
    reader_required,
)
from scorekeeper.models import League
from scorekeeper.web import rate_limits
from scorekeeper.web.devices import device_hash
from scorekeeper.web.responses import qr_svg

# --------------------------------------------------------------------------------------------
# Leagues on this phone, creating and joining


@bp.get("/leagues")
def index() -> str:
    device = device_hash() if "device" in session else None
    leagues = services.leagues_for(device, access.remembered_codes())
    mine = [league for league in leagues if access.can_read(league)]
    return render_template("leagues/index.html", leagues=mine)


@bp.route("/leagues/new", methods=["GET", "POST"])
@limiter.limit(
    rate_limits.NEW_LEAGUE_LIMIT,
    key_func=rate_limits.client,
    methods=["POST"],
    deduct_when=rate_limits.made,
    on_breach=rate_limits.explain(rate_limits.BUSY_NEW_LEAGUES),
)
@limiter.limit(
    rate_limits.ALL_NEW_LEAGUES,
    key_func=rate_limits.everyone,
    methods=["POST"],
    deduct_when=rate_limits.made,
    on_breach=rate_limits.explain(rate_limits.BUSY_ALL_NEW_LEAGUES),
)
def new_league() -> str | BaseResponse:
    form = NewLeagueForm()
    if form.validate_on_submit():
        try:
            league = services.create_league(
                form.name.data or "", form.passphrase.data or "", device_hash()
            )
        except services.LeagueError as error:
            target = form.name if error.field == "name" else form.passphrase
            target.errors = [*target.errors, str(error)]
        else:
            flash(
                _("%(league)s is ready. Add your players, then start a night.", league=league.name),
                "success",
            )
            return redirect(url_for("leagues.players", code=league.code))
    return form_page("leagues/new.html", form)


@bp.route("/leagues/join", methods=["GET", "POST"])
@join_attempts
@passphrase_attempts
@passphrase_cap
def join() -> str | BaseResponse:
    form = JoinForm()
    if form.validate_on_submit():
        code = "".join(ch for ch in form.code.data or "" if ch.isalnum()).upper()
        league = services.load_league(code) if code else None
        if league is None:
            form.code.errors.append(_("There is no league with that code. Check it and try again."))
        elif not services.passphrase_matches(league, form.passphrase.data or ""):
            form.passphrase.errors.append(_("That is not the league's passphrase."))
        else:
            access.grant(league)
            flash(_("This phone can now keep score for %(league)s.", league=league.name), "success")
            return redirect(_landing(league))
    return form_page("leagues/join.html", form)


def _landing(league: League) -> str:
    """Where a phone that has just joined goes: tonight's tables when there is a night on,
    else the standings."""
    night = services.landing_night(league, date.today())
    if night is None:
        return url_for("leagues.standings", code=league.code)
    return url_for("leagues.night", code=league.code, night_id=night.id)


@bp.route("/leagues/<code>/unlock", methods=["GET", "POST"])
@passphrase_attempts
@passphrase_cap
def unlock(code: str) -> str | BaseResponse:
    league = league_or_404(code)
    form = PassphraseForm()
    if form.validate_on_submit():
        if services.passphrase_matches(league, form.passphrase.data or ""):
            access.grant(league)
            flash(_("This phone can now keep score for %(league)s.", league=league.name), "success")
            target = _back_to(league, request.args.get("next", ""))
            return redirect(target or _landing(league))
        form.passphrase.errors.append(
            _("That is not the league's passphrase. Check it and try again.")
        )
    return form_page("leagues/unlock.html", form, league=league)


_LEAGUE_PATH = re.compile(r"/leagues/[A-Za-z0-9]+(/[A-Za-z0-9_./-]*)?")
_TABLE_PATH = re.compile(r"/g/([A-Za-z0-9_-]+)(/round|/rounds/[0-9]+|/summary|/scoreboard)?")


def _back_to(league: League, target: str) -> str:
    """Where the passphrase form sends the phone back to: the league page or the league table
    (a game of one of its nights) it came from; "" for anywhere else (``_landing`` then)."""
    if _LEAGUE_PATH.fullmatch(target) and target.split("/")[2].upper() == league.code:
        return target
    table = _TABLE_PATH.fullmatch(target)
    if table:
        game = find_game(table.group(1))
        if game is not None and game.night is not None and game.night.league_id == league.id:
            return target
    return ""


@bp.route("/leagues/<code>/welcome/<token>", methods=["GET", "POST"])
@link_attempts
def join_link(code: str, token: str) -> str | BaseResponse:
    """The organiser's QR code: one tap to keep score for the league on this phone."""
    league = league_or_404(code)
    valid, night_id = access.read_join_token(league, token)
    form = ConfirmForm()
    if valid and form.validate_on_submit():
        access.grant(league)
        flash(_("This phone can now keep score for %(league)s.", league=league.name), "success")
        if night_id is not None:
            return redirect(url_for("leagues.night", code=league.code, night_id=night_id))
        return redirect(url_for("leagues.standings", code=league.code))
    status = 200 if valid else 410
    return render_template("leagues/join_link.html", league=league, form=form, valid=valid), status


@bp.get("/leagues/<code>/members/<token>")
def members_link(code: str, token: str) -> str | BaseResponse | tuple[str, int]:
    """The members' link: this phone may read the league from now on (no tap needed: reading
    changes nothing, and the link is signed)."""
    league = league_or_404(code)
    if not access.read_members_token(league, token):
        page = render_template(
            "error.html",
            code=410,
            title=_("This members' link is out of date"),
            detail=_(
                "The league's passphrase has changed since, and with it the members' link. "
                "Ask someone at the club to show you the new one."
            ),
        )
        return page, 410
    if not access.can_read(league):
        access.grant_reading(league)
        flash(
            _(
                "This phone can now follow %(league)s: standings, nights and players.",
                league=league.name,
            ),
            "success",
        )
    return redirect(url_for("leagues.standings", code=league.code))


@bp.get("/leagues/<code>/members/<token>/qr.svg")
def members_qr(code: str, token: str) -> Response:
    """The members' link as a QR code: whoever may show the link may show its code."""
    league = league_or_404(code)
    if not access.read_members_token(league, token):
        abort(404)
    return qr_svg(url_for("leagues.members_link", code=league.code, token=token, _external=True))


@bp.route("/leagues/<code>/organiser/<token>", methods=["GET", "POST"])
@link_attempts
def claim_organiser(code: str, token: str) -> str | BaseResponse:
    """A link from ``flask organiser-link``: this phone becomes the organiser."""
    league = league_or_404(code)
    valid = access.read_organiser_token(league, token)
    form = ConfirmForm()
    if valid and form.validate_on_submit():
        services.make_organiser(league, device_hash())
        flash(_("This phone is now the organiser of %(league)s.", league=league.name), "success")
        return redirect(url_for("leagues.settings", code=league.code))
    return render_template("leagues/claim_organiser.html", league=league, form=form, valid=valid), (
        200 if valid else 410
    )


@bp.post("/leagues/<code>/forget")
@reader_required
def forget(league: League) -> BaseResponse:
    access.forget(league)
    if access.is_organiser(league):
        flash(_("This phone organises the league, so it keeps its rights."), "info")
    else:
        # Its tables' edit-code rights go too, and the next page has the phone clear the
        # pages, drafts and unsent rounds it kept of them.
        game_access.forget_league_games(league)
        flash(
            _(
                "This phone no longer keeps score for %(league)s, and what it kept of the "
                "league's games for use without signal was cleared.",
                league=league.name,
            ),
            "success",
        )
    return redirect(url_for("leagues.index"))

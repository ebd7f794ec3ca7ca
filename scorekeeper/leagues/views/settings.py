"""Running the league: seasons, settings, the passphrase, the public page."""

from __future__ import annotations

from typing import Any

from flask import (
    Response,
    abort,
    flash,
    redirect,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.leagues import services
from scorekeeper.leagues.forms import (
    ConfirmForm,
    NewPassphraseForm,
    PublicPageForm,
    SeasonForm,
    SettingsForm,
)
from scorekeeper.leagues.views.common import (
    bp,
    league_form_page,
    league_page,
    league_view,
    organiser_required,
    public_league,
)
from scorekeeper.models import League
from scorekeeper.web.responses import qr_svg

# --------------------------------------------------------------------------------------------
# Seasons


@bp.route("/leagues/<code>/seasons", methods=["GET", "POST"])
@league_view("reader", "organiser")
def seasons(league: League) -> str | BaseResponse:
    form = SeasonForm()
    if request.method == "POST" and form.validate():
        try:
            season = services.add_season(
                league, form.name.data or "", form.starts_on.data, form.ends_on.data
            )
        except services.LeagueError as error:
            form.ends_on.errors = [*form.ends_on.errors, str(error)]
        else:
            flash(_("Season %(name)s added.", name=season.name), "success")
            return redirect(url_for("leagues.seasons", code=league.code))
    return league_form_page("leagues/seasons.html", league, form, delete_form=ConfirmForm())


@bp.post("/leagues/<code>/seasons/<int:season_id>/delete")
@organiser_required
def delete_season(league: League, season_id: int) -> BaseResponse:
    try:
        services.delete_season(league, season_id)
    except services.LeagueError:
        abort(404)
    flash(_("Season deleted. No games were touched."), "success")
    return redirect(url_for("leagues.seasons", code=league.code))


# --------------------------------------------------------------------------------------------
# Settings: ranking, house rules, passphrase, public page (organiser only)


def _settings_page(
    league: League,
    form: SettingsForm | None = None,
    passphrase_form: NewPassphraseForm | None = None,
) -> Any:
    if form is None:
        form = SettingsForm(formdata=None)
        form.fill(league, services.league_rules(league))
    passphrase_form = passphrase_form or NewPassphraseForm(formdata=None)
    public_url = (
        url_for("leagues.public_standings", token=league.public_token, _external=True)
        if league.public_token
        else None
    )
    refused = request.method == "POST" and bool(form.errors or passphrase_form.errors)
    return league_page(
        "leagues/settings.html",
        league,
        form=form,
        passphrase_form=passphrase_form,
        public_form=PublicPageForm(formdata=None),
        public_url=public_url,
    ), (422 if refused else 200)


@bp.route("/leagues/<code>/settings", methods=["GET", "POST"])
@organiser_required
def settings(league: League) -> Any:
    if request.method == "GET":
        return _settings_page(league)
    form = SettingsForm()
    if form.validate():
        try:
            method = form.method()
            rules = form.house_rules(services.league_rules(league))
            services.update_settings(
                league, form.name.data or "", method, rules, form.language.data or None
            )
        except (ValueError, services.LeagueError) as error:
            if not form.errors:
                form.form_errors.append(str(error))
        else:
            flash(_("Settings saved."), "success")
            return redirect(url_for("leagues.standings", code=league.code))
    return _settings_page(league, form=form)


@bp.post("/leagues/<code>/settings/passphrase")
@organiser_required
def change_passphrase(league: League) -> Any:
    form = NewPassphraseForm()
    if form.validate():
        try:
            services.change_passphrase(league, form.new_passphrase.data or "")
        except services.LeagueError as error:
            form.new_passphrase.errors = [*form.new_passphrase.errors, str(error)]
        else:
            flash(
                _("New passphrase saved. Other phones must type it again to keep score."),
                "success",
            )
            return redirect(url_for("leagues.settings", code=league.code))
    return _settings_page(league, passphrase_form=form)


@bp.post("/leagues/<code>/settings/public")
@organiser_required
def public_page(league: League) -> BaseResponse:
    form = PublicPageForm()
    if not form.validate():
        abort(400)
    action = form.action.data
    if action == "on":
        services.set_public_page(league, True)
        flash(_("The public page is on: anyone with its link can read the standings."), "success")
    elif action == "new_link":
        services.set_public_page(league, True, new_link=True)
        flash(_("The public page has a new link; the old one no longer works."), "success")
    elif action == "off":
        services.set_public_page(league, False)
        flash(_("The public page is off."), "success")
    else:
        abort(400)
    return redirect(url_for("leagues.settings", code=league.code) + "#public")


@bp.get("/p/<token>/qr.svg")
def public_qr(token: str) -> Response:
    league = public_league(token)
    return qr_svg(
        url_for("leagues.public_standings", token=league.public_token, _external=True), 3600
    )

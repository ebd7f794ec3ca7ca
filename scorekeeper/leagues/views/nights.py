"""League nights and their tables: list, add, edit, delete, the live night page, seating."""

from __future__ import annotations

from datetime import date

from flask import (
    Response,
    abort,
    flash,
    g,
    redirect,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.games import trash
from scorekeeper.leagues import access, services
from scorekeeper.leagues.forms import (
    GUEST_FIELDS,
    ConfirmForm,
    NightForm,
    TableForm,
)
from scorekeeper.leagues.standings import night_version, night_view
from scorekeeper.leagues.views.common import (
    bp,
    league_form_page,
    league_page,
    organiser_required,
    public_league,
    reader_required,
    scorer_required,
)
from scorekeeper.models import League, Night, Player
from scorekeeper.rules.games import DEFAULT_KIND
from scorekeeper.web.devices import device_hash
from scorekeeper.web.responses import qr_svg, unless_unchanged

# --------------------------------------------------------------------------------------------
# Nights


@bp.get("/leagues/<code>/nights")
@reader_required
def nights(league: League) -> str:
    deleted = trash.deleted_in_league(league.id) if access.is_organiser(league) else []
    return league_page(
        "leagues/nights.html", league, nights=services.league_nights(league), deleted=deleted
    )


@bp.route("/leagues/<code>/nights/new", methods=["GET", "POST"])
@organiser_required
def new_night(league: League) -> str | BaseResponse:
    form = NightForm()
    same_day: list[Night] = []
    if request.method == "GET":
        form.played_on.data = date.today()
        form.place.data = services.last_place(league)
    elif form.validate() and not (same_day := _same_day(league, form, None)):
        try:
            night = services.create_night(league, form.played_on.data, form.place.data or "")
        except services.LeagueError as error:
            form.played_on.errors = [*form.played_on.errors, str(error)]
        else:
            flash(_("Night started. Add the tables."), "success")
            return redirect(url_for("leagues.new_table", code=league.code, night_id=night.id))
    return league_form_page("leagues/night_form.html", league, form, night=None, same_day=same_day)


def _same_day(league: League, form: NightForm, night: Night | None) -> list[Night]:
    """Other nights on the date typed, unless the organiser has said a second night on that
    date is meant (the ``same_day`` button)."""
    if request.form.get("same_day") == "yes" or form.played_on.data is None:
        return []
    if night is not None and night.played_on == form.played_on.data:
        return []  # the night keeps its date: nothing new to ask
    return services.nights_on(league, form.played_on.data, other_than=night)


def _night_or_404(league: League, night_id: int, rounds: bool = True) -> Night:
    night = services.load_night(league, night_id, rounds=rounds)
    if night is None:
        abort(404)
    return night


def _night_page(league: League, night_id: int) -> str:
    night = _night_or_404(league, night_id, rounds=False)
    view = night_view(league, night)
    join = None
    if not g.get("public_token") and access.league_rights(league):
        join = url_for(
            "leagues.join_link",
            code=league.code,
            token=access.join_token(league, night.id),
            _external=True,
        )
    deleted = []
    if not g.get("public_token") and access.is_organiser(league):
        deleted = trash.deleted_in_league(league.id, night.id)
    return league_page(
        "leagues/night.html", league, view=view, join_url=join, form=ConfirmForm(), deleted=deleted
    )


def _night_live(league: League, night_id: int) -> Response:
    """The live tables of a night; an unchanged night answers 304 from one query (its games'
    versions), without loading the games."""
    version = night_version(league, night_id)
    if version is None:
        abort(404)

    def render() -> str:
        view = night_view(league, _night_or_404(league, night_id, rounds=False))
        return league_page("leagues/_night_live.html", league, view=view, form=ConfirmForm())

    return unless_unchanged(version, render)


@bp.get("/leagues/<code>/nights/<int:night_id>")
@reader_required
def night(league: League, night_id: int) -> str:
    return _night_page(league, night_id)


@bp.get("/leagues/<code>/nights/<int:night_id>/live")
@reader_required
def night_live(league: League, night_id: int) -> Response:
    return _night_live(league, night_id)


@bp.get("/p/<token>/nights/<int:night_id>")
def public_night(token: str, night_id: int) -> str:
    return _night_page(public_league(token), night_id)


@bp.get("/p/<token>/nights/<int:night_id>/live")
def public_night_live(token: str, night_id: int) -> Response:
    return _night_live(public_league(token), night_id)


@bp.route("/leagues/<code>/nights/<int:night_id>/edit", methods=["GET", "POST"])
@organiser_required
def edit_night(league: League, night_id: int) -> str | BaseResponse:
    night = _night_or_404(league, night_id)
    form = NightForm(obj=night if request.method == "GET" else None)
    same_day: list[Night] = []
    if (
        request.method == "POST"
        and form.validate()
        and not (same_day := _same_day(league, form, night))
    ):
        try:
            services.update_night(night, form.played_on.data, form.place.data or "")
        except services.LeagueError as error:
            form.played_on.errors = [*form.played_on.errors, str(error)]
        else:
            flash(_("Night changed."), "success")
            return redirect(url_for("leagues.night", code=league.code, night_id=night.id))
    return league_form_page("leagues/night_form.html", league, form, night=night, same_day=same_day)


@bp.route("/leagues/<code>/nights/<int:night_id>/delete", methods=["GET", "POST"])
@organiser_required
def delete_night(league: League, night_id: int) -> str | BaseResponse:
    """Delete a night entered by mistake, asked first. A night whose tables recorded rounds
    stays: the page says how (delete each game first; they wait in "Recently deleted")."""
    night = _night_or_404(league, night_id)
    form = ConfirmForm()
    if request.method == "POST" and form.validate():
        try:
            services.delete_night(league, night)
        except services.LeagueError as error:
            flash(str(error), "error")
            return redirect(url_for("leagues.delete_night", code=league.code, night_id=night_id))
        flash(_("Night deleted."), "success")
        return redirect(url_for("leagues.nights", code=league.code))
    return league_page(
        "leagues/night_delete.html",
        league,
        night=night,
        started=[game for game in night.games if game.rounds],
        deleted=trash.deleted_in_league(league.id, night.id),
        form=form,
    )


@bp.get("/leagues/<code>/nights/<int:night_id>/qr.svg")
@scorer_required
def night_qr(league: League, night_id: int) -> Response:
    night = _night_or_404(league, night_id)
    target = url_for(
        "leagues.join_link",
        code=league.code,
        token=access.join_token(league, night.id),
        _external=True,
    )
    response = qr_svg(target)
    response.cache_control.no_store = True
    return response


# --------------------------------------------------------------------------------------------
# Tables of a night


def _roster_choices(league: League, night: Night) -> tuple[list[Player], dict[int, str]]:
    """Roster and guests who may sit down, regulars (most games) first; who is busy tonight."""
    counts = services.roster_counts(league)
    everyone = [p for p in services.league_players(league) if p.merged_into_id is None]
    everyone.sort(
        key=lambda p: (
            p.is_guest,
            -(counts.get(p.id, (0, None))[0]),
            p.name.casefold(),
        )
    )
    return everyone, services.playing_tonight(night)


@bp.route("/leagues/<code>/nights/<int:night_id>/tables/new", methods=["GET", "POST"])
@organiser_required
def new_table(league: League, night_id: int) -> str | BaseResponse:
    night = _night_or_404(league, night_id)
    players, busy = _roster_choices(league, night)
    form = TableForm()
    form.players.choices = {p.id: p.name for p in players}
    guests = [""] * GUEST_FIELDS
    refused = False
    if request.method == "GET":
        form.table_name.data = services.next_table_name(night)
    else:
        guests = form.guest_names(request.form)
        if form.validate():
            try:
                game = services.add_table(
                    league,
                    night,
                    form.table_name.data or "",
                    form.seated_ids(),
                    guests,
                    device_hash(),
                    kind=form.game.data or DEFAULT_KIND,
                )
            except services.LeagueError as error:
                form.form_errors.append(str(error))
                refused = True
            else:
                flash(_("%(table)s is ready.", table=game.table_name), "success")
                return redirect(url_for("leagues.night", code=league.code, night_id=night.id))
    return league_form_page(
        "leagues/table_form.html",
        league,
        form,
        night=night,
        players=players,
        busy=busy,
        guests=guests,
        chosen=set(form.players.data or []),
        seat_order=",".join(str(player) for player in form.seated_ids()),
        refused=refused,
        rules_text=services.league_rules(league).describe(),
    )


@bp.post("/leagues/<code>/nights/<int:night_id>/tables/<public_id>/remove")
@organiser_required
def remove_table(league: League, night_id: int, public_id: str) -> BaseResponse:
    night = _night_or_404(league, night_id)
    try:
        name = services.remove_table(league, night, public_id)
    except services.LeagueError as error:
        flash(str(error), "error")
    else:
        flash(f"{name} removed.", "success")
    return redirect(url_for("leagues.night", code=league.code, night_id=night.id))

"""Views of a league. Thin: check the league rights, parse the form, call one service, render or
redirect.

Private pages live under /leagues/<code>/ and need league rights (see access.py); the optional
public read-only page lives under /p/<token>/ and offers nothing that changes anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any, NoReturn

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import throttle
from scorekeeper.charts import totals_over_time
from scorekeeper.devices import device_hash
from scorekeeper.extensions import limiter
from scorekeeper.leagues import access, services, transfer
from scorekeeper.leagues.forms import (
    GUEST_FIELDS,
    ConfirmForm,
    EditPlayerForm,
    ImportConfirmForm,
    ImportForm,
    JoinForm,
    MergeForm,
    NewLeagueForm,
    NewPassphraseForm,
    NightForm,
    PassphraseForm,
    PeriodForm,
    PlayerForm,
    PublicPageForm,
    SeasonForm,
    SettingsForm,
    TableForm,
)
from scorekeeper.leagues.standings import Period, league_table, night_view, player_report
from scorekeeper.models import League, Night, Player
from scorekeeper.rules.standings import METHOD_NAMES, ordinal, shown
from scorekeeper.web import qr_svg, unless_unchanged

bp = Blueprint("leagues", __name__)
LATEST_GAMES = 30  # games listed on a player's page before "Show all"

View = Callable[..., Any]
# One budget for every way of guessing a passphrase (or a link standing for one), per league
# and address; only refused attempts count.
passphrase_attempts = limiter.shared_limit(
    throttle.PASSPHRASE_LIMIT,
    scope="passphrase",
    key_func=throttle.league_and_client,
    methods=["POST"],
    deduct_when=throttle.refused,
)
# Typing league codes on the join form: a budget per address, whatever the code.
join_attempts = limiter.limit(
    throttle.JOIN_LIMIT, key_func=throttle.client, methods=["POST"], deduct_when=throttle.refused
)


# --------------------------------------------------------------------------------------------
# Loading a league and checking rights


def _league_or_404(code: str) -> League:
    league = services.load_league(code)
    if league is None:
        _missed_lookup()
    return league


def _missed_lookup() -> NoReturn:
    """A league code or public link that leads nowhere: 404, and after too many from one
    address, 429 (guessing codes would find private leagues)."""
    abort(404 if throttle.lookups.spend(throttle.client()) else 429)


def _to_unlock(league: League) -> BaseResponse:
    return redirect(url_for("leagues.unlock", code=league.code, next=request.path))


_LEVELS = {"reader": 1, "scorer": 2, "organiser": 3}
# What a phone without the right needed is told, by the right it lacks (league wording, never
# the single game's "edit code").
_REFUSALS = {
    "scorer": (
        "Keeping score needs the passphrase",
        "This phone can read the league. To keep score at a table, type the league's "
        "passphrase on this phone (ask the organiser), or scan the code on the night's page.",
    ),
    "organiser": (
        "Only the organiser's phone can do this",
        "Nights and their tables, the roster, seasons, imports and the settings are changed on "
        "the organiser's phone. This phone can {can}.",
    ),
}
_CAN = {"reader": "read the league", "scorer": "keep score at the league's tables"}


def _refused(league: League, needed: str, have: str) -> tuple[str, int]:
    title, detail = _REFUSALS[needed]
    page = render_template(
        "error.html",
        code=403,
        title=title,
        detail=detail.format(can=_CAN.get(have, "")),
        back=url_for("leagues.standings", code=league.code),
        back_label=f"Back to {league.name}",
    )
    return page, 403


def league_view(read: str = "reader", write: str = "organiser") -> Callable[[View], View]:
    """Check this phone's right in the league (see access.py): ``read`` for a page (GET),
    ``write`` for a change (POST). A phone without any right is sent to the passphrase page
    (a page) or refused (a change); a phone with a lesser right is told, in the league's
    words, who may do it."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(code: str, **kwargs: Any) -> Any:
            league = _league_or_404(code)
            needed = read if request.method in ("GET", "HEAD") else write
            have = access.level(league)
            if _LEVELS.get(have, 0) < _LEVELS[needed]:
                if not have:
                    if request.method in ("GET", "HEAD"):
                        return _to_unlock(league)
                    abort(403)
                return _refused(league, needed, have)
            g.league = league
            return view(league, **kwargs)

        return wrapped

    return decorate


reader_required = league_view("reader", "reader")
scorer_required = league_view("scorer", "scorer")
organiser_required = league_view("organiser", "organiser")


def _public_league(token: str) -> League:
    league = services.league_by_public_token(token)
    if league is None:
        _missed_lookup()
    g.public_token = token
    g.league = league
    return league


_PUBLIC = {
    "standings": "public_standings",
    "night": "public_night",
    "night_live": "public_night_live",
    "player": "public_player",
}


def league_link(league: League, name: str, **kwargs: Any) -> str:
    """A link to a read-only page: on the public page it stays on the public page."""
    token = g.get("public_token")
    if token:
        return url_for(f"leagues.{_PUBLIC[name]}", token=token, **kwargs)
    return url_for(f"leagues.{name}", code=league.code, **kwargs)


@bp.app_context_processor
def league_helpers() -> dict[str, Any]:
    return {
        "league_link": league_link,
        "members_url": members_url,
        "members_qr_url": members_qr_url,
        "shown": shown,
        "ordinal": ordinal,
        "METHOD_NAMES": METHOD_NAMES,
        "day_text": services.day_text,
        "num": _trim,
    }


def _trim(value: Any) -> str:
    """12.0 -> 12, 10.5 -> 10.5 (placement points read better without a bare .0)."""
    text = str(value)
    return text[:-2] if text.endswith(".0") else text


def _page(template: str, league: League, **context: Any) -> str:
    public = bool(g.get("public_token"))
    level = "" if public else access.level(league)
    return render_template(
        template,
        league=league,
        public=public,
        level=level,
        rights=level in ("scorer", "organiser"),
        organiser=level == "organiser",
        **context,
    )


# --------------------------------------------------------------------------------------------
# Leagues on this phone, creating and joining


@bp.get("/leagues")
def index() -> str:
    device = device_hash() if "device" in session else None
    leagues = services.leagues_for(device, access.remembered_codes())
    mine = [league for league in leagues if access.can_read(league)]
    return render_template("leagues/index.html", leagues=mine)


@bp.route("/leagues/new", methods=["GET", "POST"])
def new_league() -> str | BaseResponse:
    form = NewLeagueForm()
    if form.validate_on_submit():
        try:
            league = services.create_league(
                form.name.data or "", form.passphrase.data or "", device_hash()
            )
        except services.LeagueError as error:
            target = form.name if "name" in str(error) else form.passphrase
            target.errors = [*target.errors, str(error)]
        else:
            flash(f"{league.name} is ready. Add your players, then start a night.", "success")
            return redirect(url_for("leagues.players", code=league.code))
    return _form_page("leagues/new.html", form)


def _form_page(template: str, form: Any, **context: Any) -> Any:
    """A form page; 422 when a posted form was refused, so the status says what happened."""
    status = 422 if request.method == "POST" and (form.errors or context.get("refused")) else 200
    return render_template(template, form=form, **context), status


@bp.route("/leagues/join", methods=["GET", "POST"])
@join_attempts
@passphrase_attempts
def join() -> str | BaseResponse:
    form = JoinForm()
    if form.validate_on_submit():
        code = "".join(ch for ch in form.code.data or "" if ch.isalnum()).upper()
        league = services.load_league(code) if code else None
        if league is None:
            form.code.errors.append("There is no league with that code. Check it and try again.")
        elif not services.passphrase_matches(league, form.passphrase.data or ""):
            form.passphrase.errors.append("That is not the league's passphrase.")
        else:
            access.grant(league)
            flash(f"This phone can now keep score for {league.name}.", "success")
            return redirect(url_for("leagues.standings", code=league.code))
    return _form_page("leagues/join.html", form)


@bp.route("/leagues/<code>/unlock", methods=["GET", "POST"])
@passphrase_attempts
def unlock(code: str) -> str | BaseResponse:
    league = _league_or_404(code)
    form = PassphraseForm()
    if form.validate_on_submit():
        if services.passphrase_matches(league, form.passphrase.data or ""):
            access.grant(league)
            flash(f"This phone can now keep score for {league.name}.", "success")
            target = request.args.get("next", "")
            if not target.startswith(f"/leagues/{league.code}"):
                target = url_for("leagues.standings", code=league.code)
            return redirect(target)
        form.passphrase.errors.append(
            "That is not the league's passphrase. Check it and try again."
        )
    return _form_page("leagues/unlock.html", form, league=league)


@bp.route("/leagues/<code>/welcome/<token>", methods=["GET", "POST"])
@passphrase_attempts
def join_link(code: str, token: str) -> str | BaseResponse:
    """The organiser's QR code: one tap to keep score for the league on this phone."""
    league = _league_or_404(code)
    valid, night_id = access.read_join_token(league, token)
    form = ConfirmForm()
    if valid and form.validate_on_submit():
        access.grant(league)
        flash(f"This phone can now keep score for {league.name}.", "success")
        if night_id is not None:
            return redirect(url_for("leagues.night", code=league.code, night_id=night_id))
        return redirect(url_for("leagues.standings", code=league.code))
    status = 200 if valid else 410
    return render_template("leagues/join_link.html", league=league, form=form, valid=valid), status


@bp.get("/leagues/<code>/members/<token>")
def members_link(code: str, token: str) -> str | BaseResponse | tuple[str, int]:
    """The members' link: this phone may read the league from now on (no tap needed: reading
    changes nothing, and the link is signed)."""
    league = _league_or_404(code)
    if not access.read_members_token(league, token):
        page = render_template(
            "error.html",
            code=410,
            title="This members' link is out of date",
            detail="The league's passphrase has changed since, and with it the members' link. "
            "Ask someone at the club to show you the new one.",
        )
        return page, 410
    if not access.can_read(league):
        access.grant_reading(league)
        flash(f"This phone can now follow {league.name}: standings, nights and players.", "success")
    return redirect(url_for("leagues.standings", code=league.code))


def members_url(league: League) -> str:
    """The members' link of ``league``, to show to everyone at its tables."""
    return url_for(
        "leagues.members_link", code=league.code, token=access.members_token(league), _external=True
    )


def members_qr_url(league: League) -> str:
    return url_for("leagues.members_qr", code=league.code, token=access.members_token(league))


@bp.get("/leagues/<code>/members/<token>/qr.svg")
def members_qr(code: str, token: str) -> Response:
    """The members' link as a QR code: whoever may show the link may show its code."""
    league = _league_or_404(code)
    if not access.read_members_token(league, token):
        abort(404)
    return qr_svg(url_for("leagues.members_link", code=league.code, token=token, _external=True))


@bp.route("/leagues/<code>/organiser/<token>", methods=["GET", "POST"])
@passphrase_attempts
def claim_organiser(code: str, token: str) -> str | BaseResponse:
    """A link from ``flask organiser-link``: this phone becomes the organiser."""
    league = _league_or_404(code)
    valid = access.read_organiser_token(league, token)
    form = ConfirmForm()
    if valid and form.validate_on_submit():
        services.make_organiser(league, device_hash())
        flash(f"This phone is now the organiser of {league.name}.", "success")
        return redirect(url_for("leagues.settings", code=league.code))
    return render_template("leagues/claim_organiser.html", league=league, form=form, valid=valid), (
        200 if valid else 410
    )


@bp.post("/leagues/<code>/forget")
@reader_required
def forget(league: League) -> BaseResponse:
    access.forget(league)
    if access.is_organiser(league):
        flash("This phone organises the league, so it keeps its rights.", "info")
    else:
        flash(f"This phone no longer keeps score for {league.name}.", "success")
    return redirect(url_for("leagues.index"))


# --------------------------------------------------------------------------------------------
# Standings


def _period(league: League) -> tuple[Period, PeriodForm]:
    """The nights the page covers, from ?season= or ?start=&end= (bad dates get a message next
    to the field and the page falls back to the default)."""
    seasons = list(league.seasons)
    form = PeriodForm(request.args)
    form.season.choices = {str(s.id): s.name for s in reversed(seasons)} | {
        "all": "All nights",
        "dates": "The dates below",
    }
    valid = form.validate()
    start, end = (form.start.data, form.end.data) if valid else (None, None)
    if start and end and end < start:
        form.end.errors = [*form.end.errors, "The last day is before the first."]
        start = end = None
    if start or end:
        form.season.data = "dates"
        label = f"{services.day_text(start) if start else 'the start'} to " + (
            services.day_text(end) if end else "today"
        )
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
    return Period(season.starts_on, season.ends_on, f"Season {season.name}"), form


def _standings_page(league: League) -> str:
    period, form = _period(league)
    table = league_table(league, period)
    return _page(
        "leagues/standings.html",
        league,
        period=period,
        period_form=form,
        result=table,
        tonight=services.tonight(league, date.today()) if not g.get("public_token") else None,
        recent=services.recent_nights(league),
    )


@bp.get("/leagues/<code>")
@reader_required
def standings(league: League) -> str:
    return _standings_page(league)


@bp.get("/p/<token>")
def public_standings(token: str) -> str:
    return _standings_page(_public_league(token))


# --------------------------------------------------------------------------------------------
# Nights


@bp.get("/leagues/<code>/nights")
@reader_required
def nights(league: League) -> str:
    return _page("leagues/nights.html", league, nights=services.league_nights(league))


@bp.route("/leagues/<code>/nights/new", methods=["GET", "POST"])
@organiser_required
def new_night(league: League) -> str | BaseResponse:
    form = NightForm()
    if request.method == "GET":
        form.played_on.data = date.today()
        form.place.data = services.last_place(league)
    elif form.validate():
        try:
            night = services.create_night(league, form.played_on.data, form.place.data or "")
        except services.LeagueError as error:
            form.played_on.errors = [*form.played_on.errors, str(error)]
        else:
            flash("Night started. Add the tables.", "success")
            return redirect(url_for("leagues.new_table", code=league.code, night_id=night.id))
    return _league_form("leagues/night_form.html", league, form, night=None)


def _league_form(template: str, league: League, form: Any, **context: Any) -> Any:
    refused = request.method == "POST" and bool(form.errors or context.get("refused"))
    return _page(template, league, form=form, **context), (422 if refused else 200)


def _night_or_404(league: League, night_id: int) -> Night:
    night = services.load_night(league, night_id)
    if night is None:
        abort(404)
    return night


def _night_page(league: League, night_id: int) -> str:
    night = _night_or_404(league, night_id)
    view = night_view(league, night)
    join = None
    if not g.get("public_token") and access.league_rights(league):
        join = url_for(
            "leagues.join_link",
            code=league.code,
            token=access.join_token(league, night.id),
            _external=True,
        )
    return _page("leagues/night.html", league, view=view, join_url=join, form=ConfirmForm())


def _night_live(league: League, night_id: int) -> Response:
    """The live tables of a night; unchanged nights answer 304 without rendering."""
    night = _night_or_404(league, night_id)
    view = night_view(league, night)
    return unless_unchanged(
        view.version,
        lambda: _page("leagues/_night_live.html", league, view=view, form=ConfirmForm()),
    )


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
    return _night_page(_public_league(token), night_id)


@bp.get("/p/<token>/nights/<int:night_id>/live")
def public_night_live(token: str, night_id: int) -> Response:
    return _night_live(_public_league(token), night_id)


@bp.route("/leagues/<code>/nights/<int:night_id>/edit", methods=["GET", "POST"])
@organiser_required
def edit_night(league: League, night_id: int) -> str | BaseResponse:
    night = _night_or_404(league, night_id)
    form = NightForm(obj=night if request.method == "GET" else None)
    if request.method == "POST" and form.validate():
        try:
            services.update_night(night, form.played_on.data, form.place.data or "")
        except services.LeagueError as error:
            form.played_on.errors = [*form.played_on.errors, str(error)]
        else:
            flash("Night changed.", "success")
            return redirect(url_for("leagues.night", code=league.code, night_id=night.id))
    return _league_form("leagues/night_form.html", league, form, night=night)


@bp.post("/leagues/<code>/nights/<int:night_id>/delete")
@organiser_required
def delete_night(league: League, night_id: int) -> BaseResponse:
    night = _night_or_404(league, night_id)
    try:
        services.delete_night(league, night)
    except services.LeagueError as error:
        flash(str(error), "error")
        return redirect(url_for("leagues.night", code=league.code, night_id=night_id))
    flash("Night deleted.", "success")
    return redirect(url_for("leagues.nights", code=league.code))


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
                    form.players.data or [],
                    guests,
                    device_hash(),
                )
            except services.LeagueError as error:
                form.form_errors.append(str(error))
                refused = True
            else:
                flash(f"{game.table_name} is ready.", "success")
                return redirect(url_for("leagues.night", code=league.code, night_id=night.id))
    return _league_form(
        "leagues/table_form.html",
        league,
        form,
        night=night,
        players=players,
        busy=busy,
        guests=guests,
        chosen=set(form.players.data or []),
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


# --------------------------------------------------------------------------------------------
# Players


@bp.get("/leagues/<code>/players")
@reader_required
def players(league: League) -> str:
    return _players_page(league, PlayerForm())


def _players_page(league: League, form: PlayerForm, several: list[str] | None = None) -> Any:
    counts = services.roster_counts(league)
    everyone = [p for p in services.league_players(league) if p.merged_into_id is None]
    everyone.sort(key=lambda p: p.name.casefold())
    return _league_form(
        "leagues/players.html", league, form, everyone=everyone, counts=counts, several=several
    )


@bp.post("/leagues/<code>/players/new")
@organiser_required
def add_player(league: League) -> str | BaseResponse:
    """Add a player. "Alice, Boris" is asked about first: two players, or one name with a
    comma (the answer is the ``split`` button)."""
    form = PlayerForm()
    if form.validate():
        typed = form.name.data or ""
        several = services.split_names(typed)
        split = request.form.get("split", "")
        if several and split not in ("yes", "no"):
            return _players_page(league, form, several)
        added: list[str] = []
        for name in several if several and split == "yes" else [typed]:
            try:
                added.append(services.add_player(league, name).name)
            except services.LeagueError as error:
                form.name.errors = [*form.name.errors, str(error)]
        if added:
            flash(
                f"{' and '.join(added)} {'is' if len(added) == 1 else 'are'} on the roster.",
                "success",
            )
        if not form.name.errors:
            return redirect(url_for("leagues.players", code=league.code))
    return _players_page(league, form)


def _player_or_404(league: League, player_id: int) -> Player:
    player = services.find_player(league, player_id)
    if player is None:
        abort(404)
    return player


def _player_page(league: League, player_id: int) -> str | BaseResponse:
    player = _player_or_404(league, player_id)
    if player.merged_into_id is not None:
        return redirect(league_link(league, "player", player_id=services.surviving(player).id))
    period, form = _period(league)
    report = player_report(league, player, period)
    chart = (
        totals_over_time(
            report.chart_points, f"{player.name}'s game totals, {period.label.lower()}"
        )
        if len(report.chart_points) >= 2
        else None
    )
    aliases = [
        p.name
        for p in services.league_players(league)
        if p.merged_into_id == player.id and p.name.casefold() != player.name.casefold()
    ]
    return _page(
        "leagues/player.html",
        league,
        player=player,
        report=report,
        period=period,
        period_form=form,
        chart=chart,
        aliases=aliases,
        show_all_games=request.args.get("games") == "all",
        latest_games=LATEST_GAMES,
        # One url_for for every row of the games list (a long list for a regular).
        scoreboard_url=url_for("games.scoreboard", public_id="GAME"),
    )


@bp.get("/leagues/<code>/players/<int:player_id>")
@reader_required
def player(league: League, player_id: int) -> str | BaseResponse:
    return _player_page(league, player_id)


@bp.get("/p/<token>/players/<int:player_id>")
def public_player(token: str, player_id: int) -> str | BaseResponse:
    return _player_page(_public_league(token), player_id)


@bp.route("/leagues/<code>/players/<int:player_id>/edit", methods=["GET", "POST"])
@organiser_required
def edit_player(league: League, player_id: int) -> str | BaseResponse:
    player = _player_or_404(league, player_id)
    if player.merged_into_id is not None:
        abort(404)
    form = EditPlayerForm()
    if request.method == "GET":
        form.name.data = player.name
        form.guest.data = player.is_guest
    elif form.validate():
        try:
            services.edit_player(league, player, form.name.data or "", bool(form.guest.data))
        except services.LeagueError as error:
            form.name.errors = [*form.name.errors, str(error)]
        else:
            flash(f"Saved. Every game shows {player.name} now.", "success")
            return redirect(url_for("leagues.player", code=league.code, player_id=player.id))
    return _league_form(
        "leagues/player_edit.html",
        league,
        form,
        player=player,
        games=services.player_games(player),
        delete_form=ConfirmForm(),
    )


@bp.post("/leagues/<code>/players/<int:player_id>/delete")
@organiser_required
def delete_player(league: League, player_id: int) -> str | BaseResponse:
    player = _player_or_404(league, player_id)
    if player.merged_into_id is not None:
        abort(404)
    name = player.name
    try:
        services.delete_player(league, player)
    except services.LeagueError as error:
        flash(str(error), "error")
        return redirect(url_for("leagues.edit_player", code=league.code, player_id=player_id))
    flash(f"{name} is no longer on the roster.", "success")
    return redirect(url_for("leagues.players", code=league.code))


@bp.route("/leagues/<code>/players/<int:player_id>/merge", methods=["GET", "POST"])
@organiser_required
def merge_player(league: League, player_id: int) -> str | BaseResponse:
    source = _player_or_404(league, player_id)
    if source.merged_into_id is not None:
        abort(404)
    others = [
        p for p in services.league_players(league) if p.merged_into_id is None and p.id != source.id
    ]
    others.sort(key=lambda p: p.name.casefold())
    form = MergeForm()
    form.target.choices = {"": "Choose a player"} | {str(p.id): p.name for p in others}
    plan = None
    refused = False
    if request.method == "POST" and form.validate():
        target = next((p for p in others if str(p.id) == form.target.data), None)
        if target is None:
            form.target.errors = [*form.target.errors, "Choose a player from the list."]
        else:
            try:
                if form.confirm.data == "yes":
                    moved = services.merge_players(league, source, target)
                    flash(
                        f"Merged: {moved} game{'s' if moved != 1 else ''} of {source.name} "
                        f"now count for {target.name}.",
                        "success",
                    )
                    return redirect(
                        url_for("leagues.player", code=league.code, player_id=target.id)
                    )
                plan = services.merge_plan(league, source, target)
                refused = bool(plan.clashes)
            except services.LeagueError as error:
                form.target.errors = [*form.target.errors, str(error)]
    return _league_form(
        "leagues/player_merge.html", league, form, player=source, plan=plan, refused=refused
    )


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
            flash(f"Season {season.name} added.", "success")
            return redirect(url_for("leagues.seasons", code=league.code))
    return _league_form("leagues/seasons.html", league, form, delete_form=ConfirmForm())


@bp.post("/leagues/<code>/seasons/<int:season_id>/delete")
@organiser_required
def delete_season(league: League, season_id: int) -> BaseResponse:
    try:
        services.delete_season(league, season_id)
    except services.LeagueError:
        abort(404)
    flash("Season deleted. No games were touched.", "success")
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
    return _page(
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
            services.update_settings(league, form.name.data or "", method, rules)
        except (ValueError, services.LeagueError) as error:
            if not form.errors:
                form.form_errors.append(str(error))
        else:
            flash("Settings saved.", "success")
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
            flash("New passphrase saved. Other phones must type it again to keep score.", "success")
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
        flash("The public page is on: anyone with its link can read the standings.", "success")
    elif action == "new_link":
        services.set_public_page(league, True, new_link=True)
        flash("The public page has a new link; the old one no longer works.", "success")
    elif action == "off":
        services.set_public_page(league, False)
        flash("The public page is off.", "success")
    else:
        abort(400)
    return redirect(url_for("leagues.settings", code=league.code) + "#public")


@bp.get("/p/<token>/qr.svg")
def public_qr(token: str) -> Response:
    league = _public_league(token)
    return qr_svg(
        url_for("leagues.public_standings", token=league.public_token, _external=True), 3600
    )


# --------------------------------------------------------------------------------------------
# Export and import


def _file_stem(league: League) -> str:
    safe = "".join(ch if ch.isalnum() else "-" for ch in league.name.lower()).strip("-")
    return f"{safe or 'league'}-{date.today().isoformat()}"


@bp.get("/leagues/<code>/manage")
@reader_required
def manage(league: League) -> str:
    """The league tab: how phones join, seasons, export and import, settings, signing out."""
    return _page("leagues/manage.html", league, form=ConfirmForm())


@bp.get("/leagues/<code>/export.json")
@reader_required
def export_json(league: League) -> Response:
    body = json.dumps(transfer.export_document(league), ensure_ascii=False, indent=1)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{_file_stem(league)}.json"'},
    )


@bp.get("/leagues/<code>/export.zip")
@reader_required
def export_zip(league: League) -> Response:
    return Response(
        transfer.export_zip(league),
        mimetype="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{_file_stem(league)}.zip"'},
    )


@bp.route("/leagues/<code>/import", methods=["GET", "POST"])
@organiser_required
def import_file(league: League) -> Any:
    form = ImportForm()
    plan = None
    if request.method == "POST" and form.validate():
        upload = form.file.data
        if upload is None or not getattr(upload, "filename", ""):
            form.file.errors = [*form.file.errors, "Choose a CSV file to import."]
        else:
            content = upload.read(transfer.MAX_IMPORT_BYTES + 1)
            plan = transfer.read_upload(
                league, upload.filename, content, form.dates.data == "month_first"
            )
            if plan.fatal:
                form.file.errors = [*form.file.errors, plan.fatal]
                plan = None
            elif not plan.problems:
                token = transfer.save_pending(league, content, upload.filename)
                confirm = ImportConfirmForm(formdata=None)
                confirm.token.data = f"{token}:{form.dates.data}"
                return _page("leagues/import_preview.html", league, plan=plan, form=confirm)
    refused = request.method == "POST"
    return _page("leagues/import.html", league, form=form, plan=plan), (422 if refused else 200)


@bp.post("/leagues/<code>/import/confirm")
@organiser_required
def import_confirm(league: League) -> Any:
    form = ImportConfirmForm()
    if not form.validate():
        abort(400)
    token, _, dates = (form.token.data or "").partition(":")
    if not transfer.start_confirmed_import(league, token):
        flash("That file was already imported (from this phone or another one).", "info")
        return redirect(url_for("leagues.nights", code=league.code))
    pending = transfer.load_pending(league, token)
    if pending is None:
        flash("That import has expired. Please choose the file again.", "error")
        return redirect(url_for("leagues.import_file", code=league.code))
    filename, content = pending
    plan = transfer.read_upload(league, filename, content, dates == "month_first")
    if plan.fatal or plan.problems:
        retry = ImportForm(formdata=None)
        return _page("leagues/import.html", league, form=retry, plan=plan), 422
    written = transfer.apply_import(league, plan, device_hash(), token, filename)
    transfer.drop_pending(league, token)
    flash(
        f"Imported {written.games} game{'s' if written.games != 1 else ''} "
        f"on {len(plan.nights)} night{'s' if len(plan.nights) != 1 else ''} "
        f"({written.scores} round scores).",
        "success",
    )
    return redirect(url_for("leagues.nights", code=league.code))

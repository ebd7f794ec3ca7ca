"""The league's players: the roster, adding (one or several), a player's page, editing,
deleting, merging two entries."""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response as BaseResponse
from wtforms import SelectChoice

from scorekeeper.leagues import services
from scorekeeper.leagues.forms import (
    ConfirmForm,
    EditPlayerForm,
    MergeForm,
    PlayerForm,
)
from scorekeeper.leagues.standings import player_report
from scorekeeper.leagues.views.common import (
    and_list,
    bp,
    league_form_page,
    league_link,
    league_page,
    organiser_required,
    public_league,
    reader_required,
)
from scorekeeper.leagues.views.standings import period_of
from scorekeeper.models import League, Player
from scorekeeper.web.charts import totals_over_time

LATEST_GAMES = 30  # games listed on a player's page before "Show all"


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
    return league_form_page(
        "leagues/players.html", league, form, everyone=everyone, counts=counts, several=several
    )


@bp.post("/leagues/<code>/players/new")
@organiser_required
def add_player(league: League) -> str | BaseResponse:
    """Add a player, or several: one name a line. One line like "Alice, Boris" is asked about
    first: two players, or one name with a comma (the answer is the ``split`` button). Names
    are added all together or not at all; what was typed stays on a refusal."""
    form = PlayerForm()
    if form.validate():
        names = form.names()
        if len(names) == 1:
            several = services.split_names(names[0])
            split = request.form.get("split", "")
            if several and split not in ("yes", "no"):
                return _players_page(league, form, several)
            if several and split == "yes":
                names = several
        try:
            added = [player.name for player in services.add_players(league, names)]
        except services.NamesRefused as refused:
            form.name.errors = [*form.name.errors, *refused.problems]
        else:
            flash(
                ngettext(
                    "%(names)s is on the roster.",
                    "%(names)s are on the roster.",
                    len(added),
                    names=and_list(added),
                ),
                "success",
            )
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
    period, form = period_of(league)
    report = player_report(league, player, period)
    chart = (
        totals_over_time(
            report.chart_points,
            _("%(name)s's game totals, %(period)s", name=player.name, period=period.in_words),
        )
        if len(report.chart_points) >= 2
        else None
    )
    aliases = [
        p.name
        for p in services.league_players(league)
        if p.merged_into_id == player.id and p.name.casefold() != player.name.casefold()
    ]
    return league_page(
        "leagues/player.html",
        league,
        player=player,
        report=report,
        period=period,
        period_form=form,
        chart=chart,
        aliases=aliases,
        show_all_games=request.args.get("games") == "all",
        show_all_url=_show_all_url(league, player),
        latest_games=LATEST_GAMES,
        # One url_for for every row of the games list (a long list for a regular).
        scoreboard_url=url_for("games.scoreboard", public_id="GAME"),
    )


# What the player page reads from its query string (the period, see ``period_of``): the
# "Show all games" link keeps these and nothing else; any other parameter (``code=``,
# ``_external=``...) would reach ``url_for`` as an argument of its own.
_PERIOD_ARGS = ("season", "start", "end")


def _show_all_url(league: League, player: Player) -> str:
    kept = {name: request.args[name] for name in _PERIOD_ARGS if request.args.get(name)}
    return league_link(league, "player", player_id=player.id, games="all", **kept)


@bp.get("/leagues/<code>/players/<int:player_id>")
@reader_required
def player(league: League, player_id: int) -> str | BaseResponse:
    return _player_page(league, player_id)


@bp.get("/p/<token>/players/<int:player_id>")
def public_player(token: str, player_id: int) -> str | BaseResponse:
    return _player_page(public_league(token), player_id)


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
            flash(_("Saved. Every game shows %(name)s now.", name=player.name), "success")
            return redirect(url_for("leagues.player", code=league.code, player_id=player.id))
    return league_form_page(
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
    flash(_("%(name)s is no longer on the roster.", name=name), "success")
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
    form.target.choices = [
        SelectChoice("", _("Choose a player")),
        *(SelectChoice(str(p.id), p.name) for p in others),
    ]
    plan = None
    refused = False
    if request.method == "POST" and form.validate():
        target = next((p for p in others if str(p.id) == form.target.data), None)
        if target is None:
            form.target.errors = [*form.target.errors, _("Choose a player from the list.")]
        else:
            try:
                if form.confirm.data == "yes":
                    moved = services.merge_players(league, source, target)
                    flash(
                        ngettext(
                            "Merged: %(num)s game of %(source)s now counts for %(target)s.",
                            "Merged: %(num)s games of %(source)s now count for %(target)s.",
                            moved,
                            source=source.name,
                            target=target.name,
                        ),
                        "success",
                    )
                    return redirect(
                        url_for("leagues.player", code=league.code, player_id=target.id)
                    )
                plan = services.merge_plan(league, source, target)
                refused = bool(plan.clashes)
            except services.LeagueError as error:
                form.target.errors = [*form.target.errors, str(error)]
    return league_form_page(
        "leagues/player_merge.html", league, form, player=source, plan=plan, refused=refused
    )

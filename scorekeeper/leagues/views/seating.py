"""Seat tonight's tables (organiser): tick who is here, see tables that mix the club with how
often each pair has met, swap two players, start the tables; put a late arrival at a table.

Without JavaScript every step is a button of one form: "Propose tables", "Swap", "Start these
tables". The proposal travels in the form with what it was based on; starting it is refused
when the night or who is here changed meanwhile (services.seating)."""

from __future__ import annotations

import json
from typing import Any

from flask import flash, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.leagues import seating
from scorekeeper.leagues.forms import GUEST_FIELDS, LateForm, SeatForm
from scorekeeper.leagues.setup import LeagueError
from scorekeeper.leagues.views.common import bp, league_form_page, organiser_required
from scorekeeper.leagues.views.nights import _night_or_404
from scorekeeper.models import League, Night
from scorekeeper.web.devices import device_hash


def _sent_keys(text: str | None) -> list[Any]:
    """A list the page sent back in a hidden field (JSON); [] when missing or not a list."""
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def _sent_tables(form: SeatForm) -> list[list[str]]:
    tables = _sent_keys(form.tables.data)
    if not all(isinstance(t, list) and all(isinstance(k, str) for k in t) for t in tables):
        return []
    return tables


@bp.route("/leagues/<code>/nights/<int:night_id>/seat", methods=["GET", "POST"])
@organiser_required
def seat_tables(league: League, night_id: int) -> Any:
    night = _night_or_404(league, night_id, rounds=False)
    choices = seating.seat_choices(league, night)
    form = SeatForm()
    free = {p.id: p.name for p in choices.players if p.id not in choices.busy}
    form.players.choices = free
    guests = [""] * GUEST_FIELDS
    if request.method == "GET":
        form.players.data = [p for p in free if p in choices.last_night]
        return _page(league, night, form, choices, guests)
    guests = form.guest_names(request.form)
    if not form.validate():
        return _page(league, night, form, choices, guests)
    # A player seated at another table meanwhile is here no more (the list shows them busy).
    form.players.data = [p for p in form.players.data or [] if p in free]
    try:
        present = seating.present_keys(league, form.players.data, guests, choices.busy)
    except LeagueError as error:
        form.form_errors.append(str(error))
        return _page(league, night, form, choices, guests)
    action = request.form.get("action", "propose")
    tables = _sent_tables(form)
    if action == "propose" or not tables:
        return _propose(league, night, form, choices, guests, present)
    sent = _sent_keys(form.present.data)
    if action == "start" and seating.started_already(league, night, tables):
        flash(_("These tables have started already."), "success")  # the same form sent twice
        return redirect(url_for("leagues.night", code=league.code, night_id=night.id))
    if sorted(sent) != sorted(present):
        stale = _("Who is here changed since these tables were proposed: nothing was started.")
        if any(key == seating.member_key(p) for p in choices.busy for key in sent):
            stale = _(
                "Some of these players were seated at another table meanwhile: nothing was started."
            )
        return _page(league, night, form, choices, guests, tables=tables, stale=stale)
    try:
        tables = seating.check_tables(tables, present)
        if action == "swap":
            tables = seating.swap(tables, request.form.getlist("pick"), present)
            return _page(league, night, form, choices, guests, tables=tables)
        started = seating.start_seating(
            league, night, present, tables, form.basis.data or "", device_hash()
        )
    except seating.SeatingDone as done:
        flash(str(done), "success")
        return redirect(url_for("leagues.night", code=league.code, night_id=night.id))
    except seating.SeatingStale as stale:
        return _page(league, night, form, choices, guests, tables=tables, stale=str(stale))
    except LeagueError as error:
        form.form_errors.append(str(error))
        return _page(league, night, form, choices, guests, tables=tables, refused=True)
    count = len(started)
    flash(ngettext("%(num)s table started.", "%(num)s tables started.", count), "success")
    return redirect(url_for("leagues.night", code=league.code, night_id=night.id))


def _propose(
    league: League,
    night: Night,
    form: SeatForm,
    choices: seating.SeatChoices,
    guests: list[str],
    present: list[str],
) -> Any:
    try:
        tables = seating.propose(
            league, night, present, form.size.data or 4, bool(form.strong.data)
        )
    except LeagueError as error:
        form.form_errors.append(str(error))
        return _page(league, night, form, choices, guests, refused=True)
    form.basis.data = seating.night_basis(night, present)
    return _page(league, night, form, choices, guests, tables=tables)


def _page(
    league: League,
    night: Night,
    form: SeatForm,
    choices: seating.SeatChoices,
    guests: list[str],
    tables: list[list[str]] | None = None,
    stale: str = "",
    refused: bool = False,
) -> Any:
    """The page, with the proposed ``tables`` (and what they were based on) when there are."""
    keys = [key for table in tables or [] for key in table]
    names = seating.key_names(league, keys)
    if any(key not in names for key in keys):  # tables the page never showed
        form.form_errors.append(_("These tables do not match who is here: propose them again."))
        tables, keys, stale, refused = None, [], "", True
    if tables:
        form.tables.data = json.dumps(tables)
        if not stale:
            form.present.data = json.dumps(keys)
    history = seating.night_history(league, night) if tables else []
    late = LateForm(formdata=None)
    late.player.choices = {0: "—"} | {
        p.id: p.name for p in choices.players if p.id not in choices.busy
    }
    page, status = league_form_page(
        "leagues/seat.html",
        league,
        form,
        night=night,
        players=choices.players,
        busy=choices.busy,
        chosen=set(form.players.data or []),
        guests=guests,
        tables=tables or [],
        names=names,
        met=seating.met_before(tables or [], history),
        table_names=_table_names(night, len(tables or [])),
        stale=stale,
        refused=refused or bool(stale),
        late=late,
        playing=[game for game in night.games if game.status == "playing"],
    )
    return page, (409 if stale else status)


def _table_names(night: Night, count: int) -> list[str]:
    """The names the proposed tables will get: the night's next free "Table n"."""
    taken = {(game.table_name or "").casefold() for game in night.games}
    names, number = [], 1
    while len(names) < count:
        name = _("Table %(n)s", n=number)
        if name.casefold() not in taken:
            names.append(name)
        number += 1
    return names


@bp.post("/leagues/<code>/nights/<int:night_id>/late")
@organiser_required
def seat_late(league: League, night_id: int) -> BaseResponse:
    """A late arrival sits down where they have met the fewest people."""
    night = _night_or_404(league, night_id, rounds=False)
    form = LateForm()
    back = redirect(url_for("leagues.seat_tables", code=league.code, night_id=night.id))
    if not form.validate():
        for errors in form.errors.values():
            for error in errors:
                flash(str(error), "error")
        return back
    try:
        guest = [form.guest.data] if form.guest.data and not form.player.data else []
        picked = [form.player.data] if form.player.data else []
        if not picked and not guest:
            raise LeagueError(_("Choose who arrived, or type a guest's name."))
        (key,) = seating.present_keys(league, picked, guest)
        game, seat = seating.seat_late(league, night, key, device_hash())
    except LeagueError as error:
        flash(str(error), "error")
        return back
    flash(
        _(
            "%(name)s joins %(table)s from round %(n)s, starting with %(points)s points.",
            name=seat.player.name,
            table=game.table_name,
            n=seat.joined_round,
            points=seat.start_total,
        ),
        "success",
    )
    return redirect(url_for("leagues.night", code=league.code, night_id=night.id))

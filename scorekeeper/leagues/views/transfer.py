"""Getting a league's data out (JSON, .zip of CSV files) and in (import, then confirm)."""

from __future__ import annotations

import json
from datetime import date
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
from flask_babel import ngettext
from markupsafe import Markup

from scorekeeper.extensions import limiter
from scorekeeper.leagues import transfer
from scorekeeper.leagues.forms import (
    ConfirmForm,
    ImportConfirmForm,
    ImportForm,
)
from scorekeeper.leagues.views.common import (
    bp,
    league_page,
    not_the_organiser,
    organiser_required,
    reader_required,
)
from scorekeeper.models import League
from scorekeeper.rules.games import VARIANTS, default_game
from scorekeeper.web import rate_limits
from scorekeeper.web.devices import device_hash
from scorekeeper.web.responses import attachment

# --------------------------------------------------------------------------------------------
# Export and import


def _file_stem(league: League) -> str:
    return f"{league.name or _('league')} {date.today().isoformat()}"


@bp.get("/leagues/<code>/manage")
@reader_required
def manage(league: League) -> str:
    """The league tab: how phones join, seasons, export and import, settings, signing out."""
    return league_page("leagues/manage.html", league, form=ConfirmForm())


@bp.get("/leagues/<code>/export.json")
@reader_required
def export_json(league: League) -> Response:
    body = json.dumps(transfer.export_document(league), ensure_ascii=False, indent=1)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": attachment(_file_stem(league), "json")},
    )


@bp.get("/leagues/<code>/export.zip")
@reader_required
def export_zip(league: League) -> Response:
    return Response(
        transfer.export_zip(league),
        mimetype="application/zip",
        headers={"Content-Disposition": attachment(_file_stem(league), "zip")},
    )


@bp.route("/leagues/<code>/import", methods=["GET", "POST"])
@limiter.limit(
    rate_limits.IMPORT_LIMIT,
    key_func=rate_limits.client,
    methods=["POST"],
    exempt_when=not_the_organiser,
    on_breach=rate_limits.explain(rate_limits.BUSY_IMPORTS),
)
@limiter.limit(
    rate_limits.IMPORT_LIMIT,
    key_func=rate_limits.league_cap_key,
    methods=["POST"],
    exempt_when=not_the_organiser,
    on_breach=rate_limits.explain(rate_limits.BUSY_LEAGUE_IMPORTS),
)
@limiter.limit(
    rate_limits.IMPORT_LIMIT,
    key_func=lambda: f"phone:{device_hash()}",
    methods=["POST"],
    exempt_when=not_the_organiser,
    on_breach=rate_limits.explain(rate_limits.BUSY_LEAGUE_IMPORTS),
)
@organiser_required
def import_file(league: League) -> Any:
    form = ImportForm()
    plan = None
    if request.method == "POST" and form.validate():
        upload = form.file.data
        if upload is None or not getattr(upload, "filename", ""):
            form.file.errors = [
                *form.file.errors,
                _("Choose the file to import: a CSV file, or a league's .zip or .json export."),
            ]
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
                return league_page("leagues/import_preview.html", league, plan=plan, form=confirm)
    refused = request.method == "POST"
    return league_page(
        "leagues/import.html", league, form=form, plan=plan, game_kinds=_game_kinds()
    ), (422 if refused else 200)


def _game_kinds() -> dict[str, Any]:
    """The names a ``kind`` column takes, for the import page: the default game's (an empty
    cell), then the others, each as code."""
    default = default_game().name
    others = (name for name in VARIANTS if name != default)
    return {
        "default": default,
        "others": Markup(", ").join(Markup("<code>{}</code>").format(name) for name in others),
    }


@bp.post("/leagues/<code>/import/confirm")
@organiser_required
def import_confirm(league: League) -> Any:
    form = ImportConfirmForm()
    if not form.validate():
        abort(400)
    token, _sep, dates = (form.token.data or "").partition(":")
    if not transfer.start_confirmed_import(league, token):
        flash(_("That file was already imported (from this phone or another one)."), "info")
        return redirect(url_for("leagues.nights", code=league.code))
    pending = transfer.load_pending(league, token)
    if pending is None:
        flash(_("That import has expired. Please choose the file again."), "error")
        return redirect(url_for("leagues.import_file", code=league.code))
    filename, content = pending
    plan = transfer.read_upload(league, filename, content, dates == "month_first")
    if plan.fatal or plan.problems:
        retry = ImportForm(formdata=None)
        return league_page(
            "leagues/import.html", league, form=retry, plan=plan, game_kinds=_game_kinds()
        ), 422
    written = transfer.apply_import(league, plan, device_hash(), token, filename)
    transfer.drop_pending(league, token)
    flash(
        _(
            "Imported %(games)s on %(nights)s (%(scores)s round scores).",
            games=ngettext("%(num)s game", "%(num)s games", written.games),
            nights=ngettext("%(num)s night", "%(num)s nights", len(plan.nights)),
            scores=written.scores,
        ),
        "success",
    )
    return redirect(url_for("leagues.nights", code=league.code))

"""The table view and what the scorekeeper does from it: unlock with the edit code, the
scoreboard, undo, delete, finish, reopen, the summary and the CSV."""

from __future__ import annotations

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.extensions import limiter
from scorekeeper.games import access, guess_limits, services, trash
from scorekeeper.games.forms import (
    EditCodeForm,
    JoinForm,
)
from scorekeeper.games.views.common import (
    bp,
    editor_required,
    game_or_404,
    game_row_or_404,
    may_play_again,
)
from scorekeeper.games.words import round_words
from scorekeeper.models import Game
from scorekeeper.rules.games import higher_wins
from scorekeeper.web import devices, rate_limits
from scorekeeper.web.charts import line_chart
from scorekeeper.web.outside_text import csv_text
from scorekeeper.web.responses import safe_next

# --------------------------------------------------------------------------------------------
# The table view and the edit code


@bp.get("/g/<public_id>")
def table(public_id: str) -> str:
    game = game_row_or_404(public_id)
    loaded = services.load(game)
    editor = access.can_edit(game)
    last_seat, joiner_start = (
        (loaded.rows.seats[-1].name, services.joiner_start(loaded)) if editor else ("", 0)
    )
    return render_template(
        "games/table.html",
        game=game,
        state=services.table_state(loaded),
        board=services.scoreboard(loaded),
        editor=editor,
        join_form=JoinForm(),
        last_seat=last_seat,
        joiner_start=joiner_start,
        may_change_code=editor and access.may_change_code(game),
        code_right_only=editor and access.edit_code_right_only(game),
        edit_right_hours=access.EDIT_RIGHT_HOURS,
    )


@bp.post("/g/<public_id>/join")
@editor_required
def join(game: Game) -> BaseResponse:
    """A player sits down at the running game from the next round on."""
    form = JoinForm()
    if not form.validate():
        for errors in form.errors.values():
            for error in errors:
                flash(str(error), "error")
        return redirect(url_for("games.table", public_id=game.public_id))
    try:
        seat = services.join_game(services.load(game), form.name.data or "")
    except services.GameError as error:
        flash(str(error), "error")
    else:
        values = {"name": seat.player.name, "n": seat.joined_round, "points": seat.start_total}
        if game.night_id is not None and seat.player.is_guest:
            # A name not on the league's roster plays as a guest: said at once, so a
            # misspelt member is noticed at the table (README "Who may do what").
            message = _(
                "%(name)s joins from round %(n)s as a guest, starting with %(points)s points: "
                "not on the league's roster, so not ranked.",
                **values,
            )
        else:
            message = _(
                "%(name)s joins from round %(n)s, starting with %(points)s points.", **values
            )
        flash(message, "success")
    return redirect(url_for("games.table", public_id=game.public_id))


@bp.route("/g/<public_id>/unlock", methods=["GET", "POST"])
@limiter.limit(
    rate_limits.EDIT_CODE_LIMIT,
    key_func=guess_limits.game_and_client,
    methods=["POST"],
    deduct_when=rate_limits.refused,
    exempt_when=guess_limits.holds_the_game,
)
@limiter.limit(
    rate_limits.GUESS_CAP,
    key_func=guess_limits.game_cap_key,
    methods=["POST"],
    deduct_when=rate_limits.refused,
    exempt_when=guess_limits.holds_the_game,
    on_breach=rate_limits.explain(rate_limits.GAME_CAP),
)
def unlock(public_id: str) -> str | BaseResponse:
    game = game_or_404(public_id)
    form = EditCodeForm()
    if form.validate_on_submit():
        if access.unlock(game, form.code.data or ""):
            flash(_("This phone can now keep score for this game."), "success")
            target = safe_next(request.args.get("next", ""), f"/g/{game.public_id}")
            return redirect(target or url_for("games.table", public_id=game.public_id))
        form.code.errors.append(_("That is not this game's edit code. Check it and try again."))
    return render_template(
        "games/unlock.html",
        game=game,
        form=form,
        lapsed=access.lapsed_right(game),
        hours=access.EDIT_RIGHT_HOURS,
    )


@bp.route("/g/<public_id>/edit-code", methods=["GET", "POST"])
@editor_required
def change_edit_code(game: Game) -> str | BaseResponse:
    """The creator (the organiser, for a league table) gives the game a new edit code, after
    one confirmation: every phone that typed the old one stops keeping score."""
    if not access.may_change_code(game):
        return render_template("games/edit_code.html", game=game, allowed=False), 403
    if request.method == "POST":
        access.change_code(game)
        flash(
            _(
                "The game has a new edit code. Phones that typed the old one no longer keep score:"
                " show the new code to those that should."
            ),
            "success",
        )
        return redirect(url_for("games.table", public_id=game.public_id, _anchor="share"))
    return render_template("games/edit_code.html", game=game, allowed=True)


@bp.post("/g/<public_id>/forget")
def forget(public_id: str) -> BaseResponse:
    """This phone stops keeping score for the game: its edit-code right goes, and the phone
    clears the pages, drafts and unsent rounds it kept of it (offline.js, on the next page)."""
    game = game_row_or_404(public_id)
    access.forget_game(game)
    if access.can_edit(game):
        flash(
            _(
                "This phone started this game (or keeps score for its league), so it keeps its"
                " right. What it kept of the game for use without signal was cleared."
            ),
            "info",
        )
    else:
        flash(
            _(
                "This phone no longer keeps score for this game. What it kept of it for use"
                " without signal was cleared."
            ),
            "success",
        )
    return redirect(url_for("games.table", public_id=game.public_id))


# --------------------------------------------------------------------------------------------
# Scoreboard, corrections, the end


def _chart(loaded: services.LoadedGame, board: services.Scoreboard) -> Markup:
    """The running totals; the caption says which way is better in this game (the highest
    total wins the points games and arrivals scoring) and what a round is called."""
    game, words = loaded.game, round_words(loaded.variant.round_word)
    if higher_wins(game.kind, game.rules):
        caption = _("Running totals after each %(round)s (higher is better)", round=words.one)
    else:
        caption = _("Running totals after each %(round)s (lower is better)", round=words.one)
    labels = ["0"] + [str(row.number) for row in board.rows]
    return line_chart(board.series, labels, caption, x_label=words.One, y_label=_("Total"))


@bp.get("/g/<public_id>/scoreboard")
def scoreboard(public_id: str) -> str:
    """The scoreboard, the rules in play, the corrections and the chart."""
    game = game_row_or_404(public_id, correction_flag=True)
    loaded = services.load(game)
    board = services.scoreboard(loaded)
    corrections, undo_batch = services.corrections_shown(loaded)
    return render_template(
        "games/scoreboard.html",
        game=game,
        board=board,
        rules_in_play=list(loaded.variant.in_play(loaded.rules)),
        editor=access.can_edit(game),
        corrections=corrections,
        undo_batch=undo_batch,
        chart=_chart(loaded, board),
    )


@bp.route("/g/<public_id>/undo", methods=["GET", "POST"])
@editor_required
def undo(game: Game) -> str | BaseResponse:
    """Undo the last correction after one confirmation (a page, so it works without
    JavaScript): the page lists the values that go back; "Undo it" posts the batch it shows."""
    loaded = services.load(game)
    if request.method == "GET":
        corrections, undo_batch = services.corrections_shown(loaded)
        if undo_batch is None:
            flash(_("There is no correction to undo."), "info")
            return redirect(url_for("games.scoreboard", public_id=game.public_id))
        changes = [c for c in corrections if c.batch == undo_batch and c.undone_at is None]
        return render_template("games/undo.html", game=game, batch=undo_batch, changes=changes)
    batch = request.form.get("batch", "")
    try:
        changes = services.undo_last_correction(loaded, int(batch) if batch.isdigit() else None)
    except services.GameError as error:
        flash(str(error), "info")
    else:
        number = changes[0].round_number
        flash(
            _(
                "Undone: the last correction of round %(n)s. To change it again, tap round "
                "%(n)s below.",
                n=number,
            ),
            "success",
        )
    return redirect(url_for("games.scoreboard", public_id=game.public_id))


@bp.route("/g/<public_id>/delete", methods=["GET", "POST"])
def delete(public_id: str) -> str | BaseResponse | tuple[str, int]:
    """Delete a game after one confirmation. A game with rounds goes to the trash
    (``games.trash``): recorded, and its organiser (a league game) or creator can bring it back
    for some days. A league game is deleted only by the organiser."""
    game = game_or_404(public_id, scores=False)
    who = trash.deleting_as(game)
    if who is None:
        if game.night is not None:
            return organiser_only(game, "delete")
        if request.method == "GET":
            return redirect(url_for("games.unlock", public_id=public_id, next=request.path))
        abort(403)
    night = game.night
    if request.method == "POST":
        kept_days = trash.keep_days()
        if trash.delete_game(game, who, devices.device_hash()):
            if night:
                said = ngettext(
                    "The game was deleted. It can be brought back for %(num)s day"
                    " (“Recently deleted” on the night's page).",
                    "The game was deleted. It can be brought back for %(num)s days"
                    " (“Recently deleted” on the night's page).",
                    kept_days,
                )
            else:
                said = ngettext(
                    "The game was deleted. It can be brought back for %(num)s day"
                    " (the start page).",
                    "The game was deleted. It can be brought back for %(num)s days"
                    " (the start page).",
                    kept_days,
                )
            flash(said, "success")
        else:
            flash(_("The game was deleted."), "success")
        if night is not None:
            return redirect(url_for("leagues.night", code=night.league.code, night_id=night.id))
        return redirect(url_for("games.home"))
    return render_template(
        "games/delete.html",
        game=game,
        night=night,
        rounds=trash.has_rounds(game),
        keep_days=trash.keep_days(),
    )


@bp.post("/g/<public_id>/restore")
def restore(public_id: str) -> BaseResponse:
    """Undo a delete (``games.trash``): the organiser for a league game, the creator (or the
    phone that deleted it) for a game of one's own."""
    game = trash.find_deleted(public_id)
    if game is None:
        abort(404)
    if not trash.may_restore(game):
        abort(403)
    trash.restore_game(game)
    flash(_("The game is back, as it was."), "success")
    return redirect(url_for("games.table", public_id=game.public_id))


def organiser_only(game: Game, what: str) -> tuple[str, int]:
    """A league table's phone asked for what only the organiser does, told in the league's
    words."""
    league = game.night.league  # type: ignore[union-attr]
    details = {
        "delete": lambda: (
            _("Only the organiser can delete a league game"),
            _(
                "A game of %(league)s counts in the standings, so only the organiser's phone "
                "deletes one (and can bring it back for a while). If this game was started by "
                "mistake, tell the organiser.",
                league=league.name,
            ),
        ),
        "again": lambda: (
            _("Only the organiser can start this game"),
            _(
                "Another game at %(table)s is started by the organiser's phone; a phone "
                "with the league's passphrase or this table's edit code can start one only on "
                "the night itself.",
                table=game.table_name,
            ),
        ),
    }
    title, detail = details[what]()
    page = render_template(
        "error.html",
        code=403,
        title=title,
        detail=detail,
        back=url_for("games.summary", public_id=game.public_id),
        back_label=_("Back to the game"),
    )
    return page, 403


@bp.post("/g/<public_id>/finish")
@editor_required
def finish(game: Game) -> BaseResponse:
    try:
        services.finish_game(services.load(game))
    except services.GameError as error:
        flash(str(error), "info")
        return redirect(url_for("games.table", public_id=game.public_id))
    return redirect(url_for("games.summary", public_id=game.public_id))


@bp.post("/g/<public_id>/reopen")
@editor_required
def reopen(game: Game) -> BaseResponse:
    try:
        services.reopen_game(services.load(game))
    except services.GameError as error:
        flash(str(error), "info")
    return redirect(url_for("games.table", public_id=game.public_id))


@bp.get("/g/<public_id>/summary")
def summary(public_id: str) -> str:
    game = game_or_404(public_id)
    loaded = services.load(game)
    board = services.scoreboard(loaded)
    return render_template(
        "games/summary.html",
        game=game,
        loaded=loaded,
        board=board,
        text=services.game_as_text(loaded, board),
        editor=access.can_edit(game),
        again=may_play_again(game),
        deleter=trash.deleting_as(game) is not None,
    )


@bp.get("/g/<public_id>/game.csv")
def download_csv(public_id: str) -> Response:
    game = game_or_404(public_id)
    body = csv_text(services.game_csv_rows(game, services.scoreboard(services.load(game))))
    day = game.played_on.isoformat()
    return Response(
        body,
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="mexican-train-{day}.csv"'
        },  # i18n: a file name
    )

"""The table view and what the scorekeeper does from it: unlock with the edit code, the
scoreboard, undo, delete, finish, reopen, the summary and the CSV."""

from __future__ import annotations

from flask import (
    Response,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import throttle
from scorekeeper.charts import line_chart
from scorekeeper.extensions import limiter
from scorekeeper.games import access, kept, services
from scorekeeper.games.forms import (
    EditCodeForm,
    JoinForm,
)
from scorekeeper.games.views.common import bp, editor_required, game_or_404, game_row_or_404
from scorekeeper.models import Game
from scorekeeper.rules.variants import higher_wins
from scorekeeper.safety import csv_text

# --------------------------------------------------------------------------------------------
# The table view and the edit code


@bp.get("/g/<public_id>")
def table(public_id: str) -> str:
    game = game_row_or_404(public_id)
    editor = access.can_edit(game)
    last_seat, joiner_start = kept.joining(game) if editor else ("", 0)
    return render_template(
        "games/table.html",
        game=game,
        state=kept.state(game),
        board=kept.board(game),
        editor=editor,
        join_form=JoinForm(),
        last_seat=last_seat,
        joiner_start=joiner_start,
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
        seat = services.join_game(game, form.name.data or "")
    except services.GameError as error:
        flash(str(error), "error")
    else:
        flash(
            f"{seat.player.name} joins from round {seat.joined_round}, "
            f"starting with {seat.start_total} points.",
            "success",
        )
    return redirect(url_for("games.table", public_id=game.public_id))


@bp.route("/g/<public_id>/unlock", methods=["GET", "POST"])
@limiter.limit(
    throttle.EDIT_CODE_LIMIT,
    key_func=throttle.game_and_client,
    methods=["POST"],
    deduct_when=throttle.refused,
)
def unlock(public_id: str) -> str | BaseResponse:
    game = game_or_404(public_id)
    form = EditCodeForm()
    if form.validate_on_submit():
        if access.unlock(game, form.code.data or ""):
            flash("This phone can now keep score for this game.", "success")
            target = request.args.get("next", "")
            if not target.startswith(f"/g/{game.public_id}"):
                target = url_for("games.table", public_id=game.public_id)
            return redirect(target)
        form.code.errors.append("That is not this game's edit code. Check it and try again.")
    return render_template("games/unlock.html", game=game, form=form)


# --------------------------------------------------------------------------------------------
# Scoreboard, corrections, the end


def _chart(game: Game, board: services.Scoreboard) -> Markup:
    """The running totals; the caption says which way is better in this game (the highest
    total wins the points games and arrivals scoring) and what a round is called."""
    word = services.variant_of(game).round_word
    better = "higher" if higher_wins(game.kind, game.rules) else "lower"
    labels = ["0"] + [str(row.number) for row in board.rows]
    return line_chart(
        board.series,
        labels,
        f"Running totals after each {word.lower()} ({better} is better)",
        x_label=word,
    )


@bp.get("/g/<public_id>/scoreboard")
def scoreboard(public_id: str) -> str:
    """Every value on this page but the editor's buttons is kept for the game's version: a
    second look (another phone, a reload) reads the game's row and renders."""
    game = game_row_or_404(public_id, correction_flag=True)
    board = kept.board(game)
    corrections, undo_batch = kept.corrections(game)
    return render_template(
        "games/scoreboard.html",
        game=game,
        board=board,
        rules_in_play=kept.in_play(game),
        editor=access.can_edit(game),
        corrections=corrections,
        undo_batch=undo_batch,
        chart=kept.for_version(game, "chart", lambda: _chart(game, board)),
    )


@bp.post("/g/<public_id>/undo")
@editor_required
def undo(game: Game) -> BaseResponse:
    batch = request.form.get("batch", "")
    try:
        changes = services.undo_last_correction(game, int(batch) if batch.isdigit() else None)
    except services.GameError as error:
        flash(str(error), "info")
    else:
        flash(f"Undone: the last correction of round {changes[0].round_number}.", "success")
    return redirect(url_for("games.scoreboard", public_id=game.public_id))


@bp.route("/g/<public_id>/delete", methods=["GET", "POST"])
@editor_required
def delete(game: Game) -> str | BaseResponse:
    """Delete a game after one confirmation: its rounds, corrections and photos go with it."""
    if request.method == "POST":
        services.delete_game(game)
        flash("The game was deleted.", "success")
        return redirect(url_for("games.home"))
    return render_template("games/delete.html", game=game)


@bp.post("/g/<public_id>/finish")
@editor_required
def finish(game: Game) -> BaseResponse:
    try:
        services.finish_game(game)
    except services.GameError as error:
        flash(str(error), "info")
        return redirect(url_for("games.table", public_id=game.public_id))
    return redirect(url_for("games.summary", public_id=game.public_id))


@bp.post("/g/<public_id>/reopen")
@editor_required
def reopen(game: Game) -> BaseResponse:
    try:
        services.reopen_game(game)
    except services.GameError as error:
        flash(str(error), "info")
    return redirect(url_for("games.table", public_id=game.public_id))


@bp.get("/g/<public_id>/summary")
def summary(public_id: str) -> str:
    game = game_or_404(public_id)
    board = services.scoreboard(game)
    return render_template(
        "games/summary.html",
        game=game,
        board=board,
        text=services.game_as_text(game, board),
        editor=access.can_edit(game),
    )


@bp.get("/g/<public_id>/game.csv")
def download_csv(public_id: str) -> Response:
    game = game_or_404(public_id)
    body = csv_text(services.game_csv_rows(game, services.scoreboard(game)))
    day = game.played_on.isoformat()
    return Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="mexican-train-{day}.csv"'},
    )

"""Views of a game. Thin: parse the form, call one service, render or redirect."""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.charts import line_chart
from scorekeeper.extensions import limiter
from scorekeeper.games import access, services
from scorekeeper.games.forms import (
    FIRST_SEATS,
    MAX_SEATS,
    EditCodeForm,
    SetupForm,
    round_form,
)
from scorekeeper.models import Game

bp = Blueprint("games", __name__)

View = Callable[..., Any]


def _game_or_404(public_id: str) -> Game:
    game = services.load_game(public_id)
    if game is None:
        abort(404)
    return game


def editor_required(view: View) -> View:
    """Load the game; only its creator's device or a device with the edit code may go on.
    A page (GET) sends others to the edit-code form; a change (POST) is refused with 403."""

    @wraps(view)
    def wrapped(public_id: str, **kwargs: Any) -> Any:
        game = _game_or_404(public_id)
        if not access.can_edit(game):
            if request.method == "GET":
                return redirect(url_for("games.unlock", public_id=public_id, next=request.path))
            abort(403)
        return view(game, **kwargs)

    return wrapped


# --------------------------------------------------------------------------------------------
# Start page and setup


@bp.get("/")
def home() -> str:
    token = session.get("device")
    games = services.my_games(access.device_hash(token)) if token else []
    return render_template("games/home.html", games=games)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> str | BaseResponse:
    form = SetupForm()
    device = access.device_hash()
    recent = services.recent_names(device)
    if request.method == "POST":
        if _rearrange(form):
            return render_template("games/new_game.html", form=form, recent=recent)
        if form.validate():
            try:
                rules = form.house_rules()
                game = services.create_game(form.typed_names(), rules, _first_starter(form), device)
            except (ValueError, services.GameError) as error:
                form.form_errors.append(str(error))
            else:
                return redirect(url_for("games.table", public_id=game.public_id))
    return render_template("games/new_game.html", form=form, recent=recent)


def _first_starter(form: SetupForm) -> int:
    """The seat that starts round 1, counted among the names actually typed."""
    chosen = int(form.first_starter.data) if str(form.first_starter.data).isdigit() else 0
    typed = form.typed_names()
    filled = [i for i, name in enumerate(typed) if name.strip()]
    return filled.index(chosen) if chosen in filled else 0


def _rearrange(form: SetupForm) -> bool:
    """The setup form's buttons that work without JavaScript: add a recent name, move a seat,
    add or remove a seat. Returns True when one was pressed (the form is shown again)."""
    names = form.typed_names()
    action = request.form.get("action", "")
    if request.form.get("add_name"):
        name = request.form["add_name"]
        if name.casefold() not in {n.casefold() for n in names}:
            empty = next((i for i, n in enumerate(names) if not n.strip()), None)
            if empty is None and len(names) < MAX_SEATS:
                names.append(name)
            elif empty is not None:
                names[empty] = name
        action = "rebuild"
    elif action.startswith(("up:", "down:")):
        direction, _, index_text = action.partition(":")
        index = int(index_text) if index_text.isdigit() else -1
        other = index - 1 if direction == "up" else index + 1
        if 0 <= index < len(names) and 0 <= other < len(names):
            names[index], names[other] = names[other], names[index]
            starter = str(form.first_starter.data)
            if starter == str(index):
                form.first_starter.data = str(other)
            elif starter == str(other):
                form.first_starter.data = str(index)
    elif action == "add_seat" and len(names) < MAX_SEATS:
        names.append("")
    elif action.startswith("remove:"):
        index_text = action.partition(":")[2]
        if index_text.isdigit() and len(names) > 2 and int(index_text) < len(names):
            del names[int(index_text)]
            form.first_starter.data = "0"
    elif action != "rebuild":
        return False
    while form.names.entries:
        form.names.pop_entry()
    for name in names:
        form.names.append_entry(name)
    return True


@bp.route("/g/<public_id>/again", methods=["POST"])
@editor_required
def play_again(game: Game) -> BaseResponse:
    new = services.play_again(game, access.device_hash())
    flash("New game with the same players. Good luck!", "success")
    return redirect(url_for("games.table", public_id=new.public_id))


# --------------------------------------------------------------------------------------------
# The table view and the edit code


@bp.get("/g/<public_id>")
def table(public_id: str) -> str:
    game = _game_or_404(public_id)
    state = services.table_state(game)
    board = services.scoreboard(game)
    return render_template(
        "games/table.html",
        game=game,
        state=state,
        board=board,
        editor=access.can_edit(game),
    )


@bp.route("/g/<public_id>/unlock", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"])
def unlock(public_id: str) -> str | BaseResponse:
    game = _game_or_404(public_id)
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
# Entering a round


def _round_input(form: Any) -> services.RoundInput:
    went_out = form.went_out.data
    seats = [
        services.SeatInput(
            position=index,
            hand=entry.form.hand.data,
            tiles=entry.form.tiles.data or "",
            markers=entry.form.markers.data or 0,
        )
        for index, entry in enumerate(form.seats)
    ]
    engine = form.engine.data
    return services.RoundInput(
        seats=seats,
        went_out=int(went_out) if went_out and went_out.isdigit() else None,
        blocked=went_out == "blocked",
        on_double=bool(form.on_double.data),
        engine=int(engine) if engine and str(engine).isdigit() else None,
    )


def _engine_choices(form: Any, state: services.TableState, current: int | None = None) -> None:
    available = sorted(
        set(state.engines_available) | ({current} if current is not None else set()), reverse=True
    )
    form.engine.choices = {"": "Choose the double"} | {str(n): f"{n}-{n}" for n in available}


def _refused(form: Any, check: services.RoundCheck | None) -> bool:
    """A posted round that was not saved because of errors (not just warnings)."""
    return bool(form.errors) or (check is not None and not check.ok)


@bp.route("/g/<public_id>/round", methods=["GET", "POST"])
@editor_required
def enter_round(game: Game) -> str | BaseResponse:
    state = services.table_state(game)
    if state.finished and request.method == "GET":
        return redirect(url_for("games.summary", public_id=game.public_id))
    form = round_form(game, request.form if request.method == "POST" else None)
    _engine_choices(form, state)
    check = None
    confirm_needed = False
    if request.method == "GET":
        form.form_token.data = secrets.token_urlsafe(16)
    elif form.validate():
        try:
            outcome = services.record_round(
                game,
                _round_input(form),
                form.form_token.data or secrets.token_urlsafe(16),
                confirmed=form.confirm.data == "yes",
            )
        except services.GameError as error:
            flash(str(error), "error")
            return redirect(url_for("games.scoreboard", public_id=game.public_id))
        if outcome.saved is not None:
            if outcome.duplicate:
                flash(f"Round {outcome.saved.number} was already saved.", "info")
            else:
                flash(f"Round {outcome.saved.number} saved.", "success")
            if game.status == "finished":
                return redirect(url_for("games.summary", public_id=game.public_id))
            return redirect(url_for("games.table", public_id=game.public_id))
        check = outcome.check
        confirm_needed = outcome.needs_confirmation
    else:
        if form.form_token.data is None or not form.form_token.data:
            form.form_token.data = secrets.token_urlsafe(16)
    return render_template(
        "games/enter_round.html",
        game=game,
        state=state,
        form=form,
        check=check,
        confirm_needed=confirm_needed,
        rules=services.game_rules(game),
        correcting=None,
        refused=_refused(form, check),
    ), (422 if _refused(form, check) else 200)


@bp.post("/g/<public_id>/round/check")
@editor_required
def check_round(game: Game) -> str:
    """The live check while typing: every player's total and problems (htmx out-of-band)."""
    number = request.args.get("number", type=int)
    form = round_form(game, request.form)
    state = services.table_state(game)
    _engine_choices(form, state, current=services.engine_for(game, number) if number else None)
    form.validate()
    check = services.check_round(game, _round_input(form), number=number, partial=True)
    return render_template("games/_round_check.html", form=form, check=check, game=game)


# --------------------------------------------------------------------------------------------
# Scoreboard, corrections, the end


def _chart(board: services.Scoreboard) -> Markup:
    labels = ["0"] + [str(row.number) for row in board.rows]
    return line_chart(
        board.series, labels, "Running totals after each round (lower is better)", x_label="Round"
    )


@bp.get("/g/<public_id>/scoreboard")
def scoreboard(public_id: str) -> str:
    game = _game_or_404(public_id)
    board = services.scoreboard(game)
    return render_template(
        "games/scoreboard.html",
        game=game,
        board=board,
        rules_in_play=services.game_rules(game).describe(),
        editor=access.can_edit(game),
        corrections=services.audit_trail(game),
        chart=_chart(board),
    )


@bp.route("/g/<public_id>/rounds/<int:number>", methods=["GET", "POST"])
@editor_required
def correct_round(game: Game, number: int) -> str | BaseResponse:
    try:
        recorded = services.find_round(game, number)
    except services.GameError:
        abort(404)
    state = services.table_state(game)
    check = None
    confirm_needed = False
    if request.method == "GET":
        form = round_form(game)
        current = services.round_input_of(game, recorded)
        for entry, typed in zip(form.seats, current.seats, strict=True):
            entry.form.hand.data = typed.hand
            entry.form.tiles.data = typed.tiles
            entry.form.markers.data = typed.markers
        form.went_out.data = "blocked" if current.blocked else str(current.went_out)
        form.on_double.data = current.on_double
        form.engine.data = str(recorded.engine)
    else:
        form = round_form(game, request.form)
    _engine_choices(form, state, current=recorded.engine)
    if request.method == "POST" and form.validate():
        try:
            outcome = services.correct_round(
                game,
                number,
                _round_input(form),
                note=form.note.data or "",
                confirmed=form.confirm.data == "yes",
            )
        except services.GameError as error:
            flash(str(error), "info")
            return redirect(url_for("games.scoreboard", public_id=game.public_id))
        if outcome.saved is not None:
            flash(f"Round {number} corrected. The change is in the history below.", "success")
            return redirect(url_for("games.scoreboard", public_id=game.public_id))
        check = outcome.check
        confirm_needed = outcome.needs_confirmation
    return render_template(
        "games/enter_round.html",
        game=game,
        state=state,
        form=form,
        check=check,
        confirm_needed=confirm_needed,
        rules=services.game_rules(game),
        correcting=recorded,
        refused=_refused(form, check),
    ), (422 if _refused(form, check) else 200)


@bp.post("/g/<public_id>/undo")
@editor_required
def undo(game: Game) -> BaseResponse:
    try:
        changes = services.undo_last_correction(game)
    except services.GameError as error:
        flash(str(error), "info")
    else:
        flash(f"Undone: the last correction of round {changes[0].round_number}.", "success")
    return redirect(url_for("games.scoreboard", public_id=game.public_id))


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
    game = _game_or_404(public_id)
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
    game = _game_or_404(public_id)
    buffer = io.StringIO()
    csv.writer(buffer).writerows(services.game_csv_rows(game, services.scoreboard(game)))
    day = game.created_at.strftime("%Y-%m-%d")
    return Response(
        buffer.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="mexican-train-{day}.csv"'},
    )


# --------------------------------------------------------------------------------------------
# Following along: the share view


def _version(game: Game) -> str:
    return f"{game.id}-{game.updated_at.timestamp():.6f}-{len(game.rounds)}"


@bp.get("/g/<public_id>/watch")
def watch(public_id: str) -> str:
    game = _game_or_404(public_id)
    return render_template(
        "games/watch.html",
        game=game,
        board=services.scoreboard(game),
        state=services.table_state(game),
        version=_version(game),
    )


@bp.get("/g/<public_id>/watch/board")
def watch_board(public_id: str) -> Response:
    """The live part of the share view; unchanged games answer 304 without rendering."""
    game = _game_or_404(public_id)
    etag = _version(game)
    if request.if_none_match.contains(etag):
        response = make_response("", 304)
    else:
        response = make_response(
            render_template(
                "games/_watch_board.html",
                game=game,
                board=services.scoreboard(game),
                state=services.table_state(game),
                version=etag,
            )
        )
    response.set_etag(etag)
    response.cache_control.no_cache = True
    return response


@bp.get("/g/<public_id>/qr.svg")
def qr_code(public_id: str) -> Response:
    game = _game_or_404(public_id)
    target = url_for("games.watch", public_id=game.public_id, _external=True)
    buffer = io.BytesIO()
    segno.make(target, error="m").save(
        buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff"
    )
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.cache_control.max_age = 86400
    return response


@bp.app_context_processor
def game_helpers() -> dict[str, Any]:
    return {"FIRST_SEATS": FIRST_SEATS, "MAX_SEATS": MAX_SEATS}

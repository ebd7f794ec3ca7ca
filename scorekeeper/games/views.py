"""Views of a game. Thin: parse the form, call one service, render or redirect."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import devices, throttle
from scorekeeper.boundary import is_write_request, read_only
from scorekeeper.charts import line_chart
from scorekeeper.extensions import limiter
from scorekeeper.games import access, photos, services
from scorekeeper.games.forms import (
    MAX_SEATS,
    EditCodeForm,
    JoinForm,
    SetupForm,
    round_form,
)
from scorekeeper.models import Game, Round
from scorekeeper.rules.round_check import RoundCheck, RoundInput, SeatCheck, SeatInput
from scorekeeper.safety import csv_text
from scorekeeper.web import qr_svg, unless_unchanged

bp = Blueprint("games", __name__)

View = Callable[..., Any]


def _game_or_404(public_id: str, scores: bool = True) -> Game:
    """The game, locked for the rest of the request when the request may change it; without
    every round's scores when the page does not show the scoreboard."""
    game = services.load_game(public_id, for_update=is_write_request(), scores=scores)
    if game is None:
        abort(404)
    return game


def editor_required(view: View) -> View:
    """Load the game; only its creator's device or a device with the edit code may go on.
    A page (GET) sends others to the edit-code form; a change (POST) is refused with 403."""

    @wraps(view)
    def wrapped(public_id: str, **kwargs: Any) -> Any:
        game = _game_or_404(public_id, scores=False)
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
    games = services.my_games(devices.device_hash(token)) if token else []
    return render_template("games/home.html", games=games)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> str | BaseResponse:
    form = SetupForm()
    device = devices.device_hash()
    recent = services.recent_names(device)
    if request.method == "POST":
        if _rearrange(form):
            return render_template(
                "games/new_game.html", form=form, recent=recent, max_seats=MAX_SEATS
            )
        if form.validate():
            try:
                rules = form.house_rules()
                game = services.create_game(
                    form.typed_names(),
                    rules,
                    _first_starter(form),
                    device,
                    keep_photos=bool(form.keep_photos.data),
                )
            except (ValueError, services.GameError) as error:
                form.form_errors.append(str(error))
            else:
                return redirect(url_for("games.table", public_id=game.public_id))
    return render_template("games/new_game.html", form=form, recent=recent, max_seats=MAX_SEATS)


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
    new = services.play_again(game, devices.device_hash())
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
        join_form=JoinForm(),
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


def _round_input(form: Any) -> RoundInput:
    went_out = form.went_out.data
    seats = [
        SeatInput(
            position=index,
            hand=entry.form.hand.data,
            tiles=entry.form.tiles.data or "",
            markers=entry.form.markers.data or 0,
            open_doubles=entry.form.open_doubles.data or 0,
        )
        for index, entry in enumerate(form.seats)
    ]
    engine = form.engine.data
    return RoundInput(
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


PHOTO_ACTIONS = ("read_photo", "use_photo", "keep_typed")


@bp.route("/g/<public_id>/round", methods=["GET", "POST"])
@editor_required
def enter_round(game: Game) -> str | BaseResponse | tuple[str, int]:
    state = services.table_state(game)
    if state.finished and request.method == "GET":
        return redirect(url_for("games.summary", public_id=game.public_id))
    return _round_page(game, None, state)


@bp.route("/g/<public_id>/rounds/<int:number>", methods=["GET", "POST"])
@editor_required
def correct_round(game: Game, number: int) -> str | BaseResponse | tuple[str, int]:
    try:
        recorded = services.find_round(game, number)
    except services.GameError:
        abort(404)
    return _round_page(game, recorded)


def _prefill(form: Any, game: Game, recorded: Round) -> None:
    current = services.round_input_of(game, recorded)
    for entry, typed in zip(form.seats, current.seats, strict=True):
        entry.form.hand.data = typed.hand
        entry.form.tiles.data = typed.tiles
        entry.form.markers.data = typed.markers
        entry.form.open_doubles.data = typed.open_doubles
    form.went_out.data = "blocked" if current.blocked else str(current.went_out)
    form.on_double.data = current.on_double
    form.engine.data = str(recorded.engine)


def _round_page(
    game: Game, recorded: Round | None, state: services.TableState | None = None
) -> str | BaseResponse | tuple[str, int]:
    """Enter the next round (``recorded`` None) or correct a recorded one: the same form, the
    same checks, the same photo check."""
    state = state or services.table_state(game)
    posted = request.method == "POST"
    form = round_form(
        game, request.form if posted else None, number=recorded.number if recorded else None
    )
    _engine_choices(form, state, current=recorded.engine if recorded else None)
    number = recorded.number if recorded else None
    check = None
    changed: services.RoundChanged | None = None
    photo_errors: dict[int, str] = {}
    action, _, seat_text = request.form.get("action", "").partition(":")
    photo_step = posted and action in PHOTO_ACTIONS
    if not posted:
        if recorded is not None:
            _prefill(form, game, recorded)
        form.form_token.data = secrets.token_urlsafe(16)
        form.round_number.data = str(recorded.number if recorded else state.round_number)
        form.game_version.data = str(game.version)
    else:
        form.form_token.data = form.form_token.data or secrets.token_urlsafe(16)
        if photo_step and seat_text.isdigit() and int(seat_text) < form.seat_count:
            error = _photo_action(game, form, action, int(seat_text))
            if error:
                photo_errors[int(seat_text)] = error
            form.validate()
            check = services.check_round(game, _round_input(form), number=number, partial=True)
        elif not photo_step and form.validate():
            try:
                outcome = _save(game, form, recorded)
            except services.RoundTaken as taken:
                return _round_taken(game, form, taken.saved)
            except services.RoundChanged as conflict:
                # Show the phone's values again, now based on what is saved: saving them
                # replaces the other phone's change knowingly.
                changed = conflict
                form.based_on.data = _encode_values(conflict.current)
            except services.GameError as error:
                flash(str(error), "info" if recorded else "error")
                return redirect(url_for("games.scoreboard", public_id=game.public_id))
            else:
                if outcome.saved is not None:
                    if tokens := _photo_tokens(form):
                        photos.settle_photos(game, outcome.saved, tokens)
                    return _after_save(game, outcome, recorded)
                check = outcome.check
    if recorded is not None and not form.based_on.data:
        form.based_on.data = _encode_values(services.round_values(game, recorded))
    # After a photo step nothing was meant to be saved yet, so nothing was refused.
    refused = not photo_step and (bool(form.errors) or (check is not None and not check.ok))
    photo_ok, photo_message = photos.support(services.game_rules(game).max_pip)
    checks = {s.position: s for s in check.seats} if check else {}
    photo_views = _photo_views(game, form, checks)
    return render_template(
        "games/enter_round.html",
        game=game,
        state=state,
        form=form,
        check=check,
        checks=checks,
        rules=services.game_rules(game),
        correcting=recorded,
        refused=refused,
        changed=_changes(game, changed) if changed else None,
        photo_ok=photo_ok,
        photo_message=photo_message,
        photo_views=photo_views,
        photo_errors=photo_errors,
    ), (409 if changed else 422 if refused else 200)


def _encode_values(values: dict[str, str]) -> str:
    return json.dumps(values, sort_keys=True, separators=(",", ":"))


def _decode_values(text: str | None) -> dict[str, str] | None:
    try:
        values = json.loads(text or "")
    except ValueError:
        return None
    if not isinstance(values, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in values.items()
    ):
        return None
    return values


def _form_number(form: Any) -> int:
    text = form.round_number.data or ""
    if not text.isdigit():
        raise services.GameError(
            "That round form is out of date: nothing was saved. Open the round again."
        )
    return int(text)


def _save(game: Game, form: Any, recorded: Round | None) -> services.RecordOutcome:
    if recorded is None:
        return services.record_round(
            game, _round_input(form), form.form_token.data, _form_number(form)
        )
    based_on = _decode_values(form.based_on.data)
    if based_on is None:
        raise services.GameError(
            "That correction form is out of date: nothing was changed. Open the round again."
        )
    return services.correct_round(
        game, recorded.number, _round_input(form), based_on, note=form.note.data or ""
    )


def _changes(game: Game, conflict: services.RoundChanged) -> list[services.ValueChange]:
    return services.describe_changes(game, conflict.seen, conflict.current)


def _round_taken(game: Game, form: Any, saved: Round) -> tuple[str, int]:
    """Round N arrived after round N was saved: nothing is saved; the page shows what was
    saved and what this phone typed, and offers to correct round N."""
    typed = _round_input(form)
    return render_template(
        "games/round_taken.html",
        game=game,
        saved=saved,
        saved_values=services.describe_round(game, saved),
        typed=services.describe_input(game, typed),
    ), 409


def _after_save(
    game: Game, outcome: services.RecordOutcome, recorded: Round | None
) -> BaseResponse:
    assert outcome.saved is not None
    if recorded is not None:
        flash(f"Round {recorded.number} corrected. The change is in the history below.", "success")
        for warning in _warnings(outcome.check):
            flash(f"Saved as typed; worth a look: {warning}", "info")
        return redirect(url_for("games.scoreboard", public_id=game.public_id))
    if outcome.duplicate:
        flash(f"Round {outcome.saved.number} was already saved.", "info")
    else:
        flash(f"Round {outcome.saved.number} saved.", "success")
        for warning in _warnings(outcome.check):
            flash(f"Saved as typed; worth a look: {warning}", "info")
    if game.status == "finished":
        return redirect(url_for("games.summary", public_id=game.public_id))
    return redirect(url_for("games.table", public_id=game.public_id))


def _warnings(check: RoundCheck | None) -> list[str]:
    if check is None:
        return []
    return [*check.warnings, *(w for seat in check.seats for w in seat.warnings)]


def _photo_tokens(form: Any) -> dict[int, str]:
    return {
        position: entry.form.photo_token.data
        for position, entry in enumerate(form.seats)
        if entry.form.photo_token.data
    }


def _photo_action(game: Game, form: Any, action: str, position: int) -> str | None:
    """Read a photo, or settle a disagreement between the photo and what was typed.
    Returns a message for the player when the photo cannot be used."""
    seat = form.seats[position].form
    if action == "read_photo":
        upload = request.files.get(f"seat_{position}-photo")
        if upload is None or not upload.filename:
            return "Take a photo of the tiles (or choose one) first."
        try:
            data = upload.read()
            upload.close()
            reading = photos.read_photo(game, position, data)
        except services.GameError as error:
            return str(error)
        seat.photo_token.data = reading.token
        if not (seat.tiles.data or "").strip():
            seat.tiles.data = reading.tiles_text
        return None
    reading = photos.photo_check(game, seat.photo_token.data or "")
    if reading is None:
        return "That photo is no longer here: take it again."
    if action == "use_photo":
        seat.hand.data = None
        seat.hand.raw_data = []
        seat.tiles.data = reading.tiles_text
    elif (seat.tiles.data or "").strip() == reading.tiles_text:
        seat.tiles.data = ""
    return None


def _photo_views(
    game: Game, form: Any, checks: dict[int, SeatCheck]
) -> dict[int, tuple[photos.PhotoCheck, photos.Verdict]]:
    views = {}
    for position, entry in enumerate(form.seats):
        reading = photos.photo_check(game, entry.form.photo_token.data or "")
        if reading is None:
            continue
        seat_check = checks.get(position)
        verdict = photos.compare(
            reading,
            entry.form.hand.data,
            entry.form.tiles.data or "",
            seat_check.hand if seat_check and seat_check.tiles is not None else None,
        )
        views[position] = (reading, verdict)
    return views


@bp.get("/g/<public_id>/photos/<token>.jpg")
@editor_required
def photo(game: Game, token: str) -> Response:
    data = photos.photo_bytes(game, token)
    if data is None:
        abort(404)
    response = Response(data, mimetype="image/jpeg")
    response.cache_control.private = True
    response.cache_control.max_age = 3600
    return response


@bp.post("/g/<public_id>/round/check")
@editor_required
@read_only
def check_round(game: Game) -> str:
    """The live check while typing: every player's total and problems (htmx out-of-band)."""
    number = request.args.get("number", type=int)
    form = round_form(game, request.form, number=number)
    state = services.table_state(game)
    _engine_choices(form, state, current=services.engine_for(game, number) if number else None)
    form.validate()
    # After a refused save the live check looks for everything the save did (a round end not
    # chosen, a player left out), so it can tell when all of it is fixed.
    partial = request.form.get("live") != "strict"
    check = services.check_round(game, _round_input(form), number=number, partial=partial)
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
        undo_batch=services.last_correction_batch(game),
        chart=_chart(board),
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
    body = csv_text(services.game_csv_rows(game, services.scoreboard(game)))
    day = game.created_at.strftime("%Y-%m-%d")
    return Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="mexican-train-{day}.csv"'},
    )


# --------------------------------------------------------------------------------------------
# Following along: the share view


def _version(game: Game) -> str:
    return f"v{game.version}"


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
    """The live part of the share view. A phone whose copy is current gets 304 from one query
    (the game's version); only a changed game is loaded and rendered."""
    row = services.game_state(public_id)
    if row is None:
        abort(404)

    def render() -> str:
        game = _game_or_404(public_id)
        return render_template(
            "games/_watch_board.html",
            game=game,
            board=services.scoreboard(game),
            state=services.table_state(game),
            version=_version(game),
        )

    return unless_unchanged(f"v{row.version}", render)


@bp.get("/g/<public_id>/state.json")
def state(public_id: str) -> Response:
    """What a phone needs to notice another phone's write: the game's version, its number of
    rounds and whether it is over. One query; 304 while the version is unchanged."""
    row = services.game_state(public_id)
    if row is None:
        abort(404)
    return unless_unchanged(
        f"v{row.version}",
        lambda: {"version": row.version, "rounds": row.rounds, "status": row.status},
    )


@bp.get("/g/<public_id>/qr.svg")
def qr_code(public_id: str) -> Response:
    game = _game_or_404(public_id)
    return qr_svg(url_for("games.watch", public_id=game.public_id, _external=True), 86400)

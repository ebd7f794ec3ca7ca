"""Entering a round and correcting one: the form says which round and game version it is for and
what values the phone saw, so a stale or conflicting save is refused, never misapplied. Also
the live check while typing and the photos of hands."""

from __future__ import annotations

import json
import secrets
from functools import partial
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.games import photos, services
from scorekeeper.games.forms import round_form
from scorekeeper.games.views.common import bp, editor_required, table_editor_required
from scorekeeper.games.words import round_words
from scorekeeper.models import Game, Round
from scorekeeper.rules.round_check import RoundCheck, RoundInput, SeatCheck, SeatInput
from scorekeeper.web.transactions import defer_write_lock, read_only

# --------------------------------------------------------------------------------------------
# Entering a round


def round_input_of(form: Any) -> RoundInput:
    went_out = form.went_out.data
    seats = [
        SeatInput(
            position=index,
            hand=entry.form.number("hand"),
            tiles=entry.form.tiles.data or "",
            markers=entry.form.number("markers") or 0,
            open_doubles=entry.form.number("open_doubles") or 0,
            made=entry.form.number("made"),
            unreadable=bool(entry.form.number_errors),
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
    form.engine.choices = {"": _("Choose the double")} | {str(n): f"{n}-{n}" for n in available}


def _plain_save() -> bool:
    """The round form was sent to be saved. A page made before the photo steps had their own
    addresses sends its photo button's ``action`` here: it is shown again, nothing saved."""
    return not request.form.get("action")


@bp.route("/g/<public_id>/round", methods=["GET", "POST"])
@partial(defer_write_lock, applies=_plain_save)
@table_editor_required
def enter_round(game: Game) -> str | BaseResponse | tuple[str, int]:
    loaded = services.load(game)  # once: everything below takes what it needs from it
    state = services.table_state(loaded)
    if state.finished and request.method == "GET":
        return redirect(url_for("games.summary", public_id=game.public_id))
    return _round_page(loaded, None, state)


@bp.route("/g/<public_id>/rounds/<int:number>", methods=["GET", "POST"])
@editor_required
def correct_round(game: Game, number: int) -> str | BaseResponse | tuple[str, int]:
    try:
        recorded = services.find_round(game, number)
    except services.GameError:
        abort(404)
    return _round_page(services.load(game), recorded)


def _prefill(form: Any, game: Game, recorded: Round) -> None:
    current = services.round_input_of(game, recorded)
    for entry, typed in zip(form.seats, current.seats, strict=True):
        entry.form.hand.data = typed.hand
        entry.form.tiles.data = typed.tiles
        for name in ("markers", "open_doubles", "made"):
            if (field := getattr(entry.form, name, None)) is not None:  # the game uses it
                field.data = getattr(typed, name)
    form.went_out.data = "blocked" if current.blocked else str(current.went_out)
    form.on_double.data = current.on_double
    form.engine.data = str(recorded.engine)


def _round_page(
    loaded: services.LoadedGame, recorded: Round | None, state: services.TableState | None = None
) -> str | BaseResponse | tuple[str, int]:
    """Enter the next round (``recorded`` None) or correct a recorded one: the same form, the
    same checks, the same photo check (the photo steps: ``read_photo``, ``use_photo``,
    ``keep_typed``)."""
    state = state or services.table_state(loaded)
    form = form_for_round(loaded, recorded, state)
    if request.method != "POST":
        return show_round_page(loaded, recorded, state, form)
    number = recorded.number if recorded else None
    if not _plain_save():
        form.validate()
        check = services.check_round(loaded, round_input_of(form), number=number, partial=True)
        return show_round_page(loaded, recorded, state, form, check=check, photo_step=True)
    if not form.validate():
        # Every problem at once: the numbers that could not be read, and the round's own
        # checks (a player left out, a total no hand makes) on everything else.
        check = services.check_round(loaded, round_input_of(form), number=number)
        return show_round_page(loaded, recorded, state, form, check=check)
    return _save_and_answer(loaded, recorded, state, form)


def form_for_round(
    loaded: services.LoadedGame, recorded: Round | None, state: services.TableState
) -> Any:
    """The round form: as sent (a POST), else a fresh one for the next round or one filled
    with the recorded round's values, saying which round and game version it is for."""
    game = loaded.game
    posted = request.method == "POST"
    form = round_form(
        loaded, request.form if posted else None, number=recorded.number if recorded else None
    )
    _engine_choices(form, state, current=recorded.engine if recorded else None)
    if posted:
        form.form_token.data = form.form_token.data or secrets.token_urlsafe(16)
        return form
    if recorded is not None:
        _prefill(form, game, recorded)
    form.form_token.data = secrets.token_urlsafe(16)
    form.round_number.data = str(recorded.number if recorded else state.round_number)
    form.game_version.data = str(game.version)
    return form


def _save_and_answer(
    loaded: services.LoadedGame, recorded: Round | None, state: services.TableState, form: Any
) -> str | BaseResponse | tuple[str, int]:
    """Save the round as sent (or the correction) and answer: the next page after a save, the
    form again with what stopped it, or what another phone saved first."""
    game = loaded.game
    try:
        outcome = _save(loaded, form, recorded)
    except services.RoundTaken as taken:
        return _round_taken(game, form, taken.saved)
    except services.RoundChanged as conflict:
        # Show the phone's values again, now based on what is saved: saving them replaces the
        # other phone's change knowingly.
        form.based_on.data = _encode_values(conflict.current)
        return show_round_page(loaded, recorded, state, form, changed=conflict)
    except services.GameError as error:
        flash(str(error), "info" if recorded else "error")
        return redirect(url_for("games.scoreboard", public_id=game.public_id))
    if outcome.saved is None:
        return show_round_page(loaded, recorded, state, form, check=outcome.check)
    # A form saved before (a double tap) writes its photos too: under the lock.
    services.lock_game(game)
    if tokens := _photo_tokens(form):
        photos.settle_photos(game, outcome.saved, tokens)
    return _after_save(loaded, outcome, recorded)


def show_round_page(
    loaded: services.LoadedGame,
    recorded: Round | None,
    state: services.TableState,
    form: Any,
    *,
    check: RoundCheck | None = None,
    changed: services.RoundChanged | None = None,
    photo_errors: dict[int, str] | None = None,
    photo_step: bool = False,
) -> tuple[str, int]:
    """The round page: 409 after another phone's change, 422 when the save was refused."""
    game = loaded.game
    if recorded is not None and not form.based_on.data:
        form.based_on.data = _encode_values(services.round_values(game, recorded))
    # After a photo step nothing was meant to be saved yet, so nothing was refused.
    refused = not photo_step and (bool(form.errors) or (check is not None and not check.ok))
    photo_ok, photo_message = photos.support(loaded.rules.max_pip)
    checks = {s.position: s for s in check.seats} if check else {}
    fresh = request.method != "POST" and recorded is None
    return render_template(
        "games/enter_round.html",
        seats_html=_fresh_seats(loaded, form, state, photo_ok) if fresh else None,
        game=game,
        state=state,
        form=form,
        check=check,
        checks=checks,
        rules=loaded.rules,
        correcting=recorded,
        refused=refused,
        changed=_changes(loaded, changed) if changed else None,
        photo_ok=photo_ok,
        photo_message=photo_message,
        photo_views=_photo_views(loaded, form, checks),
        photo_errors=photo_errors or {},
    ), (409 if changed else 422 if refused else 200)


def _fresh_seats(
    loaded: services.LoadedGame, form: Any, state: services.TableState, photo_ok: bool
) -> Markup:
    """The seats of a fresh form for the next round (nothing typed, nothing refused, no photo
    read: ``games/_round_seats.html``)."""
    return Markup(
        render_template(
            "games/_round_seats.html",
            game=loaded.game,
            correcting=None,
            form=form,
            state=state,
            rules=loaded.rules,
            checks={},
            photo_ok=photo_ok,
            photo_views={},
            photo_errors={},
        )
    )


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
            _("That round form is out of date: nothing was saved. Open the round again.")
        )
    return int(text)


def _save(loaded: services.LoadedGame, form: Any, recorded: Round | None) -> services.RecordOutcome:
    if recorded is None:
        return services.record_round(
            loaded, round_input_of(form), form.form_token.data, _form_number(form)
        )
    based_on = _decode_values(form.based_on.data)
    if based_on is None:
        raise services.GameError(
            _("That correction form is out of date: nothing was changed. Open the round again.")
        )
    return services.correct_round(
        loaded, recorded.number, round_input_of(form), based_on, note=form.note.data or ""
    )


def _changes(
    loaded: services.LoadedGame, conflict: services.RoundChanged
) -> list[services.ValueChange]:
    return services.describe_changes(loaded, conflict.seen, conflict.current)


def _round_taken(game: Game, form: Any, saved: Round) -> tuple[str, int]:
    """Round N arrived after round N was saved: nothing is saved; the page shows what was
    saved and what this phone typed, and offers to correct round N."""
    saved_values = services.describe_round(game, saved)
    typed = services.describe_input(game, round_input_of(form))
    return render_template(
        "games/round_taken.html",
        game=game,
        saved=saved,
        saved_values=saved_values,
        typed=typed,
        differs=services.line_differences(saved_values, typed),
    ), 409


def _after_save(
    loaded: services.LoadedGame, outcome: services.RecordOutcome, recorded: Round | None
) -> BaseResponse:
    assert outcome.saved is not None
    game, words = loaded.game, round_words(loaded.variant.round_word)
    if recorded is not None:
        flash(
            _(
                "%(round)s corrected. The change is in the history below.",
                round=words.numbered(recorded.number),
            ),
            "success",
        )
        for warning in _warnings(outcome.check):
            flash(_("Saved as typed; worth a look: %(warning)s", warning=warning), "info")
        return redirect(url_for("games.scoreboard", public_id=game.public_id))
    if outcome.duplicate:
        flash(_("%(round)s was already saved.", round=words.numbered(outcome.saved.number)), "info")
    else:
        flash(_("%(round)s saved.", round=words.numbered(outcome.saved.number)), "success")
        for warning in _warnings(outcome.check):
            flash(_("Saved as typed; worth a look: %(warning)s", warning=warning), "info")
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


def _photo_views(
    loaded: services.LoadedGame, form: Any, checks: dict[int, SeatCheck]
) -> dict[int, tuple[photos.PhotoCheck, photos.Verdict]]:
    views = {}
    for position, entry in enumerate(form.seats):
        reading = photos.photo_check(loaded, entry.form.photo_token.data or "")
        if reading is None:
            continue
        seat_check = checks.get(position)
        verdict = photos.compare(
            reading,
            entry.form.hand.data,
            entry.form.tiles.data or "",
            seat_check.hand if seat_check and seat_check.tiles is not None else None,
            kept=entry.form.photo_kept.data or "",
        )
        views[position] = (reading, verdict)
    return views


@bp.post("/g/<public_id>/round/check")
@table_editor_required
@read_only
def check_round(game: Game) -> str:
    """The live check while typing: every player's total and problems (htmx out-of-band)."""
    number = request.args.get("number", type=int)
    loaded = services.load(game)
    form = round_form(loaded, request.form, number=number)
    state = services.table_state(loaded)
    _engine_choices(form, state, current=services.engine_for(loaded, number) if number else None)
    form.validate()
    # After a refused save the live check looks for everything the save did (a round end not
    # chosen, a player left out), so it can tell when all of it is fixed.
    partial = request.form.get("live") != "strict"
    check = services.check_round(loaded, round_input_of(form), number=number, partial=partial)
    return render_template("games/_round_check.html", form=form, check=check, game=game)

"""The photo check of a round's hands: the photo steps, each at its own address (read a seat's
photo, use the photo's tiles, keep what was typed), and a photo kept for its game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, abort, request
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.games import photos, services
from scorekeeper.games.forms import KeepTypedForm, PhotoUploadForm
from scorekeeper.games.views.common import bp, table_editor_required
from scorekeeper.games.views.rounds import form_for_round, round_input_of, show_round_page
from scorekeeper.models import Game

# The photo steps: each its own address. The round form is sent there (the step's button has
# its own ``formaction``) with everything typed; the step changes one seat's fields and the
# round page comes back, checked as while typing, nothing saved. Photos of a correction go to
# the same steps under the round's address.

PhotoStep = Callable[[services.LoadedGame, Any, int], str | None]


def _photo_step(
    game: Game, number: int | None, position: int, step: PhotoStep
) -> str | BaseResponse | tuple[str, int]:
    """Run ``step`` on seat ``position`` of the form sent (for round ``number``, a correction,
    or the next round) and show the round page again with its message, if any."""
    loaded = services.load(game)
    recorded = None
    if number is not None:
        try:
            recorded = services.find_round(game, number)
        except services.GameError:
            abort(404)
    state = services.table_state(loaded)
    form = form_for_round(loaded, recorded, state)
    if position >= form.seat_count:
        abort(404)
    error = step(loaded, form.seats[position].form, position)
    form.validate()
    check = services.check_round(loaded, round_input_of(form), number=number, partial=True)
    errors = {position: error} if error else {}
    return show_round_page(
        loaded, recorded, state, form, check=check, photo_errors=errors, photo_step=True
    )


@bp.post("/g/<public_id>/round/seats/<int:position>/photo", defaults={"number": None})
@bp.post("/g/<public_id>/rounds/<int:number>/seats/<int:position>/photo")
@table_editor_required
def read_photo(
    game: Game, position: int, number: int | None
) -> str | BaseResponse | tuple[str, int]:
    """Read the photo sent for a seat (its own form: ``PhotoUploadForm``)."""
    return _photo_step(game, number, position, _read_photo)


@bp.post("/g/<public_id>/round/seats/<int:position>/photo/use", defaults={"number": None})
@bp.post("/g/<public_id>/rounds/<int:number>/seats/<int:position>/photo/use")
@table_editor_required
def use_photo(
    game: Game, position: int, number: int | None
) -> str | BaseResponse | tuple[str, int]:
    """The photo's tiles go in the seat's tiles box (its points are left to them)."""
    return _photo_step(game, number, position, _use_photo)


@bp.post("/g/<public_id>/round/seats/<int:position>/photo/keep", defaults={"number": None})
@bp.post("/g/<public_id>/rounds/<int:number>/seats/<int:position>/photo/keep")
@table_editor_required
def keep_typed(
    game: Game, position: int, number: int | None
) -> str | BaseResponse | tuple[str, int]:
    """What was typed stays over the photo's reading (its own form: ``KeepTypedForm``)."""
    return _photo_step(game, number, position, _keep_typed)


def _read_photo(loaded: services.LoadedGame, seat: Any, position: int) -> str | None:
    """Read the seat's photo; a message for the player when it cannot be used."""
    upload = PhotoUploadForm(request.files, prefix=f"seat_{position}").photo.data
    if upload is None or not upload.filename:
        return _("Take a photo of the tiles (or choose one) first.")
    try:
        data = upload.read()
        upload.close()
        reading = photos.read_photo(loaded, position, data)
    except services.GameError as error:
        return str(error)
    seat.photo_token.data = reading.token
    seat.photo_kept.data = ""  # a new photo: nothing chosen over it yet
    # only a confident reading goes into an empty tiles box: an unsure one is confirmed
    # first (it may have missed tiles)
    if reading.confident and not (seat.tiles.data or "").strip():
        seat.tiles.data = reading.tiles_text
    return None


def _use_photo(loaded: services.LoadedGame, seat: Any, position: int) -> str | None:
    reading = photos.photo_check(loaded, seat.photo_token.data or "")
    if reading is None:
        return _("That photo is no longer here: take it again.")
    seat.hand.data = None
    seat.hand.raw_data = []
    seat.tiles.data = reading.tiles_text
    return None


def _keep_typed(loaded: services.LoadedGame, seat: Any, position: int) -> str | None:
    reading = photos.photo_check(loaded, seat.photo_token.data or "")
    if reading is None:
        return _("That photo is no longer here: take it again.")
    if (seat.tiles.data or "").strip() == reading.tiles_text:
        seat.tiles.data = ""
    keep = KeepTypedForm(request.form)
    seat.photo_kept.data = (
        str(keep.kept.data) if keep.validate() and keep.kept.data is not None else ""
    )
    return None


@bp.get("/g/<public_id>/photos/<token>.jpg")
@table_editor_required
def photo(game: Game, token: str) -> Response:
    data = photos.photo_bytes(game, token)
    if data is None:
        abort(404)
    response = Response(data, mimetype="image/jpeg")
    response.cache_control.private = True
    response.cache_control.max_age = 3600
    return response

"""The home page, starting a game, playing again with the same table."""

from __future__ import annotations

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.extensions import limiter
from scorekeeper.games import access, services, trash
from scorekeeper.games.forms import (
    MAX_SEATS,
    SetupForm,
)
from scorekeeper.games.views.common import bp, game_or_404, may_play_again
from scorekeeper.games.views.table import organiser_only
from scorekeeper.rules.games import VARIANTS
from scorekeeper.web import devices, rate_limits

# --------------------------------------------------------------------------------------------
# Start page and setup


@bp.get("/")
def home() -> str:
    token = session.get("device")
    games = services.my_games(devices.device_hash(token)) if token else []
    games = [game for game in games if access.on_this_phone(game)]  # signed out: not listed
    deleted = trash.deleted_by_device(devices.device_hash(token)) if token else []
    return render_template("games/home.html", games=games, deleted=deleted)


# Starting games (the setup form, "play again"), per address and from every address together;
# only games made count (a form sent back with a message costs little).
new_games = limiter.shared_limit(
    rate_limits.NEW_GAME_LIMIT,
    scope="new-game",
    key_func=rate_limits.client,
    methods=["POST"],
    deduct_when=rate_limits.made,
    on_breach=rate_limits.explain(rate_limits.BUSY_NEW_GAMES),
)
all_new_games = limiter.shared_limit(
    rate_limits.ALL_NEW_GAMES,
    scope="all-new-games",
    key_func=rate_limits.everyone,
    methods=["POST"],
    deduct_when=rate_limits.made,
    on_breach=rate_limits.explain(rate_limits.BUSY_ALL_NEW_GAMES),
)


@bp.route("/games/new", methods=["GET", "POST"])
@new_games
@all_new_games
def new_game() -> str | BaseResponse:
    form = SetupForm(kind=request.args.get("game"))
    device = devices.device_hash()
    recent = services.recent_names(device)
    if request.method == "POST":
        if _rearrange(form):
            added = request.form.get("action") == "add_seat"
            return render_template(
                "games/new_game.html",
                form=form,
                recent=recent,
                max_seats=MAX_SEATS,
                variants=VARIANTS.values(),
                # A seat just added: its name field is focused (the page opens there).
                focus=len(form.names) - 1 if added else None,
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
                    kind=form.variant.name,
                )
            except (ValueError, services.GameError) as error:
                form.form_errors.append(str(error))
            else:
                return redirect(url_for("games.table", public_id=game.public_id))
    return render_template(
        "games/new_game.html",
        form=form,
        recent=recent,
        max_seats=MAX_SEATS,
        variants=VARIANTS.values(),
    )


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
        direction, _sep, index_text = action.partition(":")
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


@bp.route("/g/<public_id>/again", methods=["GET", "POST"])
@new_games
@all_new_games
def play_again(public_id: str) -> str | BaseResponse | tuple[str, int]:
    """A new game with the same players. At a league table it adds a game to the night, so it
    is asked first (a page, never one tap from the end of a game) and allowed to the organiser,
    or to a phone with the passphrase on the night itself (``may_play_again``)."""
    game = game_or_404(public_id, scores=False)
    if not may_play_again(game):
        if game.night is not None:
            return organiser_only(game, "again")
        if request.method == "GET":
            return redirect(url_for("games.unlock", public_id=public_id, next=request.path))
        abort(403)
    if request.method == "GET":
        return render_template("games/play_again.html", game=game, night=game.night)
    table_code_only = game.night is not None and access.edit_code_right_only(game)
    new = services.play_again(game, devices.device_hash())
    if table_code_only:  # the table's phone keeps score for the table's next game too
        access.grant(new)
    flash(_("New game with the same players. Good luck!"), "success")
    return redirect(url_for("games.table", public_id=new.public_id))

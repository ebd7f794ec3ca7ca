"""What every game view uses: the blueprint, loading a game, the editor check."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import (
    Blueprint,
    abort,
    redirect,
    request,
    url_for,
)
from markupsafe import Markup

from scorekeeper.boundary import is_write_request
from scorekeeper.games import access, kept, services
from scorekeeper.games.board_html import board_table, standings_list
from scorekeeper.models import Game

bp = Blueprint("games", __name__)

View = Callable[..., Any]


def game_or_404(public_id: str, scores: bool = True) -> Game:
    """The game, locked for the rest of the request when the request may change it; without
    every round's scores when the page does not show the scoreboard."""
    game = services.load_game(public_id, for_update=is_write_request(), scores=scores)
    if game is None:
        abort(404)
    return game


@bp.app_template_global()
def standings_html(game: Game, board: services.Scoreboard) -> Markup:
    """The standings list (``games.board_html``), written once per version of the game."""
    return kept.for_version(game, "html:standings", lambda: standings_list(board))


@bp.app_template_global()
def board_table_html(game: Game, board: services.Scoreboard, editor: bool) -> Markup:
    """The round-by-round table (``games.board_html``), written once per version of the game
    for the scorekeeper's phone (each round links to its correction) and once for the others."""
    return kept.for_version(
        game,
        f"html:board_table:editor={editor}",
        lambda: board_table(
            board,
            # One URL for the table: ".../rounds/0" less its 0; each round adds its number.
            url_for("games.correct_round", public_id=game.public_id, number=0)[:-1]
            if editor
            else None,
        ),
    )


@bp.app_template_global()
def phone_purge() -> str:
    """The games whose kept pages, drafts and unsent rounds the phone clears on this page
    (after it forgot them: ``access.take_purge``), for offline.js; "" on almost every page."""
    return " ".join(access.take_purge())


def game_row_or_404(public_id: str, correction_flag: bool = False) -> Game:
    """The game's row alone, for a page that shows values kept for its version (``kept``);
    ``correction_flag``: with whether the game has corrections (``setup.find_game``)."""
    game = services.find_game(public_id, correction_flag=correction_flag)
    if game is None:
        abort(404)
    return game


def editor_required(view: View) -> View:
    """Load the game; only its creator's device or a device with the edit code may go on.
    A page (GET) sends others to the edit-code form; a change (POST) is refused with 403."""
    return _for_editors(view, lambda public_id: game_or_404(public_id, scores=False))


def table_editor_required(view: View) -> View:
    """``editor_required`` for a view that reads the game's seats and rounds as rows
    (``rows.table``): only the game's row is loaded (locked for a write), the rows come from
    what is kept for its version."""

    def load(public_id: str) -> Game:
        game = services.find_game(public_id, for_update=is_write_request())
        if game is None:
            abort(404)
        return game

    return _for_editors(view, load)


def _for_editors(view: View, load: Callable[[str], Game]) -> View:
    @wraps(view)
    def wrapped(public_id: str, **kwargs: Any) -> Any:
        game = load(public_id)
        if not access.can_edit(game):
            if request.method == "GET":
                return redirect(url_for("games.unlock", public_id=public_id, next=request.path))
            abort(403)
        return view(game, **kwargs)

    return wrapped

"""The read-only share view for everyone at the table, and the cheap answers it polls."""

from __future__ import annotations

from flask import (
    Response,
    abort,
    render_template,
    url_for,
)
from flask.blueprints import BlueprintSetupState

from scorekeeper.games import services
from scorekeeper.games.views.common import bp, game_or_404, game_row_or_404
from scorekeeper.models import Game
from scorekeeper.web.responses import qr_svg, unless_unchanged
from scorekeeper.web.unchanged_polls import answer_unchanged

# --------------------------------------------------------------------------------------------
# Following along: the share view


def _render(template: str, public_id: str) -> str:
    """The share view (or its live part)."""
    return _render_game(game_row_or_404(public_id), template)


def _render_game(game: Game, template: str) -> str:
    loaded = services.load(game)
    return render_template(
        template,
        game=game,
        loaded=loaded,
        board=services.scoreboard(loaded),
        engine=services.playing_engine(loaded),
        version=f"v{game.version}",
    )


@bp.get("/g/<public_id>/watch")
def watch(public_id: str) -> str:
    return _render("games/watch.html", public_id)


@bp.get("/g/<public_id>/watch/board")
def watch_board(public_id: str) -> Response:
    """The live part of the share view. A phone whose copy is current gets 304 from one query
    (the game's version); only a changed game is loaded and rendered."""
    row = services.game_state(public_id)
    if row is None:
        abort(404)

    return unless_unchanged(f"v{row.version}", lambda: _board(public_id))


def _board(public_id: str) -> str:
    """The live part as HTML (the same for every phone: no form, no link of its own)."""
    return _render_game(game_row_or_404(public_id), "games/_watch_board.html")


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


@bp.record_once
def _answer_unchanged_polls(state: BlueprintSetupState) -> None:
    """A phone whose copy of ``state.json`` or the live board is current gets its 304 from
    the game's version before Flask does any work (``web.unchanged_polls``); the views above
    answer every other poll, with the same ETag."""
    polls = r"/g/([^/]+)/(?:state\.json|watch/board)"
    answer_unchanged(state.app, polls, services.GAME_VERSION)


@bp.get("/g/<public_id>/qr.svg")
def qr_code(public_id: str) -> Response:
    game = game_or_404(public_id)
    return qr_svg(url_for("games.watch", public_id=game.public_id, _external=True), 86400)

"""A game's result leaving the app: the card for a group chat and the page for printing."""

from __future__ import annotations

from flask import Response, render_template, url_for

from scorekeeper.games import results, services
from scorekeeper.games.loaded import LoadedGame, load
from scorekeeper.games.presentation import Scoreboard
from scorekeeper.games.views.common import bp, game_row_or_404
from scorekeeper.rules.games import higher_wins
from scorekeeper.web.responses import svg_for_version
from scorekeeper.web.result_cards import CardLinks


@bp.app_template_global()
def game_card_links(loaded: LoadedGame, board: Scoreboard) -> CardLinks:
    """The summary's and the share view's card: its URLs, file name and words."""
    game = loaded.game
    day = results.played_on(game)
    return CardLinks(
        card_url=url_for("games.card", public_id=game.public_id, v=game.version),
        file_name=f"{game.kind.replace('_', '-')}-{day.isoformat()}.png",
        title=f"{loaded.variant.label}, {results.day_label(day)}",
        print_url=url_for("games.print_view", public_id=game.public_id),
        alt=results.game_card(loaded, board).description,
    )


@bp.get("/g/<public_id>/card.svg")
def card(public_id: str) -> Response:
    """The result card as SVG (the phone makes the PNG from it: static/js/card.js). Anyone
    with the game's link may see it, like the share view; it changes with the game's
    version."""
    loaded = load(game_row_or_404(public_id))
    return svg_for_version(
        f"card-v{loaded.game.version}",
        lambda: render_template(
            "cards/card.svg", card=results.game_card(loaded, services.scoreboard(loaded))
        ),
    )


@bp.get("/g/<public_id>/print")
def print_view(public_id: str) -> str:
    """The final board on one printed page: black on white, large type, the rules and the
    tie-break in a footnote, no navigation."""
    game = game_row_or_404(public_id)
    loaded = load(game)
    board = services.scoreboard(loaded)
    return render_template(
        "games/print.html",
        game=game,
        board=board,
        variant=loaded.variant,
        day=results.day_label(results.played_on(game)),
        rounds=results.rounds_line(board),
        rules_in_play=list(loaded.variant.in_play(loaded.rules)),
        higher=higher_wins(game.kind, game.rules),
    )

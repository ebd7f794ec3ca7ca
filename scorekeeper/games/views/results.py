"""A game's result leaving the app: the card for a group chat and the page for printing."""

from __future__ import annotations

from flask import Response, render_template, url_for

from scorekeeper.cards import CardLinks
from scorekeeper.games import kept, results
from scorekeeper.games.presentation import Scoreboard
from scorekeeper.games.setup import variant_of
from scorekeeper.games.views.common import bp, game_row_or_404
from scorekeeper.models import Game
from scorekeeper.rules.variants import higher_wins
from scorekeeper.web import svg_for_version


@bp.app_template_global()
def game_card_links(game: Game, board: Scoreboard) -> CardLinks:
    """The summary's and the share view's card: its URLs, file name and words."""
    day = results.played_on(game)
    return CardLinks(
        card_url=url_for("games.card", public_id=game.public_id, v=game.version),
        file_name=f"{game.kind.replace('_', '-')}-{day.isoformat()}.png",
        title=f"{variant_of(game).label}, {results.day_label(day)}",
        print_url=url_for("games.print_view", public_id=game.public_id),
        alt=results.game_card(game, board).description,
    )


@bp.get("/g/<public_id>/card.svg")
def card(public_id: str) -> Response:
    """The result card as SVG (the phone makes the PNG from it: static/js/card.js). Anyone
    with the game's link may see it, like the share view; it changes with the game's
    version."""
    game = game_row_or_404(public_id)
    return svg_for_version(
        f"card-v{game.version}",
        lambda: render_template("cards/card.svg", card=results.game_card(game, kept.board(game))),
    )


@bp.get("/g/<public_id>/print")
def print_view(public_id: str) -> str:
    """The final board on one printed page: black on white, large type, the rules and the
    tie-break in a footnote, no navigation."""
    game = game_row_or_404(public_id)
    board = kept.board(game)
    return render_template(
        "games/print.html",
        game=game,
        board=board,
        variant=variant_of(game),
        day=results.day_label(results.played_on(game)),
        rounds=results.rounds_line(board),
        rules_in_play=kept.in_play(game),
        higher=higher_wins(game.kind, game.rules),
    )

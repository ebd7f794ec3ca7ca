"""The keys of the limits on edit-code guesses (the limits themselves, and who asks, are in
``scorekeeper.web.rate_limits``): the game named by the address as stored, so every spelling of its
id spends one budget, and whether this phone already holds the right it would guess."""

from __future__ import annotations

from flask import g

from scorekeeper.games import access, services
from scorekeeper.models import Game
from scorekeeper.web import rate_limits


def _game() -> Game | None:
    """The game named by the address (its row alone), read once per request."""
    if "throttle_game" not in g:
        typed = rate_limits.target("public_id")
        g.throttle_game = services.find_game(typed) if typed else None
    return g.throttle_game


def game_id() -> str:
    """The game named by the address, as stored (the address may spell it otherwise where the
    database compares without regard to case)."""
    game = _game()
    return game.public_id if game is not None else rate_limits.target("public_id")


def game_and_client() -> str:
    return f"{game_id()}|{rate_limits.client()}"


def game_cap_key() -> str:
    return f"game:{game_id()}"


def holds_the_game() -> bool:
    """This phone may already change the game it would unlock (its creator, or a phone with
    its league's rights): nothing to guess, so never counted nor stopped."""
    game = _game()
    return game is not None and access.can_edit(game)

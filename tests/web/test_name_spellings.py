"""Names in one spelling wherever they enter (issue 36, item 16): the roster, a league table's
guests, a new game's players and a player joining a game. "José" typed with é or with e +
accent is one player; a name no one can see is refused with a sentence and what was typed
kept; a name is never cut short."""

from __future__ import annotations

import unicodedata

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player
from tests.web.helpers import setup_data, start_game
from tests.web.league_helpers import (
    add_players,
    player_ids,
    start_league,
    start_night,
    text_of,
)

COMPOSED = "José"  # é: one character
DECOMPOSED = "Jose\u0301"  # e followed by a combining acute
ZERO_WIDTH = "\u200b"
INVISIBLE = "A name needs at least one letter, digit or sign one can see."


def _names(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Player.name).order_by(Player.id)))


def test_the_roster_keeps_one_spelling_and_refuses_an_invisible_name(
    app: Flask, client: FlaskClient
) -> None:
    code = start_league(client)
    add_players(client, code, [DECOMPOSED])
    assert _names(app) == [COMPOSED]  # stored composed
    again = client.post(f"/leagues/{code}/players/new", data={"name": COMPOSED, "split": "no"})
    assert again.status_code == 422
    assert "José is already on the roster." in text_of(again.get_data(as_text=True))
    blank = client.post(f"/leagues/{code}/players/new", data={"name": ZERO_WIDTH, "split": "no"})
    assert blank.status_code == 422
    assert INVISIBLE in text_of(blank.get_data(as_text=True))
    assert list(player_ids(client, code)) == [COMPOSED]


def test_a_league_table_guest_is_the_roster_player_of_the_same_name(
    app: Flask, client: FlaskClient
) -> None:
    code = start_league(client)
    ids = add_players(client, code, [COMPOSED, "Bob"])
    night = start_night(client, code)
    response = client.post(
        f"/leagues/{code}/nights/{night}/tables/new",
        data={"table_name": "", "players": [str(ids["Bob"])], "guest-0": DECOMPOSED},
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert sorted(_names(app)) == ["Bob", COMPOSED]  # no second José
    refused = client.post(
        f"/leagues/{code}/nights/{night}/tables/new",
        data={"table_name": "", "players": [str(ids["Bob"])], "guest-0": ZERO_WIDTH},
    )
    assert refused.status_code == 422
    assert INVISIBLE in text_of(refused.get_data(as_text=True))


def test_a_new_game_refuses_an_invisible_or_doubled_name(app: Flask, client: FlaskClient) -> None:
    twice = client.post("/games/new", data=setup_data([COMPOSED, DECOMPOSED, "Bob"]))
    assert twice.status_code != 302
    assert "José is at the table twice" in text_of(twice.get_data(as_text=True))
    blank = client.post("/games/new", data=setup_data(["Ann", ZERO_WIDTH, "Bob"]))
    assert blank.status_code != 302
    page = blank.get_data(as_text=True)
    assert INVISIBLE in text_of(page)
    assert 'value="Ann"' in page  # what was typed stays
    public_id = start_game(client, [DECOMPOSED, "Bob"])
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.public_id == public_id)).one()
        assert game.seats[0].player.name == COMPOSED
        assert unicodedata.is_normalized("NFC", game.seats[0].player.name)


def test_a_joining_player_is_kept_in_one_spelling(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, [COMPOSED, "Bob"])
    twice = client.post(f"/g/{public_id}/join", data={"name": DECOMPOSED}, follow_redirects=True)
    assert "José is already at this table." in text_of(twice.get_data(as_text=True))
    blank = client.post(f"/g/{public_id}/join", data={"name": ZERO_WIDTH}, follow_redirects=True)
    assert INVISIBLE in text_of(blank.get_data(as_text=True))
    client.post(f"/g/{public_id}/join", data={"name": "Zoe\u0308"})
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.public_id == public_id)).one()
        assert [seat.player.name for seat in game.seats] == [COMPOSED, "Bob", "Zoë"]

"""One league, several games (issue 13): a night's tables may play another game; wins,
placement points and the rating count every game, the average one game type."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.web.helpers import enter_round
from tests.web.league_helpers import (
    add_players,
    add_table,
    start_league,
    start_night,
    table_ids,
    text_of,
)


def _table_of(client: FlaskClient, code: str, night: int, ids: list[int], game: str) -> str:
    before = set(table_ids(client, code, night))
    response = client.post(
        f"/leagues/{code}/nights/{night}/tables/new",
        data={"table_name": "", "players": [str(i) for i in ids], "game": game},
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    (new,) = set(table_ids(client, code, night)) - before
    return new


def _settings(client: FlaskClient, code: str, ranking: str) -> None:
    response = client.post(
        f"/leagues/{code}/settings",
        data={
            "name": "Thursday Club",
            "ranking": ranking,
            "min_games": "1",
            "placement_points": "5, 3, 2, 1",
            "max_pip": "12",
            "start_rule": "rotate",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def test_a_night_with_mexican_train_and_all_fives(app: Flask, client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy"])
    night = start_night(client, code)
    form = text_of(client.get(f"/leagues/{code}/nights/{night}/tables/new").get_data(as_text=True))
    assert "Which game?" in form and "All Fives (Muggins)" in form
    train = add_table(client, code, night, [ids["Ann"], ids["Bob"], ids["Cy"]])
    enter_round(client, train, points={1: 30, 2: 50}, went_out=0)  # Ann wins on 0
    client.post(f"/g/{train}/finish")
    fives = _table_of(client, code, night, [ids["Ann"], ids["Bob"], ids["Cy"]], "all_fives")
    with app.app_context():
        game = db.session.query(Game).filter_by(public_id=fives).one()
        assert game.kind == "all_fives" and game.rules["max_pip"] == 6
    assert "Hand 1" in text_of(client.get(f"/g/{fives}").get_data(as_text=True))
    # Bob makes 20 and goes out (others hold 3 and 4: 7 -> 5): Bob 25, the highest, wins.
    enter_round(client, fives, points={0: 3, 2: 4}, went_out=1, **{"seat_1-made": 20})
    client.post(f"/g/{fives}/finish")

    _settings(client, code, "wins")
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    # Ann won the train table, Bob the All Fives table (the highest total): one win each.
    assert "Ann" in page and "Bob" in page
    player = text_of(client.get(f"/leagues/{code}/players/{ids['Bob']}").get_data(as_text=True))
    assert "Wins 1" in player

    _settings(client, code, "average")
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    assert "Only Mexican Train games count here; 1 game of other types is left out." in page
    assert "one game type only" in page

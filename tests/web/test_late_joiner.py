"""A player joins a running game at the table (issue 13, item 9; rules.md 2.4 late joiner)."""

from __future__ import annotations

import csv
import io
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Game
from tests.web.helpers import correct_round, enter_round, round_form_fields, start_game
from tests.web.league_helpers import (
    add_players,
    add_table,
    start_league,
    start_night,
    text_of,
    unlock,
)

NAMES = ["Ann", "Bob", "Cy"]


def _join(client: FlaskClient, public_id: str, name: str) -> str:
    response = client.post(f"/g/{public_id}/join", data={"name": name}, follow_redirects=True)
    assert response.status_code == 200
    return text_of(response.get_data(as_text=True))


def _csv(client: FlaskClient, public_id: str) -> list[dict[str, str]]:
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(text)))


def test_a_late_joiner_starts_with_the_highest_total(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, late_joiner="highest_total")
    enter_round(client, public_id, points={1: 30, 2: 12}, went_out=0)
    enter_round(client, public_id, points={0: 10, 1: 27}, went_out=2)
    page = text_of(client.get(f"/g/{public_id}").get_data(as_text=True))
    assert "play from round 3 on, starting with 57 points" in page
    assert "Late joiner: starts with the highest current total" in page

    page = _join(client, public_id, "Di")
    assert "Di joins from round 3, starting with 57 points." in page
    form = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert 'name="seat_3-hand"' in form
    response = enter_round(client, public_id, points={0: 5, 1: 6, 3: 8}, went_out=2)
    assert response.status_code == 302, response.get_data(as_text=True)

    board = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert "not at the table yet" in board
    totals = {r["player"]: int(r["running_total"]) for r in _csv(client, public_id)}
    assert totals == {"Ann": 15, "Bob": 63, "Cy": 12, "Di": 65}
    assert [r["player"] for r in _csv(client, public_id) if r["round"] == "1"] == NAMES
    assert "Round 3, Di: joined the game before this round, starting with 57 points" in (
        text_of(board)
    )
    with app.app_context():
        game = db.session.query(Game).filter_by(public_id=public_id).one()
        assert [(s.player.name, s.joined_round, s.start_total) for s in game.seats][-1] == (
            "Di",
            3,
            57,
        )


def test_earlier_rounds_are_corrected_without_the_joiner(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, points={1: 30, 2: 12}, went_out=0)
    assert "starting with 0 points" in _join(client, public_id, "Di")
    form = client.get(f"/g/{public_id}/rounds/1").get_data(as_text=True)
    assert 'name="seat_2-hand"' in form and 'name="seat_3-hand"' not in form
    response = correct_round(client, public_id, 1, points={1: 31, 2: 12}, went_out=0)
    assert response.status_code == 302, response.get_data(as_text=True)
    # Undo takes back the correction, never the join.
    assert client.post(f"/g/{public_id}/undo").status_code == 302
    assert client.post(f"/g/{public_id}/undo").status_code == 302
    enter_round(client, public_id, points={0: 1, 1: 2, 2: 3}, went_out=3)
    rows = _csv(client, public_id)
    assert [(r["player"], r["points"]) for r in rows if r["round"] == "1"] == [
        ("Ann", "0"),
        ("Bob", "30"),
        ("Cy", "12"),
    ]
    assert [r["player"] for r in rows if r["round"] == "2"] == ["Ann", "Bob", "Cy", "Di"]


def test_a_round_form_opened_before_the_join_is_not_saved_without_them(
    app: Flask, client: FlaskClient
) -> None:
    public_id = start_game(client, NAMES)
    fields = round_form_fields(client, public_id)
    _join(client, public_id, "Di")
    response = client.post(
        f"/g/{public_id}/round",
        data={
            **fields,
            "seat_0-hand": "0",
            "seat_1-hand": "5",
            "seat_2-hand": "7",
            "went_out": "0",
        },
    )
    assert response.status_code == 422
    assert "Type Di&#39;s points" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).filter_by(public_id=public_id).one().rounds == []


def test_who_cannot_join(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    assert "Bob is already at this table." in _join(client, public_id, "  bob ")
    assert "Type the new player" in _join(client, public_id, "   ")
    enter_round(client, public_id, points={1: 5, 2: 7}, went_out=0)
    client.post(f"/g/{public_id}/finish")
    assert "This game is over" in _join(client, public_id, "Di")
    small = start_game(client, ["A", "B", "C", "D"], max_pip=6)
    assert "at most 4 players" in _join(client, small, "E")
    with app.app_context():
        assert db.session.query(Correction).count() == 0


def test_joining_needs_the_right_to_keep_score(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    other = app.test_client()
    assert other.post(f"/g/{public_id}/join", data={"name": "Di"}).status_code in (400, 403)


def test_a_league_table_seats_the_roster_player_and_counts_the_start(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    settings = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    assert "Starts with the highest current total at the table" in settings
    response = client.post(
        f"/leagues/{code}/settings",
        data={
            "name": "Thursday Club",
            "ranking": "average",
            "min_games": "3",
            "placement_points": "5, 3, 2, 1",
            "max_pip": "12",
            "start_rule": "rotate",
            "late_joiner": "highest_total",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    night = start_night(client, code)
    public_id = add_table(client, code, night, [ids["Ann"], ids["Bob"], ids["Cy"]])
    enter_round(client, public_id, points={1: 30, 2: 12}, went_out=0)
    _join(client, public_id, "di")
    enter_round(client, public_id, points={0: 5, 1: 6, 2: 7}, went_out=3)
    client.post(f"/g/{public_id}/finish")
    page = text_of(client.get(f"/leagues/{code}/players/{ids['Di']}").get_data(as_text=True))
    # Di started with Bob's 30 and went out: the league counts 30, 3rd of 4 (Ann 5, Cy 19).
    assert "Average game 30.0" in page and "30 3rd of 4" in page, page


def _edit_code_phone(app: Flask, organiser: FlaskClient, public_id: str) -> FlaskClient:
    page = organiser.get(f"/g/{public_id}").get_data(as_text=True)
    code = re.search(r'<p class="huge code">([A-Z0-9]+)</p>', page).group(1)  # type: ignore[union-attr]
    phone = app.test_client()
    assert phone.post(f"/g/{public_id}/unlock", data={"code": code}).status_code == 302
    return phone


def test_who_may_seat_a_late_arrival_at_a_league_table(app: Flask, client: FlaskClient) -> None:
    """Issue 36 item 18, as the README's rights table says: keeping score at a table (the
    passphrase, or that table's edit code) includes seating a late arrival there: a roster
    player, ranked, or any other name as a guest, listed apart and not ranked; never a new
    member. Another table's edit code, the members' link or no right: refused."""
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di", "Ed"])
    night = start_night(client, code)
    table = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    other = add_table(client, code, night, [ids["Cy"], ids["Di"]])
    other_phone = _edit_code_phone(app, client, other)
    for phone in (app.test_client(), other_phone):
        assert phone.post(f"/g/{table}/join", data={"name": "Ed"}).status_code == 403
    table_phone = _edit_code_phone(app, client, table)
    hint = "any other name plays as a guest, who is not ranked"
    assert hint in text_of(table_phone.get(f"/g/{table}").get_data(as_text=True))
    page = _join(table_phone, table, "ed")
    assert "Ed joins from round 1, starting with 0 points." in page
    page = _join(table_phone, table, "Gus")
    assert "Gus joins from round 1 as a guest, starting with 0 points: not on the league" in page
    scorer = app.test_client()
    assert unlock(scorer, code).status_code == 302
    assert "Hal joins from round 1 as a guest" in _join(scorer, table, "Hal")
    with app.app_context():
        seated = db.session.query(Game).filter_by(public_id=table).one().seats
        assert {seat.player.name: seat.player.is_guest for seat in seated} == {
            "Ann": False, "Bob": False, "Ed": False, "Gus": True, "Hal": True
        }  # fmt: skip
    # The Players page lists the guests apart from the roster.
    players = text_of(client.get(f"/leagues/{code}/players").get_data(as_text=True))
    roster, guests = players.split("Guests (2)")
    assert "Ed" in roster and "Gus" not in roster and "Hal" not in roster
    assert "Gus" in guests and "Hal" in guests
    # A game of its own has no roster: no such line.
    own = start_game(client, NAMES)
    assert hint not in text_of(client.get(f"/g/{own}").get_data(as_text=True))

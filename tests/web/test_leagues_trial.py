"""The league items of the third table trial (issue 21, items 24-28 and 30-33): adding several
players, the night's date on a league game, seat order, where a joining phone lands, the
"already saved" comparison, a second night on one date, the standings' defaults and words, the
exports' and charts' small print."""

from __future__ import annotations

import re
from datetime import date, timedelta

from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import enter_round, round_data, round_form_fields
from tests.web.league_helpers import (
    PASSPHRASE,
    add_players,
    add_table,
    play,
    start_league,
    start_night,
    text_of,
    unlock,
)


# --------------------------------------------------------------------------------------------
# 27: a phone that joins lands on tonight's tables


def test_joining_lands_on_tonights_night_when_there_is_one(client: FlaskClient) -> None:
    code = start_league(client)
    member = client.application.test_client()
    # No night yet: the standings.
    response = unlock(member, code)
    assert response.headers["Location"] == f"/leagues/{code}"
    night = start_night(client, code, date.today().isoformat())
    answer = unlock(client.application.test_client(), code)
    assert answer.headers["Location"] == f"/leagues/{code}/nights/{night}"
    answer = client.application.test_client().post(
        "/leagues/join", data={"code": code, "passphrase": PASSPHRASE}
    )
    assert answer.headers["Location"] == f"/leagues/{code}/nights/{night}"


def test_joining_lands_on_the_latest_night_still_playing(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    old = start_night(client, code, (date.today() - timedelta(days=30)).isoformat())
    finished = add_table(client, code, old, [ids["Ann"], ids["Bob"]])
    play(client, finished, [0, 10])
    member = client.application.test_client()
    # Only a finished night a month ago: the standings.
    assert unlock(member, code).headers["Location"] == f"/leagues/{code}"
    later = start_night(client, code, (date.today() - timedelta(days=7)).isoformat())
    add_table(client, code, later, [ids["Ann"], ids["Bob"]])
    phone = client.application.test_client()
    assert unlock(phone, code).headers["Location"] == f"/leagues/{code}/nights/{later}"


# --------------------------------------------------------------------------------------------
# 25: a league game is dated by its night, not by the day its scores were typed


def test_a_league_game_shows_its_nights_date(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code, "2025-03-06")
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, game, [0, 10])
    today = date.today()
    typed_on = f"{today.day} {today:%b %Y}"
    summary = client.get(f"/g/{game}/summary").get_data(as_text=True)
    assert "Mexican Train, 6 Mar 2025: 1 of 13 rounds" in summary
    assert typed_on not in summary
    delete_page = text_of(client.get(f"/g/{game}/delete").get_data(as_text=True))
    assert "started 6 Mar 2025" in delete_page
    home = text_of(client.get("/").get_data(as_text=True))
    assert "6 Mar 2025" in home and typed_on not in home

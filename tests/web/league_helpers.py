"""Small actions for league tests: start a league, add players, run a night, play a table."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select, update
from werkzeug.routing import Rule

from scorekeeper.extensions import db
from scorekeeper.leagues import access
from scorekeeper.models import Game, League
from tests.web.helpers import enter_round

PASSPHRASE = "blue engine 7"


def start_league(client: FlaskClient, name: str = "Thursday Club", **settings: Any) -> str:
    """Create a league from this client (its organiser); returns the league code."""
    response = client.post("/leagues/new", data={"name": name, "passphrase": PASSPHRASE})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[2]


def add_players(client: FlaskClient, code: str, names: list[str]) -> dict[str, int]:
    for name in names:
        # Each name is one player, commas and all ("split": "no" is the page's own answer).
        response = client.post(f"/leagues/{code}/players/new", data={"name": name, "split": "no"})
        assert response.status_code == 302, response.get_data(as_text=True)
    return player_ids(client, code)


def player_ids(client: FlaskClient, code: str) -> dict[str, int]:
    page = client.get(f"/leagues/{code}/players").get_data(as_text=True)
    found = re.findall(
        rf'href="/leagues/{code}/players/(\d+)">\s*<span class="label">([^<]+)<', page
    )
    return {name: int(pid) for pid, name in found}


def start_night(
    client: FlaskClient, code: str, day: str = "2025-03-06", place: str = "Hall"
) -> int:
    response = client.post(f"/leagues/{code}/nights/new", data={"played_on": day, "place": place})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].split("/")[4])


def add_table(
    client: FlaskClient,
    code: str,
    night: int,
    player_ids: list[int],
    guests: list[str] | None = None,
    table_name: str = "",
) -> str:
    """Seat a table; returns its game's public id."""
    data: dict[str, Any] = {"table_name": table_name, "players": [str(p) for p in player_ids]}
    for index, guest in enumerate(guests or []):
        data[f"guest-{index}"] = guest
    before = set(table_ids(client, code, night))
    response = client.post(f"/leagues/{code}/nights/{night}/tables/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    (new,) = set(table_ids(client, code, night)) - before
    return new


def table_ids(client: FlaskClient, code: str, night: int) -> list[str]:
    page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    return list(dict.fromkeys(re.findall(r'href="/g/([A-Za-z0-9_-]+)"', page)))


def play(client: FlaskClient, public_id: str, totals: list[int], whole: bool = True) -> None:
    """A game whose totals are ``totals`` (seat order): one round with these scores (a 0 went
    out; blocked when nobody has 0), then the table ends the game early. With ``whole`` (the
    default) the game then stands for a whole game played to its last round (typing thirteen
    rounds would only slow the tests down): the average standings count it. ``whole=False``
    leaves it as ended early, as the app marks it."""
    went_out = next((i for i, value in enumerate(totals) if value == 0), None)
    response = enter_round(
        client,
        public_id,
        points=dict(enumerate(totals)),
        went_out=went_out if went_out is not None else "blocked",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert client.post(f"/g/{public_id}/finish").status_code == 302
    if whole:
        with client.application.app_context():
            db.session.execute(
                update(Game).where(Game.public_id == public_id).values(ended_early=False)
            )
            db.session.commit()


def unlock(client: FlaskClient, code: str, passphrase: str = PASSPHRASE) -> Any:
    return client.post(f"/leagues/{code}/unlock", data={"passphrase": passphrase})


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def route_values(code: str, night: int, player_id: int, public_id: str) -> dict[str, Any]:
    """A value for each argument of the players' routes, for a league ``code`` with a night, a
    player and a game (in an app context: the league's tokens are read from the database)."""
    league = db.session.scalars(select(League).where(League.code == code)).one()
    return {
        "code": code,
        "night_id": night,
        "player_id": player_id,
        "public_id": public_id,
        "number": 1,
        "token": league.public_token,
        "leagues.members_link:token": access.members_token(league),
        "leagues.members_qr:token": access.members_token(league),
        "leagues.join_link:token": access.join_token(league, night),
        "leagues.claim_organiser:token": access.organiser_token(league),
        "games.photo:token": "nothing",
    }


def page_url(rule: Rule, values: dict[str, Any]) -> str:
    """The address of ``rule`` with ``values`` (an "<endpoint>:<argument>" key first, then the
    argument's own, then 1)."""
    arguments = {
        name: values.get(f"{rule.endpoint}:{name}", values.get(name, 1)) for name in rule.arguments
    }
    return rule.build(arguments, append_unknown=False)[1]

"""Seat tonight's tables (issue 39, items 4 to 6): the organiser ticks who is here, sees tables
that mix the club with how often each pair met, swaps two players and starts the tables; a
stale proposal or the same form sent twice starts nothing; the table phones and the members'
link show who sits where; a seated night goes out and comes back with the league's file."""

from __future__ import annotations

import html
import json
import re
from datetime import date
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game, League, Night, Player
from tests.web.league_helpers import (
    add_players,
    add_table,
    play,
    start_league,
    start_night,
    text_of,
    unlock,
)
from tests.web.test_leagues_transfer import confirm, upload

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def _league(client: FlaskClient) -> tuple[str, dict[str, int], int]:
    """Eight players; on the first night Ann, Bob, Cy, Di at one table and the rest at another
    (hand-made tables); a second night, not seated yet."""
    code = start_league(client)
    ids = add_players(client, code, NAMES)
    first = start_night(client, code, "2025-03-06")
    add_table(client, code, first, [ids[n] for n in NAMES[:4]])
    add_table(client, code, first, [ids[n] for n in NAMES[4:]])
    return code, ids, start_night(client, code, "2025-03-13")


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
    if match is None:
        match = re.search(rf'id="{name}" name="{name}" type="hidden" value="([^"]*)"', page)
    assert match, page
    return html.unescape(match.group(1))


def _form(page: str, ids: list[int], **extra: Any) -> dict[str, Any]:
    """What the page would send back: its proposal, what it was based on, the ticks."""
    return {
        "players": [str(i) for i in ids],
        "size": "4",
        "tables": _hidden(page, "tables"),
        "present": _hidden(page, "present"),
        "basis": _hidden(page, "basis"),
        **extra,
    }


def _propose(client: FlaskClient, code: str, night: int, ids: list[int], **extra: Any) -> str:
    data = {"players": [str(i) for i in ids], "size": "4", "action": "propose", **extra}
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def _tables_of(app: Flask, night: int) -> list[list[str]]:
    with app.app_context():
        games = db.session.scalars(select(Game).where(Game.night_id == night).order_by(Game.id))
        return [[seat.player.name for seat in game.seats] for game in games]


def test_last_nights_players_are_ticked_and_the_tables_mix_them(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    page = client.get(f"/leagues/{code}/nights/{night}/seat").get_data(as_text=True)
    for name in NAMES:
        assert re.search(rf'value="{ids[name]}" checked> <span>{name}<', page), name
    page = _propose(client, code, night, list(ids.values()))
    tables = json.loads(_hidden(page, "tables"))
    assert sorted(len(table) for table in tables) == [4, 4]
    # Two tables of four from two tables of four: each new table has two of each old one, so
    # two pairs a table met once before, and the page says which.
    text = text_of(page)
    assert text.count("met once before") == 4
    assert "Table 1" in text and "Table 2" in text
    response = client.post(
        f"/leagues/{code}/nights/{night}/seat", data=_form(page, list(ids.values()), action="start")
    )
    assert response.status_code == 302
    names = {f"p{pid}": name for name, pid in ids.items()}
    assert _tables_of(client.application, night) == [[names[k] for k in t] for t in tables]
    assert "2 tables started." in text_of(
        client.get(response.headers["Location"]).get_data(as_text=True)
    )


def test_guests_are_seated_but_not_members(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    chosen = [ids[n] for n in NAMES[:3]]
    page = _propose(client, code, night, chosen, **{"guest-0": "Zed"})
    assert "Zed" in page and "guest" in text_of(page)
    data = _form(page, chosen, action="start", **{"guest-0": "Zed"})
    assert client.post(f"/leagues/{code}/nights/{night}/seat", data=data).status_code == 302
    assert sorted(_tables_of(client.application, night)[0]) == ["Ann", "Bob", "Cy", "Zed"]
    with client.application.app_context():
        zed = db.session.scalars(select(Player).where(Player.name == "Zed")).one()
        assert zed.is_guest


def test_two_players_swap_tables(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    page = _propose(client, code, night, list(ids.values()))
    first, second = json.loads(_hidden(page, "tables"))
    data = _form(page, list(ids.values()), action="swap", pick=[first[0], second[0]])
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code == 200
    swapped = json.loads(_hidden(response.get_data(as_text=True), "tables"))
    assert sorted(swapped[0] + swapped[1]) == sorted(first + second)
    assert second[0] in next(t for t in swapped if first[1] in t)
    assert first[0] in next(t for t in swapped if second[1] in t)
    # Two at one table, or only one tapped: said, nothing swapped.
    for pick in ([first[0], first[1]], [first[0]]):
        data = _form(page, list(ids.values()), action="swap", pick=pick)
        response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
        assert response.status_code == 422
        assert "tap" in text_of(response.get_data(as_text=True)).lower()
        assert json.loads(_hidden(response.get_data(as_text=True), "tables")) == [first, second]


def test_a_stale_proposal_starts_nothing_and_offers_to_propose_again(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    everyone = list(ids.values())
    page = _propose(client, code, night, [ids[n] for n in NAMES[:6]])
    # Meanwhile another phone seats Gus and Hal by hand.
    add_table(client, code, night, [ids["Gus"], ids["Hal"]])
    data = _form(page, [ids[n] for n in NAMES[:6]], action="start")
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code == 409
    text = text_of(response.get_data(as_text=True))
    assert "changed since these were proposed" in text and "Propose again" in text
    assert "Start these tables" not in text
    assert _tables_of(client.application, night) == [["Gus", "Hal"]]
    # Who is here changed since the proposal (Fay went home): refused, nothing started.
    page = _propose(client, code, night, [ids[n] for n in NAMES[:6]])
    data = _form(page, [ids[n] for n in NAMES[:5]], action="start")
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code == 409
    assert "Who is here changed" in text_of(response.get_data(as_text=True))
    assert len(_tables_of(client.application, night)) == 1
    # Players of the proposal seated at another table meanwhile: said so, nothing started.
    page = _propose(client, code, night, [ids[n] for n in NAMES[:6]])
    add_table(client, code, night, [ids["Eve"], ids["Fay"]])
    data = _form(page, [ids[n] for n in NAMES[:6]], action="start")
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code == 409
    text = text_of(response.get_data(as_text=True))
    assert "seated at another table meanwhile" in text
    assert len(_tables_of(client.application, night)) == 2
    assert everyone


def test_a_typed_name_of_a_busy_player_is_refused(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    data = {"players": [str(ids["Cy"])], "size": "4", "action": "propose", "guest-0": "ann"}
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Ann is already playing at Table 1 tonight." in text_of(page)
    assert 'value="ann"' in page  # what was typed stays


def test_the_same_start_sent_twice_starts_the_tables_once(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    page = _propose(client, code, night, list(ids.values()))
    data = _form(page, list(ids.values()), action="start")
    assert client.post(f"/leagues/{code}/nights/{night}/seat", data=data).status_code == 302
    again = client.post(f"/leagues/{code}/nights/{night}/seat", data=data, follow_redirects=True)
    assert again.status_code == 200
    assert "These tables have started already." in text_of(again.get_data(as_text=True))
    assert len(_tables_of(client.application, night)) == 2


def test_only_the_organiser_seats_the_night(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    page = _propose(client, code, night, list(ids.values()))
    scorer = client.application.test_client()
    assert unlock(scorer, code).status_code == 302
    assert scorer.get(f"/leagues/{code}/nights/{night}/seat").status_code == 403
    data = _form(page, list(ids.values()), action="start")
    assert scorer.post(f"/leagues/{code}/nights/{night}/seat", data=data).status_code == 403
    late = {"player": str(ids["Ann"])}
    assert scorer.post(f"/leagues/{code}/nights/{night}/late", data=late).status_code == 403
    assert _tables_of(client.application, night) == []


def test_starting_needs_the_forms_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    code, ids, night = _league_with_token(client)
    page = client.get(f"/leagues/{code}/nights/{night}/seat").get_data(as_text=True)
    token = _hidden(page, "csrf_token")
    data = {"players": [str(i) for i in ids.values()], "size": "4", "action": "propose"}
    response = client.post(
        f"/leagues/{code}/nights/{night}/seat", data={**data, "csrf_token": token}
    )
    assert response.status_code == 200
    proposal = _form(response.get_data(as_text=True), list(ids.values()), action="start")
    assert client.post(f"/leagues/{code}/nights/{night}/seat", data=proposal).status_code == 400
    assert _tables_of(csrf_app, night) == []
    proposal["csrf_token"] = token
    assert client.post(f"/leagues/{code}/nights/{night}/seat", data=proposal).status_code == 302
    assert len(_tables_of(csrf_app, night)) == 2


def _league_with_token(client: FlaskClient) -> tuple[str, dict[str, int], int]:
    """``_league`` on an app that checks the forms' token: each post sends the page's."""

    def post(url: str, data: dict[str, Any]) -> Any:
        token = _hidden(
            client.get(f"/leagues/{code}/nights/new").get_data(as_text=True), "csrf_token"
        )
        return client.post(url, data={**data, "csrf_token": token})

    page = client.get("/leagues/new").get_data(as_text=True)
    response = client.post(
        "/leagues/new",
        data={
            "name": "Club",
            "passphrase": "blue engine 7",
            "csrf_token": _hidden(page, "csrf_token"),
        },
    )
    code = response.headers["Location"].split("/")[2]
    for name in NAMES:
        post(f"/leagues/{code}/players/new", {"name": name, "split": "no"})
    response = post(f"/leagues/{code}/nights/new", {"played_on": "2025-03-13", "place": "Hall"})
    night = int(response.headers["Location"].split("/")[4])
    with client.application.app_context():
        players = db.session.scalars(select(Player).where(Player.name.in_(NAMES)))
        ids = {p.name: p.id for p in players}
    return code, ids, night


def test_a_late_arrival_joins_where_they_met_the_fewest(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    # Tonight: Ann, Bob, Eve at one table, Cy, Fay, Gus at another (by hand). Di met Ann, Bob
    # and Cy on the first night: the second table holds only one of them.
    add_table(client, code, night, [ids["Ann"], ids["Bob"], ids["Eve"]])
    add_table(client, code, night, [ids["Cy"], ids["Fay"], ids["Gus"]])
    page = client.get(f"/leagues/{code}/nights/{night}/seat").get_data(as_text=True)
    assert "Someone arrived late?" in page and "Add to a table" in page
    response = client.post(f"/leagues/{code}/nights/{night}/late", data={"player": str(ids["Di"])})
    assert response.status_code == 302
    assert _tables_of(client.application, night)[1] == ["Cy", "Fay", "Gus", "Di"]
    shown = text_of(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Di joins Table 2 from round 1" in shown
    # A guest's name: the first table (no one met), then nobody: said, nothing seated.
    response = client.post(f"/leagues/{code}/nights/{night}/late", data={"guest": "Zed"})
    assert _tables_of(client.application, night)[0] == ["Ann", "Bob", "Eve", "Zed"]
    response = client.post(f"/leagues/{code}/nights/{night}/late", data={}, follow_redirects=True)
    assert "Choose who arrived" in text_of(response.get_data(as_text=True))


def test_strong_with_strong_seats_by_the_standings(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, NAMES)
    first = start_night(client, code, "2025-03-06")
    low = add_table(client, code, first, [ids[n] for n in NAMES[:4]])
    high = add_table(client, code, first, [ids[n] for n in NAMES[4:]])
    play(client, low, [0, 10, 20, 30])  # Ann, Bob, Cy, Di: the best (lowest) totals
    play(client, high, [40, 50, 60, 70])
    night = start_night(client, code, "2025-03-13")
    everyone = [ids[n] for n in reversed(NAMES)]
    page = _propose(client, code, night, everyone, strong="y")
    tables = json.loads(_hidden(page, "tables"))
    assert [sorted(t) for t in tables] == [
        sorted(f"p{ids[n]}" for n in NAMES[:4]),
        sorted(f"p{ids[n]}" for n in NAMES[4:]),
    ]


def test_the_table_phones_and_the_members_link_show_who_sits_where(client: FlaskClient) -> None:
    code, ids, night = _league(client)
    add_table(
        client, code, night, [ids[n] for n in ["Ann", "Bob", "Cy", "Di"]], table_name="Table 2"
    )
    table_phone = client.application.test_client()
    assert unlock(table_phone, code).status_code == 302
    page = text_of(table_phone.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True))
    assert "Table 2: Ann, Bob, Cy, Di" in page
    manage = client.get(f"/leagues/{code}/manage").get_data(as_text=True)
    link = re.search(rf'href="https?://[^/"]+(/leagues/{code}/members/[^/"]+)"', manage)
    assert link
    member = client.application.test_client()
    assert member.get(link.group(1)).status_code == 302
    page = text_of(member.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True))
    assert "Table 2: Ann, Bob, Cy, Di" in page
    assert client.post(f"/leagues/{code}/settings/public", data={"action": "on"}).status_code == 302
    with client.application.app_context():
        league_night = db.session.get(Night, night)
        assert league_night is not None
        token = league_night.league.public_token
    page = text_of(client.get(f"/p/{token}/nights/{night}").get_data(as_text=True))
    assert "Table 2: Ann, Bob, Cy, Di" in page


@pytest.mark.parametrize("kind", ["json", "zip"])
def test_a_seated_night_goes_out_and_comes_back_in_seat_order(
    client: FlaskClient, kind: str
) -> None:
    code, ids, night = _league(client)
    page = _propose(client, code, night, list(ids.values()), **{"guest-0": "Zed"})
    data = _form(page, list(ids.values()), action="start", **{"guest-0": "Zed"})
    assert client.post(f"/leagues/{code}/nights/{night}/seat", data=data).status_code == 302
    seated = _tables_of(client.application, night)
    document = json.loads(client.get(f"/leagues/{code}/export.json").data)
    exported = [g for n in document["nights"] if n["date"] == "2025-03-13" for g in n["games"]]
    names = {p["id"]: p["name"] for p in document["players"]}
    assert [[names[p] for p in game["players"]] for game in exported] == seated
    other = client.application.test_client()
    new_code = start_league(other, "Copy Club")
    exported = client.get(f"/leagues/{code}/export.{kind}").data
    preview = upload(other, new_code, exported, f"league.{kind}")
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert confirm(other, new_code, preview.get_data(as_text=True)).status_code == 302
    with client.application.app_context():
        copy = db.session.scalars(
            select(Night)
            .join(League, League.id == Night.league_id)
            .where(League.code == new_code, Night.played_on == date(2025, 3, 13))
        ).one()
        copied = [[seat.player.name for seat in game.seats] for game in copy.games]
    assert copied == seated


@pytest.mark.parametrize(
    "extra",
    [
        {"size": "nine"},
        {"size": "9"},
        {"tables": "not json", "action": "start"},
        {"tables": '{"a": 1}', "action": "swap"},
        {"tables": '[["p1", 2]]', "action": "start"},
        {"tables": '[["nobody"]]', "present": '["nobody"]', "action": "start"},
        {"present": "[", "action": "start"},
        {"basis": "\x00", "action": "start"},
        {"pick": ["\u202e", "p0"], "action": "swap"},
        {"players": ["x", "-1"]},
        {"guest-0": "\u0000"},
        {"guest-0": "A" * 500},
    ],
)
def test_odd_input_gets_a_page_never_a_server_error(
    client: FlaskClient, extra: dict[str, Any]
) -> None:
    code, ids, night = _league(client)
    page = _propose(client, code, night, list(ids.values()))
    data = _form(page, list(ids.values()), **extra)
    response = client.post(f"/leagues/{code}/nights/{night}/seat", data=data)
    assert response.status_code in (200, 409, 422), response.get_data(as_text=True)
    assert _tables_of(client.application, night) == []
    for late in ({"player": "x"}, {"player": "999999"}, {"guest": "\u0000"}, {}):
        response = client.post(f"/leagues/{code}/nights/{night}/late", data=late)
        assert response.status_code == 302

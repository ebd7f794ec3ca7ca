"""Who may do what in a league: every write route and every page against no rights, another
league's rights, and each of this league's three rights (reading with the members' link,
keeping score with the passphrase, running the league as the organiser); the passphrase, join
links, the members' link, rate limits."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db, limiter
from tests.conftest import empty_database, make_app
from tests.web.helpers import enter_round, round_data
from tests.web.league_helpers import (
    PASSPHRASE,
    add_players,
    add_table,
    start_league,
    start_night,
    unlock,
)


@dataclass
class League:
    code: str
    night: int
    game: str
    ann: int
    bob: int
    season: int


def _league(organiser: FlaskClient) -> League:
    code = start_league(organiser)
    ids = add_players(organiser, code, ["Ann", "Bob", "Cy"])
    night = start_night(organiser, code)
    game = add_table(organiser, code, night, [ids["Ann"], ids["Bob"]])
    organiser.post(
        f"/leagues/{code}/seasons",
        data={"name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    )
    page = organiser.get(f"/leagues/{code}/seasons").get_data(as_text=True)
    season = int(re.search(rf"/leagues/{code}/seasons/(\d+)/delete", page).group(1))  # type: ignore[union-attr]
    return League(code, night, game, ids["Ann"], ids["Bob"], season)


SETTINGS = {
    "name": "Renamed",
    "ranking": "wins",
    "min_games": "2",
    "min_nights_percent": "0",
    "placement_points": "5,3,2,1",
    "best_nights": "",
    "max_pip": "12",
    "double_blank": "0",
    "blank_half": "0",
    "end_on_double": "allowed",
    "marker_penalty": "0",
    "going_out_bonus": "0",
    "start_rule": "engine_holder",
}
CSV = b"night,table,player,round,score\n2025-02-01,Table 9,Ann,1,0\n2025-02-01,Table 9,Bob,1,7\n"

READER, SCORER, ORGANISER = "reader", "scorer", "organiser"
LEVELS = (READER, SCORER, ORGANISER)

# (route, data, the least right that may do it)
WRITE_ROUTES = [
    ("/leagues/{code}/forget", {}, READER),
    ("/g/{game}/round", round_data({0: 0, 1: 9}, went_out=0, form_token="league-t"), SCORER),
    ("/g/{game}/join", {"name": "Zed"}, SCORER),  # a late arrival: a new name is a guest
    ("/leagues/{code}/nights/new", {"played_on": "2025-03-13", "place": "Hall"}, ORGANISER),
    (
        "/leagues/{code}/nights/{night}/edit",
        {"played_on": "2025-03-07", "place": "Pub"},
        ORGANISER,
    ),
    ("/leagues/{code}/nights/{night}/delete", {}, ORGANISER),
    (
        "/leagues/{code}/nights/{night}/tables/new",
        {"players": ["{cy}"], "guest-0": "Zed"},
        ORGANISER,
    ),
    ("/leagues/{code}/nights/{night}/tables/{game}/remove", {}, ORGANISER),
    (
        "/leagues/{code}/nights/{night}/seat",
        {"players": ["{cy}"], "guest-0": "Zed", "action": "propose"},
        ORGANISER,
    ),
    ("/leagues/{code}/nights/{night}/late", {"guest": "Zed"}, ORGANISER),
    ("/leagues/{code}/players/new", {"name": "Dot"}, ORGANISER),
    ("/leagues/{code}/players/{ann}/edit", {"name": "Annie"}, ORGANISER),
    ("/leagues/{code}/players/{cy}/delete", {}, ORGANISER),
    ("/leagues/{code}/players/{ann}/merge", {"target": "{cy}", "confirm": "yes"}, ORGANISER),
    (
        "/leagues/{code}/seasons",
        {"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
        ORGANISER,
    ),
    ("/leagues/{code}/seasons/{season}/delete", {}, ORGANISER),
    ("/leagues/{code}/import", {"dates": "day_first", "file": "CSV"}, ORGANISER),
    ("/leagues/{code}/import/confirm", {"token": "IMPORT"}, ORGANISER),
    ("/leagues/{code}/settings", SETTINGS, ORGANISER),
    ("/leagues/{code}/settings/passphrase", {"new_passphrase": "red engine 9"}, ORGANISER),
    ("/leagues/{code}/settings/public", {"action": "on"}, ORGANISER),
]
IDS = [route for route, _, _ in WRITE_ROUTES]

# (page, the least right that may see it); a phone without any right goes to the passphrase page
PAGES = [
    ("", READER),
    ("/nights", READER),
    ("/nights/{night}", READER),
    ("/nights/{night}/live", READER),
    ("/players", READER),
    ("/players/{ann}", READER),
    ("/seasons", READER),
    ("/manage", READER),
    ("/export.json", READER),
    ("/export.zip", READER),
    ("/nights/{night}/qr.svg", SCORER),
    ("/nights/new", ORGANISER),
    ("/nights/{night}/edit", ORGANISER),
    ("/nights/{night}/tables/new", ORGANISER),
    ("/nights/{night}/seat", ORGANISER),
    ("/players/{ann}/edit", ORGANISER),
    ("/players/{ann}/merge", ORGANISER),
    ("/import", ORGANISER),
    ("/settings", ORGANISER),
]


def _members_link(organiser: FlaskClient, code: str) -> str:
    page = organiser.get(f"/leagues/{code}/manage").get_data(as_text=True)
    match = re.search(rf'href="https?://[^/"]+(/leagues/{code}/members/[^/"]+)"', page)
    assert match, "the members' link is on the More page"
    return match.group(1)


def _phone(organiser: FlaskClient, league: League, level: str) -> FlaskClient:
    """A phone with ``level`` in ``league``: the organiser's own, or a new phone that typed the
    passphrase or opened the members' link."""
    if level == ORGANISER:
        return organiser
    phone = organiser.application.test_client()
    if level == SCORER:
        assert unlock(phone, league.code).status_code == 302
    else:
        assert phone.get(_members_link(organiser, league.code)).status_code == 302
    return phone


def _post(client: FlaskClient, league: League, route: str, data: dict, organiser: FlaskClient):  # type: ignore[no-untyped-def,type-arg]
    import io

    cy = organiser.get(f"/leagues/{league.code}/players").get_data(as_text=True)
    cy_id = re.search(rf'/leagues/{league.code}/players/(\d+)">\s*<span class="label">Cy<', cy)
    values = {
        "code": league.code,
        "night": league.night,
        "game": league.game,
        "ann": league.ann,
        "season": league.season,
        "cy": cy_id.group(1) if cy_id else "0",
    }
    url = route.format(**values)
    form: dict = {}  # type: ignore[type-arg]
    for key, value in data.items():
        if value == "CSV":
            form[key] = (io.BytesIO(CSV), "sheet.csv")
        elif value == "IMPORT":
            form[key] = _pending_import(organiser, league) + ":day_first"
        elif isinstance(value, list):
            form[key] = [item.format(**values) for item in value]
        else:
            form[key] = value.format(**values) if isinstance(value, str) else value
    return client.post(url, data=form, content_type="multipart/form-data")


def _pending_import(organiser: FlaskClient, league: League) -> str:
    import io

    response = organiser.post(
        f"/leagues/{league.code}/import",
        data={"file": (io.BytesIO(CSV), "sheet.csv"), "dates": "day_first"},
        content_type="multipart/form-data",
    )
    match = re.search(
        r'name="token" type="hidden" value="([^":]+)', response.get_data(as_text=True)
    )
    assert match, response.get_data(as_text=True)
    return match.group(1)


def _snapshot(organiser: FlaskClient, league: League) -> dict:  # type: ignore[type-arg]
    document = json.loads(organiser.get(f"/leagues/{league.code}/export.json").data)
    document.pop("exported_at")
    settings = organiser.get(f"/leagues/{league.code}/settings").get_data(as_text=True)
    return {"document": document, "public": "Turn the public page on" in settings}


@pytest.mark.parametrize(("route", "data", "needed"), WRITE_ROUTES, ids=IDS)
def test_no_rights_is_refused(
    client: FlaskClient,
    route: str,
    data: dict,  # type: ignore[type-arg]
    needed: str,
) -> None:
    league = _league(client)
    before = _snapshot(client, league)
    stranger = client.application.test_client()
    response = _post(stranger, league, route, data, client)
    assert response.status_code == 403
    assert _snapshot(client, league) == before


@pytest.mark.parametrize(("route", "data", "needed"), WRITE_ROUTES, ids=IDS)
def test_rights_to_another_league_are_refused(
    client: FlaskClient,
    route: str,
    data: dict,  # type: ignore[type-arg]
    needed: str,
) -> None:
    league = _league(client)
    other = client.application.test_client()
    other_code = start_league(other, "Other Club")  # organiser of another league
    member = client.application.test_client()
    assert unlock(member, other_code).status_code == 302  # passphrase of another league
    reader = client.application.test_client()
    assert reader.get(_members_link(other, other_code)).status_code == 302
    before = _snapshot(client, league)
    for outsider in (other, member, reader):
        response = _post(outsider, league, route, data, client)
        assert response.status_code == 403
    assert _snapshot(client, league) == before


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("route", "data", "needed"), WRITE_ROUTES, ids=IDS)
def test_each_right_does_what_it_may_and_no_more(
    client: FlaskClient,
    route: str,
    data: dict,  # type: ignore[type-arg]
    needed: str,
    level: str,
) -> None:
    league = _league(client)
    phone = _phone(client, league, level)
    before = _snapshot(client, league)
    response = _post(phone, league, route, data, client)
    if LEVELS.index(level) >= LEVELS.index(needed):
        assert response.status_code in (200, 302), response.get_data(as_text=True)
    else:
        assert response.status_code == 403
        assert _snapshot(client, league) == before
        if route.startswith("/leagues"):
            assert "edit code" not in response.get_data(as_text=True)  # the league's words


@pytest.mark.parametrize("level", ["", *LEVELS])
@pytest.mark.parametrize(("page", "needed"), PAGES, ids=[page or "/" for page, _ in PAGES])
def test_each_page_opens_for_the_rights_it_needs(
    client: FlaskClient, page: str, needed: str, level: str
) -> None:
    league = _league(client)
    phone = _phone(client, league, level) if level else client.application.test_client()
    url = f"/leagues/{league.code}" + page.format(night=league.night, ann=league.ann)
    response = phone.get(url)
    if not level:
        assert response.status_code == 302
        assert f"/leagues/{league.code}/unlock" in response.headers["Location"]
    elif LEVELS.index(level) >= LEVELS.index(needed):
        assert response.status_code == 200
    else:
        assert response.status_code == 403
        text = response.get_data(as_text=True)
        assert "edit code" not in text
        assert (
            "Only the organiser" in text if needed == ORGANISER else "needs the passphrase" in text
        )


def test_a_table_phone_is_told_who_changes_the_settings(client: FlaskClient) -> None:
    league = _league(client)
    scorer = _phone(client, league, SCORER)
    page = scorer.get(f"/leagues/{league.code}/settings")
    text = page.get_data(as_text=True)
    assert page.status_code == 403
    assert "Only the organiser&#39;s phone can do this" in text
    assert "This phone can keep score at the league&#39;s tables." in text
    assert "edit code" not in text


def test_private_pages_send_strangers_to_the_passphrase(client: FlaskClient) -> None:
    league = _league(client)
    stranger = client.application.test_client()
    page = stranger.get(f"/leagues/{league.code}/unlock").get_data(as_text=True)
    assert "members' link" in page and "passphrase" in page  # which is which
    # A table of a league night: readable by anyone (like every game), editable with rights.
    assert stranger.get(f"/g/{league.game}").status_code == 200
    assert stranger.get(f"/g/{league.game}/round").status_code == 302
    reader = _phone(client, league, READER)
    assert reader.get(f"/g/{league.game}/round").status_code == 302  # reading is not scoring
    member = _phone(client, league, SCORER)
    assert member.get(f"/g/{league.game}/round").status_code == 200


def test_the_members_link_is_shown_at_the_table_and_lasts_until_the_passphrase_changes(
    client: FlaskClient,
) -> None:
    league = _league(client)
    link = _members_link(client, league.code)
    # Every phone at the table with a league right sees it (issue 21 item 2: a phone with
    # none, a share link's, does not: see test_rights_trail).
    table = _phone(client, league, SCORER).get(f"/g/{league.game}").get_data(as_text=True)
    assert link in table
    qr = re.search(r'src="(/leagues/[^"]+/qr\.svg)"', table)
    assert qr and client.application.test_client().get(qr.group(1)).mimetype == "image/svg+xml"
    reader = client.application.test_client()
    response = reader.get(link)
    assert response.headers["Location"].endswith(f"/leagues/{league.code}")
    assert reader.get(f"/leagues/{league.code}").status_code == 200
    assert "Thursday Club" in reader.get("/leagues").get_data(as_text=True)
    assert reader.get(f"/leagues/{league.code}/members/forged.token").status_code == 410
    client.post(
        f"/leagues/{league.code}/settings/passphrase", data={"new_passphrase": "red engine 9"}
    )
    assert reader.get(f"/leagues/{league.code}").status_code == 302
    assert client.application.test_client().get(link).status_code == 410
    assert _members_link(client, league.code) != link


def test_a_roster_entry_goes_only_without_games(client: FlaskClient) -> None:
    league = _league(client)
    page = client.get(f"/leagues/{league.code}/players/{league.ann}/edit").get_data(as_text=True)
    assert "Ann has 1 game in the league, so the entry stays" in page
    response = client.post(f"/leagues/{league.code}/players/{league.ann}/delete")
    assert response.status_code == 302
    assert "so the entry stays" in client.get(response.headers["Location"]).get_data(as_text=True)
    assert client.get(f"/leagues/{league.code}/players/{league.ann}").status_code == 200
    cy = _post(client, league, "/leagues/{code}/players/{cy}/delete", {}, client)
    assert cy.status_code == 302
    players = client.get(f"/leagues/{league.code}/players").get_data(as_text=True)
    assert "Cy is no longer on the roster." in players and ">Cy<" not in players


def test_names_with_a_comma_are_asked_about(client: FlaskClient) -> None:
    league = _league(client)
    url = f"/leagues/{league.code}/players/new"
    page = client.post(url, data={"name": "Alice, Boris"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "looks like 2 names" in text
    assert "Alice, Boris</span>" not in client.get(f"/leagues/{league.code}/players").get_data(
        as_text=True
    )  # nothing added yet
    response = client.post(url, data={"name": "Alice, Boris", "split": "yes"})
    assert response.status_code == 302
    players = client.get(f"/leagues/{league.code}/players").get_data(as_text=True)
    assert ">Alice<" in players and ">Boris<" in players
    response = client.post(url, data={"name": "Smith, Jo", "split": "no"})
    assert response.status_code == 302
    assert ">Smith, Jo<" in client.get(f"/leagues/{league.code}/players").get_data(as_text=True)


def test_the_passphrase_unlocks_with_a_message_for_a_wrong_one(client: FlaskClient) -> None:
    league = _league(client)
    member = client.application.test_client()
    response = unlock(member, league.code, "wrong words")
    assert response.status_code == 422
    assert "not the league&#39;s passphrase" in response.get_data(as_text=True)
    response = unlock(member, league.code, "  BLUE   Engine 7 ")  # capitals and spaces
    assert response.status_code == 302
    response = member.post(
        f"/leagues/{league.code}/unlock?next=/leagues/{league.code}/players",
        data={"passphrase": PASSPHRASE},
    )
    assert response.headers["Location"].endswith(f"/leagues/{league.code}/players")
    response = member.post(
        f"/leagues/{league.code}/unlock?next=https://evil.example/",
        data={"passphrase": PASSPHRASE},
    )
    # Never elsewhere: the league's own page (its night with a table still playing).
    assert response.headers["Location"] == f"/leagues/{league.code}/nights/{league.night}"


def test_joining_with_the_code_and_passphrase(client: FlaskClient) -> None:
    league = _league(client)
    member = client.application.test_client()
    response = member.post("/leagues/join", data={"code": "nope", "passphrase": PASSPHRASE})
    assert response.status_code == 422 and "no league with that code" in response.get_data(
        as_text=True
    )
    response = member.post(
        "/leagues/join", data={"code": league.code.lower(), "passphrase": "nope nope"}
    )
    assert response.status_code == 422
    response = member.post(
        "/leagues/join", data={"code": f" {league.code.lower()} ", "passphrase": PASSPHRASE}
    )
    assert response.status_code == 302
    assert "Thursday Club" in member.get("/leagues").get_data(as_text=True)


def test_changing_the_passphrase_signs_out_the_other_phones(client: FlaskClient) -> None:
    league = _league(client)
    member = client.application.test_client()
    unlock(member, league.code)
    assert member.get(f"/leagues/{league.code}/nights/{league.night}/qr.svg").status_code == 200
    response = client.post(
        f"/leagues/{league.code}/settings/passphrase", data={"new_passphrase": "red engine 9"}
    )
    assert response.status_code == 302
    assert member.post(f"/g/{league.game}/finish").status_code == 403
    assert member.get(f"/leagues/{league.code}").status_code == 302
    assert member.get(f"/leagues/{league.code}/nights/{league.night}/qr.svg").status_code == 302
    assert "Thursday Club" not in member.get("/leagues").get_data(as_text=True)
    # The organiser keeps the rights; the old passphrase no longer works, the new one does.
    assert (
        client.post(f"/leagues/{league.code}/players/new", data={"name": "Eve"}).status_code == 302
    )
    assert unlock(member, league.code).status_code == 422
    assert unlock(member, league.code, "Red Engine 9").status_code == 302
    response = client.post(
        f"/leagues/{league.code}/settings/passphrase", data={"new_passphrase": "abc"}
    )
    assert response.status_code == 422 and "at least 10" in response.get_data(as_text=True)


def test_the_join_qr_code_grants_rights_until_the_passphrase_changes(client: FlaskClient) -> None:
    league = _league(client)
    page = client.get(f"/leagues/{league.code}/nights/{league.night}").get_data(as_text=True)
    assert f"/leagues/{league.code}/nights/{league.night}/qr.svg" in page
    from flask import url_for

    from scorekeeper.leagues import access
    from scorekeeper.leagues.services import load_league

    with client.application.test_request_context():
        token = access.join_token(load_league(league.code), league.night)  # type: ignore[arg-type]
        link = url_for("leagues.join_link", code=league.code, token=token)
    phone = client.application.test_client()
    page = phone.get(link)
    assert page.status_code == 200 and "Yes, keep score on this phone" in page.get_data(
        as_text=True
    )
    response = phone.post(link)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/nights/{league.night}")
    assert phone.get(f"/g/{league.game}/round").status_code == 200
    client.post(
        f"/leagues/{league.code}/settings/passphrase", data={"new_passphrase": "red engine 9"}
    )
    late = client.application.test_client()
    assert late.get(link).status_code == 410
    assert late.post(link).status_code == 410
    assert late.get(f"/leagues/{league.code}/welcome/forged.token").status_code == 410
    assert client.get(f"/leagues/{league.code}/nights/{league.night}/qr.svg").mimetype == (
        "image/svg+xml"
    )


def test_an_organiser_link_hands_over_the_organiser_role(client: FlaskClient) -> None:
    from flask import url_for

    from scorekeeper.leagues import access
    from scorekeeper.leagues.services import load_league

    league = _league(client)
    with client.application.test_request_context():
        link = url_for(
            "leagues.claim_organiser",
            code=league.code,
            token=access.organiser_token(load_league(league.code)),  # type: ignore[arg-type]
        )
    new_phone = client.application.test_client()
    assert new_phone.get(link).status_code == 200
    assert new_phone.post(link).status_code == 302
    assert new_phone.get(f"/leagues/{league.code}/settings").status_code == 200
    # The old organiser's phone (a lost one, say) has no rights left at all.
    assert client.post(f"/leagues/{league.code}/players/new", data={"name": "X"}).status_code == 403
    assert new_phone.get(link).status_code == 410  # used once


def test_forgetting_a_league_on_this_phone(client: FlaskClient) -> None:
    league = _league(client)
    member = client.application.test_client()
    unlock(member, league.code)
    assert member.post(f"/leagues/{league.code}/forget").status_code == 302
    assert member.get(f"/leagues/{league.code}").status_code == 302


@pytest.fixture
def limited_app(migrated_database: str) -> Iterator[Flask]:
    app = make_app(migrated_database, RATELIMIT_ENABLED=True)
    with app.app_context():
        limiter.reset()
    yield app
    with app.app_context():
        limiter.reset()
        db.session.remove()
        empty_database()
        db.engine.dispose()


def test_passphrase_attempts_are_rate_limited(limited_app: Flask) -> None:
    organiser = limited_app.test_client()
    code = start_league(organiser)
    guesser = limited_app.test_client()
    statuses = [unlock(guesser, code, f"guess {n}").status_code for n in range(12)]
    assert statuses[:10] == [422] * 10
    assert statuses[10:] == [429, 429]
    page = unlock(guesser, code, PASSPHRASE)
    assert page.status_code == 429  # even the right one waits
    assert "Too many tries" in page.get_data(as_text=True)
    response = guesser.post("/leagues/join", data={"code": code, "passphrase": "x"})
    assert response.status_code == 429


def test_a_league_table_is_kept_by_any_phone_with_rights(client: FlaskClient) -> None:
    league = _league(client)
    member = client.application.test_client()
    unlock(member, league.code)
    response = enter_round(member, league.game, points={0: 0, 1: 9}, went_out=0)
    assert response.status_code == 302
    stranger = client.application.test_client()
    data = round_data({0: 0, 1: 9}, went_out=0, form_token="stranger-1")
    assert stranger.post(f"/g/{league.game}/round", data=data).status_code == 403


def test_league_forms_need_their_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    data = {"name": "Club", "passphrase": PASSPHRASE}
    response = client.post("/leagues/new", data=data)
    assert response.status_code == 400 and "This form has expired" in response.get_data(
        as_text=True
    )
    page = client.get("/leagues/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    response = client.post("/leagues/new", data={**data, "csrf_token": token.group(1)})
    assert response.status_code == 302
    code = response.headers["Location"].split("/")[2]
    # Even the organiser cannot change anything without the token.
    assert client.post(f"/leagues/{code}/players/new", data={"name": "Ann"}).status_code == 400
    assert client.post(f"/leagues/{code}/settings/public", data={"action": "on"}).status_code == 400


def test_the_members_link_is_the_same_link_every_time(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It carries no time: the QR code printed for the club room stays the same link (a link
    that changed every second also made two renders of one page differ). Links handed out
    while they still carried a time keep working."""
    import time

    from itsdangerous import URLSafeTimedSerializer

    link = _members_link(client, _league(client).code)
    later = time.time() + 5
    monkeypatch.setattr(time, "time", lambda: later)
    code = link.split("/leagues/")[1].split("/")[0]
    assert _members_link(client, code) == link
    with client.application.app_context():
        old = URLSafeTimedSerializer(client.application.secret_key, salt="league-members").dumps(
            {"l": code, "v": 1}
        )
    reader = client.application.test_client()
    assert reader.get(f"/leagues/{code}/members/{old}").status_code == 302

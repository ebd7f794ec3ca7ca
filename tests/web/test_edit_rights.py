"""How long the edit code's right lasts, and how a phone gives it up: a new edit code ends the
old one's rights, a right lapses after a game night without use and is renewed while used,
forgetting a game or a league drops the rights and has the next page tell the phone what to
clear, and the secrets of the table view are marked for the service worker to leave out."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.games import access
from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, add_table, start_league, start_night, unlock

NAMES = ["Ann", "Bob", "Cy"]
HOUR = 3600


def _edit_code(client: FlaskClient, public_id: str) -> str:
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    return page.split('<p class="huge code">')[1].split("<")[0].strip()


def _helper(client: FlaskClient, public_id: str) -> FlaskClient:
    """A second phone that typed the game's edit code."""
    helper = client.application.test_client()
    response = helper.post(f"/g/{public_id}/unlock", data={"code": _edit_code(client, public_id)})
    assert response.status_code == 302
    return helper


def _may_edit(phone: FlaskClient, public_id: str) -> bool:
    response = phone.get(f"/g/{public_id}/round")
    assert response.status_code in (200, 302)
    return response.status_code == 200


def _last_used(phone: FlaskClient, public_id: str) -> int:
    with phone.session_transaction() as session:
        return session[access.RIGHTS_KEY][public_id][1]


def _age_right(phone: FlaskClient, public_id: str, seconds: int) -> None:
    """As if the phone last used its right ``seconds`` earlier than it did."""
    with phone.session_transaction() as session:
        rights = dict(session[access.RIGHTS_KEY])
        fingerprint, used = rights[public_id]
        rights[public_id] = [fingerprint, used - seconds]
        session[access.RIGHTS_KEY] = rights


def _purge(page: str) -> list[str]:
    found = re.search(r'data-purge="([^"]*)"', page)
    return found.group(1).split() if found else []


# --------------------------------------------------------------------------------------------
# A new edit code


def test_the_old_edit_code_is_refused_after_the_creator_changes_it(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    old_code = _edit_code(client, public_id)
    helper = _helper(client, public_id)
    assert _may_edit(helper, public_id)

    page = client.get(f"/g/{public_id}/edit-code").get_data(as_text=True)
    assert "Give the game a new edit code" in page
    response = client.post(f"/g/{public_id}/edit-code")
    assert response.status_code == 302
    assert "The game has a new edit code" in client.get(response.headers["Location"]).get_data(
        as_text=True
    )
    new_code = _edit_code(client, public_id)
    assert new_code != old_code

    # The helper's right is gone: pages ask for the code, writes are refused.
    assert not _may_edit(helper, public_id)
    assert helper.post(f"/g/{public_id}/finish").status_code == 403
    unlock_page = helper.get(f"/g/{public_id}/unlock").get_data(as_text=True)
    assert "The game has a new edit code since this phone typed one" in unlock_page
    refused = helper.post(f"/g/{public_id}/unlock", data={"code": old_code})
    assert refused.status_code == 200
    assert "not this game&#39;s edit code" in refused.get_data(as_text=True)
    assert not _may_edit(helper, public_id)
    # The new code works; the creator never lost its right.
    assert helper.post(f"/g/{public_id}/unlock", data={"code": new_code}).status_code == 302
    assert _may_edit(helper, public_id)
    assert _may_edit(client, public_id)


def test_only_the_creator_changes_the_edit_code(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    code = _edit_code(client, public_id)
    helper = _helper(client, public_id)
    assert "Change the edit code" not in helper.get(f"/g/{public_id}").get_data(as_text=True)
    assert helper.get(f"/g/{public_id}/edit-code").status_code == 403
    assert helper.post(f"/g/{public_id}/edit-code").status_code == 403
    stranger = client.application.test_client()
    assert stranger.post(f"/g/{public_id}/edit-code").status_code == 403
    assert _edit_code(client, public_id) == code


def test_the_organiser_changes_a_league_tables_edit_code(client: FlaskClient) -> None:
    code = start_league(client)
    players = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    table = add_table(client, code, night, list(players.values()))
    scorer = client.application.test_client()
    assert unlock(scorer, code).status_code == 302
    old_code = _edit_code(scorer, table)
    helper = client.application.test_client()
    helper.post(f"/g/{table}/unlock", data={"code": old_code})
    assert _may_edit(helper, table)
    # A scorer with the passphrase keeps score, but the code is the organiser's to change.
    assert scorer.post(f"/g/{table}/edit-code").status_code == 403
    assert client.post(f"/g/{table}/edit-code").status_code == 302
    assert _edit_code(client, table) != old_code
    assert not _may_edit(helper, table)
    assert _may_edit(scorer, table)


# --------------------------------------------------------------------------------------------
# How long a right lasts


def test_an_edit_code_right_lapses_after_a_night_without_use(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    helper = _helper(client, public_id)
    _age_right(helper, public_id, access.EDIT_RIGHT_HOURS * HOUR + 60)
    assert not _may_edit(helper, public_id)
    assert helper.post(f"/g/{public_id}/finish").status_code == 403
    page = helper.get(f"/g/{public_id}/unlock").get_data(as_text=True)
    assert "has not kept score for this game for 12 hours" in page
    assert "huge code" not in helper.get(f"/g/{public_id}").get_data(as_text=True)
    # The code, typed again, gives a new right.
    helper.post(f"/g/{public_id}/unlock", data={"code": _edit_code(client, public_id)})
    assert _may_edit(helper, public_id)


def test_an_edit_code_right_is_renewed_while_it_is_used(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    public_id = start_game(client, NAMES)
    helper = _helper(client, public_id)
    start = access.now()
    # A long night: every few hours the helper saves a round, 30 hours in all.
    for hours in (10, 20, 30):
        monkeypatch.setattr(access, "now", lambda hours=hours: start + hours * HOUR)
        response = enter_round(helper, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0)
        assert response.status_code == 302, response.get_data(as_text=True)
        assert _last_used(helper, public_id) == int(start + hours * HOUR)
    # Just a look at an editor's page renews it too.
    monkeypatch.setattr(access, "now", lambda: start + 41 * HOUR)
    assert _may_edit(helper, public_id)
    monkeypatch.setattr(access, "now", lambda: start + 52 * HOUR)
    assert _may_edit(helper, public_id)
    # Then 12 hours and more without use: gone.
    monkeypatch.setattr(access, "now", lambda: start + 64.5 * HOUR)
    assert not _may_edit(helper, public_id)


def test_the_creators_right_does_not_lapse(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    public_id = start_game(client, NAMES)
    start = access.now()
    monkeypatch.setattr(access, "now", lambda: start + 90 * 24 * HOUR)
    assert _may_edit(client, public_id)


def test_an_unlock_remembered_the_old_way_is_not_honoured(client: FlaskClient) -> None:
    """Before rights lapsed the session kept a plain list of unlocked games, for 400 days."""
    public_id = start_game(client, NAMES)
    old_phone = client.application.test_client()
    with old_phone.session_transaction() as session:
        session["unlocked"] = [public_id]
    assert not _may_edit(old_phone, public_id)


# --------------------------------------------------------------------------------------------
# Forgetting


def test_signing_out_of_a_game_drops_the_right_and_clears_the_phone_once(
    client: FlaskClient,
) -> None:
    public_id = start_game(client, NAMES)
    helper = _helper(client, public_id)
    table = helper.get(f"/g/{public_id}").get_data(as_text=True)
    assert "Sign this phone out of this game" in table
    assert "Sign this phone out" not in client.get(f"/g/{public_id}").get_data(as_text=True)
    assert _purge(table) == []

    response = helper.post(f"/g/{public_id}/forget")
    assert response.status_code == 302
    # A page a script fetches (the worker keeping a copy, live.js) leaves it for the next one.
    fetched = helper.get("/", headers={"Sec-Fetch-Mode": "cors"}).get_data(as_text=True)
    assert _purge(fetched) == []
    page = helper.get(response.headers["Location"], headers={"Sec-Fetch-Mode": "navigate"})
    page = page.get_data(as_text=True)
    assert _purge(page) == [public_id]
    assert "huge code" not in page
    assert _purge(helper.get(f"/g/{public_id}").get_data(as_text=True)) == []
    assert not _may_edit(helper, public_id)


def test_forgetting_a_league_drops_its_tables_rights_and_clears_them(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    players = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    night = start_night(client, code)
    first = add_table(client, code, night, [players["Ann"], players["Bob"]])
    second = add_table(client, code, night, [players["Cy"], players["Di"]])
    other = start_game(client, NAMES)  # not the league's: the phone keeps it

    shared = client.application.test_client()
    assert unlock(shared, code).status_code == 302
    # The shared phone also typed the first table's code, and keeps score for another game.
    shared.post(f"/g/{first}/unlock", data={"code": _edit_code(client, first)})
    shared.post(f"/g/{other}/unlock", data={"code": _edit_code(client, other)})
    assert _may_edit(shared, first) and _may_edit(shared, second)

    response = shared.post(f"/leagues/{code}/forget")
    assert response.status_code == 302
    page = shared.get(response.headers["Location"]).get_data(as_text=True)
    assert sorted(_purge(page)) == sorted([first, second])
    assert _purge(shared.get("/leagues").get_data(as_text=True)) == []
    assert not _may_edit(shared, first)
    assert not _may_edit(shared, second)
    assert _may_edit(shared, other)


def test_the_organiser_forgetting_keeps_everything(client: FlaskClient) -> None:
    code = start_league(client)
    players = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    table = add_table(client, code, night, list(players.values()))
    response = client.post(f"/leagues/{code}/forget")
    assert _purge(client.get(response.headers["Location"]).get_data(as_text=True)) == []
    assert _may_edit(client, table)


# --------------------------------------------------------------------------------------------
# What the service worker may keep


def test_the_table_views_secrets_are_marked_for_the_kept_copy(client: FlaskClient) -> None:
    code = start_league(client)
    players = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    table = add_table(client, code, night, list(players.values()))
    page = client.get(f"/g/{table}").get_data(as_text=True)
    kept = re.sub(r"<!--secret-->.*?<!--/secret-->", "", page, flags=re.S)
    assert 'class="huge code"' in page and "/members/" in page
    assert 'class="huge code"' not in kept
    assert "/members/" not in kept

"""Who may change a game: every write route, with and without the right."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.web.helpers import enter_round, round_data, start_game

NAMES = ["Ann", "Bob", "Cy"]


def _game_with_a_round(client: FlaskClient) -> str:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0)
    return public_id


WRITE_ROUTES = [
    ("/g/{id}/round", round_data({0: 0, 1: 3, 2: 4}, went_out=0, form_token="t-1", round_number=2)),
    ("/g/{id}/round/check", round_data({0: 0, 1: 3, 2: 4}, went_out=0)),
    ("/g/{id}/rounds/1", round_data({0: 0, 1: 9, 2: 7}, went_out=0)),
    ("/g/{id}/undo", {}),
    ("/g/{id}/finish", {}),
    ("/g/{id}/reopen", {}),
    ("/g/{id}/again", {}),
    ("/g/{id}/delete", {}),
]


@pytest.mark.parametrize(("route", "data"), WRITE_ROUTES)
def test_write_routes_refuse_other_devices(
    client: FlaskClient, route: str, data: dict[str, str]
) -> None:
    public_id = _game_with_a_round(client)
    stranger = client.application.test_client()
    response = stranger.post(route.format(id=public_id), data=data)
    assert response.status_code == 403
    # Nothing changed: the board still shows the one round as entered.
    board = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    assert board.count("\n") == 4 and ",Bob,5," in board


@pytest.mark.parametrize(("route", "data"), WRITE_ROUTES)
def test_write_routes_accept_the_creator(
    client: FlaskClient, route: str, data: dict[str, str]
) -> None:
    public_id = _game_with_a_round(client)
    response = client.post(route.format(id=public_id), data=data)
    assert response.status_code in (200, 302)


@pytest.mark.parametrize(("route", "data"), WRITE_ROUTES)
def test_write_routes_accept_a_device_with_the_edit_code(
    client: FlaskClient, route: str, data: dict[str, str]
) -> None:
    public_id = _game_with_a_round(client)
    code = _edit_code(client, public_id)
    helper = client.application.test_client()
    response = helper.post(f"/g/{public_id}/unlock", data={"code": code.lower()})
    assert response.status_code == 302
    response = helper.post(route.format(id=public_id), data=data)
    assert response.status_code in (200, 302)


def _edit_code(client: FlaskClient, public_id: str) -> str:
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    return page.split('<p class="huge code">')[1].split("<")[0].strip()


def test_wrong_edit_code_is_refused_with_a_message(client: FlaskClient) -> None:
    public_id = _game_with_a_round(client)
    stranger = client.application.test_client()
    response = stranger.post(f"/g/{public_id}/unlock", data={"code": "WRONG1"})
    assert response.status_code == 200
    assert "not this game&#39;s edit code" in response.get_data(as_text=True)
    assert stranger.post(f"/g/{public_id}/finish").status_code == 403


def test_edit_pages_send_strangers_to_the_edit_code_form(client: FlaskClient) -> None:
    public_id = _game_with_a_round(client)
    stranger = client.application.test_client()
    for page in ("round", "rounds/1"):
        response = stranger.get(f"/g/{public_id}/{page}")
        assert response.status_code == 302
        assert "/unlock" in response.headers["Location"]


def test_read_only_pages_are_open_and_offer_no_changes(client: FlaskClient) -> None:
    public_id = _game_with_a_round(client)
    stranger = client.application.test_client()
    for page in ("", "/scoreboard", "/watch", "/summary"):
        response = stranger.get(f"/g/{public_id}{page}")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert 'method="post"' not in html
        assert "/round" not in html.replace("/rounds/", "")


def test_edit_code_is_shown_only_to_editors(client: FlaskClient) -> None:
    public_id = _game_with_a_round(client)
    assert 'class="huge code"' in client.get(f"/g/{public_id}").get_data(as_text=True)
    stranger = client.application.test_client()
    assert 'class="huge code"' not in stranger.get(f"/g/{public_id}").get_data(as_text=True)

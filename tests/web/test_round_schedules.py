"""Round schedules through the app: chosen at setup, the table shows each round's engine, the
game ends after the schedule's last round (or when the table ends a free game)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.helpers import enter_round, setup_data, start_game
from tests.web.league_helpers import text_of

NAMES = ["Ann", "Bob", "Cy"]


def _table(client: FlaskClient, public_id: str) -> str:
    return text_of(client.get(f"/g/{public_id}").get_data(as_text=True))


def _engine(client: FlaskClient, public_id: str) -> str:
    """The engine the table view shows in big for this round."""
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    found = re.search(r'<h1 class="huge">(\d+-\d+)</h1>', page)
    assert found, page
    return found.group(1)


def _play(client: FlaskClient, public_id: str) -> None:
    response = enter_round(client, public_id, points={1: 5, 2: 7}, went_out=0)
    assert response.status_code == 302, response.get_data(as_text=True)


def test_a_fixed_length_game_stops_early(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, length="fixed", rounds=3)
    engines = []
    for number in (1, 2, 3):
        page = _table(client, public_id)
        assert f"Round {number} of 3" in page
        engines.append(_engine(client, public_id))
        _play(client, public_id)
    assert engines == ["12-12", "11-11", "10-10"]
    assert "Game over" in _table(client, public_id)
    assert "Engines: 12-12 down to 10-10, 3 rounds (stops early)" in _table(client, public_id)


def test_more_rounds_than_doubles_start_again_from_the_top(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, max_pip=6, length="fixed", rounds=9)
    for _ in range(7):
        _play(client, public_id)
    page = _table(client, public_id)
    assert "Round 8 of 9" in page and _engine(client, public_id) == "6-6"
    _play(client, public_id)
    _play(client, public_id)
    assert "Game over" in _table(client, public_id)


def test_up_and_back(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, max_pip=6, order="up_and_back")
    page = _table(client, public_id)
    assert "Round 1 of 14" in page and _engine(client, public_id) == "0-0"
    assert "Next round: 1-1" in page
    for _ in range(6):
        _play(client, public_id)
    assert _engine(client, public_id) == "6-6"
    _play(client, public_id)
    page = _table(client, public_id)
    assert "Round 8 of 14" in page and _engine(client, public_id) == "6-6"  # twice in a row
    _play(client, public_id)
    assert _engine(client, public_id) == "5-5"
    assert "Engines: 0-0 up to 6-6, then back down to 0-0, 14 rounds" in page


def test_a_free_game_goes_on_until_the_table_ends_it(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, max_pip=6, length="free")
    page = _table(client, public_id)
    assert "Round 1 (you choose when the game ends)" in page
    for _ in range(8):
        _play(client, public_id)
    page = _table(client, public_id)
    assert "Round 9" in page and _engine(client, public_id) == "5-5"
    assert "End the game after round 8" in page
    assert client.post(f"/g/{public_id}/finish").status_code == 302
    assert "Game over" in _table(client, public_id)
    scoreboard = text_of(client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True))
    assert "8 rounds" in scoreboard
    # ... and it can carry on
    assert client.post(f"/g/{public_id}/reopen").status_code == 302
    assert "Round 9" in _table(client, public_id)


def test_a_set_length_needs_its_number(client: FlaskClient) -> None:
    response = client.post("/games/new", data=setup_data(NAMES, length="fixed"))
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Type how many rounds the game has, or choose another length." in page
    assert 'value="Ann"' in page


def test_highest_available_cannot_cycle(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data=setup_data(NAMES, max_pip=6, order="highest_available", length="fixed", rounds=8),
    )
    assert "choose at most 7 rounds" in response.get_data(as_text=True)
    response = client.post(
        "/games/new",
        data=setup_data(NAMES, max_pip=6, order="highest_available", length="free"),
    )
    assert "choose at most 7 rounds" in response.get_data(as_text=True)

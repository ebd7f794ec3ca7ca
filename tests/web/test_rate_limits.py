"""Rate limits keyed by target and client: guessing stops after a few tries, but only for the
one game or league and the one address; a club on one Wi-Fi is not locked out of everything.

Each test names the limit it expects: raising a limit in throttle.py makes a test fail."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import running_app
from tests.web.helpers import start_game
from tests.web.league_helpers import PASSPHRASE, start_league

OTHER_ADDRESS = {"REMOTE_ADDR": "192.0.2.77"}


@pytest.fixture
def limited_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, RATELIMIT_ENABLED=True) as app:
        yield app


def edit_code(app: Flask, public_id: str) -> str:
    from scorekeeper.games import services

    with app.app_context():
        game = services.load_game(public_id)
        assert game is not None
        return game.edit_code


def test_ten_wrong_edit_codes_lock_only_that_game_for_that_address(limited_app: Flask) -> None:
    owner = limited_app.test_client()
    game, other_game = start_game(owner, ["Ann", "Bob"]), start_game(owner, ["Cy", "Di"])
    guesser = limited_app.test_client()
    for _ in range(10):
        response = guesser.post(f"/g/{game}/unlock", data={"code": "WRONG1"})
        assert response.status_code == 200
    locked = guesser.post(f"/g/{game}/unlock", data={"code": edit_code(limited_app, game)})
    assert locked.status_code == 429
    assert "Too many tries" in locked.get_data(as_text=True)
    # The same address may still unlock another game with its right code ...
    code = edit_code(limited_app, other_game)
    assert guesser.post(f"/g/{other_game}/unlock", data={"code": code}).status_code == 302
    # ... and another address this game.
    neighbour = limited_app.test_client()
    right = edit_code(limited_app, game)
    response = neighbour.post(f"/g/{game}/unlock", data={"code": right}, environ_base=OTHER_ADDRESS)
    assert response.status_code == 302


def test_right_edit_codes_do_not_use_up_the_budget(limited_app: Flask) -> None:
    owner = limited_app.test_client()
    game = start_game(owner, ["Ann", "Bob"])
    code = edit_code(limited_app, game)
    for _ in range(15):  # a whole club unlocking from one Wi-Fi
        assert (
            limited_app.test_client().post(f"/g/{game}/unlock", data={"code": code}).status_code
            == 302
        )


def test_ten_wrong_passphrases_lock_only_that_league_for_that_address(
    limited_app: Flask,
) -> None:
    organiser = limited_app.test_client()
    league, other_league = start_league(organiser), start_league(organiser, "Other")
    guesser = limited_app.test_client()
    for _ in range(10):
        response = guesser.post(f"/leagues/{league}/unlock", data={"passphrase": "red"})
        assert response.status_code == 422
    response = guesser.post(f"/leagues/{league}/unlock", data={"passphrase": PASSPHRASE})
    assert response.status_code == 429
    # The join form and the join links share the budget of that league ...
    response = guesser.post("/leagues/join", data={"code": league, "passphrase": PASSPHRASE})
    assert response.status_code == 429
    # ... other leagues and other addresses are not touched.
    response = guesser.post(f"/leagues/{other_league}/unlock", data={"passphrase": PASSPHRASE})
    assert response.status_code == 302
    response = limited_app.test_client().post(
        f"/leagues/{league}/unlock", data={"passphrase": PASSPHRASE}, environ_base=OTHER_ADDRESS
    )
    assert response.status_code == 302


def test_guessing_league_codes_on_the_join_form_is_limited(limited_app: Flask) -> None:
    guesser = limited_app.test_client()
    for number in range(20):
        response = guesser.post(
            "/leagues/join", data={"code": f"AAA{number:03d}", "passphrase": "x"}
        )
        assert response.status_code == 422
        assert "There is no league with that code" in response.get_data(as_text=True)
    response = guesser.post("/leagues/join", data={"code": "ZZZ999", "passphrase": "x"})
    assert response.status_code == 429


def test_guessing_league_links_is_limited(limited_app: Flask) -> None:
    organiser = limited_app.test_client()
    league = start_league(organiser)
    guesser = limited_app.test_client()
    for number in range(30):
        assert guesser.get(f"/leagues/AAA{number:03d}").status_code == 404
    assert guesser.get("/leagues/ZZZ999").status_code == 429
    assert guesser.get("/p/some-public-token").status_code == 429
    # Existing leagues still answer, and other addresses may still look.
    assert guesser.get(f"/leagues/{league}/unlock").status_code == 200
    assert organiser.get("/leagues/ZZZ999", environ_base=OTHER_ADDRESS).status_code == 404


def test_limits_are_off_in_the_other_tests(client: FlaskClient) -> None:
    game = start_game(client, ["Ann", "Bob"])
    for _ in range(12):
        assert client.post(f"/g/{game}/unlock", data={"code": "WRONG1"}).status_code == 200

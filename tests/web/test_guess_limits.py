"""Guessing limits that hold (issue 22, item 2): every spelling of a league code spends one
budget, a cap per league (and per game) from every address together, the organiser (and a
game's creator) never locked out, and new passphrases a guesser cannot reach under the cap.

The counts named here are those of rate_limits.py: raising a limit there makes a test fail."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.security import generate_password_hash

from scorekeeper.web import rate_limits
from tests.conftest import running_app
from tests.web.helpers import start_game
from tests.web.league_helpers import PASSPHRASE, start_league, start_night, unlock

CAP = 40  # rate_limits.GUESS_CAP, the hourly part


@pytest.fixture
def limited_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, RATELIMIT_ENABLED=True) as app:
        yield app


def address(number: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"198.51.100.{number}"}


def spellings(code: str) -> list[str]:
    """Ten spellings of ``code``: capitals and small letters mixed."""
    found = []
    for mask in range(2 ** len(code)):
        spelled = "".join(ch.lower() if mask >> i & 1 else ch.upper() for i, ch in enumerate(code))
        if spelled not in found:
            found.append(spelled)
    return found[:10] if len(found) >= 10 else found * 10


def test_the_cap_is_what_the_tests_count() -> None:
    assert rate_limits.GUESS_CAP.startswith(f"{CAP} per hour")


def test_every_spelling_of_a_league_code_spends_one_budget(limited_app: Flask) -> None:
    organiser = limited_app.test_client()
    code = start_league(organiser)
    guesser = limited_app.test_client()
    for spelled in spellings(code)[:10]:
        response = guesser.post(f"/leagues/{spelled}/unlock", data={"passphrase": "red engine"})
        assert response.status_code == 422, spelled
    for spelled in (code, code.lower(), spellings(code)[-1]):
        response = guesser.post(f"/leagues/{spelled}/unlock", data={"passphrase": PASSPHRASE})
        assert response.status_code == 429, spelled
    # The join form, with the code typed in small letters, spends the same budget.
    response = guesser.post(
        "/leagues/join", data={"code": f" {code.lower()} ", "passphrase": PASSPHRASE}
    )
    assert response.status_code == 429


def _cap_league(app: Flask, organiser: FlaskClient) -> str:
    """A league whose cap from every address is met: CAP wrong passphrases from CAP / 4
    addresses, each well under its own budget of 10 a minute."""
    code = start_league(organiser)
    for attempt in range(CAP):
        phone = app.test_client()
        response = phone.post(
            f"/leagues/{code}/unlock",
            data={"passphrase": f"guess number {attempt}"},
            environ_base=address(attempt // 4),
        )
        assert response.status_code == 422, attempt
    return code


def test_a_league_is_capped_across_every_address(limited_app: Flask) -> None:
    organiser = limited_app.test_client()
    code = _cap_league(limited_app, organiser)
    other = start_league(organiser, "Other Club")
    newcomer = limited_app.test_client()
    response = newcomer.post(
        f"/leagues/{code}/unlock", data={"passphrase": PASSPHRASE}, environ_base=address(200)
    )
    assert response.status_code == 429
    page = response.get_data(as_text=True)
    message = re.search(
        r"Too many wrong passphrases for this league from everywhere; try again in (\d+) minutes",
        page,
    )
    assert message, page
    assert 1 <= int(message.group(1)) <= 60
    assert int(response.headers["Retry-After"]) > 0
    # The join form meets the same cap ...
    response = newcomer.post(
        "/leagues/join", data={"code": code, "passphrase": PASSPHRASE}, environ_base=address(201)
    )
    assert response.status_code == 429
    assert "from everywhere" in response.get_data(as_text=True)
    # ... other leagues are not touched.
    response = newcomer.post(
        f"/leagues/{other}/unlock", data={"passphrase": PASSPHRASE}, environ_base=address(200)
    )
    assert response.status_code == 302


def test_the_organiser_is_never_locked_out_of_their_own_league(limited_app: Flask) -> None:
    organiser = limited_app.test_client()
    code = _cap_league(limited_app, organiser)
    night = start_night(organiser, code)
    # Same address as the last guesses: the organiser's phone is known by its token.
    for _ in range(12):
        response = organiser.post(
            f"/leagues/{code}/unlock", data={"passphrase": "wrong guess"}, environ_base=address(9)
        )
        assert response.status_code == 422
    response = organiser.post(
        f"/leagues/{code}/unlock", data={"passphrase": PASSPHRASE}, environ_base=address(9)
    )
    assert response.status_code == 302
    assert organiser.get(f"/leagues/{code}/settings").status_code == 200
    # The night's join QR code still lets a table's phone in while the cap holds.
    from scorekeeper.leagues import access, services

    with limited_app.app_context():
        league = services.load_league(code)
        assert league is not None
        link = f"/leagues/{code}/welcome/{access.join_token(league, night)}"
    table_phone = limited_app.test_client()
    response = table_phone.post(link, environ_base=address(9))
    assert response.status_code == 302
    assert table_phone.get(f"/leagues/{code}/nights/{night}").status_code == 200


def test_a_phone_with_the_passphrase_is_not_counted(limited_app: Flask) -> None:
    organiser = limited_app.test_client()
    code = start_league(organiser)
    scorer = limited_app.test_client()
    assert unlock(scorer, code).status_code == 302
    for _ in range(15):  # typing it again (or mistyping) on a phone that has it
        scorer.post(f"/leagues/{code}/unlock", data={"passphrase": "old guess"})
    response = limited_app.test_client().post(
        f"/leagues/{code}/unlock", data={"passphrase": PASSPHRASE}
    )
    assert response.status_code == 302


def _edit_code(app: Flask, public_id: str) -> str:
    from scorekeeper.games import services

    with app.app_context():
        game = services.load_game(public_id)
        assert game is not None
        return game.edit_code


def test_a_game_is_capped_across_every_address_but_not_for_its_creator(
    limited_app: Flask,
) -> None:
    creator = limited_app.test_client()
    game = start_game(creator, ["Ann", "Bob"])
    for attempt in range(CAP):
        response = limited_app.test_client().post(
            f"/g/{game}/unlock", data={"code": "WRONG1"}, environ_base=address(attempt // 4)
        )
        assert response.status_code == 200, attempt
    right = _edit_code(limited_app, game)
    response = limited_app.test_client().post(
        f"/g/{game}/unlock", data={"code": right}, environ_base=address(200)
    )
    assert response.status_code == 429
    assert re.search(
        r"Too many wrong edit codes for this game from everywhere; try again in \d+ minutes",
        response.get_data(as_text=True),
    )
    # The phone that started the game is never stopped (nor counted).
    response = creator.post(f"/g/{game}/unlock", data={"code": right}, environ_base=address(9))
    assert response.status_code == 302
    assert creator.get(f"/g/{game}/round").status_code == 200


# --------------------------------------------------------------------------------------------
# Passphrases a guesser cannot reach


@pytest.mark.parametrize(
    "passphrase",
    ["blue 7", "trainengines", "a b c d e", "1234567890", "  Blue Eng  "],
)
def test_a_new_passphrase_needs_ten_characters_and_two_words(
    client: FlaskClient, passphrase: str
) -> None:
    response = client.post("/leagues/new", data={"name": "Club", "passphrase": passphrase})
    assert response.status_code == 422
    assert "at least 10 characters and two words" in response.get_data(as_text=True)
    code = start_league(client)
    response = client.post(
        f"/leagues/{code}/settings/passphrase", data={"new_passphrase": passphrase}
    )
    assert response.status_code == 422
    assert "at least 10 characters and two words" in response.get_data(as_text=True)


def test_a_league_with_an_older_short_passphrase_still_unlocks(client: FlaskClient) -> None:
    from scorekeeper.extensions import db
    from scorekeeper.leagues import services

    code = start_league(client)
    with client.application.app_context():
        league = services.load_league(code)
        assert league is not None
        league.passphrase_hash = generate_password_hash("red 7")  # set before the minimum
        db.session.commit()
    phone = client.application.test_client()
    assert phone.post(f"/leagues/{code}/unlock", data={"passphrase": "Red 7"}).status_code == 302

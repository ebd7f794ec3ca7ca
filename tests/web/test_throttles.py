"""Throttles on the server's costly work (issue 22, item 5): starting leagues (scrypt),
starting games, import previews (seconds of CPU for a big file), per address and from every
address together; and a cap on the previews kept in instance/imports.

The counts named here are those of rate_limits.py: raising a limit there makes a test fail."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from limits import parse

from scorekeeper.extensions import limiter
from scorekeeper.web import rate_limits
from tests.conftest import running_app
from tests.web.helpers import setup_data, start_game
from tests.web.league_helpers import PASSPHRASE, start_league, unlock

CSV = """night,place,table,player,round,score
2024-01-04,Hall,Table 1,Ann,1,0
2024-01-04,Hall,Table 1,Bob,1,23
"""


@pytest.fixture
def limited_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, RATELIMIT_ENABLED=True) as app:
        yield app


def address(number: int) -> dict[str, str]:
    return {"REMOTE_ADDR": f"203.0.113.{number}"}


def spend_everyone(app: Flask, limit: str, scope: str) -> None:
    """Use up a limit of every address together, as many phones would have."""
    item = parse(limit)
    with app.app_context():
        left = limiter.limiter.get_window_stats(item, "everyone", scope).remaining
        assert left > 0 and limiter.limiter.hit(item, "everyone", scope, cost=left)


def test_the_limits_are_what_the_tests_count() -> None:
    assert rate_limits.NEW_LEAGUE_LIMIT == "10 per hour"
    assert rate_limits.NEW_GAME_LIMIT == "60 per hour"
    assert rate_limits.IMPORT_LIMIT == "20 per hour"


def new_league(client: FlaskClient, number: int, **environ: str) -> int:
    response = client.post(
        "/leagues/new",
        data={"name": f"Club {number}", "passphrase": PASSPHRASE},
        environ_base=environ or address(1),
    )
    return response.status_code


def test_starting_leagues_is_limited_per_address(limited_app: Flask) -> None:
    phone = limited_app.test_client()
    # Forms sent back with a message do not count (no scrypt was spent on them).
    for _ in range(12):
        response = phone.post(
            "/leagues/new", data={"name": "Club", "passphrase": "short"}, environ_base=address(1)
        )
        assert response.status_code == 422
    for number in range(10):
        assert new_league(phone, number) == 302
    response = phone.post(
        "/leagues/new", data={"name": "One more", "passphrase": PASSPHRASE}, environ_base=address(1)
    )
    assert response.status_code == 429
    page = response.get_data(as_text=True)
    assert re.search(r"Too many new leagues from this address in the last hour; try again in", page)
    # Another address may still start one.
    assert new_league(limited_app.test_client(), 99, **address(2)) == 302


def test_starting_leagues_is_limited_for_every_address_together(limited_app: Flask) -> None:
    spend_everyone(limited_app, rate_limits.ALL_NEW_LEAGUES, "leagues.new_league")
    response = limited_app.test_client().post(
        "/leagues/new", data={"name": "Club", "passphrase": PASSPHRASE}, environ_base=address(3)
    )
    assert response.status_code == 429
    assert "Many leagues are being started on this server just now" in response.get_data(
        as_text=True
    )


def test_starting_games_is_limited_per_address_play_again_included(limited_app: Flask) -> None:
    phone = limited_app.test_client()
    first = start_game(phone, ["Ann", "Bob"])
    for _ in range(58):
        start_game(phone, ["Ann", "Bob"])
    assert phone.post(f"/g/{first}/again").status_code == 302  # the 60th game
    response = phone.post("/games/new", data=setup_data(["Ann", "Bob"]))
    assert response.status_code == 429
    assert "Too many new games from this address in the last hour" in response.get_data(
        as_text=True
    )
    assert phone.post(f"/g/{first}/again").status_code == 429
    # The games already started are kept and can be played; other addresses start games.
    assert phone.get(f"/g/{first}/round").status_code == 200
    other = limited_app.test_client()
    response = other.post("/games/new", data=setup_data(["Cy", "Di"]), environ_base=address(4))
    assert response.status_code == 302


def test_starting_games_is_limited_for_every_address_together(limited_app: Flask) -> None:
    spend_everyone(limited_app, rate_limits.ALL_NEW_GAMES, "all-new-games")
    response = limited_app.test_client().post("/games/new", data=setup_data(["Ann", "Bob"]))
    assert response.status_code == 429
    assert "Many games are being started on this server just now" in response.get_data(as_text=True)


def preview(client: FlaskClient, code: str, content: str = CSV, **environ: str):  # type: ignore[no-untyped-def]
    return client.post(
        f"/leagues/{code}/import",
        data={"file": (io.BytesIO(content.encode()), "sheet.csv"), "dates": "day_first"},
        content_type="multipart/form-data",
        environ_base=environ or address(5),
    )


def test_import_previews_are_limited_per_league_phone_and_address(
    limited_app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.leagues.transfer import applying

    monkeypatch.setattr(applying, "_pending_dir", lambda: tmp_path)
    organiser = limited_app.test_client()
    code = start_league(organiser)
    for _ in range(20):  # every preview counts: each reads the whole file
        assert preview(organiser, code).status_code == 200
    busy = "Too many files checked for import in this league or on this phone"
    for environ in (address(5), address(6)):  # the league's, from any address
        response = preview(organiser, code, **environ)
        assert response.status_code == 429 and busy in response.get_data(as_text=True)
    second = start_league(organiser, "Friday Club")  # the phone's, in any league
    response = preview(organiser, second, **address(6))
    assert response.status_code == 429 and busy in response.get_data(as_text=True)
    # Another club's organiser is not stopped: nothing is counted for the whole server ...
    other = limited_app.test_client()
    other_code = start_league(other, "Saturday Club")
    assert preview(other, other_code, **address(7)).status_code == 200
    # ... except from the address that used its 20.
    response = preview(other, other_code, **address(5))
    assert response.status_code == 429
    assert "Too many files checked for import from this address" in response.get_data(as_text=True)


def test_refused_import_requests_spend_no_allowance(
    limited_app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36 item 19: rights come first; a phone that may not import (no right, or the
    passphrase only) is refused without spending the league's, a phone's or an address's
    allowance, however often it tries."""
    from scorekeeper.leagues.transfer import applying

    monkeypatch.setattr(applying, "_pending_dir", lambda: tmp_path)
    organiser = limited_app.test_client()
    code = start_league(organiser)
    stranger, scorer = limited_app.test_client(), limited_app.test_client()
    assert unlock(scorer, code).status_code == 302
    for phone in (stranger, scorer):
        for _ in range(30):
            assert preview(phone, code).status_code == 403
    for _ in range(20):  # the organiser's whole allowance is left, from the same address
        assert preview(organiser, code).status_code == 200
    assert preview(organiser, code).status_code == 429
    assert preview(stranger, code).status_code == 403  # still refused, not told to wait


def test_refused_play_again_spends_no_game_allowance(limited_app: Flask) -> None:
    """The same review for games (issue 36 item 19): only games made count, so a phone
    refused "Play again" 61 times can still start its own game."""
    game = start_game(limited_app.test_client(), ["Ann", "Bob"])
    stranger = limited_app.test_client()
    for _ in range(61):
        assert stranger.post(f"/g/{game}/again", environ_base=address(8)).status_code == 403
    response = stranger.post("/games/new", data=setup_data(["Cy", "Di"]), environ_base=address(8))
    assert response.status_code == 302


def _token(page: str) -> str:
    found = re.search(r'name="token" type="hidden" value="([^"]+)"', page)
    assert found, page
    return found.group(1)


def test_what_is_kept_in_instance_imports_has_a_cap(
    client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.leagues.transfer import applying

    monkeypatch.setattr(applying, "_pending_dir", lambda: tmp_path)
    monkeypatch.setattr(applying, "MAX_PENDING_FILES", 3)
    code = start_league(client)
    tokens = []
    for _ in range(5):
        response = preview(client, code)
        assert response.status_code == 200
        tokens.append(_token(response.get_data(as_text=True)))
    assert len(list(tmp_path.glob("*.data"))) == 3
    # And by size: a cap of 3 of these files' bytes keeps 3 of them, whatever their number.
    monkeypatch.setattr(applying, "MAX_PENDING_FILES", 100)
    monkeypatch.setattr(applying, "MAX_PENDING_BYTES", 3 * len(CSV.encode()))
    for _ in range(4):
        response = preview(client, code)
        assert response.status_code == 200
        tokens.append(_token(response.get_data(as_text=True)))
    kept = list(tmp_path.glob("*.data"))
    assert len(kept) == 3 and sum(path.stat().st_size for path in kept) <= 3 * len(CSV)
    # The oldest preview went: its organiser is asked to choose the file again ...
    response = client.post(f"/leagues/{code}/import/confirm", data={"token": tokens[0]})
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/import")
    # ... the newest is imported.
    response = client.post(f"/leagues/{code}/import/confirm", data={"token": tokens[-1]})
    assert response.status_code == 302 and response.headers["Location"].endswith("/nights")

"""Every change a player would see moves the game's version on, so a phone polling with the
ETag of a copy from before the change is never answered 304 (``web.unchanged_polls``,
``responses.unless_unchanged``).

Each test looks at the pages, makes a change, and checks that the version moved on and that a
poll with the old copy's ETag gets the new page."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import correct_round, enter_round, start_game
from tests.web.league_helpers import (
    add_players,
    add_table,
    start_league,
    start_night,
    text_of,
)
from tests.web.test_leagues_scale import counting

# The round form's seats are kept while the players stay the same (``rounds._fresh_seats``).
PAGES = ("/g/{id}", "/g/{id}/scoreboard", "/g/{id}/watch", "/g/{id}/watch/board", "/g/{id}/round")

SCORES_READ = re.compile(r"\b(FROM|JOIN) score\b")  # a statement reading scores


def _pages(client: FlaskClient, public_id: str) -> dict[str, str]:
    seen = {}
    for page in PAGES:
        url = page.format(id=public_id)
        response = client.get(url)
        if response.status_code == 302 and url.endswith("/round"):  # a game over: its summary
            seen[url] = response.headers["Location"]
            continue
        assert response.status_code == 200, url
        # A CSRF token carries the second it was made in, a form token is new on every look;
        # nothing else may differ.
        seen[url] = re.sub(
            r'(name="(?:csrf_token|form_token)"[^>]*?value=")[^"]*',
            r"\1",
            response.get_data(as_text=True),
        )
    return seen


def _version(client: FlaskClient, public_id: str) -> int:
    return int(client.get(f"/g/{public_id}/state.json").get_json()["version"])


def _shows_the_change(client: FlaskClient, public_id: str, change: Callable[[], object]) -> None:
    _pages(client, public_id)
    before = _version(client, public_id)
    board = f"/g/{public_id}/watch/board"
    old_tag = client.get(board).headers["ETag"]
    change()
    with client.session_transaction() as session:  # the change's "Saved" message, not followed
        session.pop("_flashes", None)
    assert _version(client, public_id) > before, "the change did not move the version on"
    assert client.get(board, headers={"If-None-Match": old_tag}).status_code == 200
    _pages(client, public_id)


def test_every_change_at_the_table_shows_on_every_page(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    url = f"/g/{public_id}"

    def save(points: dict[int, int], went_out: int) -> Callable[[], None]:
        def act() -> None:
            assert enter_round(client, public_id, points, went_out=went_out).status_code == 302

        return act

    def correct() -> None:
        response = correct_round(client, public_id, 1, {0: 0, 1: 31, 2: 7}, went_out=0)
        assert response.status_code == 302

    def undo() -> None:
        page = client.get(f"{url}/undo").get_data(as_text=True)  # the confirmation
        batch = re.search(r'name="batch" value="(\d+)"', page)
        assert batch is not None, page
        assert client.post(f"{url}/undo", data={"batch": batch.group(1)}).status_code == 302

    def join() -> None:
        assert client.post(f"{url}/join", data={"name": "Dot"}).status_code == 302

    def finish() -> None:
        assert client.post(f"{url}/finish").status_code == 302

    def reopen() -> None:
        assert client.post(f"{url}/reopen").status_code == 302

    steps = [
        save({0: 0, 1: 12, 2: 30}, 0),
        correct,
        undo,
        join,
        save({0: 8, 1: 0, 2: 4, 3: 15}, 1),
        finish,
        reopen,
    ]
    for step in steps:
        _shows_the_change(client, public_id, step)
    assert "Dot" in text_of(client.get(f"{url}/scoreboard").get_data(as_text=True))


def test_a_renamed_or_merged_league_player_shows_at_once(client: FlaskClient) -> None:
    """The seats point at the player, so a new name changes what the table's pages show: the
    share view fetches it (the version moves on) and nothing kept shows the old name."""
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Ann B."])
    night = start_night(client, code)
    public_id = add_table(client, code, night, [ids["Ann"], ids["Bob"], ids["Cy"]])
    assert enter_round(client, public_id, {0: 0, 1: 9, 2: 14}, went_out=0).status_code == 302

    def rename() -> None:
        response = client.post(
            f"/leagues/{code}/players/{ids['Bob']}/edit", data={"name": "Roberta"}
        )
        assert response.status_code == 302, response.get_data(as_text=True)

    def merge() -> None:
        response = client.post(
            f"/leagues/{code}/players/{ids['Ann']}/merge",
            data={"target": str(ids["Ann B."]), "confirm": "yes"},
        )
        assert response.status_code == 302, response.get_data(as_text=True)

    _shows_the_change(client, public_id, rename)
    _shows_the_change(client, public_id, merge)
    board = text_of(client.get(f"/g/{public_id}/watch").get_data(as_text=True))
    assert "Roberta" in board and "Ann B." in board
    assert "Bob" not in board


def test_the_night_poll_answers_from_the_games_versions(app: Flask, client: FlaskClient) -> None:
    """A phone following a league night gets 304 from one query while nothing changed, and
    the new tables as soon as a table, a player's name or the placement points change."""
    from tests.web.test_leagues import settings_data

    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    night = start_night(client, code)
    first = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    add_table(client, code, night, [ids["Cy"], ids["Di"]])
    url = f"/leagues/{code}/nights/{night}/live"

    def poll() -> tuple[str, str]:
        answer = client.get(url)
        assert answer.status_code == 200
        etag = answer.headers["ETag"]
        with counting(app) as statements:
            assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
        assert not any("FROM round" in s or "FROM seat" in s for s in statements), statements
        return etag, text_of(answer.get_data(as_text=True))

    etag, _ = poll()
    assert enter_round(client, first, {0: 0, 1: 9}, went_out=0).status_code == 302
    after_round, page = poll()
    assert after_round != etag and "Round 2 of 13" in page
    assert assert_redirect(
        client.post(f"/leagues/{code}/players/{ids['Ann']}/edit", data={"name": "Annie"})
    )
    after_rename, page = poll()
    assert after_rename != after_round and "Annie" in page
    assert assert_redirect(
        client.post(f"/leagues/{code}/settings", data=settings_data(placement_points="9, 4"))
    )
    after_settings, _ = poll()
    assert after_settings != after_rename


def assert_redirect(response: object) -> bool:
    assert getattr(response, "status_code", None) == 302, response
    return True

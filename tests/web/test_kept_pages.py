"""A game's pages are worked out once per game version (``games.kept``): every change a player
would see moves the version on, so a page kept from before a change is never shown after it.

Each test looks at the pages (so this process keeps them), makes a change, looks again, and
compares with the same pages worked out afresh (everything kept forgotten first)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.games import kept, rows, services
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
    _pages(client, public_id)  # kept for the version before the change
    before = _version(client, public_id)
    change()
    with client.session_transaction() as session:  # the change's "Saved" message, not followed
        session.pop("_flashes", None)
    assert _version(client, public_id) > before, "the change did not move the version on"
    looked = _pages(client, public_id)
    kept.forget_all()
    fresh = _pages(client, public_id)
    for url in PAGES:
        url = url.format(id=public_id)
        assert looked[url] == fresh[url], f"{url} showed what was kept from before the change"


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


def test_a_second_look_reads_only_the_games_row(app: Flask, client: FlaskClient) -> None:
    """The first look at a version loads the seats, rounds and scores; every later look (a
    reload, another phone) reads the game's row and renders what was kept."""
    public_id = start_game(client, ["Ann", "Bob", "Cy", "Di"])
    for number in range(3):
        points = {0: 5 + number, 1: 0, 2: 20, 3: 7}
        assert enter_round(client, public_id, points, went_out=1).status_code == 302
    for page in ("/g/{id}/scoreboard", "/g/{id}/watch", "/g/{id}"):
        url = page.format(id=public_id)
        kept.forget_all()  # each page's first look (pages share what they keep)
        with counting(app) as first:
            assert client.get(url).status_code == 200
        with counting(app) as second:
            assert client.get(url).status_code == 200
        reads = [s for s in second if s.lstrip().upper().startswith("SELECT")]
        assert len(reads) == 1, (url, reads)
        assert len(first) > len(second), url


def test_nothing_is_kept_for_a_version_that_was_rolled_back(
    app: Flask, client: FlaskClient
) -> None:
    """A request that moved the version on and then failed leaves nothing kept under that
    version number: the next write takes the same number with other values."""
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    assert enter_round(client, public_id, {0: 0, 1: 12, 2: 30}, went_out=0).status_code == 302
    with app.app_context():
        game = services.load_game(public_id, for_update=True)
        assert game is not None
        services.touch(game)
        kept.board(services.load(game))  # worked out for the new, uncommitted version
        db.session.rollback()
    assert enter_round(client, public_id, {0: 9, 1: 0, 2: 4}, went_out=1).status_code == 302
    board = text_of(client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True))
    assert "Round by round" in board
    assert re.search(r"2 of 13 rounds", board), board[:400]


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


def test_a_night_works_out_again_only_the_table_that_changed(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A night's page takes each table's board from what is kept for its game's version: after
    a round at one table, the page works out that table's board alone (its rows were handed
    over by the save: nothing is read), and shows what the same page worked out afresh shows."""
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    night = start_night(client, code)
    tables = [
        add_table(client, code, night, [ids[a], ids[b]])
        for a, b in (("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo"))
    ]
    for public_id in tables:
        assert enter_round(client, public_id, {0: 0, 1: 9}, went_out=0).status_code == 302
    with client.session_transaction() as session:
        session.pop("_flashes", None)
    url = f"/leagues/{code}/nights/{night}"
    worked_out: list[str] = []
    board = kept.scoreboard

    def counted(loaded: services.LoadedGame) -> object:
        worked_out.append(loaded.game.public_id)
        return board(loaded)

    monkeypatch.setattr(kept, "scoreboard", counted)

    def look() -> tuple[str, list[str], int]:
        worked_out.clear()
        with counting(app) as statements:
            page = client.get(url)
        assert page.status_code == 200
        reads = sum(bool(SCORES_READ.search(statement)) for statement in statements)
        return text_of(page.get_data(as_text=True)), sorted(worked_out), reads

    kept.forget_all()
    assert look()[1:] == (sorted(tables), 3)  # the first look works out and reads every table
    assert look()[1:] == ([], 0)  # nothing changed: every board is kept
    assert enter_round(client, tables[1], {0: 14, 1: 0}, went_out=1).status_code == 302
    with client.session_transaction() as session:
        session.pop("_flashes", None)
    page, again, reads = look()
    assert (again, reads) == ([tables[1]], 0), "only the table that saved is worked out again"
    assert "Round 3 of 13" in page and page.count("Round 2 of 13") == 2
    kept.forget_all()
    assert look()[0] == page


def assert_redirect(response: object) -> bool:
    assert getattr(response, "status_code", None) == 302, response
    return True


def _kept_rows(app: Flask, public_id: str) -> tuple[object, object]:
    """The rows kept for the game's version now, and the same rows read from the database."""
    with app.app_context():
        game = services.find_game(public_id)
        assert game is not None
        return rows._kept.peek((public_id, game.version, "rows")), rows._read(game)


def test_a_saved_round_keeps_exactly_the_rows_it_wrote(app: Flask, client: FlaskClient) -> None:
    """A save hands the rows of the version it makes to what is kept (the table view the phone
    opens next reads none): they are what the database holds, field for field, for rounds with
    tiles typed, markers, a blocked round, going out on a double and points made in play."""
    mexican = start_game(
        client, ["Ann", "Bob", "Cy", "Di"], marker_penalty=10, end_on_double="double_others"
    )
    rounds = [
        ({0: 0, 2: 7, 3: 12}, {1: "12-5, 3/4, double blank"}, 0, {"seat_2-markers": 1}),
        ({0: 3, 1: 5, 2: 9, 3: 4}, {}, "blocked", {}),
        ({0: 8, 1: 0, 2: 15, 3: 2}, {}, 1, {"on_double": "y", "seat_3-markers": 2}),
    ]
    for points, tiles, went_out, extra in rounds:
        kept.forget_all()
        response = enter_round(client, mexican, points, tiles, went_out=went_out, **extra)
        assert response.status_code == 302, response.get_data(as_text=True)
        handed_over, in_the_database = _kept_rows(app, mexican)
        assert handed_over is not None, "the save kept nothing"
        assert handed_over == in_the_database
    fives = start_game(client, ["Ann", "Bob", "Cy"], kind="all_fives", max_pip=6, target=400)
    for made in ({"seat_0-made": 15, "seat_1-made": 10}, {"seat_2-made": 5}):
        response = enter_round(client, fives, {1: 13, 2: 9}, went_out=0, **made)
        assert response.status_code == 302, response.get_data(as_text=True)
        handed_over, in_the_database = _kept_rows(app, fives)
        assert handed_over is not None and handed_over == in_the_database


def test_rows_are_kept_only_when_the_write_is_committed(app: Flask, client: FlaskClient) -> None:
    """Rows handed over by a write are kept when its transaction commits: not when a savepoint
    inside it is released, and never when it is rolled back."""
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    with app.app_context():
        game = services.find_game(public_id, for_update=True)
        assert game is not None
        table = rows._read(game)
        key = (public_id, game.version, "rows")
        kept.forget_all()
        rows.keep_when_committed(game, table)
        db.session.begin_nested().commit()
        assert rows._kept.peek(key) is None, "kept when a savepoint was released"
        db.session.rollback()
        db.session.commit()
        assert rows._kept.peek(key) is None, "kept after a rollback"
        rows.keep_when_committed(game, table)
        db.session.commit()
        assert rows._kept.peek(key) == table

"""Rights at a league table and deletes with a trail (issue 21 items 1-3 and 29, issue 22 item
3): only the organiser deletes a league game; who may play again; no members' link without a
league right; a refused round after a new passphrase says so in the league's words and shows
what was typed; a deleted game waits in the trash, vanishes from every read, comes back exactly
on undo, and is purged after its days."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player
from tests.web.helpers import enter_round, round_form_fields, start_game
from tests.web.league_helpers import (
    add_players,
    add_table,
    play,
    start_league,
    start_night,
    table_ids,
    text_of,
    unlock,
)
from tests.web.test_leagues import standings_rows

NEW_PASSPHRASE = "red engine 9"


def _league_with_games(
    organiser: FlaskClient, day: str = "2025-03-06"
) -> tuple[str, int, list[str]]:
    """A league with a night of two finished tables: Ann beats Bob at one, Cy beats Dee at the
    other (minimum one game, so everyone is ranked)."""
    code = start_league(organiser)
    organiser.post(
        f"/leagues/{code}/settings",
        data={
            "name": "Thursday Club",
            "ranking": "average",
            "min_games": "1",
            "placement_points": "5, 3, 2, 1",
            "max_pip": "12",
            "start_rule": "rotate",
        },
    )
    ids = add_players(organiser, code, ["Ann", "Bob", "Cy", "Dee"])
    night = start_night(organiser, code, day)
    first = add_table(organiser, code, night, [ids["Ann"], ids["Bob"]])
    play(organiser, first, [0, 20])
    second = add_table(organiser, code, night, [ids["Cy"], ids["Dee"]])
    play(organiser, second, [0, 30])
    return code, night, [first, second]


def _scorer(organiser: FlaskClient, code: str) -> FlaskClient:
    phone = organiser.application.test_client()
    assert unlock(phone, code).status_code == 302
    return phone


def _edit_code_phone(organiser: FlaskClient, game: str) -> FlaskClient:
    page = organiser.get(f"/g/{game}").get_data(as_text=True)
    code = re.search(r'<p class="huge code">([A-Z0-9]+)</p>', page).group(1)  # type: ignore[union-attr]
    phone = organiser.application.test_client()
    assert phone.post(f"/g/{game}/unlock", data={"code": code}).status_code == 302
    return phone


def _change_passphrase(organiser: FlaskClient, code: str, new: str = NEW_PASSPHRASE) -> None:
    response = organiser.post(f"/leagues/{code}/settings/passphrase", data={"new_passphrase": new})
    assert response.status_code == 302


# --------------------------------------------------------------------------------------------
# Issue 21 item 1: deleting a league game is the organiser's; play again


def test_a_table_phone_cannot_delete_a_league_game(client: FlaskClient) -> None:
    code, night, (game, _other) = _league_with_games(client)
    before = standings_rows(client, f"/leagues/{code}")
    for phone in (_scorer(client, code), _edit_code_phone(client, game)):
        assert "Delete this game" not in phone.get(f"/g/{game}/summary").get_data(as_text=True)
        page = phone.get(f"/g/{game}/delete")
        assert page.status_code == 403
        assert "Only the organiser can delete a league game" in page.get_data(as_text=True)
        assert phone.post(f"/g/{game}/delete").status_code == 403
    assert client.get(f"/g/{game}").status_code == 200
    assert standings_rows(client, f"/leagues/{code}") == before
    # The organiser may, and lands on the night's page.
    assert "Delete this game" in client.get(f"/g/{game}/summary").get_data(as_text=True)
    response = client.post(f"/g/{game}/delete")
    assert response.headers["Location"].endswith(f"/leagues/{code}/nights/{night}")


def test_play_again_at_a_league_table(client: FlaskClient) -> None:
    code, night, (game, _other) = _league_with_games(client)  # a past night
    scorer = _scorer(client, code)
    summary = text_of(scorer.get(f"/g/{game}/summary").get_data(as_text=True))
    assert "Play again" not in summary
    assert "is started by the organiser's phone" in summary  # the page says who may
    assert scorer.post(f"/g/{game}/again").status_code == 403
    assert _edit_code_phone(client, game).post(f"/g/{game}/again").status_code == 403
    assert len(table_ids(client, code, night)) == 2
    # The organiser: not the big button at the end of a game, but a page that asks first.
    page = client.get(f"/g/{game}/summary").get_data(as_text=True)
    assert f'<a class="button secondary block" href="/g/{game}/again">' in page
    assert 'action="/g/' + game + '/again"' not in page
    assert "Another game at Table 1?" in client.get(f"/g/{game}/again").get_data(as_text=True)
    assert client.post(f"/g/{game}/again").status_code == 302
    assert len(table_ids(client, code, night)) == 3
    # Tonight's table: a phone with the passphrase may play on.
    ids = add_players(client, code, ["Eve", "Fay"])
    tonight = start_night(client, code, date.today().isoformat())
    table = add_table(client, code, tonight, [ids["Eve"], ids["Fay"]])
    play(scorer, table, [0, 5])
    assert "Play again at" in scorer.get(f"/g/{table}/summary").get_data(as_text=True)
    assert scorer.post(f"/g/{table}/again").status_code == 302
    assert len(table_ids(client, code, tonight)) == 2


def test_a_tables_edit_code_plays_again_at_that_table_tonight(client: FlaskClient) -> None:
    """Issue 36 item 22: the README's rights table gives a table's edit code "the same at that
    one table", "Play again" included; the new game is that phone's to keep score for."""
    code, _night, _games = _league_with_games(client)
    ids = add_players(client, code, ["Eve", "Fay", "Gil", "Hal"])
    tonight = start_night(client, code, date.today().isoformat())
    table = add_table(client, code, tonight, [ids["Eve"], ids["Fay"]])
    other = add_table(client, code, tonight, [ids["Gil"], ids["Hal"]])
    phone = _edit_code_phone(client, table)
    play(phone, table, [0, 5])
    summary = text_of(phone.get(f"/g/{table}/summary").get_data(as_text=True))
    assert "Play again at Table 1" in summary and "is started by the organiser" not in summary
    response = phone.post(f"/g/{table}/again")
    assert response.status_code == 302
    new = response.headers["Location"].rsplit("/", 1)[-1]
    assert new not in (table, other) and len(table_ids(client, code, tonight)) == 3
    assert enter_round(phone, new, {0: 0, 1: 7}, went_out=0).status_code == 302  # it keeps score
    # Not at another table.
    assert phone.post(f"/g/{other}/again").status_code == 403
    assert len(table_ids(client, code, tonight)) == 3


def test_signing_out_takes_a_league_game_off_the_start_page(client: FlaskClient) -> None:
    """Issue 36 item 20: a game this phone started at a league table ("Play again") is listed
    on its start page while it keeps score there, and no longer once it signs out (of the
    league, or of the game when it held the table's edit code)."""
    code, _night, _games = _league_with_games(client)
    ids = add_players(client, code, ["Eve", "Fay", "Gil", "Hal"])
    tonight = start_night(client, code, date.today().isoformat())
    first = add_table(client, code, tonight, [ids["Eve"], ids["Fay"]])
    second = add_table(client, code, tonight, [ids["Gil"], ids["Hal"]])
    scorer, table_phone = _scorer(client, code), _edit_code_phone(client, second)
    play(scorer, first, [0, 5])
    play(table_phone, second, [0, 6])
    started = {}
    for phone, game in ((scorer, first), (table_phone, second)):
        started[game] = phone.post(f"/g/{game}/again").headers["Location"].rsplit("/", 1)[-1]
        assert f"/g/{started[game]}" in phone.get("/").get_data(as_text=True)
    assert scorer.post(f"/leagues/{code}/forget").status_code == 302
    assert table_phone.post(f"/g/{started[second]}/forget").status_code == 302
    for phone, game in ((scorer, first), (table_phone, second)):
        home = phone.get("/").get_data(as_text=True)
        assert f"/g/{started[game]}" not in home and "Games on this phone" not in home
    # A game of its own stays listed.
    own = start_game(scorer, ["Ann", "Bob"])
    assert f"/g/{own}" in scorer.get("/").get_data(as_text=True)


# --------------------------------------------------------------------------------------------
# Issue 21 item 2: the members' link only for phones with a league right


def test_a_game_page_gives_no_members_link_without_a_league_right(client: FlaskClient) -> None:
    code, _night, (game, _other) = _league_with_games(client)
    scorer = _scorer(client, code)
    edit_code = _edit_code_phone(client, game)
    assert f"/leagues/{code}/members/" in scorer.get(f"/g/{game}").get_data(as_text=True)
    _change_passphrase(client, code)
    stranger = client.application.test_client()  # holds only the /watch link
    for phone in (stranger, scorer, edit_code):  # none, the old passphrase, an old edit code
        for page in (f"/g/{game}", f"/g/{game}/summary", f"/g/{game}/watch"):
            html = phone.get(page).get_data(as_text=True)
            assert "/members/" not in html and "members' link" not in html, page
            assert f"/leagues/{code}/nights" not in html, page
        assert phone.get(f"/leagues/{code}/export.json").status_code == 302  # to the passphrase
    assert f"/leagues/{code}/members/" in client.get(f"/g/{game}").get_data(as_text=True)


# --------------------------------------------------------------------------------------------
# Issue 21 item 3: a refused round after a new passphrase


def test_a_round_refused_after_a_new_passphrase_says_so_and_keeps_what_was_typed(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    scorer = _scorer(client, code)
    fields = round_form_fields(scorer, game)  # the round form open on the table's phone
    _change_passphrase(client, code)
    data = {**fields, "seat_0-hand": "17", "seat_1-hand": "0", "went_out": "1"}
    response = scorer.post(f"/g/{game}/round", data=data)
    assert response.status_code == 403
    page = text_of(response.get_data(as_text=True))
    assert "Thursday Club's passphrase has changed" in page
    assert "Ask the organiser for the new passphrase" in page
    assert "edit code" not in page.replace("a table's edit code", "")
    assert "Ann 17" in page and "Bob 0 (went out)" in page
    unlock_url = re.search(r'href="([^"]+)" data-fix', response.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert unlock_url == f"/leagues/{code}/unlock?next=/g/{game}/round"
    # The new passphrase brings the phone back to its round form.
    back = scorer.post(unlock_url, data={"passphrase": NEW_PASSPHRASE})
    assert back.headers["Location"] == f"/g/{game}/round"
    assert scorer.get(f"/g/{game}/round").status_code == 200
    # Opening a table page with the old passphrase leads to the passphrase form too.
    _change_passphrase(client, code, "green engine 5")
    response = scorer.get(f"/g/{game}/round")
    assert response.headers["Location"] == f"/leagues/{code}/unlock?next=/g/{game}/round"


# --------------------------------------------------------------------------------------------
# Issue 22 item 3: deletes with a trail


def _pages(client: FlaskClient, code: str, night: int) -> tuple[object, ...]:
    return (
        standings_rows(client, f"/leagues/{code}?season=all"),
        text_of(client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)).split(
            "Change or delete"
        )[0],
        [
            game
            for night in client.get(f"/leagues/{code}/export.json").get_json()["nights"]
            for game in night["games"]
        ],
    )


def test_a_deleted_league_game_vanishes_and_undo_brings_it_back_exactly(
    client: FlaskClient,
) -> None:
    code, night, (game, other) = _league_with_games(client)
    before = _pages(client, code, night)
    assert [name for _rank, name, _value in before[0]] == ["Ann", "Cy", "Bob", "Dee"]
    client.get(f"/g/{game}/watch")  # kept pages of this version
    delete_page = text_of(client.get(f"/g/{game}/delete").get_data(as_text=True))
    assert "Table 1 on 6 Mar 2025" in delete_page and "brought back" in delete_page
    assert client.post(f"/g/{game}/delete").status_code == 302

    # Gone from every read: standings, the night, exports, the game's own pages and links.
    standings, night_page, exported = _pages(client, code, night)
    assert [name for _rank, name, _value in standings] == ["Cy", "Dee"]
    assert "Table 1" not in night_page.split("Recently deleted")[0]
    assert len(exported) == 1
    for path in ("", "/summary", "/watch", "/watch/board", "/state.json", "/scoreboard"):
        assert client.get(f"/g/{game}{path}").status_code == 404, path
    assert client.get(f"/g/{other}").status_code == 200

    # The trail: who, when, what; with Undo for the organiser only.
    trail = text_of(client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True))
    assert "Recently deleted" in trail
    assert "Ann 0 · Bob 20" in trail and "Deleted by the organiser" in trail
    assert f"/g/{game}/restore" in client.get(f"/leagues/{code}/nights").get_data(as_text=True)
    scorer = _scorer(client, code)
    assert "Recently deleted" not in scorer.get(f"/leagues/{code}/nights/{night}").get_data(
        as_text=True
    )
    assert scorer.post(f"/g/{game}/restore").status_code == 403

    response = client.post(f"/g/{game}/restore")
    assert response.headers["Location"].endswith(f"/g/{game}")
    assert _pages(client, code, night) == before
    assert "Recently deleted" not in client.get(f"/leagues/{code}/nights/{night}").get_data(
        as_text=True
    )


def test_deleted_games_are_purged_after_their_days(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner
) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann"])
    night = start_night(client, code)
    old = add_table(client, code, night, [ids["Ann"]], guests=["Zed"])
    play(client, old, [0, 9])
    recent = add_table(client, code, night, [ids["Ann"]], guests=["Yan"])
    play(client, recent, [0, 4])
    client.post(f"/g/{old}/delete")
    client.post(f"/g/{recent}/delete")
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.public_id == old)).one()
        game.deleted_at = datetime.now(UTC) - timedelta(days=15)
        db.session.commit()
    result = runner.invoke(args=["purge-deleted"])
    assert result.exit_code == 0 and "Purged 1 deleted game." in result.output
    with app.app_context():
        assert db.session.scalars(select(Game).where(Game.public_id == old)).first() is None
        assert db.session.scalars(select(Game).where(Game.public_id == recent)).first()
        guests = set(db.session.scalars(select(Player.name).where(Player.is_guest.is_(True))))
        assert guests == {"Yan"}  # the purged game's guest went with it
    assert client.post(f"/g/{old}/restore").status_code == 404
    assert client.post(f"/g/{recent}/restore").status_code == 302


def test_a_game_of_ones_own_goes_to_the_trash_with_undo_for_its_creator(
    client: FlaskClient,
) -> None:
    game = start_game(client, ["Ann", "Bob"])
    enter_round(client, game, points={0: 0, 1: 12}, went_out=0)
    page = client.get(f"/g/{game}").get_data(as_text=True)
    code = re.search(r'<p class="huge code">([A-Z0-9]+)</p>', page).group(1)  # type: ignore[union-attr]
    friend = client.application.test_client()
    friend.post(f"/g/{game}/unlock", data={"code": code})
    response = friend.post(f"/g/{game}/delete")
    assert response.headers["Location"] == "/"
    assert client.get(f"/g/{game}").status_code == 404
    home = text_of(client.get("/").get_data(as_text=True))
    assert "Recently deleted" in home and "Ann 0 · Bob 12" in home
    assert "Deleted by a scorekeeper" in home
    stranger = client.application.test_client()
    assert stranger.post(f"/g/{game}/restore").status_code == 403
    assert client.post(f"/g/{game}/restore").status_code == 302
    board = text_of(client.get(f"/g/{game}/scoreboard").get_data(as_text=True))
    assert "Ann" in board and "12" in board
    # The edit code seen before the delete unlocks nothing any more (a new one came with it).
    assert (
        client.application.test_client().post(f"/g/{game}/unlock", data={"code": code}).status_code
        == 200
    )
    # A game without rounds holds nothing to keep: it goes at once.
    empty = start_game(client, ["Cy", "Dee"])
    assert "cannot be undone" in client.get(f"/g/{empty}/delete").get_data(as_text=True)
    client.post(f"/g/{empty}/delete")
    assert "Cy" not in text_of(client.get("/").get_data(as_text=True))


# --------------------------------------------------------------------------------------------
# Issue 21 item 29: clear paths for removing tables and nights


def test_removing_started_tables_and_nights_is_asked_and_explained(client: FlaskClient) -> None:
    code, night, (game, other) = _league_with_games(client)
    page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    assert f'href="/g/{game}/delete">Delete Table 1' in page  # a started table: its game
    assert f'action="/leagues/{code}/nights/{night}/delete"' not in page  # no one-tap delete
    ask = text_of(client.get(f"/leagues/{code}/nights/{night}/delete").get_data(as_text=True))
    assert "recorded rounds, so the night stays" in ask and "Delete Table 1's game" in ask
    client.post(f"/g/{game}/delete")
    client.post(f"/g/{other}/delete")
    ask = text_of(client.get(f"/leagues/{code}/nights/{night}/delete").get_data(as_text=True))
    assert "2 deleted games of this night can no longer be brought back" in ask
    assert client.post(f"/leagues/{code}/nights/{night}/delete").status_code == 302
    assert client.get(f"/leagues/{code}/nights/{night}").status_code == 404
    assert client.post(f"/g/{game}/restore").status_code == 404  # gone with the night
    empty = start_night(client, code, "2025-03-13")
    ask = client.get(f"/leagues/{code}/nights/{empty}/delete")
    assert ask.status_code == 200 and "Delete the night of 13 Mar 2025?" in text_of(
        ask.get_data(as_text=True)
    )
    assert (
        client.get(f"/leagues/{code}/nights/{empty}").status_code == 200
    )  # asking deletes nothing
    assert client.post(f"/leagues/{code}/nights/{empty}/delete").status_code == 302
    assert client.get(f"/leagues/{code}/nights/{empty}").status_code == 404

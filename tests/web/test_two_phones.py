"""Two phones on one game at the same moment: real threads against the real database (the
SQLite file of the test run, or PostgreSQL when CI sets TEST_DATABASE_URL).

Each phone is its own test client (its own cookies); a barrier releases both requests at
once. Every round, correction, import and seating must be written exactly once, and the
phone that lost the race must be told, never silently applied to something else.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.games import rounds as rounds_module
from scorekeeper.models import Correction, Game, Night, Round, Score, Seat
from tests.web.helpers import (
    correct_round,
    enter_round,
    round_data,
    round_form_fields,
    start_game,
)
from tests.web.league_helpers import (
    PASSPHRASE,
    add_players,
    add_table,
    start_league,
    start_night,
    unlock,
)
from tests.web.test_leagues_scale import counting
from tests.web.test_leagues_transfer import GOOD, upload

NAMES = ["Ann", "Bob", "Cy"]
PAIRS = 20


def post_at_once(*posts: tuple[FlaskClient, str, dict[str, Any]]) -> list[Any]:
    """Send each (phone, url, form data) from its own thread, released together; returns the
    responses in order."""
    barrier = threading.Barrier(len(posts))
    results: list[Any] = [None] * len(posts)
    errors: list[BaseException] = []

    def run(index: int, phone: FlaskClient, url: str, data: dict[str, Any]) -> None:
        barrier.wait()
        try:
            results[index] = phone.post(url, data=data)
        except BaseException as error:  # reported below, in the test's own thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, *post)) for i, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def second_phone(client: FlaskClient, public_id: str) -> FlaskClient:
    """Another phone at the table, let in with the game's edit code."""
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    code = page.split('<p class="huge code">')[1].split("<")[0].strip()
    other = client.application.test_client()
    assert other.post(f"/g/{public_id}/unlock", data={"code": code}).status_code == 302
    return other


def count(app: Flask, query: Any) -> int:
    with app.app_context():
        return db.session.scalar(query) or 0


def rounds_of(app: Flask, public_id: str) -> list[tuple[int, list[int]]]:
    """(number, points in seat order) of every stored round of the game."""
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.public_id == public_id)).one()
        order = {seat.id: seat.position for seat in game.seats}
        return [
            (r.number, [s.points for s in sorted(r.scores, key=lambda s: order[s.seat_id])])
            for r in game.rounds
        ]


def test_simultaneous_saves_of_one_round_store_it_once(app: Flask, client: FlaskClient) -> None:
    statuses: list[tuple[int, int]] = []
    for pair in range(PAIRS):
        public_id = start_game(client, NAMES)
        other = second_phone(client, public_id)
        mine = {
            **round_data({0: 0, 1: 5, 2: 7}, went_out=0),
            **round_form_fields(client, public_id),
        }
        theirs = {
            **round_data({0: 9, 1: 0, 2: 4}, went_out=1),
            **round_form_fields(other, public_id),
        }
        a, b = post_at_once(
            (client, f"/g/{public_id}/round", mine),
            (other, f"/g/{public_id}/round", theirs),
        )
        statuses.append((a.status_code, b.status_code))
        stored = rounds_of(app, public_id)
        assert [number for number, _ in stored] == [1], (pair, stored, statuses[-1])
        assert sorted(statuses[-1]) == [302, 409], (pair, statuses[-1])
        loser = b if b.status_code == 409 else a
        assert "Round 1 was already saved from another phone" in loser.get_data(as_text=True)
        # The round stored is the winner's, whole: never a mix of the two phones' values.
        assert stored[0][1] in ([0, 5, 7], [9, 0, 4])


def test_a_stale_form_is_refused_and_never_becomes_the_next_round(
    app: Flask, client: FlaskClient
) -> None:
    public_id = start_game(client, NAMES)
    other = second_phone(client, public_id)
    stale = {**round_data({0: 9, 1: 0, 2: 4}, went_out=1), **round_form_fields(other, public_id)}
    assert enter_round(client, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0).status_code == 302
    response = other.post(f"/g/{public_id}/round", data=stale)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Round 1 was already saved from another phone" in page
    assert 'data-conflict="round"' in page and 'data-round="1"' in page
    # What the other phone typed is shown, not lost; the way to correct round 1 is offered.
    assert re.search(r"Cy</th><td>4", page) and f"/g/{public_id}/rounds/1" in page
    assert rounds_of(app, public_id) == [(1, [0, 5, 7])]
    assert "Round 2 of 13" in other.get(f"/g/{public_id}").get_data(as_text=True)


def test_a_resent_form_is_saved_once_and_answered_as_saved(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    data = {**round_data({0: 0, 1: 5, 2: 7}, went_out=0), **round_form_fields(client, public_id)}
    first, second = post_at_once(
        (client, f"/g/{public_id}/round", data),
        (client, f"/g/{public_id}/round", data),
    )
    assert first.status_code == second.status_code == 302
    assert rounds_of(app, public_id) == [(1, [0, 5, 7])]


@contextmanager
def statements_and_checks(app: Flask, monkeypatch: Any) -> Iterator[list[str]]:
    """The statements run inside the block (``counting``), with "check" put in where a round
    is checked against the rules before a save."""
    check = rounds_module.check_round
    with counting(app) as statements:

        def checked(*args: Any, **kwargs: Any) -> Any:
            statements.append("check")
            return check(*args, **kwargs)

        monkeypatch.setattr(rounds_module, "check_round", checked)
        yield statements


def steps(statements: list[str]) -> list[str]:
    """What happened in order: "check", "lock" when a transaction takes the write lock
    (SQLite's BEGIN IMMEDIATE, PostgreSQL's SELECT ... FOR UPDATE), "write" at a round's
    INSERT."""
    named = (
        "check"
        if sql == "check"
        else "lock"
        if sql.startswith("BEGIN IMMEDIATE") or "FOR UPDATE" in sql
        else "write"
        if sql.startswith("INSERT INTO round")
        else None
        for sql in statements
    )
    return [step for step in named if step is not None]


def test_a_save_is_checked_before_it_takes_the_write_lock(
    app: Flask, client: FlaskClient, monkeypatch: Any
) -> None:
    """The round is read and checked without SQLite's one write lock (every table of a club
    night shares it); the lock is taken for the write alone. A refused round never takes it."""
    public_id = start_game(client, NAMES)
    good = {**round_data({0: 0, 1: 5, 2: 7}, went_out=0), **round_form_fields(client, public_id)}
    refused = {**round_data({0: 0, 1: 5}, went_out=0), **round_form_fields(client, public_id)}
    with statements_and_checks(app, monkeypatch) as statements:
        assert client.post(f"/g/{public_id}/round", data=refused).status_code == 422
        assert "lock" not in steps(statements) and "write" not in steps(statements)
        statements.clear()
        assert client.post(f"/g/{public_id}/round", data=good).status_code == 302
    assert steps(statements) == ["check", "lock", "write"]
    assert rounds_of(app, public_id) == [(1, [0, 5, 7])]


def after_the_first_check(
    monkeypatch: Any, phone: FlaskClient, url: str, data: dict[str, Any]
) -> list[int]:
    """``phone`` posts ``data`` to ``url``, from its own thread, right after the first round
    check of the request that comes next (before that request takes its write lock). Returns
    the status of that post once it happened (a list, empty until then)."""
    check = rounds_module.check_round
    answered: list[int] = []

    def check_then_the_phone_posts(*args: Any, **kwargs: Any) -> Any:
        result = check(*args, **kwargs)
        if not answered:
            answered.append(0)
            (response,) = post_at_once((phone, url, data))
            answered[0] = response.status_code
        return result

    monkeypatch.setattr(rounds_module, "check_round", check_then_the_phone_posts)
    return answered


@pytest.mark.parametrize("cut_in", ["saves round 2", "seats a late player", "ends the game"])
def test_what_another_phone_does_between_my_check_and_my_lock_is_never_overwritten(
    app: Flask, client: FlaskClient, monkeypatch: Any, cut_in: str
) -> None:
    """Another phone writes after this phone's round 2 was checked and before it took the
    write lock: this phone's save is answered again under the lock, so it is refused ("already
    saved", with what it typed shown; a player is missing; the game is over) instead of being
    written on top: round 2 is never saved twice, nor without the player who sat down, nor
    into a game that ended."""
    public_id = start_game(client, NAMES)
    assert enter_round(client, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0).status_code == 302
    other = second_phone(client, public_id)
    mine = {**round_data({0: 3, 1: 0, 2: 8}, went_out=1), **round_form_fields(client, public_id)}
    theirs = {
        "saves round 2": (
            f"/g/{public_id}/round",
            {**round_data({0: 9, 1: 4, 2: 0}, went_out=2), **round_form_fields(other, public_id)},
        ),
        "seats a late player": (f"/g/{public_id}/join", {"name": "Di"}),
        "ends the game": (f"/g/{public_id}/finish", {}),
    }[cut_in]
    answered = after_the_first_check(monkeypatch, other, *theirs)
    response = client.post(f"/g/{public_id}/round", data=mine)
    page = response.get_data(as_text=True)
    assert answered == [302]
    first = (1, [0, 5, 7])
    if cut_in == "saves round 2":
        assert response.status_code == 409
        assert "Round 2 was already saved from another phone" in page
        assert rounds_of(app, public_id) == [first, (2, [9, 4, 0])]
    elif cut_in == "seats a late player":
        assert response.status_code == 422 and "Di" in page
        assert rounds_of(app, public_id) == [first]
    else:
        assert response.status_code == 302
        shown = client.get(response.headers["Location"]).get_data(as_text=True)
        assert "This game is over" in shown
        assert rounds_of(app, public_id) == [first]


def _game_with_two_rounds(client: FlaskClient) -> str:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0)
    enter_round(client, public_id, points={0: 3, 1: 0, 2: 8}, went_out=1)
    return public_id


def _correction(client: FlaskClient, public_id: str, number: int, points: dict) -> dict:
    went_out = next(position for position, value in points.items() if value == 0)
    return {
        **round_data(points, went_out=went_out),
        **round_form_fields(client, public_id, number),
    }


def test_simultaneous_corrections_of_two_rounds_undo_only_their_own(
    app: Flask, client: FlaskClient
) -> None:
    for _ in range(PAIRS // 2):
        public_id = _game_with_two_rounds(client)
        other = second_phone(client, public_id)
        one = _correction(client, public_id, 1, {0: 0, 1: 6, 2: 7})
        two = _correction(other, public_id, 2, {0: 3, 1: 0, 2: 9})
        a, b = post_at_once(
            (client, f"/g/{public_id}/rounds/1", one),
            (other, f"/g/{public_id}/rounds/2", two),
        )
        assert a.status_code == b.status_code == 302
        with app.app_context():
            game_id = db.session.scalar(select(Game.id).where(Game.public_id == public_id))
            batches = db.session.execute(
                select(Correction.batch, Correction.round_number).where(
                    Correction.game_id == game_id
                )
            ).all()
        assert len({batch for batch, _ in batches}) == 2, batches
        assert rounds_of(app, public_id) == [(1, [0, 6, 7]), (2, [3, 0, 9])]
        # Undo twice: each undo puts back exactly one correction, onto its own round.
        newest_round = max(batches)[1]
        assert client.post(f"/g/{public_id}/undo").status_code == 302
        after_one = dict(rounds_of(app, public_id))
        expected = {1: [0, 5, 7], 2: [3, 0, 8]}
        assert after_one[newest_round] == expected[newest_round]
        assert after_one[3 - newest_round] == {1: [0, 6, 7], 2: [3, 0, 9]}[3 - newest_round]
        assert client.post(f"/g/{public_id}/undo").status_code == 302
        assert rounds_of(app, public_id) == [(1, [0, 5, 7]), (2, [3, 0, 8])]


def test_simultaneous_corrections_of_one_round_keep_a_true_audit(
    app: Flask, client: FlaskClient
) -> None:
    for _ in range(PAIRS // 2):
        public_id = _game_with_two_rounds(client)
        other = second_phone(client, public_id)
        mine = _correction(client, public_id, 1, {0: 0, 1: 6, 2: 7})
        theirs = _correction(other, public_id, 1, {0: 0, 1: 5, 2: 12})
        a, b = post_at_once(
            (client, f"/g/{public_id}/rounds/1", mine),
            (other, f"/g/{public_id}/rounds/1", theirs),
        )
        assert sorted([a.status_code, b.status_code]) == [302, 409]
        loser = a if a.status_code == 409 else b
        page = loser.get_data(as_text=True)
        assert "was changed on another phone while you were correcting it" in page
        assert 'data-conflict="correction"' in page
        with app.app_context():
            game_id = db.session.scalar(select(Game.id).where(Game.public_id == public_id))
            audit = db.session.execute(
                select(Correction.old_value, Correction.new_value).where(
                    Correction.game_id == game_id
                )
            ).all()
        # One correction happened, and its "from" is the value that was really there.
        assert len(audit) == 1 and audit[0][0] in ("5", "7"), audit
        stored = dict(rounds_of(app, public_id))[1]
        assert stored in ([0, 6, 7], [0, 5, 12])
        # The losing phone sees its own values again and may save them knowingly.
        resend = dict(re.findall(r'name="(seat_\d-hand)"[^>]*value="(\d+)"', page))
        assert resend in (
            {"seat_0-hand": "0", "seat_1-hand": "6", "seat_2-hand": "7"},
            {"seat_0-hand": "0", "seat_1-hand": "5", "seat_2-hand": "12"},
        )


def test_save_mine_after_a_conflict_replaces_knowingly(app: Flask, client: FlaskClient) -> None:
    public_id = _game_with_two_rounds(client)
    other = second_phone(client, public_id)
    theirs = _correction(other, public_id, 1, {0: 0, 1: 5, 2: 12})
    assert (
        correct_round(client, public_id, 1, points={0: 0, 1: 6, 2: 7}, went_out=0).status_code
        == 302
    )
    conflict = other.post(f"/g/{public_id}/rounds/1", data=theirs)
    assert conflict.status_code == 409
    page = conflict.get_data(as_text=True)
    assert "Bob’s points: 5 when you opened it, <strong>6</strong> now" in page
    again = {**theirs, "based_on": round_form_fields(other, public_id, 1)["based_on"]}
    assert "Save mine instead" in page
    assert other.post(f"/g/{public_id}/rounds/1", data=again).status_code == 302
    assert dict(rounds_of(app, public_id))[1] == [0, 5, 12]
    with app.app_context():
        audit = db.session.execute(
            select(Correction.seat_id, Correction.old_value, Correction.new_value).order_by(
                Correction.id
            )
        ).all()
    # 5 -> 6 by the first phone, then 6 -> 5 and 7 -> 12 by the second: each "from" is true.
    assert [(old, new) for _, old, new in audit] == [("5", "6"), ("6", "5"), ("7", "12")]


def test_undo_refuses_when_another_correction_came_first(app: Flask, client: FlaskClient) -> None:
    public_id = _game_with_two_rounds(client)
    correct_round(client, public_id, 1, points={0: 0, 1: 6, 2: 7}, went_out=0)
    board = client.get(f"/g/{public_id}/undo").get_data(as_text=True)  # the confirmation
    batch = re.search(r'name="batch" value="(\d+)"', board).group(1)  # type: ignore[union-attr]
    correct_round(client, public_id, 2, points={0: 3, 1: 0, 2: 9}, went_out=1)
    response = client.post(f"/g/{public_id}/undo", data={"batch": batch})
    assert response.status_code == 302
    page = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert "Another correction was saved since you opened this page" in page
    assert rounds_of(app, public_id) == [(1, [0, 6, 7]), (2, [3, 0, 9])]


def test_a_double_import_confirm_writes_once(app: Flask, client: FlaskClient) -> None:
    code = start_league(client)
    preview = upload(client, code, GOOD).get_data(as_text=True)
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', preview).group(1)  # type: ignore[union-attr]
    a, b = post_at_once(
        (client, f"/leagues/{code}/import/confirm", {"token": token}),
        (client, f"/leagues/{code}/import/confirm", {"token": token}),
    )
    assert a.status_code == b.status_code == 302
    assert count(app, select(func.count()).select_from(Night)) == 1
    assert count(app, select(func.count()).select_from(Game)) == 2
    assert count(app, select(func.count()).select_from(Score)) == 6


def test_a_double_seating_seats_once(app: Flask, client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    night = start_night(client, code)
    # Seating is the organiser's: two tabs of the organiser's phone seat at once.
    url = f"/leagues/{code}/nights/{night}/tables/new"
    for attempt in range(PAIRS // 4):
        first = {"table_name": f"A{attempt}", "players": [str(ids["Ann"]), str(ids["Bob"])]}
        second = {"table_name": f"B{attempt}", "players": [str(ids["Ann"]), str(ids["Cy"])]}
        a, b = post_at_once(
            (client, url, first),
            (client, url, second),
        )
        statuses = sorted([a.status_code, b.status_code])
        assert statuses[0] == 302 and statuses[1] != 302, statuses
        refused = a if a.status_code != 302 else b
        assert "Ann is already playing at" in refused.get_data(as_text=True)
        with app.app_context():
            seated = db.session.scalar(
                select(func.count())
                .select_from(Seat)
                .join(Game, Game.id == Seat.game_id)
                .where(Seat.player_id == ids["Ann"], Game.status == "playing")
            )
            assert seated == 1
            # Finish Ann's table so the next attempt can seat her again.
            for game in db.session.scalars(select(Game).where(Game.status == "playing")):
                game.status = "finished"
            db.session.commit()


def test_a_new_passphrase_locks_old_phones_out_of_game_writes(
    app: Flask, client: FlaskClient
) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    member = client.application.test_client()
    unlock(member, code)
    # The organiser seats the table (seating is the organiser's); the member keeps score there.
    public_id = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    assert enter_round(member, public_id, points={0: 0, 1: 9}, went_out=0).status_code == 302
    page = member.get(f"/g/{public_id}").get_data(as_text=True)
    old_code = page.split('<p class="huge code">')[1].split("<")[0].strip()
    # A helper phone that typed the table's edit code from the member's screen.
    helper = client.application.test_client()
    assert helper.post(f"/g/{public_id}/unlock", data={"code": old_code}).status_code == 302
    fields = round_form_fields(member, public_id)

    response = client.post(
        f"/leagues/{code}/settings/passphrase",
        data={"new_passphrase": "red caboose 9"},
    )
    assert response.status_code == 302, response.get_data(as_text=True)

    data = {**round_data({0: 9, 1: 0}, went_out=1), **fields}
    for phone in (member, helper):
        assert phone.post(f"/g/{public_id}/round", data=data).status_code == 403
        assert phone.post(f"/g/{public_id}/delete").status_code == 403
        assert phone.post(f"/g/{public_id}/finish").status_code == 403
    # The old edit code no longer opens the table either.
    retry = helper.post(f"/g/{public_id}/unlock", data={"code": old_code})
    assert retry.status_code == 200 and "not this game" in retry.get_data(as_text=True)
    assert rounds_of(app, public_id) == [(1, [0, 9])]
    # The organiser keeps every right; the new passphrase gives them back.
    assert client.post(f"/g/{public_id}/round", data=data).status_code == 302
    unlock(member, code, "red caboose 9")
    assert member.get(f"/g/{public_id}/round").status_code == 200
    assert unlock(helper, code, PASSPHRASE).status_code != 302
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 2


@pytest.mark.parametrize("cut_in", ["gives the game a new edit code", "deletes the game"])
def test_what_the_creator_does_between_my_check_and_my_lock_stops_my_save(
    app: Flask, client: FlaskClient, monkeypatch: Any, cut_in: str
) -> None:
    """The creator's phone takes the other phones' right away (a new edit code), or deletes
    the game, after the other phone's round was checked and before it took the write lock.
    Neither moves the game's version on, so the lock reads those columns again too: the save
    is answered again under the lock, and refused, never written."""
    public_id = start_game(client, NAMES)
    assert enter_round(client, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0).status_code == 302
    other = second_phone(client, public_id)
    theirs = {**round_data({0: 3, 1: 0, 2: 8}, went_out=1), **round_form_fields(other, public_id)}
    creator = {
        "gives the game a new edit code": (f"/g/{public_id}/edit-code", {}),
        "deletes the game": (f"/g/{public_id}/delete", {}),
    }[cut_in]
    answered = after_the_first_check(monkeypatch, client, *creator)
    response = other.post(f"/g/{public_id}/round", data=theirs)
    assert answered == [302]
    assert rounds_of(app, public_id) == [(1, [0, 5, 7])]
    # Gone (404), or refused to a phone whose edit code is no longer the game's (403).
    assert response.status_code == (404 if cut_in == "deletes the game" else 403)

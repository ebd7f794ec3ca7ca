"""A game through the test client: setup, rounds, checks, scoreboard, corrections, the end."""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Game, Round
from tests.web.helpers import (
    correct_round,
    enter_round,
    round_data,
    round_form_fields,
    start_game,
)

NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_setup_page_offers_sets_rules_and_explanations(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    assert re.search(r'<input checked[^>]*name="max_pip" type="radio" value="12">', page)
    assert "Counts 50" in page  # the double-blank option with its explanation
    assert "Highest double first" in page


def test_setup_keeps_what_was_typed_on_error(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data={**{"names-0": "Ann", "names-1": "ann"}, "max_pip": "12", "action": ""},
    )
    page = response.get_data(as_text=True)
    assert "at the table twice" in page
    assert 'value="Ann"' in page and 'value="ann"' in page


def test_setup_refuses_more_players_than_the_set_seats(client: FlaskClient) -> None:
    names = [f"P{i}" for i in range(6)]
    page = client.post(
        "/games/new", data={**{f"names-{i}": n for i, n in enumerate(names)}, "max_pip": "6"}
    ).get_data(as_text=True)
    assert "notice error" in page
    assert 'value="P5"' in page


def test_setup_buttons_work_without_javascript(client: FlaskClient) -> None:
    base = {"names-0": "Ann", "names-1": "Bob", "names-2": "", "names-3": "", "max_pip": "12"}
    page = client.post("/games/new", data={**base, "action": "down:0"}).get_data(as_text=True)
    assert page.index('value="Bob"') < page.index('value="Ann"')
    page = client.post("/games/new", data={**base, "action": "add_seat"}).get_data(as_text=True)
    assert "names-4" in page
    page = client.post("/games/new", data={**base, "add_name": "Cy"}).get_data(as_text=True)
    assert 'value="Cy"' in page


def test_rules_are_stored_with_the_game(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, double_blank=50, end_on_double="double_others")
    with app.app_context():
        game = db.session.scalars(db.select(Game).filter_by(public_id=public_id)).one()
        assert game.rules["double_blank"] == 50
        assert game.rules["end_on_double"] == "double_others"
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    assert "Round 1 of 13" in page
    assert (
        "Take out the 12-12 and put it in the hub, shuffle, deal 15 each; "
        "30 stay in the boneyard." in page
    )
    assert "Double blank" in page and "50" in page


def test_a_round_is_scored_by_the_rules(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, double_blank=50)
    response = enter_round(
        client,
        public_id,
        points={1: 12, 2: 30},
        tiles={3: "12-5, 3/4, double blank"},
        went_out=0,
    )
    assert response.status_code == 302
    board = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert "74" in board  # 17 + 7 + 50 for the double blank
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    assert "Round 2 of 13" in page and "11-11" in page


def test_the_same_form_never_records_twice(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    data = round_data({0: 0, 1: 5, 2: 6, 3: 7}, went_out=0)
    data.update(round_form_fields(client, public_id))
    first = client.post(f"/g/{public_id}/round", data=data)
    second = client.post(f"/g/{public_id}/round", data=data)
    assert first.status_code == second.status_code == 302
    assert "already saved" in client.get(f"/g/{public_id}").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Round)) == 1


@pytest.mark.parametrize(
    ("points", "tiles", "went_out", "message"),
    [
        ({1: 5, 2: 5, 3: 5}, {}, None, "who went out"),
        ({0: 0, 1: 5, 2: 5}, {}, 0, "Type Di"),
        ({0: 0, 1: "4.5", 2: 5, 3: 5}, {}, 0, "whole number"),
        ({0: 0, 1: "-3", 2: 5, 3: 5}, {}, 0, "below 0"),
        ({0: 0, 1: 5000, 2: 5, 3: 5}, {}, 0, ""),
        ({0: 0, 2: 5, 3: 5}, {1: "3-5, 13-2"}, 0, "not on a double-12 set"),
        ({0: 0, 3: 5}, {1: "3-5", 2: "5-3"}, 0, "3-5"),
        ({0: 0, 2: 5, 3: 5}, {1: "12-12"}, 0, "12-12"),
        ({0: 7, 1: 5, 2: 5, 3: 5}, {}, 0, ""),
    ],
)
def test_bad_rounds_are_refused_with_what_was_typed_kept(
    client: FlaskClient,
    points: dict[int, object],
    tiles: dict[int, str],
    went_out: int | None,
    message: str,
) -> None:
    public_id = start_game(client, NAMES)
    response = enter_round(client, public_id, points=points, tiles=tiles, went_out=went_out)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Nothing was saved yet" in page
    assert message in page
    for text in tiles.values():
        assert text in page
    for value in points.values():
        assert f'value="{value}"' in page


def test_warnings_show_but_do_not_block(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, points={0: 0, 1: 5, 2: 6, 3: 7}, went_out=0)
    # The live check shows the warning while typing...
    data = round_data({0: 9, 1: 5, 2: 0, 3: 8}, went_out=2)
    live = client.post(f"/g/{public_id}/round/check", data=data).get_data(as_text=True)
    assert "same as last round" in live
    # ...and Save saves at once, as typed, saying what was worth a look.
    response = enter_round(client, public_id, points={0: 9, 1: 5, 2: 0, 3: 8}, went_out=2)
    assert response.status_code == 302
    table = client.get(f"/g/{public_id}").get_data(as_text=True)
    assert "Round 2 saved" in table and "same as last round" in table
    assert "Round 3 of 13" in table


def test_live_check_returns_out_of_band_feedback(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    response = client.post(
        f"/g/{public_id}/round/check",
        data=round_data({0: 0, 2: 1, 3: 1}, tiles={1: "3-5, 5/3"}, went_out=0),
    )
    page = response.get_data(as_text=True)
    assert 'id="seat-1-feedback"' in page and 'hx-swap-oob="true"' in page
    assert "3-5" in page


def test_highest_available_mode_records_the_engine(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, order="highest_available")
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "Engine double this round" in page
    response = enter_round(client, public_id, points={0: 0, 1: 1, 2: 2, 3: 3}, went_out=0)
    assert "Choose which double" in response.get_data(as_text=True)
    assert (
        enter_round(
            client, public_id, points={0: 0, 1: 1, 2: 2, 3: 3}, went_out=0, engine=11
        ).status_code
        == 302
    )
    response = enter_round(
        client, public_id, points={0: 0, 1: 1, 2: 2, 3: 4}, went_out=0, engine=11
    )
    assert "already been an engine" in response.get_data(as_text=True)


def test_penalties_of_the_house_rules(client: FlaskClient) -> None:
    public_id = start_game(
        client, NAMES, marker_penalty=10, end_on_double="double_others", going_out_bonus=-5
    )
    response = enter_round(
        client,
        public_id,
        points={0: 0, 1: 5, 2: 6, 3: 7},
        went_out=0,
        on_double="y",
        **{"seat_1-markers": 1},
    )
    assert response.status_code == 302
    rows = _csv(client, public_id)
    assert [r["points"] for r in rows] == ["-5", "20", "12", "14"]


def test_the_csv_marks_a_blocked_round(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    assert (
        enter_round(client, public_id, points={0: 0, 1: 5, 2: 9, 3: 4}, went_out=0).status_code
        == 302
    )
    response = enter_round(client, public_id, points={0: 3, 1: 5, 2: 9, 3: 4}, went_out="blocked")
    assert response.status_code == 302
    rows = _csv(client, public_id)
    assert [(r["round"], r["blocked"], r["went_out"]) for r in rows[::4]] == [
        ("1", "no", "yes"),
        ("2", "yes", "no"),
    ]


def _csv(client: FlaskClient, public_id: str) -> list[dict[str, str]]:
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    return list(csv.DictReader(io.StringIO(text)))


def test_correction_is_recorded_marked_and_undoable(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, points={0: 0, 1: 12, 2: 30, 3: 8}, went_out=0)
    enter_round(client, public_id, points={0: 10, 1: 0, 2: 3, 3: 9}, went_out=1)
    form = client.get(f"/g/{public_id}/rounds/1").get_data(as_text=True)
    assert 'value="12"' in form
    response = correct_round(
        client, public_id, 1, points={0: 0, 1: 21, 2: 30, 3: 8}, went_out=0, note="misread a 9"
    )
    assert response.status_code == 302
    board = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert "misread a 9" in board and "points 12 → 21" in board
    assert 'class=" corrected"' in board or "corrected" in board
    assert [r["points"] for r in _csv(client, public_id)][:4] == ["0", "21", "30", "8"]
    client.post(f"/g/{public_id}/undo")
    assert [r["points"] for r in _csv(client, public_id)][:4] == ["0", "12", "30", "8"]
    with app.app_context():
        change = db.session.scalars(db.select(Correction)).one()
        assert change.old_value == "12" and change.new_value == "21"
        assert change.undone_at is not None


def test_a_correction_that_changes_nothing_is_not_logged(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, points={0: 0, 1: 12, 2: 30, 3: 8}, went_out=0)
    correct_round(client, public_id, 1, points={0: 0, 1: 12, 2: 30, 3: 8}, went_out=0)
    assert "Nothing was changed" in client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)


def test_whole_game_ends_with_winner_summary_and_csv(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob"], max_pip=6)
    for number in range(7):
        response = enter_round(client, public_id, points={0: 0, 1: number + 1}, went_out=0)
    assert response.headers["Location"].endswith(f"/g/{public_id}/summary")
    summary = client.get(f"/g/{public_id}/summary").get_data(as_text=True)
    assert "Winner" in summary and "Ann" in summary
    assert "Ann wins!" in summary  # the copy-as-text block
    assert len(_csv(client, public_id)) == 14
    response = client.post(f"/g/{public_id}/again")
    assert response.status_code == 302
    assert response.headers["Location"] != f"/g/{public_id}"


def test_tie_shares_the_win(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    enter_round(client, public_id, points={0: 0, 1: 10, 2: 10}, went_out=0)
    enter_round(client, public_id, points={0: 10, 1: 0, 2: 20}, went_out=1)
    client.post(f"/g/{public_id}/finish")
    summary = client.get(f"/g/{public_id}/summary").get_data(as_text=True)
    assert "Co-winners" in summary and "Ann and Bob" in summary


def test_share_view_is_read_only_and_polls(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    watcher = client.application.test_client()
    page = watcher.get(f"/g/{public_id}/watch").get_data(as_text=True)
    assert 'hx-trigger="every 4s"' in page
    assert "<form" not in page.split('<main id="content">')[1]
    first = watcher.get(f"/g/{public_id}/watch/board")
    assert first.status_code == 200
    again = watcher.get(
        f"/g/{public_id}/watch/board", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    enter_round(client, public_id, points={0: 0, 1: 5, 2: 6, 3: 7}, went_out=0)
    after = watcher.get(
        f"/g/{public_id}/watch/board", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert after.status_code == 200
    assert "1 of 13 rounds played" in after.get_data(as_text=True)


def test_qr_code_points_at_the_share_view(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    response = client.get(f"/g/{public_id}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/g/nope").status_code == 404
    assert client.get("/g/nope/watch").status_code == 404


def test_a_league_table_links_back_to_its_night(client: FlaskClient) -> None:
    from tests.web.league_helpers import add_players, add_table, start_league, start_night

    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code, "2026-11-19")
    public_id = add_table(client, code, night, list(ids.values()), table_name="Table 1")
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    assert f'href="/leagues/{code}/nights/{night}"' in page
    assert "19 Nov: all tables" in page

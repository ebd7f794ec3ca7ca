"""Round entry as a table found it (issue 21, items 10-17): one message per unreadable number,
every problem of a round at once, totals no hand can make, the mark of a round gone out on a
double, undo that asks first, the photo's confirmation."""

from __future__ import annotations

import csv
import html
import io
import re

from flask.testing import FlaskClient

from tests.web.helpers import correct_round, enter_round, start_game
from tests.web.helpers import errors_in as escaped_errors_in

NAMES = ["Ann", "Bob", "Cy", "Di"]


def errors_in(page: str) -> list[str]:
    return [html.unescape(error) for error in escaped_errors_in(page)]


def test_letters_in_a_score_get_one_message(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    response = enter_round(client, public_id, {0: 0, 1: "abc", 2: 5, 3: 7}, went_out=0)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert errors_in(page).count("Type a whole number of points, like 23.") == 1
    assert "cannot be below 0" not in page
    assert 'value="abc"' in page  # what was typed stays


def test_a_negative_score_gets_one_message_while_typing_and_on_save(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    data = {"seat_0-hand": "", "seat_1-hand": "-5", "seat_2-hand": "5", "went_out": "0"}
    page = client.post(f"/g/{public_id}/round/check", data=data).get_data(as_text=True)
    assert errors_in(page) == ["Points cannot be below 0."]
    page = enter_round(client, public_id, {0: 0, 1: -5, 2: 5, 3: 7}, went_out=0).get_data(
        as_text=True
    )
    assert errors_in(page) == ["Points cannot be below 0."]


def test_every_problem_of_a_round_shows_on_one_save(client: FlaskClient) -> None:
    """abc, -5, 9999 and a blank: one Save shows all four, each next to its player."""
    public_id = start_game(client, [*NAMES, "Ed"])
    response = enter_round(client, public_id, {0: "abc", 1: -5, 2: 9999}, went_out=4)
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert "Type a whole number of points, like 23." in errors
    assert "Points cannot be below 0." in errors
    assert any("9999" in e for e in errors), errors
    assert "Type Di's points, or the tiles left in the hand." in errors
    assert len(errors) == 4, errors


def test_a_refused_save_without_who_went_out_says_so_with_the_rest(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    page = enter_round(client, public_id, {0: "x", 1: 5, 2: 6, 3: 7}).get_data(as_text=True)
    assert "Type a whole number of points, like 23." in errors_in(page)
    assert "Tap who went out" in page


def test_two_players_who_did_not_go_out_cannot_both_count_0(client: FlaskClient) -> None:
    """Double-12, the 0-0 counts 0: it is the only tile worth 0, so only one player who did
    not go out can count 0."""
    public_id = start_game(client, NAMES)
    response = enter_round(client, public_id, {0: 0, 1: 0, 2: 0, 3: 7}, went_out=0)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Bob and Cy both count 0, but only the 0-0 counts 0" in page
    # One of them at 0 is fine: that one holds the 0-0.
    response = enter_round(client, public_id, {0: 0, 1: 0, 2: 4, 3: 7}, went_out=0)
    assert response.status_code == 302


def test_the_live_check_warns_of_a_total_no_hand_makes(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, double_blank=50)
    data = {"seat_0-hand": "", "seat_1-hand": "0", "seat_2-hand": "5", "went_out": "0"}
    page = client.post(f"/g/{public_id}/round/check", data=data).get_data(as_text=True)
    assert "no tile counts 0 here (the 0-0 counts 50)" in page
    # While nobody is marked as out yet, a single 0 may be the one who went out.
    data["went_out"] = ""
    page = client.post(f"/g/{public_id}/round/check", data=data).get_data(as_text=True)
    assert "field-error" not in page


def test_a_round_gone_out_on_a_double_is_marked_with_a_key_and_in_the_csv(
    client: FlaskClient,
) -> None:
    public_id = start_game(client, NAMES, end_on_double="double_others")
    page = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert "went out on a double" not in page  # no key for what did not happen
    response = enter_round(client, public_id, {0: 0, 1: 5, 2: 6, 3: 7}, went_out=0, on_double="y")
    assert response.status_code == 302
    enter_round(client, public_id, {0: 4, 1: 0, 2: 6, 3: 7}, went_out=1)
    page = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert page.count('title="went out on a double"> ✓✓</span>') == 1
    assert "✓✓ went out on a double" in page  # the key
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [
        (r["round"], r["player"], r["points"]) for r in rows if r["went_out_on_double"] == "yes"
    ] == [("1", "Ann", "0")]
    assert [r["points"] for r in rows[:4]] == ["0", "10", "12", "14"]


def test_undo_asks_first_and_says_what_goes_back(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, {0: 0, 1: 5, 2: 6, 3: 7}, went_out=0)
    correct_round(client, public_id, 1, {0: 0, 1: 12, 2: 6, 3: 7}, went_out=0)
    board = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    # The scoreboard's button leads to a question, not to the undo itself (no form posts it).
    assert f'href="/g/{public_id}/undo"' in board
    assert f'action="/g/{public_id}/undo"' not in board
    page = client.get(f"/g/{public_id}/undo").get_data(as_text=True)
    assert "Undo the last correction?" in page
    assert "Bob</strong>’s points: 12 → <strong>5</strong> again" in page
    assert "Keep the correction" in page
    assert _csv_points(client, public_id) == ["0", "12", "6", "7"]  # asking changed nothing
    batch = re.search(r'name="batch" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
    response = client.post(f"/g/{public_id}/undo", data={"batch": batch})
    assert response.status_code == 302
    assert _csv_points(client, public_id) == ["0", "5", "6", "7"]
    # Nothing left to undo: the page says so instead of asking.
    response = client.get(f"/g/{public_id}/undo")
    assert response.status_code == 302


def _csv_points(client: FlaskClient, public_id: str) -> list[str]:
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    return [row["points"] for row in csv.DictReader(io.StringIO(text))]

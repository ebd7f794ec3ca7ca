"""The session cookie (a phone's right to keep score, its one-off messages) is sent back only
by an answer that changed it.

A browser keeps the cookie of whichever answer arrives last. If every answer sent the cookie
back, an answer to a request sent a moment before a save (the live check of the round form,
a followed table's poll) and arriving after it would put back the session as it was before
the save: the "Round 1 corrected." message gone, or edit rights just given lost."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.web.helpers import correct_round, enter_round, round_data, start_game

NAMES = ["Ann", "Bob", "Cy"]


def _cookie_sent(response: TestResponse) -> bool:
    return any(h.startswith("session=") for h in response.headers.getlist("Set-Cookie"))


def test_answers_that_change_nothing_send_no_cookie(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, {0: 0, 1: 5, 2: 7}, went_out=0)
    client.get(f"/g/{public_id}")  # the "Round 1 saved." message shown, so none is waiting
    for address in ("", "/state.json", "/scoreboard", "/round", "/rounds/1", "/watch"):
        response = client.get(f"/g/{public_id}{address}")
        assert response.status_code == 200, address
        assert not _cookie_sent(response), address
    check = client.post(f"/g/{public_id}/round/check", data=round_data({0: 3}))
    assert check.status_code == 200
    assert not _cookie_sent(check)


def test_a_late_answer_does_not_take_back_the_saved_message(
    app: Flask, client: FlaskClient
) -> None:
    public_id = start_game(client, NAMES)
    enter_round(client, public_id, {0: 0, 1: 5, 2: 7}, went_out=0)
    client.get(f"/g/{public_id}")
    before = client.get_cookie("session")
    assert before is not None
    saved = correct_round(client, public_id, 1, {0: 0, 1: 6, 2: 7}, went_out=0)
    assert saved.status_code == 302
    # The live check the phone sent just before Save is answered after it (the same phone,
    # with the cookie it had then).
    late = app.test_client()
    late.set_cookie("session", before.value)
    answer = late.post(f"/g/{public_id}/round/check?number=1", data=round_data({1: 6}))
    assert answer.status_code == 200
    if _cookie_sent(answer):  # the browser would keep this one, the later
        client.set_cookie("session", late.get_cookie("session").value)
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Round 1 corrected" in page

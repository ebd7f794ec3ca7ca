"""The result card's SVG and the print views: who may see them, what they say, hostile names."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night


def _game(client: FlaskClient, names: list[str]) -> str:
    public_id = start_game(client, names)
    enter_round(
        client, public_id, {i: 0 if i == 0 else 7 * i for i in range(len(names))}, went_out=0
    )
    assert client.post(f"/g/{public_id}/finish").status_code == 302
    return public_id


def test_the_card_is_an_svg_of_the_result_with_names_escaped(client: FlaskClient) -> None:
    public_id = _game(client, ['<script>alert("x")</script>', "Ann & Bob", "Zoë"])
    response = client.get(f"/g/{public_id}/card.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert "private" in response.headers["Cache-Control"]
    body = response.get_data(as_text=True)
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert "Ann &amp; Bob" in body and "Zoë" in body
    assert re.search(r'<svg[^>]* width="1080"', body)
    again = client.get(
        f"/g/{public_id}/card.svg", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304


def test_the_card_says_the_rules_in_one_line_and_who_went_out_most(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob"], double_blank=50)
    enter_round(client, public_id, {0: 0, 1: 9}, went_out=0)
    body = client.get(f"/g/{public_id}/card.svg").get_data(as_text=True)
    assert "Went out most: Ann (once)" in body
    rules = re.search(r">Rules: ([^<]*)", body).group(1)
    assert "double-12" in rules and "50" in rules and "Going-out bonus" not in rules


def test_the_summary_and_the_share_view_offer_the_card_once_the_game_is_over(
    client: FlaskClient,
) -> None:
    public_id = start_game(client, ["Ann", "Bob"])
    enter_round(client, public_id, {0: 0, 1: 9}, went_out=0)
    assert b"data-card-share" not in client.get(f"/g/{public_id}/watch").data
    assert client.post(f"/g/{public_id}/finish").status_code == 302
    for page in ("summary", "watch"):
        html = client.get(f"/g/{public_id}/{page}").get_data(as_text=True)
        assert "data-card-share" in html and f"/g/{public_id}/card.svg" in html
        assert f"/g/{public_id}/print" in html


def test_the_print_view_has_no_navigation_and_says_the_rules(client: FlaskClient) -> None:
    public_id = _game(client, ["Ann", "Bob", "Cy"])
    html = client.get(f"/g/{public_id}/print").get_data(as_text=True)
    assert 'class="topbar"' not in html and "Rules in play:" in html and "Ties:" in html
    assert "Winner: <strong>Ann</strong>" in html


def test_a_nights_card_and_print_views_need_the_right_to_read(
    client: FlaskClient, app: object
) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy"])
    night = start_night(client, code, place='Łódź "Café" ☕')
    play(client, add_table(client, code, night, list(ids.values())), [0, 5, 9])
    for path in (
        f"/leagues/{code}/nights/{night}/card.svg",
        f"/leagues/{code}/nights/{night}/print",
        f"/leagues/{code}/print?season=all&code=x&_external=1",
    ):
        assert client.get(path).status_code == 200, path
        stranger = app.test_client()  # type: ignore[attr-defined]
        assert stranger.get(path).status_code in (302, 403), path
    body = client.get(f"/leagues/{code}/nights/{night}/card.svg").get_data(as_text=True)
    assert "Ann" in body and "Łódź" in body
    night_page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    assert "data-card-share" in night_page
    standings = client.get(f"/leagues/{code}?season=all").get_data(as_text=True)
    assert f"/leagues/{code}/print?season=all" in standings


def test_the_print_view_marks_a_blocked_round_as_the_scoreboard_does(client: FlaskClient) -> None:
    """Issue 36: the scoreboard said "12-12 blocked", the print view only "1 12-12"."""
    public_id = start_game(client, ["Ann", "Bob"])
    enter_round(client, public_id, {0: 4, 1: 9}, went_out="blocked")
    enter_round(client, public_id, {0: 0, 1: 9}, went_out=0)
    html = client.get(f"/g/{public_id}/print").get_data(as_text=True)
    rows = re.findall(r'<th scope="row">(.*?)</th>', html, re.S)
    first, second = (re.sub(r"<[^>]+>|\s+", " ", row).split() for row in rows[:2])
    assert first == ["1", "12-12", "blocked"], rows
    assert second == ["2", "11-11"], rows

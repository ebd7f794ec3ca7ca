"""The other games of rules.md 5 through the app: chosen at setup, the table view tells the
table what it needs, hands record points made during play and the pips left, a target ends
the game, the highest total wins."""

from __future__ import annotations

import csv
import html
import io
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import text_of

NAMES = ["Ann", "Bob", "Cy"]


def _points(client: FlaskClient, public_id: str) -> list[list[int]]:
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    hands: dict[str, list[int]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        hands.setdefault(row["round"], []).append(int(row["points"]))
    return list(hands.values())


def _table(client: FlaskClient, public_id: str) -> str:
    return text_of(client.get(f"/g/{public_id}").get_data(as_text=True))


def test_the_setup_page_offers_every_game(client: FlaskClient) -> None:
    page = text_of(client.get("/games/new").get_data(as_text=True))
    for label in ("Chicken Foot", "All Fives (Muggins)", "Fives and Threes", "Draw", "Block"):
        assert label in page
    page = text_of(client.get("/games/new?game=all_fives").get_data(as_text=True))
    assert "New game: All Fives (Muggins)" in page
    assert "Target score" in page and "One point per five" in page
    assert 'name="order"' not in client.get("/games/new?game=all_fives").get_data(as_text=True)
    assert "Open-train marker" not in page  # a Mexican Train rule
    page = client.get("/games/new?game=chicken_foot").get_data(as_text=True)
    # Chicken Foot starts on its usual double-9 set with the 0-0 at 50.
    assert re.search(r'<input checked[^>]*name="max_pip"[^>]*value="9"', page)
    assert re.search(r'<input checked[^>]*name="double_blank"[^>]*value="50"', page)


def test_all_fives_at_the_table(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="all_fives", max_pip=6, target=40)
    with app.app_context():
        game = db.session.query(Game).filter_by(public_id=public_id).one()
        assert game.kind == "all_fives" and game.rules["target"] == 40
    page = _table(client, public_id)
    assert "Hand 1" in page and "Ann leads with any tile" in page
    assert "Shuffle, deal 5 each; 13 stay face down: draw one when you cannot play" in page
    assert "The first double is the spinner" in page
    assert "first to 40" in page
    form = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "Points made during play" in form
    # Ann makes 15 and goes out; Bob made 10 and holds 13, Cy holds 9: Ann gets 22 -> 20.
    response = enter_round(
        client,
        public_id,
        points={1: 13, 2: 9},
        went_out=0,
        **{"seat_0-made": 15, "seat_1-made": 10},
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id) == [[35, 10, 0]]
    assert "Hand 2" in _table(client, public_id)
    assert "Bob leads with any tile" in _table(client, public_id)
    # Bob reaches 40 first, at the end of the hand: the game is over, the highest total wins.
    response = enter_round(
        client, public_id, points={0: 2, 2: 4}, went_out=1, **{"seat_1-made": 25}
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id)[1] == [0, 30, 0]
    assert "Game over" in _table(client, public_id)
    summary = text_of(client.get(f"/g/{public_id}/summary").get_data(as_text=True))
    assert "Bob" in summary.split("Winner", 1)[1][:40]
    assert "Target: 40" in text_of(client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True))


def test_all_fives_refuses_points_not_in_fives(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="all_fives", max_pip=6)
    response = enter_round(
        client, public_id, points={1: 13, 2: 9}, went_out=0, **{"seat_0-made": 7}
    )
    assert response.status_code == 422
    assert "All Fives scores in fives" in response.get_data(as_text=True)
    assert "7" in response.get_data(as_text=True)  # what was typed stays


def test_fives_and_threes_exactly_61(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob"], kind="fives_and_threes", max_pip=6)
    page = _table(client, public_id)
    assert "Exactly 61 wins: points that would pass 61 are lost" in page
    assert "out of play: knock when you cannot play" in page
    # Pub rules: the pips left do not count; going out scores 1.
    enter_round(client, public_id, went_out=0, **{"seat_0-made": 59, "seat_1-made": 8})
    assert _points(client, public_id) == [[60, 8]]
    response = enter_round(client, public_id, went_out=0, **{"seat_0-made": 2})
    assert response.status_code == 302
    assert _points(client, public_id)[1] == [0, 0]  # 3 would pass 61: lost
    assert "Game over" not in _table(client, public_id)
    enter_round(client, public_id, went_out="blocked", **{"seat_0-made": 1})
    assert "Game over" in _table(client, public_id)


def test_draw_and_block(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="draw", max_pip=6)
    form = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "Points made during play" not in form
    enter_round(client, public_id, tiles={1: "6-6, 1-0"}, points={2: 9}, went_out=0)
    assert _points(client, public_id) == [[22, 0, 0]]
    block = start_game(client, NAMES, kind="block", max_pip=6, block_win="minus_own")
    assert "No drawing from the boneyard" in _table(client, block)
    enter_round(client, block, points={0: 3, 1: 10, 2: 12}, went_out="blocked")
    assert _points(client, block) == [[19, 0, 0]]
    board = html.unescape(text_of(client.get(f"/g/{block}/scoreboard").get_data(as_text=True)))
    assert "The winner of a hand scores the other players' pips minus their own" in board


def test_play_again_keeps_the_game(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="block", max_pip=6)
    response = client.post(f"/g/{public_id}/again")
    new = response.headers["Location"].rsplit("/", 1)[1]
    assert "Block" in _table(client, new) and "Hand 1" in _table(client, new)


def test_chicken_foot(client: FlaskClient) -> None:
    public_id = start_game(
        client, NAMES, kind="chicken_foot", max_pip=9, double_blank=50, start_rule="engine_holder"
    )
    page = _table(client, public_id)
    assert "Round 1 of 10" in page and "9-9" in page
    assert "every double played after is a chicken foot" in page
    assert "Whoever holds the 9-9 places it in the middle of the table and starts" in page
    enter_round(client, public_id, tiles={1: "0-0, 3-4"}, points={2: 12}, went_out=0)
    assert _points(client, public_id) == [[0, 57, 12]]
    assert "Game: Chicken Foot" in text_of(
        client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    )


def test_a_points_game_setup_keeps_the_game_on_error(client: FlaskClient) -> None:
    from tests.web.helpers import setup_data

    response = client.post(
        "/games/new", data=setup_data(["A", "B", "C", "D", "E"], kind="draw", max_pip=6)
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "at most 4 players" in page
    assert 'name="kind" type="hidden" value="draw"' in page


def test_a_hand_is_corrected_with_its_points_made(client: FlaskClient) -> None:
    from tests.web.helpers import correct_round

    public_id = start_game(client, NAMES, kind="all_fives", max_pip=6)
    enter_round(client, public_id, points={1: 13, 2: 9}, went_out=0, **{"seat_0-made": 15})
    form = client.get(f"/g/{public_id}/rounds/1").get_data(as_text=True)
    assert "Correct hand 1" in form and 'name="seat_0-made"' in form and 'value="15"' in form
    response = correct_round(
        client, public_id, 1, points={1: 13, 2: 9}, went_out=0, **{"seat_0-made": 25}
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id) == [[45, 0, 0]]
    board = text_of(client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True))
    assert "points made during play 15 → 25" in board
    assert client.post(f"/g/{public_id}/undo").status_code == 302
    assert _points(client, public_id) == [[35, 0, 0]]


def test_an_unknown_game_is_mexican_train(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="<script>")
    page = client.get("/games/new?game=nonsense")
    assert page.status_code == 200
    with app.app_context():
        assert db.session.query(Game).filter_by(public_id=public_id).one().kind == "mexican_train"


def test_partners_share_one_score_at_the_table(client: FlaskClient) -> None:
    from tests.web.helpers import setup_data

    response = client.post(
        "/games/new", data=setup_data(NAMES, kind="block", max_pip=6, partners="True")
    )
    assert "Partnerships need four players: two against two" in response.get_data(as_text=True)
    public_id = start_game(client, [*NAMES, "Di"], kind="block", max_pip=6, partners="True")
    assert "Partners sit opposite" in _table(client, public_id)
    enter_round(client, public_id, points={0: 3, 1: 4, 2: 9, 3: 2}, went_out="blocked")
    assert _points(client, public_id) == [[0, 12, 0, 12]]
    client.post(f"/g/{public_id}/finish")
    summary = text_of(client.get(f"/g/{public_id}/summary").get_data(as_text=True))
    assert "Co-winners Bob and Di" in summary


def test_every_page_of_a_points_game(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="draw", max_pip=6)
    enter_round(client, public_id, points={1: 5, 2: 9}, went_out=0)
    for path in ("", "/round", "/scoreboard", "/summary", "/watch", "/game.csv", "/state.json"):
        response = client.get(f"/g/{public_id}{path}")
        assert response.status_code == 200, path
    watch = text_of(client.get(f"/g/{public_id}/watch").get_data(as_text=True))
    assert "1 hand played" in watch
    text = client.get(f"/g/{public_id}/summary").get_data(as_text=True)
    assert "Draw, " in html.unescape(text) and "1 hand" in html.unescape(text)


def test_points_made_are_kept_only_where_play_makes_points(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)  # Mexican Train
    enter_round(client, public_id, points={1: 5, 2: 9}, went_out=0, **{"seat_1-made": 50})
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    assert [row["made"] for row in csv.DictReader(io.StringIO(text))] == ["0", "0", "0"]


def test_the_scoreboard_chart_says_which_way_is_better(client: FlaskClient) -> None:
    """A points game's chart counts hands and says the higher total is better; Mexican Train's
    counts rounds and says the lower is."""
    fives = start_game(client, NAMES, kind="all_fives", max_pip=6, target=40)
    saved = enter_round(client, fives, points={1: 13, 2: 9}, went_out=0, **{"seat_0-made": 15})
    assert saved.status_code == 302
    board = html.unescape(client.get(f"/g/{fives}/scoreboard").get_data(as_text=True))
    assert "Running totals after each hand (higher is better)" in board
    train = start_game(client, NAMES)
    assert enter_round(client, train, points={0: 0, 1: 5, 2: 9}, went_out=0).status_code == 302
    board = html.unescape(client.get(f"/g/{train}/scoreboard").get_data(as_text=True))
    assert "Running totals after each round (lower is better)" in board

"""The house rules of issue 13 through the app: chosen at setup or in the league settings,
stored with the game, scored as the rule says and said in "Rules in play"."""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, add_table, start_league, start_night, text_of

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _points(client: FlaskClient, public_id: str) -> list[list[int]]:
    """Each round's points in seat order, from the game's CSV."""
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    rounds: dict[str, list[int]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        rounds.setdefault(row["round"], []).append(int(row["points"]))
    return list(rounds.values())


def _rules_in_play(client: FlaskClient, public_id: str) -> str:
    page = client.get(f"/g/{public_id}").get_data(as_text=True)
    return text_of(page.split("Rules in play", 1)[1].split("</details>", 1)[0])


def test_setup_offers_the_new_rules(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    for text in (
        "Counts 5 (the double blank then counts 10)",
        "The double-blank penalty is added on top of its two blank halves",
        "Count twice their pips",
        "The lowest hand scores 0",
        "That player&#39;s hand counts 3 times",
        "Arrivals: one point for going out",
        "The player with the lowest total so far starts the next round",
        "Break ties by most rounds with 0 points",
    ):
        assert text in page, text


def test_blank_halves_doubles_and_the_blocked_cap(app: Flask, client: FlaskClient) -> None:
    public_id = start_game(
        client,
        NAMES,
        blank_half=5,
        double_blank=50,
        double_blank_on_top="True",
        doubles_count="twice",
        blocked_round="lowest_zero",
    )
    with app.app_context():
        game = db.session.query(Game).filter_by(public_id=public_id).one()
        assert game.rules["double_blank_on_top"] is True
        assert game.rules["doubles_count"] == "twice"
    # Blocked: Ann 0-0 (10 + 50), Bob 6-6 (24), Cy 0-3 (8: lowest, scores 0), Di 2-5 + 1-1 (11).
    response = enter_round(
        client,
        public_id,
        tiles={0: "double blank", 1: "6-6", 2: "0-3", 3: "2-5, 1-1"},
        went_out="blocked",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id) == [[60, 24, 0, 11]]
    shown = _rules_in_play(client, public_id)
    assert "Blank halves count 5 each; double blank counts 10 + 50 = 60" in shown
    assert "Doubles left in hand count twice their pips" in shown
    assert "Blocked round: the lowest hand scores 0" in shown


def test_blank_halves_without_the_penalty_on_top(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, blank_half=5, double_blank=50)
    enter_round(client, public_id, tiles={1: "0-0", 2: "0-4", 3: "3-4"}, went_out=0)
    assert _points(client, public_id) == [[0, 10, 9, 7]]
    assert "(the double-blank 50 is not added on top)" in _rules_in_play(client, public_id)


def test_a_double_left_open_counts_as_a_multiple(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, open_double_penalty="times_3")
    form = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "Doubles left open at the end" in form and "the hand counts ×3" in form
    response = enter_round(
        client, public_id, points={1: 12, 2: 5, 3: 7}, went_out=0, **{"seat_1-open_doubles": 1}
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id) == [[0, 36, 5, 7]]
    assert "that player's hand counts ×3" in _rules_in_play(client, public_id).replace("&#39;", "'")


def test_a_double_left_open_in_fixed_points_and_its_correction(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, open_double_penalty="plus_10")
    enter_round(client, public_id, points={1: 12, 2: 5, 3: 7}, went_out=0)
    assert _points(client, public_id) == [[0, 12, 5, 7]]
    from tests.web.helpers import correct_round

    response = correct_round(
        client, public_id, 1, points={1: 12, 2: 5, 3: 7}, went_out=0, **{"seat_2-open_doubles": 2}
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id) == [[0, 12, 25, 7]]
    history = text_of(client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True))
    assert "doubles left open" in history


def test_open_doubles_need_the_rule(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    response = enter_round(
        client, public_id, points={1: 12, 2: 5, 3: 7}, went_out=0, **{"seat_1-open_doubles": 1}
    )
    assert response.status_code == 422
    assert "A double left open only counts when the house rules give it a penalty." in (
        response.get_data(as_text=True)
    )


def test_arrivals_scoring(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"], score_by="arrivals")
    form = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "Arrivals scoring: tap who went out" in form
    # Under arrivals nobody has to type a hand: only who went out counts.
    for went_out in (1, 1, "blocked", 0):
        response = enter_round(client, public_id, went_out=went_out)
        assert response.status_code == 302, response.get_data(as_text=True)
    assert _points(client, public_id) == [[0, 1, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0]]
    assert client.post(f"/g/{public_id}/finish").status_code == 302
    summary = text_of(client.get(f"/g/{public_id}/summary").get_data(as_text=True))
    assert "Bob wins" in summary or re.search(r"Bob\s+wins", summary), summary
    assert "Scoring: arrivals" in _rules_in_play(client, public_id)


def test_the_lowest_total_starts(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"], start_rule="lowest_total")
    assert "Ann starts" in client.get(f"/g/{public_id}").get_data(as_text=True)
    enter_round(client, public_id, points={0: 20, 2: 9}, went_out=1)
    page = text_of(client.get(f"/g/{public_id}").get_data(as_text=True))
    assert "Bob starts (lowest total: 0)" in page
    assert "Who starts: the player with the lowest total so far" in page


def test_the_clubs_tie_break_chain(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob"], tie_break="zero_rounds")
    # Ann 0 + 10 = 10 with one 0 round; Bob 5 + 5 = 10 with none... and Bob went out never.
    enter_round(client, public_id, points={0: 0, 1: 5}, went_out="blocked")
    enter_round(client, public_id, points={0: 10, 1: 5}, went_out="blocked")
    client.post(f"/g/{public_id}/finish")
    summary = text_of(client.get(f"/g/{public_id}/summary").get_data(as_text=True))
    assert "Ann wins" in summary, summary
    assert "ahead on rounds with 0: 1 to 0" in summary
    assert "Ties: broken by most rounds with 0 points" in _rules_in_play(client, public_id)


def test_league_settings_choose_the_new_rules_for_new_tables(client: FlaskClient) -> None:
    code = start_league(client)
    page = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    assert "Break ties by most rounds with 0 points" in page
    assert "Count twice their pips" in page
    response = client.post(
        f"/leagues/{code}/settings",
        data={
            "name": "Thursday Club",
            "ranking": "average",
            "min_games": "3",
            "min_nights_percent": "0",
            "placement_points": "5, 3, 2, 1",
            "max_pip": "12",
            "doubles_count": "twice",
            "blocked_round": "lowest_zero",
            "tie_break": "zero_rounds",
            "start_rule": "rotate",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    ids = add_players(client, code, ["Ann", "Bob", "Cy"])
    night = start_night(client, code)
    public_id = add_table(client, code, night, list(ids.values()))
    shown = _rules_in_play(client, public_id)
    assert "Doubles left in hand count twice their pips" in shown
    assert "Blocked round: the lowest hand scores 0" in shown
    assert "Ties: broken by most rounds with 0 points" in shown
    enter_round(client, public_id, tiles={0: "6-6", 1: "1-2", 2: "3-3"}, went_out="blocked")
    assert _points(client, public_id) == [[24, 0, 12]]


@pytest.mark.parametrize(
    ("rules", "asked", "not_asked"),
    [
        ({}, [], ["markers", "open_doubles", "made"]),
        ({"marker_penalty": 10}, ["markers"], ["open_doubles", "made"]),
        ({"open_double_penalty": "plus_10"}, ["open_doubles"], ["markers", "made"]),
        ({"kind": "all_fives", "max_pip": 6}, ["made"], ["markers", "open_doubles"]),
    ],
)
def test_the_round_form_asks_only_for_what_the_rules_count(
    client: FlaskClient, rules: dict[str, object], asked: list[str], not_asked: list[str]
) -> None:
    """Each player's markers, doubles left open and points made are asked for only when the
    game's rules count them (the form is built with just those fields)."""
    public_id = start_game(client, NAMES, **rules)
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    for name in asked:
        assert f'name="seat_0-{name}"' in page, name
    for name in not_asked:
        assert f'name="seat_0-{name}"' not in page, name

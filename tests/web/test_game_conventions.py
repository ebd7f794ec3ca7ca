"""Each game through the app in its own words and from its own sheets (issue 21, items 18-23):
the setup offers only the rules that make sense for the game, a game of hands says "hand",
the summary notes a tie-break only where one applied, each game deals from its own sheet, and
the published conventions offered as house rules score as they say. Stored games keep their
scores."""

from __future__ import annotations

import csv
import html
import io
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.web.helpers import enter_round, setup_data, start_game
from tests.web.league_helpers import text_of

NAMES = ["Ann", "Bob", "Cy"]


def _page(client: FlaskClient, path: str) -> str:
    return html.unescape(text_of(client.get(path).get_data(as_text=True)))


def _points(client: FlaskClient, public_id: str) -> list[list[int]]:
    text = client.get(f"/g/{public_id}/game.csv").get_data(as_text=True)
    hands: dict[str, list[int]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        hands.setdefault(row["round"], []).append(int(row["points"]))
    return list(hands.values())


def _radio_values(page: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}"[^>]*value="([^"]*)"', page)


# --- 18: only the rules that make sense for the game, worded for it ------------------------------


def test_all_fives_setup_offers_ties_for_the_highest_total(client: FlaskClient) -> None:
    raw = client.get("/games/new?game=all_fives").get_data(as_text=True)
    page = html.unescape(text_of(raw))
    assert "Tie for the highest total" in page
    assert "Tie for the lowest total" not in page
    assert "lowest worst round" not in page and "rounds with 0 points" not in page
    assert "plays another hand" in page
    assert _radio_values(raw, "tie_break") == ["co_winners", "another_hand"]
    assert "13 rounds" not in page  # the sets of a game of hands
    assert "Double-6: 28 tiles, 2-4 players (All Fives sheet)" in page
    train = _page(client, "/games/new")
    assert "Tie for the lowest total" in train and "lowest worst round" in train


def test_a_tie_break_the_game_does_not_offer_is_refused(client: FlaskClient) -> None:
    response = client.post(
        "/games/new", data=setup_data(NAMES, kind="all_fives", max_pip=6, tie_break="chain")
    )
    assert response.status_code == 200
    assert 'value="all_fives"' in response.get_data(as_text=True)  # still All Fives
    assert (
        client.post(
            "/games/new",
            data=setup_data(NAMES, kind="all_fives", max_pip=6, tie_break="another_hand"),
        ).status_code
        == 302
    )


# --- 19: the pips box, the target once, "hand" in a game of hands --------------------------------


def test_a_game_of_hands_reads_hand_and_labels_its_boxes(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="all_fives", max_pip=6)
    raw = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    labels = re.findall(r'<label id="seat-\d-name"[^>]*>(.*?)</label>', raw, re.S)
    assert len(labels) == 3 and all("pips left" in label for label in labels)
    form = html.unescape(text_of(raw))
    assert "target 150" not in form and form.count("Target: 150") == 1
    enter_round(client, public_id, points={1: 13, 2: 9}, went_out=0, **{"seat_0-made": 15})
    board = _page(client, f"/g/{public_id}/scoreboard")
    assert "Hand by hand" in board and "Round by round" not in board
    assert "won the hand" in board and "won the round" not in board
    client.post(f"/g/{public_id}/finish")
    summary = _page(client, f"/g/{public_id}/summary")
    assert "Won: hands won" in summary and "best and worst hand" in summary
    assert "Rounds won" not in summary and "round won" not in summary
    assert "(1 hand won)" in summary
    watch = _page(client, f"/g/{public_id}/watch")
    assert "Game over after 1 hand" in watch and "Hand by hand" in watch


def test_mexican_train_still_reads_round(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    raw = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "pips left" not in raw
    enter_round(client, public_id, points={1: 5, 2: 9}, went_out=0)
    board = _page(client, f"/g/{public_id}/scoreboard")
    assert "Round by round" in board and "won the round" in board


# --- 20, 22: each game deals from its own sheets ------------------------------------------------


def test_chicken_foot_setup_lists_its_own_deal_sheet(client: FlaskClient) -> None:
    raw = client.get("/games/new?game=chicken_foot").get_data(as_text=True)
    page = html.unescape(text_of(raw))
    assert "15 15 15 12" not in page and "Cardinal" not in page and "Fundex" not in page
    assert "The Chicken Foot sheet: 5 each for 2-4 players on a double-6" in page
    assert _radio_values(raw, "deal_table") == ["standard", "custom"]
    assert "Losing total" in page


def test_chicken_foot_on_a_double_6_deals_5_each(client: FlaskClient) -> None:
    public_id = start_game(
        client, NAMES, kind="chicken_foot", max_pip=6, double_blank=50, start_rule="engine_holder"
    )
    table = _page(client, f"/g/{public_id}")
    assert "deal 5 each" in table and "deal 8 each" not in table
    assert "Deal: Chicken Foot sheet for a double-6 set, 5 each for 2-4 players" in table
    assert "Deal: standard table" not in table


def test_chicken_foot_on_a_double_9_names_its_sheet(client: FlaskClient) -> None:
    public_id = start_game(
        client, NAMES, kind="chicken_foot", max_pip=9, double_blank=50, start_rule="engine_holder"
    )
    board = _page(client, f"/g/{public_id}/scoreboard")
    assert "Deal: Chicken Foot sheet for a double-9 set" in board
    assert "deal 7 each" in _page(client, f"/g/{public_id}")


def test_block_with_more_players_deals_7_each(client: FlaskClient) -> None:
    five = start_game(client, ["A", "B", "C", "D", "E"], kind="block", max_pip=9)
    table = _page(client, f"/g/{five}")
    assert "deal 7 each" in table and "computed" not in table
    assert "Deal: Block sheet for a double-9 set, 7 each for 5-7 players" in table
    eight = start_game(client, [f"P{n}" for n in range(8)], kind="block", max_pip=12)
    assert "deal 7 each" in _page(client, f"/g/{eight}")


def test_all_fives_names_its_deal_sheet(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="all_fives", max_pip=6)
    board = _page(client, f"/g/{public_id}/scoreboard")
    assert "Deal: All Fives sheet for a double-6 set" in board
    assert "Deal: standard table" not in board


# --- 21: a tie-break only where one applied ----------------------------------------------------


def _tied_game(client: FlaskClient, tie_break: str) -> str:
    public_id = start_game(client, ["Ann", "Bob"], tie_break=tie_break)
    enter_round(client, public_id, points={1: 10}, went_out=0)
    enter_round(client, public_id, points={0: 10}, went_out=1)
    client.post(f"/g/{public_id}/finish")
    return _page(client, f"/g/{public_id}/summary")


def test_a_tie_under_co_winners_notes_no_tie_break(client: FlaskClient) -> None:
    summary = _tied_game(client, "co_winners")
    assert "Co-winners" in summary
    assert "Tie-break" not in summary
    assert "Ties: Players tied for the lowest total are co-winners." in summary


def test_a_tie_broken_by_the_chain_says_how(client: FlaskClient) -> None:
    summary = _tied_game(client, "chain")
    assert "Tie-break: tied on 10; ahead on final round: 0 to 10." in summary


# --- 23: the published conventions a hand-by-hand score can express -------------------------------


def test_all_fives_each_opponent_rounded_on_its_own(client: FlaskClient) -> None:
    plain = start_game(client, NAMES, kind="all_fives", max_pip=6)
    enter_round(client, plain, points={1: 8, 2: 8}, went_out=0)
    each = start_game(client, NAMES, kind="all_fives", max_pip=6, all_fives_rounding="each_nearest")
    enter_round(client, each, points={1: 8, 2: 8}, went_out=0)
    assert _points(client, plain) == [[15, 0, 0]] and _points(client, each) == [[20, 0, 0]]
    assert "each opponent's pips rounded to the nearest 5" in _page(client, f"/g/{each}/scoreboard")


def test_all_fives_bonus_rounded_down_and_blocked_minus_own(client: FlaskClient) -> None:
    public_id = start_game(
        client,
        NAMES,
        kind="all_fives",
        max_pip=6,
        all_fives_rounding="together_down",
        all_fives_blocked="minus_own",
    )
    enter_round(client, public_id, points={1: 13, 2: 16}, went_out=0)  # 29 -> 25
    enter_round(client, public_id, points={0: 7, 1: 13, 2: 9}, went_out="blocked")  # 22 - 7
    assert _points(client, public_id) == [[25, 0, 0], [15, 0, 0]]
    board = _page(client, f"/g/{public_id}/scoreboard")
    assert "Blocked hand: the lowest hand scores the others' pips minus its own" in board


def test_a_tie_at_the_target_plays_another_hand(client: FlaskClient) -> None:
    public_id = start_game(
        client, ["Ann", "Bob"], kind="all_fives", max_pip=6, target=20, tie_break="another_hand"
    )
    enter_round(
        client, public_id, points={1: 10}, went_out=0, **{"seat_0-made": 10, "seat_1-made": 20}
    )
    assert _points(client, public_id) == [[20, 20]]
    table = _page(client, f"/g/{public_id}")
    assert "Game over" not in table and "Hand 2" in table
    assert "Ties at the target: another hand is played" in table
    enter_round(client, public_id, points={0: 5}, went_out=1)
    assert "Game over" in _page(client, f"/g/{public_id}")
    summary = _page(client, f"/g/{public_id}/summary")
    assert "Bob" in summary.split("Winner", 1)[1][:20]


def test_fives_and_threes_to_the_highest_above_100(client: FlaskClient) -> None:
    public_id = start_game(
        client, ["Ann", "Bob"], kind="fives_and_threes", max_pip=6, fives_threes_scale="pub_100"
    )
    table = _page(client, f"/g/{public_id}")
    assert "first to 100" in table and "Exactly" not in table
    enter_round(client, public_id, went_out=0, **{"seat_0-made": 98, "seat_1-made": 40})
    assert "Game over" not in _page(client, f"/g/{public_id}")
    enter_round(client, public_id, went_out=0, **{"seat_0-made": 8})
    assert _points(client, public_id)[1] == [9, 0]  # past 100: nothing lost
    assert "Game over" in _page(client, f"/g/{public_id}")


def test_block_tie_broken_by_the_lightest_tile(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, kind="block", max_pip=6, block_tie="lightest_tile")
    enter_round(
        client, public_id, tiles={0: "1-0, 6-6", 1: "3-4, 3-3"}, points={2: 20}, went_out="blocked"
    )
    assert _points(client, public_id) == [[33, 0, 0]]
    board = client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)
    assert 'title="won the hand"' in board
    assert "Blocked hand tied for lowest: the lightest single tile wins" in html.unescape(
        text_of(board)
    )


def test_a_down_then_up_schedule(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, max_pip=6, order="down_and_up")
    table = _page(client, f"/g/{public_id}")
    assert "Round 1 of 14" in table
    assert "Engines: 6-6 down to 0-0, then back up to 6-6, 14 rounds" in table


def test_chicken_foot_to_a_losing_total(client: FlaskClient) -> None:
    public_id = start_game(
        client,
        NAMES,
        kind="chicken_foot",
        max_pip=9,
        double_blank=50,
        start_rule="engine_holder",
        losing_total=50,
    )
    assert "reaches 50" in _page(client, f"/g/{public_id}")
    enter_round(client, public_id, tiles={1: "0-0, 3-4"}, points={2: 12}, went_out=0)
    assert "Game over" in _page(client, f"/g/{public_id}")
    summary = _page(client, f"/g/{public_id}/summary")
    assert "Ann" in summary.split("Winner", 1)[1][:20]
    # Carrying on is refused in the game's words.
    refused = client.post(f"/g/{public_id}/reopen", follow_redirects=True)
    assert "Someone has reached the losing total; correct a round instead." in html.unescape(
        refused.get_data(as_text=True)
    )


def test_a_losing_total_out_of_range_keeps_the_form(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data=setup_data(NAMES, kind="chicken_foot", max_pip=9, double_blank=50, losing_total="0"),
    )
    assert response.status_code == 200
    assert "Type from 1 to 1000." in response.get_data(as_text=True)


# --- Stored games keep their behaviour -----------------------------------------------------------


def test_a_game_stored_before_the_new_rules_scores_as_before(
    app: Flask, client: FlaskClient
) -> None:
    public_id = start_game(client, NAMES, kind="all_fives", max_pip=6)
    with app.app_context():
        game = db.session.scalars(select(Game).filter_by(public_id=public_id)).one()
        old = {
            key: value
            for key, value in game.rules.items()
            if key not in ("all_fives_rounding", "all_fives_blocked", "block_tie", "losing_total")
        }
        game.rules = old
        db.session.commit()
    enter_round(client, public_id, points={1: 8, 2: 8}, went_out=0)
    assert _points(client, public_id) == [[15, 0, 0]]  # 16 rounded to the nearest 5

"""A new game is one declaration (issue 38, item 1): a toy game declared in this file alone,
registered for the test and taken out after, is offered on the new-game page, set up, shown
at the table, scored hand by hand, on the scoreboard and the summary, carried by the league
export and rebuilt by the import, dealt by the table helper, worded in "Rules in play", with
nothing else touched."""

from __future__ import annotations

import html
from collections.abc import Iterator
from types import MappingProxyType

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import HOUSE_RULES
from scorekeeper.rules.games import VARIANTS, GameVariant, register, unregister
from scorekeeper.rules.games.points import PointGame
from scorekeeper.rules.games.points_game import BLOCK_WIN, points_game
from scorekeeper.rules.games.registry import deal_sources
from scorekeeper.rules.games.sheets import GameSheets, SheetSource
from scorekeeper.rules.words import lazy
from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, start_league, start_night, text_of
from tests.web.test_league_games import _table_of
from tests.web.test_leagues_transfer import confirm, problems, upload

#: The toy: double-6, 8 tiles each for two players, 6 for three, 5 for four; no points during
#: play; the winner of a hand scores the others' pips; first to 30 wins.
TOY = points_game(
    PointGame(
        name="toy_sevens",
        label=lazy("Toy Sevens"),
        description=lazy("A toy game: double-6, the winner of a hand scores; first to 30."),
        draws=True,
        makes_points=False,
        spinner=lazy("No spinner: the toy line has two ends"),
        sheets=GameSheets(
            by_set=MappingProxyType({6: MappingProxyType({2: 8, 3: 6, 4: 5})}),
            name=lazy("Toy sheet"),
            sources=MappingProxyType(
                {("standard", 6): (SheetSource("toy", lazy("the toy's own box"), ""),)}
            ),
        ),
        usual_target=lambda rules: 30,
        scoring_note=lambda rules: "Toy: no points during play",
        own_rules=(BLOCK_WIN,),
    )
)
NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def toy() -> Iterator[GameVariant]:
    register(TOY)
    yield TOY
    unregister(TOY.name)


def _text(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(text_of(response.get_data(as_text=True)))


def test_the_toy_is_registered_only_for_its_test(toy: GameVariant) -> None:
    assert VARIANTS["toy_sevens"] is toy
    assert HOUSE_RULES["block_win"].applies_to("toy_sevens")
    assert not HOUSE_RULES["marker_penalty"].applies_to("toy_sevens")


def test_the_toy_leaves_nothing_behind() -> None:
    assert "toy_sevens" not in VARIANTS
    assert not HOUSE_RULES["block_win"].applies_to("toy_sevens")


def test_the_toys_rule_texts_and_deal(toy: GameVariant) -> None:
    rules = toy.new_rules()
    lines = toy.describe(rules)
    assert "Game: Toy Sevens" in lines and "Target: 30" in lines
    assert (
        "Deal: Toy sheet for a double-6 set, 8 each for 2 players, 6 for 3 players, 5 for 4 players"
        in lines
    )
    assert "The winner of a hand scores the other players' pips" in lines
    plan = toy.deal_plan(3, rules)
    assert (plan.tiles_each, plan.boneyard, plan.source) == (6, 10, "table")
    assert [source.key for source in deal_sources("toy_sevens", "table", 6)] == ["toy"]
    assert "Toy: no points during play" in toy.table_notes(3, rules)


def test_the_toy_through_every_page_of_a_game(client: FlaskClient, toy: GameVariant) -> None:
    assert "Toy Sevens" in _text(client, "/games/new")
    setup = _text(client, "/games/new?game=toy_sevens")
    assert "New game: Toy Sevens" in setup and "The winner of a hand scores" in setup
    assert "Open-train marker" not in setup
    public_id = start_game(client, NAMES, kind="toy_sevens", max_pip=6)
    table = _text(client, f"/g/{public_id}")
    assert "Hand 1" in table and "Ann leads with any tile" in table
    assert "Shuffle, deal 6 each; 10 stay face down" in table
    assert "first to 30" in table
    assert "Toy sheet" in table and "the toy's own box" in table  # where the deal comes from
    assert "Save hand 1" in _text(client, f"/g/{public_id}/round")
    response = enter_round(client, public_id, points={1: 5, 2: 9}, went_out=0)
    assert response.status_code == 302, response.get_data(as_text=True)
    for path in ("/scoreboard", "/watch", "/game.csv", "/state.json"):
        assert client.get(f"/g/{public_id}{path}").status_code == 200, path
    scoreboard = _text(client, f"/g/{public_id}/scoreboard")
    assert "14" in scoreboard and "Toy Sevens" in scoreboard
    enter_round(client, public_id, points={1: 10, 2: 8}, went_out=0)  # Ann: 14 + 18 = 32
    summary = _text(client, f"/g/{public_id}/summary")
    assert "Toy Sevens, " in summary and "Ann" in summary


def test_the_toy_in_a_league_export_and_import(client: FlaskClient, toy: GameVariant) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    table = _table_of(client, code, night, [ids["Ann"], ids["Bob"]], "toy_sevens")
    enter_round(client, table, points={1: 7}, went_out=0)
    client.post(f"/g/{table}/finish")
    document = client.get(f"/leagues/{code}/export.json").get_json()
    assert [game["kind"] for game in document["nights"][0]["games"]] == ["toy_sevens"]
    exported = client.get(f"/leagues/{code}/export.zip").data
    other = client.application.test_client()
    copy = start_league(other, "Copy")
    preview = upload(other, copy, exported, name="export.zip")
    assert problems(preview.get_data(as_text=True)) == []
    assert confirm(other, copy, preview.get_data(as_text=True)).status_code == 302
    again = other.get(f"/leagues/{copy}/export.json").get_json()
    games = again["nights"][0]["games"]
    assert [game["kind"] for game in games] == ["toy_sevens"]
    assert sorted(score["points"] for score in games[0]["rounds"][0]["scores"]) == [0, 7]
    assert "toy_sevens" in _text(client, f"/leagues/{code}/import")


def test_the_toy_in_the_table_helper(client: FlaskClient, toy: GameVariant) -> None:
    assert "Toy Sevens" in _text(client, "/helper")
    page = _text(client, "/helper?game=toy_sevens&max_pip=6&players=3")
    assert "Shuffle, deal 6 each; 10 stay face down" in page
    assert "Round schedule" not in page and "Take out the" not in page
    # A game the app does not know is the default game, as on the new-game page.
    assert "deal 15 each; 30 stay in the boneyard" in _text(
        client, "/helper?game=nothing&max_pip=12&players=4"
    )

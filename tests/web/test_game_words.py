"""Each game in its own words (issue 36, item 7): the setup page and the table view of all six
games say who starts as the game's rules have it, and Chicken Foot, which has no hub, never
sends the round's double to one."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.games import VARIANTS
from tests.web.helpers import start_game
from tests.web.league_helpers import text_of

NAMES = ["Ann", "Bob", "Cy"]
#: Each game started with its setup page's own defaults.
DEFAULTS: dict[str, dict[str, Any]] = {
    "mexican_train": {},
    "chicken_foot": {"max_pip": 9, "double_blank": 50, "start_rule": "engine_holder"},
    **{game: {"max_pip": 6} for game in ("all_fives", "fives_and_threes", "draw", "block")},
}
#: What each game's setup page says about who starts, and its table view before round 1.
SETUP_SAYS = {
    "mexican_train": "Tap “Starts” for who plays first in round 1 (the next round the seat to "
    "the left starts",
    "chicken_foot": "Each round, whoever holds that round's double starts",
    **{
        game: "Tap “Starts” for who leads the first hand (the lead then passes to the left"
        for game in ("all_fives", "fives_and_threes", "draw", "block")
    },
}
TABLE_SAYS = {
    "mexican_train": ("Take out the 12-12 and put it in the hub", "Ann starts."),
    "chicken_foot": (
        "Shuffle all the tiles, the 9-9 too, deal 7 each",
        "Whoever holds the 9-9 places it in the middle of the table and starts",
    ),
    **{
        game: ("Shuffle, deal 5 each", "Ann leads with any tile.")
        for game in ("all_fives", "fives_and_threes", "draw")
    },
    "block": ("Shuffle, deal 7 each", "Ann leads with any tile."),
}


def _text(client: FlaskClient, url: str) -> str:
    return html.unescape(text_of(client.get(url).get_data(as_text=True)))


def _players_hint(page: str) -> str:
    found = re.search(r"Players, in seat order (.*?) Player 1", page)
    assert found, page
    return found.group(1)


def test_every_game_is_checked() -> None:
    assert set(DEFAULTS) == set(SETUP_SAYS) == set(TABLE_SAYS) == set(VARIANTS)


@pytest.mark.parametrize("game", list(VARIANTS))
def test_each_games_setup_and_table_view_use_its_own_words(client: FlaskClient, game: str) -> None:
    setup = _text(client, f"/games/new?game={game}")
    assert SETUP_SAYS[game] in _players_hint(setup)
    public_id = start_game(client, NAMES, kind=game, **DEFAULTS[game])
    table = _text(client, f"/g/{public_id}")
    for sentence in TABLE_SAYS[game]:
        assert sentence in table
    if game != "mexican_train":
        assert "hub" not in setup and "hub" not in table  # the hub is Mexican Train's
    if not VARIANTS[game].uses_engines:
        assert "engine" not in table.lower()


def test_chicken_foots_setup_says_whoever_holds_the_double_starts(client: FlaskClient) -> None:
    setup = _text(client, "/games/new?game=chicken_foot")
    assert "seat to the left" not in _players_hint(setup)
    assert "Whoever holds the round's double places it in the middle of the table" in setup
    assert "Which double starts each round" in setup
    assert "One round for each double of the schedule" in setup
    # Its default (whoever holds the double) is the first choice and the one checked.
    page = client.get("/games/new?game=chicken_foot").get_data(as_text=True)
    starts = re.findall(r'<input[^>]*name="start_rule"[^>]*>', page)
    assert "engine_holder" in starts[0] and "checked" in starts[0]


@pytest.mark.parametrize(
    ("rules", "sentences"),
    [
        ({"start_rule": "rotate"}, ["Take out the 9-9 and put it in the middle of the table"]),
        (
            {"start_rule": "left_of_setter", "order": "highest_available"},
            [
                "Find this round's double",
                "whoever holds it places it in the middle of the table",
                "Who starts: the player left of whoever set the round's double",
            ],
        ),
    ],
    ids=["rotate", "highest double held"],
)
def test_chicken_foot_never_says_hub_whatever_the_rules(
    client: FlaskClient, rules: dict[str, str], sentences: list[str]
) -> None:
    public_id = start_game(client, NAMES, kind="chicken_foot", max_pip=9, **rules)
    table = _text(client, f"/g/{public_id}")
    for sentence in sentences:
        assert sentence in table
    assert "hub" not in table
    assert "the engine" not in table


@pytest.mark.parametrize("order", ["descending", "highest_available"])
def test_chicken_foots_round_form_has_no_engine(client: FlaskClient, order: str) -> None:
    public_id = start_game(client, NAMES, kind="chicken_foot", max_pip=9, order=order)
    form = _text(client, f"/g/{public_id}/round")
    assert "this round's double" in form.lower()
    assert "engine" not in form.lower()
    assert "engine" in _text(client, f"/g/{start_game(client, NAMES, order=order)}/round").lower()

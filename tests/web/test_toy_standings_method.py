"""A standings method is one declaration (issue 38, item 2): a toy method declared here, in this
file alone, is offered by the settings form and works on the standings page, its print view, the
player page, the members' and public pages, the league list, and the export and import, with
nothing else touched (no template, no migration, no registry elsewhere).

The league is the hand-worked one of tests/unit/test_rules_standings.py. The toy ranks by each
player's best (lowest) game total: Cy 30; Ann and Fay 40 (3 games each: level, shared 2nd); Di
and Ed 60 (2 games each: shared 4th); Bob 70; Gus 90.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper.extensions import db
from scorekeeper.models import League
from scorekeeper.rules.ranking import Criterion
from scorekeeper.rules.standings import (
    MORE_GAMES,
    PlayerLine,
    StandingsMethod,
    register_method,
    unregister_method,
)
from scorekeeper.rules.words import lazy
from tests.web.helpers import errors_in
from tests.web.league_helpers import text_of
from tests.web.test_leagues import hand_league, settings_data, standings_rows
from tests.web.test_leagues_access import _members_link
from tests.web.test_leagues_transfer import confirm, upload

BEST_GAME: Criterion[PlayerLine] = Criterion(
    lazy("lowest best game"), lambda line: line.best, False, lazy("best game")
)

TOY = StandingsMethod(
    "best_game",
    lazy("Best game"),
    lazy("Best game: the lowest game total of each player"),
    (BEST_GAME, MORE_GAMES),
    heading=lazy("Best"),
    unit=lambda value: "best",
    words=lambda value: f"best game {value}",
    explain=lambda method, min_games, nights: "Ranked by the best game total of each player.",
)

EXPECTED = [
    ("1", "Cy", "30"),
    ("2=", "Ann", "40"),
    ("2=", "Fay", "40"),
    ("4=", "Di", "60"),
    ("4=", "Ed", "60"),
    ("6", "Bob", "70"),
    ("7", "Gus", "90"),
]


@pytest.fixture
def toy() -> Iterator[StandingsMethod]:
    """The toy method, declared for one test and taken out after it."""
    register_method(TOY)
    try:
        yield TOY
    finally:
        unregister_method(TOY.name)


def _toy_league(client: FlaskClient) -> str:
    code, _ids, _nights = hand_league(client)
    saved = client.post(f"/leagues/{code}/settings", data=settings_data(ranking="best_game"))
    assert saved.status_code == 302, errors_in(saved.get_data(as_text=True))
    return code


def test_the_settings_form_offers_the_toy_and_saves_it(
    client: FlaskClient, toy: StandingsMethod
) -> None:
    code = _toy_league(client)
    page = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    assert re.search(r'value="best_game"[^>]*checked|checked[^>]*value="best_game"', page)
    assert "Best game: the lowest game total of each player" in page
    with client.application.app_context():
        stored = db.session.scalar(select(League.ranking).where(League.code == code))
    assert stored == "best_game"  # no constraint in the database refused it


def test_the_standings_page_and_its_print_view_rank_by_the_toy(
    client: FlaskClient, toy: StandingsMethod
) -> None:
    code = _toy_league(client)
    assert standings_rows(client, f"/leagues/{code}?season=all") == EXPECTED
    page = client.get(f"/leagues/{code}?season=all").get_data(as_text=True)
    assert '30<span class="unit">best</span>' in page
    words = text_of(page)
    assert "Ranked by the best game total of each player." in words
    assert "Ties: more games played." in words
    # Another method can still be looked at, and the toy is among the choices.
    assert "method=wins" in page and "Best game" in words
    printed = text_of(client.get(f"/leagues/{code}/print").get_data(as_text=True))
    assert "Rank Player Games Wins Average Best" in printed
    assert "1 Cy 3 1 60.0 30" in printed and "7 Gus 2 0 95.0 90" in printed


def test_the_player_page_members_and_public_pages_and_the_league_list(
    client: FlaskClient, toy: StandingsMethod
) -> None:
    code = _toy_league(client)
    cy = re.search(
        rf'/leagues/{code}/players/(\d+)">\s*<span class="label">Cy<',
        client.get(f"/leagues/{code}/players").get_data(as_text=True),
    )
    assert cy
    player = text_of(client.get(f"/leagues/{code}/players/{cy.group(1)}").get_data(as_text=True))
    assert "1st in the standings: best game 30." in player
    assert "Best 30" in player  # the toy's value among Cy's facts
    assert "ranked by best game" in text_of(client.get("/leagues").get_data(as_text=True))
    member = client.application.test_client()
    assert member.get(_members_link(client, code)).status_code == 302
    assert standings_rows(member, f"/leagues/{code}?season=all") == EXPECTED
    client.post(f"/leagues/{code}/settings/public", data={"action": "on"})
    with client.application.app_context():
        token = db.session.scalar(select(League.public_token).where(League.code == code))
    outsider = client.application.test_client()
    assert standings_rows(outsider, f"/p/{token}?season=all") == EXPECTED
    assert outsider.get(f"/p/{token}/print").status_code == 200


def test_export_and_import_carry_the_toy(client: FlaskClient, toy: StandingsMethod) -> None:
    code = _toy_league(client)
    document = json.loads(client.get(f"/leagues/{code}/export.json").data)
    assert document["league"]["ranking"] == "best_game"
    exported = client.get(f"/leagues/{code}/export.zip").data
    standings_csv = zipfile.ZipFile(io.BytesIO(exported)).read("standings.csv").decode()
    rows = list(csv.DictReader(io.StringIO(standings_csv.lstrip("\ufeff"))))
    assert [(r["rank"], r["player"], r["value"], r["method"]) for r in rows] == [
        (rank, name, value, "best_game") for rank, name, value in EXPECTED
    ]
    other = client.application.test_client()
    copy = _copy_league(other)
    preview = upload(other, copy, exported, name="export.zip")
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert confirm(other, copy, preview.get_data(as_text=True)).status_code == 302
    assert standings_rows(other, f"/leagues/{copy}?season=all") == EXPECTED


def _copy_league(client: FlaskClient) -> str:
    from tests.web.league_helpers import start_league

    copy = start_league(client, "Copy")
    saved = client.post(
        f"/leagues/{copy}/settings", data=settings_data(name="Copy", ranking="best_game")
    )
    assert saved.status_code == 302, errors_in(saved.get_data(as_text=True))
    return copy


# --------------------------------------------------------------------------------------------
# A name no declaration has: refused in words where it is typed, survived where it is stored


def test_an_unknown_method_posted_is_refused_in_words_and_nothing_is_saved(
    client: FlaskClient,
) -> None:
    code, _ids, _nights = hand_league(client)
    refused = client.post(
        f"/leagues/{code}/settings", data=settings_data(ranking="best_game", name="Renamed")
    )
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "is not a ranking method this app knows. Choose one of: Average game total, Wins" in (
        text_of(page).replace("&#34;", '"')
    )
    assert 'value="Renamed"' in page  # what was typed is kept
    with client.application.app_context():
        league = db.session.scalars(select(League).where(League.code == code)).one()
        assert (league.ranking, league.name) == ("average", "Thursday Club")


def test_a_method_stored_that_no_declaration_has_ranks_by_the_default_and_says_so(
    client: FlaskClient,
) -> None:
    # A league saved by a version of the app with a method this one does not declare (the toy
    # here, taken out again): every page still works, by the default method.
    code, _ids, _nights = hand_league(client)
    with client.application.app_context():
        db.session.execute(update(League).where(League.code == code).values(ranking="best_game"))
        db.session.commit()
    for page in ("?season=all", "/print", "/players", "/settings", "/export.zip"):
        assert client.get(f"/leagues/{code}{page}").status_code == 200, page
    assert client.get("/leagues").status_code == 200
    assert standings_rows(client, f"/leagues/{code}?season=all")[0] == ("1", "Fay", "51.7")
    settings = text_of(client.get(f"/leagues/{code}/settings").get_data(as_text=True))
    assert "“best_game” is not a ranking method this app knows" in settings

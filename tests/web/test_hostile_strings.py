"""Hostile strings at every text field of every form (NUL and other control characters, 10,000
characters, right-to-left marks, emoji, spreadsheet formulas, HTML): never a 5xx, nothing
stored that differs from what the page shows, what was typed kept when it is refused.

Runs on the test database: SQLite, and PostgreSQL when TEST_DATABASE_URL points to one (CI
runs the suite on both), where a NUL used to be a 500."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Game, League, Night, Player, Season
from scorekeeper.web.outside_text import CONTROL_CHARACTERS, clean_text
from tests.web.helpers import enter_round, setup_data, start_game
from tests.web.league_helpers import add_players, start_league, start_night

FIXED = [
    "\x00",
    "A\x00nn",
    "\x00\x01\x02\x1f\x7f",
    "x" * 10_000,
    "\u202eenil\u202c",  # right-to-left override
    "\u200f\u05e9\u05dc\u05d5\u05dd",
    "😀👍🏽👨‍👩‍👧",
    '=HYPERLINK("http://e.x","c")',
    "+SUM(A1)",
    "@cmd",
    "-2+3",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{ 7 * 7 }}",
    "' OR 1=1 --",
    "\r\n\t",
    " ",
    "%00",
    "Ann\u00a0Lee",
]
# Any text but lone surrogates (a browser cannot send those: they are not UTF-8).
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
HOSTILE = st.one_of(
    st.sampled_from(FIXED),
    ANY_TEXT,
    st.tuples(st.sampled_from(FIXED), ANY_TEXT).map("".join),
)


@dataclass
class Place:
    """Everything the forms need: a game and a league this client organises."""

    client: FlaskClient
    game: str
    league: str
    night: int
    player: int


@dataclass(frozen=True)
class TextField:
    name: str
    post: Callable[[Place, str], Any]
    stored: Callable[[Place], str | None] | None = None  # newest value stored, if any
    shown_at: Callable[[Place], str] | None = None
    keeps: bool = True  # a refused value is shown again in the form


def _newest(query: Any) -> str | None:
    return db.session.scalars(query.limit(1)).first()


def _league(place: Place) -> League:
    league = db.session.scalars(select(League).where(League.code == place.league)).one()
    return league


FIELDS = [
    TextField(
        "player name at setup",
        lambda p, s: p.client.post("/games/new", data=setup_data([s, "Bob"])),
        lambda p: _newest(
            select(Player.name)
            .where(Player.league_id.is_(None))
            .order_by(Player.id.desc())
            .offset(1)
        ),
        lambda p: "/",
    ),
    TextField(
        "name added from the recent list",
        lambda p, s: p.client.post("/games/new", data={**setup_data(["Ann"]), "add_name": s}),
    ),
    TextField(
        "edit code",
        lambda p, s: p.client.application.test_client().post(
            f"/g/{p.game}/unlock", data={"code": s}
        ),
    ),
    TextField(
        "tiles of a hand",
        lambda p, s: enter_round(p.client, p.game, points={1: 5}, tiles={0: s}, went_out=1),
    ),
    TextField(
        "why a round was corrected",
        lambda p, s: p.client.post(
            f"/g/{p.game}/rounds/1",
            data={
                "seat_0-hand": "7",
                "seat_1-hand": "0",
                "went_out": "1",
                "note": s,
                "confirm": "yes",
                "engine": "12",
            },
        ),  # fmt: skip
        lambda p: _newest(select(Correction.note).order_by(Correction.id.desc())),
        lambda p: f"/g/{p.game}/scoreboard",
    ),
    TextField("hand counter", lambda p, s: p.client.get("/helper/count", query_string={"hand": s})),
    TextField(
        "league name",
        lambda p, s: p.client.post("/leagues/new", data={"name": s, "passphrase": "blue engine 7"}),
        lambda p: _newest(select(League.name).order_by(League.id.desc())),
        lambda p: "/leagues",
    ),
    TextField(
        "new league passphrase",
        lambda p, s: p.client.post("/leagues/new", data={"name": "Club", "passphrase": s}),
    ),
    TextField(
        "join code",
        lambda p, s: p.client.post("/leagues/join", data={"code": s, "passphrase": "x"}),
    ),
    TextField(
        "passphrase",
        lambda p, s: p.client.application.test_client().post(
            f"/leagues/{p.league}/unlock", data={"passphrase": s}
        ),
        keeps=False,  # a password field is never sent back
    ),
    TextField(
        "night place",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/nights/{p.night}/edit",
            data={"played_on": "2025-03-06", "place": s},
        ),
        lambda p: _newest(select(Night.place).where(Night.id == p.night)),
        lambda p: f"/leagues/{p.league}/nights",
    ),
    TextField(
        "night date",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/nights/new", data={"played_on": s, "place": "Hall"}
        ),
    ),
    TextField(
        "table name",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/nights/{p.night}/tables/new",
            data={"table_name": s, "guest-0": "Gus", "guest-1": "Gwen"},
        ),
        lambda p: _newest(
            select(Game.table_name).where(Game.night_id == p.night).order_by(Game.id.desc())
        ),
        lambda p: f"/leagues/{p.league}/nights/{p.night}",
    ),
    TextField(
        "guest name",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/nights/{p.night}/tables/new",
            data={"table_name": "", "guest-0": s, "guest-1": "Gwen"},
        ),
    ),
    TextField(
        "player name",
        lambda p, s: p.client.post(f"/leagues/{p.league}/players/new", data={"name": s}),
        lambda p: _newest(select(Player.name).order_by(Player.id.desc())),
        lambda p: f"/leagues/{p.league}/players",
    ),
    TextField(
        "player's new name",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/players/{p.player}/edit", data={"name": s}
        ),
        lambda p: _newest(select(Player.name).where(Player.id == p.player)),
        lambda p: f"/leagues/{p.league}/players/{p.player}",
    ),
    TextField(
        "season name",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/seasons",
            data={"name": s, "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
        ),
        lambda p: _newest(select(Season.name).order_by(Season.id.desc())),
        lambda p: f"/leagues/{p.league}/seasons",
    ),
    TextField(
        "season dates",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/seasons",
            data={"name": "2025", "starts_on": s, "ends_on": "2025-12-31"},
        ),
    ),
    TextField(
        "standings period",
        lambda p, s: p.client.get(f"/leagues/{p.league}", query_string={"start": s, "season": s}),
    ),
    TextField(
        "settings: league name and placement points",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/settings",
            data={
                "name": s,
                "ranking": "points",
                "min_games": "3",
                "placement_points": s,
                "max_pip": "12",
                "double_blank": "0",
                "blank_half": "0",
                "end_on_double": "allowed",
                "marker_penalty": "0",
                "going_out_bonus": "0",
                "start_rule": "engine_holder",
            },
        ),  # fmt: skip
        lambda p: _newest(select(League.name).where(League.code == p.league)),
        lambda p: f"/leagues/{p.league}/settings",
    ),
    TextField(
        "new passphrase",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/settings/passphrase", data={"new_passphrase": s}
        ),
    ),
    TextField(
        "player who joins a running game",
        lambda p, s: p.client.post(f"/g/{p.game}/join", data={"name": s}),
        lambda p: _newest(
            select(Player.name).where(Player.league_id.is_(None)).order_by(Player.id.desc())
        ),
        lambda p: f"/g/{p.game}",
        keeps=False,  # a refused name is said in a message on the table view
    ),
    TextField(
        "which game at setup",
        lambda p, s: p.client.post("/games/new", data=setup_data(["Ann", "Bob"], kind=s)),
    ),
    TextField(
        "target score at setup",
        lambda p, s: p.client.post(
            "/games/new", data=setup_data(["Ann", "Bob"], kind="all_fives", max_pip=6, target=s)
        ),
    ),
    TextField(
        "number of rounds at setup",
        lambda p, s: p.client.post(
            "/games/new", data=setup_data(["Ann", "Bob"], length="fixed", rounds=s)
        ),
    ),
    TextField(
        "points made during play",
        lambda p, s: enter_round(
            p.client,
            start_game(p.client, ["Ann", "Bob"], kind="all_fives", max_pip=6),
            points={1: 5},
            went_out=0,
            **{"seat_0-made": s},
        ),
    ),
    TextField(
        "doubles left open",
        lambda p, s: enter_round(
            p.client,
            start_game(p.client, ["Ann", "Bob"], open_double_penalty="plus_5"),
            points={1: 5},
            went_out=0,
            **{"seat_1-open_doubles": s},
        ),
    ),
    TextField(
        "game of a league table",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/nights/{p.night}/tables/new",
            data={"table_name": "", "guest-0": "Gus", "guest-1": "Gwen", "game": s},
        ),
        keeps=False,  # a list to choose from: nothing typed
    ),
    TextField(
        "merge target",
        lambda p, s: p.client.post(
            f"/leagues/{p.league}/players/{p.player}/merge", data={"target": s}
        ),
        keeps=False,  # a list to choose from: nothing typed
    ),
]


@pytest.fixture
def place(app: Flask) -> Place:
    client = app.test_client()
    game = start_game(client, ["Ann", "Bob"])
    response = enter_round(client, game, points={0: 5, 1: 0}, went_out=1, confirm="yes")
    assert response.status_code == 302
    league = start_league(client)
    ids = add_players(client, league, ["Cy", "Di"])
    return Place(client, game, league, start_night(client, league), ids["Cy"])


def _visible(page: str) -> str:
    return html.unescape(page)


@pytest.mark.parametrize("field", FIELDS, ids=[field.name for field in FIELDS])
def test_hostile_text_never_breaks_a_form(app: Flask, place: Place, field: TextField) -> None:
    @settings(
        max_examples=12,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(text=HOSTILE)
    def check(text: str) -> None:
        response = field.post(place, text)
        assert response.status_code < 500, response.get_data(as_text=True)[:500]
        page = response.get_data(as_text=True)
        assert "\x00" not in page
        typed = clean_text(text)
        if response.status_code == 422 and field.keeps and typed.strip() and len(typed) < 1000:
            # Refused: the message is next to the field and what was typed is still there.
            assert 'class="field-error"' in page or 'role="alert"' in page
            assert typed.strip() in _visible(page) or " ".join(typed.split()) in _visible(page)
        if field.stored is not None:
            with app.app_context():
                stored = field.stored(place)
            if stored:
                assert not CONTROL_CHARACTERS.search(stored), repr(stored)
                assert field.shown_at is not None
                shown = _visible(place.client.get(field.shown_at(place)).get_data(as_text=True))
                assert stored in shown, (stored, shown[:2000])

    check()

"""Arbitrary Unicode everywhere a phone can put text (issue 22): letters outside Latin-1,
quotes, CR/LF, emoji, in the query string of every page of the league and game blueprints, in
the address itself, and stored through the text fields and then shown on every page (the
ETags of polled pages, the file names of downloads). Never a 5xx.

The routes are read from ``app.url_map``: a page added later is covered without a change here.
Examples are bounded (``max_examples`` per group, no deadline): the file runs in seconds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.helpers import enter_round, setup_data, start_game
from tests.web.league_helpers import (
    PASSPHRASE,
    add_players,
    add_table,
    page_url,
    route_values,
    start_league,
    start_night,
)

BLUEPRINTS = ("leagues.", "games.", "helper.")
# Pages that only redirect or stream the same bytes whatever the query are still asked: a
# query string is read by the request before the view.
FIXED = [
    "Łódź Café",
    "Pub ☕",
    'The "Anchor"',
    "Клуб Łódź",
    "a\r\nX-Injected: 1",
    "\r\n",
    "😀👍🏽👨‍👩‍👧",
    "\u202eenil\u202c",
    "%0d%0a",
    "//evil.example",
    "' OR 1=1 --",
    "{{ 7 * 7 }}",
    "x" * 3000,
]
# Any text but lone surrogates (a browser cannot send those: they are not UTF-8).
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
TEXT = st.one_of(
    st.sampled_from(FIXED), ANY_TEXT, st.tuples(st.sampled_from(FIXED), ANY_TEXT).map("".join)
)
# Names a page might read (and a few url_for takes as its own), and any other name.
KNOWN_KEYS = [
    "season", "start", "end", "games", "next", "number", "game", "code", "token", "player_id",
    "night_id", "public_id", "_method", "_external", "_anchor", "_scheme", "hand", "v", "batch",
]  # fmt: skip
QUERY = st.lists(
    st.tuples(st.one_of(st.sampled_from(KNOWN_KEYS), ANY_TEXT), TEXT), min_size=1, max_size=4
)
SETTINGS = {
    "max_examples": 40,
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@dataclass
class World:
    """A league run by ``organiser`` (players, a night with a played table, a season, the public
    page on), a game of its own, and a phone with no rights at all (``stranger``)."""

    organiser: FlaskClient
    stranger: FlaskClient
    values: dict[str, Any]  # a value for each argument of a route

    def urls(self, app: Flask) -> list[str]:
        found = []
        for rule in app.url_map.iter_rules():
            if not rule.endpoint.startswith(BLUEPRINTS) or "GET" not in (rule.methods or ()):
                continue
            found.append(page_url(rule, self.values))
        return sorted(found)


@pytest.fixture
def world(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    from scorekeeper.leagues.views import roster

    monkeypatch.setattr(roster, "LATEST_GAMES", 0)  # every player page has its "Show all"
    organiser = app.test_client()
    code = start_league(organiser)
    ids = add_players(organiser, code, ["Ann", "Bob", "Cy"])
    night = start_night(organiser, code)
    table = add_table(organiser, code, night, [ids["Ann"], ids["Bob"]])
    enter_round(organiser, table, points={0: 0, 1: 12}, went_out=0)
    organiser.post(f"/g/{table}/finish")  # a finished game: the players' pages list it
    organiser.post(
        f"/leagues/{code}/seasons",
        data={"name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    )
    organiser.post(f"/leagues/{code}/settings/public", data={"action": "on"})
    game = start_game(organiser, ["Di", "Ed"])
    enter_round(organiser, game, points={0: 5, 1: 0}, went_out=1, confirm="yes")
    with app.app_context():
        values = route_values(code, night, ids["Ann"], table)
    values["game"] = game
    yield World(organiser, app.test_client(), values)


def _check(response: Any, what: str) -> None:
    assert response.status_code < 500, (what, response.get_data(as_text=True)[:300])


def test_any_query_string_on_any_page(app: Flask, world: World) -> None:
    urls = world.urls(app)
    assert len(urls) > 30  # every page of the two blueprints, not a handful
    # Each page also as the game of its own (the league's table is the default).
    urls += [
        url.replace(world.values["public_id"], world.values["game"])
        for url in urls
        if url.startswith("/g/")
    ]

    # First every page once with every name a page or url_for might read, each with a value
    # from the fixed list; then any names and values.
    every_key = [(key, FIXED[i % len(FIXED)]) for i, key in enumerate(KNOWN_KEYS)]
    for url in urls:
        for client in (world.organiser, world.stranger):
            _check(client.get(url, query_string=every_key), url)

    @settings(**SETTINGS)
    @given(url=st.sampled_from(urls), query=QUERY, stranger=st.booleans())
    def check(url: str, query: list[tuple[str, str]], stranger: bool) -> None:
        client = world.stranger if stranger else world.organiser
        _check(client.get(url, query_string=query), f"{url} {query!r}")

    check()


def test_any_query_string_when_unlocking(app: Flask, world: World) -> None:
    """The right passphrase or edit code, with any query string (a ``next`` above all)."""
    from scorekeeper.games import services

    with app.app_context():
        codes = {
            public_id: services.load_game(public_id).edit_code  # type: ignore[union-attr]
            for public_id in (world.values["public_id"], world.values["game"])
        }
    forms = [(f"/g/{public_id}/unlock", {"code": code}) for public_id, code in codes.items()]
    forms.append((f"/leagues/{world.values['code']}/unlock", {"passphrase": PASSPHRASE}))

    @settings(**{**SETTINGS, "max_examples": 25})  # each example checks two passphrases
    @given(form=st.sampled_from(forms), query=QUERY, next_path=TEXT)
    def check(
        form: tuple[str, dict[str, str]], query: list[tuple[str, str]], next_path: str
    ) -> None:
        url, data = form
        for value in (next_path, url.rsplit("/", 1)[0] + next_path):
            response = app.test_client().post(
                url, data=data, query_string=[*query, ("next", value)]
            )
            _check(response, f"{url} next={value!r}")
            assert response.status_code == 302
            assert response.headers["Location"].startswith(url.rsplit("/", 1)[0])

    check()


def test_any_text_in_the_address(app: Flask, world: World) -> None:
    """A path segment of any text where a page takes a code, an id or a token."""
    rules = [
        rule
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith(BLUEPRINTS)
        and "GET" in (rule.methods or ())
        and any(f"<{name}>" in rule.rule for name in rule.arguments)  # a text argument
    ]

    @settings(**SETTINGS)
    @given(rule=st.sampled_from(rules), text=TEXT.filter(lambda t: t not in ("", ".", "..")))
    def check(rule: Any, text: str) -> None:
        values = {}
        for name in rule.arguments:
            if f"<{name}>" in rule.rule:
                values[name] = text
            else:
                values[name] = world.values.get(name, 1)
        path = rule.rule
        for name, value in values.items():
            segment = quote(str(value), safe="")
            for pattern in (f"<{name}>", f"<int:{name}>"):
                path = path.replace(pattern, segment)
        _check(world.organiser.get(path), path)

    check()


# Every text field whose value a page shows again, set to the example's text.
STORE: list[Callable[[World, str], Any]] = [
    lambda w, s: w.organiser.post(
        f"/leagues/{w.values['code']}/nights/{w.values['night_id']}/edit",
        data={"played_on": "2025-03-06", "place": s},
    ),
    lambda w, s: w.organiser.post(
        f"/leagues/{w.values['code']}/players/{w.values['player_id']}/edit", data={"name": s}
    ),
    lambda w, s: w.organiser.post(
        f"/leagues/{w.values['code']}/seasons",
        data={"name": s, "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    ),
    lambda w, s: w.organiser.post(
        f"/leagues/{w.values['code']}/nights/{w.values['night_id']}/tables/new",
        data={"table_name": s, "guest-0": s, "guest-1": "Gwen"},
    ),
    lambda w, s: w.organiser.post(
        f"/leagues/{w.values['code']}/settings",
        data={
            "name": s,
            "ranking": "points",
            "min_games": "3",
            "placement_points": "3,2,1",
            "max_pip": "12",
            "double_blank": "0",
            "blank_half": "0",
            "end_on_double": "allowed",
            "marker_penalty": "0",
            "going_out_bonus": "0",
            "start_rule": "engine_holder",
        },
    ),
    lambda w, s: w.organiser.post(f"/g/{w.values['game']}/join", data={"name": s}),
    lambda w, s: w.organiser.post("/games/new", data=setup_data([s, "Bob"])),
]


def test_any_text_stored_then_shown_on_every_page(app: Flask, world: World) -> None:
    urls = world.urls(app)
    live = [url for url in urls if url.endswith(("/live", "/watch/board", "/state.json"))]

    @settings(**{**SETTINGS, "max_examples": 15})  # each example reads every page
    @given(text=TEXT)
    def check(text: str) -> None:
        for store in STORE:
            _check(store(world, text), f"storing {text!r}")
        for url in urls:
            _check(world.organiser.get(url), f"{url} after {text!r}")
        for url in live:  # a poll with the ETag it was given
            first = world.organiser.get(url)
            _check(first, url)
            again = world.organiser.get(url, headers={"If-None-Match": first.headers["ETag"]})
            assert again.status_code == 304, url

    check()

"""A world with real data on every page, for the language tests (issue 25): a game of every
game type with a round played (a Mexican Train game with a correction, one finished, one in
the bin), a league with players, a season, a night with a played table and a finished one,
its public page on; and the list of every page a player can reach by GET, read from
``app.url_map`` (a page added later is covered without a change here), with the error pages.

``World.data`` is every text the test typed (names, places, codes): a page may show it as it
is, in any language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.web.helpers import correct_round, enter_round, start_game
from tests.web.league_helpers import (
    PASSPHRASE,
    add_players,
    add_table,
    page_url,
    play,
    route_values,
    start_league,
    start_night,
)

#: Every game type with a round that suits it (keyword arguments of ``enter_round``).
GAME_TYPES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # kind: (setup rules, one round)
    "mexican_train": ({}, {"points": {1: 12, 2: 30}, "tiles": {}, "went_out": 0}),
    "chicken_foot": (
        {"max_pip": 9, "double_blank": 50, "start_rule": "engine_holder"},
        {"tiles": {1: "0-0, 3-4"}, "points": {2: 12}, "went_out": 0},
    ),
    "all_fives": (
        {"max_pip": 6, "target": 100},
        {"points": {1: 13, 2: 9}, "went_out": 0, "seat_0-made": 15, "seat_1-made": 10},
    ),
    "fives_and_threes": (
        {"max_pip": 6},
        {"went_out": 0, "seat_0-made": 9, "seat_1-made": 8},
    ),
    "draw": ({"max_pip": 6}, {"tiles": {1: "6-6, 1-0"}, "points": {2: 9}, "went_out": 0}),
    "block": ({"max_pip": 6}, {"points": {0: 3, 1: 10, 2: 12}, "went_out": "blocked"}),
}
NAMES = {
    "mexican_train": ["Annabel", "Bertrand", "Cosima"],
    "chicken_foot": ["Dagmar", "Eudora", "Fenella"],
    "all_fives": ["Gideon", "Horatio", "Isolde"],
    "fives_and_threes": ["Jolyon", "Kerensa"],
    "draw": ["Lysander", "Morwenna", "Nerys"],
    "block": ["Oswin", "Perpetua", "Quentin"],
}
LEAGUE = "Zephyrine Domino Circle"
LEAGUE_PLAYERS = ["Rosamund", "Sebastian", "Tamsin", "Ulric"]
PLACE = "Wetherby Hall"
SEASON = "Quillon 2025"
TABLE = "Vespertine"
GUEST = "Winnifred"
FINISHED = ["Xanthe", "Yardley"]
BINNED = ["Zebedee", "Aurelius"]

#: Blueprints of players' pages, and endpoints that are not pages (machines read them).
BLUEPRINTS = ("games.", "leagues.", "helper.", "pwa.")
NOT_PAGES = {"pwa.manifest", "pwa.service_worker"}


@dataclass
class World:
    organiser: FlaskClient  # made the games and the league
    stranger: FlaskClient  # no rights at all
    values: dict[str, Any]  # a value for each argument of a route
    games: dict[str, str]  # game type -> public id (a round played)
    finished: str
    binned: str
    code: str
    night: int
    table: str
    data: list[str] = field(default_factory=list)  # every text the test typed

    def urls(self, app: Flask) -> list[str]:
        """Every GET page of the players' blueprints, with this world's values; the game
        pages once for each game type; setup for each game type."""
        found: list[str] = ["/games/new?game=" + kind for kind in GAME_TYPES]
        for rule in app.url_map.iter_rules():
            if (
                not rule.endpoint.startswith(BLUEPRINTS)
                or rule.endpoint in NOT_PAGES
                or "GET" not in (rule.methods or ())
            ):
                continue
            url = page_url(rule, self.values)
            if url.startswith("/g/") and "public_id" in rule.arguments:
                game_ids = [*self.games.values(), self.finished, self.table]
                found += [url.replace(self.values["public_id"], g, 1) for g in game_ids]
            else:
                found.append(url)
        return sorted(set(found))


def build_world(app: Flask, language: str | None = None) -> World:
    """The world, made by ``organiser`` with the ``lang`` cookie ``language`` from its first
    request on (the messages a save leaves are in that language)."""
    organiser = app.test_client()
    stranger = app.test_client()
    if language:
        organiser.set_cookie("lang", language)
        stranger.set_cookie("lang", language)
    data: list[str] = []
    games: dict[str, str] = {}
    for kind, (rules, entry) in GAME_TYPES.items():
        names = NAMES[kind]
        data += names
        public_id = start_game(organiser, names, kind=kind, **rules)
        response = enter_round(organiser, public_id, **entry)
        assert response.status_code == 302, (kind, response.get_data(as_text=True)[:2000])
        games[kind] = public_id
    # Mexican Train: a second round, and the first one corrected (the trail shows it).
    mexican = games["mexican_train"]
    assert enter_round(organiser, mexican, points={0: 7, 2: 11}, went_out=1).status_code == 302
    response = correct_round(organiser, mexican, 1, points={0: 0, 1: 14, 2: 30}, went_out=0)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]

    finished = start_game(organiser, FINISHED)
    enter_round(organiser, finished, points={1: 21}, went_out=0)
    assert organiser.post(f"/g/{finished}/finish").status_code == 302
    binned = start_game(organiser, BINNED)
    assert organiser.post(f"/g/{binned}/delete").status_code == 302
    data += FINISHED + BINNED

    code = start_league(organiser, LEAGUE)
    ids = add_players(organiser, code, LEAGUE_PLAYERS)
    night = start_night(organiser, code, place=PLACE)
    done = add_table(organiser, code, night, [ids["Rosamund"], ids["Sebastian"]])
    play(organiser, done, [0, 17])
    table = add_table(
        organiser, code, night, [ids["Tamsin"], ids["Ulric"]], guests=[GUEST], table_name=TABLE
    )
    enter_round(organiser, table, points={0: 0, 1: 12, 2: 8}, went_out=0)
    organiser.post(
        f"/leagues/{code}/seasons",
        data={"name": SEASON, "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    )
    organiser.post(f"/leagues/{code}/settings/public", data={"action": "on"})
    data += [LEAGUE, *LEAGUE_PLAYERS, PLACE, SEASON, TABLE, GUEST, PASSPHRASE]

    with app.app_context():
        values = route_values(code, night, ids["Rosamund"], mexican)
        # Codes, ids and tokens show on pages (links to copy, the edit code): data too.
        data += [code, str(values["token"])]
        data += [v for k, v in values.items() if k.endswith(":token")]
        for game in db.session.scalars(select(Game)):
            data.append(game.public_id)
            if game.edit_code:
                data.append(str(game.edit_code))
    return World(
        organiser=organiser,
        stranger=stranger,
        values=values,
        games=games,
        finished=finished,
        binned=binned,
        code=code,
        night=night,
        table=table,
        data=data,
    )


def html_pages(world: World, app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Every page of ``world.urls`` answered to ``client``, by address (redirects followed
    by the caller when it wants them)."""
    return {url: client.get(url) for url in world.urls(app)}


LANGUAGE_FORM = re.compile(r'<form class="languages"[^>]*>(.*?)</form>', re.S)

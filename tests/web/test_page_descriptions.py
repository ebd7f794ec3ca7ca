"""Every page says in a sentence what it shows (``<meta name="description">``): search results
and the link previews of a chat show it, and Lighthouse's SEO check asks for it. The league
tabs' links say where they go (no bare "More")."""

from __future__ import annotations

import re
from html import unescape

from flask.testing import FlaskClient

from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night


def _description(page: str) -> str:
    found = re.findall(r'<meta name="description" content="([^"]*)">', page)
    assert len(found) == 1, found
    return unescape(found[0])


def test_every_page_has_a_description(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    assert (
        enter_round(client, public_id, points={0: 0, 1: 12, 2: 30}, went_out=0).status_code == 302
    )
    code = start_league(client, "Thursday Club")
    ids = add_players(client, code, ["Dot", "Eve"])
    night = start_night(client, code)
    table = add_table(client, code, night, list(ids.values()))
    play(client, table, [0, 14])
    pages = [
        "/",
        "/games/new",
        "/games/new?game=all_fives",
        f"/g/{public_id}",
        f"/g/{public_id}/round",
        f"/g/{public_id}/scoreboard",
        f"/g/{public_id}/watch",
        f"/g/{public_id}/summary",
        f"/g/{public_id}/rounds/1",
        "/helper",
        "/leagues",
        f"/leagues/{code}",
        f"/leagues/{code}/nights",
        f"/leagues/{code}/nights/{night}",
        f"/leagues/{code}/players",
        f"/leagues/{code}/players/{ids['Dot']}",
        f"/leagues/{code}/manage",
    ]
    descriptions = {}
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        text = _description(response.get_data(as_text=True))
        assert 40 <= len(text) <= 200, (path, text)
        descriptions[path] = text
    assert "Thursday Club" in descriptions[f"/leagues/{code}"]
    assert "Live scores" in descriptions[f"/g/{public_id}/watch"]


def test_the_league_tabs_say_where_they_go(client: FlaskClient) -> None:
    code = start_league(client)
    page = client.get(f"/leagues/{code}").get_data(as_text=True)
    tabs = re.search(r'<nav class="tabs".*?</nav>', page, re.S)
    assert tabs is not None
    labels = [t.strip() for t in re.findall(r">([^<]+)</a>", tabs.group(0))]
    assert labels == ["Standings", "Nights", "Players", "League"]

"""Leagues through the web: pages, forms, nights and tables, standings against a hand
calculation, players (guests, renaming, merging), seasons, the public page, bad input."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.helpers import errors_in
from tests.web.league_helpers import (
    add_players,
    add_table,
    play,
    start_league,
    start_night,
    table_ids,
    text_of,
)

# The league of tests/unit/test_rules_standings.py, worked out by hand there.
NIGHTS = ["2024-01-04", "2024-01-11", "2024-01-18"]
TABLES = [
    (0, {"Ann": 50, "Bob": 80, "Cy": 80, "Di": 120}),
    (0, {"Ed": 60, "Fay": 40, "Gus": 100}),
    (1, {"Ann": 90, "Bob": 70, "Ed": 70}),
    (1, {"Cy": 30, "Di": 60, "Fay": 60, "Gus": 90}),
    (2, {"Ann": 40, "Bob": 100, "Cy": 70, "Fay": 55}),
]
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Fay", "Gus"]


def settings_data(**changes: Any) -> dict[str, str]:
    data = {
        "name": "Thursday Club",
        "ranking": "average",
        "min_games": "3",
        "min_nights_percent": "0",
        "placement_points": "5, 3, 2, 1",
        "best_nights": "",
        "max_pip": "12",
        "double_blank": "0",
        "blank_half": "0",
        "end_on_double": "allowed",
        "marker_penalty": "0",
        "going_out_bonus": "0",
        "start_rule": "engine_holder",
    }
    data.update({key: str(value) for key, value in changes.items()})
    return data


def hand_league(client: FlaskClient) -> tuple[str, dict[str, int], list[int]]:
    code = start_league(client)
    ids = add_players(client, code, NAMES)
    nights = [start_night(client, code, day) for day in NIGHTS]
    for night_index, totals in TABLES:
        game = add_table(client, code, nights[night_index], [ids[name] for name in totals])
        play(client, game, list(totals.values()))
    return code, ids, nights


def standings_rows(client: FlaskClient, url: str) -> list[tuple[str, str, str]]:
    """(rank, name, value) of every ranked line of a standings page."""
    html = client.get(url).get_data(as_text=True)
    ranked = html.split('<ol class="standings league"', 1)
    if len(ranked) == 1:
        return []
    block = ranked[1].split("</ol>", 1)[0]
    return re.findall(
        r'class="rank"[^>]*>([^<]+)</span>\s*<span class="who"><a [^>]+>([^<]+)</a>.*?'
        r'<span class="total">([^<]+)<',
        block,
        re.S,
    )


def test_start_a_league_then_every_page_renders(client: FlaskClient) -> None:
    code = start_league(client)
    assert len(code) == 6
    for page in ("", "/nights", "/players", "/manage", "/settings", "/seasons", "/import"):
        response = client.get(f"/leagues/{code}{page}")
        assert response.status_code == 200, page
    index = client.get("/leagues").get_data(as_text=True)
    assert "Thursday Club" in index and code in index
    assert "Leagues" in client.get("/").get_data(as_text=True)


def test_a_new_league_refuses_bad_input_and_keeps_what_was_typed(client: FlaskClient) -> None:
    response = client.post("/leagues/new", data={"name": "Club", "passphrase": "abc"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "at least 10 characters and two words" in " ".join(errors_in(page))
    assert 'value="Club"' in page
    response = client.post("/leagues/new", data={"name": "   ", "passphrase": "long enough"})
    assert response.status_code == 422
    assert "Give the league a name" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (
            {"ranking": "average", "min_games": 3},
            [("1", "Fay", "51.7"), ("2", "Ann", "60.0"), ("3", "Cy", "60.0"), ("4", "Bob", "83.3")],
        ),
        (
            {"ranking": "wins"},
            [
                ("1", "Ann", "2"),
                ("2", "Ed", "1"),
                ("3", "Fay", "1"),
                ("4", "Cy", "1"),
                ("5", "Bob", "1"),
                ("6", "Di", "0"),
                ("7", "Gus", "0"),
            ],
        ),
        (
            {"ranking": "points"},
            [
                ("1", "Ann", "12"),
                ("2", "Fay", "10.5"),
                ("3", "Cy", "9.5"),
                ("4", "Bob", "7.5"),
                ("5", "Ed", "7"),
                ("6", "Di", "3.5"),
                ("7", "Gus", "3"),
            ],
        ),
        (
            {"ranking": "points", "best_nights": 2},
            [
                ("1", "Ann", "10"),
                ("2", "Fay", "8"),
                ("3", "Cy", "7.5"),
                ("4", "Ed", "7"),
                ("5", "Bob", "6.5"),
                ("6", "Di", "3.5"),
                ("7", "Gus", "3"),
            ],
        ),
    ],
)
def test_standings_match_the_hand_calculation(
    client: FlaskClient, settings: dict[str, Any], expected: list[tuple[str, str, str]]
) -> None:
    code, _, _ = hand_league(client)
    response = client.post(f"/leagues/{code}/settings", data=settings_data(**settings))
    assert response.status_code == 302, response.get_data(as_text=True)
    assert standings_rows(client, f"/leagues/{code}?season=all") == expected
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    assert "Ties: " in page and "share the place" in page


def test_average_standings_explain_and_list_players_without_enough_games(
    client: FlaskClient,
) -> None:
    code, _, _ = hand_league(client)
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="3"))
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    assert "Ranked by average game total" in page
    assert "Ties: more games played, then more wins" in page
    assert "Level on 60.0 with the place above, which goes ahead on more wins: 2 to 1." in page
    assert "Not ranked yet" in page and "A player is ranked from their 3rd game." in page
    assert "Di : 2 games of the 3 needed to be ranked" in page


def test_rating_standings_rank_everyone_with_a_rating(client: FlaskClient) -> None:
    code, _, _ = hand_league(client)
    client.post(f"/leagues/{code}/settings", data=settings_data(ranking="rating"))
    rows = standings_rows(client, f"/leagues/{code}")
    assert len(rows) == 7
    values = [float(value) for _, _, value in rows]
    assert values == sorted(values, reverse=True)
    page = client.get(f"/leagues/{code}").get_data(as_text=True)
    assert "Ranked by skill rating" in page
    assert "A tie with someone counts as half a win against them." in page
    # No jargon: the library and its formula are for the docs, not the club.
    assert "OpenSkill" not in page and "uncertainty" not in page


def test_guests_play_but_are_not_ranked(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]], guests=["Zed"])
    play(client, game, [30, 20, 0])
    client.post(f"/leagues/{code}/settings", data=settings_data(ranking="wins"))
    rows = standings_rows(client, f"/leagues/{code}")
    assert [name for _, name, _ in rows] == ["Bob", "Ann"]
    assert [value for _, _, value in rows] == ["0", "0"]  # the guest won the game
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    assert "1 guest is not ranked" in page
    players = client.get(f"/leagues/{code}/players").get_data(as_text=True)
    assert "Guests (1)" in players and "Zed" in players


def test_player_page_stats_head_to_head_and_chart(client: FlaskClient) -> None:
    code, ids, _ = hand_league(client)
    page = client.get(f"/leagues/{code}/players/{ids['Ann']}?season=all").get_data(as_text=True)
    facts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)<", page))
    assert facts["Games"] == "3"
    assert facts["Wins"] == "2"
    assert facts["Win rate"] == "67%"
    assert facts["Average game"] == "60.0"
    assert facts["Average round"] == "60.0"  # one round a game here
    assert facts["Best game"] == "40" and facts["Worst game"] == "90"
    assert facts["Nights played"] == "3" and facts["Attendance"] == "100%"
    assert facts["Rounds gone out"] == "0"  # nobody had 0, so those rounds were blocked
    h2h = page.split('class="h2h"')[1].split("</table>")[0]
    bob = re.search(r">Bob</a></th>\s*<td>(\d+)</td>\s*<td[^>]*>(\d+)</td>\s*<td[^>]*>(\d+)", h2h)
    assert bob and bob.groups() == ("3", "2", "1")
    assert '<svg class="chart"' in page
    assert "2nd" in text_of(page) or "2nd (shared)" in text_of(page)


def test_night_page_shows_every_table_live_and_the_results(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    night = start_night(client, code)
    first = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    second = add_table(client, code, night, [ids["Cy"], ids["Di"]])
    page = text_of(client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True))
    assert "Table 1" in page and "Table 2" in page and "Not started yet" in page
    play(client, first, [0, 25])
    from tests.web.helpers import enter_round

    enter_round(client, second, points={0: 0, 1: 12}, went_out=0)
    live = client.get(f"/leagues/{code}/nights/{night}/live")
    page = text_of(live.get_data(as_text=True))
    assert "Game over: Ann wins" in page
    assert "Round 2 of 13" in page
    assert "Results so far" in page and "Finished tables only" in page
    # Unchanged: the poll is answered 304 without a body.
    again = client.get(
        f"/leagues/{code}/nights/{night}/live", headers={"If-None-Match": live.headers["ETag"]}
    )
    assert again.status_code == 304
    assert client.post(f"/g/{second}/finish").status_code == 302
    page = text_of(client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True))
    # A night of another day is not "tonight".
    assert "The night's results" in page and "Tonight's results" not in page


def test_seating_refuses_with_a_message_and_keeps_the_choice(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy"])
    night = start_night(client, code)
    add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    url = f"/leagues/{code}/nights/{night}/tables/new"
    response = client.post(url, data={"players": [str(ids["Ann"]), str(ids["Cy"])]})
    assert response.status_code == 422
    assert "Ann is already playing at Table 1 tonight" in response.get_data(as_text=True)
    response = client.post(url, data={"players": [str(ids["Cy"])]})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "at least two players" in page
    assert re.search(rf'value="{ids["Cy"]}" checked', page)
    response = client.post(url, data={"players": ["999999", str(ids["Cy"])]})
    assert response.status_code == 422 and "not in this league" in response.get_data(as_text=True)
    response = client.post(url, data={"players": ["abc"]})
    assert response.status_code == 422
    response = client.post(url, data={"table_name": "T" * 300, "players": [str(ids["Cy"])]})
    assert response.status_code == 422
    response = client.post(
        url, data={"table_name": "Table 1", "players": [str(ids["Cy"])], "guest-0": "Zed"}
    )
    assert response.status_code == 422 and "still playing" in response.get_data(as_text=True)
    # A busy player is shown as busy, not offered.
    page = client.get(url).get_data(as_text=True)
    assert "at Table 1" in page


def test_renaming_changes_every_game_and_never_breaks_history(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, game, [0, 30])
    response = client.post(f"/leagues/{code}/players/{ids['Bob']}/edit", data={"name": "Robert"})
    assert response.status_code == 302
    assert "Robert" in client.get(f"/g/{game}/scoreboard").get_data(as_text=True)
    assert "Robert" in client.get(f"/leagues/{code}?season=all").get_data(as_text=True)
    response = client.post(f"/leagues/{code}/players/{ids['Bob']}/edit", data={"name": "ann"})
    assert response.status_code == 422
    assert "merge them instead" in response.get_data(as_text=True)
    assert 'value="ann"' in response.get_data(as_text=True)


def test_merging_two_entries_moves_every_game(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Robert Smith"])
    nights = [start_night(client, code, day) for day in ("2025-01-02", "2025-01-09")]
    first = add_table(client, code, nights[0], [ids["Ann"]], guests=["Bob"])
    play(client, first, [10, 0])
    second = add_table(client, code, nights[1], [ids["Ann"], ids["Robert Smith"]])
    play(client, second, [0, 20])
    bob = [pid for name, pid in _all_players(client, code).items() if name == "Bob"][0]
    url = f"/leagues/{code}/players/{bob}/merge"
    preview = client.post(url, data={"target": str(ids["Robert Smith"])})
    assert preview.status_code == 200
    assert "1 game of Bob will count for Robert Smith" in text_of(preview.get_data(as_text=True))
    done = client.post(url, data={"target": str(ids["Robert Smith"]), "confirm": "yes"})
    assert done.status_code == 302
    page = client.get(f"/leagues/{code}/players/{ids['Robert Smith']}?season=all")
    text = text_of(page.get_data(as_text=True))
    assert "Also entered as Bob" in text
    facts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)<", page.get_data(as_text=True)))
    assert facts["Games"] == "2" and facts["Wins"] == "1"
    # The old entry's link leads to the survivor; the merged entry is off the lists.
    old = client.get(f"/leagues/{code}/players/{bob}")
    assert old.status_code == 302 and old.headers["Location"].endswith(f"/{ids['Robert Smith']}")
    assert "Bob" not in _all_players(client, code)
    # Robert Smith was never a guest, so he stays on the roster.
    assert "Guests (" not in client.get(f"/leagues/{code}/players").get_data(as_text=True)


def test_merging_people_who_shared_a_table_is_refused(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, game, [0, 20])
    url = f"/leagues/{code}/players/{ids['Ann']}/merge"
    response = client.post(url, data={"target": str(ids["Bob"])})
    assert response.status_code == 422
    assert "cannot be the same person" in response.get_data(as_text=True)
    response = client.post(url, data={"target": str(ids["Bob"]), "confirm": "yes"})
    assert response.status_code == 422
    assert client.post(url, data={"target": "nobody"}).status_code == 422
    assert client.post(url, data={"target": str(ids["Ann"])}).status_code == 422


def _all_players(client: FlaskClient, code: str) -> dict[str, int]:
    page = client.get(f"/leagues/{code}/players").get_data(as_text=True)
    found = re.findall(rf'/leagues/{code}/players/(\d+)">\s*<span class="label">([^<]+)<', page)
    return {name: int(pid) for pid, name in found}


def test_seasons_and_date_ranges_filter_the_standings(client: FlaskClient) -> None:
    code, _, _ = hand_league(client)
    response = client.post(
        f"/leagues/{code}/seasons",
        data={"name": "January", "starts_on": "2024-01-01", "ends_on": "2024-01-12"},
    )
    assert response.status_code == 302
    # The standings open on the latest season that has started: January (two nights).
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games=2))
    rows = standings_rows(client, f"/leagues/{code}")
    assert rows[0][1] == "Fay" and len(rows) == 7
    assert "Season January" in client.get(f"/leagues/{code}").get_data(as_text=True)
    rows = standings_rows(client, f"/leagues/{code}?start=2024-01-18&end=2024-01-18")
    assert rows == []  # one night: nobody has two games
    page = client.get(f"/leagues/{code}?start=2024-01-18&end=2024-01-01")
    assert page.status_code == 200
    assert "The last day is before the first." in page.get_data(as_text=True)
    page = client.get(f"/leagues/{code}?start=yesterday&season=nonsense")
    assert page.status_code == 200
    assert "Choose a date from the calendar" in page.get_data(as_text=True)
    response = client.post(
        f"/leagues/{code}/seasons",
        data={"name": "Backwards", "starts_on": "2024-02-01", "ends_on": "2024-01-01"},
    )
    assert response.status_code == 422
    assert "cannot end before it starts" in response.get_data(as_text=True)


def test_the_public_page_is_read_only_and_can_be_turned_off(client: FlaskClient) -> None:
    code, ids, nights = hand_league(client)
    client.post(f"/leagues/{code}/settings/public", data={"action": "on"})
    settings = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    token = re.search(r'href="http://localhost/p/([^"]+)"', settings).group(1)  # type: ignore[union-attr]
    visitor = client.application.test_client()
    for url in (
        f"/p/{token}",
        f"/p/{token}/nights/{nights[0]}",
        f"/p/{token}/nights/{nights[0]}/live",
        f"/p/{token}/players/{ids['Ann']}",
        f"/p/{token}/qr.svg",
    ):
        response = visitor.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        # No form that changes anything (the language buttons only set this phone's cookie).
        assert not re.search(r'method="post" action="(?!/language")', html)
        assert f"/leagues/{code}" not in html
    assert "Fay" in visitor.get(f"/p/{token}?season=all").get_data(as_text=True)
    client.post(f"/leagues/{code}/settings/public", data={"action": "new_link"})
    assert visitor.get(f"/p/{token}").status_code == 404
    client.post(f"/leagues/{code}/settings/public", data={"action": "off"})
    assert "Turn the public page on" in client.get(f"/leagues/{code}/settings").get_data(
        as_text=True
    )
    assert client.post(f"/leagues/{code}/settings/public", data={"action": "x"}).status_code == 400


def test_tables_and_nights_seated_by_mistake_can_go(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    game = add_table(client, code, night, [ids["Ann"]], guests=["Zed"])
    response = client.post(f"/leagues/{code}/nights/{night}/tables/{game}/remove")
    assert response.status_code == 302
    assert table_ids(client, code, night) == []
    assert "Zed" not in client.get(f"/leagues/{code}/players").get_data(as_text=True)
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, game, [0, 5])
    client.post(f"/leagues/{code}/nights/{night}/tables/{game}/remove")
    assert table_ids(client, code, night) == [game]
    client.post(f"/leagues/{code}/nights/{night}/delete")
    assert client.get(f"/leagues/{code}/nights/{night}").status_code == 200
    empty = start_night(client, code, "2025-03-13")
    assert client.post(f"/leagues/{code}/nights/{empty}/delete").status_code == 302
    assert client.get(f"/leagues/{code}/nights/{empty}").status_code == 404


def test_changing_a_night(client: FlaskClient) -> None:
    code = start_league(client)
    night = start_night(client, code)
    url = f"/leagues/{code}/nights/{night}/edit"
    assert 'value="2025-03-06"' in client.get(url).get_data(as_text=True)
    response = client.post(url, data={"played_on": "2025-03-07", "place": "Pub"})
    assert response.status_code == 302
    assert "Friday 7 Mar 2025" in text_of(
        client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    )
    response = client.post(url, data={"played_on": "07/03/25", "place": "Pub"})
    assert response.status_code == 422 and 'value="07/03/25"' in response.get_data(as_text=True)
    response = client.post(url, data={"played_on": "1850-01-01"})
    assert response.status_code == 422 and "between the years 2000 and 2100" in response.get_data(
        as_text=True
    )


def test_play_again_keeps_the_table_at_the_night(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, game, [0, 5])
    assert client.post(f"/g/{game}/again").status_code == 302
    assert len(table_ids(client, code, night)) == 2


def test_settings_refuse_bad_values_next_to_the_field(client: FlaskClient) -> None:
    code = start_league(client)
    url = f"/leagues/{code}/settings"
    response = client.post(url, data=settings_data(placement_points="1, 2, 3"))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "cannot earn fewer" in " ".join(errors_in(page))
    assert 'value="1, 2, 3"' in page
    response = client.post(url, data=settings_data(min_games="lots"))
    assert response.status_code == 422 and "whole number" in response.get_data(as_text=True)
    response = client.post(url, data=settings_data(min_nights_percent="250"))
    assert response.status_code == 422
    response = client.post(url, data=settings_data(max_pip="13"))
    assert response.status_code == 422
    response = client.post(url, data=settings_data(max_pip="9", ranking="points", best_nights=5))
    assert response.status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert re.search(r'<input checked id="max_pip-\d" name="max_pip" type="radio" value="9">', page)


def test_adding_players_refuses_duplicates_and_empty_names(client: FlaskClient) -> None:
    code = start_league(client)
    add_players(client, code, ["Ann"])
    response = client.post(f"/leagues/{code}/players/new", data={"name": " ann "})
    assert response.status_code == 422
    assert "already on the roster" in response.get_data(as_text=True)
    response = client.post(f"/leagues/{code}/players/new", data={"name": "   "})
    assert response.status_code == 422


JUNK = ["", "0", "-1", "x" * 5000, "1e9", "'; DROP TABLE player; --", "<script>", "😀", "9" * 30]


@pytest.mark.parametrize("junk", JUNK)
def test_bad_input_never_gives_a_server_error(client: FlaskClient, junk: str) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    posts = {
        f"/leagues/{code}/players/new": {"name": junk},
        f"/leagues/{code}/players/{ids['Ann']}/edit": {"name": junk, "guest": junk},
        f"/leagues/{code}/players/{ids['Ann']}/merge": {"target": junk, "confirm": junk},
        f"/leagues/{code}/nights/new": {"played_on": junk, "place": junk},
        f"/leagues/{code}/nights/{night}/edit": {"played_on": junk, "place": junk},
        f"/leagues/{code}/nights/{night}/tables/new": {
            "table_name": junk,
            "players": [junk, str(ids["Ann"])],
            "guest-0": junk,
        },
        f"/leagues/{code}/seasons": {"name": junk, "starts_on": junk, "ends_on": junk},
        f"/leagues/{code}/settings": settings_data(
            ranking=junk, min_games=junk, placement_points=junk, best_nights=junk, max_pip=junk
        ),
        f"/leagues/{code}/settings/passphrase": {"new_passphrase": junk},
        f"/leagues/{code}/settings/public": {"action": junk},
        f"/leagues/{code}/import": {"dates": junk},
        f"/leagues/{code}/import/confirm": {"token": junk},
        f"/leagues/{code}/unlock": {"passphrase": junk},
        "/leagues/join": {"code": junk, "passphrase": junk},
        "/leagues/new": {"name": junk, "passphrase": junk},
    }
    for url, data in posts.items():
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, response.status_code)
    gets = [
        f"/leagues/{code}?season={junk}&start={junk}&end={junk}",
        f"/leagues/{code}/players/{ids['Ann']}?start={junk}",
        f"/leagues/{junk[:50] or 'x'}",
        f"/leagues/{code}/welcome/{junk[:100] or 'x'}",
        f"/leagues/{code}/organiser/{junk[:100] or 'x'}",
        f"/p/{junk[:100] or 'x'}",
    ]
    for url in gets:
        assert client.get(url).status_code < 500, url

"""A league's export imports back into an empty league as it was (issue 36, items 14 and 21):
late joiners starting with 0 and with the highest total, a game the table ended early when a
player left, every kind of game, guests, two games at one table, a game still being played, a
roster player without games. Standings (every method), nights, player histories, games and
rounds come back equal, from the .zip and from the JSON alike."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.helpers import enter_round
from tests.web.league_helpers import (
    add_players,
    add_table,
    play,
    player_ids,
    start_league,
    start_night,
    text_of,
)
from tests.web.test_league_games import _table_of
from tests.web.test_leagues_transfer import confirm, problems, upload

NAME = "Thursday Club"
METHODS = ("average", "wins", "points", "rating")


def _settings(client: FlaskClient, code: str, late_joiner: str) -> None:
    response = client.post(
        f"/leagues/{code}/settings",
        data={
            "name": NAME,
            "ranking": "average",
            "min_games": "1",
            "placement_points": "5, 3, 2, 1",
            "max_pip": "12",
            "start_rule": "rotate",
            "open_double_penalty": "plus_5",
            "late_joiner": late_joiner,
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def _saved(response: Any) -> None:
    assert response.status_code == 302, response.get_data(as_text=True)


def _build(client: FlaskClient) -> str:
    code = start_league(client, NAME)
    _settings(client, code, "none")
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Hal", "Ivy", "Annie"])
    first = start_night(client, code, "2025-03-06", "Hall")
    # Mexican Train: Di joins in round 2 starting with 0; the table stops after round 2.
    train = add_table(client, code, first, [ids["Ann"], ids["Bob"], ids["Cy"]], table_name="One")
    _saved(enter_round(client, train, points={1: 12, 2: 30}, went_out=0))
    _saved(client.post(f"/g/{train}/join", data={"name": "Di"}))
    _saved(enter_round(client, train, points={0: 7, 2: 4, 3: 9}, went_out=1))
    _saved(client.post(f"/g/{train}/finish"))
    # A second game at the same table that night, played to its end.
    again = add_table(client, code, first, [ids["Bob"], ids["Ann"]], table_name="One")
    play(client, again, [15, 0])
    # Chicken Foot with a guest: Hal leaves after the first round, so the table ends early.
    foot = _table_of(client, code, first, [ids["Eve"], ids["Fay"], ids["Hal"]], "chicken_foot")
    _saved(enter_round(client, foot, points={0: 20, 2: 3}, went_out=1))
    _saved(client.post(f"/g/{foot}/finish"))
    guests = add_table(client, code, first, [ids["Cy"], ids["Di"]], guests=["Gus"])
    _saved(enter_round(client, guests, points={0: 5, 2: 8}, went_out=1))
    _saved(client.post(f"/g/{guests}/finish"))

    _settings(client, code, "highest_total")
    second = start_night(client, code, "2025-03-13", "Club")
    # All Fives: Cy joins after the first hand with the highest total.
    fives = _table_of(client, code, second, [ids["Ann"], ids["Bob"]], "all_fives")
    _saved(enter_round(client, fives, points={1: 6}, went_out=0, **{"seat_0-made": 25}))
    _saved(client.post(f"/g/{fives}/join", data={"name": "Cy"}))
    _saved(enter_round(client, fives, points={0: 4, 2: 9}, went_out=1, **{"seat_1-made": 10}))
    _saved(client.post(f"/g/{fives}/finish"))
    threes = _table_of(client, code, second, [ids["Di"], ids["Eve"]], "fives_and_threes")
    _saved(enter_round(client, threes, points={1: 7}, went_out=0, **{"seat_0-made": 12}))
    _saved(client.post(f"/g/{threes}/finish"))
    draw = _table_of(client, code, second, [ids["Fay"], ids["Ann"]], "draw")
    _saved(enter_round(client, draw, points={1: 11}, went_out=0))
    _saved(client.post(f"/g/{draw}/finish"))
    block = _table_of(client, code, second, [ids["Annie"], ids["Cy"]], "block")
    _saved(enter_round(client, block, points={0: 3, 1: 10}, went_out="blocked"))
    _saved(client.post(f"/g/{block}/finish"))
    # A table still playing when the league was exported, a guest at it.
    playing = add_table(client, code, second, [ids["Di"], ids["Eve"]], guests=["Gus"])
    _saved(
        enter_round(client, playing, points={0: 14, 1: 6}, went_out=2, **{"seat_1-open_doubles": 1})
    )
    # A table seated without a round yet, and a player who sat down at the playing table but
    # has no round yet.
    add_table(client, code, second, [ids["Bob"], ids["Fay"]])
    _saved(client.post(f"/g/{playing}/join", data={"name": "Ivy"}))
    # Annie was Ann all along: the entry is merged (it stays, pointing at Ann).
    merge = f"/leagues/{code}/players/{ids['Annie']}/merge"
    _saved(client.post(merge, data={"target": str(ids["Ann"]), "confirm": "yes"}))
    _saved(
        client.post(
            f"/leagues/{code}/seasons",
            data={"name": "Spring 2025", "starts_on": "2025-03-01", "ends_on": "2025-05-31"},
        )
    )
    return code


def _rows(archive: zipfile.ZipFile, name: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(archive.read(name).decode("utf-8-sig"))))


def _seen(client: FlaskClient, code: str) -> dict[str, Any]:
    """Everything a player or organiser can see of the league, without its ids and code."""
    ids = player_ids(client, code)
    names = {pid: name for name, pid in ids.items()}

    def scrub(text: str) -> str:
        text = text.replace(code, "CODE")
        return re.sub(r"/players/(\d+)", lambda m: f"/players/{names.get(int(m[1]), '?')}", text)

    document = client.get(f"/leagues/{code}/export.json").get_json()
    by_id = {p["id"]: p["name"] for p in document["players"]}

    def named(value: Any) -> Any:
        return by_id.get(value, value)

    nights = []
    for night in document["nights"]:
        games = []
        for game in night["games"]:
            games.append(
                {
                    **{k: v for k, v in game.items() if k not in ("started_at", "finished_at")},
                    "players": [named(p) for p in game["players"]],
                    "late_joiners": [
                        {**j, "player": named(j["player"])} for j in game["late_joiners"]
                    ],
                    "rounds": [
                        {
                            **r,
                            "went_out": named(r["went_out"]),
                            "scores": [{**s, "player": named(s["player"])} for s in r["scores"]],
                        }
                        for r in game["rounds"]
                    ],
                }
            )
        nights.append({"date": night["date"], "place": night["place"], "games": games})
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/leagues/{code}/export.zip").data))
    seen: dict[str, Any] = {
        "players": [(p["name"], p["guest"], named(p["merged_into"])) for p in document["players"]],
        "league": document["league"] | {"code": None},
        "nights": nights,
        "scores.csv": sorted(_rows(archive, "scores.csv")),
    }
    for name in ("games.csv", "standings.csv", "players.csv", "nights.csv", "seasons.csv"):
        seen[name] = _rows(archive, name)
    for method in METHODS:
        page = client.get(f"/leagues/{code}?season=all&method={method}").get_data(as_text=True)
        seen[f"standings by {method}"] = scrub(text_of(page))
    for name, pid in sorted(ids.items()):
        page = client.get(f"/leagues/{code}/players/{pid}?games=all").get_data(as_text=True)
        seen[f"history of {name}"] = scrub(text_of(page))
    return seen


@pytest.mark.parametrize("kind", ["zip", "json"])
def test_an_export_imports_back_as_it_was(client: FlaskClient, kind: str) -> None:
    code = _build(client)
    original = _seen(client, code)
    exported = client.get(f"/leagues/{code}/export.{kind}").data

    other = client.application.test_client()
    copy = start_league(other, NAME)
    _settings(other, copy, "highest_total")  # the same settings as the league exported
    preview = upload(other, copy, exported, name=f"Thursday Club 2025-03-20.{kind}")
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200, text_of(page)
    assert problems(page) == []
    assert confirm(other, copy, page).status_code == 302

    copied = _seen(other, copy)
    differences = _differences(original, copied)
    assert not differences, "\n".join(differences)


def _differences(one: Any, other: Any, path: str = "") -> list[str]:
    """Where two nested values differ, as readable paths (for a short failure message)."""
    if isinstance(one, dict) and isinstance(other, dict):
        return [
            found
            for key in sorted(set(one) | set(other), key=str)
            for found in _differences(one.get(key), other.get(key), f"{path}/{key}")
        ]
    if isinstance(one, list) and isinstance(other, list) and len(one) == len(other):
        return [
            found
            for index, (a, b) in enumerate(zip(one, other, strict=True))
            for found in _differences(a, b, f"{path}[{index}]")
        ]
    if one == other:
        return []
    if isinstance(one, str) and isinstance(other, str):
        at = next((i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b), len(one))
        one, other = one[max(at - 60, 0) : at + 60], other[max(at - 60, 0) : at + 60]
    return [f"{path}: {one!r} != {other!r}"[:400]]


def test_a_json_file_that_is_not_an_export_is_refused_plainly(client: FlaskClient) -> None:
    code = start_league(client, NAME)
    page = client.get(f"/leagues/{code}/import").get_data(as_text=True)
    assert "or a league this app exported: its .zip or its .json file." in text_of(page)
    for content in (b'{"nights": []}', b"{not json", b'{"format": "scorekeeper-league"}', b"[1]"):
        response = upload(client, code, content, name="export.json")
        assert response.status_code == 422
        said = text_of(response.get_data(as_text=True))
        assert "This .json file is not a league export of this app." in said, content
        assert "Found: {" not in said


def _zip(**files: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name.replace("_", "."), text)
    return buffer.getvalue()


SCORES = "night,table,player,round,score\n2024-01-04,T,Ann,1,0\n2024-01-04,T,Bob,1,9\n"


def test_the_side_files_of_a_zip_never_cut_a_name_or_take_unknown_rules(
    client: FlaskClient,
) -> None:
    code = start_league(client, NAME)
    long_name = "Bartholomew Alexander Montgomery-Fitzwilliam"
    roster = f"name,status,merged_into,games\nAnn,roster,,1\n{long_name},roster,,0\n"
    response = upload(client, code, _zip(scores_csv=SCORES, players_csv=roster), name="x.zip")
    said = text_of(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "players.csv in this .zip, line 3: “Bartholomew" in said
    assert "has 44 characters; a name may have at most 40." in said
    rules = 'night,place,table,game,kind,rules\n2024-01-04,,T,1,mexican_train,"{""max_pip"": 99}"\n'
    response = upload(client, code, _zip(scores_csv=SCORES, rules_csv=rules), name="x.zip")
    said = text_of(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "rules.csv in this .zip, line 2: these are not house rules this app knows." in said

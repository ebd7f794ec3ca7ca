"""The league export carries what issue 13 added (the game played, points made during play,
doubles left open, late joiners); the import rebuilds every game under its own rules, keeps
doubles left open and points made, and refuses a game it cannot rebuild (a late joiner's)."""

from __future__ import annotations

import csv
import io
import zipfile

from flask.testing import FlaskClient

from tests.web.helpers import enter_round
from tests.web.league_helpers import add_players, add_table, start_league, start_night
from tests.web.test_league_games import _settings, _table_of
from tests.web.test_leagues_transfer import confirm, problems, upload


def _league(client: FlaskClient, late: bool = True) -> tuple[str, dict[str, int], str, str]:
    """A night with a Mexican Train table (a double left open, a late joiner) and an All Fives
    table."""
    code = start_league(client)
    _settings(client, code, "wins")
    client.post(
        f"/leagues/{code}/settings",
        data={
            "name": "Thursday Club",
            "ranking": "wins",
            "min_games": "1",
            "placement_points": "5, 3, 2, 1",
            "max_pip": "12",
            "start_rule": "rotate",
            "open_double_penalty": "plus_5",
            "late_joiner": "highest_total",
        },
    )
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    night = start_night(client, code)
    train = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    enter_round(client, train, points={1: 20}, went_out=0, **{"seat_1-open_doubles": 1})
    if late:
        client.post(f"/g/{train}/join", data={"name": "Di"})
        enter_round(client, train, points={0: 3, 2: 4}, went_out=1)
    else:
        enter_round(client, train, points={0: 3}, went_out=1)
    client.post(f"/g/{train}/finish")
    fives = _table_of(client, code, night, [ids["Cy"], ids["Ann"]], "all_fives")
    enter_round(client, fives, points={0: 3}, went_out=1, **{"seat_1-made": 10})
    client.post(f"/g/{fives}/finish")
    return code, ids, train, fives


def test_the_export_carries_the_game_and_what_was_added(client: FlaskClient) -> None:
    code, ids, _, _ = _league(client)
    document = client.get(f"/leagues/{code}/export.json").get_json()
    games = document["nights"][0]["games"]
    assert [game["kind"] for game in games] == ["mexican_train", "all_fives"]
    train, fives = games
    assert train["late_joiners"] == [{"player": ids["Di"], "from_round": 2, "start": 25}]
    first = {s["player"]: s for s in train["rounds"][0]["scores"]}
    assert first[ids["Bob"]]["open_doubles"] == 1 and first[ids["Bob"]]["points"] == 25
    hand = {s["player"]: s for s in fives["rounds"][0]["scores"]}
    assert hand[ids["Ann"]]["made"] == 10 and hand[ids["Ann"]]["points"] == 15

    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/leagues/{code}/export.zip").data))
    rows = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))
    by_player = {(r["kind"], r["player"]): r for r in rows}
    # All Fives: Ann's 15 beats Cy's 0 (the highest total wins).
    assert by_player[("all_fives", "Ann")]["place_at_table"] == "1"
    assert by_player[("all_fives", "Ann")]["win"] == "yes"
    # Di joined with Bob's 25 and went... no: Bob went out in round 2; Di held 4.
    assert by_player[("mexican_train", "Di")]["total"] == "29"
    scores = archive.read("scores.csv").decode("utf-8-sig")
    header = scores.splitlines()[0]
    assert header.endswith("finished,kind,made,open_doubles,start,ended_early")


def test_a_league_of_several_games_comes_back_with_an_import(client: FlaskClient) -> None:
    code, _, _, _ = _league(client, late=False)
    exported = client.get(f"/leagues/{code}/export.zip").data
    other = client.application.test_client()
    copy = start_league(other, "Copy")
    preview = upload(other, copy, exported, name="export.zip")
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert problems(preview.get_data(as_text=True)) == []
    assert confirm(other, copy, preview.get_data(as_text=True)).status_code == 302
    document = other.get(f"/leagues/{copy}/export.json").get_json()
    games = document["nights"][0]["games"]
    assert [game["kind"] for game in games] == ["mexican_train", "all_fives"]
    assert games[1]["rules"]["max_pip"] == 6
    hand = games[1]["rounds"][0]
    assert hand["engine"] is None
    assert sorted(s["made"] for s in hand["scores"]) == [0, 10]
    first = zipfile.ZipFile(io.BytesIO(exported)).read("games.csv")
    again = zipfile.ZipFile(io.BytesIO(other.get(f"/leagues/{copy}/export.zip").data))
    assert again.read("games.csv") == first
    assert again.read("scores.csv") == zipfile.ZipFile(io.BytesIO(exported)).read("scores.csv")


def test_a_late_joiner_comes_back_with_an_import(client: FlaskClient) -> None:
    code, _, _, _ = _league(client)  # Di joined the train table in round 2 with 25
    exported = client.get(f"/leagues/{code}/export.zip").data
    other = client.application.test_client()
    copy = start_league(other, "Copy")
    preview = upload(other, copy, exported, name="export.zip")
    assert problems(preview.get_data(as_text=True)) == []
    assert confirm(other, copy, preview.get_data(as_text=True)).status_code == 302
    games = other.get(f"/leagues/{copy}/export.json").get_json()["nights"][0]["games"]
    assert [j["from_round"] for j in games[0]["late_joiners"]] == [2]
    assert [j["start"] for j in games[0]["late_joiners"]] == [25]
    again = zipfile.ZipFile(io.BytesIO(other.get(f"/leagues/{copy}/export.zip").data))
    first = zipfile.ZipFile(io.BytesIO(exported))
    assert again.read("games.csv") == first.read("games.csv")


def test_what_the_import_cannot_rebuild_is_refused_with_a_reason(client: FlaskClient) -> None:
    code = start_league(client)
    sheet = (
        "night,table,player,round,score,kind,made,engine\n"
        "2024-01-04,T,Ann,1,0,dominoes of mars,0,\n"
        "2024-01-04,U,Bob,1,5,draw,5,\n"
        "2024-01-04,V,Cy,1,0,block,0,6-6\n"
    )
    found = problems(upload(client, code, sheet).get_data(as_text=True))
    messages = [message for _, message in found]
    assert "is not one of mexican_train, chicken_foot" in messages[0]
    assert "Draw makes no points during play" in messages[1]
    assert "Block has no engine double" in messages[2]
    # Without a start, a player missing from round 1 is still a missing score.
    gap = (
        "night,table,player,round,score\n"
        "2024-01-04,T,Ann,1,0\n2024-01-04,T,Bob,1,5\n"
        "2024-01-04,T,Ann,2,3\n2024-01-04,T,Bob,2,0\n2024-01-04,T,Cy,2,7\n"
    )
    found = problems(upload(client, code, gap).get_data(as_text=True))
    assert any("round 1 at T" in message and "Cy" in message for _, message in found), found


def test_doubles_left_open_come_back_with_an_import(client: FlaskClient) -> None:
    sheet = (
        "night,place,table,player,round,score,hand,open_doubles,kind,made\n"
        "2024-01-04,Hall,Table 1,Ann,1,0,0,0,mexican_train,0\n"
        "2024-01-04,Hall,Table 1,Bob,1,25,20,1,mexican_train,0\n"
    )
    code = start_league(client)
    preview = upload(client, code, sheet)
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert confirm(client, code, preview.get_data(as_text=True)).status_code == 302
    document = client.get(f"/leagues/{code}/export.json").get_json()
    scores = document["nights"][0]["games"][0]["rounds"][0]["scores"]
    assert [s["open_doubles"] for s in scores] == [0, 1]
    bad = "night,table,player,round,score,open_doubles,made\n2024-01-04,T,Ann,1,0,9,x\n"
    found = problems(upload(client, code, bad).get_data(as_text=True))
    assert found and "doubles left open should be a number from 0 to 5" in found[0][1]
    assert "The points made “x” are not a number from 0 to 1000" in found[0][1]

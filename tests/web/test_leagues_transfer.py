"""Export (JSON, a .zip of CSV files) and import (CSV with a preview, every bad row reported
with its line number, nothing written until the whole file is valid); the round trip."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest
from flask.testing import FlaskClient, FlaskCliRunner

from tests.web.league_helpers import start_league, text_of
from tests.web.test_leagues import hand_league, settings_data, standings_rows

GOOD = """night,place,table,player,round,score
2024-01-04,Hall,Table 1,Ann,1,0
2024-01-04,Hall,Table 1,Bob,1,23
2024-01-04,Hall,Table 1,Ann,2,14
2024-01-04,Hall,Table 1,Bob,2,0
2024-01-04,Hall,Table 2,Cy,1,5
2024-01-04,Hall,Table 2,Di,1,0
"""


def upload(client: FlaskClient, code: str, content: str | bytes, name: str = "sheet.csv", **form):  # type: ignore[no-untyped-def]
    data = content.encode() if isinstance(content, str) else content
    return client.post(
        f"/leagues/{code}/import",
        data={"file": (io.BytesIO(data), name), "dates": "day_first", **form},
        content_type="multipart/form-data",
    )


def confirm(client: FlaskClient, code: str, preview_html: str):  # type: ignore[no-untyped-def]
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', preview_html)
    assert token, preview_html
    return client.post(f"/leagues/{code}/import/confirm", data={"token": token.group(1)})


def problems(html: str) -> list[tuple[int, str]]:
    return [
        (int(line), message.strip())
        for line, message in re.findall(r"<strong>Line (\d+):</strong>([^<]*)</li>", html)
    ]


def test_export_json_holds_everything_but_the_passphrase(client: FlaskClient) -> None:
    code, ids, _ = hand_league(client)
    response = client.get(f"/leagues/{code}/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    document = json.loads(response.data)
    assert document["format"] == "scorekeeper-league" and document["version"] == 1
    assert document["league"]["name"] == "Thursday Club"
    assert "passphrase" not in json.dumps(document["league"])
    assert {p["name"] for p in document["players"]} == set(ids)
    assert len(document["nights"]) == 3
    games = [game for night in document["nights"] for game in night["games"]]
    assert len(games) == 5
    first = games[0]
    assert first["table"] == "Table 1" and first["status"] == "finished"
    assert [s["points"] for s in first["rounds"][0]["scores"]] == [50, 80, 80, 120]


def test_export_zip_has_a_csv_for_everything(client: FlaskClient) -> None:
    code, _, _ = hand_league(client)
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="3"))
    response = client.get(f"/leagues/{code}/export.zip")
    assert response.status_code == 200 and response.mimetype == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.data))
    assert set(archive.namelist()) == {
        "README.txt",
        "scores.csv",
        "games.csv",
        "standings.csv",
        "players.csv",
        "nights.csv",
        "seasons.csv",
        "rules.csv",
    }
    scores = list(csv.DictReader(io.StringIO(archive.read("scores.csv").decode("utf-8-sig"))))
    assert len(scores) == 18  # 18 seats, one round each
    assert scores[0]["night"] == "2024-01-04" and scores[0]["player"] == "Ann"
    games = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))
    fay = [row for row in games if row["player"] == "Fay"]
    assert [row["place_at_table"] for row in fay] == ["1", "2", "2"]
    standings = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode("utf-8-sig"))))
    assert [row["player"] for row in standings if row["rank"]] == ["Fay", "Ann", "Cy", "Bob"]
    # Players not ranked yet follow, without a rank, saying why.
    waiting = {row["player"]: row["note"] for row in standings if not row["rank"]}
    assert waiting == {name: "not ranked: 2 games of the 3 needed to be ranked" for name in waiting}
    assert set(waiting) == {"Di", "Ed", "Gus"}


def test_import_shows_a_preview_and_writes_nothing_until_confirmed(client: FlaskClient) -> None:
    code = start_league(client)
    response = upload(client, code, GOOD)
    assert response.status_code == 200
    page = text_of(response.get_data(as_text=True))
    assert "Ready to import" in page
    assert "New players (4): Ann, Bob, Cy, Di" in page
    assert "Nights 1" in page and "Games 2" in page and "Rounds 3" in page
    assert "No nights yet" in client.get(f"/leagues/{code}/nights").get_data(as_text=True)
    done = confirm(client, code, response.get_data(as_text=True))
    assert done.status_code == 302
    nights = text_of(client.get(f"/leagues/{code}/nights").get_data(as_text=True))
    assert "Thursday 4 Jan 2024" in nights and "4 players, 2 games" in nights
    client.post(f"/leagues/{code}/settings", data=settings_data(ranking="wins"))
    rows = standings_rows(client, f"/leagues/{code}?season=all")
    assert [(name, value) for _, name, value in rows] == [
        ("Di", "1"),  # one win in one game each; then the lower average: Di 0, Ann 14
        ("Ann", "1"),
        ("Cy", "0"),
        ("Bob", "0"),
    ]
    # The same file again: refused, because those tables are in the league now.
    again = upload(client, code, GOOD)
    assert again.status_code == 422
    assert "already in this league" in again.get_data(as_text=True)
    # A used preview cannot be confirmed twice.
    assert confirm(client, code, response.get_data(as_text=True)).status_code == 302
    assert "already imported" in client.get(f"/leagues/{code}/nights").get_data(as_text=True)


def test_every_bad_row_is_reported_with_its_line_number(client: FlaskClient) -> None:
    code = start_league(client)
    sheet = """night,table,player,round,score
2024-01-04,Table 1,Ann,1,0
2024-01-04,Table 1,Bob,1,twelve
31/02/2024,Table 1,Bob,1,12
2024-01-04,,Cy,1,4
2024-01-04,Table 1,Ann,1,5
2024-01-04,Table 1,Ann,x,5
2024-01-04,Table 2,Di,1,0
2024-01-04,Table 2,Ed,1,0
2024-01-04,Table 2,Di,2,3
2024-01-04,Table 2,Ed,2,4
2024-01-04,Table 3,Flo,1,4
2024-01-04,Table 4,Gus,14,4
2024-01-04,Table 4,Hal,14,4
"""
    response = upload(client, code, sheet)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Nothing was imported" in html
    found = problems(html)
    lines = [line for line, _ in found]
    assert lines == sorted(lines)
    by_line = dict(found)
    assert "the score “twelve” is not a whole number" in by_line[3].lower()
    assert "not a date" in by_line[4]
    assert "table is missing" in by_line[5]
    assert "Ann already has a score for round 1 at Table 1" in by_line[6]
    assert "(line 2)" in by_line[6]
    assert "round “x” is not a number" in by_line[7]
    assert "Table 3" in by_line[12] and "only one player" in by_line[12]
    assert "Round 14, but this league's games have 13 rounds" in by_line[13].replace("&#39;", "'")
    assert "Table 1 on 4 Jan 2024 has only one player" in by_line[2]
    assert "No nights yet" in client.get(f"/leagues/{code}/nights").get_data(as_text=True)


def test_a_gap_in_the_rounds_is_reported(client: FlaskClient) -> None:
    code = start_league(client)
    sheet = "night,table,player,round,score\n" + "".join(
        f"2024-01-04,T1,{name},{number},3\n" for number in (1, 3) for name in ("Ann", "Bob")
    )
    html = upload(client, code, sheet).get_data(as_text=True)
    assert (2, "T1 on 4 Jan 2024: round 2 is missing.") in problems(html)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "The file is empty."),
        ("night,table,player\n2024-01-04,T,Ann\n", "Missing: round, score"),
        ("night,table,player,round,score\n", "no scores"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not a CSV file"),
        (b"PK\x03\x04broken", "cannot be read"),
    ],
)
def test_files_that_are_not_score_sheets_get_a_message(
    client: FlaskClient, content: str | bytes, message: str
) -> None:
    code = start_league(client)
    response = upload(client, code, content)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_no_file_chosen(client: FlaskClient) -> None:
    code = start_league(client)
    response = client.post(f"/leagues/{code}/import", data={"dates": "day_first"})
    assert response.status_code == 422
    assert "Choose the file to import: a CSV file, or a league" in response.get_data(as_text=True)


def test_spreadsheet_habits_are_understood(client: FlaskClient) -> None:
    """Semicolons, a byte-order mark, other column names and order, day-first dates, blank
    lines, a went_out column and a guest."""
    code = start_league(client)
    sheet = (
        "\ufeffName;Points;Round;Table;Date;Went out;Guest\n"
        "Ann;0;1;A;04/01/2024;yes;\n"
        "Bob;0;1;A;04/01/2024;;yes\n"
        "\n"
        "Ann;7;2;A;04/01/2024;;\n"
        "Bob;3;2;A;04/01/2024;x;yes\n"
    ).encode("utf-8")
    response = upload(client, code, sheet)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert confirm(client, code, response.get_data(as_text=True)).status_code == 302
    nights = text_of(client.get(f"/leagues/{code}/nights").get_data(as_text=True))
    assert "Thursday 4 Jan 2024" in nights
    players = client.get(f"/leagues/{code}/players").get_data(as_text=True)
    assert "Guests (1)" in players
    month_first = upload(
        client, code, GOOD.replace("2024-01-04", "01/11/2024"), dates="month_first"
    )
    assert "Monday 11 Nov 2024" not in month_first.get_data(as_text=True)
    assert "11 Jan 2024" in month_first.get_data(as_text=True)


METHODS = [{"ranking": "average", "min_games": 2}, {"ranking": "wins"}, {"ranking": "points"},
           {"ranking": "points", "best_nights": 2}, {"ranking": "rating"}]  # fmt: skip


def test_round_trip_export_then_import_into_an_empty_league(client: FlaskClient) -> None:
    code, _, _ = hand_league(client)
    client.post(
        f"/leagues/{code}/seasons",
        data={"name": "January", "starts_on": "2024-01-01", "ends_on": "2024-01-31"},
    )
    exported = client.get(f"/leagues/{code}/export.zip").data
    other = client.application.test_client()
    copy = start_league(other, "Copy")
    preview = upload(other, copy, exported, name="export.zip")
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert confirm(other, copy, preview.get_data(as_text=True)).status_code == 302
    for settings in METHODS:
        client.post(f"/leagues/{code}/settings", data=settings_data(**settings))
        other.post(f"/leagues/{copy}/settings", data=settings_data(name="Copy", **settings))
        original = standings_rows(client, f"/leagues/{code}?season=all")
        assert original, settings
        assert standings_rows(other, f"/leagues/{copy}?season=all") == original, settings
    # The season came along too, and so did the scores CSV itself.
    assert "January" in other.get(f"/leagues/{copy}/seasons").get_data(as_text=True)
    again = zipfile.ZipFile(io.BytesIO(other.get(f"/leagues/{copy}/export.zip").data))
    first = zipfile.ZipFile(io.BytesIO(exported))
    assert again.read("scores.csv") == first.read("scores.csv")


def test_the_command_line_exports_and_imports(  # type: ignore[no-untyped-def]
    client: FlaskClient, runner: FlaskCliRunner, tmp_path
) -> None:
    code, _, _ = hand_league(client)
    target = tmp_path / "league.zip"
    result = runner.invoke(args=["league-export", code, str(target)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["league-export", code, str(tmp_path / "league.json")])
    assert json.loads((tmp_path / "league.json").read_text())["format"] == "scorekeeper-league"
    copy = start_league(client.application.test_client(), "Copy")
    result = runner.invoke(args=["league-import", copy, str(target)])
    assert result.exit_code == 0, result.output
    assert "5 games" in result.output
    result = runner.invoke(args=["league-import", copy, str(target)])
    assert result.exit_code != 0 and "already in this league" in result.output
    # The JSON export imports too (issue 36, item 21).
    other = start_league(client.application.test_client(), "Other")
    result = runner.invoke(args=["league-import", other, str(tmp_path / "league.json")])
    assert result.exit_code == 0, result.output
    assert "5 games" in result.output
    assert runner.invoke(args=["league-export", "NOPE99", str(target)]).exit_code != 0

"""Files an outsider can make the app write or read: CSV cells a spreadsheet would run, zip
bombs and endless files on import, NUL bytes inside an imported sheet."""

from __future__ import annotations

import csv
import io
import random
import tracemalloc
import zipfile
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from flask.testing import EnvironBuilder, FlaskClient

from scorekeeper.leagues import transfer
from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night
from tests.web.test_leagues_transfer import GOOD, confirm, upload

FORMULAS = ['=HYPERLINK("http://e.x","c")', "+SUM(A1)", "@cmd", "-2+3"]
MEMORY_BOUND = 64 * 2**20  # bytes a hostile import may cost the server at most


def csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_game_csv_cells_never_run_in_a_spreadsheet(client: FlaskClient) -> None:
    game = start_game(client, FORMULAS)
    response = enter_round(client, game, points={0: 0, 1: 10, 2: 20, 3: 30}, went_out=0)
    assert response.status_code == 302
    rows = csv_rows(client.get(f"/g/{game}/game.csv").data)
    names = [row[2] for row in rows[1:]]
    assert names == ["'" + name for name in FORMULAS]
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    points = rows[0].index("points")
    assert [row[points] for row in rows[1:]] == ["0", "10", "20", "30"]  # numbers stay numbers


def test_league_zip_is_neutralised_and_imports_back_exactly(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, FORMULAS)
    assert len(ids) == len(FORMULAS)
    night = start_night(client, code, place="=cmd|' /C calc'!A0")
    game = add_table(client, code, night, list(ids.values()), table_name="@Table")
    play(client, game, [0, 10, 20, 30])
    exported = client.get(f"/leagues/{code}/export.zip").data
    archive = zipfile.ZipFile(io.BytesIO(exported))
    for name in archive.namelist():
        if name.endswith(".csv"):
            for row in csv_rows(archive.read(name)):
                assert all(not cell.startswith(("=", "+", "@")) for cell in row), (name, row)
                assert all(not cell.startswith("-") or cell.lstrip("-").isdigit() for cell in row)
    scores = csv_rows(archive.read("scores.csv"))
    assert {row[4] for row in scores[1:]} == {"'" + name for name in FORMULAS}

    other = client.application.test_client()
    copy = start_league(other, "Copy")
    preview = upload(other, copy, exported, name="export.zip")
    assert preview.status_code == 200, preview.get_data(as_text=True)
    assert confirm(other, copy, preview.get_data(as_text=True)).status_code == 302
    again = zipfile.ZipFile(io.BytesIO(other.get(f"/leagues/{copy}/export.zip").data))
    assert again.read("scores.csv") == archive.read("scores.csv")
    assert sorted(csv_rows(again.read("players.csv"))) == sorted(
        csv_rows(archive.read("players.csv"))
    )


def peak_memory(action: Callable[[], Any]) -> tuple[Any, int]:
    """What ``action`` returns and the most memory it held at once (Python allocations)."""
    tracemalloc.start()
    try:
        result = action()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def big_upload(client: FlaskClient, code: str, data: bytes, name: str = "sheet.csv") -> Any:
    """``upload`` for files over 500 KB: the test client spools those to a temporary file it
    never closes, so this closes it."""
    builder = EnvironBuilder(
        client.application,
        f"/leagues/{code}/import",
        method="POST",
        data={"file": (io.BytesIO(data), name), "dates": "day_first"},
        content_type="multipart/form-data",
    )
    try:
        environ = builder.get_environ()
    finally:
        builder.close()
    try:
        return client.open(environ)
    finally:
        environ["wsgi.input"].close()


def bomb(member_bytes: int, name: str = "scores.csv") -> bytes:
    """A .zip whose one CSV file is a header and then ``member_bytes`` of empty lines."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open(name, "w", force_zip64=True) as member,
    ):
        member.write(b"night,table,player,round,score\n")
        chunk = b"\n" * 2**20
        for _ in range(member_bytes // len(chunk)):
            member.write(chunk)
    return buffer.getvalue()


def test_a_zip_bomb_is_refused_before_it_is_unpacked(client: FlaskClient) -> None:
    code = start_league(client)
    data = bomb(256 * 2**20)
    assert len(data) < 400_000  # 256 MB of newlines in a few hundred KB
    response, peak = peak_memory(lambda: big_upload(client, code, data, "league.zip"))
    assert response.status_code == 422
    assert "scores.csv in this .zip is too big: at most 12 MB a file." in response.get_data(
        as_text=True
    )
    assert peak < MEMORY_BOUND, peak


def test_a_zip_packed_too_tightly_is_refused(client: FlaskClient) -> None:
    code = start_league(client)
    response, peak = peak_memory(lambda: big_upload(client, code, bomb(8 * 2**20), "league.zip"))
    assert response.status_code == 422
    assert "packed too tightly to be a league export" in response.get_data(as_text=True)
    assert peak < MEMORY_BOUND, peak


def test_all_files_of_a_zip_together_have_a_cap(client: FlaskClient) -> None:
    code = start_league(client)
    # Text of four letters shrinks about four times: no ratio to catch, each file under 12 MB.
    block = "".join(random.Random(7).choices("ACGT", k=256 * 1024)).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("scores.csv", GOOD)
        for index in range(3):
            archive.writestr(f"notes-{index}.txt", block * 40)
    assert len(buffer.getvalue()) < transfer.MAX_IMPORT_BYTES
    response, peak = peak_memory(lambda: big_upload(client, code, buffer.getvalue(), "league.zip"))
    assert response.status_code == 422
    assert "This .zip holds too much: at most 24 MB unpacked." in response.get_data(as_text=True)
    assert peak < 4 * len(buffer.getvalue()), peak


def test_a_file_of_endless_empty_lines_is_refused_quickly(client: FlaskClient) -> None:
    code = start_league(client)
    data = b"night,table,player,round,score\n" + b"\n" * (10 * 2**20)
    response, peak = peak_memory(lambda: big_upload(client, code, data))
    assert response.status_code == 422
    assert "more than 300,000 lines" in response.get_data(as_text=True)
    assert peak < 6 * len(data), peak


def test_nul_bytes_inside_an_imported_sheet_are_removed(client: FlaskClient) -> None:
    code = start_league(client)
    days = [date(2024, 1, 1) + timedelta(days=n) for n in range(90)]
    padding = "night,table,player,round,score\n" + "".join(
        f"{day},Table 1,Ann,1,0\n{day},Table 1,Bob,1,5\n" for day in days
    )
    # Past the first 4 KB, where the check for binary files looks.
    data = (padding + "2024-06-01,Ta\x00ble 9,A\x00nn,1,0\n2024-06-01,Table 9,Bob,1,5\n").encode()
    assert data.index(b"\x00") > 4096
    preview = upload(client, code, data)
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200, page
    assert confirm(client, code, page).status_code == 302
    players = client.get(f"/leagues/{code}/players").get_data(as_text=True)
    assert "Ann" in players and "\x00" not in players
    assert "A\x00nn" not in players
    night = client.get(f"/leagues/{code}/nights").get_data(as_text=True)
    assert "\x00" not in night

"""Ordinary input that used to give a 500 (issue 22, item 4): a place with quotes or letters
outside Latin-1 in a polled page's ETag, a league's own name in a download's file name, a
long cell in an import, unknown query parameters, a ``next`` that would break a header."""

from __future__ import annotations

import io
import re
import zipfile
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient

from tests.web.helpers import start_game
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night

PLACES = ["Łódź Café", "Pub ☕", 'The "Anchor"', "Bar\\Ü"]


def _public_token(client: FlaskClient, code: str) -> str:
    client.post(f"/leagues/{code}/settings/public", data={"action": "on"})
    settings = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    return re.search(r'/p/([A-Za-z0-9_-]+)"', settings).group(1)  # type: ignore[union-attr]


@pytest.mark.parametrize("place", PLACES)
def test_a_place_of_any_letters_polls_with_an_opaque_etag(client: FlaskClient, place: str) -> None:
    code = start_league(client)
    night = start_night(client, code, place=place)
    token = _public_token(client, code)
    for url in (f"/leagues/{code}/nights/{night}/live", f"/p/{token}/nights/{night}/live"):
        first = client.get(url)
        assert first.status_code == 200, url
        etag = first.headers["ETag"]
        assert re.fullmatch(r'W/"[0-9a-f]{24}"', etag), etag
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    # A changed place is a changed page.
    client.post(
        f"/leagues/{code}/nights/{night}/edit", data={"played_on": "2025-03-06", "place": "Hall"}
    )
    changed = client.get(f"/leagues/{code}/nights/{night}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200


@pytest.mark.parametrize("extension", ["json", "zip"])
def test_a_league_named_in_any_letters_downloads_under_its_name(
    client: FlaskClient, extension: str
) -> None:
    code = start_league(client, "Клуб Łódź")
    response = client.get(f"/leagues/{code}/export.{extension}")
    assert response.status_code == 200
    header = response.headers["Content-Disposition"]
    header.encode("latin-1")  # what a header may carry
    fallback = re.search(r'filename="([^"]+)"', header).group(1)  # type: ignore[union-attr]
    assert fallback.isascii() and fallback.startswith("odz-") and fallback.endswith(extension)
    full = re.search(r"filename\*=UTF-8''(\S+)", header).group(1)  # type: ignore[union-attr]
    assert unquote(full).startswith("клуб-łódź-") and unquote(full).endswith(f".{extension}")


def test_a_plain_league_name_keeps_its_plain_file_name(client: FlaskClient) -> None:
    code = start_league(client, "Thursday Club")
    header = client.get(f"/leagues/{code}/export.json").headers["Content-Disposition"]
    assert re.fullmatch(r'attachment; filename="thursday-club-\d{4}-\d\d-\d\d\.json"', header)


SCORES = "date,place,table,player,round,points\n2024-01-04,Hall,Table 1,Ann,1,0\n"


@pytest.mark.parametrize(
    ("member", "text"),
    [
        ("players.csv", "name,status\n" + "A" * 140_000 + ",roster\n"),
        ("seasons.csv", "name,starts_on,ends_on\n" + '"' + "x" * 140_000 + '",2024-01-01,x\n'),
    ],
)
def test_an_overlong_cell_in_an_export_zip_is_a_clear_refusal(
    client: FlaskClient, member: str, text: str
) -> None:
    code = start_league(client)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("scores.csv", SCORES)
        archive.writestr(member, text)
    response = client.post(
        f"/leagues/{code}/import",
        data={"file": (io.BytesIO(buffer.getvalue()), "league.zip"), "dates": "day_first"},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert f"{member} in this .zip cannot be read as CSV" in page


@pytest.mark.parametrize(
    "query",
    [
        "season=all&code=x",
        "player_id=3",
        "_method=POST",
        "_external=1",
        "token=x",
        "_anchor=x&_scheme=https&games=some",
    ],
)
def test_a_player_page_takes_only_the_parameters_it_knows(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    from scorekeeper.leagues.views import roster

    monkeypatch.setattr(roster, "LATEST_GAMES", 0)  # "Show all" from the first game on
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    play(client, add_table(client, code, night, [ids["Ann"], ids["Bob"]]), [0, 12])
    token = _public_token(client, code)
    for base in (f"/leagues/{code}/players/{ids['Ann']}", f"/p/{token}/players/{ids['Ann']}"):
        response = client.get(f"{base}?{query}")
        assert response.status_code == 200, (base, query)
        page = response.get_data(as_text=True)
        link = re.search(r'href="([^"]*)"[^>]*>Show all', page).group(1)  # type: ignore[union-attr]
        assert link.startswith(f"{base}?"), link  # on this site, on this page


def test_the_show_all_link_keeps_the_period_and_only_the_period(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.leagues.views import roster

    monkeypatch.setattr(roster, "LATEST_GAMES", 0)  # "Show all" from the first game on
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    play(client, add_table(client, code, night, [ids["Ann"], ids["Bob"]]), [0, 12])
    page = client.get(
        f"/leagues/{code}/players/{ids['Ann']}?season=all&code=x&_external=1"
    ).get_data(as_text=True)
    link = re.search(r'href="([^"]*)"[^>]*>Show all', page).group(1)  # type: ignore[union-attr]
    assert link.startswith(f"/leagues/{code}/players/{ids['Ann']}?")
    assert "season=all" in link and "games=all" in link
    assert "code=" not in link and "external" not in link


def _edit_code(client: FlaskClient, public_id: str) -> str:
    from scorekeeper.games import services

    with client.application.app_context():
        game = services.load_game(public_id)
        assert game is not None
        return game.edit_code


@pytest.mark.parametrize(
    ("next_path", "lands_on"),
    [
        ("/g/{id}%0d%0aX:y", "/g/{id}"),
        ("/g/{id}%0aSet-Cookie:x=1", "/g/{id}"),
        ("/g/{id}/scoreboard", "/g/{id}/scoreboard"),
        ("/g/{id}/round?x=1", "/g/{id}/round?x=1"),
        ("//evil.example/g/{id}", "/g/{id}"),
        ("/g/{id}extra", "/g/{id}"),
        ("/g/{id}/%C3%A9", "/g/{id}"),
        ("/g/{id}\\evil", "/g/{id}"),
    ],
)
def test_unlocking_a_game_goes_to_a_page_of_that_game_only(
    client: FlaskClient, next_path: str, lands_on: str
) -> None:
    game = start_game(client, ["Ann", "Bob"])
    phone = client.application.test_client()
    url = f"/g/{game}/unlock?next={next_path.format(id=game)}"
    response = phone.post(url, data={"code": _edit_code(client, game)})
    assert response.status_code == 302
    assert response.headers["Location"] == lands_on.format(id=game)


def test_unlocking_a_league_with_a_header_breaking_next_lands_on_the_league(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    phone = client.application.test_client()
    response = phone.post(
        f"/leagues/{code}/unlock?next=/leagues/{code}%0d%0aX:y",
        data={"passphrase": "blue engine 7"},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"/leagues/{code}"

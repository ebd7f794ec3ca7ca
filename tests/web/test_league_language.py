"""A league's default language (issue 25): its pages and its members' link follow it for
phones that chose none, whatever their own language; a phone's own choice still wins."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from scorekeeper.extensions import db
from scorekeeper.models import League
from tests.conftest import make_app
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night
from tests.web.test_leagues import settings_data

LANGUAGE_MIGRATION = "f3a8c51d92b6"


def _lang(html: str) -> str:
    match = re.search(r'<html[^>]* lang="([^"]+)"', html)
    assert match, "the page names its language"
    return match.group(1)


def _saved(client: FlaskClient, code: str) -> str | None:
    with client.application.app_context():
        return db.session.query(League).filter_by(code=code).one().language


def _checked_language(html: str) -> str:
    match = re.search(r'<input checked [^>]*name="language"[^>]*value="([^"]*)"', html)
    assert match, "one language is chosen"
    return match.group(1)


def _spanish_league(client: FlaskClient) -> tuple[str, int]:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code, "2024-01-04")
    add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    response = client.post(f"/leagues/{code}/settings", data=settings_data(language="es"))
    assert response.status_code == 302, response.get_data(as_text=True)
    return code, night


def _members_link(client: FlaskClient, code: str) -> str:
    page = client.get(f"/leagues/{code}/manage").get_data(as_text=True)
    match = re.search(rf'href="https?://[^/"]+(/leagues/{code}/members/[^/"]+)"', page)
    assert match
    return match.group(1)


def test_the_setting_is_saved_and_shown(client: FlaskClient) -> None:
    code = start_league(client)
    page = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    assert _checked_language(page) == ""
    assert '<span lang="fr">Français</span>' in page
    client.post(f"/leagues/{code}/settings", data=settings_data(language="fr"))
    assert _saved(client, code) == "fr"
    page = client.get(f"/leagues/{code}/settings", headers={"Cookie": "lang=en"})
    assert _checked_language(page.get_data(as_text=True)) == "fr"
    # Back to each phone's own; a language that is not offered is the same.
    client.post(f"/leagues/{code}/settings", data=settings_data(language=""))
    assert _saved(client, code) is None
    client.post(f"/leagues/{code}/settings", data=settings_data(language="de"))
    assert _saved(client, code) is None


def test_only_the_organiser_sets_it(client: FlaskClient) -> None:
    code = start_league(client)
    phone = client.application.test_client()
    assert phone.get(_members_link(client, code)).status_code == 302
    response = phone.post(f"/leagues/{code}/settings", data=settings_data(language="es"))
    assert response.status_code == 403
    assert _saved(client, code) is None
    stranger = client.application.test_client()
    response = stranger.post(f"/leagues/{code}/settings", data=settings_data(language="es"))
    assert response.status_code == 403
    assert _saved(client, code) is None


def test_a_spanish_league_speaks_spanish_unless_the_phone_chose(client: FlaskClient) -> None:
    code, night = _spanish_league(client)
    for headers in ({}, {"Accept-Language": "en"}, {"Accept-Language": "fr,en;q=0.5"}):
        page = client.get(f"/leagues/{code}", headers=headers).get_data(as_text=True)
        assert _lang(page) == "es", headers
        assert "<h1>Clasificación</h1>" in page  # the league's catalogs (make translations)
        night_page = client.get(f"/leagues/{code}/nights/{night}", headers=headers)
        # The night's date in the page's language (format_date: needs no catalog).
        assert "Jueves 4 ene 2024" in night_page.get_data(as_text=True)
    client.set_cookie("lang", "fr")
    page = client.get(f"/leagues/{code}").get_data(as_text=True)
    assert _lang(page) == "fr"
    assert "<h1>Classement</h1>" in page
    night_page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    assert "Jeudi 4 janv. 2024" in night_page
    client.set_cookie("lang", "en")
    page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    assert _lang(page) == "en"
    assert "Thursday 4 Jan 2024" in page


def test_a_league_without_a_language_follows_each_phone(client: FlaskClient) -> None:
    code = start_league(client)
    assert _lang(client.get(f"/leagues/{code}").get_data(as_text=True)) == "en"
    page = client.get(f"/leagues/{code}", headers={"Accept-Language": "fr"})
    assert _lang(page.get_data(as_text=True)) == "fr"


def test_the_members_link_follows_the_league(client: FlaskClient) -> None:
    code, _night = _spanish_league(client)
    link = _members_link(client, code)
    phone = client.application.test_client()
    response = phone.get(link, headers={"Accept-Language": "en"}, follow_redirects=True)
    assert response.status_code == 200
    assert _lang(response.get_data(as_text=True)) == "es"
    assert "Este teléfono ya puede seguir Thursday Club" in response.get_data(as_text=True)
    # Even a members' link out of date answers in the league's language.
    stale = phone.get(link[:-3] + "xyz", headers={"Accept-Language": "en"})
    assert stale.status_code == 410
    assert _lang(stale.get_data(as_text=True)) == "es"


def test_a_league_table_follows_its_league(client: FlaskClient) -> None:
    code, night = _spanish_league(client)
    page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    table = re.search(r'href="/g/([A-Za-z0-9_-]+)', page)
    assert table
    response = client.get(f"/g/{table.group(1)}", headers={"Accept-Language": "en"})
    assert _lang(response.get_data(as_text=True)) == "es"


def test_the_migration_adds_and_removes_the_column(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'lang.sqlite'}")
    with app.app_context():
        upgrade()
        assert "language" in {c["name"] for c in inspect(db.engine).get_columns("league")}
        downgrade(revision="e21a31c0e4d7")
        assert "language" not in {c["name"] for c in inspect(db.engine).get_columns("league")}
        upgrade(revision=LANGUAGE_MIGRATION)
        assert "language" in {c["name"] for c in inspect(db.engine).get_columns("league")}
        db.session.remove()
        db.engine.dispose()


def test_an_export_in_spanish_imports_anywhere(client: FlaskClient) -> None:
    """The export's README is in the exporter's language; what the import reads back (file
    names, columns, yes / no, the game's kind, dates) stays English, so a league exported by a
    Spanish phone imports on a French one."""
    code, night = _spanish_league(client)
    table = re.search(
        r'href="/g/([A-Za-z0-9_-]+)', client.get(f"/leagues/{code}/nights/{night}").text
    )
    assert table
    play(client, table.group(1), [0, 25])
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/leagues/{code}/export.zip").data))
    assert "Exportación de liga de Scorekeeper" in archive.read("README.txt").decode()
    scores = archive.read("scores.csv").decode("utf-8-sig")
    assert scores.startswith("night,place,table,game,player,guest,round")
    assert ",yes," in scores and ",mexican_train," in scores
    other = start_league(client, "Club de Lyon")
    client.set_cookie("lang", "fr")
    preview = client.post(
        f"/leagues/{other}/import",
        data={"file": (io.BytesIO(client.get(f"/leagues/{code}/export.zip").data), "x.zip")},
        content_type="multipart/form-data",
    )
    assert preview.status_code == 200, preview.text
    assert "Prêt à importer" in preview.text
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', preview.text)
    assert token
    done = client.post(f"/leagues/{other}/import/confirm", data={"token": token.group(1)})
    assert done.status_code == 302
    nights = client.get(f"/leagues/{other}/nights").text
    assert "Jeudi 4 janv. 2024" in nights

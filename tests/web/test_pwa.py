"""The installable app: the manifest, the service worker and the page shown without signal."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.web import static_files
from tests.conftest import running_app

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_every_page_links_the_manifest_and_the_offline_script(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    # Static files go by their hashed names (scorekeeper/web/static_files.py).
    assert re.search(r'src="/static/js/offline\.[0-9a-f]{12}\.js" data-worker="/sw\.js"', page)
    assert 'id="phone-status"' in page and 'aria-live="polite"' in page


def test_manifest_makes_the_app_installable(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == "image/png"
        width, height = int.from_bytes(image.data[16:20]), int.from_bytes(image.data[20:24])
        assert f"{width}x{height}" == icon["sizes"]
        image.close()


def test_service_worker_is_served_from_the_root_with_its_shell(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    first_line, source = response.get_data(as_text=True).split("\n", 1)
    settings = json.loads(first_line.removeprefix("self.SCOREKEEPER = ").removesuffix(";"))
    assert source == (STATIC / "sw.js").read_text()
    shell = {re.sub(r"\.[0-9a-f]{12}\.", ".", address) for address in settings["shell"]}
    assert {"/", "/offline", "/static/css/app.css", "/static/js/offline.js"} <= shell
    assert "/static/sw.js" not in settings["shell"]
    for address in settings["shell"]:
        shell_file = client.get(address)
        assert shell_file.status_code == 200, address
        shell_file.close()


def test_a_changed_static_file_changes_the_worker_version() -> None:
    files = {"sw.js": b"// worker", "app.css": b"body {}"}
    before = static_files.manifest(files)[0]
    assert static_files.manifest({**files, "app.css": b"body { color: red }"})[0] != before
    assert static_files.manifest({**files, "sw.js": b"// new worker"})[0] != before


def test_offline_page_says_what_is_kept(client: FlaskClient) -> None:
    page = client.get("/offline").get_data(as_text=True)
    assert "No signal" in page
    assert "sent by themselves when the signal is back" in page


# ---------------------------------------------------------------------------------------------
# Languages (issue 25): the pseudo-language marks every translated sentence ⟦…⟧.


@pytest.fixture
def pseudo_client(migrated_database: str) -> Iterator[FlaskClient]:
    with running_app(migrated_database, PSEUDO_LOCALE=True) as app:
        client = app.test_client()
        client.set_cookie("lang", "pseudo")
        yield client


def test_the_manifest_speaks_the_phones_language(pseudo_client: FlaskClient) -> None:
    response = pseudo_client.get("/manifest.webmanifest")
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"].startswith("⟦") and manifest["description"].startswith("⟦")
    assert manifest["short_name"] == "Scorekeeper"
    assert {"Cookie", "Accept-Language"} <= set(response.vary)


def test_the_worker_keeps_no_signal_and_the_catalogs_in_every_language(
    pseudo_client: FlaskClient,
) -> None:
    first_line = pseudo_client.get("/sw.js").get_data(as_text=True).split("\n", 1)[0]
    settings = json.loads(first_line.removeprefix("self.SCOREKEEPER = ").removesuffix(";"))
    assert set(settings["offlinePages"]) == {"en", "es", "fr", "pseudo"}
    assert set(settings["offlinePages"].values()) <= set(settings["shell"])
    catalogs = [a for a in settings["shell"] if a.startswith(settings["catalogs"])]
    assert {re.sub(r"\?.*", "", a) for a in catalogs} == {
        "/i18n/es.js",
        "/i18n/fr.js",
        "/i18n/pseudo.js",
    }
    # The worker's own sentence, in each language but English (the source).
    sentence = "Shown only with signal: it is not kept on this phone."
    assert set(settings["words"]) == {"es", "fr", "pseudo"}
    assert settings["words"]["pseudo"][sentence].startswith("⟦")
    assert f't("{sentence}"' in (STATIC / "sw.js").read_text()


def test_no_signal_page_in_a_chosen_language(pseudo_client: FlaskClient) -> None:
    pseudo_client.set_cookie("lang", "en")  # the address's language wins over the phone's
    response = pseudo_client.get("/offline/pseudo")
    assert response.status_code == 200
    assert "⟦Ñö sîgñàl" in response.get_data(as_text=True)
    english = pseudo_client.get("/offline/en")
    assert "<h1>No signal</h1>" in english.get_data(as_text=True)
    assert english.headers["Content-Language"] == "en"
    assert pseudo_client.get("/offline/xx").status_code == 404


def test_pages_say_their_language(client: FlaskClient) -> None:
    assert client.get("/offline").headers["Content-Language"] == "en"
    client.set_cookie("lang", "es")
    assert client.get("/offline").headers["Content-Language"] == "es"

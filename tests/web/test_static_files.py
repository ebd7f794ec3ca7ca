"""Static files: hashed names kept for a year, precompressed copies, compressed pages, and the
same security headers as every page; a compressed poll answer still gets its 304."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.web.static_files import build
from tests.web.helpers import start_game


def fetch(client: FlaskClient, url: str, **headers: str) -> TestResponse:
    """A static file's answer, read and closed (WhiteNoise sends an open file)."""
    response = client.get(url, headers=headers)
    response.get_data()
    response.close()
    return response


HASHED = re.compile(r"/static/css/app\.[0-9a-f]{12}\.css")


def test_pages_link_hashed_files_that_are_kept_for_a_year(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    found = HASHED.search(page)
    assert found, "the page links the stylesheet by its hashed name"
    response = fetch(client, found.group(0))
    assert response.status_code == 200 and response.mimetype == "text/css"
    assert "immutable" in response.headers["Cache-Control"]
    assert int(re.search(r"max-age=(\d+)", response.headers["Cache-Control"]).group(1)) >= (
        365 * 24 * 3600
    )
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    plain = fetch(client, "/static/css/app.css")
    assert plain.status_code == 200 and plain.data == response.data
    assert "immutable" not in plain.headers["Cache-Control"]


def test_the_page_heads_links_follow_the_path_the_app_is_served_under(
    client: FlaskClient,
) -> None:
    """The head's file links and the top bar follow the path the app is served under: behind a
    proxy at /club/ they start with it, and the same process serving at / again does not hand
    out /club/ links."""
    for root in ("/club", "", "/club"):
        page = client.get("/", base_url=f"http://localhost{root}/").get_data(as_text=True)
        stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)"', page)
        assert stylesheet and HASHED.fullmatch(stylesheet.group(1).removeprefix(root))
        assert stylesheet.group(1).startswith(f"{root}/static/")
        assert f'<a class="brand" href="{root}/">' in page
        assert f'href="{root}/games/new"' in page


def test_files_and_pages_travel_compressed(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    htmx = re.search(r"/static/vendor/htmx-[0-9.]+min\.[0-9a-f]{12}\.js", page)
    assert htmx
    plain = fetch(client, htmx.group(0))
    for encoding in ("br", "gzip"):
        packed = fetch(client, htmx.group(0), **{"Accept-Encoding": encoding})
        assert packed.headers["Content-Encoding"] == encoding
        assert len(packed.data) < len(plain.data) / 2
        assert "Accept-Encoding" in packed.headers["Vary"]
    html = client.get("/games/new", headers={"Accept-Encoding": "gzip"})
    assert html.status_code == 200 and html.headers["Content-Encoding"] == "gzip"
    assert client.get("/games/new").headers.get("Content-Encoding") is None


def test_a_compressed_share_view_still_answers_unchanged(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    url = f"/g/{public_id}/watch/board"
    first = client.get(url, headers={"Accept-Encoding": "br, gzip"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "br"
    again = client.get(
        url, headers={"Accept-Encoding": "br, gzip", "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304


def test_old_builds_of_the_static_files_are_removed(tmp_path: Path) -> None:
    """Each deploy that changes a file builds a new version of the served folder; the versions
    before the newest few, and builds a crash left unfinished long ago, are removed when a
    process starts. The current version, the two before it, a build in progress and anything
    else in the folder stay."""
    source = tmp_path / "static"
    (source / "css").mkdir(parents=True)
    (source / "css" / "app.css").write_text("body { color: black }")
    target = tmp_path / "instance-static"
    now = time.time()
    folders = []
    for age, colour in enumerate(["red", "green", "blue", "navy", "teal"]):
        (source / "css" / "app.css").write_text(f"body {{ color: {colour} }}")
        folder, _ = build(source, target)
        stamp = now - 86400 * (10 - age)  # built on five days, oldest first
        os.utime(folder / ".complete", (stamp, stamp))
        folders.append(folder)
    crashed = target / ".build-crashed"
    crashed.mkdir()
    os.utime(crashed, (now - 2 * 3600, now - 2 * 3600))
    building = target / ".build-now"
    building.mkdir()
    (target / "notes.txt").write_text("not ours")

    (source / "css" / "app.css").write_text("body { color: black }")
    served, names = build(source, target)

    assert (served / names["css/app.css"]).read_text() == "body { color: black }"
    remaining = sorted(path.name for path in target.iterdir())
    assert remaining == sorted(
        [served.name, folders[-1].name, folders[-2].name, ".build-now", "notes.txt"]
    )
    # A restart with nothing changed prunes too (here, a version left by an older release),
    # and keeps what it serves.
    left = target / "0123456789abcdef"
    left.mkdir()
    (left / ".complete").write_text("0123456789abcdef")
    os.utime(left / ".complete", (now - 86400 * 30, now - 86400 * 30))
    assert build(source, target)[0] == served and served.exists()
    assert not left.exists() and folders[-2].exists()

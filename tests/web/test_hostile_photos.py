"""Photos an outsider could use to tie up the server: huge pixel counts refused from the header,
a few readers at a time, a budget per address, a cap on photos waiting in one game."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.games import photos
from scorekeeper.web.rate_limits import BUSY_PHOTOS as BUSY_PHOTOS_TEXT
from tests.conftest import running_app
from tests.web.helpers import start_game
from tests.web.test_photos import NAMES, PIL, _png, _upload, fake_reader  # noqa: F401

BUSY_PHOTOS = str(BUSY_PHOTOS_TEXT)  # the English sentence (lazy in the app)

ALERT = 'class="field-error" role="alert"'


def test_a_huge_png_is_refused_from_its_header_without_decoding(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The PNG of the report: 7200 x 7200 pixels in about 200 KB; decoding it took 600 MB."""
    from PIL import ImageFile

    buffer = io.BytesIO()
    PIL.new("1", (7200, 7200)).save(buffer, format="PNG")
    assert len(buffer.getvalue()) < 300_000
    decoded: list[Any] = []
    real_load = ImageFile.ImageFile.load
    monkeypatch.setattr(
        ImageFile.ImageFile, "load", lambda im: decoded.append(im.size) or real_load(im)
    )
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, buffer.getvalue()).get_data(as_text=True)
    assert ALERT in page
    assert "more than about 25 megapixels for PNG and HEIC photos" in page
    assert decoded == []  # refused from the header: not one pixel was decoded


@pytest.mark.usefixtures("fake_reader")
def test_a_phone_sized_png_is_still_read(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(4032, 3024)).get_data(as_text=True)
    assert ALERT not in page
    assert "Photo reads" in page


@pytest.mark.usefixtures("fake_reader")
def test_when_every_reader_is_busy_the_player_hears_so(migrated_database: str) -> None:
    with running_app(migrated_database, PHOTO_READERS=1, PHOTO_WAIT=0.05) as app:
        client = app.test_client()
        public_id = start_game(client, NAMES)
        with app.app_context():
            readers = photos._readers()
        assert readers.acquire(timeout=1)  # another table's photo is being read
        try:
            page = _upload(client, public_id, _png(), points={2: 17}).get_data(as_text=True)
        finally:
            readers.release()
        assert photos.BUSY in page and ALERT in page
        assert 'value="17"' in page  # what was typed stays
        page = _upload(client, public_id, _png()).get_data(as_text=True)
        assert "Photo reads" in page


@pytest.fixture
def limited_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, RATELIMIT_ENABLED=True) as app:
        yield app


@pytest.mark.usefixtures("fake_reader")
def test_photo_reading_has_a_budget_per_address(limited_app: Flask) -> None:
    client = limited_app.test_client()
    public_id = start_game(client, NAMES)
    for _ in range(12):
        assert "Photo reads" in _upload(client, public_id, _png()).get_data(as_text=True)
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    assert BUSY_PHOTOS in page and ALERT in page
    # Typing a round is not limited by it.
    assert client.get(f"/g/{public_id}/round").status_code == 200


@pytest.mark.usefixtures("fake_reader")
def test_a_game_holds_at_most_forty_waiting_photos(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    for _ in range(40):
        assert "Photo reads" in _upload(client, public_id, _png()).get_data(as_text=True)
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    assert "already has 40 photos waiting for a round" in page and ALERT in page

"""Photo check on round entry: upload errors, the reading filling the tiles, disagreement with a
typed total, keeping or deleting photos with the game's setting."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper.extensions import db
from scorekeeper.games import photos, trash
from scorekeeper.models import Photo
from scorekeeper.rules import Tile
from scorekeeper.vision import Reading, TileReading
from tests.web.helpers import form_token, round_data, round_form_fields, start_game

np = pytest.importorskip("numpy", reason="the photo extra is not installed")
PIL = pytest.importorskip("PIL.Image", reason="the photo extra is not installed")

NAMES = ["Ann", "Bob", "Cy"]


def _png(width: int = 64, height: int = 48) -> bytes:
    buffer = io.BytesIO()
    PIL.new("RGB", (width, height), (30, 90, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


def _reading(
    tiles: list[tuple[int, int]],
    confident: bool = True,
    confidence: float = 0.95,
    advice: list[str] | None = None,
) -> Reading:
    return Reading(
        tiles=[
            TileReading(
                tile=Tile(a, b),
                confidence=confidence,
                corners=((10.0 + i, 10.0), (20.0 + i, 10.0), (20.0 + i, 30.0), (10.0 + i, 30.0)),
                halves=(a, b),
            )
            for i, (a, b) in enumerate(tiles)
        ],
        total=sum(a + b for a, b in tiles),
        confident=confident,
        problems=[] if confident else ["Two tiles touch: the reader may have mixed them up."],
        width=64,
        height=48,
        advice=[] if confident or advice is None else advice,
    )


@pytest.fixture
def fake_reader(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Stand-in for the pip counter: these tests are about the flow, not the counting."""
    holder: dict[str, Any] = {"reading": _reading([(5, 12), (3, 4), (0, 0)])}
    monkeypatch.setattr(photos, "read_hand", lambda data, max_pip=12: holder["reading"])
    return holder


def _upload(client: FlaskClient, public_id: str, data: bytes, seat: int = 1, **fields: Any) -> Any:
    form = round_data(fields.pop("points", {}), went_out=fields.pop("went_out", None), **fields)
    form.setdefault("form_token", form_token(client, public_id))
    form[f"seat_{seat}-photo"] = FileStorage(
        io.BytesIO(data), "hand.jpg", content_type="image/jpeg"
    )
    # Encoded in memory: the test client would spool a big body to a file it never closes.
    boundary, body = encode_multipart(form)
    return client.post(
        f"/g/{public_id}/round/seats/{seat}/photo",
        data=body,
        content_type=f"multipart/form-data; boundary={boundary}",
    )


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{re.escape(name)}" type="hidden" value="([^"]*)"', page)
    assert match, name
    return match.group(1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"this is not a photo", "not"),
        (_png()[:40], ""),
        (b"", "No photo arrived"),
        (b"\xff\xd8\xff" + b"0" * (15 * 1024 * 1024 + 10), "15 MB"),
    ],
)
def test_bad_uploads_get_a_message_and_keep_the_round(
    client: FlaskClient, data: bytes, message: str
) -> None:
    public_id = start_game(client, NAMES)
    response = _upload(client, public_id, data, points={0: 0, 2: 17}, went_out=0)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'class="field-error" role="alert"' in page
    assert message in page
    assert 'value="17"' in page  # what was typed is still there


def test_decompression_bomb_is_refused(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    buffer = io.BytesIO()
    PIL.new("1", (30000, 30000)).save(buffer, format="PNG")
    page = _upload(client, public_id, buffer.getvalue()).get_data(as_text=True)
    assert 'class="field-error" role="alert"' in page


def test_reading_fills_the_tiles_and_scores_them_by_the_house_rules(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    public_id = start_game(client, NAMES, double_blank=50)
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    assert "5-12, 3-4, 0-0</textarea>" in page
    assert "Photo reads 74" in page  # 17 + 7 + 50 for the double blank
    assert page.count('class="tile-mark"') == 3
    token = _hidden(page, "seat_1-photo_token")
    image = client.get(f"/g/{public_id}/photos/{token}.jpg")
    assert image.status_code == 200 and image.mimetype == "image/jpeg"
    stranger = client.application.test_client()
    assert stranger.get(f"/g/{public_id}/photos/{token}.jpg").status_code == 302


def test_disagreement_with_a_typed_total_lets_the_player_pick(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(), points={1: 22}).get_data(as_text=True)
    assert "Photo reads 24, you typed 22." in page
    assert 'value="22"' in page  # never silently replaced
    token = _hidden(page, "seat_1-photo_token")
    data = round_data({0: 0, 1: 22, 2: 9}, tiles={1: "5-12, 3-4, 0-0"}, went_out=0)
    data.update({"seat_1-photo_token": token, "form_token": "t"})
    page = client.post(f"/g/{public_id}/round/seats/1/photo/use", data=data).get_data(as_text=True)
    assert 'value="22"' not in page and "5-12, 3-4, 0-0</textarea>" in page
    page = client.post(f"/g/{public_id}/round/seats/1/photo/keep", data=data).get_data(as_text=True)
    assert 'value="22"' in page and "5-12, 3-4, 0-0</textarea>" not in page


def test_unsure_reading_says_so_with_the_capture_advice_that_fits(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    gap = "Leave a small gap between the tiles so they do not touch."
    fake_reader["reading"] = _reading([(6, 6)], confident=False, advice=[gap])
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    assert "The reader is not sure" in page and "Two tiles touch" in page
    assert gap in page
    assert "plain surface" not in page  # the reader did not say the surface was the trouble


def test_an_unsure_reading_asks_and_is_not_saved_by_one_tap(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    fake_reader["reading"] = _reading([(1, 2), (0, 1), (1, 1)], confident=False)
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    assert "I found 3 tiles: is that all of them?" in page
    assert "Photo reads" not in page and 'class="notice success"' not in page
    assert "1-2, 0-1, 1-1</textarea>" not in page  # the tiles box stays empty
    assert ">Use these 3 tiles: 6</button>" in page
    # the player confirms: now the tiles are in the box
    data = round_data({0: 0, 2: 9}, went_out=0)
    data.update(
        {
            "seat_1-photo_token": _hidden(page, "seat_1-photo_token"),
            "form_token": "t",
        }
    )
    page = client.post(f"/g/{public_id}/round/seats/1/photo/use", data=data).get_data(as_text=True)
    assert "1-2, 0-1, 1-1</textarea>" in page
    assert "Photo reads 6. Its tiles are in the tiles box." in page


def test_an_unsure_reading_that_disagrees_asks_instead_of_giving_a_total(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    fake_reader["reading"] = _reading([(1, 2)], confident=False)
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(), points={1: 9}).get_data(as_text=True)
    assert "I found 1 tile: is that all? They make 3, you typed 9." in page
    assert "Photo reads" not in page and ">Keep 9</button>" in page


@pytest.mark.parametrize(("offset", "colour"), [(0.0, "#1d6b2f"), (-0.01, "#b45309")])
def test_the_sure_colour_is_the_readers_sure_threshold(
    client: FlaskClient, fake_reader: dict[str, Any], offset: float, colour: str
) -> None:
    from scorekeeper.vision import SURE_TILE

    fake_reader["reading"] = _reading([(4, 5)], confidence=SURE_TILE + offset)
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    assert f'stroke="{colour}"' in page


@pytest.mark.parametrize("keep", [False, True])
def test_photos_are_kept_only_when_the_game_says_so_and_go_with_the_game(
    app: Flask, client: FlaskClient, fake_reader: dict[str, Any], keep: bool
) -> None:
    public_id = start_game(client, NAMES, **({"keep_photos": "y"} if keep else {}))
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    data = round_data({0: 0, 2: 9}, tiles={1: "5-12, 3-4, 0-0"}, went_out=0)
    data.update(
        {
            "seat_1-photo_token": _hidden(page, "seat_1-photo_token"),
            "form_token": "save-1",
            "round_number": "1",
        }
    )
    assert client.post(f"/g/{public_id}/round", data=data).status_code == 302
    with app.app_context():
        stored = db.session.scalars(db.select(Photo)).all()
        assert len(stored) == (1 if keep else 0)
        assert all(photo.round_id is not None for photo in stored)
        assert all(b"Exif" not in photo.image[:200] for photo in stored)
    assert client.post(f"/g/{public_id}/delete").status_code == 302
    assert client.get(f"/g/{public_id}").status_code == 404
    with app.app_context():
        # A game with rounds waits in the trash (undo brings its photos back too); when it is
        # purged, its photos go with it.
        assert len(db.session.scalars(db.select(Photo)).all()) == (1 if keep else 0)
        trash.purge_deleted(now=datetime.now(UTC) + timedelta(days=trash.keep_days() + 1))
        db.session.commit()
        assert db.session.scalars(db.select(Photo)).all() == []


def test_the_real_reader_counts_a_clean_synthetic_hand(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    synth = pytest.importorskip("scorekeeper.vision.synth")
    from scorekeeper.vision import reader

    # the reading has time on any machine: what a busy CI machine's clock allows is not what
    # this checks (the time budget has tests of its own, in tests/unit/vision)
    monkeypatch.setattr(reader, "TIME_BUDGET", 60.0)
    scene = synth.render_hand(
        np.random.default_rng(7),
        [(5, 12), (3, 4), (6, 6)],
        size=(1280, 960),
        difficulty=0.0,
        allow_cut=False,
    )
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, synth.encode_png(scene.image)).get_data(as_text=True)
    said = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Photo reads 36" in page, said[said.find("Photo") :][:400]  # 12 + 7 + 17


def test_a_retaken_photo_does_not_stay_behind(
    app: Flask, client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    public_id = start_game(client, NAMES, keep_photos="y")
    _upload(client, public_id, _png())
    page = _upload(client, public_id, _png()).get_data(as_text=True)
    data = round_data({0: 0, 2: 9}, tiles={1: "5-12, 3-4, 0-0"}, went_out=0)
    data.update(
        {
            "seat_1-photo_token": _hidden(page, "seat_1-photo_token"),
            "form_token": "save-1",
            "round_number": "1",
        }
    )
    assert client.post(f"/g/{public_id}/round", data=data).status_code == 302
    with app.app_context():
        assert len(db.session.scalars(db.select(Photo)).all()) == 1


def test_sets_beyond_the_reader_say_so_instead_of_failing(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES, max_pip=18)
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "sets up to double-15" in page and 'type="file"' not in page
    response = _upload(client, public_id, _png())
    assert response.status_code == 200
    assert "sets up to double-15" in response.get_data(as_text=True)


def test_without_the_photo_extra_the_camera_explains_what_to_install(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        photos, "_installed", lambda: (False, 'Install it with: pip install "scorekeeper[photo]"')
    )
    public_id = start_game(client, NAMES)
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert "scorekeeper[photo]" in page and 'type="file"' not in page
    assert page.count("No photo check for this game") == 1  # once, not once per player


def test_keep_photos_default_comes_from_the_site_setting(app: Flask) -> None:
    app.config["KEEP_PHOTOS"] = True
    page = app.test_client().get("/games/new").get_data(as_text=True)
    assert re.search(r'<input checked id="keep_photos"', page)
    app.config["KEEP_PHOTOS"] = False
    page = app.test_client().get("/games/new").get_data(as_text=True)
    assert not re.search(r'<input checked id="keep_photos"', page)


def test_a_photo_with_no_tile_never_offers_to_replace_a_typed_total(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    fake_reader["reading"] = _reading([], confident=False)
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(), points={1: 65}).get_data(as_text=True)
    assert "No tile was found in the photo" in page and "Your 65 stays." in page
    assert "Use the photo" not in page
    assert 'value="65"' in page


def test_keeping_what_was_typed_is_the_main_choice(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(), points={1: 22}).get_data(as_text=True)
    keep = page.index(">Keep 22</button>")
    use = page.index(">Use the photo: 24</button>")
    assert keep < use  # the typed value comes first, in the main button's style
    assert re.search(
        r'<button type="submit" class="secondary" formaction="/g/[\w-]+/round/seats/1/photo/use"',
        page,
    )


@pytest.mark.parametrize(
    ("corners", "width", "height"),
    [
        # A tile in the middle, one in a corner of the photo, one tilted, a small one.
        (((400, 300), (600, 300), (600, 400), (400, 400)), 1280, 960),
        (((0, 0), (90, 0), (90, 180), (0, 180)), 1280, 960),
        (((1200, 880), (1280, 900), (1260, 960), (1180, 940)), 1280, 960),
        (((100, 100), (130, 100), (130, 160), (100, 160)), 1600, 1200),
    ],
)
def test_tile_labels_sit_inside_their_tile_and_on_the_photo(
    corners: tuple[tuple[int, int], ...], width: int, height: int
) -> None:
    text, x, y, size = photos.place_label(
        [(float(a), float(b)) for a, b in corners], "12: 11-12", width, height
    )
    half_w = 0.62 * len(text) * size / 2
    xs = [a for a, _ in corners]
    ys = [b for _, b in corners]
    assert x - half_w >= 0 and x + half_w <= width
    assert y - size / 2 >= 0 and y + size / 2 <= height
    assert min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)  # the label's own tile
    assert text in ("12: 11-12", "12")


def test_keeping_the_typed_value_is_confirmed_and_not_asked_again(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(), points={1: 22}).get_data(as_text=True)
    keep = f'name="kept" value="22" formaction="/g/{public_id}/round/seats/1/photo/keep"'
    assert keep in page
    data = round_data({0: 0, 1: 22, 2: 9}, went_out=0)
    data.update(round_form_fields(client, public_id))
    data["seat_1-photo_token"] = _hidden(page, "seat_1-photo_token")
    data["kept"] = "22"
    page = client.post(f"/g/{public_id}/round/seats/1/photo/keep", data=data).get_data(as_text=True)
    assert "Kept: your 22. The photo’s 24 is not used." in page
    assert "Use the photo" not in page and ">Keep 22</button>" not in page
    assert _hidden(page, "seat_1-photo_kept") == "22"
    # The choice holds while 22 is what is entered; a new value is compared again.
    data.update({"seat_1-photo_kept": "22", "seat_1-hand": "23"})
    data.pop("kept")
    data.pop("went_out")  # refused: the page is shown again with the photo
    page = client.post(f"/g/{public_id}/round", data=data).get_data(as_text=True)
    assert "Photo reads 24, you typed 23." in page and ">Keep 23</button>" in page


def test_a_photo_that_agrees_shows_no_doubts_or_tips(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    fake_reader["reading"] = _reading([(6, 6)], confident=False)
    public_id = start_game(client, NAMES)
    page = _upload(client, public_id, _png(), points={1: 12}).get_data(as_text=True)
    assert "Photo reads 12: it agrees with what you entered." in page
    assert "The reader is not sure" not in page and "For a better photo" not in page


def test_the_photo_is_chosen_with_a_big_button(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    assert re.search(
        r'<label class="button secondary block photo-pick" for="seat_1-photo">'
        r"Or take a photo of Bob’s tiles</label>",
        page,
    )


def test_a_correction_reads_its_photo_at_its_rounds_address(
    client: FlaskClient, fake_reader: dict[str, Any]
) -> None:
    public_id = start_game(client, NAMES)
    data = round_data({0: 0, 1: 22, 2: 9}, went_out=0)
    data.update(round_form_fields(client, public_id))
    assert client.post(f"/g/{public_id}/round", data=data).status_code == 302
    page = client.get(f"/g/{public_id}/rounds/1").get_data(as_text=True)
    assert f'formaction="/g/{public_id}/rounds/1/seats/1/photo"' in page
    form: dict[str, Any] = round_data({0: 0, 1: 22, 2: 9}, went_out=0)
    form.update(round_form_fields(client, public_id, number=1))
    form["seat_1-photo"] = FileStorage(io.BytesIO(_png()), "hand.jpg", content_type="image/jpeg")
    boundary, body = encode_multipart(form)
    response = client.post(
        f"/g/{public_id}/rounds/1/seats/1/photo",
        data=body,
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "Photo reads 24, you typed 22." in page
    # The page is the correction's, its next steps at the round's address; nothing was changed.
    assert f'formaction="/g/{public_id}/rounds/1/seats/1/photo/keep"' in page
    assert f'action="/g/{public_id}/rounds/1"' in page
    assert "5-12, 3-4, 0-0" not in client.get(f"/g/{public_id}/scoreboard").get_data(as_text=True)


def test_a_photo_step_for_a_seat_not_at_the_table_is_not_found(client: FlaskClient) -> None:
    public_id = start_game(client, NAMES)
    data = round_data({0: 0, 1: 22, 2: 9}, went_out=0)
    data.update(round_form_fields(client, public_id))
    assert client.post(f"/g/{public_id}/round/seats/3/photo/use", data=data).status_code == 404
    assert client.post(f"/g/{public_id}/rounds/1/seats/0/photo/use", data=data).status_code == 404


def test_a_photo_button_of_an_older_page_saves_nothing(client: FlaskClient) -> None:
    """A page made before the photo steps had their own addresses sends ``action`` with the
    round form: the form comes back, the round is not saved."""
    public_id = start_game(client, NAMES)
    data = round_data({0: 0, 1: 22, 2: 9}, went_out=0)
    data.update(round_form_fields(client, public_id))
    data["action"] = "read_photo:1"
    response = client.post(f"/g/{public_id}/round", data=data)
    assert response.status_code == 200 and 'value="22"' in response.get_data(as_text=True)
    del data["action"]
    assert client.post(f"/g/{public_id}/round", data=data).status_code == 302  # saved now

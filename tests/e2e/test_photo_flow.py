"""Photo check in a phone browser: take a photo, see the tiles outlined, correct one, save."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_game_flow import NAMES, _start_game

pytestmark = pytest.mark.e2e


def test_photo_correction_and_save(
    page: Page, live_server: str, shoot: Any, tmp_path: Path
) -> None:
    np = pytest.importorskip("numpy", reason="the photo extra is not installed")
    synth = pytest.importorskip("scorekeeper.vision.synth")
    scene = synth.render_hand(
        np.random.default_rng(7),
        [(5, 12), (3, 4), (6, 6)],
        size=(1280, 960),
        difficulty=0.0,
        allow_cut=False,
    )
    photo = tmp_path / "hand.png"
    photo.write_bytes(synth.encode_png(scene.image))

    public_id = _start_game(page, live_server, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    page.locator("#seat-0 .went-out").click()
    page.locator("#seat-2 input.points").fill("9")
    page.locator("#seat-3 input.points").fill("14")
    page.locator("#seat-1 input.points").fill("30")
    # Choosing the photo reads it at once (no extra button with JavaScript).
    page.locator("#seat-1 summary").click()
    page.get_by_label("Photo of Bob’s tiles").set_input_files(str(photo))
    expect(page.locator("#seat-1 .tile-mark")).to_have_count(3)
    expect(page.get_by_text("Photo reads 36, you typed 30.")).to_be_visible()
    expect(page.locator("#seat-1 input.points")).to_have_value("30")  # not replaced
    shoot("photo-reading")

    page.get_by_role("button", name="Use the photo: 36").click()
    tiles = page.locator("#seat_1-tiles")
    expect(tiles).to_have_value("6-6, 3-4, 5-12")
    expect(page.locator("#seat-1 input.points")).to_have_value("")

    # Tap the first tile on the photo: its text is selected for correcting.
    page.locator("#seat-1 .tile-mark").first.click()
    selected = tiles.evaluate("b => b.value.slice(b.selectionStart, b.selectionEnd)")
    assert selected == "6-6"
    page.keyboard.type("6-5")
    expect(page.locator("#seat-1-feedback")).to_contain_text("35")
    shoot("photo-corrected")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    csv_text = page.request.get(f"{live_server}/g/{public_id}/game.csv").text()
    assert 'Bob,35,"5-6, 3-4, 5-12"' in csv_text


def test_an_unsure_reading_is_confirmed_before_it_fills_the_tiles(
    page: Page, live_server: str, shoot: Any, tmp_path: Path
) -> None:
    np = pytest.importorskip("numpy", reason="the photo extra is not installed")
    synth = pytest.importorskip("scorekeeper.vision.synth")
    # tiles this small in the photo: read right, but the reader is not sure of it
    scene = synth.render_hand(
        np.random.default_rng(7),
        [(5, 12), (3, 4), (6, 6)],
        size=(1280, 960),
        difficulty=0.0,
        allow_cut=False,
        tile_width=0.035,
    )
    photo = tmp_path / "hand.png"
    photo.write_bytes(synth.encode_png(scene.image))

    _start_game(page, live_server, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    page.locator("#seat-1 summary").click()
    page.get_by_label("Photo of Bob’s tiles").set_input_files(str(photo))
    expect(page.get_by_text("I found 3 tiles: is that all of them?")).to_be_visible()
    tiles = page.locator("#seat_1-tiles")
    expect(tiles).to_have_value("")  # nothing for one tap on Save to record unseen
    shoot("photo-unsure")
    page.set_viewport_size({"width": 360, "height": 800})
    shoot("photo-unsure-360")
    page.get_by_role("button", name="Use these 3 tiles: 36").click()
    expect(tiles).to_have_value(re.compile(r"^(?=.*6-6)(?=.*3-4)(?=.*5-12).{14}$"))


def test_a_photo_read_only_in_part_offers_its_tiles_to_check(
    page: Page, live_server: str, shoot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    np = pytest.importorskip("numpy", reason="the photo extra is not installed")
    synth = pytest.importorskip("scorekeeper.vision.synth")
    from scorekeeper.vision import bars, reader

    # the time budget runs out in the full look (a busy background, on a slow server): the
    # tiles the quicker first look read are offered, unsure, with a note to check them
    def out_of_time(*_a: Any, **_k: Any) -> None:
        raise bars.OutOfTime()

    monkeypatch.setattr(reader._Photo, "full", out_of_time)
    monkeypatch.setattr(reader, "TIME_BUDGET", 60.0)  # the first look has time on any machine
    scene = synth.render_hand(
        np.random.default_rng(4),
        [(6, 6), (2, 9), (3, 4), (5, 1), (0, 7)],
        size=(1280, 960),
        jpeg_quality=90,
    )
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(scene.jpeg)

    _start_game(page, live_server, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    page.locator("#seat-1 summary").click()
    page.get_by_label("Photo of Bob’s tiles").set_input_files(str(photo))
    expect(page.get_by_text("I found 5 tiles: is that all of them?")).to_be_visible()
    expect(page.get_by_text("There was not time to check this photo in full")).to_be_visible()
    expect(page.locator("#seat_1-tiles")).to_have_value("")
    page.set_viewport_size({"width": 360, "height": 800})
    shoot("photo-cut-short-360")
    page.get_by_role("button", name="Use these 5 tiles: 43").click()
    expect(page.locator("#seat-1-feedback")).to_contain_text("43")

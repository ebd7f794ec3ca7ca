"""Issue 40, item 5: the look at 640 px that a close-up's reading may stand on is put off when
the tile finder sees a photo of small tiles (a large spread), where it could never stand
alone; the full look and the look at faces share one run of the tile finder; and when the
full look of such a photo finds no tile, the look at faces comes first."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from scorekeeper.vision import detect, synth_modes, tilenet  # noqa: E402
from scorekeeper.vision import reader as reader_mod  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402


def _looks(monkeypatch) -> list[int]:
    """The long side of the image of every look taken from now on."""
    sides: list[int] = []
    real = reader_mod.read_once
    monkeypatch.setattr(
        reader_mod,
        "read_once",
        lambda rgb, *a, **k: sides.append(max(rgb.shape[:2])) or real(rgb, *a, **k),
    )
    return sides


def _tiles(reading) -> list[list[int]]:
    return sorted(sorted(t.halves) for t in reading.tiles)


@pytest.mark.parametrize("i", [1, 11])
def test_a_large_spread_is_read_without_the_look_at_640_px(monkeypatch, i):
    scene = synth_modes.benchmark_scene("large_spread", i, seed=67)
    sides = _looks(monkeypatch)
    reading = read_unhurried(scene.jpeg)
    assert reader_mod.FIRST_SIDE not in sides
    assert _tiles(reading) == sorted(sorted((t.a, t.b)) for t in scene.tiles)
    assert reading.confident
    # the same reading as with the look at 640 px taken first (the rule before it was put off)
    monkeypatch.setattr(reader_mod._Photo, "small_tiles", lambda self: False)
    sides.clear()
    before = read_unhurried(scene.jpeg)
    assert reader_mod.FIRST_SIDE in sides
    assert (_tiles(before), before.confident) == (_tiles(reading), reading.confident)


def test_a_close_up_still_stands_on_the_look_at_640_px(monkeypatch):
    scene = synth_modes.benchmark_scene("woven_cloth", 1, seed=67)  # three large tiles
    sides = _looks(monkeypatch)
    reading = read_unhurried(scene.jpeg)
    assert sides == [reader_mod.FIRST_SIDE]
    assert reading.confident
    assert _tiles(reading) == sorted(sorted((t.a, t.b)) for t in scene.tiles)


def test_the_full_look_and_the_look_at_faces_share_the_tile_finder(monkeypatch):
    # a large spread read right but not sure: the full look, then the look at faces
    scene = synth_modes.benchmark_scene("large_spread", 3, seed=67)
    sides = _looks(monkeypatch)
    runs: list[tuple[int, ...]] = []
    real = tilenet.maps
    monkeypatch.setattr(tilenet, "maps", lambda rgb: runs.append(rgb.shape) or real(rgb))
    read_unhurried(scene.jpeg)
    assert sides.count(max(scene.image.shape[:2])) == 2  # the full look and the faces look
    assert len(runs) == 1


def test_a_large_spread_whose_bars_were_not_found_is_looked_at_as_faces_first_and_once(
    monkeypatch,
):
    # the full look found no tile in this spread of 28 (seed 109, the sixteenth step); the
    # tile finder's faces read them all. The faint look at 640 px (it cannot read tiles this
    # small) used to come first, and within the budget left no time for the faces. (Since
    # the nineteenth step the full look finds its bars, JOINED_RANK: here it is made to find
    # none, as a blurred spread's full look finds none.)
    scene = synth_modes.benchmark_scene("large_spread", 3, seed=109)
    real_bars = detect.find_bars
    monkeypatch.setattr(
        detect,
        "find_bars",
        lambda rgb, dl=None, faint=False: real_bars(rgb, dl, True) if faint else [],
    )
    looks: list[object] = []
    real = reader_mod.read_once

    def read_once(rgb, *a, **k):
        looks.append("faces" if k.get("faces_only") else "faint" if k.get("faint") else "full")
        return real(rgb, *a, **k)

    monkeypatch.setattr(reader_mod, "read_once", read_once)
    reading = read_unhurried(scene.jpeg)
    assert looks[:3] == ["full", "faces", "faint"]
    assert looks.count("faces") == 1  # kept for what follows, not taken again
    assert _tiles(reading) == sorted(sorted((t.a, t.b)) for t in scene.tiles)
    assert not reading.confident  # found as faces: never sure


@pytest.mark.parametrize(
    ("width", "length", "alike"),
    [
        (40, 80, True),  # the tile's own size
        (52, 80, True),  # 1.3x as wide: the most a neighbour's outline may be off
        (40, 62, True),  # ... or 1.29x shorter
        (53, 80, False),  # wider: two tiles side by side, or a neighbour's edge
        (40, 120, False),  # a tile and a half long
        (20, 40, False),  # half the size: a half read as a tile
        (80, 40, False),  # the width and the length swapped
    ],
)
def test_a_neighbours_outline_is_counted_only_at_the_size_of_the_tile_beside_it(
    width, length, alike
):
    from scorekeeper.vision import finding

    q = np.array([[0, 0], [width, 0], [width, length], [0, length]], float) + 100
    assert finding._alike(q, 40.0, 80.0) is alike

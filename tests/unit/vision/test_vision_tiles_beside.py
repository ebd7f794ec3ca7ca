"""Issue 40, twenty-eighth step: when the look at the tile finder's outlines alone wins over
the reading made from bars, the tiles the bars read sure where it read none are kept in it
(``weigh.tiles_beside``): the tile finder misses a tile now and then."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from scorekeeper.vision import synth_modes, weigh  # noqa: E402
from scorekeeper.vision.reading import SURE_TILE  # noqa: E402
from tests.unit.vision.made_readings import plain_photo, tiles_at  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402


@pytest.mark.parametrize(
    ("from_bars", "kept"),
    [
        ([(300, (5, 9), 0.91)], [(5, 9)]),  # where the faces read none: kept
        ([(300, (0, 1), SURE_TILE)], [(0, 1)]),  # (at the sure line)
        ([(300, (0, 6), 0.22)], []),  # read below it (a scratch on a busy table): not
        ([(110, (3, 3), 0.97)], []),  # where the faces read a tile: theirs stands
        ([(130, (3, 3), 0.97)], []),  # (overlapping it a fourth of a width)
        ([(150, (3, 3), 0.97)], [(3, 3)]),  # (beside it: a tile of its own)
        ([(300, (1, 2), 0.9), (304, (1, 2), 0.9)], [(1, 2)]),  # two outlines of one: once
    ],
)
def test_the_tiles_the_bars_read_sure_where_the_faces_read_none_are_kept(from_bars, kept):
    faced = tiles_at((100, (2, 4), 0.5), (200, (6, 6), 0.5))
    weigh.tiles_beside(plain_photo(), faced, tiles_at(*from_bars))
    assert [t.halves for t in faced.tiles] == [(2, 4), (6, 6), *kept]
    assert faced.total == 18 + sum(sum(k) for k in kept)


@pytest.mark.parametrize(
    ("mode", "i", "seed", "missed"),
    [
        # eight tiles end to end; the finder does not see the 9|5, the bars do not lead to
        # the 3|4; the faces' reading wins (as many tiles, surer) and dropped the 9|5
        ("mix", 4, 317, 14),
        # a 0|1 near the camera, blurred, that the finder does not see
        ("tilt_30_45", 15, 317, 1),
    ],
)
def test_a_tile_the_finder_missed_is_kept_when_its_reading_wins(monkeypatch, mode, i, seed, missed):
    scene = synth_modes.benchmark_scene(mode, i, seed=seed)
    reading = read_unhurried(scene.jpeg)
    assert reading.total == scene.total and not reading.confident
    monkeypatch.setattr(weigh, "tiles_beside", lambda *a: None)
    assert read_unhurried(scene.jpeg).total == scene.total - missed

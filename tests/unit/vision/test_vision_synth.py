"""The synthetic renderer and the evaluation helpers."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from scorekeeper.vision import (  # noqa: E402
    synth,
    synth_faces,
    synth_modes,  # noqa: E402
)
from scorekeeper.vision.evaluate import match_tiles  # noqa: E402
from scorekeeper.vision.halves import HALF_PX, CropSource, half_quads, normalise  # noqa: E402


@pytest.mark.parametrize("n", range(16))
def test_layouts_have_the_right_number_of_pips(n):
    rng = np.random.default_rng(n)
    for _ in range(20):
        pts = synth_faces.pip_layout(n, rng)
        assert len(pts) == n
        if n:
            assert pts.min() >= 0 and pts.max() <= 1
            # no two pips on top of each other
            d = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(n) * 9
            assert d.min() > 0.15


def test_scene_truth_is_consistent():
    scene = synth.render_hand(
        np.random.default_rng(1),
        [(3, 4), (12, 0)],
        size=(800, 600),
        allow_cut=False,
        difficulty=0.3,
        tilt_deg=0,
    )
    assert scene.image.shape == (600, 800, 3)
    assert [(t.a, t.b) for t in scene.tiles] == [(3, 4), (12, 0)]
    for t in scene.tiles:
        assert t.corners.shape == (4, 2)
        assert t.visible == pytest.approx(1.0)
        w = np.linalg.norm(t.corners[1] - t.corners[0])
        length = np.linalg.norm(t.corners[3] - t.corners[0])
        assert 1.85 < length / w < 2.15


def test_half_crops_put_the_bar_at_the_bottom():
    scene = synth.render_hand(
        np.random.default_rng(2),
        [(0, 0)],
        size=(800, 600),
        allow_cut=False,
        difficulty=0.0,
        tile_width=0.2,
    )
    src = CropSource(scene.image)
    for q in half_quads(scene.tiles[0].corners):
        crop = src.crop(q)
        assert crop.shape == (HALF_PX, HALF_PX, 3)
        rows = crop.max(axis=2).mean(axis=1)
        assert rows[-HALF_PX // 8 :].min() < rows[HALF_PX // 4 : HALF_PX // 2].mean() - 40
    x = normalise(np.stack([crop, crop]))
    assert x.shape == (2, 3, HALF_PX, HALF_PX) and x.dtype == np.float32


def test_match_tiles():
    assert match_tiles([(1, 2), (3, 4)], [(4, 3), (2, 1)]) == (2, 4)
    assert match_tiles([(1, 2), (3, 4)], [(1, 2)]) == (1, 2)
    assert match_tiles([(1, 2)], [(1, 5), (6, 6)]) == (0, 1)


def test_the_render_modes_of_issue_40():
    # a large spread of 20-30 tiles touching in rows, every tile in the frame
    for i in range(3):
        scene = synth_modes.benchmark_scene("large_spread", i, seed=43)
        assert 20 <= len(scene.tiles) <= 30
        assert scene.meta["mode"] == "rows"
        h, w = scene.image.shape[:2]
        for t in scene.tiles:
            assert (t.corners >= 0).all() and (t.corners[:, 0] < w).all()
            assert (t.corners[:, 1] < h).all()
    # a dark cloth always under a lamp's glare
    assert all(
        synth_modes.benchmark_scene("dark_glare", i, seed=43).meta["glare"] for i in range(3)
    )
    # double-12 with a colour for each number
    scene = synth_modes.benchmark_scene("coloured_12", 0, seed=43)
    assert 8 <= len(scene.tiles) <= 12
    # double-15, a colour for each number: halves up to 15, the benchmark reads them so
    scenes = [synth_modes.benchmark_scene("coloured_15", i, seed=43) for i in range(4)]
    assert all(5 <= len(s.tiles) <= 12 for s in scenes)  # (those that fit in the frame)
    assert max(max(t.a, t.b) for s in scenes for t in s.tiles) > 12
    assert all(max(t.a, t.b) <= 15 for s in scenes for t in s.tiles)
    assert synth_modes.MODE_MAX_PIP == {"coloured_15": 15}

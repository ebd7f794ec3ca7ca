"""The reader on synthetic photos rendered at test time (fixed seeds)."""

from __future__ import annotations

import io
import json

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")
PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from scorekeeper.rules import Tile  # noqa: E402
from scorekeeper.vision import checks as checks_mod  # noqa: E402
from scorekeeper.vision import read_hand, synth  # noqa: E402
from scorekeeper.vision import reader as reader_mod  # noqa: E402

SIZE = (1280, 960)


def _scene(seed: int, tiles, **kwargs) -> synth.Scene:
    kwargs.setdefault("size", SIZE)
    kwargs.setdefault("difficulty", 0.5)
    kwargs.setdefault("allow_cut", False)
    kwargs.setdefault("jpeg_quality", 90)
    return synth.render_hand(np.random.default_rng(seed), tiles, **kwargs)


def _match_corners(read_corners, true_corners) -> float:
    """Mean corner distance (in tile widths), whatever the order of the corners."""
    r = np.asarray(read_corners, float)
    t = np.asarray(true_corners, float)
    width = np.linalg.norm(t[1] - t[0])
    best = np.inf
    for k in range(4):
        for rr in (np.roll(r, k, axis=0), np.roll(r[::-1], k, axis=0)):
            best = min(best, float(np.mean(np.linalg.norm(rr - t, axis=1))))
    return best / width


HANDS = [
    [(12, 12), (0, 5), (3, 9)],
    [(11, 2), (6, 6), (7, 1), (10, 4)],
    [(8, 3), (0, 0), (12, 7), (5, 5), (9, 1)],
    [(4, 4), (2, 10)],
    [(1, 12), (6, 8), (9, 9), (3, 11), (0, 7), (10, 10)],
    [(5, 2), (11, 11)],
]


def test_synthetic_render_is_deterministic():
    a = _scene(3, HANDS[0])
    b = _scene(3, HANDS[0])
    assert np.array_equal(a.image, b.image)
    assert [(t.a, t.b) for t in a.tiles] == HANDS[0]


def test_reads_synthetic_hands():
    exact = confident_wrong = 0
    for seed, hand in enumerate(HANDS):
        scene = _scene(100 + seed, hand)
        truth = sorted(Tile(t.a, t.b) for t in scene.tiles)
        reading = read_hand(scene.jpeg)
        got = sorted(t.tile for t in reading.tiles)
        ok = got == truth
        exact += ok
        true_total = scene.total
        confident_wrong += reading.confident and reading.total != true_total
        assert reading.total == sum(t.tile.pips for t in reading.tiles)
        assert all(0.0 <= t.confidence <= 1.0 for t in reading.tiles)
        if ok:
            for t in scene.tiles:
                d = min(_match_corners(r.corners, t.corners) for r in reading.tiles)
                assert d < 0.2  # corners are approximate: within a fifth of a tile width
    assert exact >= len(HANDS) - 1
    assert confident_wrong == 0


def test_clean_photo_is_confident():
    scene = _scene(
        8,
        [(6, 3), (12, 1), (0, 9)],
        difficulty=0.2,
        mode="scatter",
        surface="plain",
        surface_colour=(40, 60, 110),
    )
    reading = read_hand(scene.jpeg)
    assert sorted(t.tile for t in reading.tiles) == sorted([Tile(6, 3), Tile(12, 1), Tile(0, 9)])
    assert reading.total == 31
    assert reading.confident, reading.problems


def test_exif_rotated_photo_reports_upright_corners():
    scene = _scene(11, [(7, 2), (10, 5)], difficulty=0.2, mode="scatter")
    # what a phone stores for a portrait shot: pixels turned, orientation 6 in EXIF
    stored = np.ascontiguousarray(np.rot90(scene.image, k=1))
    buf = io.BytesIO()
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(stored).save(buf, format="JPEG", quality=92, exif=exif)
    reading = read_hand(buf.getvalue())
    assert (reading.width, reading.height) == SIZE
    assert sorted(t.tile for t in reading.tiles) == sorted([Tile(7, 2), Tile(10, 5)])
    for t in scene.tiles:
        assert min(_match_corners(r.corners, t.corners) for r in reading.tiles) < 0.2


def test_empty_table():
    rng = np.random.default_rng(5)
    img = synth.render_background(rng, 720, 960).clip(0, 255).astype(np.uint8)
    reading = read_hand(synth.encode_png(img))
    assert reading.tiles == []
    assert reading.total == 0
    assert not reading.confident
    assert reader_mod.PROBLEM_NO_TILES in reading.problems


def test_blurry_photo_reports_blur_and_is_never_confidently_wrong():
    scene = _scene(21, [(9, 4), (11, 6), (3, 3)], difficulty=0.2, mode="scatter")
    blurry = cv2.GaussianBlur(scene.image, (0, 0), 7)
    reading = read_hand(synth.encode_png(blurry))
    assert reader_mod.PROBLEM_BLUR in reading.problems
    truth = sorted(Tile(t.a, t.b) for t in scene.tiles)
    if reading.confident:
        assert sorted(t.tile for t in reading.tiles) == truth


def test_tile_cut_off_is_reported():
    scene = _scene(31, [(5, 6)], difficulty=0.2, mode="scatter", tile_width=0.15)
    img = scene.image
    t = scene.tiles[0]
    # cut the frame through the middle of one half of the tile
    x_cut = int(round((t.corners[0][0] + t.corners[1][0] + t.corners[2][0] + t.corners[3][0]) / 4))
    y0 = int(max(0, t.corners[:, 1].min() - 40))
    y1 = int(min(img.shape[0], t.corners[:, 1].max() + 40))
    half = img[y0:y1, : x_cut + 5] if t.corners[:, 0].min() > 60 else img[y0:y1, x_cut - 5 :]
    reading = read_hand(synth.encode_png(np.ascontiguousarray(half)))
    assert not reading.confident


def test_max_pip_limits_the_counts():
    scene = _scene(41, [(12, 11), (2, 3)], difficulty=0.2, mode="scatter")
    reading = read_hand(scene.jpeg, max_pip=9)
    assert all(t.tile.high <= 9 for t in reading.tiles)


DOUBLE_15 = [(13, 14), (15, 2), (11, 15), (14, 0), (13, 13)]


def test_a_double_15_photo_is_read():
    # 13 is 5-3-5, 14 is 5-4-5, 15 is 5x3, the pips smaller than a double-12 set's
    scene = _scene(47, DOUBLE_15, max_pip=15, difficulty=0.3, mode="scatter")
    reading = read_hand(scene.jpeg, max_pip=15)
    assert sorted(t.tile for t in reading.tiles) == sorted(Tile(a, b) for a, b in DOUBLE_15)
    assert reading.total == scene.total


def test_each_set_is_read_by_its_counter():
    # sets up to double-12 by the counter they always were (0-12), double-15 by its own
    from scorekeeper.vision import counting

    crops = np.full((2, 40, 40, 3), 200, np.uint8)
    p12, p15 = counting.classify_halves(crops, 12), counting.classify_halves(crops, 15)
    assert p12.shape == p15.shape == (2, 17)
    assert (p12[:, 13:16] == 0).all() and np.allclose(p12.sum(axis=1), 1)
    assert counting._get_session(12) is not counting._get_session(15)
    assert counting._get_session(6) is counting._get_session(12)


def test_a_double_12_game_never_reads_a_13():
    # the same double-15 tiles in a double-12 game: whatever is read, no half above 12
    scene = _scene(47, DOUBLE_15, max_pip=15, difficulty=0.3, mode="scatter")
    reading = read_hand(scene.jpeg, max_pip=12)
    assert all(t.tile.high <= 12 for t in reading.tiles)
    assert not reading.confident  # (no sure reading of a set the game does not use)


def test_evaluate_command(tmp_path, capsys):
    from scorekeeper.vision import evaluate

    evaluate.write_synthetic(tmp_path, 2, seed=3, difficulty=0.3)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert len(manifest["hands"]) == 2
    assert evaluate.main([str(tmp_path), "--json", str(tmp_path / "out.json")]) == 0
    out = capsys.readouterr().out
    for label in (
        "exact total",
        "within 3 pips",
        "tiles read exactly",
        "halves",
        "confident but wrong",
        "CPU per photo",
        "peak memory",
    ):
        assert label in out
    result = json.loads((tmp_path / "out.json").read_text())
    assert result["summary"]["all"]["photos"] == 2


def test_big_photo_is_fast_enough():
    import time

    scene = _scene(51, [(8, 8), (4, 1), (12, 6)], size=(4032, 3024), difficulty=0.2, mode="scatter")
    start = time.perf_counter()
    reading = read_hand(scene.jpeg)
    elapsed = time.perf_counter() - start
    assert (reading.width, reading.height) == (4032, 3024)
    assert elapsed < 4.0  # the target is 1 s on an idle machine; CI machines are busier


def _with_patch(scene: synth.Scene, softness: float, size: float) -> bytes:
    """The scene with a tile-coloured patch (``size`` x a tile) on empty surface, its border
    blurred over ``softness`` x a tile width (0: a sharp border, like a tile's)."""
    img = scene.image.astype(np.float32)
    W = float(np.median([np.linalg.norm(t.corners[1] - t.corners[0]) for t in scene.tiles]))
    inside = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, scene.tiles[0].corners.astype(np.int32), 1)
    face = np.median(scene.image[inside > 0], axis=0)
    taken = np.zeros(img.shape[:2], np.uint8)
    for t in scene.tiles:
        cv2.fillConvexPoly(taken, t.corners.astype(np.int32), 1)
    taken = cv2.dilate(taken, np.ones((int(2 * W), int(2 * W)), np.uint8))
    h, w = taken.shape
    spots = [
        (cx, cy)
        for cy in range(int(2.2 * W), h - int(2.2 * W), 20)
        for cx in range(int(1.2 * W), w - int(1.2 * W), 20)
        if not taken[
            cy - int(1.3 * W) : cy + int(1.3 * W), cx - int(0.7 * W) : cx + int(0.7 * W)
        ].any()
    ]
    cx, cy = spots[0]
    patch = np.zeros(img.shape[:2], np.float32)
    a, b = 0.5 * size * W, size * W
    cv2.rectangle(patch, (int(cx - a), int(cy - b)), (int(cx + a), int(cy + b)), 1.0, -1)
    if softness:
        patch = cv2.GaussianBlur(patch, (0, 0), softness * W)
    out = (img * (1 - patch[..., None]) + face * patch[..., None]).clip(0, 255).astype(np.uint8)
    return synth.encode_png(out)


@pytest.mark.parametrize(
    "softness,size,confident",
    [
        (0.0, 1.0, False),  # a bare tile face, its bar not seen: maybe a tile that was missed
        (0.25, 1.3, True),  # light cloth or paper: no outline where the patch ends
        (0.4, 2.0, True),
    ],
)
def test_a_tile_coloured_patch_blocks_confidence_only_with_a_tile_outline(
    softness, size, confident
):
    scene = _scene(
        8,
        [(6, 3), (12, 1), (0, 9)],
        difficulty=0.2,
        mode="scatter",
        surface="plain",
        surface_colour=(40, 60, 110),
    )
    reading = read_hand(_with_patch(scene, softness, size))
    assert sorted(t.tile for t in reading.tiles) == sorted([Tile(6, 3), Tile(12, 1), Tile(0, 9)])
    assert reading.confident is confident, reading.problems
    assert (reader_mod.PROBLEM_UNREADABLE in reading.problems) is not confident


@pytest.mark.parametrize("light", [1.0, 0.55, 0.4])
def test_a_photo_taken_in_dim_light_is_read_like_a_bright_one(light):
    hand = [(0, 0), (2, 5), (1, 3), (6, 6)]
    scene = _scene(
        61, hand, difficulty=0.2, mode="scatter", surface="plain", surface_colour=(200, 190, 180)
    )
    dim = (scene.image.astype(np.float32) * light).round().astype(np.uint8)
    reading = read_hand(synth.encode_png(dim), max_pip=6)
    assert sorted(t.tile for t in reading.tiles) == sorted(Tile(a, b) for a, b in hand)


@pytest.mark.parametrize(
    "seed,problem",
    [
        # a chain running out of the frame: the last tile's outline stops short (between its
        # neighbour and the frame) and reads 8 of its 11 pips
        ([7, 24], reader_mod.PROBLEM_CUT),
        # a row of touching tiles running out of the frame: the last tile, whose bar is split
        # by a spinner pin, got an outline too small to read ("could not be read"); the tile
        # finder's outline now reads it (amber), at the frame edge: reported as cut off
        ([7, 98], reader_mod.PROBLEM_CUT),
    ],
)
def test_renders_once_read_confidently_and_wrong_are_not_confident(seed, problem):
    scene = synth.render_hand(np.random.default_rng(seed), difficulty=1.0)
    reading = read_hand(scene.jpeg or synth.encode_png(scene.image))
    assert not reading.confident
    assert problem in reading.problems


def _hide_middle(scene: synth.Scene, k: int = 0) -> bytes:
    """The scene with the middle of tile ``k`` (its bar and the pips beside it) painted over
    in its face colour, as a reflection or a finger could hide it."""
    img = scene.image.copy()
    c = scene.tiles[k].corners
    inside = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, checks_mod._grow(c, 0.8).astype(np.int32), 1)
    face = np.median(img[inside > 0], axis=0)
    m0, m1 = (c[0] + c[3]) / 2, (c[1] + c[2]) / 2
    d0, d1 = (c[0] - c[3]) * 0.12, (c[1] - c[2]) * 0.12
    band = np.array([m0 + d0, m1 + d1, m1 - d1, m0 - d0])
    cv2.fillConvexPoly(img, band.astype(np.int32), tuple(int(v) for v in face))
    return synth.encode_png(img)


@pytest.mark.parametrize(
    "seed,hand,surface",
    [
        (70, [(6, 8), (2, 5), (9, 3)], "plain"),
        (71, [(5, 5), (12, 4), (1, 7), (3, 0)], "cloth"),
        (77, [(9, 9), (4, 6), (0, 2)], "smooth"),
        (81, [(8, 2), (10, 1), (6, 6)], "wood"),
    ],
)
def test_a_tile_whose_bar_is_hidden_is_not_left_out_silently(seed, hand, surface):
    # (seeds of sets with dark pips: pale or coloured pips are not seen outside a tile)
    scene = _scene(seed, hand, difficulty=0.3, mode="scatter", surface=surface)
    reading = read_hand(_hide_middle(scene))
    truth = sorted(Tile(a, b) for a, b in hand)
    if sorted(t.tile for t in reading.tiles) != truth:
        assert not reading.confident
    # left out: said so; since the sixth step it may be found as a face instead (its bar
    # not seen: read, never sure)
    if len(reading.tiles) < len(hand):
        assert reader_mod.PROBLEM_UNREADABLE in reading.problems

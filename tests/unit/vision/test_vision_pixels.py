"""The reader's per-pixel helpers (OpenCV's per-channel operations in place of numpy's
reductions over the colour axis) give exactly numpy's values: a reading cannot change
because one of them was made faster."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from scorekeeper.vision import bars  # noqa: E402


@pytest.mark.parametrize("shape", [(1, 1, 3), (7, 5, 3), (480, 641, 3)])
def test_brightest_and_darkest_are_numpy_max_and_min(shape):
    rng = np.random.default_rng(sum(shape))
    rgb = rng.integers(0, 256, shape, dtype=np.uint8)
    for image in (rgb, rgb[::2, ::3], rgb[:, ::-1]):  # strided and reversed views too
        assert np.array_equal(bars.brightest(image), image.max(axis=2))
        assert np.array_equal(bars.darkest(image), image.min(axis=2))
        assert bars.brightest(image).dtype == np.uint8


@pytest.mark.parametrize("shape", [(40, 48, 48, 3), (1, 1, 1, 3), (5, 7, 9, 3)])
def test_the_half_counters_input_is_numpys_bit_for_bit(shape):
    from scorekeeper.vision import halves

    rng = np.random.default_rng(len(shape) + shape[0])
    crops = rng.integers(0, 256, shape, dtype=np.uint8)
    for view in (crops, crops[:, ::-1], crops[::2]):  # strided and reversed views too
        assert np.array_equal(bars.brightest(view), view.max(axis=3))
        assert np.array_equal(bars.darkest(view), view.min(axis=3))
        x = view.astype(np.float32)  # normalise as it was written with numpy alone
        ref = np.percentile(x.max(axis=3).reshape(len(x), -1), 90, axis=1).reshape(-1, 1, 1, 1)
        expected = (np.clip(x / np.maximum(ref, 30.0), 0, 1.5) - 0.5).transpose(0, 3, 1, 2)
        assert np.array_equal(halves.normalise(view), expected)
    floats = crops.astype(np.float64)  # training passes floats: numpy's own path
    assert np.array_equal(bars.brightest(floats), floats.max(axis=3))
    assert bars.brightest(crops[:0]).shape == (0, *shape[1:3])


@pytest.mark.parametrize("shape", [(300, 200, 3), (1, 1, 3), (1, 7, 3), (0, 4, 3), (50, 3)])
def test_colour_distance_is_the_weighted_norm_bit_for_bit(shape):
    rng = np.random.default_rng(5)
    image = (rng.random(shape) * 255).astype(np.float32)
    face = np.median(image.reshape(-1, 3)[::11], axis=0) if image.size else np.ones(3, np.float32)
    views = [image, image[::2], image[..., ::-1]] if image.ndim == 3 else [image]
    for lab in views:  # contiguous, strided and reversed
        for f in (face, face.astype(np.float64)):
            for wts in ([1.0, 1.6, 1.6], [0.4, 1.6, 1.6], [0.5, 1.6, 1.6]):
                w = np.array(wts, np.float32)
                expected = np.sqrt((((lab - f) * w) ** 2).sum(axis=-1))
                got = bars.colour_distance(lab, f, w)
                assert got.dtype == expected.dtype
                assert np.array_equal(got, expected)


def test_what_is_worked_out_once_per_image_is_that_images_own():
    import gc
    import threading

    from scorekeeper.vision import missed

    made = []

    def total(image):
        made.append(image.shape)
        return int(image.sum())

    a = np.full((4, 5, 3), 2, np.uint8)
    assert missed.once_per_image(a, "total", total) == 120
    assert missed.once_per_image(a, "total", total) == 120
    assert len(made) == 1  # asked twice about the same image: worked out once
    assert missed.once_per_image(a.copy(), "total", total) == 120
    assert len(made) == 2  # equal values, another image: its own
    del a
    gc.collect()
    for _ in range(50):  # images made after one is gone often take its id
        b = np.full((4, 5, 3), 1, np.uint8)
        assert missed.once_per_image(b, "total", total) == 60
        del b
    assert not missed._held.images  # the values went with their images
    c = np.ones((2, 2, 3), np.uint8)
    missed.once_per_image(c, "total", total)
    seen_there = []
    t = threading.Thread(target=lambda: seen_there.append(missed.once_per_image(c, "total", total)))
    t.start()
    t.join()
    assert seen_there == [12] and len(made) == 54  # another thread works it out for itself


def test_the_signs_of_a_missed_tile_do_not_depend_on_what_was_asked_before():
    from scorekeeper.vision import missed, synth_modes

    scene = synth_modes.benchmark_scene("large_spread", 0, 107)
    small = np.ascontiguousarray(scene.image[::2, ::2])
    quads = [np.float64(t.corners) / 2 for t in scene.tiles]
    for some in (quads[:3], quads[3:], quads[::2]):
        asked_again = missed._stray_pips(small, some), missed._unexplained(small, some)
        fresh = small.copy()  # nothing worked out for it yet
        assert asked_again == (missed._stray_pips(fresh, some), missed._unexplained(fresh, some))


def test_a_mark_over_a_twentieth_of_the_photo_is_left_out_and_the_rest_summed_alike():
    """A woven cloth's dark threads join into one mark over a third of the photo: it is left
    out before its pixels are summed (most of the work on such a photo); every other mark's
    summary is the same, bit for bit."""
    mask = np.zeros((400, 600), np.uint8)
    mask[::6, :] = 1  # a lattice of threads: one mark over the whole photo
    mask[:, ::6] = 1
    mask[300:, :] = 0
    mask[:, 400:] = 0
    mask[340:344, 100:160] = 1  # two bars and a pip away from it
    mask[360:363, 450:520] = 1
    mask[320:327, 500:507] = 1
    mask[390:392, 10:12] = 1  # 4 pixels: never a mark
    rel = np.random.default_rng(3).random(mask.shape).astype(np.float32)
    every = bars._components(mask, rel)
    some = bars._components(mask, rel, bars.MAX_MARK_AREA)
    assert len(every["area"]) == 4 and max(every["area"]) > 0.05 * mask.size
    assert len(some["area"]) == 3
    kept = every["area"] <= bars.MAX_MARK_AREA * mask.size
    for key, values in some.items():
        assert np.array_equal(values, every[key][kept]), key


def test_a_woven_cloths_bars_are_the_same_without_its_threads_summed(monkeypatch):
    from scorekeeper.vision import synth_modes

    rgb = synth_modes.benchmark_scene("busy", 7, 173).image  # green woven cloth, 3 tiles
    mask, rel = bars.dark_mask(rgb)
    assert max(bars._components(mask, rel)["area"]) > bars.MAX_MARK_AREA * mask.size
    found = bars.find_bars(rgb)
    monkeypatch.setattr(bars, "MAX_MARK_AREA", 1.0)
    alike = bars.find_bars(rgb)
    assert len(found) == len(alike) > 0
    for a, b in zip(found, alike, strict=True):
        assert np.array_equal(a.centre, b.centre) and a.length == b.length

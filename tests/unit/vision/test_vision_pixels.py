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


def test_colour_distance_is_the_weighted_norm_bit_for_bit():
    rng = np.random.default_rng(5)
    lab = (rng.random((300, 200, 3)) * 255).astype(np.float32)
    face = np.median(lab.reshape(-1, 3)[::11], axis=0)
    for wts in ([1.0, 1.6, 1.6], [0.4, 1.6, 1.6], [0.5, 1.6, 1.6]):
        w = np.array(wts, np.float32)
        expected = np.sqrt((((lab - face) * w) ** 2).sum(axis=2))
        got = bars.colour_distance(lab, face, w)
        assert got.dtype == expected.dtype
        assert np.array_equal(got, expected)

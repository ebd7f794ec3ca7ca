"""Issue 40, twenty-ninth step: a sure reading has no half that shows more whole pips than it
is read with, none of them on the layout of the number read (``agree.pips_over``): an outline
turned off a 10|2 had the 2's two pips read 1, sure on the tile finder alone."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from scorekeeper.vision import agree, synth_modes  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402

FACE = (236, 228, 206)
BLUE = (25, 35, 120)
N = agree.BLOB_PX


def _half(pips: list[tuple[float, float, float]]) -> np.ndarray:
    """A half crop (``BLOB_PX`` square, cream) with pips at (x, y) parts of its width, of
    radius r pixels."""
    crop = np.full((N, N, 3), FACE, np.uint8)
    for x, y, r in pips:
        cv2.circle(crop, (round(x * N), round(y * N)), round(r), BLUE, -1, cv2.LINE_AA)
    return crop


def _over(halves: list[tuple[int, np.ndarray]]) -> bool:
    """``pips_over`` of halves (number read, crop), looked at as ``look_at_halves`` does."""
    seen, spots = [], []
    for value, crop in halves:
        n, pat = agree.look_at_half(crop, keep=spots)
        seen.append((value, n, pat))
    return agree.pips_over(seen, spots)


FOUR = _half([(0.3, 0.3, 6), (0.7, 0.3, 6), (0.3, 0.7, 6), (0.7, 0.7, 6)])
TWO_ACROSS = _half([(0.3, 0.5, 6), (0.7, 0.5, 6)])  # a 2 across the middle (some sets)


@pytest.mark.parametrize(
    ("value", "crop", "over"),
    [
        (1, TWO_ACROSS, True),  # two whole pips, neither where a 1 has its pip
        (2, TWO_ACROSS, False),  # ... read 2: on a 2's layout
        (1, _half([(0.5, 0.5, 6), (0.78, 0.22, 6)]), False),  # a 1 and a stray pip by it
        (1, _half([(0.38, 0.5, 3.5), (0.62, 0.5, 3.5)]), False),  # a silver pip's rim in two
        (0, _half([]), False),
        (3, _half([(0.3, 0.3, 6), (0.5, 0.5, 6), (0.7, 0.7, 6)]), False),
    ],
)
def test_a_half_with_more_whole_pips_than_read_and_none_on_its_layout_is_over(value, crop, over):
    assert _over([(4, FOUR), (value, crop)]) is over


def test_no_spot_at_all_is_never_over():
    assert not agree.pips_over([(4, 0, -1)], [(np.zeros((N, N), bool), np.array([]))])


def test_a_ten_two_read_ten_one_from_an_outline_turned_off_it_is_not_sure(monkeypatch):
    # seed 331's touching-005 (3|9, 6|4, 10|2 end to end): the 10|2's outline, fitted
    # around its bar, is turned a few degrees off the tile; the 2 (two blue pips across the
    # half) was read 1 at 0.96, its spots on no layout, the 10's pips cut by the outline's
    # side: sure on the tile finder alone, 33 for 34
    scene = synth_modes.benchmark_scene("touching", 5, seed=331)
    reading = read_unhurried(scene.jpeg)
    assert not reading.confident
    assert reading.total == scene.total == 34  # (a later look reads the 2)
    monkeypatch.setattr(agree, "WHOLE_PIP", (9.0, 9.0))  # no spot the size of a whole pip
    before = read_unhurried(scene.jpeg)
    assert before.confident and before.total == scene.total - 1

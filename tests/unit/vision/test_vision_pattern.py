"""The pip-pattern check (issue 40, item 1): a half's dark spots must sit where a real
domino's layout puts the pips of the number read, not only be as many."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper.vision import agree, pattern  # noqa: E402

FACE = (238, 234, 222)
INK = (30, 30, 60)


def _half(points, margin=0.07, radius=5.5, size=agree.BLOB_PX) -> np.ndarray:
    """A half crop (bar at the bottom) with dark pips at ``points`` of the unit square."""
    img = np.full((size, size, 3), FACE, np.uint8)
    cv2.rectangle(img, (8, size - 3), (size - 8, size), (20, 20, 20), -1)  # the bar
    for x, y in (margin + (1 - 2 * margin) * np.asarray(points, float).reshape(-1, 2)) * size:
        cv2.circle(img, (round(x * 4), round(y * 4)), round(radius * 4), INK, -1, cv2.LINE_AA, 2)
    return img


@pytest.mark.parametrize("n", range(16))
@pytest.mark.parametrize("margin", [0.05, 0.1])
def test_each_layout_of_a_real_set_is_read_as_its_number(n, margin):
    radius = 5.5 if n <= 12 else 4.0  # double-15 sets: five pips a column, smaller pips
    for pts in pattern.variants(n) if n else [np.zeros((0, 2))]:
        assert agree.half_pattern(_half(pts, margin, radius)) == n


def test_double_15_layouts_are_three_columns_of_up_to_five():
    # 13 is 5-3-5, 14 is 5-4-5, 15 is 5-5-5 (the middle column of a 14 between the rows)
    for n, middle in ((13, 3), (14, 4), (15, 5)):
        xs = [x for x, _ in pattern.BASE_LAYOUTS[n]]
        assert (xs.count(0.2), xs.count(0.5), xs.count(0.8)) == (5, middle, 5)


@pytest.mark.parametrize("n", [13, 14, 15])
def test_a_double_15_half_fits_its_own_number_and_not_its_neighbours(n):
    for pts in pattern.variants(n):
        crop = _half(pts, 0.07, 4.0)
        mask, areas, _ = agree.spot_mask(crop)
        inner = [round(f * agree.BLOB_PX) for f in agree.BLOB_INNER]
        score = pattern.fits(mask, areas, agree.BLOB_PX, tuple(inner))
        assert pattern.pattern_number(score) == n
        for other in (n - 1, n + 1):
            if other <= 15:
                assert score[other] < score[n] - pattern.LEAD


def test_a_game_looks_at_the_layouts_of_its_set():
    # a double-15 game: a half on a 13's layout read as 12 is held against its reading; a
    # game up to double-12 looks at the layouts of 0-12, as before there were any of 13-15
    crop = _half(pattern.BASE_LAYOUTS[13], 0.07, 4.0)
    img = np.vstack([crop, np.full_like(crop, FACE)[::-1]])
    corners = np.array([[0, 0], [80, 0], [80, 160], [0, 160]], float)
    seen15 = agree.look_at_halves(img, [(corners, (12, 0))], 15)
    assert seen15[0][2] == 13 and agree.against(seen15)
    for max_pip in (6, 9, 12):
        seen = agree.look_at_halves(img, [(corners, (12, 0))], max_pip)
        assert seen[0][2] == -1  # (no layout of 0-12 fits a 13's spots)


# (pips drawn, number read, whether the pattern agrees)
CASES = [
    (pattern.BASE_LAYOUTS[9], 9, True),
    (pattern.BASE_LAYOUTS[9], 12, False),  # a 9 read as 12: three pips missing from the rows
    (pattern.BASE_LAYOUTS[9], 8, False),  # ... read as 8: the 3-2-3 has no pip at the middle
    (pattern.BASE_LAYOUTS[11], 11, True),
    (pattern.BASE_LAYOUTS[11], 10, False),  # the middle pip of an 11 is no pip of a 10
    (pattern.BASE_LAYOUTS[11], 12, False),
    (pattern.BASE_LAYOUTS[12], 11, False),
    (pattern.BASE_LAYOUTS[5], 4, False),  # a 5's middle pip is far from every pip of a 4
    (pattern.BASE_LAYOUTS[4], 5, False),  # ... and a 4 has no middle pip for a 5
    (pattern.BASE_LAYOUTS[6], 7, False),
    (pattern.BASE_LAYOUTS[7], 6, False),
    (pattern.BASE_LAYOUTS[9][:8], 9, False),  # a 9 with a pip missing is not a 9
    (pattern.BASE_LAYOUTS[9][:8], 8, False),  # ... nor an 8
    (pattern.BASE_LAYOUTS[3], 2, False),
    ([], 1, False),
    (pattern.BASE_LAYOUTS[1], 0, False),
    (pattern.BASE_LAYOUTS[13], 13, True),
    (pattern.BASE_LAYOUTS[13], 12, False),
    (pattern.BASE_LAYOUTS[13], 14, False),
    (pattern.BASE_LAYOUTS[14], 14, True),
    (pattern.BASE_LAYOUTS[14], 13, False),
    (pattern.BASE_LAYOUTS[14], 15, False),
    (pattern.BASE_LAYOUTS[15], 15, True),
    (pattern.BASE_LAYOUTS[15], 14, False),
    (pattern.BASE_LAYOUTS[15], 12, False),
    (pattern.BASE_LAYOUTS[12], 15, False),
    (pattern.BASE_LAYOUTS[12], 13, False),
]


@pytest.mark.parametrize(("pts", "read", "agrees"), CASES)
def test_the_pattern_agrees_only_with_the_number_whose_layout_the_pips_sit_on(pts, read, agrees):
    crop = _half(pts, radius=5.5 if len(pts) <= 12 else 4.0)
    corners = np.array([[0, 0], [80, 0], [80, 160], [0, 160]], float)
    tile = np.vstack([crop, np.full_like(crop, FACE)[::-1]])  # the other half blank
    seen = agree.look_at_halves(tile, [(corners, (read, 0))], 15)  # (a double-15 game)
    assert ("pattern" in agree.halves_agree(seen)) is agrees


def test_pips_run_together_still_sit_on_their_layout():
    # a 6 whose pips of each column run into one dark stripe: no count of spots, but the
    # spots cover every pip of the 6 and nothing else
    img = _half(pattern.BASE_LAYOUTS[6])
    for x in (0.2, 0.8):
        px = round((0.07 + 0.86 * x) * 80)
        cv2.line(img, (px, round(0.24 * 80)), (px, round(0.76 * 80)), INK, 7)
    assert agree.dark_spots(img) == -1  # ... too large for a pip: the count is not known
    assert agree.half_pattern(img) == 6


def test_a_speck_is_no_pip_but_a_spot_away_from_the_layout_is():
    img = _half(pattern.BASE_LAYOUTS[4])
    img[40, 40] = INK  # one dark pixel: too small for a spot
    assert agree.half_pattern(img) == 4
    cv2.circle(img, (40, 40), 5, INK, -1)  # a pip's worth of dark in the middle
    assert agree.half_pattern(img) == 5


@pytest.mark.parametrize("value", range(16))
def test_the_renderers_faces_fit_their_layouts(value):
    from scorekeeper.vision.synth_faces import random_style, render_face

    rng = np.random.default_rng(100 + value)
    img, _ = render_face(value, 0, random_style(rng, 12 if value <= 12 else 15), 120, rng)
    face = np.clip(img, 0, 255).astype(np.uint8)
    L, W = face.shape[:2]
    corners = np.array([[0, 0], [W, 0], [W, L], [0, L]], float)
    seen = agree.look_at_halves(face, [(corners, (value, 0))], 12 if value <= 12 else 15)
    assert [number for _, _, number in seen] == [value, 0]

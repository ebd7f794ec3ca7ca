"""The pip-pattern check (issue 40): each half's dark spots sit where a real domino's layout
puts the pips of the number read, not only as many of them.

The layouts are the ones real double-6, 9, 12 and 15 sets use (and the renderer draws): a
3x3 grid for 0-9 (8 is 3-2-3, 7 is 3-1-3), columns of 4-2-4 for 10, 4-3-4 for 11, 4x3 for 12,
5-3-5 for 13, 5-4-5 for 14 and 5x3 for 15 (a 14's middle four between the rows of five), and
the variants some sets print (a 2 or 3 on the other diagonal, a 2 down the middle, 8 as two
rows of 3 and 2 at the sides, 10 with its middle pair inside), each in any of the eight ways
a square half can be turned or mirrored, with the pips nearer to or further from the half's
rim (``MARGINS``).

A half (the ``agree.BLOB_PX`` square crop, bar at the bottom) fits a layout when its dark
spots (``agree.spot_mask``: the same dark pixels the ``pips`` check counts, a shape too large
for one pip included) cover every pip of the layout (each pip's disc, of the radius of the
half's own spots, at least ``COVER`` dark) and lie on its pips (less than ``OUTSIDE`` of a
pip's area of dark further than ``HALO`` radii from every pip). The pattern's number is the
number with the best-fitting layout, when no other number fits nearly as well (``LEAD``: an
11's 4-3-4 and a 12's 4x3 are close). No learned model and no count: pips run together still
lie on their layout, and a spot away from the layout, or a pip of the layout with no spot, is
seen whatever the number of spots.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product

import cv2
import numpy as np

# Pip layouts. Coordinates in the unit square of one half: x across the tile (0..1),
# y from the tile's end (0) to the bar (1). (synth_faces draws the renders' pips from these.)
_C3 = (0.2, 0.5, 0.8)
_R4 = (0.14, 0.38, 0.62, 0.86)
_R5 = (0.12, 0.31, 0.5, 0.69, 0.88)  # double-15 sets: columns of up to 5 (smaller pips)
_R5_4 = (0.215, 0.405, 0.595, 0.785)  # ... a 14's middle column of 4, between those rows
MAX_PIPS = 15  # the most pips a layout has (a double-15 set's 15)


def _grid(xs, ys):
    return [(x, y) for x in xs for y in ys]


BASE_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.2, 0.2), (0.8, 0.8)],
    3: [(0.2, 0.2), (0.5, 0.5), (0.8, 0.8)],
    4: _grid((0.2, 0.8), (0.2, 0.8)),
    5: _grid((0.2, 0.8), (0.2, 0.8)) + [(0.5, 0.5)],
    6: _grid((0.2, 0.8), _C3),
    7: _grid((0.2, 0.8), _C3) + [(0.5, 0.5)],
    8: _grid((0.2, 0.8), _C3) + [(0.5, 0.35), (0.5, 0.65)],
    9: _grid(_C3, _C3),
    10: _grid((0.2, 0.8), _R4) + [(0.5, 0.14), (0.5, 0.86)],
    11: _grid((0.2, 0.8), _R4) + [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    12: _grid(_C3, _R4),
    13: _grid((0.2, 0.8), _R5) + [(0.5, y) for y in _R5[1:4]],
    14: _grid((0.2, 0.8), _R5) + [(0.5, y) for y in _R5_4],
    15: _grid(_C3, _R5),
}

# Alternative layouts seen on some sets.
ALT_LAYOUTS: dict[int, list[list[tuple[float, float]]]] = {
    2: [[(0.2, 0.8), (0.8, 0.2)], [(0.5, 0.25), (0.5, 0.75)]],
    3: [[(0.2, 0.8), (0.5, 0.5), (0.8, 0.2)]],
    8: [_grid((0.2, 0.5, 0.8), (0.2, 0.8)) + [(0.2, 0.5), (0.8, 0.5)]],
    10: [_grid((0.2, 0.8), _R4) + [(0.5, 0.38), (0.5, 0.62)]],
}

# A layout's unit square in the half: from this fraction of the half's width from its rim
# to the same fraction from the other side (the renderer's sets: 0.04 to 0.10; the real
# sets of the development photos, seen in half crops cut a little loose: up to about 0.14)
MARGINS = (0.03, 0.07, 0.11, 0.15)
RADII = (3, 9)  # a pip's radius in pixels of the crop: the spots' own, within these
COVER = 0.35  # each pip of the layout: at least this much of its disc dark
HALO = 1.8  # ... and the dark pixels within this many radii of one of its pips, all but
OUTSIDE = 0.5  # ... this many pips' area of them
LEAD = 0.1  # a number fits only when no other one fits within this of it (an 11 and a 12)
STEP = 3  # (the dark pixels looked at on a grid of this many pixels)


def variants(n: int) -> list[np.ndarray]:
    """Every distinct layout of ``n`` pips (k x 2, unit square), turned and mirrored."""
    out: dict[tuple, np.ndarray] = {}
    for pts in [BASE_LAYOUTS[n], *ALT_LAYOUTS.get(n, [])]:
        a = np.array(pts, np.float64).reshape(-1, 2)
        for swap, fx, fy in product((False, True), repeat=3):
            b = a[:, ::-1].copy() if swap else a.copy()
            if fx:
                b[:, 0] = 1 - b[:, 0]
            if fy:
                b[:, 1] = 1 - b[:, 1]
            out.setdefault(tuple(sorted(map(tuple, np.round(b, 3)))), b)
    return list(out.values())


@cache
def _layouts(size: int, a: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every layout of 1-15 pips at every margin, in pixels of the inner part (from ``a``)
    of a ``size`` crop: (numbers V, centres V x 15 x 2 padded with the first pip, whether
    a centre is a pip V x 15)."""
    numbers, centres, real = [], [], []
    for n in range(1, MAX_PIPS + 1):
        for pts in variants(n):
            for m in MARGINS:
                c = (m + (1 - 2 * m) * pts) * size - a
                numbers.append(n)
                centres.append(np.concatenate([c, np.repeat(c[:1], MAX_PIPS - n, axis=0)]))
                real.append(np.arange(MAX_PIPS) < n)
    return np.array(numbers), np.array(centres, np.float32), np.array(real)


@cache
def _nearest(size: int, a: int, side: int) -> np.ndarray:
    """For each layout (``_layouts``) and each cell of the ``STEP`` grid over the inner part
    (``side`` x ``side`` cells), the squared distance to the layout's nearest pip."""
    _, centres, _ = _layouts(size, a)
    ys, xs = np.mgrid[0:side, 0:side]
    cells = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float32) * STEP
    return ((centres[:, :, None, :] - cells[None, None]) ** 2).sum(axis=3).min(axis=1)


@lru_cache(maxsize=32)
def _disc(side: int, r: float) -> tuple[np.ndarray, np.ndarray]:
    """A pip's disc of radius ``r`` and how much of it lies inside a ``side`` square, at each
    pixel (the pips by the rim are partly outside the inner part)."""
    disc = np.zeros((2 * int(r) + 1,) * 2, np.float32)
    cv2.circle(disc, (int(r), int(r)), int(r), 1.0, -1)
    ones = np.ones((side, side), np.float32)
    inside = cv2.filter2D(ones, -1, disc, borderType=cv2.BORDER_CONSTANT)
    return disc, np.maximum(inside, 1)


def fits(
    mask: np.ndarray,
    areas: np.ndarray,
    size: int,
    inner: tuple[int, int],
    max_pip: int = MAX_PIPS,
) -> np.ndarray:
    """How well the dark spots ``mask`` (the inner part, from ``inner[0]`` to ``inner[1]``,
    of a ``size`` crop; 1 on a spot; ``areas``: the spots' sizes) lie on a layout of each
    number 0..``max_pip`` (the set's highest): for the best layout of a number, the least
    dark share of a pip's disc less the dark far from its pips (in pips' areas); -1 for a
    number no layout of which fits (a pip's disc under ``COVER`` dark, or more than
    ``OUTSIDE`` pips' area of dark elsewhere). A double-12 set has no 13: its halves are
    not held against the layouts of a double-15 set."""
    score = np.full(MAX_PIPS + 1, -1.0)
    m = mask.astype(np.float32)
    if m.sum() == 0:
        score[0] = 1.0
        return score[: max_pip + 1]
    numbers, least, r = _least(m, areas, size, inner)
    grid = m[::STEP, ::STEP]
    d = grid.reshape(-1)
    near = (_nearest(size, inner[0], grid.shape[0]) <= (HALO * r) ** 2).astype(np.float32)
    far = (d.sum() - near @ d) * STEP**2 / (np.pi * r * r)  # in pips
    ok = (least >= COVER) & (far <= OUTSIDE)
    np.maximum.at(score, numbers[ok], (least - far)[ok])
    return score[: max_pip + 1]


def _least(
    m: np.ndarray, areas: np.ndarray, size: int, inner: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, float]:
    """For each layout (``_layouts``: its number), the least dark share of the disc of one
    of its pips in the spots ``m`` (float, not all 0); and the pips' radius taken."""
    r = float(np.clip(np.sqrt(np.median(areas) / np.pi), *RADII))
    disc, inside = _disc(m.shape[0], r)
    cover = cv2.filter2D(m, -1, disc, borderType=cv2.BORDER_CONSTANT) / inside
    numbers, centres, real = _layouts(size, inner[0])
    ij = np.clip(np.rint(centres).astype(int), 0, m.shape[0] - 1)
    return numbers, np.where(real, cover[ij[..., 1], ij[..., 0]], 1.0).min(axis=1), r


def covered(mask: np.ndarray, areas: np.ndarray, size: int, inner: tuple[int, int], n: int) -> bool:
    """Whether the dark spots ``mask`` (as ``fits`` takes them) cover every pip of some layout
    of ``n`` (each pip's disc at least ``COVER`` dark), whatever else is dark: the pips of
    ``n`` are there, if among others. A blank is always covered."""
    m = mask.astype(np.float32)
    if n == 0:
        return True
    if m.sum() == 0:
        return False
    numbers, least, _ = _least(m, areas, size, inner)
    return bool(least[numbers == n].max() >= COVER)


def pattern_number(score: np.ndarray) -> int:
    """The number whose layout the spots fit best (``fits``), -1 when none fits or another
    number fits nearly as well (``LEAD``)."""
    n = int(score.argmax())
    second = np.partition(score, -2)[-2] if len(score) > 1 else -1.0
    return n if score[n] >= 0 and score[n] - second >= LEAD else -1

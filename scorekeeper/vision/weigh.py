"""Weighing one look's reading against another's (a stage of the photo reader,
``reader.py``): whether the look at the tile finder's outlines alone wins over the reading
made from bars (``finder_wins``), the tiles read from bars it keeps when it wins
(``tiles_beside``), and the tiles it read better that the reading from bars takes when it
does not (``surer_tiles``); and the tiles a reading not sure drops as no tile at all
(``no_tiles``). Needs the photo extra.
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from scorekeeper.vision import agree, tilenet
from scorekeeper.vision.checks import _grow, _poly_overlap
from scorekeeper.vision.counting import APART
from scorekeeper.vision.judge import PROBLEM_UNREADABLE
from scorekeeper.vision.reading import SURE_TILE, Reading


class Photo(Protocol):
    """What weighing needs of the photo being read (``reader._Photo``)."""

    rgb: np.ndarray
    s: float  # the detection copy's scale, where the tile finder looks
    finder: tilenet.Finder

    def quads(self, r: Reading) -> list[np.ndarray]:
        """The outlines of the tiles of ``r`` in pixels of ``rgb``."""
        ...


# the look at faces wins with as many tiles when its least sure tile is this much surer
FINDER_SURER = 0.2
# ... and when it does not win, it still reads a tile at the same place (its middle within
# this part of the tile's width of the other's) better when it reads it surer: that tile is
# taken from it (``surer_tiles``). Measured on 2,600 renders with no limit (every mode of
# ten seeds, 107 to 191): of 47 tiles read differently at the same place, 12 were read surer
# by the look at faces: 11 of them the look with bars read wrong and the faces right, one
# both wrong, none the other way; of the 35 it read less sure, the bars read 28 right (and
# the faces 6). Half a width: the middle of a tile beside it is a whole width away. Before
# sureness, pips past a tile's ends (``agree.pips_past``: an outline short of its tile): of
# those 47, two outlines of the bars' had them and the faces' none (both right from the
# faces, one of them less sure), three the other way (all three right from the bars).
SAME_PLACE = 0.5
# A tile read under this, where the tile finder sees no tile, whose face is this far from
# the faces of the tiles read at least SURE_TILE (the brighter part of its middle, x their
# brightest channel), is no tile: a mark of a busy table (seed 331's busy-009: four outlines
# on a purple board read 0|0, 0|10, 0|10 and 2|10 at 0.10-0.26 beside three white tiles).
# Logged on the 15,749 tiles read in 1,622 photos (the busy tables, mixes, steep tilts, small
# tiles and large spreads of seeds 277-331, and the real photos): 8 such tiles, in 5 photos,
# 7 of them in no hand, one a real tile misread (below); read under 0.52 there would be 26.
NO_TILE = 0.4
UNLIKE_FACE = 0.3
# ... and its face is the table around it, within this (a real tile's face stands out from
# the table even in a shadow: seed 307's tilt_30_45-005, a 0|12 in the shadow of a far
# corner, grey on green, read 0|11 at 0.27 and unseen by the finder, 0.12 from the table
# around it; the marks 0.00-0.07)
LIKE_AROUND = 0.1


def sureness(reading: Reading) -> list[float]:
    """How sure the half counter was of each tile's two halves (before a tile found as a
    face has its confidence lowered: comparable between a look with bars and one without)."""
    return [a * b for a, b in (t.half_confidences for t in reading.tiles)]


def finder_wins(finder: Reading, bars_: Reading) -> bool:
    """The look at the tile finder's outlines alone replaces the reading made from bars
    when it found more tiles, or as many and read its least sure tile surer by FINDER_SURER
    with no less sure a tile on average (a tile at a steep angle whose bar's outlines
    misread a half that its face's outline reads); or as many when the reading from bars
    left marks of a tile outside every tile it read and the finder's reading none (seed
    191's light_surface-006: a small tile's outline set over one half and the table beside
    it, its other half's 9 pips outside every tile; read whole from the finder's outline)."""
    if len(finder.tiles) != len(bars_.tiles):
        return len(finder.tiles) > len(bars_.tiles)
    if PROBLEM_UNREADABLE in bars_.problems and PROBLEM_UNREADABLE not in finder.problems:
        return True
    a, b = sureness(finder), sureness(bars_)
    return bool(a) and min(a) >= min(b) + FINDER_SURER and sum(a) >= sum(b)


def surer_tiles(photo: Photo, reading: Reading, faced: Reading) -> None:
    """Each tile of ``reading`` that ``faced`` (the look at faces) read differently at the
    same place (SAME_PLACE) is taken from ``faced`` when its outline there has no pip past
    its ends and the other has (seed 199's tilt_30_45-014: an 11|7's outline set a row of the
    11 past its end, read 8|7), or, neither having or both, when ``faced`` read it surer
    (seed 191's coloured_12-000: a 0|3 whose outline, set off its tile, left a pip of the 3
    outside, read 0|2 at 0.86 and 0|3 at 0.97). The reading stays as sure as it was: not."""
    mids = [np.mean(t.corners, axis=0) for t in faced.tiles]
    sure_b, sure_f = sureness(reading), sureness(faced)
    pairs: dict[int, int] = {}  # tile of reading -> the tile of faced at its place
    for i, t in enumerate(reading.tiles):
        width = float(np.linalg.norm(np.subtract(t.corners[1], t.corners[0])))
        mid = np.mean(t.corners, axis=0)
        far = [float(np.linalg.norm(m - mid)) for m in mids]
        k = int(np.argmin(far)) if far else -1
        if not far or far[k] > SAME_PLACE * width or k in pairs.values():
            continue
        if sorted(faced.tiles[k].halves) != sorted(t.halves):
            pairs[i] = k
    if not pairs:
        return
    clear_b = [n == 0 for n in agree.pips_past(photo.rgb, photo.quads(reading), pairs)]
    clear_f = [n == 0 for n in agree.pips_past(photo.rgb, photo.quads(faced), pairs.values())]
    for (i, k), cb, cf in zip(pairs.items(), clear_b, clear_f, strict=True):
        if (cf, sure_f[k]) > (cb, sure_b[i]):
            reading.tiles[i] = faced.tiles[k]
    reading.total = sum(t.pips for t in reading.tiles)


def tiles_beside(photo: Photo, faced: Reading, bars_: Reading) -> None:
    """When the look at faces wins (``finder_wins``), the tiles the reading from bars read
    at least SURE_TILE where the faces' reading has none (its outlines apart, APART) are kept
    in it: the tile finder misses a tile now and then that its bar led to (seed 317's
    mix-004: a 9|5 in a row of eight touching end to end; seed 317's tilt_30_45-015: a 0|1
    near the camera, blurred). On the 5,402 photos of seeds 89 to 317 and the real ones
    (within the budget), the faces' reading won over one with such tiles in 6 photos: 8
    tiles, read 0.61 to 0.97, all 8 right. The reading stays as sure as it was: not."""
    have = photo.quads(faced)
    for q, t in zip(photo.quads(bars_), bars_.tiles, strict=True):
        if t.confidence >= SURE_TILE and not any(_poly_overlap(q, h) >= APART for h in have):
            faced.tiles.append(t)
            have.append(q)
    faced.total = sum(t.pips for t in faced.tiles)


def no_tiles(photo: Photo, reading: Reading) -> None:
    """Drop the tiles of a reading not sure that are no tile (``NO_TILE``, ``UNLIKE_FACE``,
    ``LIKE_AROUND``): the player would have to delete each. The reading stays as sure as it
    was: not."""
    sure = [i for i, t in enumerate(reading.tiles) if t.confidence >= SURE_TILE]
    low = [i for i, t in enumerate(reading.tiles) if t.confidence < NO_TILE]
    if reading.confident or not sure or not low:
        return
    quads = photo.quads(reading)
    ref = np.median([_face(photo.rgb, quads[i]) for i in sure], axis=0)
    seen = agree.finder_vouches(photo.finder, [quads[i] * photo.s for i in low])
    drop = {
        i
        for i, vouched in zip(low, seen, strict=True)
        if not vouched
        and _unlike(face := _face(photo.rgb, quads[i]), ref)
        and np.linalg.norm(face - _around(photo.rgb, quads[i])) <= LIKE_AROUND * ref.max()
    }
    reading.tiles = [t for i, t in enumerate(reading.tiles) if i not in drop]
    reading.total = sum(t.pips for t in reading.tiles)


def _unlike(face: np.ndarray, ref: np.ndarray) -> bool:
    """Whether ``face`` is UNLIKE_FACE from the sure tiles' faces ``ref`` and darker: a face
    under a lamp's glare is whiter than the rest, never darker (seed 241's large_spread-005:
    four tiles in a glare, two read amber, none of the set's colour)."""
    bright = max(float(ref.max()), 1.0)
    return bool(np.linalg.norm(face - ref) > UNLIKE_FACE * bright and face.max() < bright)


def _face(rgb: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The colour of a tile's face: in the middle of its outline (its inner 0.6, pips and
    all)."""
    return _colour(rgb, quad, 0.6)


def _around(rgb: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The colour of what lies around a tile's outline: in a band from 1.15 to 1.5 times it."""
    return _colour(rgb, quad, 1.5, 1.15)


def _colour(rgb: np.ndarray, quad: np.ndarray, out: float, hole: float = 0.0) -> np.ndarray:
    """The 75th percentile of each channel of ``rgb`` inside ``quad`` grown ``out`` times
    about its middle and outside it grown ``hole`` times (none when 0)."""
    inside, cut = (np.zeros(rgb.shape[:2], np.uint8) for _ in range(2))
    q = np.asarray(quad, np.float64)
    cv2.fillConvexPoly(inside, np.round(_grow(q, out)).astype(np.int32), 1)
    if hole:
        cv2.fillConvexPoly(cut, np.round(_grow(q, hole)).astype(np.int32), 1)
    pixels = rgb[(inside > 0) & (cut == 0)]
    return np.percentile(pixels, 75, axis=0) if len(pixels) else np.zeros(3)

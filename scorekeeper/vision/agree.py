"""Checks independent of the half counter and of the outline a tile was read from: a reading
is sure only when they agree with it (issue 40). Each check looks at the photo another way:

- ``pips``: each half's pips counted as dark spots (connected dark blobs on the face, no
  learned model) equal the count the half counter read; a half with more dark spots than the
  pips read (a pip missed) or fewer (pips merged or washed out) fails.
- ``finder``: the learned tile finder (``tilenet``, a network that sees whole tiles, not
  bars) finds a tile at every tile read, and no tile where none was read.

A sure reading lists the checks that agreed (``Reading.checks``). Needs the photo extra.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision import pattern, tilenet
from scorekeeper.vision.checks import _grow
from scorekeeper.vision.halves import CropSource, half_quads

BLOB_PX = 80  # each half is looked at as a square this many pixels wide
BLOB_INNER = (0.13, 0.87)  # ... the part inside its rim and above its bar
_INNER_PX = (round(BLOB_INNER[0] * BLOB_PX), round(BLOB_INNER[1] * BLOB_PX))  # (in its pixels)
BLOB_DARK = 0.55  # a pixel of a dark spot: brightest channel under this x the face's
BLOB_COLOUR = 0.4  # ... or this far (x the face's brightness) from the face's colour
BLOB_MIN_AREA = 16  # a dark spot this many pixels or more (of BLOB_PX squared) is a pip
BLOB_MAX_AREA = 450  # ... more than this is no pip: the count is not known (-1)
# a half read blank: spots this far (x the face's brightness) from the face's colour, pale or
# not, are pips too (silver or pale pips on a cream face are neither dark nor "far"); two or
# more and the half is no blank. The 68 blank halves of right sure readings measured (27 in
# the real photos, 41 in five modes of seed 83) show none (99th percentile of their pixels
# at most 0.22 from the face; at 0.2 one real half shows two flecks); silver pips show 11
PALE = 0.25
PALE_SPOTS = 2
# ... and one such spot in the middle of a half read blank is a 1's pip (seed 167's
# woven_cloth-011: a silver 1 on a tan face read 0, sure of 11 for 12): a spot whose centre
# is within this part of the half's inner square of its middle
PALE_MIDDLE = 0.1

CHECKS = ("pips", "pattern", "finder")
# A reading is sure only when at least this many of CHECKS agree with it (judge.decide), and
# no half's spots sit on the layout of another number (``against``). More checks at once
# would be stricter, but the dark spots of a half are off by a pip or two on a tenth of the
# tiles the counter reads right (real photos: 80 of 89 tiles agree; renders 159 of 169), and
# the finder misses or splits tiles in touching rows: requiring two of three made 4 of the
# 13 sure real photos and 30 of 134 sure renders unsure, all read right. The finder does not
# look at the pips: alone it would vouch for any half misread; the pattern's veto stops most
# of those (a half of each sure reading read a pip off, in turn: 2,339 of 2,839 such readings
# still sure without it, 292 with it; docs/photo-check.md, "Eleventh step").
AGREEING = 1
# A half the counter is less sure of than this needs its own dark spots, or their layout, to
# be the pips read: the finder, vouching alone, does not look at pips (seed 139's
# touching-018: an outline turned off its tile left two pips of an 8 at its edge, read 7 at
# 0.695, six spots, sure on the finder alone). Of 495 sure readings of 982 photos, four had
# such a half (under 0.8) that neither backed: that one, and three read right (renders
# only: no real photo).
DOUBTED_HALF = 0.8
# A pip cut by a tile's end: under a steep tilt a tile is a trapezoid, and the rectangle read
# around its bar can cut a corner off a half (seed 163's tilt_30_45-008: three pips of an 11
# past the end, read 8, sure on the finder alone). The strip across each end of a tile read
# is looked at for spots of a pip's size that reach past the end: a pip of a tile read right
# lies a fifth of the tile's width inside it. Of 963 sure readings (1,782 photos) only that
# one shows such a pip (a real one, hand-jmherzog-1, shows a pip a twenty-fifth past; a light
# speckled table, grey marks the size of pips: PAST_COLOUR 0.8 from the half's blue pips).
PAST_END = (0.15, 0.12)  # the strip: this part of the tile's length beyond the end, inside it
PAST_AREA = 32  # a pip past the end: this many pixels or more (of BLOB_PX squared),
PAST_PART = 0.2  # ... at least this part of them beyond the end,
PAST_RING = 0.7  # ... this part of the ring around it the face's colour (FACE_NEAR of it),
FACE_NEAR = 0.15  # ... (x the face's brightness; and no darker than 0.85 of it)
PAST_COLOUR = 0.25  # ... and of the colour of the half's own pips (this far, x the same)
# ... and past the long sides of each half (seed 319's touching-016: an outline a column
# short of a 6|12's side, its 12 read 9 at 0.86, sure on the finder alone)
PAST_SIDES = True
# A half read a number whose layout its dark spots do not cover, though more of them than
# the pips read have a whole pip's size (this part of the median spot of the tiles read, to
# this): the count is wrong, or the outline is off the half (seed 331's touching-005: an
# outline turned off a 10|2, the 2's two blue pips read 1 at 0.96, sure on the finder alone).
# Of 2,371 sure readings right (4,182 photos: seeds 277-331 and the real ones) 7 show such a
# half: a neighbour's pip at a half's edge, or a silver pip's rim in two pieces.
WHOLE_PIP = (0.7, 1.4)
# The checks run only when they fit before the time limit (``time_to_check``).
CHECK_SECONDS = 0.007  # CPU the checks of a reading take per tile (0.006 measured; 0.004
# before the sides of the halves were looked past)


def time_to_check(deadline, tiles: int) -> bool:
    """Whether the checks of a reading of ``tiles`` tiles fit before ``deadline``'s limit
    (``bars.Deadline``): a reading left unchecked is never sure."""
    return deadline.time_for(CHECK_SECONDS * tiles)


def vouch(
    checks: list[str], contradicted: bool = False, blurred: bool = False, unbacked: bool = False
) -> bool:
    """Whether the checks that agreed (``checks``, of CHECKS) make a reading sure, when a
    half's pattern is (``contradicted``) or is not that of another number, and a half the
    counter doubts has (``unbacked``: ``doubted_unbacked``) or has not nothing that looks at
    pips behind it. The finder does not look at pips: it vouches alone only for a sharp
    photo (``blurred``: a tile's edges past judge.BLUR_LIMIT), where the pips' own checks
    failing says little; in a blurred one, where the pips run into each other, the half
    counter would be alone (seed 73's tilt_30_45-003, an 8|9 read 10|12 from an outline off
    the tile, was sure that way)."""
    if blurred and list(checks) == ["finder"]:
        return False
    return len(checks) >= AGREEING and not contradicted and not unbacked


def doubted_unbacked(seen: list[tuple[int, int, int]], sureness: list[float]) -> bool:
    """Whether a half the counter is less than DOUBTED_HALF sure of (``sureness``, one per
    half, in the order of ``seen``: ``look_at_halves``) shows neither as many dark spots as
    the pips read nor a layout of that number."""
    return any(
        c < DOUBTED_HALF and spots != v and pat != v
        for (v, spots, pat), c in zip(seen, sureness, strict=True)
    )


def pips_past_ends(rgb: np.ndarray, quads: list[np.ndarray]) -> int:
    """How many pips reach past the ends of the tiles read (``quads``: corners in pixels of
    ``rgb``, end A first): spots of a pip's size a PAST_PART or more beyond the end, of the
    colour of the half's own pips, with the face's colour around them and in no other tile
    read. Any is an outline short of its tile."""
    return sum(pips_past(rgb, quads, range(len(quads))))


def pips_past(rgb: np.ndarray, quads: list[np.ndarray], which) -> list[int]:
    """The pips past the two ends of each tile ``which`` (indices into ``quads``: the tiles
    read, in pixels of ``rgb``, end A first; the others count as tiles read around it)."""
    src = CropSource(rgb)
    numbered = _numbered(rgb.shape, quads)
    out = []
    for i in which:
        c = np.asarray(quads[i], np.float64)
        ends = zip(_crops(src, c), (c, c[[2, 3, 0, 1]]), strict=True)
        own = min(i + 1, 255)
        out.append(sum(_past_edges(src, numbered, own, e, _face_of(h), False) for h, e in ends))
    return out


def _edges(end: np.ndarray, sides: bool) -> list[np.ndarray]:
    """The edges of a half whose pips may reach past them, as ``_past_end`` looks past end A:
    the tile's end (``end``: its corners, that end first) and, when ``sides``, the half's
    two long sides, each given as corners whose first edge it is and whose third corner lies
    a tile's length in (a tile is two widths long: the strip past a side is drawn to the
    same scale as the one past an end)."""
    e = np.asarray(end, np.float64)
    out = [e]
    if sides:
        for a, b, d in ((e[1], e[2], e[0]), (e[0], e[3], e[1])):
            mid = (a + b) / 2
            inward = 2 * (d - a)
            out.append(np.array([a, mid, mid + inward, a + inward]))
    return out


def _numbered(shape: tuple[int, ...], quads: list[np.ndarray]) -> np.ndarray:
    """An image of ``shape`` with each tile of ``quads`` filled with its number from 1."""
    tiles = np.zeros(shape[:2], np.uint8)
    for i, q in enumerate(quads):
        cv2.fillConvexPoly(tiles, np.round(q).astype(np.int32), min(i + 1, 255))
    return tiles


def _past_edges(
    src: CropSource, tiles: np.ndarray, own: int, end: np.ndarray, face, sides: bool
) -> int:
    """The pips reaching past the end of a half, and past its long sides when ``sides``
    (``_edges``): the tile ``end`` (its corners, that half's end first; ``own`` in
    ``tiles``), the half's face ``face`` (``_face_of``)."""
    inner, light, face_rgb, bright = face
    pips = _unlike_face(light, np.linalg.norm(inner - face_rgb, axis=2), bright)
    pip_rgb = np.median(inner[pips], axis=0) if pips.sum() >= BLOB_MIN_AREA else None
    return sum(_past_end(src, tiles, own, e, face, pip_rgb) for e in _edges(end, sides))


def _past_end(
    src: CropSource, tiles: np.ndarray, own: int, c: np.ndarray, half_face, pip_rgb
) -> int:
    """The pips reaching past end A of the tile ``c`` (``own`` in ``tiles``), the face of
    its half there being ``half_face`` (``_face_of``), its pips' colour ``pip_rgb`` (None:
    too few pips to tell)."""
    beyond, inside = PAST_END

    def at(s, t):  # s across the tile (0..1), t from its end A (0) towards end B (1)
        return c[0] + (c[1] - c[0]) * s + (c[3] - c[0]) * t

    q = np.array([at(0.08, -beyond), at(0.92, -beyond), at(0.92, inside), at(0.08, inside)])
    w, h = round(0.84 * BLOB_PX), round((beyond + inside) * 2 * BLOB_PX)
    strip = src.crop(q, w, h).astype(np.float32)
    _inner, _light, face_rgb, face = half_face
    lit, dist = strip.max(axis=2), np.linalg.norm(strip - face_rgb, axis=2)
    marked = _unlike_face(lit, dist, face).astype(np.uint8)
    end = beyond * 2 * BLOB_PX  # the row of the tile's end
    k, labels, stats, _ = cv2.connectedComponentsWithStats(marked, connectivity=8)
    x, y, bw, bh, area = stats[1:].T
    maybe = (
        (area >= PAST_AREA)
        & (area <= BLOB_MAX_AREA)
        & (np.maximum(bw, bh) <= 1.8 * np.minimum(bw, bh))
        & (y <= end - 2)  # reaching past the end, not cut off by the strip's sides
        & (x > 0)
        & (y > 0)
        & (x + bw < w)
    )
    if not maybe.any():
        return 0
    M = cv2.getPerspectiveTransform(np.float32(q), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    other = cv2.warpPerspective(tiles, M, (w, h), flags=cv2.INTER_NEAREST)
    other = (other > 0) & (other != own)
    facey = (dist < FACE_NEAR * face) & (lit > 0.85 * face) & ~other
    n = 0
    for j in np.flatnonzero(maybe) + 1:
        spot = labels == j
        if other[spot].any() or (np.nonzero(spot)[0] < end).mean() < PAST_PART:
            continue
        if (
            pip_rgb is not None
            and np.linalg.norm(np.median(strip[spot], axis=0) - pip_rgb) > PAST_COLOUR * face
        ):
            continue
        u8 = spot.astype(np.uint8)
        ring = cv2.dilate(u8, np.ones((9, 9), np.uint8)) > cv2.dilate(u8, np.ones((3, 3), np.uint8))
        n += int(facey[ring].mean() >= PAST_RING)
    return n


def pale_spots(crop: np.ndarray) -> int:
    """The spots of one half crop (square, bar at the bottom) that differ from its face's
    colour by PALE or more, dark or not: what a half read blank must not show."""
    return len(_pale(crop))


def _pale(crop: np.ndarray, face_of=None) -> np.ndarray:
    """The centres of ``pale_spots`` (x, y as parts of the half's inner square, 0 to 1).
    (``face_of``: its ``_face_of`` when known.)"""
    inner, _light, face_rgb, face = face_of or _face_of(crop)
    marked = (np.linalg.norm(inner - face_rgb, axis=2) > PALE * face).astype(np.uint8)
    _k, _labels, stats, centres = cv2.connectedComponentsWithStats(marked, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA] * (BLOB_PX / crop.shape[0]) ** 2
    return centres[1:][areas >= BLOB_MIN_AREA] / inner.shape[0]


def _face_of(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The part of a half crop inside its rim and above its bar (float), its brightest
    channel, and its face's colour and brightness (the brighter quarter of it)."""
    n = crop.shape[0]
    a, b = round(BLOB_INNER[0] * n), round(BLOB_INNER[1] * n)
    inner = crop[a:b, a:b].astype(np.float32)
    light = inner.max(axis=2)
    top = light >= np.percentile(light, 75)
    return inner, light, np.median(inner[top], axis=0), max(float(light[top].min()), 30.0)


def _unlike_face(light: np.ndarray, dist: np.ndarray, face: float) -> np.ndarray:
    """The pixels of a spot (brightest channel ``light``, ``dist`` from the face's colour):
    darker than the face, or clearly of another colour (a green or yellow pip)."""
    return (light < BLOB_DARK * face) | (dist > BLOB_COLOUR * face)


def spot_mask(crop: np.ndarray, face_of=None) -> tuple[np.ndarray, np.ndarray, bool]:
    """The dark spots of one half crop (square, bar at the bottom): a mask of the inner part
    (1 on the spots of ``BLOB_MIN_AREA`` or more), their sizes (pixels of a ``BLOB_PX``
    square) and whether a dark shape too large for a pip is there. (``face_of``: its
    ``_face_of`` when known.)"""
    n = crop.shape[0]
    inner, light, face_rgb, face = face_of or _face_of(crop)
    dark = _unlike_face(light, np.linalg.norm(inner - face_rgb, axis=2), face).astype(np.uint8)
    k, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA] * (BLOB_PX / n) ** 2
    keep = np.concatenate([[False], areas >= BLOB_MIN_AREA])
    return keep[labels], areas[keep[1:]], bool((areas > BLOB_MAX_AREA).any())


def dark_spots(crop: np.ndarray) -> int:
    """The pips of one half crop (square, bar at the bottom) counted as dark spots; -1 when
    a dark shape too large for a pip is there."""
    return look_at_half(crop, pattern_too=False)[0]


def half_pattern(crop: np.ndarray) -> int:
    """The number whose pip layout the dark spots of one ``BLOB_PX`` half crop fit
    (``pattern.py``); -1 when none fits. (A dark shape too large for a pip counts: pips
    run together still lie on their layout.)"""
    return look_at_half(crop)[1]


def look_at_half(
    crop: np.ndarray,
    pattern_too: bool = True,
    max_pip: int = pattern.MAX_PIPS,
    face_of=None,
    keep: list | None = None,
) -> tuple[int, int]:
    """(``dark_spots``, ``half_pattern``) of one half crop, its dark spots found once (the
    pattern -1 when not ``pattern_too``; among the layouts of 0..``max_pip``); ``keep`` (when
    given) gets the spots (``spot_mask``'s mask and sizes)."""
    mask, areas, too_large = spot_mask(crop, face_of)
    if keep is not None:
        keep.append((mask, areas))
    spots = -1 if too_large else len(areas)
    if not pattern_too:
        return spots, -1
    fit = pattern.fits(mask, areas, BLOB_PX, _INNER_PX, max_pip)
    return spots, pattern.pattern_number(fit)


def _crops(src: CropSource, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    qa, qb = half_quads(corners, margin=0.0)  # (no surroundings: a dark table is no pip)
    return src.crop(qa, BLOB_PX), src.crop(qb, BLOB_PX)


def look_at_halves(
    rgb: np.ndarray,
    tiles: list[tuple[np.ndarray, tuple[int, int]]],
    max_pip: int = 12,
    past: list[int] | None = None,
    spots: list | None = None,
) -> list[tuple[int, int, int]]:
    """Each half of ``tiles`` (corners in pixels of ``rgb``, values read) as (value read,
    dark spots, pattern number), in a game of a set up to double-``max_pip``: the layouts of
    0-12 in any game up to double-12 (as before there were double-15 layouts: a double-6
    game still holds a half on a 9's layout against its reading), of 0-15 in a double-15
    game. ``past`` (when given) gets the pips past each half's end and its two long sides
    (``_edges``; ``pips_past_ends`` looks past the ends only), ``spots`` each half's dark
    spots (``look_at_half``'s ``keep``: for ``pips_over``)."""
    layouts = max(max_pip, 12)
    src = CropSource(rgb)
    numbered = None if past is None else _numbered(rgb.shape, [c for c, _ in tiles])
    out = []
    for i, (c, v) in enumerate(tiles):
        c = np.asarray(c, np.float64)
        for crop, value, end in zip(_crops(src, c), v, (c, c[[2, 3, 0, 1]]), strict=True):
            face = _face_of(crop)
            n, pat = look_at_half(crop, max_pip=layouts, face_of=face, keep=spots)
            if past is not None:
                past.append(_past_edges(src, numbered, min(i + 1, 255), end, face, PAST_SIDES))
            pale = _pale(crop, face) if value == 0 and n == 0 else []
            if len(pale) >= PALE_SPOTS:
                n, pat = len(pale), -1  # pale pips: their number is not known, but not 0
            elif len(pale) == 1 and np.abs(pale[0] - 0.5).max() < PALE_MIDDLE:
                n, pat = 1, 1  # a pale pip where a 1 has its pip
            out.append((int(value), n, pat))
    return out


def halves_agree(seen: list[tuple[int, int, int]]) -> list[str]:
    """Which of the checks on the halves (``seen``: ``look_at_halves``) agree with every
    half: "pips" when every half shows as many dark spots as the pips read, "pattern" when
    every half's spots sit on a layout of the number read."""
    pips = all(s == v for v, s, _ in seen)
    pat = all(p == v for v, _, p in seen)
    return [name for name, ok in (("pips", pips), ("pattern", pat)) if ok]


def against(seen: list[tuple[int, int, int]], spots: list | None = None) -> bool:
    """Whether a half's spots sit on the layout of another number than the one read (of 1
    or more: a half with no dark spot at all may have pale pips, yellow or silver), or a
    half read blank shows PALE_SPOTS spots or more (silver pips on a cream face, seed 83's
    light_surface-002: a 1|11 read 0|1 with every check agreeing; one pale spot in its middle
    is a 1's layout: ``look_at_halves``), or (``spots``: each half's, when looked at) a half
    shows more whole pips than it is read (``pips_over``)."""
    if spots is not None and pips_over(seen, spots):
        return True
    return any((p >= 1 and p != v) or (v == 0 and s >= PALE_SPOTS) for v, s, p in seen)


def pips_over(seen: list[tuple[int, int, int]], spots: list) -> bool:
    """Whether a half (``seen``, ``spots``: ``look_at_halves``) shows more dark spots of a
    whole pip's size (``WHOLE_PIP`` of the median spot of the tiles read) than the pips it is
    read, and no layout of the number read under them (``pattern.covered``)."""
    sizes = [a for _, areas in spots for a in areas]
    if not sizes:
        return False
    low, high = np.multiply(WHOLE_PIP, np.median(sizes))
    return any(
        n >= 0
        and int(((areas >= low) & (areas <= high)).sum()) > v
        and not pattern.covered(mask, areas, BLOB_PX, _INNER_PX, v)
        for (v, n, _), (mask, areas) in zip(seen, spots, strict=True)
    )


def finder_agrees(finder: tilenet.Finder, quads: list[np.ndarray]) -> bool:
    """Whether the tile finder's tiles and the tiles read (``quads``, pixels of the image
    the finder looks at) are the same: one of its tiles in each tile read, and each of its
    tiles in a tile read."""
    every_read, every_found = _both_ways(finder, quads)
    return all(every_read) and all(every_found)


def finder_vouches(finder: tilenet.Finder, quads: list[np.ndarray]) -> list[bool]:
    """For each tile read (``quads``, pixels of the image the finder looks at): whether one
    of the tile finder's tiles lies in it."""
    return _both_ways(finder, quads)[0]


def _both_ways(finder: tilenet.Finder, quads: list[np.ndarray]) -> tuple[list[bool], list[bool]]:
    """For each tile read, whether one of the finder's tiles lies in it; for each of the
    finder's tiles, whether it lies in a tile read."""
    mids, polys = _finder_mids(finder), [np.float32(_grow(q, 1.1)) for q in quads]
    inside = [[cv2.pointPolygonTest(p, m, False) >= 0 for m in mids] for p in polys]
    table = np.array(inside, bool).reshape(len(polys), len(mids))
    return table.any(axis=1).tolist(), table.any(axis=0).tolist()


def _finder_mids(finder: tilenet.Finder) -> list[tuple[float, float]]:
    """The middle of each of the tile finder's tiles (one per group of outlines)."""
    mids: dict = {}
    for c in finder.tiles():
        mids.setdefault(c.group, (float(c.corners[:, 0].mean()), float(c.corners[:, 1].mean())))
    return list(mids.values())

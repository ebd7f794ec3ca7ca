"""Signs of a tile the reader did not read, judged after its tiles are read: face-coloured
areas the size of a tile, pips, bars or clean outlines that no tile read explains."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

import cv2
import numpy as np

from scorekeeper.vision import bars
from scorekeeper.vision.checks import FACE_AT_FRAME, _grow, _poly_overlap, _spread

# an outline around a bar that no tile read covers counts as a missed tile when it is this
# clean, or when the counter gives it this much "is a tile"
UNREAD_EDGE = 1.0
UNREAD_TILE = 0.1
UNREAD_BESIDE = 0.25  # ... for an outline fitted where a neighbour of a tile read would lie

_held = threading.local()  # each thread's images and what was worked out from them


def once_per_image(image: np.ndarray, name: str, make: Callable[[np.ndarray], object]):
    """``make(image)``, worked out once for the same image (the same array, not equal
    values): a look asks what its tiles do not explain up to four times, with other tiles
    each time, and the full look and the look at faces share one image. Each thread holds
    its own images' values (the server reads photos of several tables at once), and lets them
    go with the image; none is larger than the image itself."""
    held = getattr(_held, "images", None)
    if held is None:
        held = _held.images = {}
    key = id(image)
    if key not in held:
        # (an id is reused only after its image is gone, and the entry goes with it)
        held[key] = (weakref.ref(image, lambda _ref: held.pop(key, None)), {})
    values = held[key][1]
    if name not in values:
        values[name] = make(image)
    return values[name]


def half_size(image: np.ndarray) -> np.ndarray:
    """``image`` at half its size: where judge looks for what was not read (tile-sized)."""
    return cv2.resize(
        image, (max(1, image.shape[1] // 2), max(1, image.shape[0] // 2)), cv2.INTER_AREA
    )


def lab_of(image: np.ndarray) -> np.ndarray:
    """The image in 8-bit Lab (``cv2.COLOR_RGB2LAB``), once per image."""
    return once_per_image(image, "lab", lambda im: cv2.cvtColor(im, cv2.COLOR_RGB2LAB))


def _face_like(small: np.ndarray, quads: list[np.ndarray], W: float):
    """Pixels of the faces' colour outside the tiles read (``quads``) and their margins,
    opened half a tile wide: (that mask, the tiles with their margins), or None."""
    h, w = small.shape[:2]
    lab = lab_of(small).astype(np.float32)
    inner = np.zeros((h, w), np.uint8)
    cover = np.zeros((h, w), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(inner, _grow(q, 0.75).astype(np.int32), 1)
        cv2.fillConvexPoly(cover, _grow(q, 1.12).astype(np.int32), 1)
    if inner.sum() < 10:
        return None
    face = np.median(lab[inner > 0][::7], axis=0)
    # brightness varies across a photo (light falloff, shading), the colour of the faces less
    wts = np.array([0.4, 1.6, 1.6], np.float32)
    dist = bars.colour_distance(lab, face, wts)
    # a shadow next to the tiles can have their colour; it is darker, and a strip (it does
    # not survive an opening half a tile wide)
    like = (dist < 30) & (lab[..., 0] > 0.85 * face[0])
    like = (like | (bars.darkest(small) >= 250)).astype(np.uint8)
    like[cover > 0] = 0
    k = max(3, int(0.5 * W)) | 1
    like = cv2.morphologyEx(
        like, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    return like, cover


def _tile_shaped(labels, st, cover, W: float, tile_area: float):
    """Which patches (``labels``, stats ``st``) are shaped like a whole tile (and not lying
    mostly right beside a tile read, where its shadow falls), and which like a tile cut off
    by the frame."""
    n = len(st) + 1
    # tile-shaped: a filled rectangle about a tile wide and long (the shadow of a thick tile,
    # or light falling between tiles, is a strip or a patch)
    r = max(3, int(1.2 * W)) | 1
    ring = cv2.dilate(cover, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r)))
    shaped = np.zeros(n - 1, bool)  # a whole tile
    part = np.zeros(n - 1, bool)  # a tile cut off by the frame
    for i in np.nonzero(st[:, cv2.CC_STAT_AREA] >= 0.15 * tile_area)[0]:
        ys, xs = np.nonzero(labels == i + 1)
        (_, _), (rw, rh), _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        fill = len(xs) / max(rw * rh, 1.0)
        # at the frame edge, the rest of a tile cut off may lie right beside what was read
        part[i] = min(rw, rh) >= 0.5 * W and fill >= 0.7
        if ring[ys, xs].mean() > 0.7:
            continue
        shaped[i] = part[i] and min(rw, rh) >= 0.75 * W and max(rw, rh) >= 1.4 * W
    return shaped, part


def _unexplained(small: np.ndarray, quads: list[np.ndarray]) -> tuple[int, int, bool]:
    """Face-coloured areas the size of a tile that no tile read explains: a tile that was
    not found (bar hidden by glare, ...). Returns (how many inside the frame, how many at its
    edge (tiles cut off), whether the surface itself has the colour of the tiles, so missing
    tiles cannot be ruled out)."""
    if not quads:
        return 0, 0, False
    h, w = small.shape[:2]
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in quads]
    W = float(np.median(widths))
    tile_area = 2 * W * W
    found = _face_like(small, quads, W)
    if found is None:
        return 0, 0, False
    like, cover = found
    n, labels, stats, _ = cv2.connectedComponentsWithStats(like, connectivity=8)
    if n <= 1:
        return 0, 0, False
    st = stats[1:]
    shaped, part = _tile_shaped(labels, st, cover, W, tile_area)
    # a tile has an outline: where the patch ends, the brightness changes sharply (the edge
    # of the tile, its side or its shadow). A patch of surface (light cloth, paper beside a
    # shadow) ends where its colour drifts past the limit, with no edge there.
    if (shaped | part).any():
        idx = np.nonzero(shaped | part)[0]
        crisp = np.ones(n - 1, bool)
        crisp[idx] = _outline_contrast(small, labels, idx + 1, quads)
        shaped &= crisp
        part &= crisp
    areas = st[:, cv2.CC_STAT_AREA]
    x0, y0 = st[:, cv2.CC_STAT_LEFT], st[:, cv2.CC_STAT_TOP]
    x1, y1 = x0 + st[:, cv2.CC_STAT_WIDTH], y0 + st[:, cv2.CC_STAT_HEIGHT]
    at_edge = (x0 <= 1) | (y0 <= 1) | (x1 >= w - 1) | (y1 >= h - 1)
    similar = bool((areas > 4 * tile_area).any() or areas.sum() > 0.25 * h * w)
    if similar:
        return 0, 0, True
    missed = int((~at_edge & shaped & (areas >= 0.5 * tile_area)).sum())
    cut = int((at_edge & part & (areas >= 0.15 * tile_area) & (areas <= 1.5 * tile_area)).sum())
    return missed, cut, False


PATCH_EDGE = 0.5  # a tile-like patch needs this much of the read tiles' outline contrast


def _edge_strength(small: np.ndarray) -> np.ndarray:
    """Gradient magnitude of the brightness, widened by a pixel each way (an outline found
    by thresholding colour can sit a pixel or two off the true edge)."""
    g = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0), 1.0)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return cv2.dilate(mag, np.ones((5, 5), np.uint8))


def _outline_contrast(
    small: np.ndarray, labels: np.ndarray, ids: np.ndarray, quads: list[np.ndarray]
) -> np.ndarray:
    """For each patch ``ids`` of ``labels``: whether its border (away from the frame) is as
    sharp as a tile's: its median edge strength at least PATCH_EDGE x the median along the
    outlines of the tiles read."""
    h, w = labels.shape
    mag = once_per_image(small, "edges", _edge_strength)
    ring = np.zeros((h, w), np.uint8)
    for q in quads:
        cv2.polylines(ring, [np.round(q).astype(np.int32)], True, 1, 1)
    ring[:2], ring[-2:], ring[:, :2], ring[:, -2:] = 0, 0, 0, 0
    if not ring.any():
        return np.ones(len(ids), bool)
    tile_edge = float(np.median(mag[ring > 0]))
    out = np.zeros(len(ids), bool)
    k3 = np.ones((3, 3), np.uint8)
    for n, i in enumerate(ids):
        m = (labels == i).astype(np.uint8)
        border = m - cv2.erode(m, k3)
        border[:2], border[-2:], border[:, :2], border[:, -2:] = 0, 0, 0, 0
        if border.sum() < 8:
            out[n] = True  # nothing but the frame edge to judge by
            continue
        out[n] = float(np.median(mag[border > 0])) >= PATCH_EDGE * tile_edge
    return out


STRAY_PIPS = 2  # pips outside every tile read, on face-coloured ground: a tile not found
STRAY_CHROMA = 30  # ... a coloured pip is at least this far from grey (CIE Lab a, b)
# ... at most this much larger than the pips of the tiles read (x their spread in width): a
# near tile under a steep tilt has larger pips (seed 293's tilt_30_45-018: a 6|10 twice the
# width of the two tiles read, its pips 2x theirs and ovals 1.7 times as long as wide;
# unseen, a sure 10 for 26)
STRAY_LARGER = 2.5
STRAY_OVAL = 2.0  # ... and at most this much longer than wide (the pips read: 1.5)


def _pip_marks(small: np.ndarray):
    """Dark marks (in the brightest channel) and clearly coloured ones (STRAY_CHROMA):
    (their count + 1, stats, centres, which are roundish), or None when there are none."""
    mask, _ = bars.dark_mask(small)
    # coloured pips too (pink, orange, pale: not dark in the brightest channel): clearly
    # coloured small marks; a coloured surface is one big mark, not pip-sized and round, and
    # its ground is not the faces' colour
    lab0 = lab_of(small)
    chroma = np.hypot(lab0[..., 1].astype(np.float32) - 128, lab0[..., 2].astype(np.float32) - 128)
    mask = mask | (chroma > STRAY_CHROMA).astype(np.uint8)
    n, _labels, st, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return None
    bw, bh = st[1:, cv2.CC_STAT_WIDTH], st[1:, cv2.CC_STAT_HEIGHT]
    area = st[1:, cv2.CC_STAT_AREA].astype(np.float64)
    filled = (area >= 6) & (area >= 0.55 * bw * bh)
    roundish = filled & (np.maximum(bw, bh) <= 1.5 * np.minimum(bw, bh))
    # (a near tile's pips under a steep tilt are ovals)
    oval = filled & (np.maximum(bw, bh) <= STRAY_OVAL * np.minimum(bw, bh))
    return st[1:], cents[1:], roundish, oval


def _stray_pips(
    small: np.ndarray, quads: list[np.ndarray], where: list | None = None
) -> tuple[int, int]:
    """Round marks the size of the pips on the tiles read, lying on ground of the
    faces' colour, outside every tile read: the pips of a tile that was not found (its bar
    hidden, or out of the frame). Returns (how many further than a tile width from the frame's
    edge, how many nearer: a tile cut off). Dark pips (in the brightest channel) and clearly
    coloured ones (STRAY_CHROMA) count; with fewer than three pips on the tiles read there is
    nothing to compare with. ``where`` (when given) gets the centre of each."""
    if not quads:
        return 0, 0
    h, w = small.shape[:2]
    marks = once_per_image(small, "pip marks", _pip_marks)
    if marks is None:
        return 0, 0
    st, c, roundish, oval = marks
    bw, bh = st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT]
    area = st[:, cv2.CC_STAT_AREA].astype(np.float64)
    on = np.zeros((h, w), np.uint8)
    near = np.zeros((h, w), np.uint8)
    inner = np.zeros((h, w), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(on, np.round(_grow(q, 0.95)).astype(np.int32), 1)
        cv2.fillConvexPoly(near, np.round(_grow(q, 1.15)).astype(np.int32), 1)
        cv2.fillConvexPoly(inner, np.round(_grow(q, 0.75)).astype(np.int32), 1)
    cx = np.clip(np.round(c[:, 0]).astype(int), 0, w - 1)
    cy = np.clip(np.round(c[:, 1]).astype(int), 0, h - 1)
    pips = roundish & (on[cy, cx] > 0)
    if pips.sum() < 3 or inner.sum() < 10:
        return 0, 0
    size = float(np.median(np.sqrt(area[pips])))
    spread = _spread([np.linalg.norm(q[1] - q[0]) for q in quads])
    cand = (
        oval
        & ~(near[cy, cx] > 0)
        & (np.sqrt(area) >= 0.6 * size / spread)
        & (np.sqrt(area) <= STRAY_LARGER * size * spread)
    )
    if not cand.any():
        return 0, 0
    return _on_face_ground(small, quads, inner, c, np.maximum(bw, bh), cand, where)


def _on_face_ground(small, quads, inner, c, size, cand, where) -> tuple[int, int]:
    """How many of the marks ``cand`` (centres ``c``, sizes ``size``) lie on ground of the
    faces' colour (the pixels ``inner`` of the tiles read), further than a tile width from
    the frame's edge and nearer (where the face runs out of the photo)."""
    h, w = small.shape[:2]
    lab = lab_of(small)  # 8-bit: only the pixels looked at are made float
    face_px = lab[inner > 0].astype(np.float32)
    top = np.percentile(face_px[:, 0], 75)
    face = np.median(face_px[face_px[:, 0] >= 0.85 * top], axis=0)
    wts = np.array([0.4, 1.6, 1.6], np.float32)
    ang = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    ring = np.column_stack([np.cos(ang), np.sin(ang)])
    W = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads]))
    inside = at_edge = 0
    for k in np.nonzero(cand)[0]:
        r = 1.3 * size[k]
        pts = np.clip(np.round(c[k] + r * ring).astype(int), 0, [w - 1, h - 1])
        px = lab[pts[:, 1], pts[:, 0]].astype(np.float32)
        like = (np.sqrt((((px - face) * wts) ** 2).sum(axis=1)) < 30) & (px[:, 0] > 0.85 * face[0])
        if like.sum() < 8:
            continue
        x, y = c[k]
        if min(x, y, w - 1 - x, h - 1 - y) < W and _face_runs_out(lab, face, wts, x, y, W):
            at_edge += 1
        else:
            inside += 1
        if where is not None:
            where.append((float(x), float(y)))
    return inside, at_edge


def _face_runs_out(
    lab: np.ndarray, face: np.ndarray, wts: np.ndarray, x: float, y: float, W: float
) -> bool:
    """Whether the faces' colour reaches the frame's edge next to a pip at (x, y) near it:
    the tile around that pip runs out of the photo (cut off). A tile that was not found but
    lies whole inside the frame ends before the edge: it is a missed tile, not a cut one."""
    h, w = lab.shape[:2]
    d = {"left": x, "top": y, "right": w - 1 - x, "bottom": h - 1 - y}
    side = min(d, key=d.get)
    r = int(max(2, W * 0.6))
    if side in ("left", "right"):
        col = 0 if side == "left" else w - 1
        ys = np.arange(max(0, int(y) - r), min(h, int(y) + r + 1))
        px = lab[ys, col]
    else:
        row = 0 if side == "top" else h - 1
        xs = np.arange(max(0, int(x) - r), min(w, int(x) + r + 1))
        px = lab[row, xs]
    px = px.astype(np.float32)
    like = (np.sqrt((((px - face) * wts) ** 2).sum(axis=1)) < 30) & (px[:, 0] > 0.8 * face[0])
    return float(like.mean()) >= FACE_AT_FRAME


# A tile near the camera under a steep tilt can be over twice as wide as the far tiles read
# (seed 127's tilt_30_45-010: 2.6x, its 7|2 read 8|2 at 0.25, and a sure 30 for 39): its
# outline counts as unread up to these sizes, where it overlaps no tile read.
UNREAD_NEAR = 3.0  # outline width, x the tiles read (their median width x their spread)
UNREAD_NEAR_BAR = 2.5  # its bar's length, x the same
UNREAD_WIDE = 1.4  # (an outline of the tiles' own size: up to this, bar up to BAR_LONG)
BAR_SHORT, BAR_LONG = 0.4, 1.05  # a tile's bar, x the width of the tiles read (lo to hi)
UNREAD_NEAR_OVERLAP = 0.1  # of the smaller outline's area, at most, with any tile read


def _unread_outlines(cands: list, kept: list[int], edge: np.ndarray, is_tile: np.ndarray) -> int:
    """Bars with a tile outline around them, the size of the tiles read (up to UNREAD_NEAR
    of it where no tile read overlaps), that no tile read covers and that look somewhat like
    a tile: a tile the counter could not read."""
    if not kept:
        return 0
    quads = [_grow(cands[i].corners, 1.15).astype(np.float32) for i in kept]
    widths = [float(np.linalg.norm(cands[i].corners[1] - cands[i].corners[0])) for i in kept]
    width = float(np.median(widths))
    spread = _spread(widths)
    kept_groups = {cands[i].group for i in kept}
    groups = set()
    for i, c in enumerate(cands):
        if c.group in kept_groups or c.group in groups:
            continue
        # something of a tile: a clean outline, or halves the counter half believes in (an
        # outline fitted beside a tile read, where a neighbour would lie, shares that tile's
        # edge, and lies on plain surface as often as not: only a clearer belief counts there)
        beside = getattr(c, "neighbour", False)
        clean = edge[i] >= UNREAD_EDGE and not beside
        if not clean and is_tile[i] < (UNREAD_BESIDE if beside else UNREAD_TILE):
            continue
        w_i = float(np.linalg.norm(c.corners[1] - c.corners[0]))
        bar = c.bar.length * w_i / max(c.width, 1e-6)  # in pixels of the tiles' outlines
        # (down to half the width: the outline around one piece of a bar split by a spinner
        # pin is too small, and that tile is not read either)
        lo, hi = width / spread, width * spread
        if (
            not 0.5 * lo <= w_i <= UNREAD_NEAR * hi
            or not BAR_SHORT * lo <= bar <= UNREAD_NEAR_BAR * hi
        ):
            continue
        centre = tuple(float(v) for v in c.corners.mean(axis=0))
        if any(cv2.pointPolygonTest(q, centre, False) >= 0 for q in quads):
            continue
        # larger than the tiles read: a near tile under a steep tilt, only where it overlaps
        # no tile read (an outline around two touching tiles read would)
        if (w_i > UNREAD_WIDE * hi or bar > BAR_LONG * hi) and any(
            _poly_overlap(c.corners, cands[j].corners) > UNREAD_NEAR_OVERLAP for j in kept
        ):
            continue
        groups.add(c.group)
    return len(groups)


# A tile the tile finder sees (``tilenet``: whole tiles, no bar needed) that no tile read
# covers: its outline at least FINDER_WIDTH of the median width of the tiles read, and under
# FINDER_COVERED of it inside them (an outline in the gap between two tiles read is mostly
# inside them). A blurred photo can hide two tiles' bars from every look and leave their
# bright faces to the finder alone (seed 89's tilt_30_45-014: one tile of three read, sure).
FINDER_WIDTH = 0.6
FINDER_COVERED = 0.5


def finder_unread(finder, quads: list[np.ndarray]) -> int:
    """How many of the tiles that ``finder`` (a ``tilenet.Finder`` on the image ``quads``
    are in) sees no tile read covers (``quads``; one count per tile, its outlines share a
    group)."""
    if not quads:
        return 0
    h, w = finder.rgb.shape[:2]
    width = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads]))
    cover = np.zeros((h, w), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(cover, np.round(q).astype(np.int32), 1)
    groups = set()
    for c in finder.tiles():
        if c.width < FINDER_WIDTH * width:
            continue
        pts = np.round(c.corners).astype(np.int32)
        x0, y0 = np.clip(pts.min(axis=0), 0, [w - 1, h - 1])
        x1, y1 = np.clip(pts.max(axis=0) + 1, 1, [w, h])
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(inside, pts - [x0, y0], 1)
        if inside.any() and cover[y0:y1, x0:x1][inside > 0].mean() < FINDER_COVERED:
            groups.add(c.group)
    return len(groups)

"""What can be wrong with a photo, judged after its tiles are read: blur, touching tiles, glare,
tiles cut off at the frame, outlines or pips that no tile read explains. The reader turns
these into the problems it reports and decides from them whether it may be confident."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision import bars, detect

CUT_MARGIN = 0.02  # an outline closer than this (x its width) to the frame: maybe cut off
MAX_SPREAD = 2.0  # the most the size of the tiles read may widen what a missed tile's can be


def _spread(widths) -> float:
    """How much the tiles read differ in size (largest width over smallest, 1 to
    MAX_SPREAD): under a steep camera tilt the nearer tiles look larger, so a tile that was
    not found may be that much larger or smaller than the ones read."""
    widths = [float(v) for v in widths if v > 0]
    if len(widths) < 2:
        return 1.0
    return float(np.clip(max(widths) / min(widths), 1.0, MAX_SPREAD))


def _poly_overlap(p: np.ndarray, q: np.ndarray) -> float:
    """Intersection area over the smaller area of two convex quads."""
    p32, q32 = p.astype(np.float32), q.astype(np.float32)
    a = min(abs(cv2.contourArea(p32)), abs(cv2.contourArea(q32)))
    return _shared_area(p32, q32, a) / a if a > 0 else 0.0


def _shared_area(p: np.ndarray, q: np.ndarray, least: float) -> float:
    """The area two convex polygons (float32, N x 2) share; ``least``: the smaller one's
    area. OpenCV's ``intersectConvexConvex`` returns 0, or more than either polygon, for
    some pairs whose corners nearly coincide (opencv/opencv#22812, open: seed 191's
    large_spread-008, two outlines of one tile 0.06-1 px apart at two corners, shared 0 of
    their 9,983 px, both read); then, when their boxes meet, the area is worked out by
    clipping one by the other's sides."""
    inter, _ = cv2.intersectConvexConvex(p, q)
    if 0 < inter <= least * 1.0001:
        return float(inter)
    if (p.min(axis=0) >= q.max(axis=0)).any() or (q.min(axis=0) >= p.max(axis=0)).any():
        return 0.0
    return min(_clipped_area(p.astype(np.float64), q.astype(np.float64)), least)


def _clipped_area(p: np.ndarray, q: np.ndarray) -> float:
    """The area of convex ``q`` inside convex ``p`` (Sutherland-Hodgman clipping)."""
    turn = 1.0 if _signed_area(p) >= 0 else -1.0
    poly = list(q)
    for a, b in zip(p, np.roll(p, -1, axis=0), strict=True):
        if len(poly) < 3:
            return 0.0
        e = b - a
        side = [turn * float(e[0] * (v[1] - a[1]) - e[1] * (v[0] - a[0])) for v in poly]
        out = []
        for k, v in enumerate(poly):
            w, sv, sw = poly[(k + 1) % len(poly)], side[k], side[(k + 1) % len(poly)]
            if sv >= 0:
                out.append(v)
            if (sv >= 0) != (sw >= 0):
                out.append(v + (w - v) * (sv / (sv - sw)))
        poly = out
    return abs(_signed_area(np.array(poly))) if len(poly) >= 3 else 0.0


def _signed_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _grow(c: np.ndarray, f: float) -> np.ndarray:
    m = c.mean(axis=0)
    return (c - m) * f + m


def _blur_sigma(gray: np.ndarray, corners: np.ndarray) -> float:
    """Estimated blur (Gaussian sigma, in pixels) from the width of the bar's edges: the
    distance over which the brightness climbs from the bar to the face (10 % to 90 %)."""
    c = np.asarray(corners, np.float64)
    m0, m1 = (c[0] + c[3]) / 2, (c[1] + c[2]) / 2  # ends of the bar line
    along = m1 - m0
    W = float(np.linalg.norm(along))
    if W < 8:
        return 0.0
    n = (c[3] - c[0]) / max(np.linalg.norm(c[3] - c[0]), 1e-6)
    span = 0.2 * W
    step = 0.5
    k = np.arange(-span, span + step, step)
    xs, ys = [], []
    for s in np.linspace(0.3, 0.7, 7):
        p = m0 + along * s
        xs.append(p[0] + k * n[0])
        ys.append(p[1] + k * n[1])
    prof = cv2.remap(gray, np.float32(xs), np.float32(ys), cv2.INTER_LINEAR).astype(np.float32)
    rises = []
    q = len(k) // 5
    for row in prof:
        mid = len(row) // 2
        win = row[mid - len(row) // 4 : mid + len(row) // 4 + 1]
        im = int(np.argmin(win)) + mid - len(row) // 4
        face = float(np.median(np.concatenate([row[:q], row[-q:]])))
        lo = float(row[im])
        depth = face - lo
        if depth < 25:
            continue
        r = []
        for direction in (1, -1):
            seg = row[im::direction]
            a = np.argmax(seg >= lo + 0.1 * depth)
            b = np.argmax(seg >= lo + 0.9 * depth)
            if seg[b] >= lo + 0.9 * depth:
                r.append((b - a) * step)
        if r:
            rises.append(min(r))
    if len(rises) < 3:
        return 0.0
    return float(np.median(rises)) / 2.56


def _touching(quads: list[np.ndarray]) -> bool:
    """Whether any two tile outlines touch (or nearly: within 1.5 % of their size)."""
    grown = [_grow(q, 1.015).astype(np.float32) for q in quads]
    areas = [abs(cv2.contourArea(g)) for g in grown]
    for a in range(len(grown)):
        for b in range(a + 1, len(grown)):
            if _shared_area(grown[a], grown[b], min(areas[a], areas[b])) > 0:
                return True
    return False


FACE_AT_FRAME = 0.3  # part of the frame's edge inside an outline that must be face


def _to_frame(corners: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The outline with its side nearest the frame moved out onto the frame (to see whether
    the face runs on there: ``_face_at_frame``)."""
    w, h = size
    c = np.asarray(corners, np.float64).copy()
    centre = c.mean(axis=0)
    best = None
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
        mid = (c[a] + c[b]) / 2
        d = min(mid[0], mid[1], w - 1 - mid[0], h - 1 - mid[1])
        if best is None or d < best[0]:
            best = (d, a, b, mid)
    d, a, b, mid = best
    out = mid - centre
    out /= max(float(np.linalg.norm(out)), 1e-6)
    c[[a, b]] += out * (max(d, 0.0) + 3.0)
    return c


def _face_at_frame(rgb: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the face of the tile outlined by ``corners`` runs into the frame edge (it is
    cut off), rather than ending just inside it (a fitted outline can stick out a little past
    a tile that lies close to the edge). Looks at the strip along the frame's edge inside the
    outline: the tile is cut off when enough of it has the colour of the face."""
    h, w = rgb.shape[:2]
    W = float(np.linalg.norm(corners[1] - corners[0]))
    band = max(2, int(round((CUT_MARGIN + 0.01) * W)))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - band
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + band + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return True
    roi = rgb[y0:y1, x0:x1]
    inside = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners - [x0, y0]).astype(np.int32), 1)
    inner = np.zeros_like(inside)
    cv2.fillConvexPoly(inner, np.round(_grow(corners, 0.7) - [x0, y0]).astype(np.int32), 1)
    strip = np.zeros_like(inside)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    strip[(xs < band) | (ys < band) | (xs >= w - band) | (ys >= h - band)] = 1
    strip &= inside
    if strip.sum() < 4:
        return False  # the outline does not reach the frame's edge
    if inner.sum() < 10:
        return True  # nothing to judge the face by: keep the cautious answer
    lab = cv2.cvtColor(roi, cv2.COLOR_RGB2LAB).astype(np.float32)
    face_px = lab[inner > 0]
    top = np.percentile(face_px[:, 0], 75)
    face = np.median(face_px[face_px[:, 0] >= 0.85 * top], axis=0)  # not the pips
    wts = np.array([0.4, 1.6, 1.6], np.float32)
    px = lab[strip > 0]
    like = (np.sqrt((((px - face) * wts) ** 2).sum(axis=1)) < 30) & (px[:, 0] > 0.8 * face[0])
    return float(like.mean()) >= FACE_AT_FRAME


# The face's own colour, around which its plain pixels lie (chroma in CIE Lab a, b): coloured
# pips lie further from it, and so does the face washed out by a glare (nearly grey). Before,
# plain meant grey (chroma under 20): on a cream face (chroma 20-30) that left only the
# glare's own pixels, the face "all near white", and a glare over 6 % of a tile not seen
# (seed 149's dark_glare-004, an 8 washed out and read 6, sure).
GLARE_FACE_CHROMA = 12


def _glare_fraction(rgb: np.ndarray, corners: np.ndarray) -> float:
    """Fraction of a tile's face (inner 90 %) covered by a highlight: blown out to white while
    the rest of the face is not (a face that is all near white is just brightly lit). The
    face's own level leaves out the pips (coloured or dark): on a tile with many large pips
    they would pull it down and make a brightly lit face look like glare; and it leaves out
    the glare (GLARE_FACE_CHROMA)."""
    q = _grow(corners, 0.9)
    h, w = rgb.shape[:2]
    x0, y0 = np.floor(q.min(axis=0)).astype(int)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, (q - [x0, y0]).astype(np.int32), 1)
    area = int(mask.sum())
    if not area:
        return 0.0
    roi = rgb[y0:y1, x0:x1]
    lo = bars.darkest(roi)
    inside = mask > 0
    lab = cv2.cvtColor(roi, cv2.COLOR_RGB2LAB).astype(np.float32)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    light = inside & (lo >= 0.6 * np.percentile(lo[inside], 90))
    own = float(np.median(chroma[light]))  # (light is never empty: its 90th percentile is in)
    plain = light & (np.abs(chroma - own) < GLARE_FACE_CHROMA)
    face = float(np.median(lo[plain] if plain.sum() >= 0.2 * area else lo[inside]))
    if face >= 235:
        return 0.0
    blown = (lo >= 250) & (mask > 0)
    return float(blown.sum()) / area


BUSY_EDGES = 0.05  # part of the surface (outside the tiles) with edges: a busy surface
BUSY_SIDE = 640  # ... judged on a copy this size (long side)


def _busy_surface(rgb: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Whether the surface around the tiles is busy (wood grain, a coarse weave, a pattern):
    more than BUSY_EDGES of it, outside the tiles (``quads``, pixels of ``rgb``), has an edge.
    A plain cloth or table has almost none, even with a fine weave or a soft shadow. Only a
    busy surface earns the advice to lay the tiles on a plain one."""
    h, w = rgb.shape[:2]
    s = min(1.0, BUSY_SIDE / max(h, w))
    small = cv2.resize(rgb, (max(1, round(w * s)), max(1, round(h * s))), cv2.INTER_AREA)
    g = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0), 1.0)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    free = np.ones(small.shape[:2], np.uint8)
    for q in quads:
        cv2.fillConvexPoly(free, np.round(_grow(q, 1.3) * s).astype(np.int32), 0)
    if free.sum() < 100:
        return False
    return float((mag[free > 0] > 20).mean()) > BUSY_EDGES


GLARE_PATCH = 1.2  # a blown-out area this large (x a tile's width squared: over half a tile)


def _glare_patch(small: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Whether a blown-out highlight (white in every channel) at least GLARE_PATCH of a
    tile's width squared lies outside every tile read: a lamp's glare on the table can wash
    out a whole tile, its bar and its pips, and nothing else would show it was there.
    ``small`` is the image ``quads`` (the tiles read) are in; looked at half that size."""
    if not quads:
        return False
    W = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads])) / 2
    blown = (bars.darkest(small[::2, ::2]) >= 250).astype(np.uint8)
    if blown.sum() < GLARE_PATCH * W * W:  # the usual case: not even that much in all
        return False
    for q in quads:
        cv2.fillConvexPoly(blown, (_grow(q, 1.12) / 2).astype(np.int32), 0)
    k = max(3, int(0.2 * W)) | 1
    blown = cv2.morphologyEx(blown, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(blown, connectivity=8)
    return bool(n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= GLARE_PATCH * W * W)


PIP_RIM = 0.07  # pips lie at least this far (x the tile's width) inside a tile's outline
SIDE_ON_FRAME = 0.05  # a side this near the frame's edge (x the width) may be that edge
PAST_FRAME = 0.05  # ... an outline reaching this far past it was fitted to the tile's edges
LENGTH_SEEN = 0.95  # an outline this wide and long (x the other tiles read): its tile's own


def _frame_hides_no_pip(
    corners: np.ndarray,
    size: tuple[int, int],
    halves: tuple[int, int],
    others: list[np.ndarray],
) -> bool:
    """Whether an outline that reaches past the frame (``corners``, in pixels of an image
    ``size`` = (w, h)) leaves every pip of its tile in the photo: the frame cuts off only
    the rim of the tile, where no pip lies (PIP_RIM), or a part of a half read as blank
    whose half-turn (about the half's middle) is in the photo. Pips are laid out the same
    under a half-turn on every set, so a pip beyond the frame would have its twin in the
    photo, and a blank half has none.

    Only an outline as wide and as long as the other tiles read (``others``, their corners:
    at least two of them) is trusted to end where its tile ends; a smaller one may stop at
    the frame edge (the frame's edge looks like a tile's) with the rest of its tile beyond."""
    c = np.asarray(corners, np.float64)
    W = float(np.linalg.norm(c[1] - c[0]))
    long = float(np.linalg.norm(c[3] - c[0]))
    if len(others) < 2 or W <= 0:
        return False
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in others]
    lengths = [float(np.linalg.norm(q[3] - q[0])) for q in others]
    if min(W / float(np.median(widths)), long / float(np.median(lengths))) < LENGTH_SEEN:
        return False
    w, h = size
    # a side of the outline along the frame's edge (both its corners within SIDE_ON_FRAME of
    # it, or past it) may be that edge, taken for the tile's: the tile may go on beyond it.
    # (A tile lying across the frame's edge has one corner past it, its two sides there
    # fitted to what is seen of the tile's own edges.)
    # And an outline whose corner stops at the frame's edge may have been fitted short of
    # the tile's by it: only one reaching past the frame (PAST_FRAME) was fitted to the
    # tile's own edges there.
    inside = np.stack([c[:, 0], c[:, 1], w - 1 - c[:, 0], h - 1 - c[:, 1]], axis=1)
    near = inside < SIDE_ON_FRAME * W  # corner x frame edge
    if (near & np.roll(near, -1, axis=0)).any() or inside.min() > -PAST_FRAME * W:
        return False
    return _pips_in_frame(c, W, long, (w, h), halves)


def _pips_in_frame(
    c: np.ndarray, W: float, long: float, size: tuple[int, int], halves: tuple[int, int]
) -> bool:
    """Whether every place a pip can lie on the tile ``c`` (W wide, ``long`` long) is in
    an image of ``size``, or, beyond its frame, on a half read as blank whose half-turn is
    in it."""
    w, h = size
    # points of each half where a pip can lie: s across the tile (0..1), t from end A (0) to
    # end B (1); a half is t in 0..0.5 or 0.5..1
    rs, rt = PIP_RIM, PIP_RIM * W / long
    grid = np.linspace(0.0, 1.0, 13)
    ss = rs + (1 - 2 * rs) * grid

    def at(s: np.ndarray, t: np.ndarray) -> np.ndarray:  # the point (s, t) of the tile
        top = c[0][None, None] + (c[1] - c[0])[None, None] * s[..., None]
        bot = c[3][None, None] + (c[2] - c[3])[None, None] * s[..., None]
        return top + (bot - top) * t[..., None]

    def beyond(p: np.ndarray) -> np.ndarray:  # points past the frame
        return (p[..., 0] < 0) | (p[..., 1] < 0) | (p[..., 0] > w - 1) | (p[..., 1] > h - 1)

    for half, (t0, t1) in enumerate(((0.0, 0.5), (1.0, 0.5))):
        # from the tile's end to the bar, a rim's width from each
        ts = t0 + (t1 - t0) * (2 * rt + (1 - 4 * rt) * grid)
        S, T = np.meshgrid(ss, ts)
        out = beyond(at(S, T))
        if not out.any():
            continue
        if halves[half] != 0:
            return False
        # the half-turn of the part beyond the frame, about the middle of the half
        tm = (t0 + t1) / 2
        if beyond(at(1 - S[out], 2 * tm - T[out])).any():
            return False
    return True


FACE_APART = 28.0  # a tile read whose face's colour (a, b of 8-bit Lab) is this far from the set's
FACE_APART_DARKER = (18.0, 20.0)  # ... or this far, and its face this much darker (L)
FACE_INSIDE = 0.8  # ... looked at inside this part of its outline (no rim, no surface)
# ... unless its face is blown out to white (at least this light, L of 8-bit Lab, and at most
# this far from grey): a lamp's glare over the whole face, the pips faint under it
BLOWN_OUT = (250.0, 6.0)


def _face_colour(small: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The colour (8-bit Lab) of the face inside ``quad`` (pixels of ``small``): the median
    of its lighter pixels (``detect.face_colour``: pips and the bar left out), or None when
    too little of it is in the photo."""
    inner = _grow(quad, FACE_INSIDE)
    h, w = small.shape[:2]
    x0, y0 = np.maximum(np.floor(inner.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(inner.max(axis=0)).astype(int), (w, h))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner - (x0, y0)).astype(np.int32), 1)
    lab = cv2.cvtColor(np.ascontiguousarray(small[y0:y1, x0:x1]), cv2.COLOR_RGB2LAB)
    sample = lab[mask > 0].astype(np.float32)
    return detect.face_colour(sample, 75, 0.9) if len(sample) >= 10 else None


def _blown_out(small: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the face inside ``quad`` (pixels of ``small``) is blown out to white by glare
    (BLOWN_OUT): not a colour of its own, whatever the set's faces are."""
    c = _face_colour(small, quad)
    return c is not None and bool(c[0] >= BLOWN_OUT[0] and np.hypot(*(c[1:] - 128)) <= BLOWN_OUT[1])


def _not_the_sets_colour(
    small: np.ndarray, quads: list[np.ndarray], pipped: list[bool], vouched: list[bool]
):
    """Which tiles read (positions in ``quads``, pixels of ``small``) are not the colour of
    the set's faces: their face's (a, b) more than FACE_APART from the median face of the
    tiles read with a pip that the tile finder sees too (``pipped``, ``vouched``; of those
    with a pip when the finder sees none of them, of all when none has one: a weave read
    as tiles with pips outnumbered the real ones, seed 173's busy-006). The faces of a
    set are one colour, whatever the light; a patch of cloth or of a pattern read as a
    tile (a plain 0|0 on a purple weave) is not, and it is darker than the faces (a glare
    whitens a face: a shift of colour, but lighter). Measured on 3,351 tiles read right in
    502 photos (renders of seeds 67 and 79, the real photos): at most 24 apart, and the
    three over 15 lighter than the set's faces; of 35 tiles read on busy backgrounds that
    are in no hand, 34 are 22 to 76 apart and 28 or more darker (one 16 apart is left)."""
    colours = [_face_colour(small, q) for q in quads]
    known = [c for c in colours if c is not None]
    with_pips = [c for c, p in zip(colours, pipped, strict=True) if c is not None and p]
    seen = [
        c for c, p, v in zip(colours, pipped, vouched, strict=True) if c is not None and p and v
    ]
    if len(known) < 2:
        return []
    ref = np.median(np.array(seen or with_pips or known), axis=0)
    apart = []
    for k, c in enumerate(colours):
        if c is None:
            continue
        hue, darker = float(np.hypot(*(c[1:] - ref[1:]))), float(ref[0] - c[0])
        if hue > FACE_APART or (hue > FACE_APART_DARKER[0] and darker > FACE_APART_DARKER[1]):
            apart.append(k)
    return apart

"""What can be wrong with a photo, judged after its tiles are read: blur, touching tiles, glare,
tiles cut off at the frame, outlines or pips that no tile read explains. The reader turns
these into the problems it reports and decides from them whether it may be confident."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision import bars

CUT_MARGIN = 0.02  # an outline closer than this (x its width) to the frame: maybe cut off
# an outline around a bar that no tile read covers counts as a missed tile when it is this
# clean, or when the counter gives it this much "is a tile"
UNREAD_EDGE = 1.0
UNREAD_TILE = 0.1
UNREAD_BESIDE = 0.25  # ... for an outline fitted where a neighbour of a tile read would lie


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
    inter, _ = cv2.intersectConvexConvex(p.astype(np.float32), q.astype(np.float32))
    a = min(abs(cv2.contourArea(p.astype(np.float32))), abs(cv2.contourArea(q.astype(np.float32))))
    return float(inter / a) if a > 0 else 0.0


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
    for a in range(len(grown)):
        for b in range(a + 1, len(grown)):
            inter, _ = cv2.intersectConvexConvex(grown[a], grown[b])
            if inter > 0:
                return True
    return False


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
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    inner = np.zeros((h, w), np.uint8)
    cover = np.zeros((h, w), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(inner, _grow(q, 0.75).astype(np.int32), 1)
        cv2.fillConvexPoly(cover, _grow(q, 1.12).astype(np.int32), 1)
    if inner.sum() < 10:
        return 0, 0, False
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
    n, labels, stats, _ = cv2.connectedComponentsWithStats(like, connectivity=8)
    if n <= 1:
        return 0, 0, False
    st = stats[1:]
    # tile-shaped: a filled rectangle about a tile wide and long (the shadow of a thick tile,
    # or light falling between tiles, is a strip or a patch)
    # ... and not lying mostly right beside a tile read, where its shadow falls
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
    mag = _edge_strength(small)
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


FACE_AT_FRAME = 0.3  # part of the frame's edge inside an outline that must be face


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


STRAY_PIPS = 2  # pips outside every tile read, on face-coloured ground: a tile not found
STRAY_CHROMA = 30  # ... a coloured pip is at least this far from grey (CIE Lab a, b)


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
    mask, _ = bars.dark_mask(small)
    # coloured pips too (pink, orange, pale: not dark in the brightest channel): clearly
    # coloured small marks; a coloured surface is one big mark, not pip-sized and round, and
    # its ground is not the faces' colour
    lab0 = cv2.cvtColor(small, cv2.COLOR_RGB2LAB)
    chroma = np.hypot(lab0[..., 1].astype(np.float32) - 128, lab0[..., 2].astype(np.float32) - 128)
    mask = mask | (chroma > STRAY_CHROMA).astype(np.uint8)
    n, labels, st, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return 0, 0
    bw, bh = st[1:, cv2.CC_STAT_WIDTH], st[1:, cv2.CC_STAT_HEIGHT]
    area = st[1:, cv2.CC_STAT_AREA].astype(np.float64)
    c = cents[1:]
    roundish = (
        (area >= 6) & (np.maximum(bw, bh) <= 1.5 * np.minimum(bw, bh)) & (area >= 0.55 * bw * bh)
    )
    on = np.zeros((h, w), np.uint8)
    near = np.zeros((h, w), np.uint8)
    inner = np.zeros((h, w), np.uint8)
    for q in quads:
        cv2.fillConvexPoly(on, np.round(_grow(q, 0.95)).astype(np.int32), 1)
        cv2.fillConvexPoly(near, np.round(_grow(q, 1.15)).astype(np.int32), 1)
        cv2.fillConvexPoly(inner, np.round(_grow(q, 0.75)).astype(np.int32), 1)
    cx = np.clip(np.round(c[:, 0]).astype(int), 0, w - 1)
    cy = np.clip(np.round(c[:, 1]).astype(int), 0, h - 1)
    on_tile = on[cy, cx] > 0
    near_tile = near[cy, cx] > 0
    pips = roundish & on_tile
    if pips.sum() < 3 or inner.sum() < 10:
        return 0, 0
    size = float(np.median(np.sqrt(area[pips])))
    spread = _spread([np.linalg.norm(q[1] - q[0]) for q in quads])
    cand = (
        roundish
        & ~near_tile
        & (np.sqrt(area) >= 0.6 * size / spread)
        & (np.sqrt(area) <= 1.6 * size * spread)
    )
    if not cand.any():
        return 0, 0
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    face_px = lab[inner > 0]
    top = np.percentile(face_px[:, 0], 75)
    face = np.median(face_px[face_px[:, 0] >= 0.85 * top], axis=0)
    wts = np.array([0.4, 1.6, 1.6], np.float32)
    ang = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    ring = np.column_stack([np.cos(ang), np.sin(ang)])
    W = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads]))
    inside = at_edge = 0
    for k in np.nonzero(cand)[0]:
        r = 1.3 * max(bw[k], bh[k])
        pts = np.clip(np.round(c[k] + r * ring).astype(int), 0, [w - 1, h - 1])
        px = lab[pts[:, 1], pts[:, 0]]
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
    like = (np.sqrt((((px - face) * wts) ** 2).sum(axis=1)) < 30) & (px[:, 0] > 0.8 * face[0])
    return float(like.mean()) >= FACE_AT_FRAME


def _glare_fraction(rgb: np.ndarray, corners: np.ndarray) -> float:
    """Fraction of a tile's face (inner 90 %) covered by a highlight: blown out to white while
    the rest of the face is not (a face that is all near white is just brightly lit). The
    face's own level leaves out the pips (coloured or dark): on a tile with many large pips
    they would pull it down and make a brightly lit face look like glare."""
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
    plain = inside & (chroma < 20) & (lo >= 0.6 * np.percentile(lo[inside], 90))
    face = float(np.median(lo[plain] if plain.sum() >= 0.2 * area else lo[inside]))
    if face >= 235:
        return 0.0
    blown = (lo >= 250) & (mask > 0)
    return float(blown.sum()) / area


def _unread_outlines(cands: list, kept: list[int], edge: np.ndarray, is_tile: np.ndarray) -> int:
    """Bars with a tile outline around them, the size of the tiles read, that no tile read
    covers and that look somewhat like a tile: a tile the counter could not read."""
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
        if not 0.5 * lo <= w_i <= 1.4 * hi or not 0.4 * lo <= bar <= 1.05 * hi:
            continue
        centre = tuple(float(v) for v in c.corners.mean(axis=0))
        if any(cv2.pointPolygonTest(q, centre, False) >= 0 for q in quads):
            continue
        groups.add(c.group)
    return len(groups)


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


def _stray_bars(found: list[bars.Bar], quads: list[np.ndarray]) -> int:
    """Bars (``found``, all the bars the bar finder kept, in the pixels of ``quads``) of the
    length of a tile's bar that lie outside every tile read (``quads``): the bar of a tile
    that was not read. A bar is 0.4 to 1.05 of its tile's width long (the longer dark marks
    beside tiles on a light surface are their sides and shadows, a tile's length long); the
    tiles read may differ in size under a tilt (``_spread``)."""
    if not quads:
        return len(found)
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in quads]
    width, spread = float(np.median(widths)), _spread(widths)
    lo, hi = width / spread, width * spread
    grown = [np.float32(_grow(q, 1.15)) for q in quads]
    n = 0
    for b in found:
        if not 0.4 * lo <= b.length <= 1.05 * hi:
            continue
        centre = (float(b.centre[0]), float(b.centre[1]))
        if any(cv2.pointPolygonTest(q, centre, False) >= 0 for q in grown):
            continue
        n += 1
    return n


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

"""Other outlines of a tile than the one fitted around its bar: the face-coloured area
around a bar (``fit_blob``: a tile foreshortened by a steep tilt), an outline's sides moved
onto its face's edges (``snap_to_face``), and bright faces found as objects without their bars
(``find_faces``: a photo so blurred that no bar is left). Needs numpy and OpenCV.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision import bars
from scorekeeper.vision.bars import Bar
from scorekeeper.vision.detect import Candidate, face_colour

# A tile near the camera under a steep tilt is a trapezoid (its nearer half longer, its
# nearer end wider) that no rectangle or parallelogram centred on its bar fits. Its face is
# then taken as the face-coloured area around its bar (pips and bar filled in), and the
# outline is that area's four corners: for bars left unread when a tile may be missing.
BLOB_REACH = 3.0  # the area is looked for within this many bar lengths of the bar's centre
BLOB_SIDE = 200  # ... in a patch this many pixels across
BLOB_COLOUR = 28.0  # colour distance (Lab, chroma weighted) still counted as the face
BLOB_ASPECT = (1.1, 3.5)  # length / width of the outlines kept


def _blob_mask(rgb: np.ndarray, bar: Bar):
    """The face-coloured pixels around ``bar`` (pips and bar closed), in a patch of at most
    BLOB_SIDE pixels: (mask, scale, patch origin, bar centre in the patch), or None."""
    h, w = rgb.shape[:2]
    R = BLOB_REACH * bar.length
    S = min(1.0, BLOB_SIDE / (2 * R))
    x0, y0 = int(max(0, bar.centre[0] - R)), int(max(0, bar.centre[1] - R))
    x1, y1 = int(min(w, bar.centre[0] + R + 1)), int(min(h, bar.centre[1] + R + 1))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    patch = rgb[y0:y1, x0:x1]
    if S < 1:
        patch = cv2.resize(
            patch,
            (max(1, round(patch.shape[1] * S)), max(1, round(patch.shape[0] * S))),
            interpolation=cv2.INTER_AREA,
        )
    lab = cv2.cvtColor(patch, cv2.COLOR_RGB2LAB).astype(np.float32)
    c = (bar.centre - [x0, y0]) * S
    u = bar.direction
    n = np.array([-u[1], u[0]])
    L = bar.length * S
    # the face beside the bar (the brighter samples: a half may be packed with dark pips)
    t = np.linspace(-0.4, 0.4, 9)[:, None] * L * u
    pts = np.concatenate([c + t + k * L * n for k in (0.15, 0.3, -0.15, -0.3)])
    xs = np.clip(np.round(pts[:, 0]).astype(int), 0, lab.shape[1] - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 0, lab.shape[0] - 1)
    face = face_colour(lab[ys, xs])
    if face[0] < 90:
        return None
    wts = np.array([0.5, 1.6, 1.6], np.float32)
    D = bars.colour_distance(lab, face, wts)
    mask = ((D < BLOB_COLOUR) & (lab[..., 0] > 0.7 * face[0])).astype(np.uint8)
    # the bar and the pips are holes in the face: close the bar, fill what the face encloses
    k = max(3, int(round(bar.thickness * S * 1.5)) | 1)
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    return mask, S, (x0, y0), c, k


def _blob_quad(mask: np.ndarray, c: np.ndarray, k: int, L: float) -> np.ndarray | None:
    """The four corners of the face-coloured area around the bar's centre ``c`` (patch
    pixels), or None when it is no four-sided area of about a tile's size inside the patch."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    inside = [
        cnt for cnt in contours if cv2.pointPolygonTest(cnt, (float(c[0]), float(c[1])), True) > -k
    ]
    if not inside:
        return None
    hull = cv2.convexHull(max(inside, key=cv2.contourArea))
    area = cv2.contourArea(hull)
    # about a tile: the bar covers 45..100 % of its width, it is 1.1..3.5 widths long (a
    # tile whose width the tilt foreshortens looks longer than from above)
    if not (0.9 * L**2 <= area <= BLOB_ASPECT[1] * (L / 0.45) ** 2):
        return None
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.035, 0.05, 0.07, 0.1):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
        if len(approx) < 4:
            break
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < 0.85 * area:
        return None
    # the face touches the patch's edge: not a whole tile in view (or the surface itself)
    ph, pw = mask.shape
    if (
        quad[:, 0].min() <= 1
        or quad[:, 1].min() <= 1
        or quad[:, 0].max() >= pw - 2
        or quad[:, 1].max() >= ph - 2
    ):
        return None
    return quad


def fit_blob(rgb: np.ndarray, bar: Bar) -> Candidate | None:
    """The outline of the face-coloured area around ``bar`` (four corners, first two on
    the end of half A, as for every candidate), or None when that area is not a
    four-sided tile about the bar's size."""
    found = _blob_mask(rgb, bar)
    if found is None:
        return None
    mask, S, (x0, y0), c, k = found
    u = bar.direction
    n = np.array([-u[1], u[0]])
    L = bar.length * S
    quad = _blob_quad(mask, c, k, L)
    if quad is None:
        return None
    # sides 0-1 and 2-3 along the bar (the ends of the tile), 0-1 on half A's end
    sides = [quad[(i + 1) % 4] - quad[i] for i in range(4)]
    along = [abs(float(np.dot(s_, u))) / max(float(np.linalg.norm(s_)), 1e-6) for s_ in sides]
    if along[1] + along[3] > along[0] + along[2]:
        quad = np.roll(quad, -1, axis=0)
    centre = quad.mean(axis=0)
    # the bar crosses the middle of the tile: the centre of the outline lies on its line
    off = float(np.dot(centre - c, n))
    length = float(np.linalg.norm((quad[2] + quad[3]) / 2 - (quad[0] + quad[1]) / 2))
    width = float((np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2)
    if abs(off) > 0.15 * length or abs(float(np.dot(centre - c, u))) > 0.2 * width:
        return None
    if not (0.45 <= L / width <= 1.05 and BLOB_ASPECT[0] <= length / width <= BLOB_ASPECT[1]):
        return None
    if np.dot(quad[0] - centre, n) > 0:  # half A's end first, as fit_tiles does (-n side)
        quad = quad[[2, 3, 0, 1]]
    e1, e3 = quad[1] - quad[0], quad[3] - quad[0]
    if e1[0] * e3[1] - e1[1] * e3[0] < 0:  # the same turning as the rectangles
        quad = quad[[1, 0, 3, 2]]
    corners = quad / S + [x0, y0]
    return Candidate(corners, bar, 0.5, width / S, length / S)


EDGE_REACH = 0.45  # a long side is looked for this far (x width) either side of the outline's
EDGE_REACH_END = 0.6  # ... an end this far: a tile's length is less sure than its width
EDGE_CLOSE = 0.22  # pips and the bar are filled in the face with a disc this wide (x width)
EDGE_COLOUR = 30.0  # colour distance (Lab, chroma weighted) still counted as the face
EDGE_POINTS = 13  # points looked for along each side (a line is fitted through them)
EDGE_WIDTH = 64  # ... in a patch where the tile is at most this many pixels wide


def _snap_mask(rgb: np.ndarray, q: np.ndarray, W: float):
    """The face's pixels around the outline ``q`` (pips and bar filled in), in a patch
    where the tile is at most EDGE_WIDTH wide: (mask, scale, patch origin), or None."""
    h, w = rgb.shape[:2]
    g = EDGE_REACH_END * W + 3
    x0, y0 = int(max(0, q[:, 0].min() - g)), int(max(0, q[:, 1].min() - g))
    x1, y1 = int(min(w, q[:, 0].max() + g + 1)), int(min(h, q[:, 1].max() + g + 1))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    patch = rgb[y0:y1, x0:x1]
    S = min(1.0, EDGE_WIDTH / W)  # patch pixels per image pixel
    if S < 1:
        size = (max(1, round((x1 - x0) * S)), max(1, round((y1 - y0) * S)))
        patch = cv2.resize(patch, size, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(patch, cv2.COLOR_RGB2LAB).astype(np.float32)
    ql = (q - [x0, y0]) * S
    W *= S
    c = ql.mean(axis=0)
    inner = np.zeros(lab.shape[:2], np.uint8)
    cv2.fillConvexPoly(inner, (c + 0.7 * (ql - c)).astype(np.int32), 1)
    sample = lab[inner > 0]
    if len(sample) < 10:
        return None
    face = face_colour(sample)
    D = bars.colour_distance(lab, face, np.array([1.0, 1.6, 1.6], np.float32))
    mask = ((D < EDGE_COLOUR) & (lab[..., 0] > 0.75 * face[0])).astype(np.uint8)
    k = max(3, int(round(EDGE_CLOSE * W)) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc).astype(np.float32), S, (x0, y0)


def _side_line(mask: np.ndarray, ql: np.ndarray, side: int, W: float):
    """The line (point, direction) through the face's edge along side ``side`` of the
    outline ``ql`` (patch pixels; the side itself when too few edge points are found)."""
    fs = np.linspace(0.12, 0.88, EDGE_POINTS)
    c = ql.mean(axis=0)
    p, r = ql[side], ql[(side + 1) % 4]
    d = r - p
    u = d / max(float(np.linalg.norm(d)), 1e-6)
    nrm = np.array([u[1], -u[0]])
    if np.dot(nrm, (p + r) / 2 - c) < 0:  # outwards
        nrm = -nrm
    reach = (EDGE_REACH_END if side % 2 == 0 else EDGE_REACH) * W
    offs = np.arange(-reach, reach + 0.01, 0.5)
    P = p + fs[:, None, None] * d + offs[None, :, None] * nrm  # point x offset x (x, y)
    prof = cv2.remap(
        mask, P[..., 0].astype(np.float32), P[..., 1].astype(np.float32), cv2.INTER_LINEAR
    )
    on = prof >= 0.5
    start = int(np.argmin(np.abs(offs + 0.1 * W)))  # just inside the outline
    pts = []
    for fi in range(EDGE_POINTS):
        row = on[fi]
        j = start
        if not row[j]:  # the outline runs over the face here: back to the face first
            before = np.nonzero(row[:j])[0]
            if not len(before):
                continue
            j = int(before[-1])
        after = np.nonzero(~row[j:])[0]
        if not len(after):  # the face runs on past the reach: no edge here
            continue
        j += int(after[0]) - 1  # the last face pixel
        pts.append(p + fs[fi] * d + (offs[j] + 0.25) * nrm)
    if len(pts) < max(4, EDGE_POINTS // 2):
        return p, u
    vx, vy, px, py = cv2.fitLine(np.float32(pts), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([px, py], np.float64), np.array([vx, vy], np.float64)


def snap_to_face(rgb: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """``corners`` (4x2, pixels of ``rgb``, in outline order) with each side moved onto the
    edge of the face it lies on: the face's colour (its brighter pixels inside the outline)
    with pips and bar filled in; along each side, the last face pixel going outwards; a line
    fitted through those points (robust to a few strays); the corners where the lines meet.
    A side where too few points are found stays where it was. None when the result is no
    convex outline near the one given. An outline around a bar, or the tile finder's, can sit
    off a tile seen at a steep angle and read a half wrong; snapped, it reads as the tile."""
    q = np.asarray(corners, np.float64)
    W = float(np.linalg.norm(q[1] - q[0]))
    if W < 8:
        return None
    found = _snap_mask(rgb, q, W)
    if found is None:
        return None
    mask, S, (x0, y0) = found
    ql = (q - [x0, y0]) * S
    W *= S
    lines = [_side_line(mask, ql, side, W) for side in range(4)]
    out = []
    for side in range(4):  # corner k is where side k - 1 meets side k
        (p1, d1), (p2, d2) = lines[side - 1], lines[side]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    snapped = np.array(out)
    if np.linalg.norm(snapped - ql, axis=1).max() > (EDGE_REACH_END + 0.1) * W:
        return None
    if not cv2.isContourConvex(snapped.astype(np.float32)):
        return None
    return snapped / S + [x0, y0]


# A tile whose bar is blurred away (a photo out of focus; small tiles) is still a bright
# four-sided face on the surface. When the bar finder finds nothing there, the faces are
# looked for as objects: the lighter side of the photo's lightness (Otsu), pips and bar
# filled in, each area that is a rectangle about two widths long (or a row of them touching
# end to end, split into tiles) is an outline; the counter reads it like any other. An area
# two tiles' length across and a whole number of tile widths long is also a row of tiles
# touching side by side (the rows of a large spread, their seams blurred away) and split so
# too, unless it is as narrow as the single faces of the photo: then it is one tile.
FACES_SIDE = 640  # looked for on a copy this size (long side)
FACE_FILL = 0.8  # the area must fill this much of its enclosing rectangle
FACE_ASPECT = (1.6, 2.5)  # length / width of one tile
FACE_MIN_PX = 12  # narrowest face looked for (pixels of the copy)
FACE_ROW_MAX = 12  # tiles end to end, or side by side, in one area at most
FACE_GROUP = 300_000  # outline groups of faces start here
SIDE_BY_SIDE_FIT = 0.35  # the area's length within this many tile widths of a whole number
SINGLE_FACES = 3  # single faces (at least) that say how wide a tile is
SINGLE_WIDTH = 1.5  # an area narrower than this x their median width is one tile
# Rows of a large spread touching along their length, blurred: one light area no rectangle
# fits, its seams grey, not as dark as the table. It is thresholded again at lighter levels
# (these parts of the way from the photo's level to the area's lightest, SEAM_LIGHT): the
# level whose areas a rectangle fits make the most tiles gives them (two rows still joined
# make fewer than the two apart; a row parted at a tile its pips darken, fewer than whole),
# if those rectangles cover most of the area (a light table around a tile is no row of them).
SEAM_LEVELS = (0.15, 0.25, 0.35, 0.45)
SEAM_LIGHT = 99  # (percentile of the area's lightness)
SEAM_COVER = 0.7  # the rectangles' area, at least this part of the area parted


def along_outline(box: np.ndarray) -> np.ndarray:
    """A rectangle's four corners (``cv2.boxPoints``) in the order of every outline: 0-1
    across the face (a short side), 0-3 along it, turning the same way as the fitted ones."""
    box = np.asarray(box, np.float64)
    if np.linalg.norm(box[1] - box[0]) > np.linalg.norm(box[3] - box[0]):
        box = np.roll(box, -1, axis=0)
    e1, e3 = box[1] - box[0], box[3] - box[0]
    if e1[0] * e3[1] - e1[1] * e3[0] < 0:
        box = box[[1, 0, 3, 2]]
    return box


def find_faces(
    rgb: np.ndarray, skip: list[np.ndarray] | None = None, parted: bool = False
) -> list[Candidate]:
    """Outlines of bright tile faces (see above), corners in pixels of ``rgb``, first two on
    the end of half A; areas whose middle lies inside a polygon of ``skip`` are left out.
    ``parted``: a light area no rectangle fits is thresholded again (``_parted``; the look
    at faces alone: beside tiles read, its pieces straddle tiles that touch end to end)."""
    h, w = rgb.shape[:2]
    f = min(1.0, FACES_SIDE / max(h, w))
    small = (
        cv2.resize(rgb, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        if f < 1
        else rgb
    )
    light = cv2.cvtColor(small, cv2.COLOR_RGB2LAB)[..., 0]
    level, mask = cv2.threshold(light, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rects = []
    for cnt in contours:
        found = _rectangles([cnt])
        if found or not parted or cv2.contourArea(cnt) < 8 * FACE_MIN_PX**2:
            rects += found
        else:
            rects += _parted(light, cnt, level)
    singles = [width for _, width, _, n in rects if n == 1]
    one_tile = SINGLE_WIDTH * float(np.median(singles)) if len(singles) >= SINGLE_FACES else 0.0
    skip = [np.float32(q) for q in (skip or [])]
    out: list[Candidate] = []
    for rect, width, length, n in rects:
        box = along_outline(cv2.boxPoints(rect))
        pieces = [(q, width, length / n) for q in _split(box, n, along=True)] if n else []
        k = _side_by_side(width, length) if width >= max(one_tile, 2 * FACE_MIN_PX) else 0
        if k:
            pieces += [(q, length / k, width) for q in _split(box, k, along=False)]
        for q, across, tile_length in pieces:
            mid = q.mean(axis=0) / f
            if any(
                cv2.pointPolygonTest(p, (float(mid[0]), float(mid[1])), False) >= 0 for p in skip
            ):
                continue
            u = (q[1] - q[0]) / max(float(np.linalg.norm(q[1] - q[0])), 1e-6)
            bar = Bar(mid, u, 0.7 * across / f, 0.05 * across / f, 0.0)
            out.append(Candidate(q / f, bar, 0.5, across / f, tile_length / f, face=True))
    return out


def _rectangles(contours) -> list:
    """The areas (``contours``) a rectangle fits: (rect, width, length, tiles end to end)."""
    rects = []
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area < 1.6 * FACE_MIN_PX**2:
            continue
        rect = cv2.minAreaRect(cnt)
        width, length = sorted(rect[1])
        if width >= FACE_MIN_PX and area >= FACE_FILL * width * length:
            rects.append((rect, width, length, _end_to_end(width, length)))
    return rects


def _parted(light: np.ndarray, cnt: np.ndarray, level: float) -> list:
    """A light area no rectangle fits (``cnt``, lighter than ``level``), thresholded again at
    SEAM_LEVELS: the rectangles of the level whose rectangles make the most tiles (end to end
    or side by side) and cover SEAM_COVER of it (none: [])."""
    x, y, w, h = cv2.boundingRect(cnt)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [cnt - [x, y]], -1, 1, -1)
    patch = light[y : y + h, x : x + w]
    top = float(np.percentile(patch[inside > 0], SEAM_LIGHT))
    area = cv2.contourArea(cnt)
    best: list = []
    most = 0
    for part in SEAM_LEVELS:
        mask = ((patch > level + part * (top - level)) & (inside > 0)).astype(np.uint8)
        parts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = _rectangles([p + [x, y] for p in parts])
        tiles = sum(max(n, _side_by_side(width, length)) for _, width, length, n in found)
        cover = sum(width * length for _, width, length, _ in found) / area
        if tiles > most and cover >= SEAM_COVER:
            best, most = found, tiles
    return best


def _end_to_end(width: float, length: float) -> int:
    """How many tiles touching end to end an area ``width`` x ``length`` is (0: none)."""
    n = max(1, int(round(length / width / 2.0)))
    if n > FACE_ROW_MAX or not (FACE_ASPECT[0] <= length / n / width <= FACE_ASPECT[1]):
        return 0
    return n


def _side_by_side(width: float, length: float) -> int:
    """How many tiles touching side by side (each ``width`` long) the area is (0: none)."""
    tile = width / 2
    k = int(round(length / tile))
    if k < 2 or k > FACE_ROW_MAX or abs(length / tile - k) > SIDE_BY_SIDE_FIT:
        return 0
    return k


def _split(box: np.ndarray, n: int, along: bool) -> list[np.ndarray]:
    """``box`` (``along_outline`` order) cut across its length into ``n`` (> 0) equal tiles: end
    to end (``along``: each as wide as the box) or side by side (each as long as the box is
    wide, its corners put in outline order)."""
    step = (box[3] - box[0]) / n
    across = box[1] - box[0]
    pieces = []
    for k in range(n):
        o = box[0] + k * step
        q = np.array([o, o + across, o + across + step, o + step])
        pieces.append(q if along else along_outline(q))
    return pieces

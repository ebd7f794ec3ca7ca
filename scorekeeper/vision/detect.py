"""Finding tiles: every domino face has a dark bar across its middle.

1. Dark, thin, straight marks (black-hat filter, then shape tests) are bar candidates; pieces
   of a bar interrupted by a spinner pin are joined.
2. Around each bar the tile outline is fitted: a rectangle centred on the bar, its short side
   along the bar, found where image edges run along its four sides (median edge strength, so
   pips do not count) within the sizes a bar of that length allows.

All in a working copy whose long side is ``DETECT_SIDE`` pixels. Needs numpy and OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorekeeper.vision import bars
from scorekeeper.vision.bars import Bar, Deadline, find_bars

DETECT_SIDE = 1280
# tile length / width: 2 seen from above; 1.76..2.24 under a tilt of up to about 30 degrees
# (SHORTEST_ASPECT: shorter than that, an outline is not a whole tile). A player seated at the
# table tilts the phone 30-45 degrees: coarser steps out to 2.74 give the outline fitter the
# longer shapes such a tilt makes (one extra hypothesis per bar, as before; shorter ones down
# to 1.46 were tried too, and lost a tile on a real photo of touching tiles on cloth).
SHORTEST_ASPECT = 1.76
ASPECTS = np.concatenate([np.arange(1.76, 2.25, 0.06), np.arange(2.34, 2.75, 0.1)])
# a tile near the camera under a steep tilt looks shorter still (foreshortened along its
# length, its nearer half the longer): tried only for bars left unread in a tilted photo
SHORT_ASPECTS = np.arange(1.1, 1.76, 0.08)
SHORT_HALF_DIFF = 0.25
ONE_SIDE = 0.4  # weight of an outline side pair of which only one side is seen
MAX_HALF_DIFF = 0.13  # how much longer one half may look than the other (x tile width)
RATIO_BINS = ((0.84, 1.0), (0.74, 0.84), (0.62, 0.74), (0.45, 0.62))  # bar length / tile width
# A steep tilt (30-45 degrees) slants a tile's long sides against its bar (a parallelogram,
# not a rectangle): slants tried (tan of the angle away from square), how much stronger the
# slanted sides must be than square ones, and how many slanted outlines a bar adds.
SHEARS = np.round(np.arange(-0.8, 0.81, 0.2), 2)
SHEAR_GAIN = 2.0
SHEAR_ROWS = 24  # rows of the patch the slant is judged on
SQUARE_FITS = 2.0  # a rectangle whose weakest side is this clear (x the patch's typical)
SLANT_BARS = 16  # slants are looked for around this many bars (the darkest, most bar-like)


@dataclass
class Candidate:
    """A tile outline: corners (4x2, detection pixels), first two on the end of half A."""

    corners: np.ndarray
    bar: Bar
    edge_score: float
    width: float
    length: float
    group: int = -1
    short: bool = False  # fitted as a tile foreshortened by a steep tilt (fit_short_tiles)
    # fitted where a touching neighbour of a tile read would lie (its edge along that tile
    # is the tile's own, so a clean outline says little there)
    neighbour: bool = False
    face: bool = False  # the outline of a bright face found without its bar (find_faces)
    finder: bool = False  # ... found by the learned tile finder (tilenet.find_tiles)
    snapped: bool = False  # another outline's sides moved onto its face's edges (snap_to_face)


def face_colour(sample: np.ndarray, pct: float = 75, within: float = 0.9) -> np.ndarray:
    """A tile face's colour from Lab ``sample`` (N x 3) taken on it: the median of the
    samples at least ``within`` as light as its ``pct`` percentile of lightness (a half may
    be packed with dark pips; the face is the brighter part)."""
    top = np.percentile(sample[:, 0], pct)
    return np.median(sample[sample[:, 0] >= within * top], axis=0)


def fit_tile(rgb: np.ndarray, bar: Bar) -> Candidate | None:
    """The best-fitting tile rectangle around ``bar``, or None."""
    fits = fit_tiles(rgb, bar, 1)
    return fits[0] if fits else None


def fit_tiles(rgb: np.ndarray, bar: Bar, k: int = 1, slants: bool = True) -> list[Candidate]:
    """Fit up to ``k`` tile rectangles (different sizes) around ``bar``, best first; with
    ``k`` > 1, under a steep camera tilt (the tile's long sides clearly not square to its
    bar), also the best parallelogram whose long sides follow the tile's (and the best longer
    one, as for rectangles)."""
    fits, shear = _fit_tiles(rgb, bar, k, 0.0, estimate=k > 1 and slants)
    if shear:
        fits += _fit_tiles(rgb, bar, 1, shear)[0]
    return fits


def fit_short_tiles(rgb: np.ndarray, bar: Bar, k: int = 2) -> list[Candidate]:
    """Outlines only 1.1 to 1.7 widths long (SHORT_ASPECTS) around ``bar``, square and
    slanted: a tile near the camera under a steep tilt, foreshortened along its length. Only
    for bars left unread in a photo that looks steeply tilted (see the reader)."""
    fits, shear = _fit_tiles(rgb, bar, k, 0.0, estimate=True, short=True)
    if shear:
        fits += _fit_tiles(rgb, bar, 1, shear, short=True)[0]
    for c in fits:
        c.short = True
    return fits


def _fit_tiles(
    rgb: np.ndarray, bar: Bar, k: int, shear: float, estimate: bool = False, short: bool = False
) -> tuple[list[Candidate], float]:
    """Fit up to ``k`` tile outlines around ``bar``, best first, and (with ``estimate``) the
    shear its long sides seem to have (0.0 when square to the bar, or not estimated).

    The outline is a parallelogram: two sides along the bar, two along ``u * shear + n``
    (``u`` the bar's direction, ``n`` square to it; a rectangle when ``shear`` is 0). The face
    colour is taken beside the bar; the four sides are placed where the colour changes away
    from the face colour going outwards, consistently along the side (median over the side,
    so pips and texture do not count).
    """
    u = bar.direction
    nvec = np.array([-u[1], u[0]])
    along = nvec + shear * u  # the direction of the long sides
    lb = bar.length
    a_lo, a_hi = 0.5 * lb / 0.97, 0.5 * lb / 0.45  # half-width: the bar covers 45..97 %
    S = min(1.0, 100.0 / a_hi)  # patch pixels per image pixel
    pw = int(np.ceil(2 * a_hi * (1.15 + 0.5 * abs(shear)) * S)) + 8
    ph = int(np.ceil(4 * a_hi * 1.2 * S)) + 8
    cx, cy = pw / 2, ph / 2
    A = np.array(
        [
            [u[0] / S, along[0] / S, bar.centre[0] - (cx * u[0] + cy * along[0]) / S],
            [u[1] / S, along[1] / S, bar.centre[1] - (cx * u[1] + cy * along[1]) / S],
        ]
    )
    patch = cv2.warpAffine(
        rgb,
        A,
        (pw, ph),
        flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA,
        borderMode=cv2.BORDER_REPLICATE,
    )
    lab = cv2.cvtColor(patch, cv2.COLOR_RGB2LAB).astype(np.float32)
    lbS = lb * S
    r0, r1 = int(cy + 0.12 * lbS), int(cy + 0.45 * lbS) + 1
    c0, c1 = int(cx - 0.4 * lbS), int(cx + 0.4 * lbS) + 1
    sample = np.concatenate(
        [
            lab[r0:r1, c0:c1].reshape(-1, 3),
            lab[int(2 * cy) - r1 : int(2 * cy) - r0, c0:c1].reshape(-1, 3),
        ]
    )
    if len(sample) < 4:
        return [], 0.0
    face = np.median(sample, axis=0)
    if face[0] < 90:
        # a half packed with dark pips (the navy or purple 9-12 halves of a double-12 set)
        # has more pip than face beside the bar: the face colour from the brighter samples
        face = face_colour(sample, 80, 0.85)
    if face[0] < 90:  # faces are white or ivory; this is something dark
        return [], 0.0
    wts = np.array([1.0, 1.6, 1.6], np.float32)
    D = bars.colour_distance(lab, face, wts)
    dl = max(1, int(round(0.035 * a_lo * S)))
    rows = slice(max(0, int(cy - 1.6 * a_lo * S)), int(cy + 1.6 * a_lo * S) + 1)
    cols = slice(max(0, int(cx - 0.75 * a_lo * S)), int(cx + 0.75 * a_lo * S) + 1)
    Dr = D[rows, :]
    Dc = D[:, cols]
    # prof_x[i] = outward colour change across column i + dl (positive: face on the left)
    prof_x = np.zeros(pw, np.float32)
    prof_x[dl : pw - dl] = np.median(Dr[:, 2 * dl :] - Dr[:, : -2 * dl], axis=0)
    prof_y = np.zeros(ph, np.float32)
    prof_y[dl : ph - dl] = np.median(Dc[2 * dl :, :] - Dc[: -2 * dl, :], axis=1)
    base = float(np.median(np.abs(np.concatenate([prof_x, prof_y])))) + 2.0
    tol = max(1, int(round(0.04 * a_lo * S)))

    # best (signed) edge strength within +-tol of every position, looked up below
    win = 2 * tol + 1
    tables = {}
    for name, prof in (("x", prof_x), ("y", prof_y)):
        for sign in (-1, 1):
            if prof.size >= win:
                view = np.lib.stride_tricks.sliding_window_view(prof * sign, win)
                j = np.argmax(view, axis=1)
                tables[name, sign] = (view[np.arange(len(j)), j], j)
            else:
                tables[name, sign] = (np.zeros(0), np.zeros(0, int))

    def look(name, pos, sign):
        """Edge strength and refined position for an array of positions."""
        vals, idx = tables[name, sign]
        pos = np.asarray(pos, np.float64)
        if len(vals) == 0:
            return np.full(pos.shape, -1.0), pos
        i0 = np.round(pos).astype(int) - tol
        inside = (i0 >= 0) & (i0 < len(vals))
        ic = np.clip(i0, 0, len(vals) - 1)
        return np.where(inside, vals[ic], -1.0), np.where(inside, ic + idx[ic], pos)

    # every half-width at once; the two halves' lengths each within the aspect range (a
    # tilted camera foreshortens a tile, and its nearer half looks a little longer)
    widths = np.arange(a_lo * S, a_hi * S, max(0.5, 0.012 * a_lo * S))
    l_s, xl = look("x", cx - widths, -1)
    r_s, xr = look("x", cx + widths, 1)
    aspects = SHORT_ASPECTS if short else ASPECTS
    t_s, yt = look("y", cy - widths[:, None] * aspects[None, :], -1)
    b_s, yb = look("y", cy + widths[:, None] * aspects[None, :], 1)
    diff = SHORT_HALF_DIFF if short else MAX_HALF_DIFF
    near = np.abs(aspects[:, None] - aspects[None, :]) <= diff  # top x bottom
    # a side a touching neighbour hides (no colour change across a tight seam) may be
    # missing when the opposite side is there, the outline being centred on the bar; the
    # other pair of sides must then both be seen. Only for bars no full outline fits.
    both_lr = np.minimum(l_s, r_s)[:, None, None]
    both_tb = np.minimum(t_s[:, :, None], b_s[:, None, :])
    one_lr = ONE_SIDE * np.maximum(l_s, r_s)[:, None, None]
    one_tb = ONE_SIDE * np.maximum(t_s[:, :, None], b_s[:, None, :])
    lr = np.where(both_lr > 0, both_lr, one_lr)
    tb = np.where(both_tb > 0, both_tb, one_tb)
    pos = np.maximum
    score = (
        lr
        + tb
        + 0.25
        * (
            (pos(l_s, 0) + pos(r_s, 0))[:, None, None]
            + pos(t_s, 0)[:, :, None]
            + pos(b_s, 0)[:, None, :]
        )
    )
    valid = (both_lr > 0) & (both_tb > 0) & near[None, :, :]
    if not valid.any():  # only when no outline with all four sides seen fits this bar
        valid = (lr > 0) & (tb > 0) & ((both_lr > 0) | (both_tb > 0)) & near[None, :, :]
    wi, ti, bi = np.nonzero(valid)
    weakest = np.minimum(lr[wi, 0, 0], tb[wi, ti, bi])
    # a tile seen from above (length = 2 x width, both halves alike) is the usual case and is
    # tried first; the other shapes give one extra hypothesis per bar
    usual = (ti == bi) & (np.abs(aspects[ti] - 2.0) <= 0.125) | short
    wide = None  # the best of the other shapes
    if (~usual).any():
        j = int(np.argmax(np.where(usual, -np.inf, score[wi, ti, bi])))
        wide = (
            float(score[wi[j], ti[j], bi[j]]),
            float(xl[wi[j]]),
            float(xr[wi[j]]),
            float(yt[wi[j], ti[j]]),
            float(yb[wi[j], bi[j]]),
            float(weakest[j]),
        )
    wi, ti, bi, weakest = wi[usual], ti[usual], bi[usual], weakest[usual]
    fits = list(
        zip(
            score[wi, ti, bi].tolist(),
            xl[wi].tolist(),
            xr[wi].tolist(),
            yt[wi, ti].tolist(),
            yb[wi, bi].tolist(),
            weakest.tolist(),
            strict=True,
        )
    )
    fits.sort(key=lambda f: -f[0])
    picked: list[tuple] = []
    for f in fits:
        if len(picked) >= k:
            break
        wf = f[2] - f[1]
        if any(
            abs(wf - (p[2] - p[1])) < 0.07 * wf and abs((f[4] - f[3]) - (p[4] - p[3])) < 0.07 * wf
            for p in picked
        ):
            continue
        picked.append(f)
    if k > 1 and not shear:
        # also the best fit for each range of bar length / tile width, so that a strong edge
        # next to the tile (a touching neighbour's pips) cannot hide the real size
        for lo, hi in RATIO_BINS:
            for f in fits:
                ratio = lbS / max(f[2] - f[1], 1e-6)
                if lo <= ratio < hi:
                    wf = f[2] - f[1]
                    if not any(
                        abs(wf - (p[2] - p[1])) < 0.04 * wf
                        and abs((f[4] - f[3]) - (p[4] - p[3])) < 0.04 * wf
                        for p in picked
                    ):
                        picked.append(f)
                    break
    if (k > 1 or shear) and wide is not None and (not fits or wide[0] > fits[0][0]):
        picked.append(wide)
    M = np.vstack([A, [0, 0, 1]])
    out = []
    for _score, xl, xr, yt, yb, weakest in picked:
        corners_p = np.array([[xl, yt], [xr, yt], [xr, yb], [xl, yb]], np.float64)
        pts = np.column_stack([corners_p, np.ones(4)]) @ M.T
        out.append(Candidate(pts[:, :2], bar, weakest / base, (xr - xl) / S, (yb - yt) / S))
    # a slant is looked for only when no rectangle fits well (a tile seen from above has one)
    found_shear = 0.0
    if estimate and (not out or max(c.edge_score for c in out) < SQUARE_FITS):
        found_shear = _shear(Dr, rows.start, cy, cx, dl, tol, a_lo * S, a_hi * S)
    return out, found_shear


def _shear(Dr, row0, cy, cx, dl, tol, w_lo, w_hi) -> float:
    """The shear of a tile's long sides against its bar (0.0: square to it, or not clearly
    better): the x-profile of colour change ``Dr`` (rows ``row0``.. of the patch) is read
    along slanted columns (SHEARS), and the slant whose pair of long sides centred on the bar
    is clearly the strongest (SHEAR_GAIN x the square pair) wins."""
    step = max(1, Dr.shape[0] // SHEAR_ROWS)  # a few rows are enough for a median
    Dr = Dr[::step]
    h, w = Dr.shape
    if h < 4 or w <= 2 * dl + 2:
        return 0.0
    ys = np.arange(h) * step + row0 - cy
    idx = np.round(np.arange(w)[None, None, :] + SHEARS[:, None, None] * ys[None, :, None])
    Ds = Dr[np.arange(h)[None, :, None], np.clip(idx.astype(int), 0, w - 1)]  # slant x row x col
    prof = np.zeros((len(SHEARS), w), np.float32)
    prof[:, dl : w - dl] = np.median(Ds[:, :, 2 * dl :] - Ds[:, :, : -2 * dl], axis=1)
    # the weaker of the two long sides (left: face on its right) at each half-width
    widths = np.arange(w_lo, w_hi, max(0.5, 0.02 * w_lo))
    offs = np.arange(-tol, tol + 1)
    left = np.clip(np.round(cx - widths).astype(int)[:, None] + offs, 0, w - 1)
    right = np.clip(np.round(cx + widths).astype(int)[:, None] + offs, 0, w - 1)
    pair = np.minimum((-prof[:, left]).max(axis=2), prof[:, right].max(axis=2)).max(axis=1)
    j = int(np.argmax(pair))
    square = float(pair[len(SHEARS) // 2])
    if SHEARS[j] == 0 or pair[j] <= 0 or pair[j] < SHEAR_GAIN * max(square, 0.0):
        return 0.0
    return float(SHEARS[j])


def find_candidates(
    rgb: np.ndarray,
    per_bar: int = 1,
    deadline: Deadline | None = None,
    slants: bool = True,
    unfitted: dict[int, Bar] | None = None,
    faint: bool = False,
    found: list[Bar] | None = None,
) -> list[Candidate]:
    """Tile outlines around every bar candidate: the ``per_bar`` best-fitting sizes each
    (``Candidate.group`` tells which bar they came from); with ``slants``, slanted outlines
    too around the SLANT_BARS most bar-like marks (a hand has a few tiles; the rest of a long
    list of marks is texture, and the time is better kept). ``unfitted`` (when given) gets the
    bars no outline fits, by group: a tile near the camera under a steep tilt looks shorter
    than any outline tried here (see fit_short_tiles). ``faint``: bars only somewhat darker
    than the face count too (see bars.dark_mask). ``found`` (when given) gets every bar
    looked at, fitted or not."""
    deadline = deadline or Deadline(None)
    out = []
    all_bars = find_bars(rgb, deadline, faint)
    if found is not None:
        found.extend(all_bars)
    for g, bar in enumerate(all_bars):
        deadline.check()
        fits = fit_tiles(rgb, bar, per_bar, slants and g < SLANT_BARS)
        if not fits and unfitted is not None:
            unfitted[g] = bar
        for c in fits:
            c.group = g
            out.append(c)
    return out


# A tile near the camera under a steep tilt is a trapezoid (its nearer half longer, its
# nearer end wider) that no rectangle or parallelogram centred on its bar fits. Its face is
# then taken as the face-coloured area around its bar (pips and bar filled in), and the
# outline is that area's four corners: for bars left unread when a tile may be missing.
BLOB_REACH = 3.0  # the area is looked for within this many bar lengths of the bar's centre
BLOB_SIDE = 200  # ... in a patch this many pixels across
BLOB_COLOUR = 28.0  # colour distance (Lab, chroma weighted) still counted as the face
BLOB_ASPECT = (1.1, 3.5)  # length / width of the outlines kept


def fit_blob(rgb: np.ndarray, bar: Bar) -> Candidate | None:
    """The outline of the face-coloured area around ``bar`` (four corners, first two on
    the end of half A, as for every candidate), or None when that area is not a
    four-sided tile about the bar's size."""
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
    sample = lab[ys, xs]
    face = face_colour(sample)
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
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc).astype(np.float32)
    fs = np.linspace(0.12, 0.88, EDGE_POINTS)
    lines = []
    for side in range(4):
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
            lines.append((p, u))
            continue
        vx, vy, px, py = cv2.fitLine(np.float32(pts), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([px, py], np.float64), np.array([vx, vy], np.float64)))
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
# end to end, split into tiles) is an outline; the counter reads it like any other.
FACES_SIDE = 640  # looked for on a copy this size (long side)
FACE_FILL = 0.8  # the area must fill this much of its enclosing rectangle
FACE_ASPECT = (1.6, 2.5)  # length / width of one tile
FACE_MIN_PX = 12  # narrowest face looked for (pixels of the copy)
FACE_ROW_MAX = 12  # tiles end to end in one area at most
FACE_GROUP = 300_000  # outline groups of faces start here


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


def find_faces(rgb: np.ndarray, skip: list[np.ndarray] | None = None) -> list[Candidate]:
    """Outlines of bright tile faces (see above), corners in pixels of ``rgb``, first two on
    the end of half A; areas whose middle lies inside a polygon of ``skip`` are left out."""
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
    out: list[Candidate] = []
    skip = [np.float32(q) for q in (skip or [])]
    for cnt in contours:
        area = cv2.contourArea(cnt)
        if area < 1.6 * FACE_MIN_PX**2:
            continue
        (cx, cy), (a, b), ang = cv2.minAreaRect(cnt)
        if min(a, b) < FACE_MIN_PX or area < FACE_FILL * a * b:
            continue
        width, length = min(a, b), max(a, b)
        n = max(1, int(round(length / width / 2.0)))
        if n > FACE_ROW_MAX or not (FACE_ASPECT[0] <= length / n / width <= FACE_ASPECT[1]):
            continue
        box = along_outline(cv2.boxPoints(((cx, cy), (a, b), ang)))
        step = (box[3] - box[0]) / n
        for k in range(n):
            q = np.array(
                [
                    box[0] + k * step,
                    box[1] + k * step,
                    box[1] + (k + 1) * step,
                    box[0] + (k + 1) * step,
                ]
            )
            mid = q.mean(axis=0) / f
            if any(
                cv2.pointPolygonTest(p, (float(mid[0]), float(mid[1])), False) >= 0 for p in skip
            ):
                continue
            u = (q[1] - q[0]) / max(float(np.linalg.norm(q[1] - q[0])), 1e-6)
            bar = Bar(mid, u, 0.7 * width / f, 0.05 * width / f, 0.0)
            out.append(Candidate(q / f, bar, 0.5, width / f, length / n / f, face=True))
    return out

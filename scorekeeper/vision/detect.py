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
    doubted: bool = False  # kept though the counter doubts it is a tile (Look.take_doubted)
    pale: bool = False  # a half read again from its colour distance (Look.recount_pale)
    glared: bool = False  # kept though not the set's colour: its face blown out (judge)
    blank: bool = False  # read 0|0 where the tile finder sees no tile (Look.doubt_blanks)
    barred: bool = False  # laid on a bar at the tiles' size, no edge fitted (Look.try_bars)


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


@dataclass
class _Patch:
    """The patch around a bar that its outlines are fitted in: ``A`` maps patch pixels to
    image pixels, ``S`` patch pixels per image pixel, (``cx``, ``cy``) the bar's centre,
    ``rgb`` the patch, ``a_lo``..``a_hi`` the half-widths a tile may have (image pixels),
    ``lb`` the bar's length (patch pixels). Only two bands of it are looked at in Lab
    (``band``): rows across the bar's middle (``rows``, the face beside the bar and the
    tile's long sides) and columns along it (``cols``, the tile's ends): about half of
    the patch, and half of the time."""

    A: np.ndarray
    S: float
    cx: float
    cy: float
    rgb: np.ndarray
    a_lo: float
    a_hi: float
    lb: float

    def __post_init__(self):
        a_lo, S, cx, cy, lbS = self.a_lo, self.S, self.cx, self.cy, self.lb
        self.rows = slice(max(0, int(cy - 1.6 * a_lo * S)), int(cy + 1.6 * a_lo * S) + 1)
        self.cols = slice(max(0, int(cx - 0.75 * a_lo * S)), int(cx + 0.75 * a_lo * S) + 1)
        # the face is sampled between these rows beside the bar, and their mirror image
        self.r0, self.r1 = int(cy + 0.12 * lbS), int(cy + 0.45 * lbS) + 1
        self.top = min(self.rows.start, int(2 * cy) - self.r1)  # the band's first row
        bottom = max(self.rows.stop, self.r1)
        self.lab_rows = _lab(self.rgb[self.top : bottom])

    def band(self, rows: slice) -> np.ndarray:
        """Rows ``rows`` of the patch in Lab (within the band across the bar)."""
        return self.lab_rows[rows.start - self.top : rows.stop - self.top]


def _lab(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2LAB).astype(np.float32)


def _patch(rgb: np.ndarray, bar: Bar, shear: float) -> _Patch:
    """The bar's surroundings warped upright: the bar along x, the long sides along y."""
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
    return _Patch(A, S, cx, cy, patch, a_lo, a_hi, lb * S)


def _face_beside_bar(p: _Patch) -> np.ndarray | None:
    """The face's colour (Lab) beside the bar, or None when it is something dark."""
    cx, cy, lbS, r0, r1 = p.cx, p.cy, p.lb, p.r0, p.r1
    c0, c1 = int(cx - 0.4 * lbS), int(cx + 0.4 * lbS) + 1
    sample = np.concatenate(
        [
            p.band(slice(r0, r1))[:, c0:c1].reshape(-1, 3),
            p.band(slice(int(2 * cy) - r1, int(2 * cy) - r0))[:, c0:c1].reshape(-1, 3),
        ]
    )
    if len(sample) < 4:
        return None
    face = np.median(sample, axis=0)
    if face[0] < 90:
        # a half packed with dark pips (the navy or purple 9-12 halves of a double-12 set)
        # has more pip than face beside the bar: the face colour from the brighter samples
        face = face_colour(sample, 80, 0.85)
    if face[0] < 90:  # faces are white or ivory; this is something dark
        return None
    return face


class _Edges:
    """Where the colour changes away from the face going outwards, across the patch's
    columns (``x``) and rows (``y``), and the best (signed) change within +-``tol`` of every
    position (``look``)."""

    def __init__(self, p: _Patch, face: np.ndarray):
        wts = np.array([1.0, 1.6, 1.6], np.float32)
        ph, pw = p.rgb.shape[:2]
        a_lo, S = p.a_lo, p.S
        self.dl = dl = max(1, int(round(0.035 * a_lo * S)))
        self.rows = p.rows
        self.Dr = Dr = bars.colour_distance(p.band(p.rows), face, wts)
        Dc = bars.colour_distance(_lab(p.rgb[:, p.cols]), face, wts)
        # prof_x[i] = outward colour change across column i + dl (positive: face on the left)
        prof_x = np.zeros(pw, np.float32)
        # (medians along contiguous rows: the same values, in less time)
        prof_x[dl : pw - dl] = np.median((Dr[:, 2 * dl :] - Dr[:, : -2 * dl]).T.copy(), axis=1)
        prof_y = np.zeros(ph, np.float32)
        prof_y[dl : ph - dl] = np.median(Dc[2 * dl :, :] - Dc[: -2 * dl, :], axis=1)
        self.base = float(np.median(np.abs(np.concatenate([prof_x, prof_y])))) + 2.0
        self.tol = tol = max(1, int(round(0.04 * a_lo * S)))
        win = 2 * tol + 1
        self.tables = {}
        for name, prof in (("x", prof_x), ("y", prof_y)):
            for sign in (-1, 1):
                if prof.size >= win:
                    view = np.lib.stride_tricks.sliding_window_view(prof * sign, win)
                    j = np.argmax(view, axis=1)
                    self.tables[name, sign] = (view[np.arange(len(j)), j], j)
                else:
                    self.tables[name, sign] = (np.zeros(0), np.zeros(0, int))

    def look(self, name, pos, sign):
        """Edge strength and refined position for an array of positions."""
        vals, idx = self.tables[name, sign]
        pos = np.asarray(pos, np.float64)
        if len(vals) == 0:
            return np.full(pos.shape, -1.0), pos
        i0 = np.round(pos).astype(int) - self.tol
        inside = (i0 >= 0) & (i0 < len(vals))
        ic = np.clip(i0, 0, len(vals) - 1)
        return np.where(inside, vals[ic], -1.0), np.where(inside, ic + idx[ic], pos)


def _outlines(p: _Patch, e: _Edges, short: bool) -> tuple[list[tuple], tuple | None]:
    """Every outline whose sides are seen, as (score, left, right, top, bottom, weakest
    side) in patch pixels: the usual shapes best first, and the best of the other shapes
    (None when there is none)."""
    # every half-width at once; the two halves' lengths each within the aspect range (a
    # tilted camera foreshortens a tile, and its nearer half looks a little longer)
    widths = np.arange(p.a_lo * p.S, p.a_hi * p.S, max(0.5, 0.012 * p.a_lo * p.S))
    l_s, xl = e.look("x", p.cx - widths, -1)
    r_s, xr = e.look("x", p.cx + widths, 1)
    aspects = SHORT_ASPECTS if short else ASPECTS
    t_s, yt = e.look("y", p.cy - widths[:, None] * aspects[None, :], -1)
    b_s, yb = e.look("y", p.cy + widths[:, None] * aspects[None, :], 1)
    diff = SHORT_HALF_DIFF if short else MAX_HALF_DIFF
    near = np.abs(aspects[:, None] - aspects[None, :]) <= diff  # top x bottom
    # a side a touching neighbour hides (no colour change across a tight seam) may be
    # missing when the opposite side is there, the outline being centred on the bar; the
    # other pair of sides must then both be seen. Only for bars no full outline fits.
    both_lr = np.minimum(l_s, r_s)[:, None, None]
    both_tb = np.minimum(t_s[:, :, None], b_s[:, None, :])
    lr = np.where(both_lr > 0, both_lr, ONE_SIDE * np.maximum(l_s, r_s)[:, None, None])
    tb = np.where(both_tb > 0, both_tb, ONE_SIDE * np.maximum(t_s[:, :, None], b_s[:, None, :]))
    pos = np.maximum
    seen = (pos(l_s, 0) + pos(r_s, 0))[:, None, None] + pos(t_s, 0)[:, :, None]
    score = lr + tb + 0.25 * (seen + pos(b_s, 0)[:, None, :])
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
        w_, t_, b_ = wi[j], ti[j], bi[j]
        wide = (float(score[w_, t_, b_]), float(xl[w_]), float(xr[w_]))
        wide += (float(yt[w_, t_]), float(yb[w_, b_]), float(weakest[j]))
    wi, ti, bi, weakest = wi[usual], ti[usual], bi[usual], weakest[usual]
    cols = (score[wi, ti, bi], xl[wi], xr[wi], yt[wi, ti], yb[wi, bi], weakest)
    fits = list(zip(*(c.tolist() for c in cols), strict=True))
    fits.sort(key=lambda f: -f[0])
    return fits, wide


def _alike(f: tuple, p: tuple, within: float) -> bool:
    """Two outlines of about the same width and length (``within`` x the width)."""
    wf = f[2] - f[1]
    return (
        abs(wf - (p[2] - p[1])) < within * wf and abs((f[4] - f[3]) - (p[4] - p[3])) < within * wf
    )


def _pick(fits: list[tuple], wide: tuple | None, k: int, shear: float, lb: float) -> list[tuple]:
    """Up to ``k`` outlines of different sizes, best first (and, with ``k`` > 1, the best of
    each range of bar length / tile width and the best other shape)."""
    picked: list[tuple] = []
    for f in fits:
        if len(picked) >= k:
            break
        if not any(_alike(f, p, 0.07) for p in picked):
            picked.append(f)
    if k > 1 and not shear:
        # also the best fit for each range of bar length / tile width, so that a strong edge
        # next to the tile (a touching neighbour's pips) cannot hide the real size
        for lo, hi in RATIO_BINS:
            for f in fits:
                if lo <= lb / max(f[2] - f[1], 1e-6) < hi:
                    if not any(_alike(f, p, 0.04) for p in picked):
                        picked.append(f)
                    break
    if (k > 1 or shear) and wide is not None and (not fits or wide[0] > fits[0][0]):
        picked.append(wide)
    return picked


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
    p = _patch(rgb, bar, shear)
    face = _face_beside_bar(p)
    if face is None:
        return [], 0.0
    e = _Edges(p, face)
    fits, wide = _outlines(p, e, short)
    M = np.vstack([p.A, [0, 0, 1]])
    out = []
    for _score, xl, xr, yt, yb, weakest in _pick(fits, wide, k, shear, p.lb):
        corners_p = np.array([[xl, yt], [xr, yt], [xr, yb], [xl, yb]], np.float64)
        pts = np.column_stack([corners_p, np.ones(4)]) @ M.T
        out.append(Candidate(pts[:, :2], bar, weakest / e.base, (xr - xl) / p.S, (yb - yt) / p.S))
    # a slant is looked for only when no rectangle fits well (a tile seen from above has one)
    found_shear = 0.0
    if estimate and (not out or max(c.edge_score for c in out) < SQUARE_FITS):
        w_lo, w_hi = p.a_lo * p.S, p.a_hi * p.S
        found_shear = _shear(e.Dr, e.rows.start, p.cy, p.cx, e.dl, e.tol, w_lo, w_hi)
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
    change = (Ds[:, :, 2 * dl :] - Ds[:, :, : -2 * dl]).transpose(0, 2, 1).copy()
    prof[:, dl : w - dl] = np.median(change, axis=2)  # (along contiguous rows: faster)
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

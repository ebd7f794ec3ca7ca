"""The dark bar across every domino face: found as thin dark components with face-coloured
ground on both sides (a cheap filter that runs before any candidate limit), extended along
their length but stopped at seams between touching tiles, and deduplicated. Also the time
budget every step of detection shares."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

MIN_BAR_PX = 14
MAX_BARS = 60
MAX_RAW = 400  # marks kept (after the cheap face test) for extension and pairing
# Two pieces joined (``_joined``) rank as this much less dark: in a large spread's rows the
# halves of neighbours' bars make many, which took whole bars' places (seed 149's -018)
JOINED_RANK = 0.8
MAX_MARK_AREA = 0.05  # of the photo: the bar of a tile filling a photo covers under 2 %


@dataclass
class Bar:
    centre: np.ndarray  # (x, y)
    direction: np.ndarray  # unit vector along the bar
    length: float
    thickness: float
    darkness: float


class OutOfTime(Exception):
    """The photo took longer than its time budget (see :class:`Deadline`)."""


class Deadline:
    """A CPU-time budget checked between the steps of a reading; ``limit`` (the budget when
    None): the line no reading may pass (``time_for``). The reading thread's own time: a
    server reads PHOTO_READERS photos at once, each on its own budget."""

    def __init__(self, seconds: float | None, limit: float | None = None):
        self.start = time.thread_time()
        self.seconds = seconds
        self.limit = seconds if limit is None else limit

    def used(self) -> float:
        return time.thread_time() - self.start

    def time_for(self, more: float) -> bool:
        """Whether ``more`` seconds still fit before the limit."""
        return self.seconds is None or self.used() + more <= self.limit

    def check(self) -> None:
        if self.seconds is not None and self.used() > self.seconds:
            raise OutOfTime(f"over {self.seconds:.1f} s of CPU time")  # i18n: internal


def _planes(rgb: np.ndarray) -> tuple[tuple[np.ndarray, ...], tuple[int, ...]]:
    """The three colour planes of an image, or of a stack of them (any leading axes, as one
    tall image), for OpenCV; and the shape to give what is made of them."""
    a = np.ascontiguousarray(rgb)
    return cv2.split(a.reshape(-1, a.shape[-2], 3)), a.shape[:-1]


def brightest(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel (``rgb.max(axis=-1)``, the same values) of an image or a
    stack of them (the half counter's crops): OpenCV's per-channel maximum takes a tenth of
    numpy's reduction over the short last axis, and the reader takes this of a full photo
    several times."""
    if not rgb.size:
        return rgb.max(axis=-1)
    (r, g, b), shape = _planes(rgb)
    return cv2.max(cv2.max(r, g), b).reshape(shape)


def darkest(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's darkest channel (``rgb.min(axis=-1)``, the same values; see brightest)."""
    if not rgb.size:
        return rgb.min(axis=-1)
    (r, g, b), shape = _planes(rgb)
    return cv2.min(cv2.min(r, g), b).reshape(shape)


def colour_distance(lab: np.ndarray, face: np.ndarray, wts: np.ndarray) -> np.ndarray:
    """Weighted distance of every pixel of ``lab`` (H x W x 3) from the colour ``face``: the
    same values as numpy's norm over the last axis. Fitting an outline around a bar takes
    two of these, and a large spread is 500 fits: OpenCV's per-channel operations (a
    float32 image, colour and weights) take a quarter of numpy's time, with the same
    rounding (each step is one IEEE single-precision operation either way)."""
    if (
        lab.dtype == face.dtype == wts.dtype == np.float32
        and lab.ndim == 3
        and lab.shape[2] == 3
        and lab.size
        and lab.flags.c_contiguous
        and face.shape == wts.shape == (3,)
    ):
        d = cv2.subtract(lab, (*face.tolist(), 0.0))
        d = cv2.multiply(d, (*wts.tolist(), 0.0))
        d = cv2.multiply(d, d)
        a, b, c = cv2.split(d)
        return cv2.sqrt(cv2.add(cv2.add(a, b), c))
    d = (lab - face) * wts
    d *= d
    return np.sqrt(d[..., 0] + d[..., 1] + d[..., 2])


def _components(mask: np.ndarray, rel: np.ndarray, max_area: float = 1.0) -> dict[str, np.ndarray]:
    """Shape summary of every connected component of ``mask`` (at least 6 pixels and 4
    across, at most ``max_area`` of the image), all at once (no loop over components):
    centre, major direction (second moments), length and thickness (extents along and
    across it), area and mean darkness. Arrays, one entry per component."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sizes, across = stats[:, cv2.CC_STAT_AREA], stats[:, cv2.CC_STAT_WIDTH : cv2.CC_STAT_HEIGHT + 1]
    # (a woven cloth's threads make one mark over a third of the photo: most of the work)
    keep = (sizes >= 6) & (across.max(axis=1) >= 4) & (sizes <= max_area * mask.size)
    keep[0] = False
    ys, xs = np.nonzero(keep[labels])
    lab = labels[ys, xs]
    xs = xs.astype(np.float64)
    ys = ys.astype(np.float64)
    area = np.bincount(lab, minlength=n).astype(np.float64)
    safe = np.maximum(area, 1)
    mx = np.bincount(lab, xs, n) / safe
    my = np.bincount(lab, ys, n) / safe
    dx = xs - mx[lab]
    dy = ys - my[lab]
    cxx = np.bincount(lab, dx * dx, n) / safe
    cyy = np.bincount(lab, dy * dy, n) / safe
    cxy = np.bincount(lab, dx * dy, n) / safe
    dark = np.bincount(lab, rel[ys.astype(int), xs.astype(int)], n) / safe
    half_tr = (cxx + cyy) / 2
    disc = np.sqrt(((cxx - cyy) / 2) ** 2 + cxy**2)
    l0 = np.maximum(half_tr - disc, 0)
    theta = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    # extents along and across the major direction (a bar with a pip or a spinner ring
    # stuck to it keeps its true length)
    ct, st_ = np.cos(theta), np.sin(theta)
    pa = dx * ct[lab] + dy * st_[lab]
    pp = -dx * st_[lab] + dy * ct[lab]
    hi_a = np.full(n, -np.inf)
    lo_a = np.full(n, np.inf)
    hi_p = np.full(n, -np.inf)
    lo_p = np.full(n, np.inf)
    np.maximum.at(hi_a, lab, pa)
    np.minimum.at(lo_a, lab, pa)
    np.maximum.at(hi_p, lab, pp)
    np.minimum.at(lo_p, lab, pp)
    seen = area > 0
    for arr in (hi_a, lo_a, hi_p, lo_p):
        arr[~seen] = 0.0
    length = hi_a - lo_a + 1
    thick = np.minimum(np.maximum(1.0, 4 * np.sqrt(l0)), hi_p - lo_p + 1)
    # a spinner pin's ring on a bar widens its second moments, not its mean thickness (the
    # area over the length): a bar with a spinner stays thin
    thick = np.minimum(thick, np.maximum(1.0, 1.25 * area / np.maximum(length, 1.0)))
    mid = (hi_a + lo_a) / 2
    centre = np.column_stack([mx + ct * mid, my + st_ * mid])
    return {
        "centre": centre[keep],
        "direction": np.column_stack([ct, st_])[keep],
        "length": length[keep],
        "thickness": thick[keep],
        "area": area[keep],
        "darkness": dark[keep],
    }


def _concat(a: dict, b: dict) -> dict:
    return {k: np.concatenate([a[k], b[k]]) for k in a}


def _take(c: dict, idx) -> dict:
    return {k: v[idx] for k, v in c.items()}


# how much darker than its surroundings a mark must be (relative, and in grey levels); a
# photo in which no tile was found is looked at again with the FAINT limits (a blurred photo
# spreads a thin bar's darkness over its sides)
DARK_REL, DARK_LEVELS = 0.33, 35
FAINT_REL, FAINT_LEVELS = 0.2, 20


def dark_mask(rgb: np.ndarray, faint: bool = False):
    """Pixels clearly darker than their surroundings (black-hat on the brightest channel, so
    coloured pips stay light and only dark marks remain); ``faint``: somewhat darker."""
    h, w = rgb.shape[:2]
    v = brightest(rgb)
    k = max(9, int(round(max(h, w) / 70)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.morphologyEx(v, cv2.MORPH_CLOSE, kernel)
    bh = closed.astype(np.int16) - v.astype(np.int16)
    rel = bh.astype(np.float32) / np.maximum(closed.astype(np.float32), 40.0)
    rel_min, levels = (FAINT_REL, FAINT_LEVELS) if faint else (DARK_REL, DARK_LEVELS)
    mask = ((rel > rel_min) & (bh > levels)).astype(np.uint8)
    return mask, rel


def _sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    xs = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
    return img[ys, xs]


def face_on_both_sides(
    centre: np.ndarray, direction: np.ndarray, length: np.ndarray, thick: np.ndarray, rgb
) -> tuple[np.ndarray, np.ndarray]:
    """For every mark at once: whether a bright surface of one colour lies on both sides of it
    (a tile's bar has its face all round; a thread of a dark cloth, the grain of wood or a
    table edge does not), and a 0..1 score of how face-like the sides are. ``rgb`` is the
    image (only the samples are turned into CIE Lab). Samples: 5 points along the mark at 3
    distances on each side, within the face that a bar of that length must have around it.
    A side washed out to white by a lamp's glare (seed 157's busy-004) goes with any face."""
    n = len(centre)
    if n == 0:
        return np.zeros(0, bool), np.zeros(0)
    u = direction
    nrm = np.column_stack([-u[:, 1], u[:, 0]])
    along = np.array([-0.35, -0.17, 0.0, 0.17, 0.35])
    dist = np.array([0.12, 0.2, 0.3])
    off_a = along[None, :, None] * length[:, None, None]  # n x 5 x 1
    off_n = thick[:, None] / 2 + dist[None, :] * length[:, None]  # n x 3
    sides = []
    for sign in (-1.0, 1.0):
        pts = (
            centre[:, None, None, :]
            + off_a[..., None] * u[:, None, None, :]
            + sign * off_n[:, None, :, None] * nrm[:, None, None, :]
        )  # n x 5 x 3 x 2
        px = _sample(rgb, pts).reshape(-1, 1, 3)
        sides.append(cv2.cvtColor(px, cv2.COLOR_RGB2LAB).astype(np.float32).reshape(n, 15, 3))
    a, b = sides

    def face_of(x):
        """The side's face colour: lightness and chroma of its brighter samples (not pips)."""
        top = np.percentile(x[:, :, 0], 75, axis=1)
        bright = x[:, :, 0] >= 0.85 * top[:, None]
        ch = np.where(bright[:, :, None], x[:, :, 1:], np.nan)
        return top, np.nanmedian(ch, axis=1)

    top_a, ch_a = face_of(a)
    top_b, ch_b = face_of(b)
    light = np.minimum(top_a, top_b)
    # shading may make one side lighter; the colour (chroma) of a face is the same
    same = np.sqrt(((ch_a - ch_b) ** 2).sum(axis=1)) + np.maximum(np.abs(top_a - top_b) - 20, 0) / 3
    grey = np.where((top_a >= top_b)[:, None], ch_a, ch_b) - 128.0  # the brighter side's
    same[(np.maximum(top_a, top_b) >= 250) & (np.hypot(grey[:, 0], grey[:, 1]) < 6)] = 0.0
    ok = (light >= 90) & (same < 25)
    score = np.clip((light - 80) / 80, 0, 1) * np.clip(1 - same / 40, 0, 1)
    return ok, score


def _without_pips(mask: np.ndarray, d: float) -> np.ndarray:
    """``mask`` without the round blobs about ``d`` pixels across (pips): what is left of a
    bar that pips touch."""
    r = max(2, int(round(0.65 * d)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r))
    # holes up to a pip's size are filled first: a pip often has a light middle (a ring)
    n, lab, st, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    small = np.zeros(n, bool)
    small[1:] = st[1:, cv2.CC_STAT_AREA] < 0.8 * d * d
    filled = mask | small[lab].astype(np.uint8)
    blobs = cv2.morphologyEx(filled, cv2.MORPH_OPEN, disk)
    blobs = cv2.dilate(blobs, np.ones((3, 3), np.uint8))
    return mask & (1 - blobs)


def find_bars(rgb: np.ndarray, deadline: Deadline | None = None, faint: bool = False) -> list[Bar]:
    """Dark thin straight marks that could be the bar of a tile (or a piece of one);
    ``faint``: also marks only somewhat darker than their surroundings (see dark_mask)."""
    deadline = deadline or Deadline(None)
    mask, rel = dark_mask(rgb, faint)
    comps = _components(mask, rel, MAX_MARK_AREA)
    deadline.check()
    L, T, A = comps["length"], comps["thickness"], comps["area"]
    # dark round blobs are pips: their size tells how thick a mark can be and still be a bar
    # (pale pips are often rings: a dark rim around a light middle)
    roundish = (L < 1.6 * T) & (A >= 12) & (A > 0.2 * L * T)
    diam = (L[roundish] + T[roundish]) / 2
    found = comps
    if len(diam) >= 4:
        pieces = _without_pips(mask, float(np.median(diam)))
        found = _concat(comps, _components(pieces, rel, MAX_MARK_AREA))
    deadline.check()
    L, T, A = found["length"], found["thickness"], found["area"]
    # (a thin bar with the ring of a spinner pin on it fills less of its box)
    shape_ok = (L >= MIN_BAR_PX * 0.4) & (L / T >= 3.0) & (A / (L * T) >= 0.4)
    found = _take(found, shape_ok)
    # the cheap test that tells bars from texture, before any limit: a tile face on both sides
    ok, face_score = face_on_both_sides(
        found["centre"], found["direction"], found["length"], found["thickness"], rgb
    )
    found = _take(found, ok)
    face_score = face_score[ok]
    rank = found["darkness"] * np.minimum(found["length"] / found["thickness"], 10) * face_score
    order = np.argsort(-rank)[:MAX_RAW]
    found = _take(found, order)
    deadline.check()
    raw = [
        Bar(
            found["centre"][i],
            found["direction"][i],
            float(found["length"][i]),
            float(found["thickness"][i]),
            float(found["darkness"][i]),
        )
        for i in range(len(found["length"]))
    ]
    v = brightest(rgb)
    raw = _dedupe(_extend_all(raw, rel, v))
    deadline.check()
    bars = [b for b in raw if b.length >= MIN_BAR_PX and b.length / b.thickness >= 5.0]
    pairs = _joined(raw, v)
    joined = {id(b) for b in pairs}
    # a photo of a hand has a few dozen bars at most; keep the darkest, longest marks
    bars = sorted(_dedupe(bars + pairs), key=lambda b: -_rank(b, id(b) in joined))
    return bars[:MAX_BARS]


def _rank(b: Bar, joined: bool) -> float:
    return b.darkness * min(b.length / b.thickness, 10.0) * (JOINED_RANK if joined else 1.0)


def _extend_all(bars: list[Bar], rel: np.ndarray, v: np.ndarray) -> list[Bar]:
    """Follow every bar beyond the ends found (all bars at once), while it stays somewhat
    darker than its surroundings and has the bright face on both sides: a highlight on a
    glossy bar can make the first threshold stop short. A gap of three steps ends a bar;
    so does, at once, a step where the sides turn dark: the seam between two touching
    tiles, or the tile's edge."""
    n = len(bars)
    if n == 0:
        return []
    h, w = rel.shape
    c, u, L, T = _bar_arrays(bars)
    nrm = np.column_stack([-u[:, 1], u[:, 0]])
    half_t = np.maximum(1.0, T / 2)
    flank = half_t + np.maximum(2.0, T)
    # the face brightness beside each bar
    along = np.linspace(-0.4, 0.4, 9)[None, :, None] * L[:, None, None] * u[:, None, :]
    beside = c[:, None, :] + along
    fl = (flank[:, None] * nrm)[:, None, :]
    sides = np.concatenate([_sample(v, beside + fl), _sample(v, beside - fl)], axis=1)
    face_v = np.median(sides.astype(np.float32), axis=1)
    k = int(np.ceil(0.6 * L.max())) + 1
    steps = np.arange(1.0, k + 1.0)
    reach = steps[None, :] <= 0.6 * L[:, None] + 1.0  # n x k
    offs = np.linspace(-1.0, 1.0, 5)
    ends = []
    for sign in (-1.0, 1.0):
        pos = L[:, None] / 2 + steps[None, :]  # n x k
        p = c[:, None, :] + sign * pos[..., None] * u[:, None, :]  # n x k x 2
        inside = (p[..., 0] >= 0) & (p[..., 0] < w) & (p[..., 1] >= 0) & (p[..., 1] < h)
        side = np.minimum(
            _sample(v, p + fl).astype(np.float32), _sample(v, p - fl).astype(np.float32)
        )
        good = inside & reach & (side >= 0.75 * face_v[:, None])
        across = p[:, :, None, :] + (
            offs[None, None, :, None] * half_t[:, None, None, None] * nrm[:, None, None, :]
        )
        dark = (_sample(rel, across).max(axis=2) > 0.18) & good
        # the first step that ends the bar: sides not face, or three steps without bar
        gap3 = ~dark[:, :-2] & ~dark[:, 1:-1] & ~dark[:, 2:]
        gap3 = np.concatenate([gap3, np.ones((n, 2), bool)], axis=1)
        stop = np.minimum(_first(~good, k), _first(gap3, k))
        idx = np.arange(k)[None, :]
        lastk = np.where(dark & (idx < stop[:, None]), idx, -1).max(axis=1)
        ends.append(np.where(lastk >= 0, L / 2 + lastk + 1.0, L / 2))
    return _lengthened(bars, u, -ends[0], ends[1])


def _lengthened(bars: list[Bar], u: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[Bar]:
    """Each bar reaching from ``lo`` to ``hi`` along its direction ``u`` (from its centre)
    where that is longer than it was."""
    out = []
    for i, b in enumerate(bars):
        if hi[i] - lo[i] <= b.length + 1:
            out.append(b)
        else:
            mid = (lo[i] + hi[i]) / 2
            out.append(replace(b, centre=b.centre + u[i] * mid, length=float(hi[i] - lo[i])))
    return out


def _first(flags: np.ndarray, default: int) -> np.ndarray:
    """Index of the first True in each row, or ``default``."""
    any_ = flags.any(axis=1)
    return np.where(any_, flags.argmax(axis=1), default)


def _bar_arrays(bars: list[Bar]):
    c = np.array([b.centre for b in bars], np.float64).reshape(-1, 2)
    d = np.array([b.direction for b in bars], np.float64).reshape(-1, 2)
    L = np.array([b.length for b in bars], np.float64)
    T = np.array([b.thickness for b in bars], np.float64)
    return c, d, L, T


def _dedupe(bars: list[Bar]) -> list[Bar]:
    """Drop near-copies (same direction, centre and length), longest first. Pair tests are
    done for all pairs at once."""
    if len(bars) < 2:
        return list(bars)
    bars = sorted(bars, key=lambda b: -b.length)
    c, d, L, _ = _bar_arrays(bars)
    para = np.abs(d @ d.T) > 0.98
    near = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2) < 0.1 * L[None, :] + 1.5
    alike = np.abs(L[:, None] - L[None, :]) < 0.1 * L[None, :] + 2
    same = para & near & alike  # same[i, j]: i is a copy of the (longer or equal) j
    out: list[int] = []
    for i in range(len(bars)):
        if not out or not same[i, out].any():
            out.append(i)
    return [bars[i] for i in out]


def _joined(bars: list[Bar], v: np.ndarray | None = None) -> list[Bar]:
    """Extra hypotheses: two collinear pieces of one bar (split by a spinner pin or glare).
    Not across a seam: where the sides of the gap are dark, the pieces are the bars of two
    touching tiles."""
    n = len(bars)
    if n < 2:
        return []
    c, d, L, T = _bar_arrays(bars)
    para = np.abs(d @ d.T) >= 0.98
    nb = np.column_stack([-d[:, 1], d[:, 0]])
    diff = c[None, :, :] - c[:, None, :]  # diff[i, j] = c[j] - c[i]
    across = np.abs(np.einsum("ijk,ik->ij", diff, nb))
    along = np.abs(np.einsum("ijk,ik->ij", diff, d))
    maxT = np.maximum(T[:, None], T[None, :])
    maxL = np.maximum(L[:, None], L[None, :])
    minL = np.minimum(L[:, None], L[None, :])
    gap = along - L[:, None] / 2 - L[None, :] / 2
    ok = (
        para
        & (across <= np.maximum(2.0, 0.7 * maxT))
        & (gap >= -2)
        & (gap <= 0.8 * maxL)
        & (minL >= 0.5 * maxL)
    )
    ok = np.triu(ok, 1)
    out = []
    for i, j in zip(*np.nonzero(ok), strict=True):
        b, o = bars[i], bars[j]
        ends = np.array(
            [
                b.centre - b.direction * b.length / 2,
                b.centre + b.direction * b.length / 2,
                o.centre - o.direction * o.length / 2,
                o.centre + o.direction * o.length / 2,
            ]
        )
        p = (ends - b.centre) @ b.direction
        lo, hi = float(p.min()), float(p.max())
        thick = max(b.thickness, o.thickness)
        if hi - lo < MIN_BAR_PX:
            continue
        if v is not None and _seam_between(b, o, v):
            continue
        out.append(
            Bar(
                b.centre + b.direction * (lo + hi) / 2,
                b.direction,
                hi - lo,
                thick,
                min(b.darkness, o.darkness),
            )
        )
    return out


def _seam_between(b: Bar, o: Bar, v: np.ndarray) -> bool:
    """Whether a dark line crosses the gap between two collinear bar pieces, across the bar
    direction: the seam between two tiles lying side by side."""
    u = b.direction
    nrm = np.array([-u[1], u[0]])
    pb = float((o.centre - b.centre) @ u)
    sign = 1.0 if pb > 0 else -1.0
    g0 = b.length / 2
    g1 = abs(pb) - o.length / 2
    if g1 - g0 < 1:
        return False
    ts = np.linspace(g0 + 0.5, g1 - 0.5, max(2, int(g1 - g0) + 1))
    # far enough out to pass a spinner pin (radius up to about a sixth of the bar), within
    # the face a bar this long has on each side
    span = g1 + o.length / 2 + b.length / 2 - g0
    offs = np.linspace(0.2, 0.45, 5) * span
    pts = (
        b.centre[None, None, :]
        + sign * ts[:, None, None] * u[None, None, :]
        + np.concatenate([offs, -offs])[None, :, None] * nrm[None, None, :]
    )
    vals = _sample(v, pts).astype(np.float32)  # along the gap x across
    ref = float(np.percentile(vals, 90))
    dark = vals < 0.7 * ref
    # a seam: somewhere in the gap the face is dark on both sides, most of the way out
    dark_both = (dark[:, :5].mean(axis=1) >= 0.6) & (dark[:, 5:].mean(axis=1) >= 0.6)
    return bool(dark_both.any())

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

DETECT_SIDE = 1280
MIN_BAR_PX = 14
MAX_BARS = 60
RATIO_BINS = ((0.84, 1.0), (0.74, 0.84), (0.62, 0.74), (0.45, 0.62))  # bar length / tile width


@dataclass
class Bar:
    centre: np.ndarray  # (x, y)
    direction: np.ndarray  # unit vector along the bar
    length: float
    thickness: float
    darkness: float


@dataclass
class Candidate:
    """A tile outline: corners (4x2, detection pixels), first two on the end of half A."""

    corners: np.ndarray
    bar: Bar
    edge_score: float
    width: float
    length: float
    group: int = -1


def _unit(v):
    n = float(np.hypot(v[0], v[1]))
    return v / n if n > 0 else v


def _components(mask: np.ndarray, rel: np.ndarray):
    """Shape summary of every connected component of ``mask``."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, bw, bhh, area = stats[i]
        if area < 6 or max(bw, bhh) < 4:
            continue
        ys, xs = np.nonzero(labels[y : y + bhh, x : x + bw] == i)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        mean = pts.mean(axis=0)
        cov = np.cov((pts - mean).T) if len(pts) > 2 else np.eye(2)
        evals, evecs = np.linalg.eigh(cov)
        major = evecs[:, 1]
        proj = (pts - mean) @ major
        perp = (pts - mean) @ evecs[:, 0]
        length = float(proj.max() - proj.min() + 1)
        thick = float(min(max(1.0, 4 * np.sqrt(max(evals[0], 1e-6))), perp.max() - perp.min() + 1))
        dark = float(rel[ys + y, xs + x].mean())
        centre = mean + major * (proj.max() + proj.min()) / 2
        out.append((centre, _unit(major), length, thick, int(area), dark))
    return out


def dark_mask(rgb: np.ndarray):
    """Pixels clearly darker than their surroundings (black-hat on the brightest channel, so
    coloured pips stay light and only dark marks remain)."""
    h, w = rgb.shape[:2]
    v = rgb.max(axis=2)
    k = max(9, int(round(max(h, w) / 70)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.morphologyEx(v, cv2.MORPH_CLOSE, kernel)
    bh = closed.astype(np.int16) - v.astype(np.int16)
    rel = bh.astype(np.float32) / np.maximum(closed.astype(np.float32), 40.0)
    mask = ((rel > 0.33) & (bh > 35)).astype(np.uint8)
    return mask, rel


def find_bars(rgb: np.ndarray) -> list[Bar]:
    """Dark thin straight marks that could be the bar of a tile (or a piece of one)."""
    mask, rel = dark_mask(rgb)
    comps = _components(mask, rel)
    # dark round blobs are pips: their size tells how thick a mark can be and still be a bar
    diam = [
        2 * np.sqrt(a / np.pi)
        for (_, _, L, T, a, _) in comps
        if L < 1.6 * T and a >= 12 and a > 0.55 * L * T
    ]
    found = [c for c in comps]
    if len(diam) >= 4:
        d = float(np.median(diam))
        r = max(2, int(round(0.65 * d)))
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r))
        # pips often have a highlight in the middle (pale pips look like rings): fill holes
        # up to the size of a pip before looking for blobs
        n, lab, st, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
        small = np.zeros(n, bool)
        small[1:] = st[1:, cv2.CC_STAT_AREA] < 0.8 * d * d
        filled = mask | small[lab].astype(np.uint8)
        blobs = cv2.morphologyEx(filled, cv2.MORPH_OPEN, disk)
        blobs = cv2.dilate(blobs, np.ones((3, 3), np.uint8))
        thin = mask & (1 - blobs)
        found += _components(thin, rel)
    raw = []
    for centre, u, length, thick, area, dark in found:
        if length < MIN_BAR_PX * 0.4 or length / thick < 3.0:
            continue
        fill = area / (length * thick)
        if fill < 0.45:
            continue
        raw.append(Bar(centre, u, length, thick, dark))
    v = rgb.max(axis=2)
    raw = _dedupe([_extend(b, rel, v) for b in raw])
    bars = [b for b in raw if b.length >= MIN_BAR_PX and b.length / b.thickness >= 5.0]
    bars += _joined(raw)
    bars = _dedupe(bars)
    # a photo of a hand has a few dozen bars at most; keep the darkest, longest marks
    bars.sort(key=lambda b: -(b.darkness * min(b.length / b.thickness, 10.0)))
    return bars[:MAX_BARS]


def _extend(bar: Bar, rel: np.ndarray, v: np.ndarray) -> Bar:
    """Follow the bar beyond the ends found, while it stays somewhat darker than its
    surroundings and has the bright face on both sides (a highlight on a glossy bar can make
    the first threshold stop short)."""
    h, w = rel.shape
    u = bar.direction
    nrm = np.array([-u[1], u[0]])
    half_t = max(1.0, bar.thickness / 2)
    offs = np.linspace(-half_t, half_t, 5)
    flank = half_t + max(2.0, bar.thickness)

    def sample(img, pts):
        xs = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
        return img[ys, xs].astype(np.float32)

    along = bar.centre[None, :] + np.outer(np.linspace(-0.4, 0.4, 9) * bar.length, u)
    face_v = float(
        np.median(np.concatenate([sample(v, along + flank * nrm), sample(v, along - flank * nrm)]))
    )
    ends = []
    steps = np.arange(1.0, bar.length * 0.6 + 1.0)
    for sign in (-1.0, 1.0):
        pos = bar.length / 2 + steps
        p = bar.centre[None, :] + sign * np.outer(pos, u)
        inside = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
        pts = p[:, None, :] + offs[None, :, None] * nrm[None, None, :]
        xs = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
        beside = np.minimum(sample(v, p + flank * nrm), sample(v, p - flank * nrm))
        dark = (rel[ys, xs].max(axis=1) > 0.18) & inside & (beside >= 0.75 * face_v)
        # stop at the first gap of three steps (or at the frame)
        last = bar.length / 2
        gap = 0
        for k in range(len(pos)):
            if not inside[k]:
                break
            if dark[k]:
                last = float(pos[k])
                gap = 0
            else:
                gap += 1
                if gap > 2:
                    break
        ends.append(sign * last)
    lo, hi = ends[0], ends[1]
    if hi - lo <= bar.length + 1:
        return bar
    return Bar(bar.centre + u * (lo + hi) / 2, u, float(hi - lo), bar.thickness, bar.darkness)


def _dedupe(bars: list[Bar]) -> list[Bar]:
    out: list[Bar] = []
    for b in sorted(bars, key=lambda b: -b.length):
        same = False
        for o in out:
            if (
                abs(float(np.dot(b.direction, o.direction))) > 0.98
                and np.linalg.norm(b.centre - o.centre) < 0.1 * o.length + 1.5
                and abs(b.length - o.length) < 0.1 * o.length + 2
            ):
                same = True
                break
        if not same:
            out.append(b)
    return out


def _joined(bars: list[Bar]) -> list[Bar]:
    """Extra hypotheses: two collinear pieces of one bar (split by a spinner pin or glare)."""
    out = []
    for i, b in enumerate(bars):
        nb = np.array([-b.direction[1], b.direction[0]])
        for o in bars[i + 1 :]:
            if abs(float(np.dot(b.direction, o.direction))) < 0.98:
                continue
            d = o.centre - b.centre
            if abs(float(np.dot(d, nb))) > max(2.0, 0.7 * max(b.thickness, o.thickness)):
                continue
            along = float(np.dot(d, b.direction))
            gap = abs(along) - b.length / 2 - o.length / 2
            if gap < -2 or gap > 0.8 * max(b.length, o.length):
                continue
            if min(b.length, o.length) < 0.5 * max(b.length, o.length):
                continue
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


def fit_tile(rgb: np.ndarray, bar: Bar) -> Candidate | None:
    """The best-fitting tile rectangle around ``bar``, or None."""
    fits = fit_tiles(rgb, bar, 1)
    return fits[0] if fits else None


def fit_tiles(rgb: np.ndarray, bar: Bar, k: int = 1) -> list[Candidate]:
    """Fit up to ``k`` tile rectangles (different sizes) around ``bar``, best first.

    The face colour is taken beside the bar; the four sides are placed where the colour
    changes away from the face colour going outwards, consistently along the side (median
    over the side, so pips and texture do not count).
    """
    u = bar.direction
    nvec = np.array([-u[1], u[0]])
    lb = bar.length
    a_lo, a_hi = 0.5 * lb / 0.97, 0.5 * lb / 0.45  # half-width: the bar covers 45..97 %
    S = min(1.0, 100.0 / a_hi)  # patch pixels per image pixel
    pw = int(np.ceil(2 * a_hi * 1.15 * S)) + 8
    ph = int(np.ceil(4 * a_hi * 1.12 * S)) + 8
    cx, cy = pw / 2, ph / 2
    A = np.array(
        [
            [u[0] / S, nvec[0] / S, bar.centre[0] - (cx * u[0] + cy * nvec[0]) / S],
            [u[1] / S, nvec[1] / S, bar.centre[1] - (cx * u[1] + cy * nvec[1]) / S],
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
        return []
    face = np.median(sample, axis=0)
    if face[0] < 90:  # faces are white or ivory; this is something dark
        return []
    wts = np.array([1.0, 1.6, 1.6], np.float32)
    D = np.sqrt((((lab - face) * wts) ** 2).sum(axis=2))
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

    def peak(name, pos, sign):
        i0 = int(round(pos)) - tol
        vals, idx = tables[name, sign]
        if i0 < 0 or i0 >= len(vals):
            return -1.0, pos
        return float(vals[i0]), float(i0 + idx[i0])

    fits = []
    for a in np.arange(a_lo * S, a_hi * S, max(0.5, 0.012 * a_lo * S)):
        l_s, xl = peak("x", cx - a, -1)
        r_s, xr = peak("x", cx + a, 1)
        if min(l_s, r_s) <= 0:
            continue
        for asp in (1.88, 1.94, 2.0, 2.06, 2.12):
            b = a * asp
            t_s, yt = peak("y", cy - b, -1)
            b_s, yb = peak("y", cy + b, 1)
            if min(t_s, b_s) <= 0:
                continue
            score = min(l_s, r_s) + min(t_s, b_s) + 0.25 * (l_s + r_s + t_s + b_s)
            fits.append((score, xl, xr, yt, yb, min(l_s, r_s, t_s, b_s)))
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
    if k > 1:
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
    M = np.vstack([A, [0, 0, 1]])
    out = []
    for _score, xl, xr, yt, yb, weakest in picked:
        corners_p = np.array([[xl, yt], [xr, yt], [xr, yb], [xl, yb]], np.float64)
        pts = np.column_stack([corners_p, np.ones(4)]) @ M.T
        out.append(Candidate(pts[:, :2], bar, weakest / base, (xr - xl) / S, (yb - yt) / S))
    return out


def find_candidates(rgb: np.ndarray, per_bar: int = 1) -> list[Candidate]:
    """Tile outlines around every bar candidate: the ``per_bar`` best-fitting sizes each
    (``Candidate.group`` tells which bar they came from)."""
    out = []
    for g, bar in enumerate(find_bars(rgb)):
        for c in fit_tiles(rgb, bar, per_bar):
            c.group = g
            out.append(c)
    return out

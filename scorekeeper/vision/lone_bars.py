"""Bars no tile read covers, signs of a tile the reader did not read: a bar of a tile's
length outside every tile read (with a pip near it: two marks of one tile), and a bar-shaped
mark inside a blown-out glare. ``Look.try_bars`` lays outlines on them. A stage of the photo
reader (``judge``, ``look``); needs the photo extra."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision import bars
from scorekeeper.vision.checks import _grow, _spread
from scorekeeper.vision.missed import BAR_LONG, BAR_SHORT, once_per_image


def _stray_bars(found: list[bars.Bar], quads: list[np.ndarray]) -> int:
    """How many bars ``bars_outside`` finds (all of ``found`` when no tile was read)."""
    return len(bars_outside(found, quads)) if quads else len(found)


def bars_outside(
    found: list[bars.Bar], quads: list[np.ndarray], pips: list | None = None
) -> list[bars.Bar]:
    """Bars (``found``, all the bars the bar finder kept, in the pixels of ``quads``) of the
    length of a tile's bar that lie outside every tile read (``quads``, at least one): the
    bar of a tile that was not read. A bar is BAR_SHORT to BAR_LONG of its tile's width long
    (the longer dark marks beside tiles on a light surface are their sides and shadows, a
    tile's length long); the tiles read may differ in size under a tilt (``_spread``). With
    ``pips`` (stray pips' centres): only the bars with one within a tile's width, two marks
    of one tile."""
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in quads]
    width, spread = float(np.median(widths)), _spread(widths)
    lo, hi = width / spread, width * spread
    grown = [np.float32(_grow(q, 1.15)) for q in quads]
    out = []
    for b in found:
        if not BAR_SHORT * lo <= b.length <= BAR_LONG * hi:
            continue
        centre = (float(b.centre[0]), float(b.centre[1]))
        if any(cv2.pointPolygonTest(q, centre, False) >= 0 for q in grown):
            continue
        if pips is not None and not any(np.hypot(*np.subtract(centre, p)) <= width for p in pips):
            continue
        out.append(b)
    return out


# A lamp's glare can wash out a tile's face whole: the bar finder looks for marks darker than
# their surroundings in each pixel's brightest channel, and under glare that is white on the
# bar too (seed 127's mix-004: a teal bar, read by nothing, a sure 41 for 46). In the darkest
# channel the bar still shows, a thin straight mark a tile's bar long with the blown-out glare
# on both sides of it. A weave or a pattern under glare shows its threads there too, but the
# glare between them is speckled, not whole.
GLARE_AREA = 0.3  # a blown-out area at least this large (x the tiles' width squared)
GLARE_MARK = 0.08, 15  # a mark this much darker than its surroundings (part of them, levels)
GLARE_SIDES = 0.75  # ... with this much of each side of it blown out


def glare_bars_at(small: np.ndarray, quads: list[np.ndarray]) -> list[bars.Bar]:
    """The marks shaped like a tile's bar (BAR_SHORT to BAR_LONG of the tiles' width long,
    five times as long as thick) that lie in a blown-out glare outside every tile read
    (``quads``, pixels of ``small``), with the glare on both sides of them (pixels of
    ``small``)."""
    if not quads:
        return []
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in quads]
    W, spread = float(np.median(widths)), _spread(widths)
    # (the same image is asked up to four times a look, with other tiles read)
    blown = once_per_image(small, "blown", lambda im: bars.darkest(im) >= 250)
    if blown.sum() < GLARE_AREA * W * W:  # the usual case
        return []
    h, w = small.shape[:2]
    region = blown.astype(np.uint8)
    k = max(3, int(0.15 * W)) | 1  # (the bar and the pips left out of the glare filled in)
    region = cv2.morphologyEx(
        region, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    for q in quads:
        cv2.fillConvexPoly(region, np.round(_grow(q, 1.12)).astype(np.int32), 0)
    n, labels, st, _ = cv2.connectedComponentsWithStats(region, connectivity=8)
    found: list[bars.Bar] = []
    for i in np.nonzero(st[1:, cv2.CC_STAT_AREA] >= GLARE_AREA * W * W)[0] + 1:
        x, y, bw, bh = st[i, :4]
        m = int(0.3 * W)
        x0, y0, x1, y1 = max(0, x - m), max(0, y - m), min(w, x + bw + m), min(h, y + bh + m)
        inside = cv2.dilate((labels[y0:y1, x0:x1] == i).astype(np.uint8), np.ones((3, 3)))
        marks = _bars_in(small[y0:y1, x0:x1], inside > 0, blown[y0:y1, x0:x1], W, spread)
        for b in marks:
            b.centre = b.centre + (x0, y0)
        found += marks
    return found


def _bars_in(
    roi: np.ndarray, inside: np.ndarray, blown: np.ndarray, W: float, spread: float
) -> list[bars.Bar]:
    """The bar-shaped dark marks (darkest channel) of ``roi`` that lie ``inside`` with
    ``blown`` out pixels on both sides of them (GLARE_SIDES; pixels of ``roi``)."""
    dark = bars.darkest(roi)
    k = max(9, int(0.3 * W)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.morphologyEx(dark, cv2.MORPH_CLOSE, kernel)
    depth = closed.astype(np.int16) - dark.astype(np.int16)
    rel = depth.astype(np.float32) / np.maximum(closed.astype(np.float32), 40.0)
    mask = ((rel > GLARE_MARK[0]) & (depth > GLARE_MARK[1]) & inside).astype(np.uint8)
    comps = bars._components(mask, rel)
    length, thick, area = comps["length"], comps["thickness"], comps["area"]
    lo, hi = BAR_SHORT * W / spread, BAR_LONG * W * spread
    shaped = (
        (length >= lo) & (length <= hi) & (length >= 5 * thick) & (area >= 0.4 * length * thick)
    )
    h, w = roi.shape[:2]
    # sides sampled along the mark (9 points) at 3 distances from it
    along = np.repeat(np.linspace(-0.4, 0.4, 9), 3)[:, None]
    away = np.tile([0.08, 0.12, 0.16], 9)[:, None] * W
    out: list[bars.Bar] = []
    for j in np.nonzero(shaped)[0]:
        c, u = comps["centre"][j], comps["direction"][j]
        nrm = np.array([-u[1], u[0]])
        sides = []
        for sign in (-1.0, 1.0):
            pts = c + along * length[j] * u + sign * (thick[j] / 2 + away) * nrm
            pts = np.clip(np.round(pts).astype(int), 0, [w - 1, h - 1])
            sides.append(float(blown[pts[:, 1], pts[:, 0]].mean()))
        if min(sides) >= GLARE_SIDES:
            dark_j = float(comps["darkness"][j])
            out.append(
                bars.Bar(np.asarray(c, float), np.asarray(u, float), length[j], thick[j], dark_j)
            )
    return out

"""Finding more tiles than the first look's bars led to: a closer look at small tiles, the
touching neighbours of a tile read, fainter bars, and tiles found as objects (the tile
finder's outlines and bright faces) without their bar. A stage of the photo reader
(``reader.py``); needs the photo extra.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np

from scorekeeper.vision import bars, detect, faces, tilenet
from scorekeeper.vision.checks import _grow

SMALL_TILE_PX = 48  # tiles narrower than this (detection pixels) get a closer look
CLOSER_LOOK_SIDE = 2560  # ... at twice the detection size, at most this long side
CLOSER_LOOK_BEFORE = 0.35  # ... if at most this part of the time budget is used
CLOSER_LOOK_UNTIL = 0.7  # ... and it stops at this part of the budget
MAX_CANDIDATES = 240
HYPOTHESES = 3  # outline sizes tried per bar
FACE_SIZE = 2.0  # a tile found as a face beside tiles read: its width within this x theirs
FINDER_SIZE = 3.0  # ... the tile finder's outlines (a near tile under a steep tilt is wider)


def _closer_look(
    rgb: np.ndarray, s: float, cands: list, deadline: bars.Deadline
) -> list[detect.Candidate]:
    """Small tiles (a long row, a small photo): when the outlines found are narrower than
    SMALL_TILE_PX detection pixels, look again at twice the detection size (the photo's own
    pixels, or the photo enlarged when it is small), within what is left of the time
    budget. Returns the extra candidates, corners in pixels of ``rgb``."""
    widths = sorted((c.width for c in cands), reverse=True)[:40]
    if widths and float(np.median(widths)) >= SMALL_TILE_PX:
        return []
    budget = deadline.seconds
    if budget is not None and deadline.used() > CLOSER_LOOK_BEFORE * budget:
        return []
    h, w = rgb.shape[:2]
    s2 = min(2 * s, CLOSER_LOOK_SIDE / max(h, w))
    if s2 <= 1.2 * s:
        return []
    big = cv2.resize(
        rgb,
        (round(w * s2), round(h * s2)),
        interpolation=cv2.INTER_AREA if s2 < 1 else cv2.INTER_CUBIC,
    )
    # its own, shorter budget: running out here keeps what the first look found
    inner = bars.Deadline(None if budget is None else budget * CLOSER_LOOK_UNTIL)
    inner.start = deadline.start
    try:
        # small tiles: no slanted outlines (a steep tilt is told by its large, near tiles)
        extra = detect.find_candidates(big, per_bar=HYPOTHESES, deadline=inner, slants=False)
    except bars.OutOfTime:
        return []
    for c in extra:
        c.corners = c.corners / s2
        c.group += 100_000
    return extra


NEIGHBOUR_ROUNDS = 3  # a row is followed this many tiles beyond the tiles read
NEIGHBOUR_FROM = 0.8  # ... from tiles read at least this sure
NEIGHBOUR_BAR = 0.8  # ... where a bar darker than the face (brightest channel) lies


def _neighbours(
    small: np.ndarray,
    s: float,
    cands: list,
    fresh: list[int],
    kept: list[int],
    is_tile: np.ndarray,
    counts: np.ndarray,
    shifts: bool = True,
    deadline: bars.Deadline | None = None,
) -> list[detect.Candidate]:
    """Outlines fitted where a tile touching a sure tile read (``fresh``) would have its bar:
    beside it (one width along its bar) and end to end (one length across it), when that
    place is not covered by a tile read, is inside the photo and has a dark line along the
    bar. Corners in pixels of the photo read (``small`` is it at ``s``)."""
    h, w = small.shape[:2]
    v = bars.brightest(small)
    covered = [np.float32(_grow(cands[j].corners * s, 0.9)) for j in kept]
    group = max((c.group for c in cands), default=0) + 1
    out: list[detect.Candidate] = []
    for i in fresh:
        if deadline is not None:
            deadline.check()  # (each tile's neighbours take up to 0.01 s: a row of 30, 0.3 s)
        conf = float(is_tile[i] * counts[i].max(axis=1).prod())
        if conf < NEIGHBOUR_FROM:
            continue
        q = cands[i].corners * s
        wv, lv = q[1] - q[0], q[3] - q[0]
        W, L = float(np.linalg.norm(wv)), float(np.linalg.norm(lv))
        if W < 8:
            continue
        u = wv / W
        nrm = np.array([-u[1], u[0]])
        centre = q.mean(axis=0)
        bar_len = min(cands[i].bar.length, W)
        # (worked out only for a place with a dark line along the bar: most have none)
        least = functools.cache(functools.partial(_face_like, v, centre, u, nrm, W))
        for shift in (wv, -wv, lv, -lv):
            c = centre + shift
            if not (0.5 * W <= c[0] < w - 0.5 * W and 0.5 * W <= c[1] < h - 0.5 * W):
                continue
            if any(
                cv2.pointPolygonTest(cq, (float(c[0]), float(c[1])), False) >= 0 for cq in covered
            ):
                continue
            centres = _bar_centres(v, c, u, nrm, W, shifts, least)
            for cc in centres:
                bar = bars.Bar(cc, u, bar_len, cands[i].bar.thickness, cands[i].bar.darkness)
                for cand in detect.fit_tiles(small, bar, HYPOTHESES, slants=False):
                    if not _alike(cand.corners, W, L):
                        continue
                    cand.corners = cand.corners / s
                    cand.group = group
                    cand.neighbour = True
                    out.append(cand)
                group += 1
    return out


NEIGHBOUR_SIZE = 1.3  # a neighbour's outline: width and length within this factor of the tile's


def _alike(q: np.ndarray, W: float, L: float) -> bool:
    """Whether the outline ``q`` is the size of a tile ``W`` wide and ``L`` long, within
    NEIGHBOUR_SIZE: the tiles of one set touching in a row are the same size (the other
    sizes fitted around a neighbour's bar are its neighbours' edges, never read as it)."""
    w, length = float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))
    return max(w / W, W / max(w, 1e-6), length / L, L / max(length, 1e-6)) <= NEIGHBOUR_SIZE


def _beside(v: np.ndarray, c: np.ndarray, u: np.ndarray, nrm: np.ndarray, W: float) -> np.ndarray:
    """The brightness (``v``: the photo's brightest channel) a quarter of a width off a bar
    through ``c`` along ``u``, on either side: on a tile, its two halves' faces and pips."""
    t = np.linspace(-0.3, 0.3, 9)[:, None] * W * u
    off = 0.25 * W * nrm
    beside = np.concatenate([bars._sample(v, c + t + off), bars._sample(v, c + t - off)])
    return beside.astype(np.float32)


def _face_like(v: np.ndarray, c: np.ndarray, u: np.ndarray, nrm: np.ndarray, W: float) -> float:
    """The least brightness beside a neighbour's bar that may be the face of a tile like
    the one whose bar runs through ``c`` (NEIGHBOUR_FACE_LIKE of its own)."""
    return NEIGHBOUR_FACE_LIKE * float(np.percentile(_beside(v, c, u, nrm, W), FACE_LIKE_PCT))


def _bar_centres(
    v: np.ndarray,
    c: np.ndarray,
    u: np.ndarray,
    nrm: np.ndarray,
    W: float,
    shifts: bool,
    least: Callable[[], float] = float,
) -> list[np.ndarray]:
    """Where to centre the outlines of a neighbour whose bar would run through ``c`` along
    ``u`` (``v``: the photo's brightest channel): none when no dark line runs there, or
    when what lies beside the line is darker than ``least()`` (not the face of a tile of the
    set: a speckled table's dark flecks run in lines too)."""
    # a dark line along the bar (within a tenth of a width of where it would be: the
    # tiles of a row are not quite in line), lighter face beside it
    t = np.linspace(-0.3, 0.3, 9)[:, None, None] * W * u
    band = np.linspace(-0.1, 0.1, 9)[None, :, None] * W * nrm
    grid = bars._sample(v, c + t + band).astype(np.float32)  # along x across
    c = c + band[0, int(np.argmin(np.median(grid, axis=0)))]  # centred on the line
    on = grid.min(axis=1)
    beside = _beside(v, c, u, nrm, W)
    # the face beside the bar: its brighter samples (a half packed with pips, a 10 or
    # a 12, has pips at a quarter width from the bar at most of the places looked at)
    face = float(np.percentile(beside, NEIGHBOUR_FACE_PCT))
    if np.median(on) > NEIGHBOUR_BAR * face or np.percentile(beside, FACE_LIKE_PCT) < least():
        return []
    # where the bar itself lies along its line: the tiles of a chain are not in
    # line, and an outline is fitted centred on its bar
    centres = [c]
    mid = _bar_middle(v, c, u, nrm, W, NEIGHBOUR_BAR * face)
    if mid is not None and abs(mid) > NEIGHBOUR_RECENTRE * W:
        centres.append(c + mid * u)
    # ... or, when its bar runs on into a neighbour's, a little to either side
    if shifts:
        centres += [c + f * W * u for f in NEIGHBOUR_SHIFTS]
    return centres


NEIGHBOUR_FACE_PCT = 80  # the face colour beside a bar looked for: this percentile of samples
# what lies beside it, brightest but for a speck (FACE_LIKE_PCT), at least NEIGHBOUR_FACE_LIKE
# of the tile's own: beside 1,192 places off the tiles read in 14 sets of renders and the
# real photos 482 were darker (a speckled table beside a spread of cream tiles: 0.55-0.70),
# beside 575 on them none (0.73 the least: the 80th percentile there, a 12's pips, 0.18)
FACE_LIKE_PCT = 95
NEIGHBOUR_FACE_LIKE = 0.7
NEIGHBOUR_RECENTRE = 0.05  # a bar found this far (x width) off the expected place: also there
NEIGHBOUR_SHIFTS = (-0.1, 0.1)  # other places tried for its middle (x width)
NEIGHBOUR_SPAN = np.linspace(-0.75, 0.75, 31)  # where the bar is looked for along its line (x W)


def _bar_middle(
    v: np.ndarray, c: np.ndarray, u: np.ndarray, nrm: np.ndarray, W: float, dark: float
) -> float | None:
    """The middle of the dark bar running through ``c`` along ``u`` (its offset from ``c``
    in pixels), or None when no run of a bar's length (0.35 to 1.05 widths, gaps of a
    spinner pin closed) lies there."""
    pts = (
        c
        + NEIGHBOUR_SPAN[:, None, None] * W * u
        + np.array([-0.03, 0, 0.03])[None, :, None] * W * nrm
    )
    is_dark = bars._sample(v, pts).min(axis=1) < dark
    # close gaps up to three steps (a spinner pin, a highlight)
    idx = np.flatnonzero(is_dark)
    if len(idx) == 0:
        return None
    runs = np.split(idx, np.flatnonzero(np.diff(idx) > 4) + 1)
    mid = len(NEIGHBOUR_SPAN) // 2
    run = min(
        runs, key=lambda r: 0 if r[0] <= mid <= r[-1] else min(abs(r[0] - mid), abs(r[-1] - mid))
    )
    if min(abs(run[0] - mid), abs(run[-1] - mid)) > 3 and not run[0] <= mid <= run[-1]:
        return None
    step = float(NEIGHBOUR_SPAN[1] - NEIGHBOUR_SPAN[0])
    length = (run[-1] - run[0] + 1) * step
    if not 0.35 <= length <= 1.05:
        return None
    return float((NEIGHBOUR_SPAN[run[0]] + NEIGHBOUR_SPAN[run[-1]]) / 2) * W


FAINT_NEAR_BEFORE = 0.5  # the looks for fainter bars: only within this part of the budget
FAINT_NEAR_REACH = 1.5  # ... near stray pips: within this many tile widths of them
FAINT_SIDE = 640  # ... over the whole of a blurred photo: at this size (long side)


def _faint_search(
    small: np.ndarray,
    s: float,
    cands: list,
    kept: list[int],
    box: tuple[int, int, int, int],
    deadline: bars.Deadline,
) -> list[detect.Candidate]:
    """Outlines around the bars, fainter ones included (``bars.dark_mask(faint=True)``),
    in the part ``box`` (x0, y0, x1, y1) of ``small``, read at most FAINT_SIDE long, that
    no tile read covers. Corners in pixels of the photo read; bars in pixels of ``small``."""
    h, w = small.shape[:2]
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
    if x1 - x0 < 16 or y1 - y0 < 16:
        return []
    crop = np.ascontiguousarray(small[y0:y1, x0:x1])
    f = min(1.0, FAINT_SIDE / max(crop.shape[:2]))
    if f < 1:
        size = (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f)))
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    found = detect.find_candidates(crop, per_bar=HYPOTHESES, deadline=deadline, faint=True)
    # (a tile read as a face, without its bar, may have its bar here)
    covered = [np.float32(_grow(cands[j].corners * s, 1.1)) for j in kept if not cands[j].face]
    group = max((c.group for c in cands if c.group < faces.FACE_GROUP), default=0) + 1
    moved: dict[int, bars.Bar] = {}
    out = []
    off = np.array([x0, y0], np.float64)
    for c in found:
        b = c.bar
        centre = b.centre / f + off
        if any(
            cv2.pointPolygonTest(q, (float(centre[0]), float(centre[1])), False) >= 0
            for q in covered
        ):
            continue
        if id(b) not in moved:
            moved[id(b)] = bars.Bar(centre, b.direction, b.length / f, b.thickness / f, b.darkness)
        c.bar = moved[id(b)]
        c.corners = (c.corners / f + off) / s
        c.width, c.length = c.width / f, c.length / f
        c.group = group + c.group
        out.append(c)
    return out


def _faint_boxes(
    small: np.ndarray, s: float, cands: list, kept: list[int], missing: dict, blurred: bool
) -> list[tuple[int, int, int, int]]:
    """Where to look for fainter bars: around the pips no tile read explains (a tile whose
    bar is washed out or blurred away, its pips still seen), and over the whole of a blurred
    photo (the pips of a blurred tile can be too pale to be seen as pips)."""
    h, w = small.shape[:2]
    if blurred:
        return [(0, 0, w, h)]
    if not missing["stray"] or not missing["stray_at"]:
        return []
    W = s * float(
        np.median([np.linalg.norm(cands[j].corners[1] - cands[j].corners[0]) for j in kept])
    )
    pts = np.array(missing["stray_at"])
    r = FAINT_NEAR_REACH * W
    x0, y0 = np.floor(pts.min(axis=0) - r).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0) + r).astype(int)
    return [(int(x0), int(y0), int(x1), int(y1))]


def _faces(
    small: np.ndarray,
    s: float,
    skip: list[np.ndarray],
    finder: tilenet.Finder,
    first: int = faces.FACE_GROUP,
    parted: bool = False,
) -> list[detect.Candidate]:
    """The tiles of ``small`` found as objects, without their bar (the tile finder's outlines,
    ``tilenet.find_tiles``, and the bright faces, ``faces.find_faces``; bars in its pixels,
    corners in pixels of the photo read at ``1 / s``) whose middle lies in no outline of
    ``skip`` (pixels of the photo read); the outlines of one tile share a group. ``parted``:
    see ``find_faces``."""
    grown = [_grow(q * s, 1.1) for q in skip]
    # the tile finder's outlines (tilenet), and each bright face's outline (one threshold
    # for the whole photo) as another outline of the tile it lies on, if any: the counter
    # keeps the one it reads best
    out = finder.tiles(grown)
    groups = [c.group for c in out]
    polys = [np.float32(c.corners) for c in out]
    alone = max(groups, default=-1) + 1
    for c in faces.find_faces(small, grown, parted):
        mid = (float(c.corners[:, 0].mean()), float(c.corners[:, 1].mean()))
        on = [k for k, p in enumerate(polys) if cv2.pointPolygonTest(p, mid, False) >= 0]
        out.append(c)
        groups.append(groups[on[0]] if on else alone)
        alone += 0 if on else 1
    if skip:
        # beside tiles read, a face is about their size (a light strip of the table split
        # into "tiles" a third of theirs is not one)
        W = float(np.median([np.linalg.norm(q[1] - q[0]) for q in skip])) * s
        keep = [W / (k := FINDER_SIZE if c.finder else FACE_SIZE) <= c.width <= k * W for c in out]
        groups = [g for g, k in zip(groups, keep, strict=True) if k]
        out = [c for c, k in zip(out, keep, strict=True) if k]
    for k, c in enumerate(out):
        c.corners = c.corners / s
        c.group = first + groups[k]
    return out

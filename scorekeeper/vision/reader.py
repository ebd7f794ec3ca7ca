"""The photo reader: find tiles, count each half, judge how sure the reading is.

Needs the photo extra (numpy, OpenCV, ONNX Runtime, Pillow). Imported lazily by
:func:`scorekeeper.vision.read_hand`.
"""

from __future__ import annotations

import contextlib
import copy
import time
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.rules import Tile
from scorekeeper.rules.words import lazy
from scorekeeper.vision import bars, detect, tilenet
from scorekeeper.vision.checks import (
    CUT_MARGIN,
    STRAY_PIPS,
    _blur_sigma,
    _busy_surface,
    _face_at_frame,
    _frame_hides_no_pip,
    _glare_fraction,
    _glare_patch,
    _grow,
    _poly_overlap,
    _stray_bars,
    _stray_pips,
    _touching,
    _unexplained,
    _unread_outlines,
)
from scorekeeper.vision.halves import HALF_PX, NOT_A_HALF, CropSource, half_quads, normalise
from scorekeeper.vision.images import open_upright
from scorekeeper.vision.onnx import Model
from scorekeeper.vision.reading import SURE_TILE, Reading, TileReading

cv2.setNumThreads(1)  # one core per photo: the server reads photos of several tables at once

MODEL_PATH = Path(__file__).resolve().parent / "models" / "halves.onnx"
# halves are cut from a copy this size (long side; a 12-megapixel JPEG decodes to 2016 px at
# 1/2 scale, so it is not resized again); detection uses 1280
CROP_SIDE = 2048
TIME_BUDGET = 0.9  # CPU seconds per photo, decoding included (checked between steps)
SMALL_TILE_PX = 48  # tiles narrower than this (detection pixels) get a closer look
CLOSER_LOOK_SIDE = 2560  # ... at twice the detection size, at most this long side
CLOSER_LOOK_BEFORE = 0.35  # ... if at most this part of the time budget is used
CLOSER_LOOK_UNTIL = 0.7  # ... and it stops at this part of the budget
SHORT_CUT_GAP = 0.25  # ... or this close, when it is shorter than a tile can look
MAX_CANDIDATES = 240
HYPOTHESES = 3  # outline sizes tried per bar
MODEL_MAX_PIP = 12

# A reading is confident when no BLOCKING problem was found and every tile's confidence is at
# least SURE_TILE (reading.py: the round page's "sure" colour uses the same number). Fitted
# on the real development photos by tools/calibrate_vision.py (see its leave-one-group-out
# report in docs/photo-check.md).
ACCEPT_TILE = 0.5  # below this "is a tile" probability an outline is dropped
BLUR_LIMIT = 0.018  # estimated edge blur (sigma) as a fraction of the tile width
GLARE_LIMIT = 0.04  # fraction of a tile's face covered by a blown-out highlight
# tiles read that differ this much in size (largest width / smallest): a steep camera tilt,
# under which the checks for a missed tile (sized to the tiles read) cannot be trusted
TILTED_SPREAD = 1.5

# What a player is told (``lazy``: translated each time it is shown).
PROBLEM_NO_TILES = lazy(
    "No domino tiles were found. Take the photo from straight above, with the tiles face up."
)
PROBLEM_BLUR = lazy(
    "The photo is blurry. Hold the phone still and let it focus before taking the photo."
)
PROBLEM_GLARE = lazy("Glare or reflections hide some pips. Move away from direct light or lamps.")
PROBLEM_CUT = lazy(
    "A tile is cut off at the edge of the photo. Step back so every tile is in the picture."
)
PROBLEM_TOUCHING = lazy(
    "Some tiles are touching. Spread them apart a little so each tile stands alone."
)
PROBLEM_UNSURE = lazy(
    "Some pips could not be counted for sure. Please count the marked tiles by hand."
)
PROBLEM_UNREADABLE = lazy(
    "Something that looks like a tile could not be read (it may be tilted, covered or blurred)."
)
PROBLEM_SURFACE = lazy(
    "The surface is about the same colour as the tiles, so the reader cannot be sure it found "
    "every tile. A darker, plain surface works best."
)
PROBLEM_SMALL = lazy(
    "The tiles are very small in the photo. Hold the phone closer (about 40 cm above the tiles)."
)
PROBLEM_TILTED = lazy(
    "The photo was taken at a steep angle, so a tile may have been missed. Hold the phone "
    "flat, straight above the tiles."
)
PROBLEM_TOO_SLOW = lazy(
    "Could not read this photo: the background is too busy to find the tiles in time. "
    "Lay the tiles on a plain surface and take the photo again from straight above."
)

# What the reader checks, in the order problems are listed. BLOCKING ones make a reading
# not confident whatever the tile confidences (see tools/calibrate_vision.py).
FLAGS = (
    "no_tiles",
    "blur",
    "glare",
    "cut",
    "small",
    "touching",
    "tilted",
    "missed",
    "similar_surface",
)
BLOCKING = ("no_tiles", "glare", "cut", "small", "tilted", "missed", "similar_surface")
PROBLEM_TEXT = {
    "no_tiles": PROBLEM_NO_TILES,
    "blur": PROBLEM_BLUR,
    "glare": PROBLEM_GLARE,
    "cut": PROBLEM_CUT,
    "small": PROBLEM_SMALL,
    "touching": PROBLEM_TOUCHING,
    "tilted": PROBLEM_TILTED,
    "missed": PROBLEM_UNREADABLE,
    "similar_surface": PROBLEM_SURFACE,
}

# Which capture tips (CAPTURE_ADVICE, by position) fit each problem. "Lay the tiles on a plain
# surface" (1) only when the surface is the tiles' colour, or busy and tiles may be missing.
ADVICE_FOR = {
    "no_tiles": (0,),
    "blur": (4,),
    "glare": (3,),
    "cut": (0,),
    "small": (),  # its problem says what to do: hold the phone closer
    "touching": (2,),
    "tilted": (),  # its problem says what to do: hold the phone flat above the tiles
    "missed": (0,),
    "similar_surface": (1,),
    "unsure": (0, 3, 4),
    "busy": (1,),
}


def capture_advice(flags: dict[str, bool], confident: bool) -> list[str]:
    """The capture tips that fit what went wrong (none for a confident reading)."""
    from scorekeeper.vision import CAPTURE_ADVICE

    if confident:
        return []
    picked = sorted({i for f, tips in ADVICE_FOR.items() if flags.get(f) for i in tips})
    return [CAPTURE_ADVICE[i] for i in picked]


_model = Model(MODEL_PATH)


def _get_session():
    return _model.session()


# halves counted per run of the model: 256 at a time held 75 MB more at the peak (the
# activations of a batch), and took the training mix of 100 photos to 400 MB; 64 at a time
# holds a few MB and is no slower
COUNT_BATCH = 64


def classify_halves(crops: np.ndarray) -> np.ndarray:
    """uint8 N x 40 x 40 x 3 half crops -> N x 14 class probabilities (0..12 pips, not a half)."""
    if len(crops) == 0:
        return np.zeros((0, NOT_A_HALF + 1), np.float32)
    sess = _get_session()
    x = normalise(crops)
    logits = np.concatenate(
        [
            sess.run(None, {"input": x[k : k + COUNT_BATCH]})[0]
            for k in range(0, len(x), COUNT_BATCH)
        ]
    )
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


INK_PLAIN = 0.004  # a half with less dark "ink" than this (fraction of its face) is plain
BLANK_EDGE = 1.0  # outline edge strength (x the photo's typical) a double blank needs
BLANK_EDGE_ONE_CLEAR = 0.6  # ... when the counter already calls one of its halves a half


def ink_fraction(crops: np.ndarray) -> np.ndarray:
    """Fraction of each half crop's face (inside the margin, above the bar) that is clearly
    darker than the face: pips, or anything else drawn on it. A blank half has none."""
    if len(crops) == 0:
        return np.zeros(0)
    n = HALF_PX
    a, b = int(round(0.13 * n)), int(round(0.87 * n))
    inner = crops[:, a:b, a:b].max(axis=3).astype(np.float32)
    face = np.percentile(inner.reshape(len(crops), -1), 75, axis=1)[:, None, None]
    dark = inner < 0.55 * np.maximum(face, 30.0)
    return dark.reshape(len(crops), -1).mean(axis=1)


def tile_evidence(
    probs: np.ndarray, ink: np.ndarray, edge: np.ndarray, max_pip: int
) -> tuple[np.ndarray, np.ndarray]:
    """How tile-like each outline is (N), and the pip-count probabilities of its halves
    (N x 2 x max_pip+1).

    The half counter's "not a half" class cannot tell a blank (or 1-pip) half from plain
    surface on its own: a near-empty square looks like both. So a half that reads 0 or 1 is
    judged with the rest of the tile: when the other half is clearly a half, the outline sits
    on a bar in the middle of a tile and the near-empty half is a half (its "not a half"
    weight goes to its count). A double blank has no half to lean on: it needs both halves
    plain (no ink at all) and a clean outline around its bar.
    """
    if len(probs) == 0:
        return np.zeros(0), np.zeros((0, 2, max_pip + 1))
    q = 1 - probs[:, :, NOT_A_HALF]
    raw = probs[:, :, : max_pip + 1]
    counts = raw / np.maximum(raw.sum(axis=2, keepdims=True), 1e-9)
    v = counts.argmax(axis=2)
    clear = q >= ACCEPT_TILE
    low = v <= 1
    plain = ink < INK_PLAIN
    # a 0 must really be plain; a 1 has one pip of ink
    low_ok = low & ((v == 1) | plain)
    # the other half is clearly a half with pips (a clear 0 next to a plain half is judged as
    # a double blank: plain surface beside a dark line can look like that too)
    other_clear = (clear & (v >= 1))[:, ::-1]
    both_plain = (v == 0).all(axis=1) & plain.all(axis=1)
    double_blank = both_plain & (
        (edge >= BLANK_EDGE) | (clear.any(axis=1) & (edge >= BLANK_EDGE_ONE_CLEAR))
    )
    lean = low_ok & (other_clear | double_blank[:, None])
    # where the rest of the tile says "this is a half", its "not a half" weight goes to the
    # low count it reads
    nh = probs[:, :, NOT_A_HALF]
    bonus = np.zeros_like(raw)
    n_idx, h_idx = np.nonzero(lean)
    bonus[n_idx, h_idx, v[n_idx, h_idx]] = nh[n_idx, h_idx]
    raw = raw + bonus
    counts = raw / np.maximum(raw.sum(axis=2, keepdims=True), 1e-9)
    h = np.where(lean, 1.0, q)
    return h.min(axis=1), counts


def _count_halves(
    rgb: np.ndarray, cands: list, deadline: bars.Deadline
) -> tuple[np.ndarray, np.ndarray]:
    """Half-counter probabilities (N x 2 x classes) and ink (N x 2) of every outline, in two
    rounds: first the best-fitting outline of each bar; the other sizes only for bars that
    look like a tile there (a half, or a plain face that may be a double blank). On a busy
    surface most bars are texture and the second round is small."""
    n = len(cands)
    probs = np.zeros((n, 2, NOT_A_HALF + 1), np.float32)
    probs[:, :, NOT_A_HALF] = 1.0  # outlines not looked at are not halves
    ink = np.ones((n, 2))
    src = CropSource(rgb)

    def run(idx: list[int]) -> None:
        if not idx:
            return
        crops = np.stack([src.crop(q) for i in idx for q in half_quads(cands[i].corners)])
        probs[idx] = classify_halves(crops).reshape(-1, 2, NOT_A_HALF + 1)
        ink[idx] = ink_fraction(crops).reshape(-1, 2)

    first: dict[int, int] = {}
    for i, c in enumerate(cands):
        first.setdefault(c.group, i)
    run(sorted(first.values()))
    deadline.check()
    promising = {
        c.group
        for i, c in enumerate(cands)
        if i == first[c.group]
        and ((1 - probs[i, :, NOT_A_HALF]).max() >= 0.2 or (ink[i] < INK_PLAIN).all())
    }
    run([i for i, c in enumerate(cands) if c.group in promising and i != first[c.group]])
    deadline.check()
    return probs, ink


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


UNDEREXPOSED = 200  # brightest part of a photo (99.5th percentile) below this: too dark
EXPOSE_TO = 230  # ... it is brightened so that part reaches this
MAX_GAIN = 3.0


def expose(rgb: np.ndarray) -> np.ndarray:
    """A photo taken in dim light, brightened: the white or ivory faces should be the
    brightest thing in it, and the tile finder and the counter expect them bright. A photo
    whose brightest part is already at UNDEREXPOSED or above is returned as it is."""
    ref = float(np.percentile(bars.brightest(rgb[::4, ::4]), 99.5))
    if ref >= UNDEREXPOSED or ref <= 0:
        return rgb
    return cv2.convertScaleAbs(rgb, alpha=min(MAX_GAIN, EXPOSE_TO / ref))


def _unreadable(full_size: tuple[int, int], seconds: float) -> Reading:
    from scorekeeper.vision import CAPTURE_ADVICE

    return Reading(
        advice=list(CAPTURE_ADVICE),
        tiles=[],
        total=0,
        confident=False,
        problems=[PROBLEM_TOO_SLOW],
        width=full_size[0],
        height=full_size[1],
        seconds=seconds,
        unreadable=True,
    )


# Tile size first (issue 27: "normalise each photo to a standard tile size before any
# search"). The bar finder and the outline fitter are tuned for tiles some 30-120 px wide at
# the detection size; a close-up of the last few tiles has them far larger. So the photo is
# first read at FIRST_SIDE (a tenth of the work of a full look): when that reading is
# confident with no problem at all and its tiles are at least LARGE_TILE_PX wide in
# detection pixels, it is the reading. Otherwise the full look follows; if it is not
# confident and found no tile, or only large ones, the reading at FIRST_SIDE (or, time
# allowing, FARTHER_SIDE) wins when it finds more tiles, or as many and is confident.
FIRST_SIDE = 640
FARTHER_SIDE = 400
LARGE_TILE_PX = 110
FARTHER_BEFORE = 0.8  # the last look only if at most this part of the time budget is used
FAINT_BEFORE = 0.85  # the look for faint bars (no tile found; 640 px) within this part of it
FACES_BEFORE = 0.75  # the look for faces (no bar found at all) within this part of it
FACE_LOOK_BEFORE = 0.85  # the face look of a full look (the tile finder: 0.02 s) within this
# a reading not sure: the look at the tile finder's outlines alone, within this part of the
# budget; it wins with more tiles, or as many with its least sure tile this much surer
NET_LOOK_BEFORE = 0.7
FINDER_SURER = 0.2


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


SKEWED = 0.3  # a tile's own four corners this far (x its width) from its rectangle's
SKEWED_SPREAD = 1.3  # ... looked at when the tiles read differ this much in width (real photos
# from above: up to 1.33 with corners up to 0.37 off, never both)


def _skewed(finder: tilenet.Finder, quads: list[np.ndarray]) -> bool:
    """Whether the tile finder's own four corners of a tile lying on one of ``quads`` (pixels
    of the image ``finder`` looks at) are SKEWED or more off its rectangle (``tilenet``: a
    tile 60 px wide or more gets both outlines where they differ)."""
    by: dict[int, list] = {}
    for c in finder.tiles():
        by.setdefault(c.group, []).append(c)
    polys = [np.float32(q) for q in quads]
    for rect, *others in by.values():
        mid = (float(rect.corners[:, 0].mean()), float(rect.corners[:, 1].mean()))
        if not any(cv2.pointPolygonTest(p, mid, False) >= 0 for p in polys):
            continue
        for o in others:
            if float(np.abs(o.corners - rect.corners).max()) > SKEWED * rect.width:
                return True
    return False


def _sureness(reading: Reading) -> list[float]:
    """How sure the half counter was of each tile's two halves (before a tile found as a
    face has its confidence lowered: comparable between a look with bars and one without)."""
    return [a * b for a, b in (t.half_confidences for t in reading.tiles)]


def _finder_wins(finder: Reading, bars_: Reading) -> bool:
    """The look at the tile finder's outlines alone replaces the reading made from bars
    when it found more tiles, or as many and read its least sure tile surer by FINDER_SURER
    with no less sure a tile on average (a tile at a steep angle whose bar's outlines
    misread a half that its face's outline reads)."""
    if len(finder.tiles) != len(bars_.tiles):
        return len(finder.tiles) > len(bars_.tiles)
    a, b = _sureness(finder), _sureness(bars_)
    return bool(a) and min(a) >= min(b) + FINDER_SURER and sum(a) >= sum(b)


def _widths(reading: Reading, scale: float) -> list[float]:
    """Widths of the tiles read, in pixels of the image read at ``scale``."""
    return [
        float(np.linalg.norm(np.subtract(t.corners[1], t.corners[0]))) / scale
        for t in reading.tiles
    ]


def read_rgb(
    rgb: np.ndarray,
    max_pip: int = 12,
    scale: float = 1.0,
    full_size: tuple[int, int] | None = None,
    debug: dict | None = None,
    deadline: bars.Deadline | None = None,
) -> Reading:
    """Read an upright RGB image (H x W x 3 uint8). ``scale`` maps its pixels to the pixels
    of the full-size photo, where the corners are reported. Raises
    :class:`bars.OutOfTime` when ``deadline`` passes."""
    deadline = deadline or bars.Deadline(None)
    rgb = expose(rgb)
    h, w = rgb.shape[:2]
    full_size = full_size or (round(w * scale), round(h * scale))
    s = min(1.0, detect.DETECT_SIDE / max(h, w))

    # what each look saw (debug): the debug output is that of the reading returned
    seen: dict[int, dict] = {}

    def look(side: int, faint: bool = False) -> Reading | None:
        f = side / max(h, w)
        if f >= 0.8 * s:
            return None
        dbg = None if debug is None else {}
        smaller = cv2.resize(rgb, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        r = _read_once(
            smaller, max_pip, scale / f, full_size, dbg, deadline, thorough=False, faint=faint
        )
        if dbg is not None:
            seen[id(r)] = dbg
        return r

    def done(r: Reading) -> Reading:
        if debug is not None and id(r) in seen:
            debug.clear()
            debug.update(seen[id(r)])
        return r

    def large(r: Reading) -> bool:
        widths = _widths(r, scale)
        return bool(widths) and min(widths) * s > LARGE_TILE_PX

    first = look(FIRST_SIDE)
    # the smaller look stands alone only when nothing at all is wrong with it: at that size
    # the checks for missed tiles see less (two tiles touching can hide a third)
    if first is not None and first.confident and not first.problems and large(first):
        return done(first)
    reading = _read_once(rgb, max_pip, scale, full_size, debug, deadline)
    budget = deadline.seconds
    # no tile found: a blurred photo spreads a thin bar's darkness over its sides; the bars
    # are looked for again among marks only somewhat darker than the face
    # (at FIRST_SIDE: a tenth of the work of a full look)
    if not reading.tiles and (budget is None or deadline.used() < FAINT_BEFORE * budget):
        with contextlib.suppress(bars.OutOfTime):
            fainter = look(FIRST_SIDE, faint=True)
            if fainter is not None and fainter.tiles:
                reading = fainter
    # still nothing: a photo so blurred that no bar is left; the tiles are looked for as
    # bright faces (never a confident reading)
    if not reading.tiles and (budget is None or deadline.used() < FACES_BEFORE * budget):
        with contextlib.suppress(bars.OutOfTime):
            dbg = None if debug is None else {}
            faced = _read_once(rgb, max_pip, scale, full_size, dbg, deadline, faces_only=True)
            if faced.tiles:
                reading = faced
                if dbg is not None:
                    seen[id(reading)] = dbg
    # not sure: the tiles found as objects (the tile finder's outlines, no bar needed) may
    # be more than the bars led to; that reading wins when it has more tiles
    if (
        not reading.confident
        and reading.tiles
        and (budget is None or deadline.used() < NET_LOOK_BEFORE * budget)
    ):
        with contextlib.suppress(bars.OutOfTime):
            dbg = None if debug is None else {}
            faced = _read_once(rgb, max_pip, scale, full_size, dbg, deadline, faces_only=True)
            if _finder_wins(faced, reading):
                # what the look with bars saw wrong with the photo still holds (a tile cut
                # off, a tile-like mark not read): its problems and advice are kept too
                faced.problems += [p for p in reading.problems if p not in faced.problems]
                faced.advice += [a for a in reading.advice if a not in faced.advice]
                reading = faced
                if dbg is not None:
                    seen[id(reading)] = dbg
    if reading.confident or (reading.tiles and not large(reading)):
        return done(reading)
    others = [first]
    if not (first and first.confident) and (
        budget is None or deadline.used() < FARTHER_BEFORE * budget
    ):
        with contextlib.suppress(bars.OutOfTime):
            others.append(look(FARTHER_SIDE))
    # a smaller look wins when it finds more tiles, or as many and is confident; never with
    # fewer tiles than the full look found
    for other in others:
        if other is not None and (len(other.tiles), other.confident) > (
            len(reading.tiles),
            reading.confident,
        ):
            reading = other
    return done(reading)


def _keep(cands: list, is_tile: np.ndarray, counts: np.ndarray) -> tuple[list[int], int]:
    """The outlines kept as tiles: the best of each bar, then the best wherever outlines of
    bars overlap; and how many tile-like outlines the counter rejected, on their own."""
    quality = is_tile * counts.max(axis=2).prod(axis=1) if len(is_tile) else np.zeros(0)
    # an outline fitted around a bar before the outline of a face found without one; and a
    # face without its bar must show pips: a blank face with no bar seen is no tile the
    # reader can vouch for (a double blank has its bar), but maybe one it missed
    face = np.array([c.face for c in cands], bool)[: len(quality)]
    blank = (counts.argmax(axis=2) == 0).all(axis=1) if len(quality) else np.zeros(0, bool)
    is_tile = np.where(face & blank, np.minimum(is_tile, FACE_BLANK), is_tile)
    quality = np.where(face, FACE_TRUST * np.where(blank, 0.0, quality), quality)
    order = np.argsort(-quality, kind="stable")
    kept: list[int] = []
    groups_done: set[int] = set()
    rejected_strong = 0
    for i in order:
        ci = cands[i].corners
        if cands[i].group in groups_done:
            continue
        if is_tile[i] < ACCEPT_TILE:
            if is_tile[i] > 0.25 and all(_poly_overlap(ci, cands[j].corners) < 0.2 for j in kept):
                rejected_strong += 1
            groups_done.add(cands[i].group)
            continue
        if any(_poly_overlap(ci, cands[j].corners) > 0.25 for j in kept):
            continue
        kept.append(int(i))
        groups_done.add(cands[i].group)
    return kept, rejected_strong


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
        conf = float(is_tile[i] * counts[i].max(axis=1).prod())
        if conf < NEIGHBOUR_FROM:
            continue
        q = cands[i].corners * s
        wv, lv = q[1] - q[0], q[3] - q[0]
        W = float(np.linalg.norm(wv))
        if W < 8:
            continue
        u = wv / W
        nrm = np.array([-u[1], u[0]])
        centre = q.mean(axis=0)
        bar_len = min(cands[i].bar.length, W)
        for shift in (wv, -wv, lv, -lv):
            c = centre + shift
            if not (0.5 * W <= c[0] < w - 0.5 * W and 0.5 * W <= c[1] < h - 0.5 * W):
                continue
            if any(
                cv2.pointPolygonTest(cq, (float(c[0]), float(c[1])), False) >= 0 for cq in covered
            ):
                continue
            # a dark line along the bar (within a tenth of a width of where it would be: the
            # tiles of a row are not quite in line), lighter face beside it
            t = np.linspace(-0.3, 0.3, 9)[:, None, None] * W * u
            band = np.linspace(-0.1, 0.1, 9)[None, :, None] * W * nrm
            grid = bars._sample(v, c + t + band).astype(np.float32)  # along x across
            c = c + band[0, int(np.argmin(np.median(grid, axis=0)))]  # centred on the line
            on = grid.min(axis=1)
            off = 0.25 * W * nrm
            beside = np.concatenate(
                [bars._sample(v, c + t[:, 0] + off), bars._sample(v, c + t[:, 0] - off)]
            ).astype(np.float32)
            # the face beside the bar: its brighter samples (a half packed with pips, a 10 or
            # a 12, has pips at a quarter width from the bar at most of the places looked at)
            face = float(np.percentile(beside, NEIGHBOUR_FACE_PCT))
            if np.median(on) > NEIGHBOUR_BAR * face:
                continue
            # where the bar itself lies along its line: the tiles of a chain are not in
            # line, and an outline is fitted centred on its bar
            centres = [c]
            mid = _bar_middle(v, c, u, nrm, W, NEIGHBOUR_BAR * face)
            if mid is not None and abs(mid) > NEIGHBOUR_RECENTRE * W:
                centres.append(c + mid * u)
            # ... or, when its bar runs on into a neighbour's, a little to either side
            if shifts:
                centres += [c + f * W * u for f in NEIGHBOUR_SHIFTS]
            for cc in centres:
                bar = bars.Bar(cc, u, bar_len, cands[i].bar.thickness, cands[i].bar.darkness)
                for cand in detect.fit_tiles(small, bar, HYPOTHESES, slants=False):
                    cand.corners = cand.corners / s
                    cand.group = group
                    cand.neighbour = True
                    out.append(cand)
                group += 1
    return out


NEIGHBOUR_FACE_PCT = 80  # the face colour beside a bar looked for: this percentile of samples
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


def _missing(
    small: np.ndarray,
    s: float,
    cands: list,
    kept: list[int],
    edge: np.ndarray,
    is_tile,
    found: list[bars.Bar] | None = None,
) -> dict:
    """What the tiles read do not explain: tile-coloured patches (inside the frame, at its
    edge, or the whole surface like the tiles), bars with an unread tile outline, and dark or
    coloured pips outside every tile (inside the frame, near its edge; counted only from
    STRAY_PIPS on). ``small`` is the photo read at ``s``; ``found``, the bars found in it
    (for ``stray_bars``: bars of a tile's size outside every tile read; None when not
    known)."""
    kept_quads = [cands[i].corners * s for i in kept]  # pixels of small
    # look for what was not read at half the detection size (the areas are tile-sized)
    half = cv2.resize(
        small, (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)), cv2.INTER_AREA
    )
    missed, cut_missed, similar = _unexplained(half, [q / 2 for q in kept_quads])
    stray_at: list[tuple[float, float]] = []
    stray, stray_edge = _stray_pips(small, kept_quads, stray_at)
    return {
        "stray_at": stray_at,  # where they lie (pixels of small)
        "missed": missed,
        "cut_missed": cut_missed,
        "similar": similar,
        "unread": _unread_outlines(cands, kept, edge, is_tile),
        "stray": stray if stray >= STRAY_PIPS else 0,
        "stray_edge": stray_edge if stray_edge >= STRAY_PIPS else 0,
        "stray_pips": stray + stray_edge,  # every one, even a single pip
        "stray_bars": None if found is None else _stray_bars(found, kept_quads),
        "bars_found": None if found is None else len(found),
    }


def _surface_ruled_out(missing: dict, rejected_strong: int) -> bool:
    """On a surface of the tiles' own colour no tile-coloured patch can show a missed tile
    (``similar``), but every tile still has its dark bar, and most have pips: a missed tile
    can be ruled out when the photo has no mark of one at all: no bar of a tile's size
    outside every tile read, not one pip there, no unread outline. Not when the bar finder
    kept as many marks as it keeps (bars.MAX_BARS: a busy photo, more may have been left)."""
    n_bars, stray_bars = missing.get("bars_found"), missing.get("stray_bars")
    if n_bars is None or stray_bars is None or n_bars >= bars.MAX_BARS:
        return False
    return not (
        stray_bars
        or missing["stray_pips"]
        or missing["unread"]
        or missing["missed"]
        or missing["cut_missed"]
        or rejected_strong
    )


SHORT_BARS = 8  # unread bars given short outlines (the most bar-like first)
SHORT_SURE = 0.8  # ... in a photo not seen tilted, a tile read from one must be this sure


def _looks_tilted(cands: list, kept: list[int]) -> bool:
    """Whether the tiles read differ TILTED_SPREAD or more in width (a steep camera tilt)."""
    widths = [float(np.linalg.norm(cands[j].corners[1] - cands[j].corners[0])) for j in kept]
    return len(widths) >= 2 and max(widths) >= TILTED_SPREAD * min(widths)


# ... also in a photo not seen to be tilted, when the reading shows a tile may be missing
SHORT_WHEN = ("missed", "unread", "stray")


def _short_outlines(
    small: np.ndarray,
    s: float,
    cands: list,
    kept: list[int],
    unfitted: dict[int, bars.Bar] | None = None,
    missing: bool = False,
) -> list[detect.Candidate]:
    """Short outlines (``detect.fit_short_tiles``) around the most bar-like marks of the main
    look that no tile read covers, when the photo looks steeply tilted: the tiles read differ
    TILTED_SPREAD or more in width. (Not whenever a tile-like bar is left unread: in a flat
    photo of a touching chain, the outline around a bar split by a spinner pin was then read
    from a short outline instead of being reported as unread; a bar longer than the tiles
    read, a nearer tile, did not help either.)"""
    quads = [np.float32(_grow(cands[j].corners * s, 1.1)) for j in kept]
    if not (_looks_tilted(cands, kept) or (missing and kept)):
        return []
    kept_groups = {cands[j].group for j in kept}
    bars_left: dict[int, bars.Bar] = {}
    unread = [(c.group, c.bar) for c in cands if not c.short and c.group < 100_000]
    # (the closer look's bars are in its own pixels)
    for g, bar in unread + sorted((unfitted or {}).items(), key=lambda gb: gb[0]):
        if g in kept_groups or g in bars_left:
            continue
        centre = (float(bar.centre[0]), float(bar.centre[1]))
        if any(cv2.pointPolygonTest(q, centre, False) >= 0 for q in quads):
            continue
        bars_left[g] = bar
    out: list[detect.Candidate] = []
    for g in sorted(bars_left)[:SHORT_BARS]:
        # and the outline of the face-coloured area around the bar (a trapezoid)
        blob = detect.fit_blob(small, bars_left[g])
        for cand in detect.fit_short_tiles(small, bars_left[g], 2) + ([blob] if blob else []):
            cand.short = True
            cand.corners = cand.corners / s
            cand.group = 200_000 + g
            out.append(cand)
    return out


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
    group = max((c.group for c in cands if c.group < detect.FACE_GROUP), default=0) + 1
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


FACE_BELOW = 0.8  # a tile read less sure than this in a tilted photo: its face's outline too


def _less_sure(
    cands: list, kept: list[int], is_tile, counts, below: float, face_trust: float = 1.0
) -> list[int]:
    """The tiles of ``kept`` read less sure than ``below`` (a tile found as a face counted
    ``face_trust`` as sure), but for the closer look's tiles (under SMALL_TILE_PX wide): their
    bars are in its own pixels, and more outlines were not measured on tiles so small."""
    return [
        i
        for i in kept
        if not 100_000 <= cands[i].group < 200_000
        and float(is_tile[i] * counts[i].max(axis=1).prod())
        * (face_trust if cands[i].face else 1.0)
        < below
    ]


def _face_outlines(
    small: np.ndarray,
    s: float,
    cands: list,
    kept: list[int],
    is_tile,
    counts,
    finder: tilenet.Finder,
) -> list[detect.Candidate]:
    """In a photo that looks steeply tilted, the outline of the face-coloured area around
    the bar (``detect.fit_blob``: a trapezoid fits) of every tile read less sure than
    FACE_BELOW, and the tile finder's outlines lying on it, as other outlines of the same bar
    (the counter keeps the outline it reads best). A tile read from one is a tile read from
    a short outline: the reading says the angle is steep."""
    if not _looks_tilted(cands, kept):
        return []
    out: list[detect.Candidate] = []
    found: list[detect.Candidate] | None = None
    for i in _less_sure(cands, kept, is_tile, counts, FACE_BELOW):
        c = cands[i]
        blob = detect.fit_blob(small, c.bar)
        more = [] if blob is None else [blob]
        # ... and the tile finder's outlines lying on it (its own four corners fit a
        # trapezoid too)
        if not c.face:
            if found is None:
                found = finder.tiles()
            mine = np.float32(_grow(c.corners * s, 1.1))
            more += [
                t
                for t in found
                if cv2.pointPolygonTest(
                    mine, (float(t.corners[:, 0].mean()), float(t.corners[:, 1].mean())), False
                )
                >= 0
            ]
        for o in more:
            o = copy.copy(o)
            o.short, o.face, o.group = True, False, c.group
            o.corners = o.corners / s
            out.append(o)
    return out


def _snapped(
    rgb: np.ndarray,
    s: float,
    cands: list,
    kept: list[int],
    is_tile,
    counts,
    finder: tilenet.Finder,
) -> list[detect.Candidate]:
    """For every tile read not sure (SURE_TILE; amber): its outline, and the tile finder's
    outlines whose middle lies within SNAP_NEAR of a width from its middle, snapped to the
    face's edges (``detect.snap_to_face``, pixels of ``rgb``), as other outlines of the same
    tile (its group; a face tile's stay face outlines). The finder's outlines go in as they
    are too. Marked ``snapped``: a tile read from one is not sure."""
    unsure = _less_sure(cands, kept, is_tile, counts, SURE_TILE, FACE_TRUST)
    found = finder.tiles() if unsure else []
    out: list[detect.Candidate] = []
    for i in unsure:
        c = cands[i]
        mid = c.corners.mean(axis=0)
        W = float(np.linalg.norm(c.corners[1] - c.corners[0]))
        near = [
            t.corners / s
            for t in found
            if float(np.linalg.norm(t.corners.mean(axis=0) / s - mid)) < SNAP_NEAR * W
        ]
        snaps = [detect.snap_to_face(rgb, q) for q in [c.corners, *near]]
        for corners in [q for q in snaps if q is not None] + near:
            o = copy.copy(c)
            o.corners = corners
            o.short = o.neighbour = o.finder = False
            o.snapped = True
            out.append(o)
    return out


SNAP_BEFORE = 0.85  # the snapped outlines of a full look only within this part of the budget
SNAP_NEAR = 0.6  # the tile finder's outlines this near a tile (x its width) are its own
SNAP_SURE = 0.8  # a snapped outline counts only when read at least this sure (before FACE_TRUST)
FACE_TRUST = 0.5  # a tile found as a face, its bar not found: its confidence times this
FACE_SIZE = 2.0  # ... beside tiles read, its width within this factor of theirs
FINDER_SIZE = 3.0  # ... the tile finder's outlines (a near tile under a steep tilt is wider)
FACE_BLANK = 0.4  # ... read blank: not a tile, but a tile-like outline the counter rejected
SHARPEN_SIGMA = 0.06  # tiles found as faces are read on a copy sharpened at this x their width
SHARPEN_AMOUNT = 1.5  # ... by this much (unsharp mask)


def _faces(
    small: np.ndarray,
    s: float,
    skip: list[np.ndarray],
    finder: tilenet.Finder,
    first: int = detect.FACE_GROUP,
) -> list[detect.Candidate]:
    """The tiles of ``small`` found as objects, without their bar (the tile finder's outlines,
    ``tilenet.find_tiles``, and the bright faces, ``detect.find_faces``; bars in its pixels,
    corners in pixels of the photo read at ``1 / s``) whose middle lies in no outline of
    ``skip`` (pixels of the photo read); the outlines of one tile share a group."""
    grown = [_grow(q * s, 1.1) for q in skip]
    # the tile finder's outlines (tilenet), and each bright face's outline (one threshold
    # for the whole photo) as another outline of the tile it lies on, if any: the counter
    # keeps the one it reads best
    out = finder.tiles(grown)
    groups = [c.group for c in out]
    polys = [np.float32(c.corners) for c in out]
    alone = max(groups, default=-1) + 1
    for c in detect.find_faces(small, grown):
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


def _sharpened(rgb: np.ndarray, cands: list) -> np.ndarray:
    """``rgb`` sharpened for reading the faces ``cands`` (unsharp mask, SHARPEN_SIGMA of
    their typical width): the pips of a blurred photo come back enough to be counted."""
    widths = [float(np.linalg.norm(c.corners[1] - c.corners[0])) for c in cands]
    sigma = SHARPEN_SIGMA * float(np.median(widths)) if widths else 0.0
    if sigma < 0.5:
        return rgb
    h, w = rgb.shape[:2]
    # the blur on a copy at most 2 pixels of sigma across (the same, at a fraction of the
    # time), all in 8 bits (a full-size photo in floats would take 36 MB a copy)
    f = min(1.0, 2.0 / sigma)
    soft = cv2.resize(
        rgb, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA
    )
    soft = cv2.resize(
        cv2.GaussianBlur(soft, (0, 0), sigma * f), (w, h), interpolation=cv2.INTER_LINEAR
    )
    return cv2.addWeighted(rgb, 1.0 + SHARPEN_AMOUNT, soft, -SHARPEN_AMOUNT, 0.0)


def _with_more(
    rgb: np.ndarray,
    cands: list,
    extra: list,
    probs: np.ndarray,
    ink: np.ndarray,
    max_pip: int,
    deadline: bars.Deadline,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``extra`` outlines counted and added to ``cands`` (in place): every candidate's half
    counts, ink, edge scores and tile evidence, again (``probs``, ``ink``, ``edge``,
    ``is_tile``, ``counts``)."""
    p2, ink2 = _count_halves(rgb, extra, deadline)
    cands += extra
    probs = np.concatenate([probs, p2])
    ink = np.concatenate([ink, ink2])
    edge = np.array([c.edge_score for c in cands])
    is_tile, counts = tile_evidence(probs, ink, edge, max_pip)
    return probs, ink, edge, is_tile, counts


def _read_once(
    rgb: np.ndarray,
    max_pip: int,
    scale: float,
    full_size: tuple[int, int],
    debug: dict | None,
    deadline: bars.Deadline,
    thorough: bool = True,
    faint: bool = False,
    faces_only: bool = False,
) -> Reading:
    """One look at ``rgb`` (see read_rgb). Not ``thorough`` (the smaller looks, which stand
    alone only when nothing at all is wrong): a touching neighbour is looked for only where
    it would lie in line, and short outlines only in a photo that looks tilted. ``faces_only``:
    the outlines are the bright faces of the photo (``detect.find_faces``), not fitted
    around bars: a photo so blurred that no bar was found."""
    t0 = time.perf_counter()
    h, w = rgb.shape[:2]
    s = min(1.0, detect.DETECT_SIDE / max(h, w))
    small = (
        cv2.resize(rgb, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        if s < 1
        else rgb
    )
    unfitted: dict[int, bars.Bar] = {}
    found: list[bars.Bar] = []
    finder = tilenet.Finder(small)
    if faces_only:
        cands = _faces(small, s, [], finder)
    else:
        cands = detect.find_candidates(
            small,
            per_bar=HYPOTHESES,
            deadline=deadline,
            unfitted=unfitted,
            faint=faint,
            found=found,
        )
        for c in cands:
            c.corners = c.corners / s  # from here on: pixels of rgb
        cands.sort(key=lambda c: -c.edge_score)
        cands = cands[:MAX_CANDIDATES]
        # a closer look adds its own best outlines (edge scores of two sizes do not compare)
        closer = _closer_look(rgb, s, cands, deadline)
        closer.sort(key=lambda c: -c.edge_score)
        cands += closer[: MAX_CANDIDATES // 2]
    deadline.check()
    probs, ink = _count_halves(_sharpened(rgb, cands) if faces_only else rgb, cands, deadline)
    edge = np.array([c.edge_score for c in cands])
    is_tile, counts = tile_evidence(probs, ink, edge, max_pip)
    kept, rejected_strong = _keep(cands, is_tile, counts)
    deadline.check()
    # tiles touching in a row or a chain: the bars of the middle ones often run into one dark
    # shape with the seams and are never found; the neighbours of each tile read are looked
    # for where they would lie (one tile width along its bar, one length across it)
    fresh = list(kept)
    for _round in range(NEIGHBOUR_ROUNDS):
        extra = _neighbours(small, s, cands, fresh, kept, is_tile, counts, thorough)
        if not extra:
            break
        before = set(kept)
        probs, ink, edge, is_tile, counts = _with_more(
            rgb, cands, extra, probs, ink, max_pip, deadline
        )
        kept, rejected_strong = _keep(cands, is_tile, counts)
        fresh = [i for i in kept if i not in before]
        deadline.check()
        if not fresh:
            break
    # a steep tilt: tiles near the camera look shorter than any outline tried so far; the
    # bars left unread get short outlines too (a tile read from one makes the
    # reading "steep angle", never confident)
    missing = _missing(small, s, cands, kept, edge, is_tile, found)

    def kept_again(kept: list[int], missing: dict) -> tuple[list[int], int, dict]:
        """After more outlines were read (``_with_more``): the tiles kept now, and what may be
        missing worked out again when they changed."""
        now, strong = _keep(cands, is_tile, counts)
        if now != kept:
            missing = _missing(small, s, cands, now, edge, is_tile, found)
        deadline.check()
        return now, strong, missing

    # a tile whose bar was too faint to be found (a blurred far tile under a steep tilt, a
    # tile under glare): its bar is looked for among fainter marks around the pips no tile
    # read explains, and over the whole of a blurred photo (see _faint_boxes)
    budget = deadline.seconds
    blurred = False
    if thorough and kept and not faces_only:
        gray_small = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
        blurred = any(
            _blur_sigma(gray_small, cands[j].corners * s)
            / max(float(np.linalg.norm(cands[j].corners[1] - cands[j].corners[0])) * s, 1.0)
            > BLUR_LIMIT
            for j in kept
        )
    # a tile whose bar was not found (blurred away, hidden by glare or a spinner pin among
    # its pips) is still a bright face where no tile was read (read on a sharpened copy when
    # the photo is blurred); cheap, so looked for within most of the budget. (Before the
    # fainter bars, which pass over tiles read as faces: an outline around a bar is kept
    # before a face's, see _keep.)
    if (
        thorough
        and kept
        and not faces_only
        and (budget is None or deadline.used() < FACE_LOOK_BEFORE * budget)
    ):
        more = _faces(small, s, [cands[j].corners for j in kept], finder)
        if more:
            probs, ink, edge, is_tile, counts = _with_more(
                _sharpened(rgb, more) if blurred else rgb,
                cands,
                more,
                probs,
                ink,
                max_pip,
                deadline,
            )
            kept, rejected_strong, missing = kept_again(kept, missing)
    faint_ok = budget is None or deadline.used() < FAINT_NEAR_BEFORE * budget
    if thorough and kept and faint_ok and not faces_only:
        extra = [
            c
            for box in _faint_boxes(small, s, cands, kept, missing, blurred)
            for c in _faint_search(small, s, cands, kept, box, deadline)
        ]
        if extra:
            probs, ink, edge, is_tile, counts = _with_more(
                rgb, cands, extra, probs, ink, max_pip, deadline
            )
            kept, rejected_strong, missing = kept_again(kept, missing)
    short = _short_outlines(
        small,
        s,
        cands,
        kept,
        unfitted,
        thorough and bool(rejected_strong or any(missing[k] for k in SHORT_WHEN)),
    )
    if short:
        probs, ink, edge, is_tile, counts = _with_more(
            rgb, cands, short, probs, ink, max_pip, deadline
        )
        if not _looks_tilted(cands, kept):
            # tried only because a tile may be missing: a tile read from a short outline must
            # be sure (around a bar split by a spinner pin in a flat row, a short outline can
            # read the piece as a tile of its own)
            conf = is_tile * counts.max(axis=2).prod(axis=1)
            unsure = np.array([c.short for c in cands]) & (conf < SHORT_SURE)
            is_tile = np.where(unsure, 0.0, is_tile)
        kept, rejected_strong, missing = kept_again(kept, missing)

    # a steep tilt: a tile read but not sure, from an outline that does not fit it (a near
    # tile is a trapezoid), gets the outline of its face too; the counter picks
    faces = _face_outlines(small, s, cands, kept, is_tile, counts, finder) if thorough else []
    if faces:
        probs, ink, edge, is_tile, counts = _with_more(
            rgb, cands, faces, probs, ink, max_pip, deadline
        )
        kept, rejected_strong, missing = kept_again(kept, missing)
    # a tile read but not sure (at any angle): its outline, and the tile finder's outlines
    # lying on it, with their sides moved onto the face's edges; the counter picks, and a
    # tile read from one is not sure (amber: the player checks it)
    if thorough and kept and (budget is None or deadline.used() < SNAP_BEFORE * budget):
        snapped = _snapped(rgb, s, cands, kept, is_tile, counts, finder)
        if snapped:
            probs, ink, edge, is_tile, counts = _with_more(
                rgb, cands, snapped, probs, ink, max_pip, deadline
            )
            # ... only when it reads the tile clearly: between two outlines read about as
            # unsure, the counter's choice is a coin toss
            conf = is_tile * counts.max(axis=2).prod(axis=1)
            unclear = np.array([c.snapped for c in cands]) & (conf < SNAP_SURE)
            is_tile = np.where(unclear, 0.0, is_tile)
            kept, rejected_strong, missing = kept_again(kept, missing)

    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    flags = dict.fromkeys(FLAGS, False)
    why: list[str] = []  # what raised each flag (debug output)
    tiles: list[TileReading] = []
    for i in kept:
        c_img = cands[i].corners  # pixels of rgb
        p = counts[i]
        va, vb = int(np.argmax(p[0])), int(np.argmax(p[1]))
        ca, cb = float(p[0, va]), float(p[1, vb])
        conf = ca * cb * float(is_tile[i])
        if cands[i].face or cands[i].snapped:  # the player checks it (amber, not sure)
            conf *= FACE_TRUST
            if cands[i].snapped:
                why.append(f"unsure: tile {len(tiles)} read from a snapped outline")  # i18n: debug
        W = float(np.linalg.norm(c_img[1] - c_img[0]))
        # a tile whose outline reaches the frame may be cut off (the outline of a cut tile
        # often stops at the frame edge)
        margin = -CUT_MARGIN * W
        if (
            c_img[:, 0].min() < -margin
            or c_img[:, 1].min() < -margin
            or c_img[:, 0].max() > w - 1 + margin
            or c_img[:, 1].max() > h - 1 + margin
        ) and _face_at_frame(rgb, c_img):
            # ... unless the frame cuts off only the tile's rim, or a part of a blank half
            # whose twin under a half-turn is in the photo (see _frame_hides_no_pip)
            others = [cands[j].corners for j in kept if j != i]
            if _frame_hides_no_pip(c_img, (w, h), (va, vb), others):
                why.append(f"at the frame: tile {len(tiles)}, no pip beyond it")  # i18n: debug
            else:
                flags["cut"] = True
                why.append(f"cut: outline of tile {len(tiles)} at the frame edge")  # i18n: debug
        # an outline shorter than any tile can look (even tilted) that ends near the frame:
        # the rest of the tile lies beyond it (an outline between touching tiles in a row
        # can stop short of the frame edge)
        L = float(np.linalg.norm(c_img[3] - c_img[0]))
        gap = min(
            c_img[:, 0].min(),
            c_img[:, 1].min(),
            w - 1 - c_img[:, 0].max(),
            h - 1 - c_img[:, 1].max(),
        )
        if L / max(W, 1e-6) < detect.SHORTEST_ASPECT and gap < SHORT_CUT_GAP * W:
            flags["cut"] = True
            why.append(
                f"cut: short outline of tile {len(tiles)} near the frame edge"  # i18n: debug
            )
        # a tile found as a face (no bar to measure it by) near the frame, whose face runs on
        # to the frame: its outline is what the frame left of it
        if (
            cands[i].face
            and gap < SHORT_CUT_GAP * W
            and _face_at_frame(rgb, _to_frame(c_img, (w, h)))
        ):
            flags["cut"] = True
            why.append(f"cut: tile {len(tiles)} found as a face at the frame edge")  # i18n: debug
        if W * scale < 60 or W < 40:
            flags["small"] = True
        if _blur_sigma(gray, c_img) / max(W, 1.0) > BLUR_LIMIT:
            flags["blur"] = True
        if _glare_fraction(rgb, c_img) > GLARE_LIMIT:
            flags["glare"] = True
        corners_full = tuple((float(x * scale), float(y * scale)) for x, y in c_img)
        tiles.append(TileReading(Tile(va, vb), conf, corners_full, (va, vb), (ca, cb)))
    kept_quads = [cands[i].corners * s for i in kept]  # pixels of small
    flags["touching"] = _touching(kept_quads)
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in kept_quads]
    spread = max(widths) / max(min(widths), 1e-6) if widths else 1.0
    # a tile found as a face, without its bar: never a confident reading (when no bar was
    # found at all, the photo is blurred past reading bars)
    faced = any(cands[i].face for i in kept)
    if faced:
        flags["blur"] |= faces_only
        why.append("unsure: a tile found as a face, without its bar")  # i18n: debug
    if any(cands[i].short for i in kept):
        flags["tilted"] = True
        why.append("tilted: a tile read from a short outline")  # i18n: debug
    if spread >= TILTED_SPREAD:
        flags["tilted"] = True
        why.append(f"tilted: tiles differ {spread:.2f}x in width")  # i18n: debug
    missed, cut_missed, similar = missing["missed"], missing["cut_missed"], missing["similar"]
    unread, stray, stray_edge = missing["unread"], missing["stray"], missing["stray_edge"]
    flags["cut"] |= bool(cut_missed)
    flags["cut"] |= bool(stray_edge)
    # a lamp's glare on the table, outside every tile read, may hide a whole tile (a tile
    # found as a face may be the washed-out patch itself: it does not count as read here)
    barred = [q for q, i in zip(kept_quads, kept, strict=True) if not cands[i].face]
    if _glare_patch(small, barred):
        flags["glare"] = True
        why.append("glare: blown-out patch outside the tiles read")  # i18n: debug
    for n_, what in (
        (cut_missed, "cut: tile-coloured patch at the frame edge"),  # i18n: debug
        (missed, "missed: unexplained tile-coloured patch"),  # i18n: debug
        (rejected_strong, "missed: outline rejected by the counter"),  # i18n: debug
        (unread, "missed: unread outline around a bar"),  # i18n: debug
        (stray, "missed: pips outside every tile read"),  # i18n: debug
        (stray_edge, "cut: pips outside every tile read near the frame edge"),  # i18n: debug
    ):
        if n_:
            why.append(f"{what} x{n_}")
    flags["missed"] = bool(missed or rejected_strong or unread or stray)
    if similar and _surface_ruled_out(missing, rejected_strong):
        similar = False
        why.append("surface like the tiles, but no mark of a missed tile")  # i18n: debug
    flags["similar_surface"] = similar
    flags["no_tiles"] = not tiles
    score = min((t.confidence for t in tiles), default=0.0)
    sure = score >= SURE_TILE
    # (a tile read from a snapped outline is amber: FACE_TRUST keeps it under SURE_TILE, and
    # it never makes a reading confident whatever the two numbers become)
    from_snapped = any(cands[i].snapped for i in kept)
    confident = (
        bool(tiles)
        and sure
        and not faced
        and not from_snapped
        and not any(flags[f] for f in BLOCKING)
    )
    # about to be sure, tiles differing SKEWED_SPREAD in width: a tile whose face the tile
    # finder sees as a clear trapezoid or parallelogram too says the camera is steeply tilted,
    # where a rectangle around a bar may cut off part of a half (a 4|1 read 1|2, sure)
    if confident and spread >= SKEWED_SPREAD and not faces_only and _skewed(finder, kept_quads):
        flags["tilted"] = True
        confident = False
        why.append("tilted: a tile's face is a trapezoid")  # i18n: debug
    problems = [PROBLEM_TEXT[f] for f in FLAGS if flags[f] and f in PROBLEM_TEXT]
    if tiles and not sure and not any(flags[f] for f in BLOCKING):
        problems.append(PROBLEM_UNSURE)
    advice_flags = dict(flags, unsure=bool(tiles) and not sure)
    # a busy surface is worth mentioning only when it may have hidden tiles
    if not confident and (flags["no_tiles"] or flags["missed"]):
        advice_flags["busy"] = _busy_surface(rgb, [cands[i].corners for i in kept])
    if debug is not None:
        debug["candidates"] = [c.corners for c in cands]
        debug["probs"] = probs
        debug["ink"] = ink
        debug["is_tile"] = is_tile
        debug["edge"] = edge
        debug["kept"] = list(kept)
        debug["bars"] = [c.bar for c in cands]
        debug["scale"] = s
        debug["flags"] = flags
        debug["score"] = score
        debug["why"] = why
    return Reading(
        tiles=tiles,
        total=sum(t.pips for t in tiles),
        confident=confident,
        problems=problems,
        width=full_size[0],
        height=full_size[1],
        seconds=time.perf_counter() - t0,
        advice=capture_advice(advice_flags, confident),
    )


def read_bytes(data: bytes, max_pip: int = 12, budget: float | None = None) -> Reading:
    """Read a photo within a CPU-time budget (``TIME_BUDGET`` when None): past it the reading
    is an honest "could not read this photo" (``unreadable``), never a long wait. The model
    is loaded before the clock starts: that happens once per process, not per photo."""
    t0 = time.perf_counter()
    _get_session()
    tilenet._get_session()
    deadline = bars.Deadline(TIME_BUDGET if budget is None else budget)
    up = open_upright(data, max_side=CROP_SIDE)
    try:
        deadline.check()
        rgb = np.asarray(up.image)
        reading = read_rgb(
            rgb, max_pip=max_pip, scale=up.scale, full_size=up.full_size, deadline=deadline
        )
    except bars.OutOfTime:
        reading = _unreadable(up.full_size, 0.0)
    reading.seconds = time.perf_counter() - t0
    return reading

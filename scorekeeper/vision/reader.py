"""The photo reader: find tiles, count each half, judge how sure the reading is.

Needs the photo extra (numpy, OpenCV, ONNX Runtime, Pillow). Imported lazily by
:func:`scorekeeper.vision.read_hand`. The stages are modules of their own: ``look`` (one look
at a photo: ``detect`` and ``finding`` find the tiles, ``outlines`` gives the unsure ones
other outlines, ``counting`` reads their halves) and ``judge`` (how sure the reading is, what
the player is told). This module decodes the photo, takes the looks within the time budget
and keeps the best reading.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import time

import cv2
import numpy as np

from scorekeeper.vision import agree, bars, tilenet, weigh
from scorekeeper.vision.checks import _poly_overlap
from scorekeeper.vision.counting import (
    ACCEPT_TILE,
    APART,
    BLANK_EDGE,
    FACE_TRUST,
    _get_session,
    classify_halves,
    tile_evidence,
)
from scorekeeper.vision.images import open_upright
from scorekeeper.vision.judge import (
    BLOCKING,
    FLAGS,
    GLARE_LIMIT,
    PROBLEM_BLUR,
    PROBLEM_CUT,
    PROBLEM_CUT_SHORT,
    PROBLEM_GLARE,
    PROBLEM_NO_TILES,
    PROBLEM_SMALL,
    PROBLEM_SURFACE,
    PROBLEM_TEXT,
    PROBLEM_TILTED,
    PROBLEM_TOO_SLOW,
    PROBLEM_TOUCHING,
    PROBLEM_UNREADABLE,
    PROBLEM_UNSURE,
    capture_advice,
)
from scorekeeper.vision.look import _same_tile, detection_copy, detection_scale, read_once
from scorekeeper.vision.reading import SURE_TILE, Reading

# what other code and the tests use from the reader (each defined in its stage's module)
__all__ = [
    "ACCEPT_TILE",
    "BLANK_EDGE",
    "BLOCKING",
    "CROP_SIDE",
    "FLAGS",
    "GLARE_LIMIT",
    "PROBLEM_BLUR",
    "PROBLEM_CUT",
    "PROBLEM_CUT_SHORT",
    "PROBLEM_GLARE",
    "PROBLEM_NO_TILES",
    "PROBLEM_SMALL",
    "PROBLEM_SURFACE",
    "PROBLEM_TEXT",
    "PROBLEM_TILTED",
    "PROBLEM_TOO_SLOW",
    "PROBLEM_TOUCHING",
    "PROBLEM_UNREADABLE",
    "PROBLEM_UNSURE",
    "SURE_TILE",
    "TIME_BUDGET",
    "capture_advice",
    "classify_halves",
    "expose",
    "read_bytes",
    "read_rgb",
    "tile_evidence",
]

cv2.setNumThreads(1)  # one core per photo: the server reads photos of several tables at once

# halves are cut from a copy this size (long side; a 12-megapixel JPEG decodes to 2016 px at
# 1/2 scale, so it is not resized again); detection uses 1280
CROP_SIDE = 2048
TIME_BUDGET = 0.9  # CPU seconds per photo, decoding included (checked between steps)
TIME_LIMIT = 1.0  # ... that no photo passes: the checks after the last step must fit in it

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
# ... so when the tile finder sees tiles under this part of LARGE_TILE_PX wide (the median
# of its outlines: a large spread), the look at FIRST_SIDE could not stand alone and is put
# off: taken only if the full look leaves it a part to play (``_smaller_wins``)
STAND_ALONE_WIDTH = 0.75
FARTHER_BEFORE = 0.8  # the last look only if at most this part of the time budget is used
FAINT_BEFORE = 0.85  # the look for faint bars (no tile found; 640 px) within this part of it
FACES_BEFORE = 0.75  # the look for faces (no bar found at all) within this part of it
# a reading not sure: the look at the tile finder's outlines alone, within this part of the
# budget (``weigh``: whether it wins, what each reading takes from the other)
NET_LOOK_BEFORE = 0.7
ELSEWHERE_BEFORE = 0.8  # see _tiles_elsewhere


def _widths(reading: Reading, scale: float) -> list[float]:
    """Widths of the tiles read, in pixels of the image read at ``scale``."""
    return [
        float(np.linalg.norm(np.subtract(t.corners[1], t.corners[0]))) / scale
        for t in reading.tiles
    ]


class _Photo:
    """A photo being read: its looks, and what each look saw (``debug``: the debug output
    is that of the reading returned)."""

    def __init__(self, rgb, max_pip, scale, full_size, debug, deadline):
        self.rgb, self.max_pip, self.scale = rgb, max_pip, scale
        self.full_size, self.debug, self.deadline = full_size, debug, deadline
        self.h, self.w = rgb.shape[:2]
        self.s = detection_scale(rgb)
        self.seen: dict[int, tuple[Reading, dict]] = {}
        self.put_off = False  # the look at FIRST_SIDE was put off (``small_tiles``)
        self.faced: Reading | None = None  # the look at faces, once taken

    @functools.cached_property
    def finder(self) -> tilenet.Finder:
        """The tile finder on the detection-size copy: run once for the full look, the look
        at faces and ``small_tiles``."""
        return tilenet.Finder(detection_copy(self.rgb))

    def small_tiles(self) -> bool:
        """Whether the tile finder's outlines are mostly too small for the look at
        FIRST_SIDE to stand alone (see STAND_ALONE_WIDTH)."""
        widths = [c.width for c in self.finder.tiles()]
        return bool(widths) and float(np.median(widths)) < STAND_ALONE_WIDTH * LARGE_TILE_PX

    def within(self, part: float) -> bool:
        budget = self.deadline.seconds
        return budget is None or self.deadline.used() < part * budget

    def smaller(self, side: int, faint: bool = False) -> Reading | None:
        """A look at a copy ``side`` pixels long (None when that is not smaller)."""
        h, w = self.h, self.w
        f = side / max(h, w)
        if f >= 0.8 * self.s:
            return None
        dbg = None if self.debug is None else {}
        small = cv2.resize(self.rgb, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        r = read_once(
            small,
            self.max_pip,
            self.scale / f,
            self.full_size,
            dbg,
            self.deadline,
            thorough=False,
            faint=faint,
        )
        if dbg is not None:
            self.seen[id(r)] = (r, dbg)  # (the reading held: its id is not reused)
        return r

    def full(self) -> Reading:
        """The full look (its debug output goes straight to ``debug``)."""
        return read_once(
            self.rgb,
            self.max_pip,
            self.scale,
            self.full_size,
            self.debug,
            self.deadline,
            finder=self.finder,
        )

    def faces(self) -> Reading:
        """The look at the tiles found as objects, without their bars (taken once)."""
        if self.faced is not None:
            return self.faced
        dbg = None if self.debug is None else {}
        r = read_once(
            self.rgb,
            self.max_pip,
            self.scale,
            self.full_size,
            dbg,
            self.deadline,
            faces_only=True,
            finder=self.finder,
        )
        if dbg is not None:
            self.seen[id(r)] = (r, dbg)  # (the reading held: its id is not reused)
        self.faced = r
        return r

    def done(self, r: Reading) -> Reading:
        if self.debug is not None and id(r) in self.seen:
            self.debug.clear()
            self.debug.update(self.seen[id(r)][1])
        return r

    def quads(self, r: Reading) -> list[np.ndarray]:
        """The outlines of the tiles of ``r`` in pixels of the image read (``rgb``)."""
        return [np.asarray(t.corners, np.float64) / self.scale for t in r.tiles]

    def large(self, r: Reading) -> bool:
        widths = _widths(r, self.scale)
        return bool(widths) and min(widths) * self.s > LARGE_TILE_PX


def _if_nothing_found(photo: _Photo, reading: Reading) -> Reading:
    """No tile found: a blurred photo spreads a thin bar's darkness over its sides; the bars
    are looked for again among marks only somewhat darker than the face (at FIRST_SIDE: a
    tenth of the work of a full look). Still nothing: a photo so blurred that no bar is
    left; the tiles are looked for as bright faces (never a confident reading). Small tiles
    (the look at FIRST_SIDE was put off: it cannot read them well, see STAND_ALONE_WIDTH):
    the look at faces is taken first, while there is time for it, and kept for what follows
    (the same reading as taking it after, when there is time for both)."""
    if not reading.tiles and photo.put_off and photo.within(FACES_BEFORE):
        with contextlib.suppress(bars.OutOfTime):
            photo.faces()
    if not reading.tiles and photo.within(FAINT_BEFORE):
        with contextlib.suppress(bars.OutOfTime):
            fainter = photo.smaller(FIRST_SIDE, faint=True)
            if fainter is not None and fainter.tiles:
                reading = fainter
    if not reading.tiles and (photo.faced is not None or photo.within(FACES_BEFORE)):
        with contextlib.suppress(bars.OutOfTime):
            faced = photo.faces()
            if faced.tiles:
                reading = faced
    return reading


def _if_not_sure(photo: _Photo, reading: Reading) -> Reading:
    """Not sure: the tiles found as objects (the tile finder's outlines, no bar needed) may
    be more than the bars led to; that reading wins when it has more tiles (``weigh.finder_wins``),
    and keeps the tiles read from bars where it read none (``weigh.tiles_beside``). When it does
    not win, the tiles it read surer at the same place are taken (``weigh.surer_tiles``)."""
    if reading.confident or not reading.tiles:
        return reading
    if photo.faced is None and not photo.within(NET_LOOK_BEFORE):
        return reading
    with contextlib.suppress(bars.OutOfTime):
        faced = photo.faces()
        if weigh.finder_wins(faced, reading):
            # what the look with bars saw wrong with the photo still holds (a tile cut
            # off, a tile-like mark not read): its problems and advice are kept too
            faced.problems += [p for p in reading.problems if p not in faced.problems]
            faced.advice += [a for a in reading.advice if a not in faced.advice]
            weigh.tiles_beside(photo, faced, reading)
            reading = faced
        else:
            weigh.surer_tiles(photo, reading, faced)
    return reading


def _smaller_wins(photo: _Photo, first: Reading | None, reading: Reading) -> Reading:
    """A smaller look wins when it finds more tiles, or as many and is confident; never with
    fewer tiles than the full look found. The look at FIRST_SIDE, when it was put off, is
    taken now."""
    others = [first]
    if photo.put_off:
        with contextlib.suppress(bars.OutOfTime):
            others = [first := photo.smaller(FIRST_SIDE)]
    if not (first and first.confident) and photo.within(FARTHER_BEFORE):
        with contextlib.suppress(bars.OutOfTime):
            others.append(photo.smaller(FARTHER_SIDE))
    for other in others:
        if other is not None and other.confident:
            _checked_at_full_size(photo, other)
        if other is not None and (len(other.tiles), other.confident) > (
            len(reading.tiles),
            reading.confident,
        ):
            reading = other
    return reading


def _checked_at_full_size(photo: _Photo, other: Reading) -> None:
    """A smaller look's sure reading, its halves looked at again in the photo the full look
    read: a pale pip the smaller copy blurred away (seed 167's woven_cloth-011: a silver 1 on
    a tan face, against its reading 0 at full size, sure at 400 px of 11 for 12) or pips past
    a tile's end there make it unsure; so does having no time left to look (TIME_LIMIT)."""
    tiles = [(q, t.halves) for q, t in zip(photo.quads(other), other.tiles, strict=True)]
    if not agree.time_to_check(photo.deadline, len(tiles)):
        other.confident, other.checks = False, []
        return
    past: list[int] = []
    spots: list = []
    seen = agree.look_at_halves(photo.rgb, tiles, photo.max_pip, past, spots)
    if agree.against(seen, spots) or any(past):
        other.confident = False
        other.checks = []


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
    photo = _Photo(rgb, max_pip, scale, full_size, debug, deadline)
    photo.put_off = photo.small_tiles()
    first = None if photo.put_off else photo.smaller(FIRST_SIDE)
    # the smaller look stands alone only when nothing at all is wrong with it: at that size
    # the checks for missed tiles see less (two tiles touching can hide a third)
    if first is not None and first.confident and not first.problems and photo.large(first):
        return photo.done(first)
    try:
        reading = _if_not_sure(photo, _if_nothing_found(photo, photo.full()))
    except bars.OutOfTime:
        if first is None or not first.tiles:
            raise
        return photo.done(_cut_short(first))
    if not (reading.confident or (reading.tiles and not photo.large(reading))):
        reading = _smaller_wins(photo, first, reading)
    _tiles_elsewhere(photo, reading, first)
    weigh.no_tiles(photo, reading)
    return photo.done(reading)


def _tiles_elsewhere(photo: _Photo, reading: Reading, first: Reading | None) -> None:
    """A reading not sure, where the tile finder sees a tile it did not read, takes the tile
    another look read there (the look at FIRST_SIDE, taken now when it was put off, within
    ELSEWHERE_BEFORE of the budget; the look at faces, when taken): amber, its confidence
    times FACE_TRUST. Seed 263's light_surface-014: a 1|12 whose bar a spinner pin splits,
    read by the look at FIRST_SIDE only. The reading stays as sure as it was: not."""
    if reading.confident or not reading.tiles:
        return
    have = photo.quads(reading)
    unread = [
        q
        for q in (c.corners / photo.s for c in photo.finder.tiles())
        if not any(_poly_overlap(q, h) >= APART for h in have)
    ]
    if not unread:
        return
    if first is None and photo.within(ELSEWHERE_BEFORE):
        with contextlib.suppress(bars.OutOfTime):
            first = photo.smaller(FIRST_SIDE)
    for other in (first, photo.faced):
        if other is None or other is reading:
            continue
        for q, t in zip(photo.quads(other), other.tiles, strict=True):
            if any(_poly_overlap(q, h) >= APART for h in have):
                continue
            if any(_same_tile(q, f) for f in unread):
                reading.tiles.append(dataclasses.replace(t, confidence=t.confidence * FACE_TRUST))
                have.append(q)
    reading.total = sum(t.pips for t in reading.tiles)


def _cut_short(first: Reading) -> Reading:
    """The look at FIRST_SIDE when the time ran out before the full look was done: its tiles
    are offered, never as a confident reading (the full-size checks for a tile missed were
    not made), and the player is told to check them (``PROBLEM_CUT_SHORT``)."""
    first.confident = False
    first.checks = []
    first.problems = [PROBLEM_CUT_SHORT, *first.problems]
    first.advice = first.advice or capture_advice({"busy": True}, False)
    return first


def read_bytes(data: bytes, max_pip: int = 12, budget: float | None = None) -> Reading:
    """Read a photo within a CPU-time budget (``TIME_BUDGET`` when None), never a long wait:
    past it the reading is the first look's tiles, unsure (``_cut_short``), or, when that look
    found none, an honest "could not read this photo" (``unreadable``). The model
    is loaded before the clock starts: that happens once per process, not per photo."""
    t0 = time.perf_counter()
    _get_session(max_pip)
    tilenet._get_session()
    budget = TIME_BUDGET if budget is None else budget
    deadline = bars.Deadline(budget, None if budget is None else max(budget, TIME_LIMIT))
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

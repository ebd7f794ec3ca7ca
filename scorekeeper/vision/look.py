"""One look at a photo, stage by stage: find the tiles (bars and their outlines, then the
places a tile may still be), read their halves (``counting``), and hand what was kept to
``judge`` to decide how sure the reading is. ``reader.read_rgb`` takes several looks (sizes,
fainter bars, faces only) and keeps the best. Needs the photo extra.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from scorekeeper.vision import bars, detect, judge, tilenet
from scorekeeper.vision.checks import _blur_sigma, _poly_overlap
from scorekeeper.vision.counting import (
    ACCEPT_TILE,
    APART,
    DOUBTED,
    _count_halves,
    _keep,
    _sharpened,
    recount_pale,
    tile_evidence,
)
from scorekeeper.vision.finding import (
    HYPOTHESES,
    MAX_CANDIDATES,
    NEIGHBOUR_ROUNDS,
    _closer_look,
    _faces,
    _faint_boxes,
    _faint_search,
    _neighbours,
)
from scorekeeper.vision.halves import CropSource
from scorekeeper.vision.outlines import (
    SHORT_SURE,
    SHORT_WHEN,
    SNAP_SURE,
    _bar_outlines,
    _face_outlines,
    _looks_tilted,
    _short_outlines,
    _snapped,
)
from scorekeeper.vision.reading import Reading

FACE_LOOK_BEFORE = 0.85  # the face look of a full look (the tile finder: 0.02 s) within this
FAINT_NEAR_BEFORE = 0.5  # the looks for fainter bars: only within this part of the budget
SNAP_BEFORE = 0.85  # the snapped outlines of a full look only within this part of the budget
BARS_BEFORE = 0.85  # ... and the outlines laid on a lone bar (try_bars)
# an outline the counter doubts is a tile (counting.DOUBTED up to ACCEPT_TILE: one half it is
# not sure is a half, a blurred 11 say) is read where the tile finder sees a tile of its size
# (overlapping this much of the smaller, areas within this ratio) and no tile read lies
FINDER_SAME = 0.6


def detection_scale(rgb: np.ndarray) -> float:
    """The scale of ``rgb``'s detection copy: ``detect.DETECT_SIDE`` on its long side, or 1
    for a smaller photo."""
    return min(1.0, detect.DETECT_SIDE / max(rgb.shape[:2]))


def detection_copy(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` at the detection size (``detection_scale``): what the bars and the tile
    finder are looked for in."""
    h, w = rgb.shape[:2]
    s = detection_scale(rgb)
    if s >= 1:
        return rgb
    return cv2.resize(rgb, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)


class Look:
    """What one look has found so far: the outlines (``cands``; corners in pixels of
    ``rgb``), their half counts and tile evidence, the outlines kept as tiles and what the
    tiles kept do not explain (``missing``). ``small`` is ``rgb`` at the detection size
    (``s``)."""

    def __init__(
        self, rgb, max_pip, deadline, thorough=True, faint=False, faces_only=False, finder=None
    ):
        self.rgb, self.max_pip, self.deadline = rgb, max_pip, deadline
        self.thorough, self.faint, self.faces_only = thorough, faint, faces_only
        self.finder = finder or tilenet.Finder(detection_copy(rgb))
        self.small = self.finder.rgb
        self.s = detection_scale(rgb)
        self.unfitted: dict[int, bars.Bar] = {}
        self.found: list[bars.Bar] = []
        self.missing: dict = {}
        self.src = CropSource(rgb)  # the halves are cut from it (its pyramid built once)

    def find(self) -> None:
        """The first outlines: fitted around the bars found (and a closer look's, for small
        tiles), or the bright faces when ``faces_only``; then counted and kept."""
        rgb, s = self.rgb, self.s
        if self.faces_only:
            cands = _faces(self.small, s, [], self.finder, parted=True)
        else:
            cands = detect.find_candidates(
                self.small,
                per_bar=HYPOTHESES,
                deadline=self.deadline,
                unfitted=self.unfitted,
                faint=self.faint,
                found=self.found,
            )
            for c in cands:
                c.corners = c.corners / s  # from here on: pixels of rgb
            cands.sort(key=lambda c: -c.edge_score)
            cands = cands[:MAX_CANDIDATES]
            # a closer look adds its own best outlines (edge scores of two sizes do not compare)
            closer = _closer_look(rgb, s, cands, self.deadline)
            closer.sort(key=lambda c: -c.edge_score)
            cands += closer[: MAX_CANDIDATES // 2]
        self.deadline.check()
        self.cands = cands
        source = CropSource(_sharpened(rgb, cands)) if self.faces_only else self.src
        self.probs, self.ink = _count_halves(source, cands, self.deadline, self.max_pip)
        self.edge = np.array([c.edge_score for c in cands])
        self.is_tile, self.counts = tile_evidence(self.probs, self.ink, self.edge, self.max_pip)
        self.kept, self.rejected_strong = _keep(cands, self.is_tile, self.counts)
        self.deadline.check()

    def add(self, extra: list, rgb: np.ndarray | None = None) -> None:
        """``extra`` outlines counted (on ``rgb``, the photo read when None) and added: every
        outline's tile evidence again."""
        source = self.src if rgb is None else CropSource(rgb)
        p2, ink2 = _count_halves(source, extra, self.deadline, self.max_pip)
        self.cands += extra
        self.probs = np.concatenate([self.probs, p2])
        self.ink = np.concatenate([self.ink, ink2])
        self.edge = np.array([c.edge_score for c in self.cands])
        self.is_tile, self.counts = tile_evidence(self.probs, self.ink, self.edge, self.max_pip)

    def keep(self) -> None:
        """After more outlines were read (``add``): the tiles kept now, and what may be
        missing worked out again when they changed."""
        now, self.rejected_strong = _keep(self.cands, self.is_tile, self.counts)
        if now != self.kept:
            self.missing = self.what_is_missing(now)
        self.kept = now
        self.deadline.check()

    def what_is_missing(self, kept: list[int]) -> dict:
        """What the tiles ``kept`` do not explain (``judge._missing``)."""
        return judge._missing(
            self.small, self.s, self.cands, kept, self.edge, self.is_tile, self.found
        )

    def conf(self) -> np.ndarray:
        """How sure each outline is read (is a tile x both halves' counts)."""
        return self.is_tile * self.counts.max(axis=2).prod(axis=1)

    def drop(self, mark: str, below: float) -> None:
        """Outlines marked ``mark`` (short, snapped) read less sure than ``below``: not tiles."""
        unsure = np.array([getattr(c, mark) for c in self.cands]) & (self.conf() < below)
        self.is_tile = np.where(unsure, 0.0, self.is_tile)

    def within(self, part: float) -> bool:
        """Whether at most ``part`` of the time budget is used (always, without one)."""
        budget = self.deadline.seconds
        return budget is None or self.deadline.used() < part * budget

    def follow_rows(self) -> None:
        """Tiles touching in a row or a chain: the bars of the middle ones often run into one
        dark shape with the seams and are never found; the neighbours of each tile read are
        looked for where they would lie (one tile width along its bar, one length across
        it), NEIGHBOUR_ROUNDS tiles on."""
        fresh = list(self.kept)
        for _round in range(NEIGHBOUR_ROUNDS):
            extra = _neighbours(
                self.small,
                self.s,
                self.cands,
                fresh,
                self.kept,
                self.is_tile,
                self.counts,
                self.thorough,
                self.deadline,
            )
            if not extra:
                break
            before = set(self.kept)
            self.add(extra)
            self.kept, self.rejected_strong = _keep(self.cands, self.is_tile, self.counts)
            fresh = [i for i in self.kept if i not in before]
            self.deadline.check()
            if not fresh:
                break

    def blurred(self) -> bool:
        """Whether a tile read is blurred past BLUR_LIMIT (a thorough look only)."""
        if not (self.thorough and self.kept and not self.faces_only):
            return False
        gray_small = cv2.cvtColor(self.small, cv2.COLOR_RGB2GRAY)
        s, cands = self.s, self.cands
        return any(
            _blur_sigma(gray_small, cands[j].corners * s)
            / max(float(np.linalg.norm(cands[j].corners[1] - cands[j].corners[0])) * s, 1.0)
            > judge.BLUR_LIMIT
            for j in self.kept
        )

    def look_for_faces(self, blurred: bool) -> None:
        """A tile whose bar was not found (blurred away, hidden by glare or a spinner pin
        among its pips) is still a bright face where no tile was read (read on a sharpened
        copy when the photo is blurred); cheap, so looked for within most of the budget.
        (Before the fainter bars, which pass over tiles read as faces: an outline around a
        bar is kept before a face's, see counting._keep.)"""
        if not (self.thorough and self.kept and not self.faces_only):
            return
        if not self.within(FACE_LOOK_BEFORE):
            return
        more = _faces(self.small, self.s, [self.cands[j].corners for j in self.kept], self.finder)
        if more:
            self.add(more, _sharpened(self.rgb, more) if blurred else None)
            self.keep()

    def look_for_faint(self, blurred: bool) -> None:
        """A tile whose bar was too faint to be found (a blurred far tile under a steep tilt,
        a tile under glare): its bar is looked for among fainter marks around the pips no
        tile read explains, and over the whole of a blurred photo (see finding._faint_boxes)."""
        if not (self.thorough and self.kept and not self.faces_only):
            return
        if not self.within(FAINT_NEAR_BEFORE):
            return
        small, s, cands, kept = self.small, self.s, self.cands, self.kept
        extra = [
            c
            for box in _faint_boxes(small, s, cands, kept, self.missing, blurred)
            for c in _faint_search(small, s, cands, kept, box, self.deadline)
        ]
        if extra:
            self.add(extra)
            self.keep()

    def try_short(self) -> None:
        """A steep tilt: tiles near the camera look shorter than any outline tried so far;
        the bars left unread get short outlines too (a tile read from one makes the reading
        "steep angle", never confident)."""
        may_miss = self.thorough and bool(
            self.rejected_strong or any(self.missing[k] for k in SHORT_WHEN)
        )
        short = _short_outlines(self.small, self.s, self.cands, self.kept, self.unfitted, may_miss)
        if not short:
            return
        self.add(short)
        if not _looks_tilted(self.cands, self.kept):
            # tried only because a tile may be missing: a tile read from a short outline must
            # be sure (around a bar split by a spinner pin in a flat row, a short outline can
            # read the piece as a tile of its own)
            self.drop("short", SHORT_SURE)
        self.keep()

    def try_face_outlines(self) -> None:
        """A steep tilt: a tile read but not sure, from an outline that does not fit it (a
        near tile is a trapezoid), gets the outline of its face too; the counter picks."""
        if not self.thorough:
            return
        faces = _face_outlines(
            self.small, self.s, self.cands, self.kept, self.is_tile, self.counts, self.finder
        )
        if faces:
            self.add(faces)
            self.keep()

    def try_snapped(self) -> None:
        """A tile read but not sure (at any angle): its outline, and the tile finder's
        outlines lying on it, with their sides moved onto the face's edges; the counter
        picks, and a tile read from one is not sure (amber: the player checks it)."""
        if not (self.thorough and self.kept and self.within(SNAP_BEFORE)):
            return
        snapped = _snapped(
            self.rgb,
            self.s,
            self.cands,
            self.kept,
            self.is_tile,
            self.counts,
            self.finder,
            self.deadline,
        )
        if snapped:
            self.add(snapped)
            # ... only when it reads the tile clearly: between two outlines read about as
            # unsure, the counter's choice is a coin toss
            self.drop("snapped", SNAP_SURE)
            self.keep()

    def try_bars(self) -> None:
        """Bars outside every tile read with a pip near them (what judge counts as
        "bar_and_pip") and bar-shaped marks inside a blown-out glare ("glare_bars"), no
        outline fitted around them: a face whose edges do not show. They get outlines of the
        tiles' size laid on them (``outlines._bar_outlines``); the counter picks, and a tile
        read from one is amber (the player checks it) and gives way to a doubted outline the
        tile finder sees (``take_doubted``)."""
        lone = self.missing.get("lone_bars")  # judge found them for the tiles kept
        if not (self.thorough and self.kept and lone) or not self.within(BARS_BEFORE):
            return
        extra = _bar_outlines(self.s, self.cands, self.kept, lone)
        if not extra:
            return
        self.add(extra)
        self.keep()

    def take_doubted(self) -> None:
        """Outlines the counter doubts are tiles (DOUBTED), where the tile finder sees a tile
        and no tile read lies: kept as tiles the player counts by hand, rather than a
        reading that leaves a tile out. Never sure: a tile's confidence is at most its "is a
        tile", under ACCEPT_TILE and so under SURE_TILE, and judge holds a reading with one
        unsure whatever the numbers become."""
        if not self.kept:
            return
        found = [c.corners / self.s for c in self.finder.tiles()]  # pixels of rgb
        quality = self.is_tile * self.counts.max(axis=2).prod(axis=1)
        groups = {self.cands[i].group for i in self.kept}
        taken: list[int] = []
        for i in np.argsort(-quality, kind="stable"):
            c = self.cands[i]
            if c.group in groups or not DOUBTED < self.is_tile[i] < ACCEPT_TILE:
                continue
            if (self.counts[i].argmax(axis=1) == 0).all():  # a plain patch: no tile to count
                continue
            over = [
                j for j in self.kept if _poly_overlap(c.corners, self.cands[j].corners) >= APART
            ]
            # (a tile read from an outline laid on its bar gives way: the finder vouches
            # for this one's place and size)
            if any(not self.cands[j].barred for j in over):
                continue
            if any(_same_tile(c.corners, f) for f in found):
                self.kept = [j for j in self.kept if j not in over]
                taken.append(int(i))
                self.kept.append(int(i))
                groups.add(c.group)
                c.doubted = True
        if taken:
            self.rejected_strong = max(0, self.rejected_strong - len(taken))
            self.missing = self.what_is_missing(self.kept)

    def recount_pale(self) -> None:
        """Each half of a tile kept read blank or 1 read again as a grey copy of its colour
        distance from the face (``counting.recount_pale``): pips near the face's colour
        (silver on cream) the counter reads as a blank face. A half it counts more pips in
        is taken from it, and the tile is amber: the player checks it."""
        for (i, k), p in recount_pale(
            self.src, self.cands, self.kept, self.counts, self.max_pip
        ).items():
            self.counts[i, k] = p
            self.cands[i].pale = True

    def doubt_blanks(self) -> None:
        """A tile read double blank where the tile finder sees no tile (``_same_tile``) is
        amber (judge.AMBER): no pip vouches for it, only its outline. Seed 271's mix-014:
        the blank halves of two tiles touching end to end read as one 0|0 at 0.99, the
        pips of their other halves outside it; on 3,322 photos, 15 of the 16 double blanks
        read wrong at 0.52 and up, 10 of the 293 read right."""
        blanks = [i for i in self.kept if (self.counts[i].argmax(axis=1) == 0).all()]
        if self.faces_only or not blanks:
            return
        found = [c.corners / self.s for c in self.finder.tiles()]  # pixels of rgb
        for i in blanks:
            self.cands[i].blank = not any(_same_tile(self.cands[i].corners, f) for f in found)


def _same_tile(p: np.ndarray, q: np.ndarray) -> bool:
    """Whether two outlines are of one tile: they overlap FINDER_SAME of the smaller, and
    neither is more than 1 / FINDER_SAME times the other's area (not a half in a tile)."""
    a, b = abs(cv2.contourArea(p.astype(np.float32))), abs(cv2.contourArea(q.astype(np.float32)))
    if min(a, b) < FINDER_SAME * max(a, b):
        return False
    return _poly_overlap(p, q) >= FINDER_SAME


def read_once(
    rgb: np.ndarray,
    max_pip: int,
    scale: float,
    full_size: tuple[int, int],
    debug: dict | None,
    deadline: bars.Deadline,
    thorough: bool = True,
    faint: bool = False,
    faces_only: bool = False,
    finder: tilenet.Finder | None = None,
) -> Reading:
    """One look at ``rgb`` (see reader.read_rgb). Not ``thorough`` (the smaller looks, which
    stand alone only when nothing at all is wrong): a touching neighbour is looked for only
    where it would lie in line, and short outlines only in a photo that looks tilted.
    ``faces_only``: the outlines are the bright faces of the photo (``faces.find_faces``),
    not fitted around bars: a photo so blurred that no bar was found. ``finder``: the tile
    finder already run on ``detection_copy(rgb)`` (one is made when None)."""
    t0 = time.perf_counter()
    look = Look(rgb, max_pip, deadline, thorough, faint, faces_only, finder)
    look.find()
    look.follow_rows()
    look.missing = look.what_is_missing(look.kept)
    deadline.check()
    blurred = look.blurred()
    look.look_for_faces(blurred)
    deadline.check()
    look.look_for_faint(blurred)
    deadline.check()
    look.try_short()
    deadline.check()
    look.try_face_outlines()
    deadline.check()
    look.try_snapped()
    look.try_bars()
    look.take_doubted()
    look.recount_pale()
    look.doubt_blanks()
    return judge.decide(look, scale, full_size, debug, t0)

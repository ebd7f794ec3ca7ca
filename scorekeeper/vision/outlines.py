"""Other outlines of the tiles read: short ones around the bars left unread (a near tile
under a steep tilt), the outline of the face around a tile read unsure in a tilted photo, and
outlines snapped to the face's edges. The counter keeps the outline of a tile it reads best.
A stage of the photo reader (``reader.py``); needs the photo extra.
"""

from __future__ import annotations

import copy

import cv2
import numpy as np

from scorekeeper.vision import bars, counting, detect, faces, tilenet
from scorekeeper.vision.checks import _grow
from scorekeeper.vision.judge import TILTED_SPREAD
from scorekeeper.vision.reading import SURE_TILE

SNAP_NEAR = 0.6  # the tile finder's outlines this near a tile (x its width) are its own
SNAP_SURE = 0.8  # a snapped outline counts only when read at least this sure (before FACE_TRUST)

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
        blob = faces.fit_blob(small, bars_left[g])
        for cand in detect.fit_short_tiles(small, bars_left[g], 2) + ([blob] if blob else []):
            cand.short = True
            cand.corners = cand.corners / s
            cand.group = 200_000 + g
            out.append(cand)
    return out


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
    the bar (``faces.fit_blob``: a trapezoid fits) of every tile read less sure than
    FACE_BELOW, and the tile finder's outlines lying on it, as other outlines of the same bar
    (the counter keeps the outline it reads best). A tile read from one is a tile read from
    a short outline: the reading says the angle is steep."""
    if not _looks_tilted(cands, kept):
        return []
    out: list[detect.Candidate] = []
    found: list[detect.Candidate] | None = None
    for i in _less_sure(cands, kept, is_tile, counts, FACE_BELOW):
        c = cands[i]
        blob = faces.fit_blob(small, c.bar)
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
    deadline: bars.Deadline | None = None,
) -> list[detect.Candidate]:
    """For every tile read not sure (SURE_TILE; amber): its outline, and the tile finder's
    outlines whose middle lies within SNAP_NEAR of a width from its middle, snapped to the
    face's edges (``faces.snap_to_face``, pixels of ``rgb``), as other outlines of the same
    tile (its group; a face tile's stay face outlines). The finder's outlines go in as they
    are too. Marked ``snapped``: a tile read from one is not sure."""
    unsure = _less_sure(cands, kept, is_tile, counts, SURE_TILE, counting.FACE_TRUST)
    found = finder.tiles() if unsure else []
    out: list[detect.Candidate] = []
    for i in unsure:
        if deadline is not None:
            deadline.check()  # (snapping a tile's outlines: up to 0.01 s each)
        c = cands[i]
        mid = c.corners.mean(axis=0)
        W = float(np.linalg.norm(c.corners[1] - c.corners[0]))
        near = [
            t.corners / s
            for t in found
            if float(np.linalg.norm(t.corners.mean(axis=0) / s - mid)) < SNAP_NEAR * W
        ]
        snaps = [faces.snap_to_face(rgb, q) for q in [c.corners, *near]]
        for corners in [q for q in snaps if q is not None] + near:
            o = copy.copy(c)
            o.corners = corners
            o.short = o.neighbour = o.finder = False
            o.snapped = True
            out.append(o)
    return out


# A tile whose face's edges do not show (lost in a glare as bright as the face, on a surface of
# its colour) has no outline fitted around its bar; its bar and a pip near it still show (seed
# 277's light_surface-012: a 2|12 half in a lamp's glare, 22 for 36)
BAR_OUTLINES = 4  # such bars given outlines (Look.try_bars)
BAR_SIZES = (0.9, 1.0, 1.1)  # their widths, x the tiles read (median)
BAR_GROUP = 400_000  # their outline groups start here


def _bar_outlines(s: float, cands: list, kept: list[int], lone: list) -> list[detect.Candidate]:
    """Outlines laid on the bars ``lone`` (pixels of the detection copy, at scale ``s``):
    centred on the bar, square to it, of the width and length of the tiles read (``kept``),
    at BAR_SIZES of their width. No edge vouches for them (``edge_score`` 0: never a double
    blank); a tile read from one is amber (``barred``)."""
    quads = [cands[j].corners * s for j in kept]
    widths = np.array([np.linalg.norm(q[1] - q[0]) for q in quads])
    lengths = np.array([np.linalg.norm(q[3] - q[0]) for q in quads])
    W, ratio = float(np.median(widths)), float(np.median(lengths / np.maximum(widths, 1e-6)))
    out: list[detect.Candidate] = []
    for g, bar in enumerate(lone[:BAR_OUTLINES]):
        u = bar.direction / max(float(np.linalg.norm(bar.direction)), 1e-9)
        n = np.array([-u[1], u[0]])
        for k in BAR_SIZES:
            w, length = W * k, W * k * ratio
            a, b = u * w / 2, n * length / 2
            c = np.asarray(bar.centre, np.float64)
            corners = np.array([c - a - b, c + a - b, c + a + b, c - a + b])
            cand = detect.Candidate(corners / s, bar, 0.0, w, length, group=BAR_GROUP + g)
            cand.barred = True
            out.append(cand)
    return out

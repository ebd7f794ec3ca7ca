"""The learned tile finder: where the tiles' faces are in a photo, bar or no bar.

A small fully convolutional network (``models/tiles.onnx``, trained by
``tools/train_tiles.py`` on synthetic photos only) looks at the photo brought to NET_SIDE
pixels on its long side and gives two maps at half that size: *face* (a tile's face is here)
and *core* (the middle of a tile: its outline shrunk to CORE_ACROSS of its width and
CORE_ALONG of its length, so that tiles touching side by side or end to end are apart). Each
area of the core map is grown back into a tile's outline, which the half counter reads like
any other.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.vision.bars import Bar
from scorekeeper.vision.detect import Candidate
from scorekeeper.vision.faces import along_outline
from scorekeeper.vision.onnx import Model

MODEL_PATH = Path(__file__).resolve().parent / "models" / "tiles.onnx"
NET_SIDE = 512  # the photo's long side as the network sees it
STRIDE = 2  # the maps are this many times smaller
MULTIPLE = 16  # the network's input sides are padded to a multiple of this
CORE_ACROSS = 0.5  # the core of a tile: this part of its width ...
CORE_ALONG = 0.7  # ... and of its length
CORE_LEVEL = 0.5  # a map's pixel is "on" from this probability
CORE_MIN_PX = 4  # smallest core area kept (pixels of the maps)
GROW_STEPS = 64  # the cores are grown over the face map at most this many pixels
MIN_WIDTH = 3  # narrowest tile (map pixels: 15 px in a photo 1280 px long)
AREA_FILL = 0.75  # a tile's area must fill this much of its enclosing rectangle
ASPECT = (1.5, 2.7)  # length / width of one tile
ROW_MAX = 12  # tiles end to end in one area at most
CORE_ASPECT = 3.6  # ... but an area grown from one core is one tile up to this length / width
GROW_BACK = -1.0  # added to the area's sides (map pixels): the face map runs over the edges
QUAD_MIN_PX = 12  # a tile this wide (map pixels; 60 px of a photo 1280 px long) or wider
# also gets its own four corners
QUAD_DIFFERS = 0.08  # ... as another outline when a corner lies this far (x width) off
CENTRE_SHIFT = 0.5  # map pixel j covers the photo at the network's size from 2j to 2j + 2

_model = Model(MODEL_PATH)


def _get_session():
    return _model.session()


def to_net(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    """``rgb`` at NET_SIDE pixels on its long side, and the factor applied."""
    h, w = rgb.shape[:2]
    f = NET_SIDE / max(h, w)
    size = (max(1, round(w * f)), max(1, round(h * f)))
    interp = cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR
    return cv2.resize(rgb, size, interpolation=interp), f


def normalise(x: np.ndarray) -> np.ndarray:
    """N x H x W x 3 (0-255) -> N x 3 x H x W float32 as the network was trained on."""
    return (np.asarray(x, np.float32).transpose(0, 3, 1, 2) / 255.0 - 0.5) / 0.25


def core_of(quad: np.ndarray) -> np.ndarray:
    """The core of a tile's outline (corners 0-1 across its end, 0-3 along it): the same
    quadrilateral shrunk about its middle (bilinearly, so a tilted tile's core is too)."""
    q = np.asarray(quad, np.float64)
    a, b = (1 - CORE_ACROSS) / 2, (1 + CORE_ACROSS) / 2
    c, d = (1 - CORE_ALONG) / 2, (1 + CORE_ALONG) / 2

    def at(u, v):
        return (1 - u) * (1 - v) * q[0] + u * (1 - v) * q[1] + u * v * q[2] + (1 - u) * v * q[3]

    return np.array([at(a, c), at(b, c), at(b, d), at(a, d)])


def maps(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    """The face and core probabilities (2 x h x w, pixels of the maps) of ``rgb``, and the
    factor from pixels of ``rgb`` to pixels of the maps."""
    img, f = to_net(rgb)
    h, w = img.shape[:2]
    H, W = -(-h // MULTIPLE) * MULTIPLE, -(-w // MULTIPLE) * MULTIPLE
    if (h, w) != (H, W):
        img = cv2.copyMakeBorder(img, 0, H - h, 0, W - w, cv2.BORDER_REFLECT_101)
    logits = _get_session().run(None, {"input": normalise(img[None])})[0][0]
    p = 1 / (1 + np.exp(-logits[:, : (h + 1) // STRIDE, : (w + 1) // STRIDE]))
    return p, f / STRIDE


def _areas(p: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Each tile's area of the face map (labels 1..n-1): the cores (labels below the first
    number returned), grown pixel by pixel over the face map (so touching tiles keep apart),
    and every part of the face map no core reached (a row of tiles too blurred for the
    cores to part, split later by length)."""
    face = (p[0] >= CORE_LEVEL).astype(np.uint8)
    core = ((p[1] >= CORE_LEVEL) & (face > 0)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    small = np.nonzero(stats[:, cv2.CC_STAT_AREA] < CORE_MIN_PX)[0]
    labels[np.isin(labels, small[small > 0])] = 0
    labels = labels.astype(np.float32)
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(GROW_STEPS):
        open_ = (labels == 0) & (face > 0)
        grown = cv2.dilate(labels, kernel)
        new = open_ & (grown > 0)
        if not new.any():
            break
        labels[new] = grown[new]
    rest = ((labels == 0) & (face > 0)).astype(np.uint8)
    m, more = cv2.connectedComponents(rest, connectivity=4)
    labels = np.where(more > 0, more + n - 1, labels).astype(np.int32)
    return n, n + m - 1, labels


def _corners_of(pts: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The four corners of an area (``pts``, pixel centres) whose enclosing rectangle is
    ``box``: the points of its hull nearest the rectangle's corners, each moved half a pixel
    in (as GROW_BACK does for the rectangle)."""
    hull = cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)
    quad = np.array([hull[np.argmin(np.linalg.norm(hull - c, axis=1))] for c in box])
    centre = quad.mean(axis=0)
    inward = centre - quad
    inward /= np.maximum(np.linalg.norm(inward, axis=1, keepdims=True), 1e-6)
    return quad + inward * (-GROW_BACK / 2) * np.sqrt(2)


def find_tiles(rgb: np.ndarray, skip: list[np.ndarray] | None = None) -> list[Candidate]:
    """Outlines of the tiles the network finds in ``rgb`` (corners in its pixels, first two
    on one end), each marked ``face`` (found without its bar); areas whose middle lies inside
    a polygon of ``skip`` (pixels of ``rgb``) are left out. Outlines of one tile (its
    rectangle, and its own four corners where they differ) share a ``group``."""
    return Finder(rgb).tiles(skip)


class Finder:
    """The tile finder on one image, run once however often its outlines are asked for (one
    look of the reader asks up to four times, each with new outlines to change)."""

    def __init__(self, rgb: np.ndarray):
        self.rgb = rgb
        self._maps: tuple[np.ndarray, float] | None = None
        self._every: list[Candidate] | None = None  # the outlines with nothing skipped

    def tiles(self, skip: list[np.ndarray] | None = None) -> list[Candidate]:
        """As find_tiles (the outlines with nothing skipped are worked out once: a look
        asks for them up to five times). Each call's outlines are its own: a look that moves
        their corners into its photo's pixels (``finding._faces``) leaves the next call's
        in the finder's."""
        if self._maps is None:
            self._maps = maps(self.rgb)
        if skip:
            return outlines(*self._maps, skip)
        if self._every is None:
            self._every = outlines(*self._maps)
        return [dataclasses.replace(c, corners=c.corners.copy()) for c in self._every]


def outlines(p: np.ndarray, f: float, skip: list[np.ndarray] | None = None) -> list[Candidate]:
    """The tiles' outlines in the maps ``p`` (see find_tiles); ``f``: from pixels of the
    photo to pixels of the maps."""
    cores, n, labels = _areas(p)
    skip = [np.float32(q) for q in (skip or [])]
    out: list[Candidate] = []
    next_group = 0  # outlines of one tile share a group
    for k in range(1, n):
        ys, xs = np.nonzero(labels == k)
        if len(xs) < 2 * CORE_MIN_PX:
            continue
        pts = np.stack([xs, ys], axis=1).astype(np.float32)
        (cx, cy), (a, b), ang = cv2.minAreaRect(pts)
        # the area's pixels are centres (the area reaches half a pixel beyond them), but the
        # face map runs about a pixel over the face's edges: GROW_BACK, measured
        a, b = a + GROW_BACK, b + GROW_BACK
        width, length = min(a, b), max(a, b)
        if width < MIN_WIDTH or len(xs) < AREA_FILL * a * b:
            continue
        # a row of tiles touching end to end that no core parted: split by length (one
        # core is one tile, up to CORE_ASPECT: seen at a steep angle a tile looks longer)
        rows = max(1, int(round(length / width / 2.0)))
        if k < cores and ASPECT[0] <= length / width <= CORE_ASPECT:
            rows = 1
        elif rows > ROW_MAX or not (ASPECT[0] <= length / rows / width <= ASPECT[1]):
            continue
        box = along_outline(cv2.boxPoints(((cx, cy), (a, b), ang)))
        score = float(p[1][labels == k].mean())
        step = (box[3] - box[0]) / rows
        quads = [
            np.array([box[0], box[1], box[1] + step, box[0] + step]) + r * step for r in range(rows)
        ]
        groups = list(range(rows))
        if rows == 1 and width >= QUAD_MIN_PX:
            # a tile seen at a steep angle is a trapezoid, not a rectangle: its own four
            # corners are another outline of it (the counter keeps the one it reads best)
            quad = _corners_of(pts, box)
            if np.abs(quad - box).max() > QUAD_DIFFERS * width:
                quads.append(quad)
                groups.append(0)
        for r, q in zip(groups, quads, strict=True):
            corners = (q + CENTRE_SHIFT) / f
            mid = corners.mean(axis=0)
            if any(
                cv2.pointPolygonTest(z, (float(mid[0]), float(mid[1])), False) >= 0 for z in skip
            ):
                continue
            w_ = float(np.linalg.norm(corners[1] - corners[0]))
            l_ = float(np.linalg.norm(corners[3] - corners[0]))
            u = (corners[1] - corners[0]) / max(w_, 1e-6)
            bar = Bar(mid, u, 0.7 * w_, 0.05 * w_, 0.0)
            c = Candidate(corners, bar, score, w_, l_, group=next_group + r, face=True, finder=True)
            out.append(c)
        next_group += rows
    return out

"""Cutting a tile into its two halves, the input of the half counter.

A half is warped to a ``HALF_PX`` square with the tile's end at the top and the bar at the
bottom, with a small margin of surroundings. Shared by the reader and the training script so
both see exactly the same crops. Needs numpy and OpenCV.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision import bars

HALF_PX = 40
MARGIN = 0.07  # of the tile width, on every side of the half
NOT_A_HALF = 16  # class index after the pip counts 0..15 (up to double-15 sets)
NUM_CLASSES = 17


def half_quads(corners: np.ndarray, margin: float = MARGIN) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of a tile as quads (TL, TR, BR, BL) with the tile's end on top.

    ``corners``: 4x2, the first two on the end of half A (as in :class:`TileTruth`).
    """
    c = np.asarray(corners, np.float64)

    def at(s, t):  # bilinear point: s across the width (0..1), t from end A (0) to end B (1)
        top = c[0] + (c[1] - c[0]) * s
        bot = c[3] + (c[2] - c[3]) * s
        return top + (bot - top) * t

    m_s = margin
    m_t = margin / 2  # the tile is twice as long as it is wide
    qa = np.array([at(-m_s, -m_t), at(1 + m_s, -m_t), at(1 + m_s, 0.5 + m_t), at(-m_s, 0.5 + m_t)])
    qb = np.array(
        [at(1 + m_s, 1 + m_t), at(-m_s, 1 + m_t), at(-m_s, 0.5 - m_t), at(1 + m_s, 0.5 - m_t)]
    )
    return qa, qb


class CropSource:
    """An RGB image with a lazily built pyramid, so a half is never sampled from pixels much
    finer than the crop (no aliasing of small pips)."""

    def __init__(self, rgb: np.ndarray, scale: float = 1.0):
        self.levels = [rgb]
        self.scale = scale  # image pixels per coordinate unit of the quads given to crop()

    def level(self, k: int) -> np.ndarray:
        while len(self.levels) <= k:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[k]

    def crop(self, quad: np.ndarray, size: int = HALF_PX, tall: int | None = None) -> np.ndarray:
        """``quad`` (TL, TR, BR, BL) warped to ``size`` pixels wide and ``tall`` (``size``
        when None) high."""
        q = np.asarray(quad, np.float64) * self.scale
        tall = size if tall is None else tall
        # (image pixels per crop pixel, across and down: a level at least half as fine)
        step = max(np.linalg.norm(q[1] - q[0]) / size, np.linalg.norm(q[3] - q[0]) / tall)
        k = 0
        while step / (2 ** (k + 1)) >= 2.0 and k < 6:
            k += 1
        img = self.level(k)
        qk = (q / (2**k)).astype(np.float32)
        dst = np.float32([[0, 0], [size, 0], [size, tall], [0, tall]])
        M = cv2.getPerspectiveTransform(qk, dst)
        return cv2.warpPerspective(
            img, M, (size, tall), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )


def normalise(crops: np.ndarray) -> np.ndarray:
    """uint8 N x H x W x 3 crops -> float32 N x 3 x H x W network input, brightness-normalised
    so that the tile face is about 1 whatever the exposure."""
    x = crops.astype(np.float32)
    mx = bars.brightest(crops).astype(np.float32).reshape(len(x), -1)
    ref = np.percentile(mx, 90, axis=1).reshape(-1, 1, 1, 1)
    x = np.clip(x / np.maximum(ref, 30.0), 0, 1.5) - 0.5
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))

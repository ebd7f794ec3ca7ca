"""Drawing a reading on its photo, to look at what the reader did.

``draw_overlay(rgb, reading, scale)`` returns a copy of the photo with every tile read
outlined and labelled (its two values and its confidence): green when the tile is sure,
orange when not. A strip at the top gives the total and whether the reading is confident.
Needs numpy and OpenCV (the photo extra).
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision.reading import Reading

SURE = (40, 170, 60)
UNSURE = (245, 150, 20)


def draw_overlay(
    rgb: np.ndarray,
    reading: Reading,
    scale: float = 1.0,
    sure_tile: float | None = None,
    title: str | None = None,
) -> np.ndarray:
    """``rgb``: the upright photo (any size); ``scale``: pixels of the full-size photo (where
    ``reading`` has its corners) per pixel of ``rgb``. Returns a new RGB image."""
    if sure_tile is None:
        from scorekeeper.vision.reader import SURE_TILE

        sure_tile = SURE_TILE
    out = np.ascontiguousarray(rgb.copy())
    h, w = out.shape[:2]
    thick = max(2, round(max(h, w) / 400))
    font = max(0.5, max(h, w) / 1400)
    for n, t in enumerate(reading.tiles, 1):
        pts = np.array(t.corners, np.float64) / scale
        colour = SURE if t.confidence >= sure_tile else UNSURE
        cv2.polylines(out, [np.round(pts).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        # the line between the halves, where the bar is
        mid_a = (pts[0] + pts[3]) / 2
        mid_b = (pts[1] + pts[2]) / 2
        cv2.line(
            out,
            tuple(np.round(mid_a).astype(int)),
            tuple(np.round(mid_b).astype(int)),
            colour,
            max(1, thick // 2),
            cv2.LINE_AA,
        )
        label = f"{n}: {t.halves[0]}|{t.halves[1]} {t.confidence:.2f}"
        centre = pts.mean(axis=0)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
        x0 = int(np.clip(centre[0] - tw / 2, 0, max(0, w - tw)))
        y0 = int(np.clip(centre[1] + th / 2, th, h - base))
        cv2.rectangle(out, (x0 - 2, y0 - th - 2), (x0 + tw + 2, y0 + base), (0, 0, 0), -1)
        cv2.putText(
            out, label, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, font, colour, thick, cv2.LINE_AA
        )
    head = title or (
        f"total {reading.total}, {len(reading.tiles)} tiles, "  # i18n: developer overlay
        + ("CONFIDENT" if reading.confident else "not confident")
        + (", could not read" if reading.unreadable else "")  # i18n: developer overlay
    )
    (tw, th), base = cv2.getTextSize(head, cv2.FONT_HERSHEY_SIMPLEX, font, thick)
    strip = np.zeros((th + base + 12, w, 3), np.uint8)
    cv2.putText(
        strip,
        head,
        (6, th + 6),
        cv2.FONT_HERSHEY_SIMPLEX,
        font,
        (255, 255, 255),
        thick,
        cv2.LINE_AA,
    )
    return np.concatenate([strip, out], axis=0)

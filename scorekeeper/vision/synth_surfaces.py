"""The surfaces of the synthetic photos: a table, cloth, wood, fibre, threads or a weave,
in a colour of its own (``render_background``). Needs numpy and OpenCV (the photo extra)."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision.synth_faces import _jitter_colour

SURFACES = [
    (30, 30, 32),
    (15, 15, 15),
    (70, 45, 30),
    (110, 75, 45),
    (150, 110, 70),
    (40, 110, 60),
    (20, 80, 45),
    (30, 170, 190),
    (40, 60, 120),
    (120, 120, 125),
    (170, 170, 165),
    (200, 195, 185),
    (225, 222, 215),
    (90, 30, 30),
    (60, 60, 70),
    (190, 160, 120),
    (236, 232, 230),  # white paper
    (245, 238, 238),  # pinkish white paper
    (205, 165, 115),  # light wood
    (235, 225, 200),  # cream tablecloth
]


SURFACE_KINDS = ("plain", "wood", "cloth", "fibre", "smooth", "threads", "woven")
# "threads" (a coarse weave of thousands of thin dark strokes, the worst case for the bar
# finder) is drawn only when asked for: the training mix picks among the first five.


def _draw_threads(rng: np.random.Generator, img: np.ndarray, h: int, w: int) -> None:
    """Thousands of short, thin, dark straight strokes in two main directions, like the
    shadows between the threads of a coarse tablecloth or the pores of wood."""
    long_side = max(h, w)
    n = int(rng.integers(4000, 12000) * (h * w) / 4e6)
    base = rng.uniform(0, np.pi)
    for _ in range(n):
        ang = base + (np.pi / 2 if rng.random() < 0.5 else 0) + rng.normal(0, 0.08)
        ln = rng.uniform(0.004, 0.03) * long_side
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        dx, dy = np.cos(ang) * ln / 2, np.sin(ang) * ln / 2
        shade = float(rng.uniform(0.35, 0.75))
        cv2.line(
            img,
            (int(x - dx), int(y - dy)),
            (int(x + dx), int(y + dy)),
            (img[int(y), int(x)] * shade).tolist(),
            int(rng.integers(1, 4)),
            cv2.LINE_AA,
        )


def _draw_woven(rng: np.random.Generator, img: np.ndarray, h: int, w: int) -> None:
    """A coarse basket weave of a dark cloth: bright threads a few pixels wide crossing
    darker gaps, the threads' highlights passing for tile face on both sides of a dark line
    (the worst case for a bar finder sized to the image rather than to the tiles)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi / 2)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    p = rng.uniform(6, 14) * max(h, w) / 1280  # thread pitch
    cu, cv_ = np.floor(u / p), np.floor(v / p)
    fu, fv = (u / p) % 1, (v / p) % 1
    over = ((cu + cv_) % 2) == 0  # which thread is on top in this cell
    # a thread is brightest along its middle and dark in the gap between threads
    across = np.where(over, fv, fu)
    thread = np.sin(np.pi * across) ** 0.6
    bright = rng.uniform(1.0, 1.8)
    img *= (0.3 + bright * thread)[..., None]
    # a few bright fibres
    for _ in range(int(rng.integers(50, 200) * h * w / 1.6e6)):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a = ang + rng.choice([0, np.pi / 2]) + rng.normal(0, 0.1)
        ln = rng.uniform(0.5, 2.5) * p
        cv2.line(
            img,
            (int(x), int(y)),
            (int(x + np.cos(a) * ln), int(y + np.sin(a) * ln)),
            (img[int(y), int(x)] * 1.6 + 30).tolist(),
            1,
            cv2.LINE_AA,
        )


def render_background(
    rng: np.random.Generator,
    h: int,
    w: int,
    kind: str | None = None,
    colour: tuple[int, int, int] | None = None,
) -> np.ndarray:
    """A table surface: ``kind`` is one of SURFACE_KINDS, ``colour`` its RGB colour (random
    when None)."""
    base = _jitter_colour(rng, SURFACES[rng.integers(len(SURFACES))], 15)
    if colour is not None:
        base = np.array(colour, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    k = rng.integers(5)
    kind = SURFACE_KINDS.index(kind) if kind is not None else k
    if kind == 1:  # wood grain
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        v = -xx * np.sin(ang) + yy * np.cos(ang)
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(u * f + 3 * np.sin(v * 0.004 + rng.uniform(0, 6))) * 0.5 + 0.5
        img *= (1 - rng.uniform(0.08, 0.25) * grain)[..., None]
        if rng.random() < 0.5:  # dark streaks of the grain
            streak = (np.sin(u * f * rng.uniform(3, 7) + 5 * np.sin(v * 0.01)) > 0.93).astype(
                np.float32
            )
            img *= (1 - rng.uniform(0.15, 0.45) * streak)[..., None]
    elif kind == 2:  # cloth weave
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(3, 8)
        weave = (np.sin(xx * 2 * np.pi / p) * np.sin(yy * 2 * np.pi / p)) * 0.5 + 0.5
        img *= (1 - rng.uniform(0.04, 0.3) * weave)[..., None]
    elif kind == 3:  # coarse fibres, terry, felt: many small dark marks
        fib = rng.normal(0, 1, (h, w)).astype(np.float32)
        fib = cv2.GaussianBlur(fib, (0, 0), rng.uniform(0.7, 2.0))
        fib /= max(float(fib.std()), 1e-6)
        img *= (1 - rng.uniform(0.05, 0.2) * np.clip(fib, 0, 4))[..., None]
    if kind == SURFACE_KINDS.index("threads"):
        _draw_threads(rng, img, h, w)
    if kind == SURFACE_KINDS.index("woven"):
        _draw_woven(rng, img, h, w)
    # low-frequency mottling and fine noise
    small = rng.normal(0, 1, (max(2, h // 64), max(2, w // 64), 1)) * np.ones(3)
    small += rng.normal(0, 0.3, small.shape)  # mostly brightness, a little colour
    mott = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img += mott * rng.uniform(2, 12)
    if rng.random() < 0.3:  # a straight edge (table edge, cloth seam)
        p1 = (int(rng.uniform(0, w)), 0)
        p2 = (int(rng.uniform(0, w)), h)
        if rng.random() < 0.5:
            p1, p2 = (0, int(rng.uniform(0, h))), (w, int(rng.uniform(0, h)))
        other = _jitter_colour(rng, SURFACES[rng.integers(len(SURFACES))], 15)
        poly = np.array([p1, p2, (w, h), (w, 0) if p1[1] == 0 else (0, h)], np.int32)
        m = np.zeros((h, w), np.uint8)
        cv2.fillPoly(m, [poly], 1)
        img[m > 0] = other
    return img


# ---------------------------------------------------------------------------------------------
# Scene

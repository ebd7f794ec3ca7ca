"""Drawing one domino face for the synthetic renders: pip layouts (standard and the alternative
layouts real sets use), pip and tile colours, a tile's style, the face itself."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# Pip layouts: the ones the pip-pattern check looks for.
from scorekeeper.vision.pattern import ALT_LAYOUTS, BASE_LAYOUTS


def pip_layout(n: int, rng: np.random.Generator) -> np.ndarray:
    """Pip centres for ``n`` pips in the unit half square, with a random variant, mirror and
    transposition (sets differ in which way their rows run)."""
    pts = BASE_LAYOUTS[n]
    if n in ALT_LAYOUTS and rng.random() < 0.25:
        pts = ALT_LAYOUTS[n][rng.integers(len(ALT_LAYOUTS[n]))]
    a = np.array(pts, dtype=np.float64).reshape(-1, 2)
    if len(a) and rng.random() < 0.5:
        a = a[:, ::-1].copy()
    if len(a) and rng.random() < 0.5:
        a[:, 0] = 1 - a[:, 0]
    if len(a) and rng.random() < 0.5:
        a[:, 1] = 1 - a[:, 1]
    return a


# Pip colours (RGB). Real sets colour each number; the pale ones are the hard ones.
PIP_COLOURS: list[tuple[int, int, int]] = [
    (235, 200, 30),  # yellow
    (240, 150, 20),  # orange
    (230, 80, 20),  # red-orange
    (200, 30, 40),  # red
    (130, 20, 40),  # dark red
    (200, 40, 140),  # magenta
    (240, 120, 170),  # pink
    (110, 40, 150),  # purple
    (70, 40, 100),  # dark purple
    (30, 60, 160),  # blue
    (20, 30, 80),  # navy
    (80, 170, 220),  # light blue
    (40, 160, 160),  # teal
    (40, 150, 60),  # green
    (20, 80, 40),  # dark green
    (120, 140, 40),  # olive
    (110, 70, 40),  # brown
    (25, 25, 25),  # black
    (150, 150, 150),  # grey
    (185, 185, 190),  # silver
    (190, 150, 60),  # gold
    (215, 215, 210),  # white-ish
]

TILE_COLOURS: list[tuple[int, int, int]] = [
    (246, 246, 244),  # white
    (240, 240, 236),
    (244, 238, 222),  # ivory
    (238, 228, 200),  # cream
    (235, 235, 240),  # cool white
    (242, 228, 178),  # yellowed ivory (old bone-look sets)
    (236, 220, 165),
    (250, 244, 226),  # warm off-white
]


def _jitter_colour(rng, c, amount):
    return np.clip(np.array(c, np.float32) + rng.normal(0, amount, 3), 0, 255)


def random_palette(rng: np.random.Generator, max_pip: int = 12) -> dict[int, np.ndarray]:
    """A colour for each number, like a real colour-coded set (or one colour for all)."""
    if rng.random() < 0.35:  # one colour for all numbers: often black (classic sets)
        c = (20, 20, 22) if rng.random() < 0.6 else PIP_COLOURS[rng.integers(len(PIP_COLOURS))]
        return {n: _jitter_colour(rng, c, 8) for n in range(max_pip + 1)}
    idx = rng.permutation(len(PIP_COLOURS))
    return {n: _jitter_colour(rng, PIP_COLOURS[idx[n % len(idx)]], 10) for n in range(max_pip + 1)}


@dataclass
class TileStyle:
    face: np.ndarray
    bar_ratio: float
    bar_thick: float
    bar_colour: np.ndarray
    spinner: bool
    spinner_colour: np.ndarray
    pip_radius: float
    pip_margin: float
    rim_dark: float
    highlight: bool
    aspect: float
    palette: dict[int, np.ndarray]


def random_style(rng: np.random.Generator, max_pip: int = 12) -> TileStyle:
    face = _jitter_colour(rng, TILE_COLOURS[rng.integers(len(TILE_COLOURS))], 4)
    return TileStyle(
        face=face,
        bar_ratio=float(rng.uniform(0.55, 0.92)),
        bar_thick=float(rng.uniform(0.025, 0.065)),
        bar_colour=_jitter_colour(rng, (35, 35, 35), 12),
        spinner=bool(rng.random() < 0.3),
        spinner_colour=_jitter_colour(
            rng, (190, 155, 70) if rng.random() < 0.7 else (180, 180, 185), 12
        ),  # brass or steel
        # double-15 sets print columns of five pips a half: smaller pips
        pip_radius=float(rng.uniform(0.055, 0.085) if max_pip <= 12 else rng.uniform(0.04, 0.06)),
        pip_margin=float(rng.uniform(0.0, 0.06)),
        rim_dark=float(rng.uniform(0.45, 0.8)),
        highlight=bool(rng.random() < 0.6),
        aspect=float(rng.uniform(1.93, 2.06)),
        palette=random_palette(rng, max_pip),
    )


def render_face(a: int, b: int, style: TileStyle, width_px: int, rng: np.random.Generator):
    """The face of tile a|b as an RGB float image (half ``a`` on top) and its alpha mask."""
    W = int(width_px)
    L = int(round(W * style.aspect))
    img = np.empty((L, W, 3), np.float32)
    img[:] = style.face
    # rounded-rectangle mask and a darker rim where the edge rounds off
    mask = np.zeros((L, W), np.uint8)
    r = max(2, int(0.1 * W))
    cv2.rectangle(mask, (r, 0), (W - 1 - r, L - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (W - 1, L - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, L - 1 - r), (W - 1 - r, L - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(dist / max(1.0, 0.06 * W), 0, 1)
    shade = 0.82 + 0.18 * bevel
    # gentle light gradient across the face
    gx, gy = rng.normal(0, 0.04, 2)
    yy, xx = np.mgrid[0:L, 0:W].astype(np.float32)
    shade = shade * (1 + gx * (xx / W - 0.5) + gy * (yy / L - 0.5))
    img *= shade[..., None]
    # bar
    bl = style.bar_ratio * W
    bt = max(1.5, style.bar_thick * W)
    cy = L / 2
    p0 = (int(round((W - bl) / 2 * 16)), int(round((cy - bt / 2) * 16)))
    p1 = (int(round((W + bl) / 2 * 16)), int(round((cy + bt / 2) * 16)))
    cv2.rectangle(img, p0, p1, style.bar_colour.tolist(), -1, cv2.LINE_AA, 4)
    if style.spinner:
        sr = int(round(0.07 * W * 16))
        cv2.circle(
            img,
            (int(W / 2 * 16), int(cy * 16)),
            sr,
            style.spinner_colour.tolist(),
            -1,
            cv2.LINE_AA,
            4,
        )
        cv2.circle(
            img, (int(W / 2 * 16), int(cy * 16)), sr, (60, 50, 30), max(1, W // 60), cv2.LINE_AA, 4
        )
    # pips
    half_len = L / 2 - bt / 2
    m = 0.04 + style.pip_margin
    pr = style.pip_radius * W * rng.uniform(0.95, 1.05)
    for n, top in ((a, True), (b, False)):
        colour = style.palette[n]
        for px, py in pip_layout(n, rng):
            x = (m + (1 - 2 * m) * px) * W + rng.normal(0, 0.004 * W)
            yh = (m + (1 - 2 * m) * py) * half_len + rng.normal(0, 0.004 * W)
            y = yh if top else L - yh
            _draw_pip(img, x, y, pr, colour, style, rng)
    return np.clip(img, 0, 255), mask


def _draw_pip(img, x, y, r, colour, style, rng):
    s = 16
    c = (int(round(x * s)), int(round(y * s)))
    rim = np.asarray(colour, np.float32) * style.rim_dark
    cv2.circle(img, c, int(round(r * s)), rim.tolist(), -1, cv2.LINE_AA, 4)
    inner = np.asarray(colour, np.float32)
    cv2.circle(img, c, int(round(r * 0.8 * s)), inner.tolist(), -1, cv2.LINE_AA, 4)
    # dimple: darker on the side facing the light
    off = (int(round(-0.25 * r * s)), int(round(-0.25 * r * s)))
    cv2.circle(
        img,
        (c[0] + off[0], c[1] + off[1]),
        int(round(r * 0.45 * s)),
        (inner * 0.85).tolist(),
        -1,
        cv2.LINE_AA,
        4,
    )
    if style.highlight and r > 2:
        h = (int(round((x + 0.3 * r) * s)), int(round((y + 0.3 * r) * s)))
        hc = np.minimum(255, inner * 0.4 + 170).tolist()
        cv2.circle(img, h, max(1, int(round(r * 0.22 * s))), hc, -1, cv2.LINE_AA, 4)

"""The synthetic benchmark's photos: one kind of photo for each way the reader failed at
real tables (``FAILURE_MODES``), drawn with ``synth.render_hand``. For the benchmark
(``python -m scorekeeper.vision.evaluate --synthetic-modes N``), tests and training; the app
never imports it. Needs numpy and OpenCV (the photo extra).
"""

from __future__ import annotations

import numpy as np

from scorekeeper.vision.synth import Scene, render_hand
from scorekeeper.vision.synth_faces import PIP_COLOURS, _jitter_colour, random_style

# ---------------------------------------------------------------------------------------------
# The failure modes seen at real tables (issue 27), one kind of photo each, for the benchmark
# (``python -m scorekeeper.vision.evaluate --synthetic-modes N``). Every tile lies inside the
# frame, so the truth is every tile drawn.

FAILURE_MODES = (
    "mix",
    "dark_pips",
    "woven_cloth",
    "touching",
    "tilt_30_45",
    "small_50px",
    "near_empty",
    "light_surface",
    # issue 40: the misses left on photos of real tables
    "large_spread",
    "coloured_12",
    "dark_glare",
    "busy",
    # issue 40: double-15 sets (0-15 pips a half, columns of five)
    "coloured_15",
)
# the set each mode's tiles come from, when not double-12 (the benchmark reads it so)
MODE_MAX_PIP = {"coloured_15": 15}
DARK_PIP_COLOURS = [(70, 40, 100), (20, 30, 80), (110, 40, 150), (20, 80, 40), (90, 20, 40)]


def _tiles(rng, n, max_pip=12):
    return [
        (int(rng.integers(0, max_pip + 1)), int(rng.integers(0, max_pip + 1))) for _ in range(n)
    ]


def benchmark_scene(mode: str, i: int, seed: int = 7) -> Scene:
    """Photo ``i`` of failure mode ``mode`` as the synthetic benchmark renders it for ``seed``
    (``evaluate.write_modes``: MODE/MODE-00i.jpg)."""
    return render_mode(np.random.default_rng([seed, FAILURE_MODES.index(mode), i]), mode)


def _dark_pips(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Double-12 halves of 9 to 12 packed with dark coloured pips (purple, navy, ...)."""
    style = random_style(rng, 12)
    for v in range(9, 13):
        c = DARK_PIP_COLOURS[int(rng.integers(len(DARK_PIP_COLOURS)))]
        style.palette[v] = _jitter_colour(rng, c, 8)
    n = int(rng.integers(3, 8))
    tiles = [(int(rng.integers(9, 13)), int(rng.integers(0, 13))) for _ in range(n)]
    tiles[0] = (9, 9) if rng.random() < 0.5 else tiles[0]
    return render_hand(
        rng, tiles, size=size, allow_cut=False, difficulty=0.5, style=style, tilt_deg=5
    )


def _woven_cloth(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """A close-up of the last few tiles, large, on a woven dark cloth."""
    colour = [(30, 30, 35), (45, 30, 60), (25, 45, 35), (50, 35, 25)][int(rng.integers(4))]
    n = int(rng.integers(1, 5))
    return render_hand(
        rng,
        _tiles(rng, n),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        surface="woven",
        surface_colour=colour,
        tile_width=float(rng.uniform(0.13, 0.2)),
        mode="scatter",
        tilt_deg=5,
    )


def _touching(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Tiles touching in a row, a chain or an L-shaped chain, with spinner pins."""
    style = random_style(rng, 12)
    style.spinner = True
    n = int(rng.integers(3, 8))
    return render_hand(
        rng,
        _tiles(rng, n),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        style=style,
        mode=str(rng.choice(["row", "chain", "lchain"])),
        gap=0.0,
        tile_width=float(rng.uniform(0.05, 0.09)),
        tilt_deg=5,
    )


def _tilt_30_45(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """The camera tilted 30 to 45 degrees from straight down."""
    return render_hand(
        rng,
        _tiles(rng, int(rng.integers(2, 8))),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        mode="scatter",
        tilt_deg=float(rng.uniform(30, 45)),
        tile_width=float(rng.uniform(0.06, 0.1)),
    )


def _small_50px(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Many tiles 50 pixels wide."""
    return render_hand(
        rng,
        _tiles(rng, int(rng.integers(6, 15))),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        mode=str(rng.choice(["scatter", "grid"])),
        tile_width=50 / max(size),
        tilt_deg=5,
    )


def _near_empty(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Tiles with few pips: 0|0, 0|1, 1|1, and a few others."""
    near = [(0, 0), (0, 1), (1, 1)]
    tiles = [near[int(rng.integers(3))] for _ in range(int(rng.integers(2, 5)))]
    tiles += _tiles(rng, int(rng.integers(0, 3)))
    rng.shuffle(tiles)
    return render_hand(
        rng, tiles, size=size, allow_cut=False, difficulty=0.5, mode="scatter", tilt_deg=5
    )


def _light_surface(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Tiles on a surface of about their own colour."""
    colour = [(236, 232, 230), (245, 240, 235), (235, 225, 200), (225, 222, 215)][
        int(rng.integers(4))
    ]
    return render_hand(
        rng,
        _tiles(rng, int(rng.integers(2, 8))),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        surface=str(rng.choice(["plain", "cloth", "smooth"])),
        surface_colour=colour,
        mode="scatter",
        tilt_deg=5,
    )


def render_mode(rng: np.random.Generator, mode: str) -> Scene:
    """One synthetic photo of failure mode ``mode`` (one of FAILURE_MODES; "mix" is the
    training mix, every tile inside the frame)."""
    size = (1280, 960) if rng.random() < 0.5 else (960, 1280)
    if mode == "mix":
        return render_hand(rng, allow_cut=False)
    if mode not in _RENDER:
        raise ValueError(f"unknown failure mode {mode!r}")
    return _RENDER[mode](rng, size)


BUSY_SURFACES = ("threads", "fibre", "wood", "woven")


def _large_spread(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Issue 40: a large spread of 20-30 tiles touching side by side in rows."""
    n = int(rng.integers(20, 31))
    return render_hand(
        rng,
        _tiles(rng, n),
        size=size,
        allow_cut=False,
        difficulty=0.4,
        mode="rows",
        tile_width=float(rng.uniform(0.05, 0.07)),
        tilt_deg=5,
    )


def _coloured_12(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Issue 40: 8-12 double-12 tiles with coloured pips (a colour-coded set)."""
    return _coloured(rng, size, 12)


def _coloured_15(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Issue 40: 8-12 double-15 tiles with coloured pips (13 is 5-3-5, 14 5-4-5, 15 5x3;
    smaller pips, as on real double-15 sets: ``random_style``)."""
    return _coloured(rng, size, 15)


def _coloured(rng: np.random.Generator, size: tuple[int, int], max_pip: int) -> Scene:
    """8-12 tiles of a double-``max_pip`` set with a colour for each number."""
    style = random_style(rng, max_pip)
    # a colour for each number (random_style gives one colour for all a third of the time)
    idx = rng.permutation(len(PIP_COLOURS))
    style.palette = {
        v: _jitter_colour(rng, PIP_COLOURS[idx[v % len(idx)]], 10) for v in range(max_pip + 1)
    }
    return render_hand(
        rng,
        _tiles(rng, int(rng.integers(8, 13)), max_pip),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        style=style,
        mode="scatter",
        tilt_deg=5,
    )


def _dark_glare(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Issue 40: a few large tiles on a dark cloth under a lamp's glare."""
    colour = [(30, 30, 35), (45, 30, 60), (25, 45, 35), (20, 25, 50)][int(rng.integers(4))]
    return render_hand(
        rng,
        _tiles(rng, int(rng.integers(2, 5))),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        surface="cloth",
        surface_colour=colour,
        tile_width=float(rng.uniform(0.1, 0.16)),
        mode="scatter",
        tilt_deg=5,
        glare=True,
    )


def _busy(rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    """Issue 40: a few tiles on a busy, patterned surface of a random colour."""
    colour = tuple(int(x) for x in rng.integers(60, 200, 3))
    return render_hand(
        rng,
        _tiles(rng, int(rng.integers(3, 7))),
        size=size,
        allow_cut=False,
        difficulty=0.5,
        surface=str(rng.choice(BUSY_SURFACES)),
        surface_colour=colour,
        tile_width=float(rng.uniform(0.06, 0.1)),
        mode="scatter",
        tilt_deg=5,
    )


_RENDER = {
    "dark_pips": _dark_pips,
    "woven_cloth": _woven_cloth,
    "touching": _touching,
    "tilt_30_45": _tilt_30_45,
    "small_50px": _small_50px,
    "near_empty": _near_empty,
    "light_surface": _light_surface,
    "large_spread": _large_spread,
    "coloured_12": _coloured_12,
    "coloured_15": _coloured_15,
    "dark_glare": _dark_glare,
    "busy": _busy,
}

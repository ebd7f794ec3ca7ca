"""Draw the README's example of a photo reading: a synthetic render, read and outlined.

    python tools/photo_example.py [--seed 12] [--out docs/photo-reading-example.png]
    python tools/photo_example.py --touching [--out docs/photo-reading-touching.png]

Renders a hand of ivory tiles (a double blank, blank and one-pip halves, two tiles
touching) on a wooden table with ``scorekeeper.vision.synth``, reads it with the photo reader
and writes the photo with every tile outlined and labelled (``overlay.draw_overlay``).
With ``--touching`` it renders one of the benchmark's failure modes instead (issue 27): a row
or L-shaped chain of touching double-12 tiles with spinner pins
(``synth_modes.render_mode(..., "touching")``). Only synthetic pictures go into the repository.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from scorekeeper.vision import (  # noqa: E402
    read_hand,
    synth,
    synth_modes,  # noqa: E402
)
from scorekeeper.vision.images import open_upright  # noqa: E402
from scorekeeper.vision.overlay import draw_overlay  # noqa: E402

HAND = [(0, 0), (0, 3), (1, 5), (6, 6), (2, 4), (1, 1), (3, 6)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--side", type=int, default=800, help="long side of the picture")
    ap.add_argument("--out", type=Path)
    ap.add_argument(
        "--touching", action="store_true", help="a row of touching tiles with spinners instead"
    )
    args = ap.parse_args(argv)
    if args.touching:
        args.out = args.out or ROOT / "docs" / "photo-reading-touching.png"
        scene = synth_modes.render_mode(np.random.default_rng(args.seed), "touching")
        return _write(scene, args, max_pip=12)
    args.out = args.out or ROOT / "docs" / "photo-reading-example.png"
    scene = synth.render_hand(
        np.random.default_rng(args.seed),
        HAND,
        size=(1280, 960),
        max_pip=6,
        difficulty=0.4,
        allow_cut=False,
        mode="scatter",
        surface="wood",
        surface_colour=(120, 80, 50),
        jpeg_quality=90,
    )
    return _write(scene, args, max_pip=6)


def _write(scene, args, max_pip: int) -> int:
    reading = read_hand(scene.jpeg, max_pip=max_pip)
    up = open_upright(scene.jpeg, max_side=args.side)
    truth = sorted(tuple(sorted((t.a, t.b))) for t in scene.tiles)
    read = sorted(tuple(sorted(t.halves)) for t in reading.tiles)
    title = (
        f"read {reading.total} ({len(reading.tiles)} tiles), truth "
        f"{sum(map(sum, truth))} ({len(truth)} tiles); "
        + ("confident" if reading.confident else "not confident")
    )
    img = draw_overlay(np.asarray(up.image), reading, up.scale, title=title)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # 256 colours keep the picture small in the repository
    Image.fromarray(img).quantize(256, dither=Image.Dither.FLOYDSTEINBERG).save(
        args.out, optimize=True
    )
    print(title, "| right" if read == truth else "| WRONG", "->", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Calibrate the photo reader's confidence on synthetic photos.

    python tools/calibrate_vision.py [--n 300] [--seed 99]

Renders ``--n`` synthetic photos (``scorekeeper.vision.synth``, the training mix of
conditions, a different seed from training), reads each, and prints how often a photo's
total is right and how often the reader is confident but wrong, for a range of per-tile
confidence thresholds, so ``SURE_TILE`` in ``scorekeeper/vision/reader.py`` can be chosen.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.vision import reader, synth  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--difficulty", type=float, default=1.0)
    args = ap.parse_args(argv)
    rows = []
    t0 = time.time()
    for i in range(args.n):
        rng = np.random.default_rng([args.seed, i])
        scene = synth.render_hand(rng, difficulty=args.difficulty)
        truth = sum(t.a + t.b for t in scene.tiles if t.visible > 0.995)
        n_cut = sum(t.visible <= 0.995 for t in scene.tiles)
        old = reader.SURE_TILE
        reader.SURE_TILE = 0.0  # collect raw confidences; other problems still apply
        try:
            r = reader.read_rgb(scene.image)
        finally:
            reader.SURE_TILE = old
        min_conf = min((t.confidence for t in r.tiles), default=0.0)
        rows.append((r.total == truth, r.confident, min_conf, n_cut, scene.meta, r.problems))
    print(f"{args.n} photos in {time.time() - t0:.0f}s")
    ok = np.array([x[0] for x in rows])
    other_ok = np.array([x[1] for x in rows])  # confident apart from the tile threshold
    mc = np.array([x[2] for x in rows])
    print(f"exact total: {ok.mean():.1%}")
    for th in (0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9):
        conf = other_ok & (mc >= th)
        print(
            f"SURE_TILE {th:.2f}: confident {conf.mean():.1%}, confident but wrong "
            f"{(conf & ~ok).mean():.1%}, "
            f"right among confident {ok[conf].mean() if conf.any() else 0:.1%}"
        )
    bad = [(i, x) for i, x in enumerate(rows) if not x[0] and x[1] and x[2] >= 0.5]
    bad += [(i, x) for i, x in enumerate(rows) if not x[0] and not (x[1] and x[2] >= 0.5)]
    print("wrong photos:")
    for i, x in bad[:40]:
        print(
            f"  #{i} conf-ok={x[1]} min_conf={x[2]:.2f} cut={x[3]} meta={x[4]} problems={len(x[5])}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

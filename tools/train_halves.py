"""Train the double-15 half counter of scorekeeper.vision and export it to ONNX.

(``models/halves.onnx``, the counter of the sets up to double-12, 14 classes, which reads
every game of those sets, was made by this tool as it was at commit daf6f52, from the
renderer of then; this version makes ``models/halves15.onnx``, 17 classes, for double-15
games.)

Rerun (CPU only, fixed seed, one thread, about 20 minutes on one core of a shared machine):

    pip install "scorekeeper[photo]" torch==2.13.0 onnx
    python tools/train_halves.py

which writes ``scorekeeper/vision/models/halves15.onnx`` (under 1 MB). Options: ``--scenes``
(synthetic photos of the training mix to render, default 600), ``--scenes-15`` (more
photos of double-15 sets, default 200), ``--epochs`` (default 10), ``--seed`` (default
20240613), ``--out``.

The training data is made entirely by ``scorekeeper.vision.synth``: synthetic top-down photos
of random tiles: the renderer's training mix (double-6, 9 and 12 sets) and, so the counter
knows 13, 14 and 15 (columns of 5-3-5, 5-4-5, 5x3, smaller pips), photos of double-15 sets
(``render_hand(max_pip=15)``, random streams of their own). From each photo the halves are
cut exactly as the reader cuts them (``scorekeeper.vision.halves``), both from the true tile
outlines (with small random errors) and from the outlines the reader's own tile finder
proposes, so the counter learns the crops it will really see. Outlines that are not a tile
give examples of the class "not a half". No real photo is used.

The network is a small CNN: 40x40 RGB half -> 17 classes (0..15 pips, not a half).
torch is needed only here, never at run time (the reader uses ONNX Runtime).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.vision import detect, synth  # noqa: E402
from scorekeeper.vision.halves import (  # noqa: E402
    HALF_PX,
    NOT_A_HALF,
    NUM_CLASSES,
    CropSource,
    half_quads,
    normalise,
)


def _jitter(corners: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    c = np.asarray(corners, np.float64)
    W = np.linalg.norm(c[1] - c[0])
    centre = c.mean(axis=0)
    s = 1 + rng.normal(0, amount * 0.8)
    out = (c - centre) * s + centre + rng.normal(0, amount * W, 2)
    return out + rng.normal(0, amount * 0.6 * W, (4, 2))


def _match(cand: np.ndarray, truths) -> tuple[int, bool, float]:
    """Index of the true tile the candidate outlines, whether its end A is the truth's end A,
    and the mean corner error in tile widths (inf when none)."""
    best = (-1, True, np.inf)
    for i, t in enumerate(truths):
        W = np.linalg.norm(t.corners[1] - t.corners[0])
        for flip in (False, True):
            tc = t.corners[[2, 3, 0, 1]] if flip else t.corners
            for mirror in (False, True):
                cc = cand[[1, 0, 3, 2]] if mirror else cand
                err = float(np.mean(np.linalg.norm(cc - tc, axis=1)) / W)
                if err < best[2]:
                    best = (i, not flip, err)
    return best


def make_data(n_scenes: int, seed: int, first: int = 0, max_pip: int = 12):
    """The half crops and their classes of ``n_scenes`` photos (streams ``[seed, first..]``)
    of the training mix (``max_pip`` 12: sets of 6, 9 and 12) or of double-``max_pip`` sets."""
    xs: list[np.ndarray] = []
    ys: list[int] = []

    def add(src, corners, la, lb):
        qa, qb = half_quads(corners)
        xs.append(src.crop(qa))
        ys.append(la)
        xs.append(src.crop(qb))
        ys.append(lb)

    for i in range(first, first + n_scenes):
        rng = np.random.default_rng([seed, i])
        scene = synth.render_hand(rng, max_pip=max_pip)
        img = scene.image
        src = CropSource(img)
        h, w = img.shape[:2]
        good = [t for t in scene.tiles if t.visible > 0.995]
        for t in good:
            add(src, t.corners, t.a, t.b)
            for _ in range(2):
                add(src, _jitter(t.corners, rng, rng.uniform(0.01, 0.05)), t.a, t.b)
        # negatives: tile-sized outlines that are not a tile
        W = scene.meta["tile_width"]
        for _ in range(2):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if any(
                cv2.pointPolygonTest(t.corners.astype(np.float32), (cx, cy), True) > -W
                for t in scene.tiles
            ):
                continue
            ang = rng.uniform(0, np.pi)
            q = synth._tile_quad(cx, cy, ang, W, 2 * W)
            add(src, q, NOT_A_HALF, NOT_A_HALF)
        for t in good[:2]:  # an outline shifted by half a tile: a half straddling the bar
            c = t.corners
            shift = (c[3] - c[0]) * rng.choice([-0.5, 0.5]) * rng.uniform(0.8, 1.0)
            qa, qb = half_quads(c + shift)
            # only the half that now covers the bar region is "not a half"
            xs.append(src.crop(qa if shift @ (c[3] - c[0]) > 0 else qb))
            ys.append(NOT_A_HALF)
        # what the tile finder proposes
        s = min(1.0, detect.DETECT_SIDE / max(h, w))
        small = (
            cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
            if s < 1
            else img
        )
        for cand in detect.find_candidates(small):
            corners = cand.corners / s
            j, same, err = _match(corners, scene.tiles)
            if j >= 0 and err < 0.12:
                t = scene.tiles[j]
                if t.visible > 0.995:
                    la, lb = (t.a, t.b) if same else (t.b, t.a)
                    add(src, corners, la, lb)
            elif err > 0.45:
                add(src, corners, NOT_A_HALF, NOT_A_HALF)
        if (i - first + 1) % 100 == 0:
            print(f"  scenes {i - first + 1}/{n_scenes}, crops {len(xs)}", flush=True)
    return np.stack(xs).astype(np.uint8), np.array(ys, np.int64)


def _joined(*parts):
    """The crops and classes of several ``make_data`` runs, one after the other."""
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def build_model():
    import torch.nn as nn

    def block(i, o, s):
        return [
            nn.Conv2d(i, o, 3, stride=s, padding=1, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU(inplace=True),
        ]

    return nn.Sequential(
        *block(3, 16, 1),
        *block(16, 24, 2),  # 20
        *block(24, 32, 1),
        *block(32, 48, 2),  # 10
        *block(48, 64, 1),
        *block(64, 64, 2),  # 5
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(64 * 25, NUM_CLASSES),
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", type=int, default=600)
    ap.add_argument("--scenes-15", type=int, default=200)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=20240613)
    ap.add_argument("--out", default=str(ROOT / "scorekeeper/vision/models/halves15.onnx"))
    ap.add_argument("--cache", default="", help="optional .npz to reuse generated crops")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    cv2.setNumThreads(1)
    t0 = time.time()
    n_val = max(20, args.scenes // 10)
    if args.cache and Path(args.cache).exists():
        d = np.load(args.cache)
        xtr, ytr, xva, yva = d["xtr"], d["ytr"], d["xva"], d["yva"]
    else:
        print("rendering training scenes ...", flush=True)
        xtr, ytr = _joined(
            make_data(args.scenes - n_val, args.seed),
            make_data(args.scenes_15 - n_val // 3, args.seed, first=20_000_000, max_pip=15),
        )
        xva, yva = _joined(
            make_data(n_val, args.seed, first=10_000_000),
            make_data(n_val // 3, args.seed, first=30_000_000, max_pip=15),
        )
        if args.cache:
            np.savez_compressed(args.cache, xtr=xtr, ytr=ytr, xva=xva, yva=yva)
    print(
        f"data: {len(xtr)} train / {len(xva)} val crops, {time.time() - t0:.0f}s; "
        f"class counts {np.bincount(ytr, minlength=NUM_CLASSES).tolist()}",
        flush=True,
    )

    model = build_model()
    Xva = torch.from_numpy(normalise(xva))
    Yva = torch.from_numpy(yva)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    bs = 128
    steps = args.epochs * ((len(xtr) + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    rng = np.random.default_rng(args.seed)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    for ep in range(args.epochs):
        model.train()
        perm = rng.permutation(len(xtr))
        tl, n = 0.0, 0
        for k in range(0, len(perm), bs):
            idx = perm[k : k + bs]
            xb = xtr[idx].astype(np.float32)
            # augmentation: mirror, exposure and colour cast, noise
            flip = rng.random(len(idx)) < 0.5
            xb[flip] = xb[flip, :, ::-1]
            xb *= rng.uniform(0.75, 1.2, (len(idx), 1, 1, 1)) * rng.uniform(
                0.9, 1.1, (len(idx), 1, 1, 3)
            )
            xb += rng.normal(0, rng.uniform(0, 6), (len(idx), 1, 1, 1)) * rng.standard_normal(
                xb.shape
            )
            grey = rng.random(len(idx)) < 0.08  # some photos arrive in black and white
            xb[grey] = xb[grey].mean(axis=3, keepdims=True)
            x = torch.from_numpy(normalise(np.clip(xb, 0, 255)))
            y = torch.from_numpy(ytr[idx])
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            sched.step()
            tl += float(loss.detach()) * len(idx)
            n += len(idx)
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(Xva[k : k + 512]).argmax(1) for k in range(0, len(Xva), 512)])
        acc = float((pred == Yva).float().mean())
        acc_h = float((pred[Yva != NOT_A_HALF] == Yva[Yva != NOT_A_HALF]).float().mean())
        big = (Yva > 12) & (Yva != NOT_A_HALF)  # halves of 13-15 pips
        acc_15 = float((pred[big] == Yva[big]).float().mean()) if bool(big.any()) else 0.0
        print(
            f"epoch {ep + 1}/{args.epochs} loss {tl / n:.4f} val acc {acc:.4f} "
            f"(halves {acc_h:.4f}, of 13-15 pips {acc_15:.4f}) "
            f"{time.time() - t0:.0f}s",
            flush=True,
        )

    model.eval()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, HALF_PX, HALF_PX)
    torch.onnx.export(
        model,
        dummy,
        str(out),
        input_names=["input"],
        output_names=["logits"],
        dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB) in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

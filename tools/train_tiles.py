"""Train the tile finder of scorekeeper.vision (``tilenet``) and export it to ONNX.

Rerun (CPU only, fixed seed, about 35 minutes on this project's 2-core machine):

    pip install "scorekeeper[photo]" torch==2.13.0 onnx
    python tools/train_tiles.py

which writes ``scorekeeper/vision/models/tiles.onnx`` (about 0.5 MB). Options: ``--scenes``
(synthetic photos to render, default 4000), ``--epochs`` (default 14), ``--seed``,
``--workers`` (processes rendering, default 2), ``--out``.

What it learns: for every pixel of a photo brought to ``tilenet.NET_SIDE`` pixels on its long
side, two maps at half that size:

- *face*: the pixel lies on a tile's face (inside the tile's four corners);
- *core*: the pixel lies in the middle of a tile (its outline shrunk to ``tilenet.CORE_ACROSS``
  of its width and ``tilenet.CORE_ALONG`` of its length), so that tiles touching side by side
  or end to end are separate areas; the reader grows each area back into a tile's outline.

The training data is made entirely by ``scorekeeper.vision.synth``, with wide randomisation:
the renderer's training mix (every surface it draws: plain, wood, cloth, fibre, smooth, loose
and woven threads; glare, shadows, blur, JPEG; tilts of up to 30 degrees; rows, chains and
L-shaped chains; tiles cut by the frame; random tile and pip colours, spinners), and each
failure mode of issue 27 (dark pips on 9-12 halves, woven cloth with large tiles, touching rows
and chains with spinners, tilts of 30-45 degrees, 50 px tiles, near-empty tiles, light
surfaces), drawn from random streams of their own (``--seed``): no photo of the benchmark's
seeds, and no real photo, is used. torch is needed only here, never at run time (the reader
uses ONNX Runtime).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.vision import (  # noqa: E402
    synth,
    synth_modes,  # noqa: E402
    tilenet,
)

CROP = 192  # training crops of the photo at NET_SIDE (fully convolutional: any size at run time)
CROPS_PER_SCENE = 2
# what each rendered photo is: the training mix most often, each failure mode of issue 27 too
# (the modes models/tiles.onnx was trained on: not the double-15 mode added after it)
KINDS = ("mix", "mix", "mix_tilted", "mix_tilted", *synth_modes.FAILURE_MODES[1:12])


def _scene(seed: int, k: int) -> synth.Scene:
    rng = np.random.default_rng([seed, k])
    kind = KINDS[k % len(KINDS)]
    if kind == "mix":
        return synth.render_hand(rng, difficulty=float(rng.uniform(0.3, 1.3)))
    if kind == "mix_tilted":
        return synth.render_hand(
            rng,
            difficulty=float(rng.uniform(0.3, 1.0)),
            tilt_deg=float(rng.uniform(20, 48)),
            tile_width=float(rng.uniform(0.03, 0.2)),
        )
    return synth_modes.render_mode(rng, kind)


def _maps(seed: int, k: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Crops (CROP x CROP x 3) of one rendered photo at NET_SIDE and their maps (2 x CROP/2
    x CROP/2: face, core)."""
    scene = _scene(seed, k)
    img, f = tilenet.to_net(scene.image)
    h, w = img.shape[:2]
    o = 1.0 / tilenet.STRIDE
    face = np.zeros((2, (h + 1) // 2, (w + 1) // 2), np.uint8)
    for t in scene.tiles:
        q = np.asarray(t.corners, np.float64) * f * o
        cv2.fillPoly(face[0], [np.round(q * 8).astype(np.int32)], 1, cv2.LINE_8, shift=3)
        core = tilenet.core_of(q)
        cv2.fillPoly(face[1], [np.round(core * 8).astype(np.int32)], 1, cv2.LINE_8, shift=3)
    rng = np.random.default_rng([seed, k, 1])
    out = []
    for _ in range(CROPS_PER_SCENE):
        y = int(rng.integers(0, h - CROP + 1)) // 2 * 2
        x = int(rng.integers(0, w - CROP + 1)) // 2 * 2
        out.append(
            (
                img[y : y + CROP, x : x + CROP].copy(),
                face[:, y // 2 : (y + CROP) // 2, x // 2 : (x + CROP) // 2].copy(),
            )
        )
    return out


def _chunk(args):
    seed, ks = args
    return [m for k in ks for m in _maps(seed, k)]


def make_data(n_scenes: int, seed: int, workers: int):
    ks = list(range(n_scenes))
    parts = [(seed, ks[i :: workers * 8]) for i in range(workers * 8)]
    xs, ys = [], []
    with ProcessPoolExecutor(workers) as ex:
        for got in ex.map(_chunk, parts):
            for x, y in got:
                xs.append(x)
                ys.append(y)
    return np.stack(xs), np.stack(ys)


def build_model():
    import torch
    from torch import nn

    def conv(i, o, s=1, d=1, k=3):
        return nn.Sequential(
            nn.Conv2d(i, o, k, s, padding=d * (k // 2), dilation=d, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU(inplace=True),
        )

    class TileNet(nn.Module):
        """A small U-shaped network: 3 x H x W in (H, W multiples of 16), 2 x H/2 x W/2 out
        (logits of face and core). Each step up first mixes the two inputs with a 1 x 1
        convolution (cheap at the larger sizes)."""

        def __init__(self):
            super().__init__()
            self.e1 = conv(3, 16, 2)  # /2
            self.e2 = nn.Sequential(conv(16, 32, 2), conv(32, 32))  # /4
            self.e3 = nn.Sequential(conv(32, 48, 2), conv(48, 48))  # /8
            self.e4 = nn.Sequential(conv(48, 64, 2), conv(64, 64, d=2), conv(64, 64, d=4))  # /16
            self.d3 = nn.Sequential(conv(64 + 48, 48, k=1), conv(48, 48))
            self.d2 = nn.Sequential(conv(48 + 32, 32, k=1), conv(32, 32))
            self.d1 = nn.Sequential(conv(32 + 16, 16, k=1), conv(16, 16))
            self.head = nn.Conv2d(16, 2, 1)

        def forward(self, x):
            up = nn.functional.interpolate
            e1 = self.e1(x)
            e2 = self.e2(e1)
            e3 = self.e3(e2)
            e4 = self.e4(e3)
            d3 = self.d3(torch.cat([up(e4, scale_factor=2.0, mode="nearest"), e3], 1))
            d2 = self.d2(torch.cat([up(d3, scale_factor=2.0, mode="nearest"), e2], 1))
            d1 = self.d1(torch.cat([up(d2, scale_factor=2.0, mode="nearest"), e1], 1))
            return self.head(d1)

    return TileNet()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--data", help="keep the rendered crops in this .npz (made when missing)")
    ap.add_argument("--out", default=str(ROOT / "scorekeeper/vision/models/tiles.onnx"))
    args = ap.parse_args(argv)

    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, args.workers))
    t0 = time.time()
    if args.data and Path(args.data).exists():
        d = np.load(args.data)
        X, Y = d["x"], d["y"]
    else:
        X, Y = make_data(args.scenes, args.seed, args.workers)
        if args.data:
            np.savez(args.data, x=X, y=Y)
    print(f"{len(X)} crops from {args.scenes} photos in {time.time() - t0:.0f} s", flush=True)
    n_val = max(64, len(X) // 20)
    Xv, Yv = X[:n_val], Y[:n_val]
    Xt, Yt = X[n_val:], Y[n_val:]

    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * (len(Xt) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    bce = nn.BCEWithLogitsLoss()
    rng = np.random.default_rng(args.seed)

    def batch_tensors(xb, yb, train: bool):
        xb = xb.astype(np.float32)
        yb = yb.astype(np.float32)
        if train:
            # flips and quarter turns (a tile is a tile either way up), light and contrast
            if rng.random() < 0.5:
                xb, yb = xb[:, :, ::-1], yb[:, :, :, ::-1]
            if rng.random() < 0.5:
                xb, yb = xb[:, ::-1], yb[:, :, ::-1]
            if rng.random() < 0.5:
                xb, yb = xb.transpose(0, 2, 1, 3), yb.transpose(0, 1, 3, 2)
            gain = rng.uniform(0.6, 1.3, (len(xb), 1, 1, 1)).astype(np.float32)
            bias = rng.uniform(-30, 30, (len(xb), 1, 1, 1)).astype(np.float32)
            xb = np.clip(xb * gain + bias, 0, 255)
        x = torch.from_numpy(np.ascontiguousarray(tilenet.normalise(xb)))
        return x, torch.from_numpy(np.ascontiguousarray(yb))

    def loss_of(logits, y):
        p = torch.sigmoid(logits)
        inter = (p * y).sum((2, 3))
        dice = 1 - (2 * inter + 1) / (p.sum((2, 3)) + y.sum((2, 3)) + 1)
        return bce(logits, y) + dice.mean()

    step = 0
    for epoch in range(args.epochs):
        model.train()
        order = rng.permutation(len(Xt))
        total = 0.0
        for b in range(len(Xt) // args.batch):
            idx = np.sort(order[b * args.batch : (b + 1) * args.batch])
            x, y = batch_tensors(Xt[idx], Yt[idx], True)
            loss = loss_of(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item()
        model.eval()
        with torch.no_grad():
            ious = []
            for b in range(0, n_val, 64):
                x, y = batch_tensors(Xv[b : b + 64], Yv[b : b + 64], False)
                p = torch.sigmoid(model(x)) > 0.5
                yy = y > 0.5
                ious.append(
                    [
                        float((p[:, c] & yy[:, c]).sum())
                        / max(float((p[:, c] | yy[:, c]).sum()), 1)
                        for c in range(2)
                    ]
                )
            iou = np.mean(ious, axis=0)
        print(
            f"epoch {epoch + 1}/{args.epochs}: loss {total / max(b + 1, 1):.3f}, held-out IoU"
            f" face {iou[0]:.3f} core {iou[1]:.3f} ({time.time() - t0:.0f} s)",
            flush=True,
        )

    model.eval()
    dummy = torch.zeros(1, 3, 384, 512)
    torch.onnx.export(
        model,
        dummy,
        args.out,
        input_names=["input"],
        output_names=["maps"],
        dynamic_axes={"input": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "h2", 3: "w2"}},
        opset_version=17,
        dynamo=False,
    )
    print(f"wrote {args.out} ({Path(args.out).stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

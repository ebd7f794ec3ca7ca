"""How the two checks on the halves (``agree.py``: "pips", dark spots counted, and "pattern",
dark spots on a layout of the number) do on halves whose numbers are known.

    PYTHONPATH=. python tools/calibrate_pattern.py PHOTOS_DIR [--renders N] [--no-hands]
        [--max-pip M]

- the development set's half crops (PHOTOS_DIR/halves, ``halves[]`` of its manifest), each
  warped whole to the checks' square;
- the halves of the tiles read in its hand photos (no time limit) that are tiles of the truth,
  cut as the checks cut them;
- N rendered faces of each number 0-M (random styles of the renderer; 13-15 in a double-15
  set's style).

The pattern looks among the layouts of 0..M (``--max-pip``, default 15: every layout it
knows; 12 is what the reader does in a double-12 game, the real photos' sets).

For each: how many halves each check reads as the number, as "unknown", and as another
number, and the fits (``pattern.fits``) of the number against the best other one.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorekeeper.vision import agree, pattern  # noqa: E402
from scorekeeper.vision.halves import CropSource  # noqa: E402


def _whole(rgb: np.ndarray) -> np.ndarray:
    h, w = rgb.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    return CropSource(rgb).crop(corners, agree.BLOB_PX)


MAX_PIP = pattern.MAX_PIPS  # (--max-pip)


def _look(crop: np.ndarray) -> tuple[int, int, float, float]:
    """(dark spots, pattern number, overlap of the best layout, of the second number)"""
    mask, areas, large = agree.spot_mask(crop)
    a, b = round(agree.BLOB_INNER[0] * agree.BLOB_PX), round(agree.BLOB_INNER[1] * agree.BLOB_PX)
    best = pattern.fits(mask, areas, agree.BLOB_PX, (a, b), MAX_PIP)
    return agree.dark_spots(crop), pattern.pattern_number(best), best


def _tally(name: str, rows: list[tuple[int, tuple]]) -> None:
    n = len(rows)
    for k, label in ((0, "pips"), (1, "pattern")):
        right = sum(r[k] == t for t, r in rows)
        unknown = sum(r[k] == -1 for t, r in rows)
        print(
            f"{name:<22} {label:<8} right {right}/{n}  unknown {unknown}  "
            f"wrong {n - right - unknown}"
        )
    either = sum(r[0] == t or r[1] == t for t, r in rows)
    wrong_both = sum(r[0] not in (t, -1) and r[1] not in (t, -1) for t, r in rows)
    print(f"{name:<22} either right {either}/{n}; both a wrong number {wrong_both}")
    for t, r in rows:
        if r[1] != t:
            o = r[2]
            other = max(o[k] for k in range(len(o)) if k != t)
            print(
                f"    {t:>2}: spots {r[0]:>2} pattern {r[1]:>2} fit {o[t]:.2f} "
                f"best other {other:.2f}"
            )
    ok = [r[2][t] for t, r in rows if r[1] == t]
    gap = [r[2][t] - max(r[2][k] for k in range(len(r[2])) if k != t) for t, r in rows if r[1] == t]
    if ok:
        print(
            f"    right: fit min {min(ok):.2f} median {np.median(ok):.2f}; "
            f"lead min {min(gap):.2f} median {np.median(gap):.2f}"
        )


def half_crops(d: Path) -> list:
    rows = []
    for h in json.loads((d / "manifest.json").read_text())["halves"]:
        bgr = cv2.imread(str(d / h["file"]))
        rows.append((int(h["pips"]), _look(_whole(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)))))
    return rows


def hand_halves(d: Path) -> list:
    from scorekeeper.vision import reader
    from scorekeeper.vision.images import open_upright

    reader.TIME_BUDGET = None
    rows = []
    for hand in json.loads((d / "manifest.json").read_text())["hands"]:
        data = (d / hand["file"]).read_bytes()
        r = reader.read_bytes(data)
        up = open_upright(data, max_side=reader.CROP_SIDE)
        rgb = np.asarray(up.image)
        src = CropSource(rgb)
        f = rgb.shape[1] / up.full_size[0]
        left = [tuple(sorted(t)) for t in hand["tiles"]]
        for t in r.tiles:
            if tuple(sorted(t.halves)) not in left:
                continue
            left.remove(tuple(sorted(t.halves)))
            ca, cb = agree._crops(src, np.array(t.corners) * f)
            rows += [(int(t.halves[0]), _look(ca)), (int(t.halves[1]), _look(cb))]
    return rows


def rendered(n: int) -> list:
    from scorekeeper.vision.synth_faces import random_style, render_face

    rows = []
    for value in range(MAX_PIP + 1):
        for i in range(n):
            rng = np.random.default_rng([value, i, 7])
            style = random_style(rng, 12 if value <= 12 else 15)
            img, _ = render_face(value, 0, style, int(rng.integers(60, 160)), rng)
            face = np.clip(img, 0, 255).astype(np.uint8)
            L, W = face.shape[:2]
            corners = np.array([[0, 0], [W, 0], [W, L], [0, L]], float)
            ca, _ = agree._crops(CropSource(face), corners)
            rows.append((value, _look(ca)))
    return rows


if __name__ == "__main__":
    d = Path(sys.argv[1])
    n = int(sys.argv[sys.argv.index("--renders") + 1]) if "--renders" in sys.argv else 0
    if "--max-pip" in sys.argv:
        MAX_PIP = int(sys.argv[sys.argv.index("--max-pip") + 1])
    _tally("real half crops", half_crops(d))
    if "--no-hands" not in sys.argv:
        _tally("real tiles read", hand_halves(d))
    if n:
        _tally("rendered faces", rendered(n))

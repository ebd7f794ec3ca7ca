"""Calibrate the photo reader's "confident" flag on real labelled photos, and report it honestly.

    python tools/calibrate_vision.py DIR [--json OUT]

``DIR`` holds ``manifest.json`` in the format of ``python -m scorekeeper.vision.evaluate``
(the development photos). Every photo is read as it is and in a few harder versions made on
the fly (half the size, strong JPEG compression, blur, darker): more readings, and some wrong
ones, to calibrate against. Nothing is written to disk but the optional JSON.

A reading is confident when no blocking problem was found (``reader.BLOCKING``: tile cut off,
glare, tiles too small, something tile-like not read, surface the colour of the tiles) and
its least sure tile has a confidence of at least ``SURE_TILE``. A reading counts as right
only when its list of tiles is exactly the true one (so a missed double blank is wrong even
though its total is right).

The threshold is fitted as the smallest value at which, among the fitting photos (all
versions), no wrong tile is that sure and no confident reading is wrong, plus a margin.
Honest numbers come from leave-one-group-out: photos of the same tiles (the same hand shot
twice) form a group; for each group the threshold is fitted on all other groups and applied
to that group's photos, which the fit never saw. The printed table gives, on those held-out
photos, how many readings are confident and how many of those are wrong; the last line
gives the threshold fitted on all photos, the value to put in ``SURE_TILE``
(scorekeeper/vision/reader.py).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GRID = np.round(np.arange(0.30, 0.991, 0.01), 2)
MARGIN = 0.03
VARIANTS = ("original", "half size", "jpeg 30", "blurred", "dark")

# photos of the same tiles: held out together
SAME_TILES = [
    ("hand-petr0n-glare", "hand-petr0n-grass", "hand-petr0n-towel"),
    ("hand-jmherzog-1", "hand-jmherzog-8"),
    ("hand-jmherzog-5", "hand-jmherzog-6"),
    ("hand-jeremyarde-190416", "hand-jeremyarde-190419"),
]


def group_of(name: str) -> str:
    stem = Path(name).stem
    for n, members in enumerate(SAME_TILES):
        if stem in members:
            return f"same-tiles-{n}"
    return stem


def variant(data: bytes, kind: str) -> bytes:
    """The photo made harder (in memory only)."""
    if kind == "original":
        return data
    from PIL import Image, ImageEnhance, ImageFilter

    im = Image.open(io.BytesIO(data)).convert("RGB")
    if kind == "half size":
        im = im.resize((max(1, im.width // 2), max(1, im.height // 2)), Image.Resampling.LANCZOS)
    elif kind == "blurred":
        im = im.filter(ImageFilter.GaussianBlur(max(im.size) / 500))
    elif kind == "dark":
        im = ImageEnhance.Brightness(im).enhance(0.55)
    buf = io.BytesIO()
    im.save(buf, format="JPEG", quality=30 if kind == "jpeg 30" else 90)
    return buf.getvalue()


def collect(directory: Path) -> list[dict]:
    """Read every photo and variant once; keep what the rule needs."""
    from scorekeeper.vision import reader
    from scorekeeper.vision.images import open_upright

    manifest = json.loads((directory / "manifest.json").read_text())
    rows = []
    for hand in manifest["hands"]:
        data = (directory / hand["file"]).read_bytes()
        truth = sorted(tuple(sorted(map(int, t))) for t in hand["tiles"])
        for kind in VARIANTS:
            up = open_upright(variant(data, kind), max_side=reader.CROP_SIDE)
            dbg: dict = {}
            r = reader.read_rgb(
                np.asarray(up.image), scale=up.scale, full_size=up.full_size, debug=dbg
            )
            read = sorted(tuple(sorted(t.halves)) for t in r.tiles)
            # the tiles read that are not in the truth (of two alike, the less sure one)
            extra = Counter(read) - Counter(truth)
            wrong_conf = []
            for t in sorted(r.tiles, key=lambda t: t.confidence):
                key = tuple(sorted(t.halves))
                if extra[key] > 0:
                    extra[key] -= 1
                    wrong_conf.append(float(t.confidence))
            rows.append(
                {
                    "file": hand["file"],
                    "group": group_of(hand["file"]),
                    "variant": kind,
                    "side_view": "side view" in str(hand.get("conditions", "")).lower(),
                    "right": read == truth,
                    "total_right": sum(map(sum, read)) == sum(map(sum, truth)),
                    "score": float(dbg["score"]),
                    "wrong_tile_confidences": wrong_conf,
                    "blocked": any(dbg["flags"][f] for f in reader.BLOCKING),
                    "flags": [f for f, on in dbg["flags"].items() if on],
                }
            )
    return rows


def fit(rows: list[dict]) -> float:
    """The smallest threshold at which, among ``rows``, no wrong tile has that confidence
    and no confident reading is wrong; plus MARGIN."""
    for t in GRID:
        tile_wrong = any(c >= t for r in rows for c in r["wrong_tile_confidences"])
        photo_wrong = any(not r["right"] and not r["blocked"] and r["score"] >= t for r in rows)
        if not tile_wrong and not photo_wrong:
            return float(min(0.99, t + MARGIN))
    return 1.0


def confident(r: dict, t: float) -> bool:
    return not r["blocked"] and r["score"] >= t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--json", type=Path, help="write the readings and results here")
    ap.add_argument("--rows", type=Path, help="reuse readings from an earlier --json")
    args = ap.parse_args(argv)
    rows = json.loads(args.rows.read_text())["rows"] if args.rows else collect(args.directory)
    groups = sorted({r["group"] for r in rows})
    held = []
    for g in groups:
        t = fit([r for r in rows if r["group"] != g])
        for r in rows:
            if r["group"] == g:
                held.append({**r, "threshold": t, "confident": confident(r, t)})
    print(f"{len(rows)} readings of {len({r['file'] for r in rows})} photos, {len(groups)} groups")
    print("held-out results (threshold fitted without the photo's group):")
    print(f"{'':28} {'readings':>8} {'right':>6} {'confident':>9} {'conf. wrong':>11}")

    def line(name, sel):
        n = len(sel)
        right = sum(r["right"] for r in sel)
        conf = [r for r in sel if r["confident"]]
        wrong = sum(not r["right"] for r in conf)
        print(f"{name:28} {n:8d} {right:6d} {len(conf):9d} {wrong:11d}")
        return {"readings": n, "right": right, "confident": len(conf), "confident_wrong": wrong}

    table = {}
    top = [r for r in held if not r["side_view"]]
    table["top-down, as taken"] = line(
        "top-down, as taken", [r for r in top if r["variant"] == "original"]
    )
    for kind in VARIANTS[1:]:
        table[f"top-down, {kind}"] = line(
            f"top-down, {kind}", [r for r in top if r["variant"] == kind]
        )
    table["side views, all versions"] = line(
        "side views, all versions", [r for r in held if r["side_view"]]
    )
    table["all"] = line("all", held)
    ts = sorted({r["threshold"] for r in held})
    print(f"thresholds fitted per group: {', '.join(f'{t:.2f}' for t in ts)}")
    final = fit(rows)
    print(f"threshold fitted on all photos (SURE_TILE): {final:.2f}")
    blocked = [r for r in top if r["variant"] == "original" and r["blocked"]]
    if blocked:
        print("top-down photos (as taken) blocked by a problem:")
        for r in blocked:
            print(f"  {r['file']}: {', '.join(r['flags'])}")
    if args.json:
        args.json.write_text(
            json.dumps({"rows": rows, "held_out": held, "table": table, "final": final}, indent=1)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

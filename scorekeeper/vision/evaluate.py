"""Measure the reader on labelled photos.

    python -m scorekeeper.vision.evaluate DIR [--json OUT] [--halves]
    python -m scorekeeper.vision.evaluate --synthetic 200 [--seed 7]

``DIR`` holds ``manifest.json`` in the format of the development set (``hands[]`` with
``file``, ``tiles`` as [low, high] pairs and ``pip_total``). Prints, per photo, the tiles read
against the truth, then the exact-total rate, the within-3-pips rate, per-tile and per-half
accuracy, the rate of confident but wrong readings, seconds per photo and peak memory.
With ``--halves`` it also scores the half counter alone on ``halves[]`` crops.
``--synthetic N`` renders N synthetic photos instead (``scorekeeper.vision.synth``, tiles
cut off by the frame are not counted in the truth) and writes them with a manifest to a
temporary folder, which is how the confidence thresholds were calibrated.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections import Counter
from pathlib import Path


def _tile_key(t) -> tuple[int, int]:
    a, b = int(t[0]), int(t[1])
    return (min(a, b), max(a, b))


def match_tiles(truth: list[tuple[int, int]], read: list[tuple[int, int]]) -> tuple[int, int]:
    """(exact tiles matched, halves matched): greedy pairing of read tiles to true tiles,
    best pairs first; a pair's halves match as a multiset."""
    pairs = []
    for i, t in enumerate(truth):
        for j, r in enumerate(read):
            common = sum((Counter(t) & Counter(r)).values())
            pairs.append((-common, i, j))
    pairs.sort()
    used_t, used_r = set(), set()
    tiles = halves = 0
    for neg, i, j in pairs:
        if i in used_t or j in used_r:
            continue
        used_t.add(i)
        used_r.add(j)
        halves += -neg
        tiles += int(-neg == 2)
    return tiles, halves


def evaluate(directory: Path, out=None, halves: bool = False) -> dict:
    out = out or sys.stdout
    from scorekeeper.vision import read_hand

    manifest = json.loads((directory / "manifest.json").read_text())
    rows = []
    times = []
    for hand in manifest.get("hands", []):
        path = directory / hand["file"]
        data = path.read_bytes()
        truth = [_tile_key(t) for t in hand["tiles"]]
        true_total = int(hand.get("pip_total", sum(a + b for a, b in truth)))
        t0 = time.perf_counter()
        reading = read_hand(data, max_pip=int(hand.get("max_pip", 12)))
        dt = time.perf_counter() - t0
        times.append(dt)
        read = [_tile_key(t.halves) for t in reading.tiles]
        tiles_ok, halves_ok = match_tiles(truth, read)
        row = {
            "file": hand["file"],
            "truth": truth,
            "read": read,
            "true_total": true_total,
            "total": reading.total,
            "confident": reading.confident,
            "problems": reading.problems,
            "tiles_ok": tiles_ok,
            "halves_ok": halves_ok,
            "n_truth": len(truth),
            "n_read": len(read),
            "seconds": dt,
            "confidences": [round(t.confidence, 2) for t in reading.tiles],
        }
        rows.append(row)
        mark = "OK " if reading.total == true_total else "BAD"
        print(
            f"{mark} {hand['file']}: total {reading.total} (truth {true_total}), "
            f"{'confident' if reading.confident else 'not confident'}, {dt:.2f}s",
            file=out,
        )
        print(f"    truth: {' '.join(f'{a}|{b}' for a, b in sorted(truth))}", file=out)
        print(
            f"    read:  {' '.join(f'{a}|{b}' for a, b in sorted(read))}  "
            f"conf {row['confidences']}",
            file=out,
        )
        for p in reading.problems:
            print(f"    problem: {p}", file=out)
    n = max(1, len(rows))
    n_tiles = max(1, sum(r["n_truth"] for r in rows))
    summary = {
        "photos": len(rows),
        "exact_total_rate": sum(r["total"] == r["true_total"] for r in rows) / n,
        "within_3_rate": sum(abs(r["total"] - r["true_total"]) <= 3 for r in rows) / n,
        "tile_accuracy": sum(r["tiles_ok"] for r in rows) / n_tiles,
        "half_accuracy": sum(r["halves_ok"] for r in rows) / (2 * n_tiles),
        "extra_tiles": sum(max(0, r["n_read"] - r["n_truth"]) for r in rows),
        "missed_tiles": sum(max(0, r["n_truth"] - r["n_read"]) for r in rows),
        "confident_rate": sum(r["confident"] for r in rows) / n,
        "confident_wrong_rate": sum(r["confident"] and r["total"] != r["true_total"] for r in rows)
        / n,
        "seconds_per_photo": sum(times) / n,
        "max_seconds": max(times) if times else 0.0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    if halves and manifest.get("halves"):
        summary["half_crop_accuracy"] = _halves(directory, manifest["halves"])
    print("", file=out)
    print(f"photos:                 {summary['photos']}", file=out)
    print(f"exact total:            {summary['exact_total_rate']:.1%}", file=out)
    print(f"within 3 pips:          {summary['within_3_rate']:.1%}", file=out)
    print(
        f"tiles read exactly:     {summary['tile_accuracy']:.1%} "
        f"({summary['missed_tiles']} missed, {summary['extra_tiles']} extra)",
        file=out,
    )
    print(f"halves read exactly:    {summary['half_accuracy']:.1%}", file=out)
    print(f"confident:              {summary['confident_rate']:.1%}", file=out)
    print(f"confident but wrong:    {summary['confident_wrong_rate']:.1%}", file=out)
    print(
        f"seconds per photo:      {summary['seconds_per_photo']:.2f} "
        f"(max {summary['max_seconds']:.2f})",
        file=out,
    )
    print(f"peak memory (RSS):      {summary['peak_rss_mb']:.0f} MB", file=out)
    if "half_crop_accuracy" in summary:
        print(f"half crops (counter):   {summary['half_crop_accuracy']:.1%}", file=out)
    return {"summary": summary, "photos": rows}


def _halves(directory: Path, items) -> float:
    """Score the half counter alone on single-half crops (bar at the top or the bottom: the
    more confident of the two orientations is taken)."""
    import numpy as np
    from PIL import Image

    from scorekeeper.vision.halves import HALF_PX, NOT_A_HALF
    from scorekeeper.vision.reader import classify_halves

    ok = 0
    for item in items:
        im = Image.open(directory / item["file"]).convert("RGB").resize((HALF_PX, HALF_PX))
        a = np.asarray(im)
        p = classify_halves(np.stack([a, a[::-1, ::-1]]))[:, :NOT_A_HALF]
        k = int(np.argmax(p.max(axis=1)))
        ok += int(np.argmax(p[k]) == int(item["pips"]))
    return ok / max(1, len(items))


def write_synthetic(directory: Path, n: int, seed: int, difficulty: float = 1.0) -> Path:
    """Render ``n`` synthetic photos with a manifest into ``directory``."""
    import numpy as np

    from scorekeeper.vision import synth

    directory.mkdir(parents=True, exist_ok=True)
    hands = []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        scene = synth.render_hand(rng, difficulty=difficulty)
        name = f"synth-{seed}-{i:04d}.jpg"
        (directory / name).write_bytes(scene.jpeg or synth.encode_png(scene.image))
        tiles = [sorted((t.a, t.b)) for t in scene.tiles if t.visible > 0.995]
        hands.append(
            {
                "file": name,
                "tiles": tiles,
                "pip_total": sum(a + b for a, b in tiles),
                "partial_tiles": [[t.a, t.b] for t in scene.tiles if t.visible <= 0.995],
                "conditions": json.dumps(
                    {k: v for k, v in scene.meta.items() if k != "tile_width"}
                ),
            }
        )
    (directory / "manifest.json").write_text(
        json.dumps({"about": "synthetic", "hands": hands}, indent=1)
    )
    return directory


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m scorekeeper.vision.evaluate", description=__doc__.split("\n")[0]
    )
    ap.add_argument("directory", type=Path, nargs="?")
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    ap.add_argument("--halves", action="store_true", help="also score the half counter on halves[]")
    ap.add_argument(
        "--synthetic", type=int, default=0, help="render this many synthetic photos instead"
    )
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    if args.synthetic:
        import tempfile

        target = args.directory or Path(tempfile.mkdtemp(prefix="vision-synth-"))
        write_synthetic(target, args.synthetic, args.seed)
        args.directory = target
    if args.directory is None:
        ap.error("give a folder with manifest.json, or --synthetic N")
    result = evaluate(args.directory, halves=args.halves)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

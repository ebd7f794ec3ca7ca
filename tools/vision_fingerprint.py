"""What the photo reader reads, photo by photo, to compare two versions of it.

    PYTHONPATH=TREE python tools/vision_fingerprint.py OUT.json DIR [DIR ...]
    python tools/vision_fingerprint.py --compare A.json B.json
    python tools/vision_fingerprint.py --score OUT.json DIR [DIR ...]

Reads every photo of each DIR/manifest.json with no time limit (one thread) and writes, per
photo, the whole reading (tiles, confidences, corners, problems, checks, sureness) and its
process CPU time, plus the CPU time of a fixed workload (``_yardstick``: the same numpy and
OpenCV work every run) measured before and after, so that CPU figures taken on a loaded
machine can be compared as a ratio to it. ``--compare`` lists the photos whose readings
differ and the CPU of both runs, each also divided by its run's yardstick. ``--score``
scores the readings of OUT.json against each DIR's manifest: per folder, exact totals, sure
readings and sure ones that are wrong, and the reliability table (how often a tile read at
each confidence is a tile of the truth, and a total read sure or not is right).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


def _yardstick() -> float:
    """CPU seconds of a fixed piece of image work (blurs, resizes, a sort)."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (1500, 2000, 3), dtype=np.uint8)
    c0 = time.process_time()
    for _ in range(6):
        g = cv2.GaussianBlur(img, (9, 9), 2.0)
        s = cv2.resize(g, (1280, 960), interpolation=cv2.INTER_AREA)
        np.sort(s.reshape(-1)[:400_000])
        cv2.cvtColor(s, cv2.COLOR_RGB2LAB)
    return time.process_time() - c0


def run(out: Path, dirs: list[Path]) -> None:
    from scorekeeper.vision import reader

    reader.TIME_BUDGET = None
    yard = [_yardstick()]
    photos = {}
    first = True
    for d in dirs:
        for hand in json.loads((d / "manifest.json").read_text())["hands"]:
            data = (d / hand["file"]).read_bytes()
            if first:  # the model loaded and OpenCV warm before timing
                reader.read_bytes(data)
                first = False
            c0 = time.process_time()
            r = reader.read_bytes(data)
            cpu = time.process_time() - c0
            key = f"{d.name}/{hand['file']}"
            photos[key] = {"reading": r.as_dict(), "cpu": cpu}
            print(f"{key}: {cpu:.2f}s total {r.total} sure {r.confident}", flush=True)
    yard.append(_yardstick())
    out.write_text(json.dumps({"yardstick": yard, "photos": photos}, indent=1))


def compare(a: Path, b: Path) -> int:
    ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
    ya, yb = (sum(j["yardstick"]) / len(j["yardstick"]) for j in (ja, jb))
    differ = 0
    print(f"yardstick: {ya:.2f}s / {yb:.2f}s")
    print(f"{'photo':<40} {'cpu A':>6} {'cpu B':>6} {'A/yard':>7} {'B/yard':>7}  same")
    for key, pa in ja["photos"].items():
        pb = jb["photos"].get(key)
        same = pb is not None and pa["reading"] == pb["reading"]
        differ += not same
        cb = pb["cpu"] if pb else float("nan")
        print(
            f"{key:<40} {pa['cpu']:>6.2f} {cb:>6.2f} {pa['cpu'] / ya:>7.2f} {cb / yb:>7.2f}  "
            f"{'yes' if same else 'NO'}"
        )
    ta = sum(p["cpu"] for p in ja["photos"].values())
    tb = sum(p["cpu"] for k, p in jb["photos"].items() if k in ja["photos"])
    print(f"total CPU {ta:.1f}s / {tb:.1f}s; per yardstick {ta / ya:.1f} / {tb / yb:.1f}")
    print(f"{differ} of {len(ja['photos'])} readings differ")
    return 1 if differ else 0


BINS = (0.0, 0.3, 0.52, 0.8, 0.95, 1.01)


def score(fp: Path, dirs: list[Path]) -> None:
    photos = json.loads(fp.read_text())["photos"]
    tiles_by_bin: dict[int, list[int]] = {}
    for d in dirs:
        n = exact = sure = sure_wrong = unsure_right = 0
        cpu = []
        for hand in json.loads((d / "manifest.json").read_text())["hands"]:
            got = photos.get(f"{d.name}/{hand['file']}")
            if got is None:
                continue
            r = got["reading"]
            cpu.append(got["cpu"])
            truth = [tuple(sorted(t)) for t in hand["tiles"]]
            right = r["total"] == hand["pip_total"] and not r["unreadable"]
            n += 1
            exact += right
            sure += r["confident"]
            sure_wrong += r["confident"] and not right
            unsure_right += right and not r["confident"]
            left = list(truth)
            for t in r["tiles"]:
                k = tuple(t["tile"])
                ok = k in left
                if ok:
                    left.remove(k)
                b = next(i for i in range(len(BINS) - 1) if t["confidence"] < BINS[i + 1])
                tiles_by_bin.setdefault(b, [0, 0])
                tiles_by_bin[b][0] += ok
                tiles_by_bin[b][1] += 1
        print(
            f"{d.name:<14} exact {exact}/{n}  sure {sure} (wrong {sure_wrong})  "
            f"not sure but right {unsure_right}/{n - sure}  CPU worst {max(cpu):.2f}s "
            f"mean {sum(cpu) / len(cpu):.2f}s"
        )
    for b in sorted(tiles_by_bin):
        ok, tot = tiles_by_bin[b]
        print(f"tile confidence {BINS[b]:.2f}-{BINS[b + 1]:.2f}: {ok}/{tot} right")


if __name__ == "__main__":
    if sys.argv[1] == "--score":
        score(Path(sys.argv[2]), [Path(p) for p in sys.argv[3:]])
        raise SystemExit(0)
    if sys.argv[1] == "--compare":
        raise SystemExit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    run(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]])

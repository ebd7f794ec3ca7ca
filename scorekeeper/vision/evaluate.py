"""Measure the reader on labelled photos.

    python -m scorekeeper.vision.evaluate DIR [--overlays OUT_DIR] [--json OUT] [--halves]
    python -m scorekeeper.vision.evaluate --synthetic 200 [--seed 7]
    python -m scorekeeper.vision.evaluate --synthetic-modes 20 [--seed 7] [--baseline REF]

``DIR`` holds ``manifest.json`` in the format of the development set (``hands[]`` with
``file``, ``tiles`` as [low, high] pairs and ``pip_total``). Prints, per photo, the tiles read
against the truth, whether the reading was confident and its CPU time, then for all photos
and separately for photos taken from above and side views: exact totals (and exact tile
lists), tiles and halves read, confident readings and confident-but-wrong ones, CPU seconds
per photo (mean and worst), photos given up on (time budget), and the peak memory of the
process. ``--overlays`` writes each photo with its tiles outlined and labelled as a PNG.
With ``--halves`` it also scores the half counter alone on ``halves[]`` crops.
``--synthetic N`` renders N synthetic photos instead (``scorekeeper.vision.synth``, tiles
cut off by the frame are not counted in the truth) and writes them with a manifest to a
temporary folder, which is how the confidence thresholds were calibrated.
``--synthetic-modes N`` renders N photos of each failure mode seen at real tables
(``synth_modes.FAILURE_MODES``: dark pips on 9-12 halves, woven dark cloth with a few large tiles,
touching rows and L-shaped chains with spinner pins, tilts of 30-45 degrees, tiles 50 px wide,
near-empty tiles, light surfaces, the training mix, and issue 40's large touching spreads,
double-12 and double-15 sets with coloured pips, dark cloth under glare and busy
backgrounds; each photo read in its set, ``max_pip`` in the manifest) and prints
one row per mode: exact totals, confident, confident but wrong, worst CPU seconds per photo
and peak memory. Each mode is read in a process of its own (so its peak memory is its own);
with ``--baseline REF`` the same photos are read first by the reader of git revision REF
(extracted with ``git archive``), a row of it above each row of this one.
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


def _is_side_view(hand: dict) -> bool:
    return "side view" in str(hand.get("conditions", "")).lower()


def _peak_rss_mb() -> float:
    """The most memory this program held at once. Linux's VmHWM counts from the program's own
    start; ``ru_maxrss`` would also count the process it was started from (a test run of 500 MB
    that forks the evaluation), because Linux carries it across ``exec``."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _summary(rows: list[dict]) -> dict:
    n = len(rows)
    d = max(1, n)
    n_tiles = max(1, sum(r["n_truth"] for r in rows))
    conf = [r for r in rows if r["confident"]]
    return {
        "photos": n,
        "exact_total": sum(r["total_ok"] for r in rows),
        "exact_total_rate": sum(r["total_ok"] for r in rows) / d,
        "exact_tiles": sum(r["tiles_exact"] for r in rows),
        "within_3_rate": sum(abs(r["total"] - r["true_total"]) <= 3 for r in rows) / d,
        "tiles_ok": sum(r["tiles_ok"] for r in rows),
        "tiles_truth": sum(r["n_truth"] for r in rows),
        "tile_accuracy": sum(r["tiles_ok"] for r in rows) / n_tiles,
        "half_accuracy": sum(r["halves_ok"] for r in rows) / (2 * n_tiles),
        "extra_tiles": sum(max(0, r["n_read"] - r["n_truth"]) for r in rows),
        "missed_tiles": sum(max(0, r["n_truth"] - r["n_read"]) for r in rows),
        "confident": len(conf),
        "confident_rate": len(conf) / d,
        "confident_wrong_total": sum(not r["total_ok"] for r in conf),
        "confident_wrong_tiles": sum(not r["tiles_exact"] for r in conf),
        "unreadable": sum(r["unreadable"] for r in rows),
        "cpu_mean": sum(r["cpu"] for r in rows) / d,
        "cpu_max": max((r["cpu"] for r in rows), default=0.0),
        "wall_max": max((r["seconds"] for r in rows), default=0.0),
    }


def _print_summary(name: str, sm: dict, out) -> None:
    n = sm["photos"]
    print(f"\n{name} ({n} photos)", file=out)
    if not n:
        return
    print(
        f"  exact total:           {sm['exact_total']}/{n} ({sm['exact_total_rate']:.0%}); "
        f"exact tiles {sm['exact_tiles']}/{n}; within 3 pips {sm['within_3_rate']:.0%}",
        file=out,
    )
    print(
        f"  tiles read exactly:    {sm['tiles_ok']}/{sm['tiles_truth']} "
        f"({sm['tile_accuracy']:.0%}; {sm['missed_tiles']} missed, {sm['extra_tiles']} extra); "
        f"halves {sm['half_accuracy']:.0%}",
        file=out,
    )
    print(
        f"  confident:             {sm['confident']}/{n} ({sm['confident_rate']:.0%}); "
        f"confident but wrong: total {sm['confident_wrong_total']}, "
        f"tiles {sm['confident_wrong_tiles']}",
        file=out,
    )
    print(
        f"  CPU per photo:         mean {sm['cpu_mean']:.2f} s, max {sm['cpu_max']:.2f} s "
        f"(wall max {sm['wall_max']:.2f} s); could not read (time budget): {sm['unreadable']}",
        file=out,
    )


def evaluate(
    directory: Path,
    out=None,
    halves: bool = False,
    overlays: Path | None = None,
    only: str | None = None,
) -> dict:
    """Read every photo of ``directory``/manifest.json and score the readings; with
    ``overlays`` also write a PNG per photo there (tiles outlined and labelled)."""
    out = out or sys.stdout
    from scorekeeper.vision import read_hand

    manifest = json.loads((directory / "manifest.json").read_text())
    hands = [h for h in manifest.get("hands", []) if not only or only in h["file"]]
    if hands:  # load the model before timing
        read_hand((directory / hands[0]["file"]).read_bytes())
    rows = []
    for hand in hands:
        path = directory / hand["file"]
        data = path.read_bytes()
        truth = [_tile_key(t) for t in hand["tiles"]]
        true_total = int(hand.get("pip_total", sum(a + b for a, b in truth)))
        c0, t0 = time.process_time(), time.perf_counter()
        reading = read_hand(data, max_pip=int(hand.get("max_pip", 12)))
        cpu, dt = time.process_time() - c0, time.perf_counter() - t0
        read = [_tile_key(t.halves) for t in reading.tiles]
        tiles_ok, halves_ok = match_tiles(truth, read)
        row = {
            "file": hand["file"],
            "side_view": _is_side_view(hand),
            "truth": truth,
            "read": read,
            "true_total": true_total,
            "total": reading.total,
            "total_ok": reading.total == true_total,
            "tiles_exact": sorted(read) == sorted(truth),
            "confident": reading.confident,
            "unreadable": reading.unreadable,
            "problems": [str(p) for p in reading.problems],
            "tiles_ok": tiles_ok,
            "halves_ok": halves_ok,
            "n_truth": len(truth),
            "n_read": len(read),
            "seconds": dt,
            "cpu": cpu,
            "confidences": [round(t.confidence, 2) for t in reading.tiles],
        }
        rows.append(row)
        _print_row(row, reading, out)
        if overlays is not None:
            _write_overlay(overlays, hand["file"], data, reading, row)
    top = [r for r in rows if not r["side_view"]]
    side = [r for r in rows if r["side_view"]]
    summary = {"all": _summary(rows), "top_down": _summary(top), "side_view": _summary(side)}
    summary["peak_rss_mb"] = _peak_rss_mb()
    if halves and manifest.get("halves"):
        summary["half_crop_accuracy"] = _halves(directory, manifest["halves"])
    _print_summaries(summary, bool(top and side), overlays, out)
    return {"summary": summary, "photos": rows}


def _print_row(row: dict, reading, out) -> None:
    """One photo's line: its total against the truth, then the tiles and problems."""
    mark = "OK " if row["total_ok"] else "BAD"
    print(
        f"{mark} {row['file']}: total {reading.total} (truth {row['true_total']}), "
        f"{'confident' if reading.confident else 'not confident'}, "
        f"CPU {row['cpu']:.2f}s (wall {row['seconds']:.2f}s)",
        file=out,
    )
    print(f"    truth: {' '.join(f'{a}|{b}' for a, b in sorted(row['truth']))}", file=out)
    print(
        f"    read:  {' '.join(f'{a}|{b}' for a, b in sorted(row['read']))}  "
        f"conf {row['confidences']}",
        file=out,
    )
    for p in reading.problems:
        print(f"    problem: {p}", file=out)


def _print_summaries(summary: dict, both: bool, overlays: Path | None, out) -> None:
    """The summary of all photos (and, with ``both``, of those from above and the side
    views apart), peak memory and what 'confident' means."""
    _print_summary("all photos", summary["all"], out)
    if both:
        _print_summary("taken from above", summary["top_down"], out)
        _print_summary("side views (tiles standing on edge)", summary["side_view"], out)
    print(f"\npeak memory of the process (RSS): {summary['peak_rss_mb']:.0f} MB", file=out)
    from scorekeeper.vision.reader import SURE_TILE

    print(
        f"'confident' uses SURE_TILE = {SURE_TILE}, fitted on the real development photos: "
        "for numbers on photos not used for fitting, run "
        "python tools/calibrate_vision.py DIR (leave-one-group-out)",
        file=out,
    )
    if "half_crop_accuracy" in summary:
        print(f"half crops (counter alone): {summary['half_crop_accuracy']:.1%}", file=out)
    if overlays is not None:
        print(f"overlays: {overlays}/", file=out)


def _write_overlay(folder: Path, name: str, data: bytes, reading, row: dict) -> None:
    import numpy as np
    from PIL import Image

    from scorekeeper.vision.images import open_upright
    from scorekeeper.vision.overlay import draw_overlay

    folder.mkdir(parents=True, exist_ok=True)
    up = open_upright(data, max_side=1200)
    title = (
        f"{'OK' if row['total_ok'] else 'WRONG'}: read {reading.total}, truth "
        f"{row['true_total']}; {row['n_read']}/{row['n_truth']} tiles; "
        + ("CONFIDENT" if reading.confident else "not confident")
        + (" (could not read)" if reading.unreadable else "")
    )
    img = draw_overlay(np.asarray(up.image), reading, up.scale, title=title)
    Image.fromarray(img).save(folder / (Path(name).stem + ".png"))


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


def write_modes(directory: Path, n: int, seed: int) -> list[str]:
    """Render ``n`` photos of each failure mode into ``directory``/MODE with a manifest."""
    from scorekeeper.vision import synth_modes

    for mode in synth_modes.FAILURE_MODES:
        folder = directory / mode
        folder.mkdir(parents=True, exist_ok=True)
        hands = []
        for i in range(n):
            scene = synth_modes.benchmark_scene(mode, i, seed)
            name = f"{mode}-{i:03d}.jpg"
            if scene.jpeg is None:
                ok, buf = _jpeg(scene.image)
                scene.jpeg = buf
            (folder / name).write_bytes(scene.jpeg)
            tiles = [sorted((t.a, t.b)) for t in scene.tiles]
            hands.append({"file": name, "tiles": tiles, "pip_total": sum(a + b for a, b in tiles)})
            hands[-1]["max_pip"] = synth_modes.MODE_MAX_PIP.get(mode, 12)
        (folder / "manifest.json").write_text(json.dumps({"about": mode, "hands": hands}))
    return list(synth_modes.FAILURE_MODES)


def _jpeg(rgb) -> tuple[bool, bytes]:
    import cv2

    ok, buf = cv2.imencode(
        ".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90]
    )
    return ok, buf.tobytes()


def _read_folder(root: Path, folder: Path, out_json: Path) -> dict:
    """Evaluate ``folder`` with the reader of the source tree ``root``, in a process of its
    own (one thread), and return its summary."""
    import os
    import subprocess

    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=str(root))
    log = out_json.with_suffix(".log")
    with log.open("w") as fh:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "scorekeeper.vision.evaluate",
                str(folder),
                "--json",
                str(out_json),
            ],
            cwd=root,
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
            check=True,
        )
    return json.loads(out_json.read_text())


def _baseline_tree(ref: str, target: Path) -> Path:
    """The source tree of git revision ``ref`` (its ``scorekeeper`` package) in ``target``."""
    import io
    import subprocess
    import tarfile

    here = Path(__file__).resolve().parents[2]
    data = subprocess.run(
        ["git", "archive", "--format=tar", ref, "scorekeeper"],
        cwd=here,
        capture_output=True,
        check=True,
    ).stdout
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    return target


def synthetic_modes(n: int, seed: int, baseline: str | None = None, out=None, keep=None) -> dict:
    """The failure-mode benchmark: one row per mode (and per reader with ``baseline``)."""
    import tempfile

    out = out or sys.stdout
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="vision-modes-"))
    modes = write_modes(work / "photos", n, seed)
    here = Path(__file__).resolve().parents[2]
    readers = [("now", here)]
    if baseline:
        readers.insert(0, (baseline, _baseline_tree(baseline, work / "baseline")))
    header = (
        f"{'mode':<14} {'reader':<10} {'exact':>7} {'tiles':>9} {'confident':>9} "
        f"{'conf.wrong':>10} {'CPU max':>8} {'CPU mean':>8} {'peak MB':>8}"
    )
    print(f"synthetic failure modes, {n} photos each (seed {seed}): {work}", file=out)
    print(header, file=out)
    results: dict = {}
    for mode in modes:
        for name, root in readers:
            res = _read_folder(root, work / "photos" / mode, work / f"{mode}-{name}.json")
            sm = res["summary"]["all"]
            row = {
                "exact": sm["exact_total"],
                "photos": sm["photos"],
                "tiles_ok": sm["tiles_ok"],
                "tiles_truth": sm["tiles_truth"],
                "confident": sm["confident"],
                "confident_wrong": sm["confident_wrong_total"],
                "cpu_max": sm["cpu_max"],
                "cpu_mean": sm["cpu_mean"],
                "peak_mb": res["summary"]["peak_rss_mb"],
            }
            results.setdefault(mode, {})[name] = row
            print(
                f"{mode:<14} {name[:10]:<10} {row['exact']:>3}/{row['photos']:<3} "
                f"{row['tiles_ok']:>4}/{row['tiles_truth']:<4} {row['confident']:>9} "
                f"{row['confident_wrong']:>10} {row['cpu_max']:>7.2f}s {row['cpu_mean']:>7.2f}s "
                f"{row['peak_mb']:>8.0f}",
                file=out,
                flush=True,
            )
    return results


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
    ap.add_argument(
        "--synthetic-modes",
        type=int,
        default=0,
        metavar="N",
        help="benchmark N synthetic photos of each failure mode (synth_modes.FAILURE_MODES)",
    )
    ap.add_argument(
        "--baseline", help="with --synthetic-modes: also read them with git revision REF first"
    )
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--overlays", type=Path, help="write a PNG per photo to this folder")
    ap.add_argument("--only", help="only photos whose file name contains this")
    ap.add_argument(
        "--no-time-limit",
        action="store_true",
        help="read every photo to the end (what the reader can read, whatever the machine's speed)",
    )
    args = ap.parse_args(argv)
    if args.no_time_limit:
        from scorekeeper.vision import reader

        reader.TIME_BUDGET = None
    if args.synthetic_modes:
        result = synthetic_modes(
            args.synthetic_modes, args.seed, args.baseline, keep=args.directory
        )
        if args.json:
            args.json.write_text(json.dumps(result, indent=2))
        return 0
    if args.synthetic:
        import tempfile

        target = args.directory or Path(tempfile.mkdtemp(prefix="vision-synth-"))
        write_synthetic(target, args.synthetic, args.seed)
        args.directory = target
    if args.directory is None:
        ap.error("give a folder with manifest.json, or --synthetic N")
    result = evaluate(args.directory, halves=args.halves, overlays=args.overlays, only=args.only)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

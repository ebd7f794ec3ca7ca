"""Benchmark of the photo reader (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_photo.py [--dir PHOTOS] [--repeat 1]

Renders 12-megapixel synthetic photos (4032 x 3024 JPEGs, fixed seeds) of a hand of tiles
on every kind of surface, including the worst case for the tile finder: a coarse weave of
thousands of thin dark threads. For each it prints the CPU time of ``read_hand`` (process
time, decoding included), the wall time, the tiles found and whether the reader gave up
(time budget). Next to it, the baseline measured in the same run: decoding the same JPEG
with Pillow alone (what any upload costs). ``--dir`` adds the photos of a folder with a
``manifest.json`` (the development photos). Ends with the worst CPU time and the peak memory
(RSS) of the process.
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from scorekeeper.vision import read_hand, synth  # noqa: E402
from scorekeeper.vision.reader import TIME_BUDGET  # noqa: E402

SURFACES = ("plain", "smooth", "wood", "cloth", "fibre", "threads")


def _decode(data: bytes) -> None:
    with Image.open(io.BytesIO(data)) as im:
        im.load()


def _cpu(fn, data: bytes, repeat: int) -> tuple[float, float, object]:
    cpu, wall, out = [], [], None
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn(data)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), out


def render(folder: Path) -> None:
    """Write the synthetic photos (run in a child process, so that rendering, which needs
    far more memory than reading, does not count in the peak memory printed)."""
    folder.mkdir(parents=True, exist_ok=True)
    for n, surface in enumerate(SURFACES):
        for k in range(2):
            rng = np.random.default_rng([20261123, n, k])
            scene = synth.render_hand(
                rng,
                size=(4032, 3024),
                surface=surface,
                difficulty=0.5,
                allow_cut=False,
                jpeg_quality=90,
            )
            name = f"12 MP {surface} #{k + 1} ({len(scene.tiles)} tiles)"
            (folder / f"{n}-{k}.jpg").write_bytes(scene.jpeg)
            (folder / f"{n}-{k}.txt").write_text(name)


def _photos(folder: Path | None) -> list[tuple[str, bytes]]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, __file__, "--render", tmp], check=True)
        photos = [
            (p.with_suffix(".txt").read_text(), p.read_bytes())
            for p in sorted(Path(tmp).glob("*.jpg"))
        ]
    if folder is not None:
        manifest = json.loads((folder / "manifest.json").read_text())
        for hand in manifest.get("hands", []):
            photos.append((hand["file"], (folder / hand["file"]).read_bytes()))
    return photos


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", type=Path, help="also read the photos of this folder")
    ap.add_argument("--repeat", type=int, default=1, help="runs per photo (median)")
    ap.add_argument("--render", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.render:
        render(args.render)
        return 0
    photos = _photos(args.dir)
    read_hand(photos[0][1])  # load the model first
    print(f"time budget per photo: {TIME_BUDGET:.2f} s CPU")
    print(f"{'photo':44} {'decode only':>11} {'read CPU':>9} {'read wall':>9}  result")
    worst = 0.0
    for name, data in photos:
        base, _, _ = _cpu(_decode, data, args.repeat)
        cpu, wall, reading = _cpu(read_hand, data, args.repeat)
        worst = max(worst, cpu)
        result = "gave up (could not read)" if reading.unreadable else f"{len(reading.tiles)} tiles"
        print(f"{name[:44]:44} {base:10.2f}s {cpu:8.2f}s {wall:8.2f}s  {result}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"worst CPU time per photo: {worst:.2f} s; peak memory (RSS): {rss:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How often a reading of each sureness is right, and which checks the sure ones passed, for
choosing the rule that makes a reading sure (issue 40).

    PYTHONPATH=. python tools/vision_reliability.py render OUT_DIR SEED N
    PYTHONPATH=. python tools/vision_reliability.py read OUT.json DIR [DIR ...]
    python tools/vision_reliability.py score OUT.json DIR [DIR ...]

``render`` writes N photos of every render mode (``synth_modes.FAILURE_MODES``) into
OUT_DIR/MODE with a manifest. ``read`` reads every photo of each DIR/manifest.json with no
time limit and with every rule of the checks lifted (``agree.vouch`` always yes), so each
reading the other rules would make sure is "confident" and lists every check that agreed
with it (``pips``, ``pattern``, ``finder``), and keeps each half's value read, dark spots
and pattern number (``agree.look_at_halves``). ``score`` then scores each rule in ``RULES``
against the manifests: readings sure and right, sure and wrong, not sure and right; per
folder exact and sure (wrong); which checks the sure readings passed; the tiles' confidence
bands; and, each of those readings with one half read a pip off in turn (as if the half
counter had slipped), how many each rule would still make sure.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

# each rule: whether a reading is sure, given which checks agreed with it (pips, pattern,
# finder) and whether a half's pattern is that of another number (against)
RULES = {
    "no check": lambda pips, pat, finder, against: True,
    "pips or finder (ninth step)": lambda pips, pat, finder, against: pips or finder,
    "any one of three": lambda pips, pat, finder, against: pips or pat or finder,
    "any one, pattern not against (chosen)": (
        lambda pips, pat, finder, against: (pips or pat or finder) and not against
    ),
    "pips or pattern": lambda pips, pat, finder, against: pips or pat,
    "two of three": lambda pips, pat, finder, against: pips + pat + finder >= 2,
    "(pips or pattern) and finder": lambda pips, pat, finder, against: (pips or pat) and finder,
}
BINS = (0.0, 0.3, 0.52, 0.8, 0.95, 1.01)


def render(out: Path, seed: int, n: int) -> None:
    from scorekeeper.vision import evaluate

    evaluate.write_modes(out, n, seed)


def read(out: Path, dirs: list[Path]) -> None:
    from scorekeeper.vision import agree, reader

    reader.TIME_BUDGET = None
    agree.vouch = lambda checks, contradicted=False, blurred=False: True
    calls: list = []
    look = agree.look_at_halves

    def hook(rgb, tiles, *rest):
        calls.append(look(rgb, tiles, *rest))
        return calls[-1]

    agree.look_at_halves = hook
    photos = {}
    for d in dirs:
        for hand in json.loads((d / "manifest.json").read_text())["hands"]:
            data = (d / hand["file"]).read_bytes()
            calls.clear()
            c0 = time.process_time()
            r = reader.read_bytes(data, max_pip=int(hand.get("max_pip", 12)))
            cpu = time.process_time() - c0
            read_ = sorted(v for t in r.tiles for v in t.halves)
            mine = [c for c in calls if sorted(h[0] for h in c) == read_] if r.confident else []
            key = f"{d.name}/{hand['file']}"
            photos[key] = {"reading": r.as_dict(), "cpu": cpu, "halves": (mine or [None])[-1]}
            photos[key]["max_pip"] = int(hand.get("max_pip", 12))
            print(f"{key}: {cpu:.2f}s total {r.total} checks {r.checks}", flush=True)
            out.write_text(json.dumps({"photos": photos}))


def _rows(photos: dict, dirs: list[Path]):
    for d in dirs:
        for hand in json.loads((d / "manifest.json").read_text())["hands"]:
            got = photos.get(f"{d.name}/{hand['file']}")
            side = "side view" in str(hand.get("conditions", "")).lower()  # (real photos)
            if got is not None:
                yield d.name + (" (side)" if side else ""), hand, got


def _tiles(photos: dict, dirs: list[Path]) -> None:
    bins: dict[int, list[int]] = {}
    for _, hand, got in _rows(photos, dirs):
        left = [tuple(sorted(t)) for t in hand["tiles"]]
        for t in got["reading"]["tiles"]:
            ok = tuple(t["tile"]) in left
            if ok:
                left.remove(tuple(t["tile"]))
            b = next(i for i in range(len(BINS) - 1) if t["confidence"] < BINS[i + 1])
            bins.setdefault(b, [0, 0])
            bins[b][0] += ok
            bins[b][1] += 1
    for b in sorted(bins):
        print(f"  tile confidence {BINS[b]:.2f}-{BINS[b + 1]:.2f}: {bins[b][0]}/{bins[b][1]} right")


def _checks(seen: list, finder: bool, read: list[int] | None = None) -> tuple:
    """(pips, pattern, finder, against) for the halves ``seen`` (value read, spots,
    pattern), the values read replaced by ``read`` when given."""
    read = read or [h[0] for h in seen]
    pips = all(h[1] == v for h, v in zip(seen, read, strict=True))
    pat = all(h[2] == v for h, v in zip(seen, read, strict=True))
    against = any(h[2] >= 1 and h[2] != v for h, v in zip(seen, read, strict=True))
    return pips, pat, finder, against


def _sure(got: dict, rule) -> bool:
    r = got["reading"]
    if not r["confident"] or got["halves"] is None:
        return False
    return rule(*_checks(got["halves"], "finder" in r["checks"]))


def score(fp: Path, dirs: list[Path]) -> None:
    photos = json.loads(fp.read_text())["photos"]
    rows = []
    for folder, hand, got in _rows(photos, dirs):
        r = got["reading"]
        right = r["total"] == hand["pip_total"] and not r["unreadable"]
        sure = {name: _sure(got, rule) for name, rule in RULES.items()}
        rows.append((folder, hand["file"], right, sure, tuple(r["checks"]), got["cpu"]))
    print(f"{len(rows)} photos; exact {sum(r[2] for r in rows)}")
    for name in RULES:
        sure = [r for r in rows if r[3][name]]
        not_sure = [r for r in rows if not r[3][name]]
        wrong = [f"{r[0]}/{r[1]}" for r in sure if not r[2]]
        print(
            f"{name:<38} sure: right {len(sure) - len(wrong)}/{len(sure)}  "
            f"not sure: right {sum(r[2] for r in not_sure)}/{len(not_sure)}  "
            f"sure and wrong: {wrong}"
        )
    chosen = "any one, pattern not against (chosen)"
    print("checks passed by the sure readings (chosen rule; right / all):")
    combos = Counter((r[4], r[2]) for r in rows if r[3][chosen])
    for c in sorted({k[0] for k in combos}, key=lambda c: (-len(c), c)):
        ok, bad = combos[(c, True)], combos[(c, False)]
        print(f"  {'+'.join(c) or 'none':<22} {ok}/{ok + bad}")
    print("per folder: exact; sure (wrong) under each rule; CPU worst / mean")
    for folder in sorted({r[0] for r in rows}):
        fr = [r for r in rows if r[0] == folder]
        per = "  ".join(
            f"{sum(x[3][n] for x in fr)} ({sum(x[3][n] and not x[2] for x in fr)})" for n in RULES
        )
        cpu = [x[5] for x in fr]
        print(
            f"  {folder:<14} {sum(x[2] for x in fr)}/{len(fr)}  {per}  "
            f"{max(cpu):.1f} / {sum(cpu) / len(cpu):.1f} s"
        )
    _tiles(photos, dirs)
    misreads(photos)


def misreads(photos: dict) -> None:
    """Each reading the old rules make sure, with one half misread by one pip (the value
    read one more or one less, as if the half counter had slipped), every half in turn: how
    many of these misread readings each rule would still make sure."""
    still: Counter = Counter()
    n = 0
    for got in photos.values():
        seen = got["halves"]
        if not got["reading"]["confident"] or seen is None:
            continue
        finder = "finder" in got["reading"]["checks"]
        for i, (v, _, _) in enumerate(seen):
            for w in (v - 1, v + 1):
                if 0 <= w <= got.get("max_pip", 12):
                    n += 1
                    read = [h[0] for h in seen]
                    read[i] = w
                    for name, rule in RULES.items():
                        still[name] += rule(*_checks(seen, finder, read))
    print(f"readings with a half misread by one pip: {n}; still sure under")
    for name in RULES:
        print(f"  {name:<38} {still[name]}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "render":
        render(Path(args[0]), int(args[1]), int(args[2]))
    elif cmd == "read":
        read(Path(args[0]), [Path(p) for p in args[1:]])
    else:
        score(Path(args[0]), [Path(p) for p in args[1:]])

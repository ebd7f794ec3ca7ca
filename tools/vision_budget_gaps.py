"""Where the photo reader goes longest without looking at its time budget.

    PYTHONPATH=. python tools/vision_budget_gaps.py PHOTO [PHOTO ...]

The reader checks its CPU budget (``reader.TIME_BUDGET``) between steps (``bars.Deadline``):
a photo given up on stops at the first check past the budget, so the longest stretch between
two checks is how far past it the worst photo can run. Each photo is read with no limit, and
the longest stretches are printed with the two places (function:line, innermost first) they
run between. CPU seconds: compare them with another run on the same machine, not across
machines.
"""

from __future__ import annotations

import os
import sys
import traceback

os.environ.setdefault("OMP_NUM_THREADS", "1")


def gaps(path: str, marks: list) -> list[tuple[float, float, str, str]]:
    """(stretch, CPU when it began, from, to), longest first, of one reading of ``path``."""
    from scorekeeper.vision import reader

    marks.clear()
    with open(path, "rb") as f:
        reader.read_bytes(f.read(), budget=1e9)
    pairs = zip(marks, marks[1:], strict=False)
    return sorted(((b[0] - a[0], a[0], a[1], b[1]) for a, b in pairs), reverse=True)


def main(paths: list[str]) -> int:
    from scorekeeper.vision import bars

    marks: list[tuple[float, str]] = []
    check = bars.Deadline.check

    def counted(self):
        where = traceback.extract_stack(limit=4)[:-1]
        marks.append((self.used(), " < ".join(f"{f.name}:{f.lineno}" for f in reversed(where))))
        return check(self)

    bars.Deadline.check = counted
    try:
        gaps(paths[0], marks)  # the models load once, outside any photo's time
        worst = 0.0
        for path in paths:
            found = gaps(path, marks)
            print(f"{os.path.basename(path)}: {len(marks)} checks over {marks[-1][0]:.2f} s")
            for stretch, at, a, b in found[:3]:
                print(f"   {stretch:.3f} s from {at:.2f} s: {a}  ->  {b}")
            worst = max([worst] + [g[0] for g in found[:1]])
    finally:
        bars.Deadline.check = check
    print(f"longest stretch without a check: {worst:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) if sys.argv[1:] else print(__doc__) or 2)

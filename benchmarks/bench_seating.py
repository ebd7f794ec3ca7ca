"""Benchmark of seating a league night (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_seating.py [--seed 1]

For each case of issue 39, counted in repeated meetings over the whole run (a pair seated
together c times counts c - 1), it prints:
- baseline: a plain simulated annealing over swaps, night by night (written here, the yardstick),
- ours, night by night: ``seat_night`` with nothing but the history,
- ours, from a season plan: ``plan_season`` for the roster, then ``seat_night(planned=...)``
  each night (re-seating from the plan when attendance differs from it),
- the lower bound: the larger of the counting bound (a player who meets more people than the
  roster holds meets someone again) and the table bound (a table of s players formed from the
  t tables of the night before seats at least s - t pairs who just met),
with the CPU time per night of each, and the baseline's time as the ratio's yardstick.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.rules.seating import (  # noqa: E402
    counting_bound,
    meetings,
    plan_season,
    repeats,
    seat_night,
    table_sizes,
)


def annealing_night(
    present: Sequence[str], history: list, table_size: int, rng: random.Random
) -> list:
    """The baseline: random tables, then simulated annealing over swaps of two players of
    different tables, minimising tonight's pairs who met before (4,000 steps, geometric cooling
    from 2.0 to 0.05)."""
    met = meetings(history)
    order = list(present)
    rng.shuffle(order)
    tables, at = [], 0
    for size in table_sizes(len(order), table_size):
        tables.append(order[at : at + size])
        at += size
    if len(tables) < 2:
        return tables

    def cost_of(table: list[str]) -> int:
        return sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if met[frozenset((a, b))])

    cost = sum(cost_of(table) for table in tables)
    steps, hot, cold = 4000, 2.0, 0.05
    best, best_tables = cost, [list(t) for t in tables]
    for step in range(steps):
        temperature = hot * (cold / hot) ** (step / steps)
        ta, tb = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[ta])), rng.randrange(len(tables[tb]))
        before = cost_of(tables[ta]) + cost_of(tables[tb])
        tables[ta][i], tables[tb][j] = tables[tb][j], tables[ta][i]
        delta = cost_of(tables[ta]) + cost_of(tables[tb]) - before
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            cost += delta
            if cost < best:
                best, best_tables = cost, [list(t) for t in tables]
        else:
            tables[ta][i], tables[tb][j] = tables[tb][j], tables[ta][i]
    return best_tables


def table_bound(attendance: Sequence[Sequence[str]], table_size: int) -> int:
    """For a fixed roster: each night after the first, a table of s players drawn from the t
    tables of the night before holds at least s - t pairs who met then."""
    total = 0
    for before, tonight in zip(attendance, attendance[1:], strict=False):
        if set(before) != set(tonight):
            continue
        tables = len(table_sizes(len(before), table_size))
        total += sum(max(0, size - tables) for size in table_sizes(len(tonight), table_size))
    return total


def run_case(roster: list[str], attendance: list[list[str]], table_size: int, seed: int) -> dict:
    results = {}
    rng = random.Random(seed)
    history: list = []
    started = time.process_time()
    for present in attendance:
        history.append(annealing_night(present, history, table_size, rng))
    results["baseline"] = (repeats(history), (time.process_time() - started) / len(attendance))

    history = []
    started = time.process_time()
    for present in attendance:
        history.append(seat_night(present, history, table_size, seed=seed))
    results["night by night"] = (
        repeats(history),
        (time.process_time() - started) / len(attendance),
    )

    history = []
    started = time.process_time()
    plan = plan_season(roster, len(attendance), table_size, seed=seed)
    for night, present in enumerate(attendance):
        history.append(seat_night(present, history, table_size, seed=seed, planned=plan[night]))
    results["from a plan"] = (repeats(history), (time.process_time() - started) / len(attendance))
    for nights in history:
        assert sorted(name for table in nights for name in table) == sorted(
            attendance[history.index(nights)]
        )
    results["bound"] = max(
        counting_bound(roster, attendance, table_size), table_bound(attendance, table_size)
    )
    return results


def cases(seed: int) -> list[tuple[str, list[str], list[list[str]]]]:
    out = []
    for players, nights in ((16, 5), (20, 5), (12, 4), (32, 10)):
        roster = [f"P{i:02d}" for i in range(players)]
        out.append(
            (f"{players} players, {nights} nights", roster, [list(roster) for _ in range(nights)])
        )
    rng = random.Random(seed)
    roster = [f"M{i:02d}" for i in range(22)]
    attendance = [sorted(rng.sample(roster, rng.randint(13, 19))) for _ in range(10)]
    counts = ", ".join(str(len(night)) for night in attendance)
    out.append((f"22 members, 10 nights ({counts} came)", roster, attendance))
    return out


def cell(results: dict, key: str) -> str:
    """Repeats, then the CPU time a night and its ratio to the baseline's in the same run."""
    count, seconds = results[key]
    base = results["baseline"][1]
    return f"{count} ({seconds * 1000:.0f} ms, {seconds / base:.2f}x)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Seating a night, tables of 4, seed {args.seed}: repeated meetings over the run")
    print(f"{'case':<48} {'bound':>5} {'baseline':>14} {'night by night':>20} {'from a plan':>20}")
    for name, roster, attendance in cases(args.seed):
        r = run_case(roster, attendance, 4, args.seed)
        base_time = r["baseline"][1]

        print(
            f"{name:<48} {r['bound']:>5} {r['baseline'][0]:>3} ({base_time * 1000:.0f} ms) "
            f"{cell(r, 'night by night'):>20} {cell(r, 'from a plan'):>20}"
        )
    roster = [f"P{i:02d}" for i in range(40)]
    rng = random.Random(args.seed)
    history = []
    for _ in range(30):
        order = list(roster)
        rng.shuffle(order)
        history.append([order[i : i + 4] for i in range(0, 40, 4)])
    started = time.process_time()
    seat_night(roster, history)
    spent = (time.process_time() - started) * 1000
    print(f"40 players after 30 nights: one night seated in {spent:.0f} ms of CPU")


if __name__ == "__main__":
    main()

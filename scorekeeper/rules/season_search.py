"""The season search of league seating (rules/seating.py): many nights improved together by
swapping two players of one night, and the nights built from the geometry of GF(2)^m where
the roster is a power of two seated four to a table. Standard library only."""

from __future__ import annotations

import itertools
import random


class SeasonSearch:
    """Tabu search over a whole season: swap two players of one night. A pair seated together c
    times costs REPEAT_WEIGHT * (c - 1) (its repeats) plus c(c - 1)/2 (so that among seasons
    with as many repeats, the one where no pair meets three times wins). Nights before
    ``frozen`` are kept as they are."""

    def __init__(
        self, count: int, schedule: list[list[list[int]]], frozen: int, rng: random.Random
    ) -> None:
        self.schedule = [[list(table) for table in night] for night in schedule]
        self.frozen = frozen
        self.rng = rng
        self.met = [[0] * count for _ in range(count)]
        for night in self.schedule:
            for table in night:
                for a, b in itertools.combinations(table, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1

    def floor(self) -> int:
        """The least cost any seating of these nights could have: the seats at one table spread
        over the pairs as evenly as they go."""
        count = len(self.met)
        pairs = count * (count - 1) // 2
        slots = sum(len(t) * (len(t) - 1) // 2 for night in self.schedule for t in night)
        each, more = divmod(slots, pairs)
        return more * _season_cost(each + 1) + (pairs - more) * _season_cost(each)

    def cost(self) -> int:
        count = len(self.met)
        return sum(_season_cost(m) for a in range(count) for m in self.met[a][a + 1 :])

    def _delta(self, ta: list[int], tb: list[int], a: int, b: int) -> int:
        """The change in cost if a (at ta) and b (at tb) change places: each pair a leaves loses
        a meeting, each pair it joins gains one; the same for b."""
        met = self.met
        delta = 0
        for x in ta:
            if x != a:
                delta += _gain(met[b][x]) - _gain(met[a][x] - 1)
        for y in tb:
            if y != b:
                delta += _gain(met[a][y]) - _gain(met[b][y] - 1)
        return delta

    def _apply(self, ta: list[int], tb: list[int], a: int, b: int) -> None:
        met = self.met
        for x in ta:
            if x != a:
                met[a][x] -= 1
                met[x][a] -= 1
                met[b][x] += 1
                met[x][b] += 1
        for y in tb:
            if y != b:
                met[b][y] -= 1
                met[y][b] -= 1
                met[a][y] += 1
                met[y][a] += 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a

    def run(self, effort: int, floor: int = 0) -> list[list[list[int]]]:
        """The best schedule found in ``effort`` steps, or sooner if its cost reaches ``floor``."""
        current = self.cost()
        best, best_schedule = current, [[list(t) for t in night] for night in self.schedule]
        tabu: dict[tuple[int, int, int], int] = {}
        stale = 0
        nights = range(self.frozen, len(self.schedule))
        for step in range(effort):
            if best <= floor or not nights:
                break
            choice: tuple[int, int, int, int, int, int] | None = None
            ties = 0
            for n in nights:
                night = self.schedule[n]
                for i, ta in enumerate(night):
                    for a in ta:
                        if all(self.met[a][x] <= 1 for x in ta if x != a):
                            continue
                        for j, tb in enumerate(night):
                            if j == i:
                                continue
                            for b in tb:
                                delta = self._delta(ta, tb, a, b)
                                if (
                                    tabu.get((n, a, j), -1) >= step
                                    or tabu.get((n, b, i), -1) >= step
                                ) and current + delta >= best:
                                    continue
                                if choice is None or delta < choice[0]:
                                    choice, ties = (delta, n, i, j, a, b), 1
                                elif delta == choice[0]:
                                    ties += 1
                                    if self.rng.randrange(ties) == 0:
                                        choice = (delta, n, i, j, a, b)
            if choice is None:
                break
            delta, n, i, j, a, b = choice
            tenure = 4 + self.rng.randrange(6)
            tabu[(n, a, i)] = tabu[(n, b, j)] = step + tenure
            self._apply(self.schedule[n][i], self.schedule[n][j], a, b)
            current += delta
            if current < best:
                best, stale = current, 0
                best_schedule = [[list(t) for t in night] for night in self.schedule]
            else:
                stale += 1
                if stale > 150:
                    self._shake(nights)
                    current, stale = self.cost(), 0
        return best_schedule

    def _shake(self, nights: range) -> None:
        for _ in range(3):
            night = self.schedule[self.rng.choice(nights)]
            if len(night) < 2:
                return
            ta, tb = self.rng.sample(night, 2)
            self._apply(ta, tb, self.rng.choice(ta), self.rng.choice(tb))


REPEAT_WEIGHT = 16
# The season search's steps for a plan, shared out over its player-nights (a step costs about
# as much as the roster times the nights): a plan for 40 players and 13 nights takes seconds.
SEASON_EFFORT = 60000


def _season_cost(met: int) -> int:
    return REPEAT_WEIGHT * max(0, met - 1) + met * (met - 1) // 2


def _gain(met: int) -> int:
    """What one more meeting costs a pair that has met ``met`` times."""
    return (REPEAT_WEIGHT if met >= 1 else 0) + met


def affine_nights(count: int, table_size: int) -> list[list[list[int]]]:
    """Nights with no pair seated twice from GF(2)^m, for ``count == 2**m`` players four to a
    table: each night the cosets of one 2-dimensional subspace, the subspaces sharing only 0
    (a partial spread, found by a search in a fixed order). Empty where it does not apply."""
    if table_size != 4 or count not in _SPREAD_GOOD:
        return []
    vectors = range(1, count)
    planes: list[frozenset[int]] = []
    seen: set[frozenset[int]] = set()
    for u, v in itertools.combinations(vectors, 2):
        plane = frozenset((0, u, v, u ^ v))
        if plane not in seen:
            seen.add(plane)
            planes.append(plane)
    chosen: list[frozenset[int]] = []
    limit = (count - 1) // 3

    def extend(start: int, used: frozenset[int]) -> list[frozenset[int]]:
        best = list(chosen)
        if len(chosen) == limit:
            return best
        for k in range(start, len(planes)):
            plane = planes[k]
            if plane & used != {0}:
                continue
            chosen.append(plane)
            found = extend(k + 1, used | plane)
            chosen.pop()
            if len(found) > len(best):
                best = found
                if len(best) == limit or len(best) >= _SPREAD_GOOD.get(count, limit):
                    return best
        return best

    spread = extend(0, frozenset({0}))
    nights = []
    for plane in spread:
        tables, placed = [], set()
        for x in range(count):
            if x not in placed:
                coset = sorted(x ^ p for p in plane)
                placed.update(coset)
                tables.append(coset)
        nights.append(tables)
    return nights


# The largest partial spreads of lines in PG(m - 1, 2): 5 for 16 players (a spread), 9 for 32.
_SPREAD_GOOD = {16: 5, 32: 9}

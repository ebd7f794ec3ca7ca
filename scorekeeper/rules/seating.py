"""Seating a league night: tables that mix the club (docs/rules.md, "Seating a league night").

A club that meets every week wants the opposite of the same four friends at the same table: over
a season every member should sit with every other member about equally often, with whoever comes
tonight. This is the social golfer problem in its "maximum socialisation" form.

- ``table_sizes`` splits tonight's players into tables of ``table_size``, or one more or one
  fewer where the count does not divide: sizes differ by at most one, the total distance from
  ``table_size`` is as small as it can be, and on a tie the fewer tables win (one set of tiles
  and one scoring phone fewer).
- ``seat_night`` seats tonight's players so that as few pairs as possible meet again. Two players
  who have met before cost a repeat; among repeats, a pair that has met twice costs more than a
  pair that has met once, so the meetings stay even. It searches swaps of two players (a tabu
  search) from a start it is given (``planned``: the season plan's tables for tonight) or makes.
- ``plan_season`` plans a fixed roster's nights at once. Where the roster is a power of two
  seated four to a table, it builds the nights from the geometry of GF(2)^m (each night the
  cosets of a 2-dimensional subspace; subspaces that share only 0 never seat a pair twice: 16
  players get 5 nights and 32 players 9 nights with no repeat), and it searches the rest.
- ``repeats`` counts a run's repeated meetings: a pair seated together c times counts c - 1.

Standard library only; the same input always gives the same tables (``seed`` picks another of
the equally good ones).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from scorekeeper.rules.season_search import SEASON_EFFORT, SeasonSearch, affine_nights

Table = list[str]
Night = list[Table]

# A pair that met before costs REPEAT plus the square of its meetings: a repeat is avoided
# before anything else, and a pair that met twice is kept apart before a pair that met once.
REPEAT = 1000


def table_sizes(count: int, table_size: int = 4) -> list[int]:
    """Tonight's table sizes, largest first, for ``count`` players (module docstring)."""
    if table_size < 2:
        raise ValueError("a table seats at least two players")
    if count <= 0:
        return []
    best: tuple[tuple[int, int, int], list[int]] | None = None
    for tables in range(1, count + 1):
        small, extra = divmod(count, tables)
        sizes = [small + 1] * extra + [small] * (tables - extra)
        outside = sum(max(0, abs(size - table_size) - 1) for size in sizes)
        distance = sum(abs(size - table_size) for size in sizes)
        score = (outside, distance, tables)
        if best is None or score < best[0]:
            best = (score, sizes)
    assert best is not None
    return best[1]


def meetings(nights: Iterable[Iterable[Iterable[str]]]) -> Counter[frozenset[str]]:
    """How many times each pair of players sat at one table over ``nights``."""
    met: Counter[frozenset[str]] = Counter()
    for night in nights:
        for table in night:
            for a, b in itertools.combinations(sorted(set(table)), 2):
                met[frozenset((a, b))] += 1
    return met


def repeats(nights: Iterable[Iterable[Iterable[str]]]) -> int:
    """Repeated meetings over a run of nights: a pair seated together c times counts c - 1."""
    return sum(count - 1 for count in meetings(nights).values())


def counting_bound(
    roster: Sequence[str], attendance: Sequence[Sequence[str]], table_size: int = 4
) -> int:
    """A lower bound on ``repeats`` for any seating of these nights: a player who meets more
    people over the run than there are others in the roster meets someone again."""
    others = len(set(roster)) - 1
    seats: Counter[str] = Counter()
    for present in attendance:
        sizes = table_sizes(len(present), table_size)
        smallest = min(sizes) if sizes else 0
        for name in present:
            seats[name] += smallest - 1
    excess = sum(max(0, met - others) for met in seats.values())
    return (excess + 1) // 2


def seat_night(
    present: Sequence[str],
    history: Sequence[Sequence[Sequence[str]]],
    table_size: int = 4,
    *,
    seed: int = 0,
    planned: Sequence[Sequence[str]] | None = None,
    effort: int = 400,
    look_ahead: int = 4,
) -> Night:
    """Tonight's tables for the players in ``present`` (module docstring).

    ``history`` is the past nights, each a list of tables of names (absent players may be in
    it). Every present player sits exactly once; the table sizes are ``table_sizes``. The tables
    come in the order of their first player in ``present``, and each table's players in the
    order of ``present``.
    """
    names = list(present)
    if len(set(names)) != len(names):
        raise ValueError("a player is listed twice")
    sizes = table_sizes(len(names), table_size)
    if not names:
        return []
    index = {name: i for i, name in enumerate(names)}
    cost = _pair_costs(len(names), index, history)
    rng = random.Random(seed)
    tables = _NightSearch(cost, _start(names, index, sizes, None, rng), rng).run(effort)
    if planned:
        # From the plan's tables too: the plan's night is kept unless a fresh seating is
        # better tonight (when attendance differs from the plan, it can be).
        from_plan = _NightSearch(cost, _start(names, index, sizes, planned, rng), rng).run(effort)
        if _night_cost(cost, from_plan) <= _night_cost(cost, tables):
            tables = from_plan
    elif look_ahead > 0:
        tables = (
            _looked_ahead(names, index, history, table_size, look_ahead, tables, cost, rng)
            or tables
        )
    return _named(tables, names)


def _looked_ahead(
    names: list[str],
    index: dict[str, int],
    history: Sequence[Sequence[Sequence[str]]],
    table_size: int,
    look_ahead: int,
    tables: list[list[int]],
    cost: list[list[int]],
    rng: random.Random,
) -> list[list[int]] | None:
    """Tonight seated as the first of up to ``look_ahead`` + 1 nights of the same players planned
    together, while they have not yet had the nights to meet everyone, so that tonight leaves the
    next nights room to meet new people (night by night without it, 16 players meet again on
    their fifth night). Returned only if tonight costs no more than ``tables``."""
    cycle = -(-(len(names) - 1) // (table_size - 1))
    ahead = min(look_ahead, cycle - 1 - len(history), AHEAD_SEATS // len(names) - 1)
    if ahead <= 0 or len(tables) < 2:
        return None
    past = [
        [[index[name] for name in table if name in index] for table in night] for night in history
    ]
    past = [[table for table in night if len(table) > 1] for night in past]
    future = [[list(table) for table in tables]]
    for _ in range(ahead):
        order = [player for table in tables for player in table]
        rng.shuffle(order)
        night, at = [], 0
        for table in tables:
            night.append(order[at : at + len(table)])
            at += len(table)
        future.append(night)
    floor = SeasonSearch(len(names), past, len(past), rng).cost()
    planned = SeasonSearch(len(names), past + future, len(past), rng).run(AHEAD_EFFORT, floor)[
        len(past)
    ]
    if _night_cost(cost, planned) <= _night_cost(cost, tables):
        return planned
    return None


# The look-ahead's search: its steps, and the most player-nights it plans (the imagined nights
# are fewer for more players), so that a night takes well under a second.
AHEAD_EFFORT = 300
AHEAD_SEATS = 100


def _night_cost(cost: list[list[int]], tables: list[list[int]]) -> int:
    return sum(cost[a][b] for table in tables for a, b in itertools.combinations(table, 2))


def plan_season(
    roster: Sequence[str], nights: int, table_size: int = 4, *, seed: int = 0
) -> list[Night]:
    """``nights`` nights for the whole ``roster`` at once, as few repeats as it can find."""
    names = list(roster)
    if len(set(names)) != len(names):
        raise ValueError("a player is listed twice")
    if nights <= 0 or not names:
        return []
    rng = random.Random(seed)
    built = affine_nights(len(names), table_size)[:nights]
    schedule = [[list(table) for table in night] for night in built]
    while len(schedule) < nights:
        history = [[[names[i] for i in table] for table in night] for night in schedule]
        night = seat_night(names, history, table_size, seed=rng.randrange(1 << 30), look_ahead=0)
        schedule.append([[names.index(name) for name in table] for table in night])
    if built or repeats_of(schedule) == 0:
        # The built nights are as good as nights get (no pair twice); the rest were each seated
        # by seat_night against them, which the season search does not better (32 players).
        return [_named(night, names) for night in schedule]
    search = SeasonSearch(len(names), schedule, 0, rng)
    schedule = search.run(min(1500, SEASON_EFFORT // (len(names) * nights)), search.floor())
    return [_named(night, names) for night in schedule]


def repeats_of(schedule: Sequence[Sequence[Sequence[int]]]) -> int:
    """``repeats`` of a schedule of player numbers."""
    return repeats([[[str(i) for i in table] for table in night] for night in schedule])


def _pair_costs(
    count: int, index: dict[str, int], history: Sequence[Sequence[Sequence[str]]]
) -> list[list[int]]:
    met = [[0] * count for _ in range(count)]
    for night in history:
        for table in night:
            seated = sorted({index[name] for name in table if name in index})
            for a, b in itertools.combinations(seated, 2):
                met[a][b] += 1
                met[b][a] += 1
    return [[0 if m == 0 else REPEAT + m * m for m in row] for row in met]


def _start(
    names: list[str],
    index: dict[str, int],
    sizes: list[int],
    planned: Sequence[Sequence[str]] | None,
    rng: random.Random,
) -> list[list[int]]:
    """The search's first seating: the plan's tables for tonight with the absent taken out, the
    tables evened to ``sizes`` and the unplanned players put where there is room; or a shuffle."""
    if not planned:
        order = list(range(len(names)))
        rng.shuffle(order)
        tables, at = [], 0
        for size in sizes:
            tables.append(order[at : at + size])
            at += size
        return tables
    seen: set[int] = set()
    groups: list[list[int]] = []
    for table in planned:
        group = [index[name] for name in table if name in index and index[name] not in seen]
        seen.update(group)
        if group:
            groups.append(group)
    groups.sort(key=len, reverse=True)
    spare = [i for i in range(len(names)) if i not in seen]
    tables = groups[: len(sizes)]
    for group in groups[len(sizes) :]:
        spare.extend(group)
    while len(tables) < len(sizes):
        tables.append([])
    for table, size in zip(tables, sizes, strict=True):
        while len(table) > size:
            spare.append(table.pop())
    for table, size in sorted(zip(tables, sizes, strict=True), key=lambda pair: len(pair[0])):
        while len(table) < size:
            table.append(spare.pop())
    return tables


def _named(tables: Sequence[Sequence[int]], names: list[str]) -> Night:
    ordered = sorted((sorted(table) for table in tables if table), key=lambda table: table[0])
    return [[names[i] for i in table] for table in ordered]


class _NightSearch:
    """Tabu search over one night: swap two players of different tables, or move one from a
    table one larger to a table one smaller. ``score[p][t]`` is what player p would cost at
    table t, so a move is judged in constant time."""

    def __init__(self, cost: list[list[int]], tables: list[list[int]], rng: random.Random) -> None:
        self.cost = cost
        self.rng = rng
        self.tables = [list(table) for table in tables]
        self.where = [0] * len(cost)
        for t, table in enumerate(self.tables):
            for p in table:
                self.where[p] = t
        self.score = [[sum(row[x] for x in table) for table in self.tables] for row in cost]

    def total(self) -> int:
        return sum(self.score[p][self.where[p]] for p in range(len(self.cost))) // 2

    def _swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        self.tables[ta][self.tables[ta].index(a)] = b
        self.tables[tb][self.tables[tb].index(b)] = a
        self.where[a], self.where[b] = tb, ta
        for p, row in enumerate(self.cost):
            change = row[b] - row[a]
            self.score[p][ta] += change
            self.score[p][tb] -= change

    def _move(self, a: int, to: int) -> None:
        ta = self.where[a]
        self.tables[ta].remove(a)
        self.tables[to].append(a)
        self.where[a] = to
        for p, row in enumerate(self.cost):
            self.score[p][ta] -= row[a]
            self.score[p][to] += row[a]

    def run(self, effort: int) -> list[list[int]]:
        current = self.total()
        best, best_tables = current, [list(table) for table in self.tables]
        tabu: dict[tuple[int, int], int] = {}
        stale = 0
        for step in range(effort):
            if best == 0 or len(self.tables) < 2:
                break
            choice = self._best_move(step, current, best, tabu)
            if choice is None:
                # Every move is tabu (a handful of players): start afresh from a shaken seating.
                tabu.clear()
                self._shake()
                current, stale = self.total(), 0
                continue
            delta, a, other, is_swap = choice
            ta = self.where[a]
            tenure = 2 + self.rng.randrange(max(1, min(5, len(self.cost) // 4)))
            if is_swap:
                tabu[(a, ta)] = tabu[(other, self.where[other])] = step + tenure
                self._swap(a, other)
            else:
                tabu[(a, ta)] = step + tenure
                self._move(a, other)
            current += delta
            if current < best:
                best, best_tables, stale = current, [list(table) for table in self.tables], 0
            else:
                stale += 1
                if stale > 60:
                    self._shake()
                    current, stale = self.total(), 0
        return best_tables

    def _best_move(
        self, step: int, current: int, best: int, tabu: dict[tuple[int, int], int]
    ) -> tuple[int, int, int, bool] | None:
        """The best move not tabu (unless it beats the best seating): (its change of cost, the
        player, the other player or the table, whether it is a swap); among equal swaps one
        at random. None when every move is tabu."""
        players = range(len(self.cost))
        choice: tuple[int, int, int, bool] | None = None
        ties = 0
        for a in players:
            ta = self.where[a]
            sa = self.score[a]
            if sa[ta] == 0 and current > 0:
                continue
            for b in players:
                tb = self.where[b]
                if tb == ta or b < a and self.score[b][tb] != 0:
                    continue
                delta = (
                    sa[tb]
                    - self.cost[a][b]
                    - sa[ta]
                    + self.score[b][ta]
                    - self.cost[b][a]
                    - self.score[b][tb]
                )
                if (
                    tabu.get((a, tb), -1) >= step or tabu.get((b, ta), -1) >= step
                ) and current + delta >= best:
                    continue
                if choice is None or delta < choice[0]:
                    choice, ties = (delta, a, b, True), 1
                elif delta == choice[0]:
                    ties += 1
                    if self.rng.randrange(ties) == 0:
                        choice = (delta, a, b, True)
            for to, table in enumerate(self.tables):
                if len(table) + 1 != len(self.tables[ta]):
                    continue
                delta = sa[to] - sa[ta]
                if tabu.get((a, to), -1) >= step and current + delta >= best:
                    continue
                if choice is None or delta < choice[0]:
                    choice, ties = (delta, a, to, False), 1
        return choice

    def _shake(self) -> None:
        for _ in range(max(2, len(self.cost) // 8)):
            ta, tb = self.rng.sample(range(len(self.tables)), 2)
            self._swap(self.rng.choice(self.tables[ta]), self.rng.choice(self.tables[tb]))


def late_table(
    player: str,
    tables: Sequence[Sequence[str]],
    history: Sequence[Sequence[Sequence[str]]],
) -> int | None:
    """Where a late arrival sits: the index of the table in ``tables`` where ``player`` has met
    the fewest of the people seated, by ``history``; on a tie, the one with the fewest meetings
    in all, then the smallest table, then the first. None when there is no table."""
    if not tables:
        return None
    met = meetings(history)

    def key(at: int) -> tuple[int, int, int, int]:
        people = [name for name in dict.fromkeys(tables[at]) if name != player]
        counts = [met[frozenset((player, name))] for name in people]
        return (sum(1 for count in counts if count), sum(counts), len(people), at)

    return min(range(len(tables)), key=key)


def ranked_tables(ranked: Sequence[str], table_size: int = 4) -> Night:
    """ "Strong with strong", for a final night: the players in ranking order (best first) cut
    into tables of ``table_sizes``, the top players at the first table."""
    names = list(dict.fromkeys(ranked))
    tables, at = [], 0
    for size in table_sizes(len(names), table_size):
        tables.append(names[at : at + size])
        at += size
    return tables

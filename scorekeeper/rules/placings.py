"""Places and placement points of one game (rules.md 6): pure maths on plain per-seat results.

Places at a table: the lowest game total is 1st; equal totals share a place and the next place
skips (totals 80, 80, 95 -> places 1, 1, 3). Everyone in 1st place has won the game, so
co-winners each get a win. Placement points by place (default 1st 5, 2nd 3, 3rd 2, 4th 1,
later places 0); players who share a place share the points of the places they cover (two tied
for 1st get (5 + 3) / 2 = 4 each), so a game hands out the same points with or without ties.
Numbers are shown to one decimal, rounded half up."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from scorekeeper.rules.games import DEFAULT_KIND
from scorekeeper.rules.words import _

DEFAULT_PLACEMENT_POINTS = (5, 3, 2, 1)
MAX_PLACEMENT_PLACES = 16
MAX_PLACEMENT_VALUE = 1000


class SeatResult(NamedTuple):
    """One player's finished game: ``total`` points over ``rounds`` rounds, ``went_out`` of them
    gone out, at ``game`` on ``night`` (``played_on``). ``kind`` is the game played (a
    ``rules.games`` name); ``higher_wins`` says the highest total won that game (the points
    games, arrivals scoring); ``whole`` is False for a game the table ended before its last
    round (its total covers fewer rounds: the average leaves it out)."""

    game: Hashable
    night: Hashable
    played_on: date
    player: Hashable
    total: int
    rounds: int = 0
    went_out: int = 0
    kind: str = DEFAULT_KIND
    higher_wins: bool = False
    whole: bool = True  # False: the table ended the game before its last round (or target)


class Placing(NamedTuple):
    """Where a player finished at one game's table."""

    place: int
    tied: bool
    win: bool
    points: Fraction | int
    players: int


# --------------------------------------------------------------------------------------------
# Shown values


def shown(value: Fraction | float | int | None, places: int = 1) -> Decimal | None:
    """A value as the standings show it: rounded half up to ``places`` decimals (85.25 -> 85.3).
    Comparisons use this shown value, so what people see is what is ranked."""
    if value is None:
        return None
    if isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(str(value))
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def parse_placement_points(text: str) -> tuple[int, ...]:
    """Points for 1st, 2nd, ... typed as "5, 3, 2, 1". A better place never earns fewer points.
    Raises ValueError with a sentence for the organiser."""
    pieces = [piece for piece in text.replace(";", ",").replace(" ", ",").split(",") if piece]
    if not pieces:
        raise ValueError(
            _("Type the points for 1st, 2nd, 3rd … separated by commas, like 5, 3, 2, 1.")
        )
    if len(pieces) > MAX_PLACEMENT_PLACES:
        raise ValueError(
            _("Give points for at most %(places)s places.", places=MAX_PLACEMENT_PLACES)
        )
    values: list[int] = []
    for piece in pieces:
        if not piece.isdigit():
            raise ValueError(_("“%(text)s” is not a whole number of points.", text=piece[:20]))
        value = int(piece)
        if value > MAX_PLACEMENT_VALUE:
            raise ValueError(
                _(
                    "%(points)s is a lot: use at most %(most)s points a place.",
                    points=value,
                    most=MAX_PLACEMENT_VALUE,
                )
            )
        values.append(value)
    if any(later > earlier for earlier, later in zip(values, values[1:], strict=False)):
        raise ValueError(_("A better place cannot earn fewer points than a worse one."))
    if not any(values):
        raise ValueError(_("At least 1st place must earn some points."))
    return tuple(values)


def placement_points_text(table: Sequence[int]) -> str:
    """ "1st 5, 2nd 3, 3rd 2, 4th 1, later places 0"."""
    parts = [f"{ordinal(i + 1)} {points}" for i, points in enumerate(table)]
    return _("%(places)s, later places 0", places=", ".join(parts))


def ordinal(n: int) -> str:
    """ "1st", "2nd", "23rd" in the player's language ("1.º", "1er", "2e")."""
    if n == 1:
        return _("1st")
    if 10 <= n % 100 <= 20:
        return _("%(n)sth", n=n)
    suffix = n % 10
    if suffix == 1:
        return _("%(n)sst", n=n)
    if suffix == 2:
        return _("%(n)snd", n=n)
    if suffix == 3:
        return _("%(n)srd", n=n)
    return _("%(n)sth", n=n)


def game_ordinal(n: int) -> str:
    """ "1st game", "3rd game": the ordinal agreeing with the word for a game, in the order the
    language puts them ("3.ª partida", "3e partie")."""
    if n == 1:
        return _("1st game")
    if 10 <= n % 100 <= 20:
        return _("%(n)sth game", n=n)
    suffix = n % 10
    if suffix == 1:
        return _("%(n)sst game", n=n)
    if suffix == 2:
        return _("%(n)snd game", n=n)
    if suffix == 3:
        return _("%(n)srd game", n=n)
    return _("%(n)sth game", n=n)


# --------------------------------------------------------------------------------------------
# One game: places, wins, placement points


def shared_points(place: int, sharing: int, table: Sequence[int]) -> Fraction | int:
    """The points of ``sharing`` players tied on ``place``: the points of the places they cover
    (``place`` .. ``place + sharing - 1``), shared equally. A whole number when it divides."""
    return _shared_points(place, sharing, tuple(table))


@lru_cache(maxsize=4096)
def _shared_points(place: int, sharing: int, table: tuple[int, ...]) -> Fraction | int:
    # Kept: a league's standings ask the same few (place, sharing) thousands of times.
    covered = sum(table[p - 1] if p <= len(table) else 0 for p in range(place, place + sharing))
    whole, rest = divmod(covered, sharing)
    return whole if rest == 0 else Fraction(covered, sharing)


def game_placings(
    totals: Mapping[Hashable, int],
    table: Sequence[int] = DEFAULT_PLACEMENT_POINTS,
    higher_wins: bool = False,
) -> dict[Hashable, Placing]:
    """Places at one table (lowest total 1st, the highest in a game where the highest total
    wins; equal totals share), wins and placement points."""
    table = tuple(table)
    ordered = sorted(totals.values(), reverse=higher_wins)
    first: dict[int, int] = {}  # total -> its first index in the order
    for index, total in enumerate(ordered):
        first.setdefault(total, index)
    sharing = Counter(ordered)
    players = len(ordered)
    return {
        player: _placing(first[total] + 1, sharing[total], players, table)
        for player, total in totals.items()
    }


@lru_cache(maxsize=4096)
def _placing(place: int, sharing: int, players: int, table: tuple[int, ...]) -> Placing:
    # Kept: a league's standings make the same few placings thousands of times.
    return Placing(
        place=place,
        tied=sharing > 1,
        win=place == 1,
        points=_shared_points(place, sharing, table),
        players=players,
    )


def by_game(results: Iterable[SeatResult]) -> dict[Hashable, list[SeatResult]]:
    games: dict[Hashable, list[SeatResult]] = defaultdict(list)
    for result in results:
        games[result.game].append(result)
    return games


def placings(
    results: Iterable[SeatResult], table: Sequence[int] = DEFAULT_PLACEMENT_POINTS
) -> dict[tuple[Hashable, Hashable], Placing]:
    """Every seat's placing, keyed (game, player): ``game_placings`` of each game, written out
    here for speed (a five-year league has thousands of games; ``test_placings`` checks that
    both agree)."""
    found: dict[tuple[Hashable, Hashable], Placing] = {}
    table = tuple(table)
    for game, seats in by_game(results).items():
        ordered = sorted([s.total for s in seats], reverse=seats[0].higher_wins)
        first: dict[int, int] = {}
        sharing: dict[int, int] = {}
        for index, total in enumerate(ordered):
            if total in first:
                sharing[total] += 1
            else:
                first[total] = index
                sharing[total] = 1
        players = len(ordered)
        for s in seats:
            found[(game, s.player)] = _placing(first[s.total] + 1, sharing[s.total], players, table)
    return found

"""Tiles and domino sets (rules.md section 1).

A double-n set has one tile for every pair {a, b} with 0 <= a <= b <= n; 0 is the blank. A tile is
stored canonically as (low, high) and written "low-high" everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from scorekeeper.rules.words import _

#: The sets sold in shops, by highest double.
SETS: tuple[int, ...] = (6, 9, 12, 15, 18)

#: Highest double the app accepts for a home-made set. Number words in notation stop at eighteen;
#: digits work up to here.
MAX_SUPPORTED_PIP = 30


def _check_half(value: object, name: str) -> int:
    # bool is an int subclass; True-5 is a typing slip, not a tile.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"A tile half must be a whole number, got {value!r} for {name}")
    if value < 0:
        raise ValueError(f"A tile half cannot be negative, got {value}")
    return value


@dataclass(frozen=True, order=True, init=False)
class Tile:
    """One domino tile. ``Tile(5, 3) == Tile(3, 5)``; written "3-5".

    Halves above a set's highest number are allowed here, so that the validator can report them
    (rule V1); negative halves raise ValueError. Tiles sort by (low, high).
    """

    low: int
    high: int

    def __init__(self, a: int, b: int) -> None:
        a = _check_half(a, "the first half")
        b = _check_half(b, "the second half")
        object.__setattr__(self, "low", min(a, b))
        object.__setattr__(self, "high", max(a, b))

    @property
    def pips(self) -> int:
        """Face value: the sum of both halves (a blank half is 0)."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        """Both halves show the same number."""
        return self.low == self.high

    @property
    def halves(self) -> tuple[int, int]:
        """(low, high)."""
        return (self.low, self.high)

    def has(self, number: int) -> bool:
        """Whether either half shows ``number``."""
        return number in (self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


def double(number: int) -> Tile:
    """The double of ``number`` (``double(9)`` is the 9-9)."""
    return Tile(number, number)


def check_max_pip(max_pip: object, name: str = "max_pip") -> int:
    """Validate a set's highest number: a whole number from 0 to MAX_SUPPORTED_PIP."""
    if isinstance(max_pip, bool) or not isinstance(max_pip, int):
        raise ValueError(f"{name} must be a whole number, got {max_pip!r}")
    if not 0 <= max_pip <= MAX_SUPPORTED_PIP:
        raise ValueError(f"{name} must be between 0 and {MAX_SUPPORTED_PIP}, got {max_pip}")
    return max_pip


def set_name(max_pip: int) -> str:
    """Plain name of a set, in the player's language: ``set_name(12) == "double-12"``."""
    return _("double-%(number)s", number=max_pip)


@cache
def _set_tiles(n: int) -> tuple[Tile, ...]:
    """The tiles of one double-``n`` set, made once per set size (tiles are immutable)."""
    return tuple(Tile(a, b) for a in range(n + 1) for b in range(a, n + 1))


@dataclass(frozen=True)
class DominoSet:
    """A double-``max_pip`` set, possibly ``copies`` identical sets mixed together.

    Rules (rules.md 1): (n+1)(n+2)/2 distinct tiles, pip total n(n+1)(n+2)/2, each number on n+2
    halves, the average tile worth n pips, n+1 Mexican Train rounds. ``tiles``, ``tile_count`` and
    ``pip_total`` describe one copy (the table of rules.md 1); ``total_tiles`` and ``total_pips``
    count every copy.
    """

    max_pip: int
    copies: int = 1
    tiles: tuple[Tile, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_max_pip(self.max_pip)
        if isinstance(self.copies, bool) or not isinstance(self.copies, int) or self.copies < 1:
            raise ValueError(f"copies must be a whole number of at least 1, got {self.copies!r}")
        object.__setattr__(self, "tiles", _set_tiles(self.max_pip))

    @property
    def highest(self) -> int:
        """The highest number on the set (same as ``max_pip``)."""
        return self.max_pip

    @property
    def name(self) -> str:
        """ "double-12"."""
        return set_name(self.max_pip)

    @property
    def tile_count(self) -> int:
        """Distinct tiles: (n+1)(n+2)/2."""
        n = self.max_pip
        return (n + 1) * (n + 2) // 2

    @property
    def pip_total(self) -> int:
        """Pips on one copy of the set: n(n+1)(n+2)/2."""
        n = self.max_pip
        return n * (n + 1) * (n + 2) // 2

    @property
    def total_tiles(self) -> int:
        """Physical tiles on the table: tile_count * copies."""
        return self.tile_count * self.copies

    @property
    def total_pips(self) -> int:
        """Pips on every physical tile: pip_total * copies."""
        return self.pip_total * self.copies

    @property
    def number_count(self) -> int:
        """How many times each number appears in the set: n+2 halves (on n+1 tiles, the double
        showing it twice)."""
        return self.max_pip + 2

    @property
    def round_count(self) -> int:
        """Mexican Train rounds with the full schedule: one per double, n+1."""
        return self.max_pip + 1

    @property
    def doubles(self) -> tuple[Tile, ...]:
        """The doubles 0-0 .. n-n."""
        return tuple(double(k) for k in range(self.max_pip + 1))

    def holds(self, tile: Tile) -> bool:
        """Whether ``tile`` belongs to this set (both halves between 0 and max_pip)."""
        return tile.high <= self.max_pip

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and self.holds(tile)

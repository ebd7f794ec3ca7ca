"""Tiles and sets: every row of rules.md section 1."""

from __future__ import annotations

from collections import Counter

import pytest

from scorekeeper.rules import SETS, DominoSet, Tile
from scorekeeper.rules.tiles import check_max_pip, double

# set, highest double, tiles, pip total, Mexican Train rounds (rules.md 1)
SET_TABLE = [
    (6, "6-6", 28, 168, 7),
    (9, "9-9", 55, 495, 10),
    (12, "12-12", 91, 1092, 13),
    (15, "15-15", 136, 2040, 16),
    (18, "18-18", 190, 3420, 19),
]


@pytest.mark.parametrize(("n", "highest", "tiles", "pips", "rounds"), SET_TABLE)
def test_set_table(n: int, highest: str, tiles: int, pips: int, rounds: int) -> None:
    dominoes = DominoSet(n)
    assert str(dominoes.doubles[-1]) == highest
    assert dominoes.tile_count == tiles == len(dominoes.tiles) == (n + 1) * (n + 2) // 2
    assert dominoes.pip_total == pips == sum(t.pips for t in dominoes.tiles)
    assert dominoes.round_count == rounds
    assert dominoes.highest == dominoes.max_pip == n
    assert len(set(dominoes.tiles)) == tiles


@pytest.mark.parametrize("n", SETS)
def test_each_number_appears_n_plus_2_times_and_average_is_n(n: int) -> None:
    dominoes = DominoSet(n)
    appearances = Counter(number for t in dominoes.tiles for number in t.halves)
    assert set(appearances.values()) == {n + 2} == {dominoes.number_count}
    assert dominoes.pip_total == n * dominoes.tile_count  # average tile worth n pips


def test_sets_constant() -> None:
    assert SETS == (6, 9, 12, 15, 18)


def test_two_copies_double_the_physical_tiles() -> None:
    two = DominoSet(12, copies=2)
    assert two.tile_count == 91 and two.total_tiles == 182
    assert two.pip_total == 1092 and two.total_pips == 2184
    assert two.copies == 2


def test_set_membership() -> None:
    assert Tile(12, 12) in DominoSet(12)
    assert Tile(13, 2) not in DominoSet(12)
    assert "3-5" not in DominoSet(12)


@pytest.mark.parametrize(("max_pip", "copies"), [(-1, 1), (31, 1), (12, 0), (True, 1), (12, 1.5)])
def test_bad_sets_raise(max_pip: object, copies: object) -> None:
    with pytest.raises(ValueError):
        DominoSet(max_pip, copies)  # type: ignore[arg-type]


def test_tile_is_canonical_frozen_and_hashable() -> None:
    assert Tile(5, 3) == Tile(3, 5)
    assert hash(Tile(5, 3)) == hash(Tile(3, 5))
    assert len({Tile(5, 3), Tile(3, 5)}) == 1
    tile = Tile(5, 3)
    assert (tile.low, tile.high, tile.pips, tile.is_double) == (3, 5, 8, False)
    assert str(tile) == "3-5"
    assert repr(tile) == "Tile(3, 5)"
    assert Tile(6, 6).is_double and double(6) == Tile(6, 6)
    with pytest.raises(AttributeError):
        tile.low = 1  # type: ignore[misc]


def test_tiles_sort_by_low_then_high() -> None:
    tiles = [Tile(6, 6), Tile(5, 0), Tile(1, 2), Tile(0, 0), Tile(1, 1)]
    assert sorted(tiles) == [Tile(0, 0), Tile(0, 5), Tile(1, 1), Tile(1, 2), Tile(6, 6)]


def test_out_of_range_halves_are_allowed_for_the_validator() -> None:
    assert str(Tile(13, 2)) == "2-13"


@pytest.mark.parametrize(("a", "b", "error"), [(-1, 2, ValueError), (True, 2, TypeError)])
def test_bad_halves(a: object, b: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        Tile(a, b)  # type: ignore[arg-type]


def test_check_max_pip() -> None:
    assert check_max_pip(12) == 12
    with pytest.raises(ValueError, match="max_pip"):
        check_max_pip("12")

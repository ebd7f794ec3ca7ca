"""Which totals a hand can make (rules.md 4, V11): a player who did not go out still holds at
least one tile, so a typed total must be the score of some non-empty hand of the tiles in play
(every copy of the set, minus the round's engine) under the house rules.

On a double-12 set with the 0-0 counting 0 that means: 0 only for the one player who holds the
0-0 (and nobody in the 0-0 round); with the 0-0 at 25 or 50, no hand that did not go out counts
0. With blank halves counting 25 some small totals cannot be made at all (1 needs a 0-1, which
counts 26). Several players' totals are checked together only where it is plain: the tiles
that count 0 are few, so only that many players who did not go out can count 0.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from functools import lru_cache
from typing import TypeVar

from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.scoring import tile_score
from scorekeeper.rules.tiles import Tile
from scorekeeper.rules.words import _

P = TypeVar("P", bound=Hashable)


def _pool(engine: int | None, rules: HouseRules) -> list[Tile]:
    """Every tile that can be in a hand: each copy of the set, minus one engine."""
    tiles = list(rules.domino_set.tiles) * rules.copies
    if engine is not None:
        tiles.remove(Tile(engine, engine))
    return tiles


@lru_cache(maxsize=128)
def _reachable(engine: int | None, rules: HouseRules) -> int:
    """The totals of every hand of at least one tile, as a bit set (bit n: total n).

    Subset sums over the pool: ``anything`` also holds the empty hand (bit 0), ``held`` only
    hands of one tile or more."""
    anything, held = 1, 0
    for tile in _pool(engine, rules):
        value = tile_score(tile, rules)
        held |= anything << value
        anything |= anything << value
    return held


def hand_can_total(total: int, engine: int | None, rules: HouseRules) -> bool:
    """True when some hand of at least one tile (outside the engine) scores ``total``."""
    return total >= 0 and bool(_reachable(engine, rules) >> total & 1)


@lru_cache(maxsize=128)
def lightest_hand(engine: int | None, rules: HouseRules) -> int:
    """The least a hand of at least one tile can score: its lightest tile outside the engine."""
    return min(tile_score(tile, rules) for tile in _pool(engine, rules))


@lru_cache(maxsize=128)
def zero_tiles(engine: int | None, rules: HouseRules) -> int:
    """How many tiles outside the engine count 0 (the 0-0s when the double blank counts 0)."""
    return sum(1 for tile in _pool(engine, rules) if tile_score(tile, rules) == 0)


def _zero_words(engine: int | None, rules: HouseRules) -> str:
    """Why no hand counts 0, in the table's words."""
    double_blank = tile_score(Tile(0, 0), rules)
    if double_blank:
        return _("the 0-0 counts %(points)s", points=double_blank)
    return _("the 0-0 is this round's engine")


def impossible_totals(
    totals: Mapping[P, int],
    engine: int | None,
    rules: HouseRules,
    *,
    one_may_be_out: bool = False,
) -> dict[P, str]:
    """The totals of players who did not go out that no hand can make, each with the reason.

    ``totals`` are the typed totals (without tiles) of players who hold at least one tile.
    ``one_may_be_out``: who went out is not known yet (while typing), so one player counting 0
    may still be the one who went out; a total of 0 alone is then not a problem.

    - A total no non-empty hand makes: below the lightest tile (0 when the 0-0 counts 25 or 50
      or is the engine), or a gap between the tiles' values.
    - More players at 0 than there are tiles counting 0 (one 0-0 on a single set): each of them
      is told, since any one of them may be the mistake.
    """
    found: dict[P, str] = {}
    zeros = [player for player, total in totals.items() if total == 0]
    free = zero_tiles(engine, rules)
    for player, total in totals.items():
        if total == 0 and (one_may_be_out or free):
            continue
        if not hand_can_total(total, engine, rules):
            found[player] = _no_hand_makes(player, total, engine, rules)
    allowed = free + (1 if one_may_be_out else 0)
    if len(zeros) > allowed and (free or one_may_be_out):
        message = _too_many_zeros(zeros, free, engine, rules, one_may_be_out)
        for player in zeros:
            found.setdefault(player, message)
    return found


def _no_hand_makes(player: P, total: int, engine: int | None, rules: HouseRules) -> str:
    """Why a player who holds a tile cannot count ``total``: no tile counts 0, the lightest
    tile counts more, or no hand of tiles makes it."""
    if total == 0:
        return _(
            "%(player)s did not go out, so %(player)s still holds a tile, and no tile "
            "counts 0 here (%(why)s)",
            player=player,
            why=_zero_words(engine, rules),
        )
    least = lightest_hand(engine, rules)
    if total < least:
        return _(
            "%(player)s did not go out, so %(player)s still holds a tile: the lightest "
            "counts %(least)s, so %(total)s cannot be right",
            player=player,
            least=least,
            total=total,
        )
    return _(
        "No hand of tiles counts %(total)s under these rules: %(player)s's total cannot be right",
        total=total,
        player=player,
    )


def _too_many_zeros(
    zeros: list[P], free: int, engine: int | None, rules: HouseRules, one_may_be_out: bool
) -> str:
    """More players count 0 than there are tiles counting 0 (and a player going out)."""
    if free == 0:
        tiles = _("no tile counts 0 here (%(why)s)", why=_zero_words(engine, rules))
    elif free == 1:
        tiles = _("only the 0-0 counts 0")
    else:
        tiles = _("only %(num)s tiles count 0", num=free)
    names = _(
        "%(some)s and %(last)s",
        some=", ".join(str(p) for p in zeros[:-1]),
        last=zeros[-1],
    )
    if one_may_be_out and len(zeros) == 2:
        return _(
            "%(names)s both count 0, but only one player goes out and %(why)s: a player "
            "who did not go out still holds a tile",
            names=names,
            why=tiles,
        )
    if one_may_be_out:
        return _(
            "%(names)s all count 0, but only one player goes out and %(why)s: a player "
            "who did not go out still holds a tile",
            names=names,
            why=tiles,
        )
    if len(zeros) == 2:
        return _(
            "%(names)s both count 0, but %(why)s: a player who did not go out still holds a tile",
            names=names,
            why=tiles,
        )
    return _(
        "%(names)s all count 0, but %(why)s: a player who did not go out still holds a tile",
        names=names,
        why=tiles,
    )

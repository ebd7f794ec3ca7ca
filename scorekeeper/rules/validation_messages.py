"""The sentences of the round validator (rules/validation.py): one function per message family,
each taking the facts and returning the sentence a player reads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.rules.tiles import Tile
from scorekeeper.rules.words import _, ngettext


def names(players: Sequence[Any]) -> str:
    shown = [str(player) for player in players]
    if len(shown) == 1:
        return shown[0]
    return _("%(some)s and %(last)s", some=", ".join(shown[:-1]), last=shown[-1])


def number_word(count: int) -> str:
    """How many copies of the set, in words: "two" (a number past four)."""
    words = {1: _("one"), 2: _("two"), 3: _("three"), 4: _("four")}
    return words.get(count, str(count))


def too_many(player: Any, tile: Tile, count: int, copies: int) -> str:
    """V2: a hand holds a tile more often than the set has it."""
    if copies == 1:
        if count == 2:
            return _(
                "%(player)s has %(tile)s twice: there is only one %(tile)s in the set",
                player=player,
                tile=tile,
            )
        return _(
            "%(player)s has %(tile)s %(count)s times: there is only one %(tile)s in the set",
            player=player,
            tile=tile,
            count=count,
        )
    if count == 2:
        return _(
            "%(player)s has %(tile)s twice: there are only %(copies)s %(tile)s tiles",
            player=player,
            tile=tile,
            copies=number_word(copies),
        )
    return _(
        "%(player)s has %(tile)s %(count)s times: there are only %(copies)s %(tile)s tiles",
        player=player,
        tile=tile,
        count=count,
        copies=number_word(copies),
    )


def cannot_hold(
    player: Any, count: int, pool: int, name: str, copies: int, engine: Tile | None
) -> str:
    """V6: more tiles in a hand than the set has (outside the engine)."""
    facts = {"player": player, "count": count, "pool": pool, "set": name, "engine": engine}
    if copies == 1 and engine is not None:
        return _(
            "%(player)s cannot hold %(count)s tiles: the %(set)s set has only %(pool)s outside "
            "the %(engine)s engine",
            **facts,
        )
    if copies == 1:
        return _(
            "%(player)s cannot hold %(count)s tiles: the %(set)s set has only %(pool)s", **facts
        )
    if engine is not None:
        return _(
            "%(player)s cannot hold %(count)s tiles: the two %(set)s sets have only %(pool)s "
            "outside the %(engine)s engine",
            **facts,
        )
    return _(
        "%(player)s cannot hold %(count)s tiles: the two %(set)s sets have only %(pool)s", **facts
    )


def all_hands(together: int, most: int, name: str, copies: int, engine: Tile | None) -> str:
    """V7: the hands together hold more pips than the set (outside the engine)."""
    facts = {"pips": together, "most": most, "set": name, "engine": engine}
    if copies == 1 and engine is not None:
        return _(
            "All hands together hold %(pips)s pips, but the %(set)s set holds only %(most)s "
            "outside the %(engine)s engine",
            **facts,
        )
    if copies == 1:
        return _(
            "All hands together hold %(pips)s pips, but the %(set)s set holds only %(most)s",
            **facts,
        )
    if engine is not None:
        return _(
            "All hands together hold %(pips)s pips, but the two %(set)s sets hold only "
            "%(most)s outside the %(engine)s engine",
            **facts,
        )
    return _(
        "All hands together hold %(pips)s pips, but the two %(set)s sets hold only %(most)s",
        **facts,
    )


def off_the_set(player: Any, tile: Tile, bad: list[int], name: str) -> str:
    """V1: a tile with a half (or two) past the set's highest number."""
    if len(bad) == 1:
        return _(
            "%(player)s's %(tile)s: %(number)s is not on a %(set)s set",
            player=player,
            tile=tile,
            number=bad[0],
            set=name,
        )
    return _(
        "%(player)s's %(tile)s: %(numbers)s are not on a %(set)s set",
        player=player,
        tile=tile,
        numbers=names(bad),
        set=name,
    )


def total_unusable(
    player: Any, raw: object, value: int | None, whole_set: int, name: str, copies: int
) -> str:
    """V10: a total that is missing, not a whole number, negative or more than the set holds."""
    if raw is None:
        return _("%(player)s's total is missing", player=player)
    if value is None:
        shown = f'"{raw}"' if isinstance(raw, str) else str(raw)
        return _(
            "%(player)s's total must be a whole number, not %(value)s",
            player=player,
            value=shown,
        )
    if value < 0:
        return _("%(player)s's total cannot be negative (%(value)s)", player=player, value=value)
    if copies == 1:
        return _(
            "%(player)s's total %(total)s is more than the whole of the %(set)s set "
            "holds (%(most)s)",
            player=player,
            total=value,
            set=name,
            most=whole_set,
        )
    return _(
        "%(player)s's total %(total)s is more than the whole of the two %(set)s "
        "sets hold (%(most)s)",
        player=player,
        total=value,
        set=name,
        most=whole_set,
    )


def tiles_disagree(player: Any, tiles_sum: int, total: int) -> str:
    """V8: the tiles and the typed total differ."""
    return _(
        "%(player)s's tiles add up to %(sum)s, but the total says %(total)s",
        player=player,
        sum=tiles_sum,
        total=total,
    )


def count_disagrees(player: Any, entered: int, count: int) -> str:
    """V8: the tiles entered and the typed tile count differ."""
    return ngettext(
        "%(player)s has %(num)s tile entered, but the tile count says %(count)s",
        "%(player)s has %(num)s tiles entered, but the tile count says %(count)s",
        entered,
        player=player,
        count=count,
    )


def above_count(player: Any, total: int, count: int, most: int) -> str:
    """V6: a total more than ``count`` tiles can hold."""
    return ngettext(
        "%(player)s's total %(total)s is more than %(num)s tile can hold (at most %(most)s)",
        "%(player)s's total %(total)s is more than %(num)s tiles can hold (at most %(most)s)",
        count,
        player=player,
        total=total,
        most=most,
    )


def below_count(player: Any, total: int, count: int, least: int) -> str:
    """V6: a total less than ``count`` tiles can hold."""
    return ngettext(
        "%(player)s's total %(total)s is less than %(num)s tile can hold (at least %(least)s)",
        "%(player)s's total %(total)s is less than %(num)s tiles can hold (at least %(least)s)",
        count,
        player=player,
        total=total,
        least=least,
    )


def above_all_tiles(player: Any, total: int, most: int, engine: Tile | None) -> str:
    """V6: a total (no tile count) more than all the tiles outside the engine hold."""
    if engine:
        return _(
            "%(player)s's total %(total)s is more than all the tiles outside "
            "the %(engine)s engine hold (%(most)s)",
            player=player,
            total=total,
            engine=engine,
            most=most,
        )
    return _(
        "%(player)s's total %(total)s is more than all the tiles hold (%(most)s)",
        player=player,
        total=total,
        most=most,
    )


def shared_tile(holders: list[Any], tile: Tile, count: int, copies: int) -> str:
    """V3: a tile in two hands (more often than the set has it)."""
    if copies == 1 and len(holders) == 2:
        return _(
            "%(names)s both have %(tile)s: a tile can be in only one hand",
            names=names(holders),
            tile=tile,
        )
    if copies == 1:
        return _(
            "%(names)s all have %(tile)s: a tile can be in only one hand",
            names=names(holders),
            tile=tile,
        )
    return _(
        "%(names)s have %(tile)s %(count)s times between them: there are only "
        "%(copies)s %(tile)s tiles",
        names=names(holders),
        tile=tile,
        count=count,
        copies=number_word(copies),
    )


def engine_in_hand(holder: Any, holders: list[Any], engine: Tile, count: int, copies: int) -> str:
    """V4: the round's engine is in a hand."""
    if copies == 1:
        return _(
            "The %(tile)s is this round's engine: it is in the middle, not in %(player)s's hand",
            tile=engine,
            player=holder,
        )
    return _(
        "The %(tile)s is this round's engine: one is in the middle, so only one can "
        "be in a hand (%(names)s have %(count)s)",
        tile=engine,
        names=names(holders),
        count=count,
    )


def went_out_with_tiles(player: Any, entered: int) -> str:
    """V5: the player who went out has tiles entered."""
    return ngettext(
        "%(player)s went out, so %(player)s has no tiles left, but %(num)s tile is entered",
        "%(player)s went out, so %(player)s has no tiles left, but %(num)s tiles are entered",
        entered,
        player=player,
    )


def several_empty(empty: list[Any]) -> str:
    """V5: two or more hands are empty in a round nobody went out of."""
    if len(empty) == 2:
        return _(
            "%(names)s both have no tiles left: only one player can go out in a round",
            names=names(empty),
        )
    return _(
        "%(names)s all have no tiles left: only one player can go out in a round",
        names=names(empty),
    )

"""The games the app scores, collected from their declarations (``GameVariant``).

Each game's module declares it; ``rules.games`` registers them in order (Mexican Train first:
the default). Every list of games the app keeps is read from here: the names and labels
(``VARIANTS``), who wins (``higher_wins``), the deal sheets and their sources, the house rules
each game offers (entered in ``rules.house`` by ``register``). A test can register a game of
its own and take it out again (``unregister``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from scorekeeper.rules.house import offer, withdraw

if TYPE_CHECKING:
    from scorekeeper.rules.games.declaration import GameVariant
    from scorekeeper.rules.games.sheets import SheetSource

_GAMES: dict[str, GameVariant] = {}

#: Every game the app scores, by the name stored with each game, in the order offered.
VARIANTS: Mapping[str, GameVariant] = MappingProxyType(_GAMES)


def register(game: GameVariant) -> GameVariant:
    """Add a game: its name and house rules join every list the app keeps."""
    if game.name in _GAMES:
        raise ValueError(f"A game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    offer(game.name, game.house_rules)
    return game


def unregister(name: str) -> None:
    """Take a game out again (a test's toy game)."""
    _GAMES.pop(name, None)
    withdraw(name)


def variant_named(name: str) -> GameVariant:
    """The game stored as ``name``; raises ValueError for a game this version cannot score."""
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"Unknown game: {name!r}") from None


def default_game() -> GameVariant:
    """The game a new game, an old row without a game or an empty import cell means."""
    return next(iter(_GAMES.values()))


def variant_or_default(name: str | None) -> GameVariant:
    """The game stored as ``name``, or the default game for an unknown or empty one."""
    return _GAMES.get(name or "") or default_game()


WHO_WINS_RULES = ("score_by",)  # the only stored house rules ``higher_wins`` looks at


def higher_wins(kind: str, rules: Mapping[str, object] | None) -> bool:
    """Whether the highest total wins a game of ``kind`` under its stored house rules (the
    points games; arrivals scoring). An unknown kind is scored as the default game. It reads
    only the rules named in ``WHO_WINS_RULES`` (league standings read just those from the
    database)."""
    variant = _GAMES.get(kind)
    if variant is not None and not variant.lower_is_better:
        return True
    return bool(rules) and rules.get("score_by") == "arrivals"  # type: ignore[union-attr]


def deal_sources(kind: str, used: str, max_pip: int, copies: int = 1) -> tuple[SheetSource, ...]:
    """Where the deal of a round comes from: the published sources of the sheet it used.
    ``used`` is the deal plan's source: "table" (the game's own sheet, or the default game's
    standard table), a preset's name (also chosen for a game before it had sheets of its
    own), "custom" or "computed" (no source: the group's number, or a suggestion)."""
    if copies != 1 or used in ("custom", "computed"):
        return ()
    sheet = "standard" if used == "table" else used
    game = variant_or_default(kind)
    owner = game if sheet == "standard" and game.sheets.own else default_game()
    sources = owner.sheets.sources
    found = sources.get((sheet, max_pip))
    if found is None and not owner.sheets.own and sheet == "standard":
        found = sources.get((sheet, None))
    return found or ()


def sheet_sources() -> dict[tuple[str, str, int | None], tuple[SheetSource, ...]]:
    """Every (game, sheet, set) -> its sources, as docs/rules.md's deal sheets table cites them."""
    return {
        (game.name, sheet, max_pip): found
        for game in _GAMES.values()
        for (sheet, max_pip), found in game.sheets.sources.items()
    }


def sources() -> dict[str, SheetSource]:
    """Every source a deal sheet cites, by its key in docs/rules.md."""
    return {source.key: source for found in sheet_sources().values() for source in found}

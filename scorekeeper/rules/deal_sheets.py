"""Each game's own deal sheets (rules.md 2.3 and 5): players -> tiles each, by set.

Mexican Train's sheets are the named double-12 presets and the default table of
``rules.schedule``; the other games deal from the sheets below, published for each game (the
sources are listed in docs/rules.md). Where a game has no sheet for a set, the app shows the
computed suggestion and says so. Standard library only; nothing here imports the rest of the
rules, so the "Rules in play" wording can name the sheets.

- Chicken Foot: double-6, 5 each for 2-4 players (Chickie Sixes, onlinedominogames.com);
  double-9, 9 each for 2 players, 7 each for 3-6, 6 each for 7-8 (the usual double-9 sheet:
  "two players nine, three or four seven"; "if 8 play, each draw 6").
- All Fives (Muggins), Fives and Threes, Draw: double-6, 7 each for 2 players, 5 each for 3-4.
- Block: double-6 for 2-4 players, double-9 for 5-7, double-12 for 8-10, 7 each in every case
  (the Block sheet: "each player receives seven dominoes").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from scorekeeper.rules.words import LazyText, _, lazy

_FIVES = MappingProxyType({6: MappingProxyType({2: 7, 3: 5, 4: 5})})

#: game -> set (highest double) -> players -> tiles each, for one set.
GAME_SHEETS: Mapping[str, Mapping[int, Mapping[int, int]]] = MappingProxyType(
    {
        "chicken_foot": MappingProxyType(
            {
                6: MappingProxyType({2: 5, 3: 5, 4: 5}),
                9: MappingProxyType({2: 9, 3: 7, 4: 7, 5: 7, 6: 7, 7: 6, 8: 6}),
            }
        ),
        "all_fives": _FIVES,
        "fives_and_threes": _FIVES,
        "draw": _FIVES,
        "block": MappingProxyType(
            {
                6: MappingProxyType({2: 7, 3: 7, 4: 7}),
                9: MappingProxyType({5: 7, 6: 7, 7: 7}),
                12: MappingProxyType({8: 7, 9: 7, 10: 7}),
            }
        ),
    }
)

#: What each game's sheet is called in "Rules in play".
SHEET_NAMES: Mapping[str, LazyText] = MappingProxyType(
    {
        "chicken_foot": lazy("Chicken Foot sheet"),
        "all_fives": lazy("All Fives sheet"),
        "fives_and_threes": lazy("Fives and Threes sheet"),
        "draw": lazy("Draw sheet"),
        "block": lazy("Block sheet"),
    }
)


def sheet_for(game: str, max_pip: int, copies: int = 1) -> Mapping[int, int]:
    """The game's sheet for one double-``max_pip`` set, players -> tiles each; empty when the
    game has none for that set (or for two sets mixed)."""
    if copies != 1:
        return MappingProxyType({})
    return GAME_SHEETS.get(game, {}).get(max_pip, MappingProxyType({}))


def sheet_words(sheet: Mapping[int, int]) -> str:
    """A sheet in a few words: "5 each for 2-4 players", "9 each for 2 players, 7 for 3-6, 6
    for 7-8"."""
    runs: list[tuple[int, int, int]] = []  # (first players, last players, tiles)
    for players in sorted(sheet):
        tiles = sheet[players]
        if runs and runs[-1][2] == tiles and runs[-1][1] == players - 1:
            runs[-1] = (runs[-1][0], players, tiles)
        else:
            runs.append((players, players, tiles))
    parts = []
    for index, (first, last, tiles) in enumerate(runs):
        players = str(first) if first == last else f"{first}-{last}"
        if index == 0:
            parts.append(_("%(tiles)s each for %(players)s players", tiles=tiles, players=players))
        else:
            parts.append(_("%(tiles)s for %(players)s players", tiles=tiles, players=players))
    return ", ".join(parts)

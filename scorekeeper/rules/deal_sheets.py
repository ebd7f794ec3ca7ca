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
from typing import NamedTuple

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


class SheetSource(NamedTuple):
    """A published source of a deal sheet, as docs/rules.md cites it: its key there, its name
    and its address ("" for the sheets printed in the makers' boxes)."""

    key: str
    name: LazyText
    url: str


#: The sources of the deal sheets, by their keys in docs/rules.md ("Sources"): the site and
#: what the page is about (the translations add that the page is in English).
SOURCES: Mapping[str, SheetSource] = MappingProxyType(
    {
        source.key: source
        for source in (
            SheetSource(
                "htfbw-mt",
                lazy("htfbw.com, Mexican Train"),
                "https://htfbw.com/games-cards/Games/76098.shtml",
            ),
            SheetSource(
                "op-d12",
                lazy("ourpastimes.com, double-twelve dominoes"),
                "https://ourpastimes.com/instructions-double-twelve-dominoes-8530740.html",
            ),
            SheetSource("card", lazy("the rule sheets in the Cardinal and Fundex boxes"), ""),
            SheetSource(
                "odg-cf",
                lazy("onlinedominogames.com, Chickenfoot"),
                "https://onlinedominogames.com/chickenfoot-dominoes",
            ),
            SheetSource(
                "chickie",
                lazy("engraveddominoes.com, Chickie Sixes"),
                "https://engraveddominoes.com/chickie-sixes/",
            ),
            SheetSource(
                "htfbw-cf",
                lazy("htfbw.com, Chicken Foot"),
                "https://htfbw.com/games-cards/Games/39024.shtml",
            ),
            SheetSource(
                "cdd-cf",
                lazy("cardsdicedominoes.com, Chicken Foot"),
                "http://www.cardsdicedominoes.com/chickenfoot-domino-rules.htm",
            ),
            SheetSource(
                "cf-8",
                lazy("heyreviewfood.com, Chicken Feet"),
                "https://heyreviewfood.com/chicken-feet-domino-rules-1647358645",
            ),
            SheetSource(
                "pagat-mug",
                lazy("pagat.com, Muggins"),
                "http://www.pagat.com/tile/wdom/muggins.html",
            ),
            SheetSource(
                "eighty",
                lazy("eightygames, Fives and Threes"),
                "https://eightygames.wordpress.com/2014/03/06/fives-and-threes-dominos/",
            ),
            SheetSource(
                "digi-block",
                lazy("digigamers, Block"),
                "http://www.digigamers.com/help.jsp?DISPLAYPAGE=/parlor/dominoes/BLOCK_RULES.jsp",
            ),
        )
    }
)

_FIVES_SOURCES = ("pagat-mug", "eighty")
#: (game, sheet, set) -> the keys of the sheet's sources, as docs/rules.md's deal sheets table
#: cites them; set None: every other set of that sheet (Mexican Train's standard table).
SHEET_SOURCES: Mapping[tuple[str, str, int | None], tuple[str, ...]] = MappingProxyType(
    {
        ("mexican_train", "standard", 12): ("htfbw-mt",),
        ("mexican_train", "standard", None): ("card",),
        ("mexican_train", "cardinal", 12): ("card",),
        ("mexican_train", "fundex", 12): ("card",),
        ("mexican_train", "gamerules", 12): ("op-d12",),
        ("chicken_foot", "standard", 6): ("odg-cf", "chickie"),
        ("chicken_foot", "standard", 9): ("htfbw-cf", "cdd-cf", "cf-8"),
        ("all_fives", "standard", 6): _FIVES_SOURCES,
        ("fives_and_threes", "standard", 6): _FIVES_SOURCES,
        ("draw", "standard", 6): _FIVES_SOURCES,
        ("block", "standard", 6): ("digi-block",),
        ("block", "standard", 9): ("digi-block",),
        ("block", "standard", 12): ("digi-block",),
    }
)


def deal_sources(game: str, used: str, max_pip: int, copies: int = 1) -> tuple[SheetSource, ...]:
    """Where the deal of a round comes from: the published sources of the sheet it used.
    ``used`` is the deal plan's source: "table" (the game's own sheet, or Mexican Train's
    standard table), a Mexican Train sheet's name (also chosen for a Chicken Foot game before
    it had its own), "custom" or "computed" (no source: the group's number, or a suggestion)."""
    if copies != 1 or used in ("custom", "computed"):
        return ()
    sheet = "standard" if used == "table" else used
    owner = game if sheet == "standard" and game in GAME_SHEETS else "mexican_train"
    keys = SHEET_SOURCES.get((owner, sheet, max_pip))
    if keys is None and owner == "mexican_train" and sheet == "standard":
        keys = SHEET_SOURCES[(owner, sheet, None)]
    return tuple(SOURCES[key] for key in keys or ())

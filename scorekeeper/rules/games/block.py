"""Block (rules.md 5): double-6 for 2-4 players, double-9 for 5-7, double-12 for 8-10, 7
tiles each (the Block sheet: "each player receives seven dominoes"); no drawing; the winner of
a hand scores the others' pips; first to 100 wins."""

from __future__ import annotations

from types import MappingProxyType

from scorekeeper.rules.games.draw import no_points_note
from scorekeeper.rules.games.points import PointGame
from scorekeeper.rules.games.points_game import BLOCK_WIN, points_game
from scorekeeper.rules.games.sheets import GameSheets, SheetSource
from scorekeeper.rules.house import HouseRule, line_per_value
from scorekeeper.rules.words import lazy

_DIGI = SheetSource(
    "digi-block",
    lazy("digigamers, Block"),
    "http://www.digigamers.com/help.jsp?DISPLAYPAGE=/parlor/dominoes/BLOCK_RULES.jsp",
)

BLOCK_TIE = HouseRule(
    name="block_tie",
    label=lazy("Block: a tie for the lowest hand when blocked"),
    options=(
        ("nobody", lazy("Nobody scores")),
        (
            "lightest_tile",
            lazy(
                "The tied player holding the lightest single tile wins the hand (type "
                "the tied hands' tiles)"
            ),
        ),
    ),
    section="points",
    in_play=line_per_value(
        {
            "nobody": None,  # the rule book's tie needs no line
            "lightest_tile": lazy("Blocked hand tied for lowest: the lightest single tile wins"),
        },
        "block_tie",
    ),
    scoring=lazy("Which tied player wins a blocked hand: the one holding the lightest tile."),
)

BLOCK = points_game(
    PointGame(
        name="block",
        label=lazy("Block"),
        description=lazy(
            "Double-6, 2-4 players, no drawing: the winner of a hand scores the others' "
            "pips; first to 100 wins."
        ),
        draws=False,
        makes_points=False,
        spinner=lazy("No spinner: the line has two ends; doubles are laid crosswise"),
        sheets=GameSheets(
            by_set=MappingProxyType(
                {
                    6: MappingProxyType({2: 7, 3: 7, 4: 7}),
                    9: MappingProxyType({5: 7, 6: 7, 7: 7}),
                    12: MappingProxyType({8: 7, 9: 7, 10: 7}),
                }
            ),
            name=lazy("Block sheet"),
            sources=MappingProxyType(
                {("standard", 6): (_DIGI,), ("standard", 9): (_DIGI,), ("standard", 12): (_DIGI,)}
            ),
        ),
        usual_target=lambda rules: 100,
        scoring_note=no_points_note,
        # A blocked hand tied for lowest: under "lightest tile" the tied player holding the
        # lightest single tile wins it.
        tie_by_lightest=lambda rules: rules.block_tie == "lightest_tile",
        own_rules=(BLOCK_WIN, BLOCK_TIE),
    )
)

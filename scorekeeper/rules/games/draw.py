"""Draw (rules.md 5): double-6, 2-4 players, drawing when you cannot play; no points during
play: the winner of a hand scores the others' pips; first to 100 wins."""

from __future__ import annotations

from types import MappingProxyType

from scorekeeper.rules.games.all_fives import FIVES_SHEET, FIVES_SOURCES
from scorekeeper.rules.games.points import PointGame
from scorekeeper.rules.games.points_game import BLOCK_WIN, points_game
from scorekeeper.rules.games.sheets import GameSheets
from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.words import _, lazy


def no_points_note(rules: HouseRules) -> str:
    """The table's note of a game without points during play."""
    return _("No points during play: the winner of the hand scores the others' pips")


DRAW = points_game(
    PointGame(
        name="draw",
        label=lazy("Draw"),
        description=lazy(
            "Double-6, 2-4 players, drawing when you cannot play: the winner of a hand "
            "scores the others' pips; first to 100 wins."
        ),
        draws=True,
        makes_points=False,
        spinner=lazy("No spinner: the line has two ends; doubles are laid crosswise"),
        sheets=GameSheets(
            by_set=FIVES_SHEET,
            name=lazy("Draw sheet"),
            sources=MappingProxyType({("standard", 6): FIVES_SOURCES}),
        ),
        usual_target=lambda rules: 100,
        scoring_note=no_points_note,
        own_rules=(BLOCK_WIN,),
    )
)

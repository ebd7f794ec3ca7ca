"""Every game the app scores, one module each, collected here (the registry).

A game is one declaration (``declaration.GameVariant``) in its own module: Mexican Train,
Chicken Foot, All Fives, Fives and Threes, Draw and Block. They are registered below, in the
order the app offers them (the first is the default game); every list of games is read from
``registry``. CONTRIBUTING.md ("Add a game") walks through adding one.
"""

from __future__ import annotations

from scorekeeper.rules.games import registry
from scorekeeper.rules.games.all_fives import ALL_FIVES
from scorekeeper.rules.games.block import BLOCK
from scorekeeper.rules.games.chicken_foot import CHICKEN_FOOT
from scorekeeper.rules.games.declaration import GameVariant
from scorekeeper.rules.games.draw import DRAW
from scorekeeper.rules.games.fives_and_threes import FIVES_AND_THREES
from scorekeeper.rules.games.mexican_train import MEXICAN_TRAIN
from scorekeeper.rules.games.registry import (
    VARIANTS,
    WHO_WINS_RULES,
    default_game,
    higher_wins,
    register,
    unregister,
    variant_named,
    variant_or_default,
)

for _game in (MEXICAN_TRAIN, CHICKEN_FOOT, ALL_FIVES, FIVES_AND_THREES, DRAW, BLOCK):
    register(_game)

#: The name of the default game (stored for a game, a row or a cell that names none).
DEFAULT_KIND = default_game().name

__all__ = [
    "DEFAULT_KIND",
    "VARIANTS",
    "WHO_WINS_RULES",
    "GameVariant",
    "default_game",
    "higher_wins",
    "register",
    "registry",
    "unregister",
    "variant_named",
    "variant_or_default",
]

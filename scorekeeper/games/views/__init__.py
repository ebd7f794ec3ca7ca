"""Views of a game, one module per sub-area (all on one blueprint, ``games``). Thin: parse the
form, call one service, render or redirect.

- common: the blueprint, loading a game, the editor check
- setup: the home page, a new game, play again
- table: the table view, unlocking with the edit code, scoreboard, undo, finish, summary, CSV
- rounds: entering and correcting a round, the live check
- round_photos: the photo steps of the round form, and the photos kept
- watch: the read-only share view and what it polls
- results: the result card (SVG for the phone to share as PNG) and the print view
"""

from scorekeeper.games.views import (  # noqa: F401  (each registers its routes)
    results,
    round_photos,
    rounds,
    setup,
    table,
    watch,
)
from scorekeeper.games.views.common import bp

__all__ = ["bp"]

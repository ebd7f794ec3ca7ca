"""A game as one request needs it: its row, its rules, its variant and its rows, worked out once.

A view (or a command) calls ``load(game)`` once it has the game's row (locked, for a write) and
hands the value to the services it calls; they take what they need from it and give the rules
its plain parts (``rules``, ``variant``, the rows' seats and rounds):

- ``rules`` (``setup.game_rules``) and ``variant`` (``setup.variant_of``) are worked out when
  the value is made;
- ``rows`` (``rows.table``) are read on first use, and again once the request has written to
  the game (``setup.touch`` moves its version on): the rows read before describe the version
  before the write.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.games import rows as table_rows
from scorekeeper.games.setup import game_rules, variant_of
from scorekeeper.models import Game
from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import GameVariant


@dataclass(frozen=True, slots=True, eq=False)
class LoadedGame:
    """The game's row (``game``), its house rules (``rules``), its variant (``variant``) and
    its seats, rounds and scores as plain rows (``rows``). Made by ``load``."""

    game: Game
    rules: HouseRules
    variant: GameVariant
    _rows: dict[int, table_rows.TableRows] = field(default_factory=dict, init=False, repr=False)

    @property
    def rows(self) -> table_rows.TableRows:
        """The game's seats and rounds with their scores (``rows.table``), read once for each
        version of the game this request sees."""
        version = self.game.version
        if version not in self._rows:
            self._rows.clear()
            self._rows[version] = table_rows.table(self.game)
        return self._rows[version]


def load(game: Game) -> LoadedGame:
    """What a request needs of ``game``, worked out once (its rows on first use)."""
    return LoadedGame(game, game_rules(game), variant_of(game))

"""A game as one request needs it: its row, its rules, its variant and its rows, worked out once.

A view (or a command) calls ``load(game)`` once it has the game's row (locked, for a write) and
hands the value to the services it calls; they take what they need from it and give the rules
its plain parts (``rules``, ``variant``, the rows' seats and rounds). Nothing here goes back to
the database or the kept values a second time in a request:

- ``rules`` (``setup.game_rules``) and ``variant`` (``setup.variant_of``) are worked out when
  the value is made;
- ``rows`` (``rows.table``) are taken on first use: from what is kept for the game's version,
  or read, so a page whose values are all kept for this version (``games.kept``) reads no rows.
  For a write, the first use comes after the game's row was locked, so they are what the
  database holds. Once the request has written to the game (``setup.touch``), they are read
  afresh on every use, as ``rows.table`` does after a write: the rows taken before describe
  the version before the write.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.games import rows as table_rows
from scorekeeper.games.setup import game_rules, variant_of
from scorekeeper.games.totals import WRITTEN
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
    _rows: list[table_rows.TableRows] = field(default_factory=list, init=False, repr=False)

    @property
    def rows(self) -> table_rows.TableRows:
        """The game's seats and rounds with their scores (``rows.table``), taken once."""
        if self.game.__dict__.get(WRITTEN):  # written in this request: what it holds now
            return table_rows.table(self.game)
        if not self._rows:
            self._rows.append(table_rows.table(self.game))
        return self._rows[0]


def load(game: Game) -> LoadedGame:
    """What a request needs of ``game``, worked out once (its rows on first use)."""
    return LoadedGame(game, game_rules(game), variant_of(game))

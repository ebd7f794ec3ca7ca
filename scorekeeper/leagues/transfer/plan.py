"""What an import would write, and what is wrong with the file: nothing is written until the
whole file is valid."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scorekeeper.rules.games import DEFAULT_KIND

# --------------------------------------------------------------------------------------------
# Import: read and check everything, then write


@dataclass(frozen=True)
class Problem:
    line: int
    message: str


@dataclass
class PlannedScore:
    line: int
    points: int
    hand: int | None
    tiles: str | None
    markers: int
    went_out: bool | None  # None: the file has no went_out column
    on_double: bool
    engine: int | None
    open_doubles: int = 0
    made: int = 0  # points made during play (points games)


@dataclass
class PlannedGame:
    table: str
    number: int
    first_line: int
    finished: bool = True
    ended_early: bool = False  # the table stopped before the game's last round
    kind: str = DEFAULT_KIND  # the game played (a rules.games name)
    players: list[str] = field(default_factory=list)  # seat order: first appearance
    starts: dict[str, int] = field(default_factory=dict)  # a late joiner's starting total
    rounds: dict[int, dict[str, PlannedScore]] = field(default_factory=dict)
    rules: dict[str, Any] | None = None  # the game's own house rules (None: the league's)


@dataclass
class PlannedNight:
    played_on: date
    place: str
    games: list[PlannedGame] = field(default_factory=list)
    existing_id: int | None = None


@dataclass
class ImportPlan:
    """A checked file: ``problems`` (line numbers and reasons) or what would be written."""

    fatal: str | None = None
    problems: list[Problem] = field(default_factory=list)
    nights: list[PlannedNight] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    known_players: list[str] = field(default_factory=list)
    roster_only: list[str] = field(default_factory=list)  # roster players without games
    # Entries merged into another player (name, the survivor's name): old links keep working.
    merged: list[tuple[str, str]] = field(default_factory=list)
    # The roster file's order of names (name keys): new players are added in it, so the
    # league's list of players reads as the exported one did.
    order: list[str] = field(default_factory=list)
    seasons: list[tuple[str, date, date]] = field(default_factory=list)
    guests: set[str] = field(default_factory=set)
    rows: int = 0
    player_ids: dict[str, int] = field(default_factory=dict)  # folded name -> existing player
    from_json: bool = False  # the JSON export: a line is a score, in the file's order

    @property
    def games(self) -> int:
        return sum(len(night.games) for night in self.nights)

    @property
    def rounds(self) -> int:
        return sum(len(game.rounds) for night in self.nights for game in night.games)

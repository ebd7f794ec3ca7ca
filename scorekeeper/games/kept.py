"""What a game's pages show, worked out once per game version in each server process.

Every write that changes what a game's pages show moves the game's version on: a round saved,
corrected or undone, a player joining, the game ending or going on (``setup.touch``), and a
league player renamed or merged (``totals.games_shown_again``). So the scoreboard, the table
state, the chart and the corrections of one version never change: they are plain values worked
out from the rows, and a process keeps the newest few thousand (``rows.KEEP``) under (game,
version, what).

A page reads the game's row first (one query, which says the version) and only reads the seats,
rounds and scores (as plain rows, ``rows.table``, kept the same way) when this process has not
yet worked out that version (the first look after a save; every other phone at the table then
gets it from here). Another process keeps its own;
no process needs to be told anything: a new version simply has no entry yet, and old ones drop
out as new ones come in. Only values that are the same for every viewer are kept (whether this
phone may edit is asked on every request); a value with words in it is kept once per language
(``rows.for_version``), so no phone reads the words of another phone's language.

A value worked out from rows newer than the version it is kept under (PostgreSQL reads each
statement at its own moment, so a save may land between reading the version and the rounds) is
never shown for an older state: versions only go up, and a page showing version v with newer
rounds polls, sees the newer version and fetches again.
"""

from __future__ import annotations

from scorekeeper.games.corrections import AuditLine, corrections_shown
from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.presentation import Scoreboard, scoreboard
from scorekeeper.games.rounds import TableState, joiner_start, playing_engine, table_state
from scorekeeper.games.rows import for_version, forget_all, while_same

__all__ = [
    "board",
    "corrections",
    "for_version",
    "forget_all",
    "in_play",
    "joining",
    "state",
    "while_same",
]


# --------------------------------------------------------------------------------------------
# The values a game's pages show, kept


def board(loaded: LoadedGame) -> Scoreboard:
    """The scoreboard (``presentation.scoreboard``) of this version of the game."""
    return for_version(loaded.game, "board", lambda: scoreboard(loaded))


def state(loaded: LoadedGame) -> TableState:
    """What the table needs for the next round (``rounds.table_state``)."""
    return for_version(loaded.game, "state", lambda: table_state(loaded))


def engine(loaded: LoadedGame) -> int | None:
    """The engine of the round being played (``rounds.playing_engine``): all the share view
    needs of the table's state."""
    return for_version(loaded.game, "engine", lambda: playing_engine(loaded))


def corrections(loaded: LoadedGame) -> tuple[list[AuditLine], int | None]:
    """The corrections in words, newest first, and the batch "Undo" would undo now. Nothing is
    read when the game's row came with its correction flag (``setup.find_game``) saying none."""
    if loaded.game.has_corrections is False:
        return [], None
    return for_version(loaded.game, "corrections", lambda: corrections_shown(loaded))


def in_play(loaded: LoadedGame) -> list[str]:
    """The rules in play, in words."""
    return for_version(loaded.game, "in_play", lambda: list(loaded.variant.describe(loaded.rules)))


def joining(loaded: LoadedGame) -> tuple[str, int]:
    """For a player who sits down now: the name of the last seat (they sit after it) and the
    total they start with."""
    return for_version(
        loaded.game, "joining", lambda: (loaded.rows.seats[-1].name, joiner_start(loaded))
    )

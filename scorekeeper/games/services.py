"""Use cases of a game at one table, by sub-area (indico-style operations):

- ``setup``: load and start a game, its rules and variant, delete it;
- ``rounds``: the table's next round, checking and recording rounds, ending early;
- ``corrections``: correcting a round against the values the phone saw, undo, the history;
- ``joining``: a player who sits down at a running game;
- ``presentation``: the scoreboard, the result as text and CSV, rounds in words.

This module gathers them so a view needs one import (``services.record_round``). Services load
rows, hand plain values to ``scorekeeper.rules`` and write rows; they ``flush()`` and never
commit (the request boundary does). Nothing here renders HTML.
"""

from __future__ import annotations

from scorekeeper.games.corrections import (
    AuditLine,
    ValueChange,
    audit_trail,
    correct_round,
    corrections_shown,
    describe_changes,
    find_round,
    last_correction_batch,
    round_input_of,
    round_values,
    undo_last_correction,
)
from scorekeeper.games.joining import join_game
from scorekeeper.games.loaded import LoadedGame, load
from scorekeeper.games.presentation import (
    BoardPlayer,
    BoardRow,
    Cell,
    Scoreboard,
    SeatLine,
    describe_input,
    describe_round,
    game_as_text,
    game_csv_rows,
    line_differences,
    scoreboard,
)
from scorekeeper.games.rounds import (
    RecordOutcome,
    TableState,
    check_round,
    engine_for,
    finish_game,
    joiner_start,
    playing_engine,
    record_round,
    reopen_game,
    table_state,
)
from scorekeeper.games.setup import (
    EDIT_CODE_ALPHABET,
    GAME_VERSION,
    MAX_NAME,
    GameError,
    GameState,
    RoundChanged,
    RoundTaken,
    clean_names,
    create_game,
    delete_game,
    find_game,
    game_rules,
    game_state,
    load_game,
    lock_game,
    my_games,
    new_edit_code,
    play_again,
    recent_names,
    touch,
    variant_of,
)
from scorekeeper.rules.round_check import RoundCheck, RoundInput, SeatCheck, SeatInput

__all__ = [
    "EDIT_CODE_ALPHABET",
    "MAX_NAME",
    "AuditLine",
    "BoardPlayer",
    "BoardRow",
    "Cell",
    "GameError",
    "GameState",
    "LoadedGame",
    "RecordOutcome",
    "RoundChanged",
    "RoundCheck",
    "RoundInput",
    "RoundTaken",
    "Scoreboard",
    "SeatCheck",
    "SeatInput",
    "SeatLine",
    "TableState",
    "ValueChange",
    "audit_trail",
    "corrections_shown",
    "check_round",
    "clean_names",
    "correct_round",
    "create_game",
    "delete_game",
    "describe_changes",
    "describe_input",
    "describe_round",
    "engine_for",
    "find_round",
    "finish_game",
    "line_differences",
    "game_as_text",
    "game_csv_rows",
    "game_rules",
    "GAME_VERSION",
    "game_state",
    "join_game",
    "joiner_start",
    "playing_engine",
    "last_correction_batch",
    "load",
    "find_game",
    "load_game",
    "lock_game",
    "my_games",
    "new_edit_code",
    "play_again",
    "recent_names",
    "record_round",
    "reopen_game",
    "round_input_of",
    "round_values",
    "scoreboard",
    "table_state",
    "touch",
    "undo_last_correction",
    "variant_of",
]

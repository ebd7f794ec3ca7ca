"""What a game's pages show, worked out once per game version in each server process.

Every write that changes what a game's pages show moves the game's version on: a round saved,
corrected or undone, a player joining, the game ending or going on (``setup.touch``), and a
league player renamed or merged (``totals.games_shown_again``). So the scoreboard, the table
state, the chart and the corrections of one version never change: they are plain values worked
out from the rows, and a process keeps the newest few hundred under (game, version, what).

A page reads the game's row first (one query, which says the version) and only loads the seats,
rounds and scores when this process has not yet worked out that version (the first look after a
save; every other phone at the table then gets it from here). Another process keeps its own;
no process needs to be told anything: a new version simply has no entry yet, and old ones drop
out as new ones come in. Only values that are the same for every viewer are kept (whether this
phone may edit is asked on every request).

A value worked out from rows newer than the version it is kept under (PostgreSQL reads each
statement at its own moment, so a save may land between reading the version and the rounds) is
never shown for an older state: versions only go up, and a page showing version v with newer
rounds polls, sees the newer version and fetches again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.games.corrections import AuditLine, audit_trail, last_correction_batch
from scorekeeper.games.presentation import Scoreboard, scoreboard
from scorekeeper.games.rounds import TableState, joiner_start, table_state
from scorekeeper.games.setup import game_rules, variant_of
from scorekeeper.games.totals import WRITTEN
from scorekeeper.kept_values import KeptValues
from scorekeeper.models import Game, Round, Score, Seat

T = TypeVar("T")

KEEP = 512  # entries per process: a few kinds of value for the games being played right now


_kept = KeptValues(KEEP)


def for_version(game: Game, what: str, make: Callable[[], T]) -> T:
    """``make()``, worked out once for this version of the game (in this process).

    Not kept when this request has written to the game (``setup.touch``): its new version is
    not committed yet, and if the request were rolled back the next write would give the
    same version number to other values."""
    if game.__dict__.get(WRITTEN):
        return make()
    # The public id, not the row id: SQLite may give a deleted game's row id to a new game,
    # whose versions start again at 1; a public id is never given out twice.
    return _kept.get((game.public_id, game.version, what), make)


def forget_all() -> None:
    """Drop everything kept (tests that change rows behind the services' back use it)."""
    _kept.clear()


# --------------------------------------------------------------------------------------------
# The values a game's pages show, kept


class ScoreRow(NamedTuple):
    """A score as the pages show it (the attributes of a Score they read)."""

    seat_id: int
    points: int
    hand: int
    tiles: str | None
    markers: int
    made: int
    corrected: bool


class RoundRow(NamedTuple):
    """A round with its scores as the pages show it (the attributes of a Round they read)."""

    id: int
    number: int
    engine: int | None
    went_out_seat_id: int | None
    went_out_on_double: bool
    scores: list[ScoreRow]


_ROUNDS = (
    select(Round.id, Round.number, Round.engine, Round.went_out_seat_id, Round.went_out_on_double)
    .where(Round.game_id == bindparam("game_id"))
    .order_by(Round.number)
)
_SCORES = (
    select(
        Score.round_id,
        Score.seat_id,
        Score.points,
        Score.hand,
        Score.tiles,
        Score.markers,
        Score.made,
        Score.corrected,
    )
    .join(Round, Round.id == Score.round_id)
    .where(Round.game_id == bindparam("game_id"))
    .order_by(Score.seat_id)
)


def _with_seats(game: Game) -> Game:
    """The game with its seats and their players (one query), unless they are loaded."""
    if "seats" not in game.__dict__:
        seats = db.session.scalars(
            select(Seat)
            .options(joinedload(Seat.player, innerjoin=True))
            .where(Seat.game_id == game.id)
            .order_by(Seat.position)
        ).all()
        set_committed_value(game, "seats", list(seats))
    return game


def _rounds(game: Game) -> list[RoundRow]:
    """The game's rounds and scores as plain rows, in two queries (no ORM objects: about a
    third of the cost of loading them as objects); read once per request, and again after the
    request wrote to the game (pending changes are flushed first: plain queries do not)."""
    cached = game.__dict__.get("_round_rows")
    if cached is None or game.__dict__.get(WRITTEN):
        if db.session.new or db.session.dirty or db.session.deleted:
            db.session.flush()
        connection = db.session.connection()
        scores: dict[int, list[ScoreRow]] = {}
        for round_id, *score in connection.execute(_SCORES, {"game_id": game.id}):
            scores.setdefault(round_id, []).append(ScoreRow(*score))
        cached = [
            RoundRow(*row, scores.get(row[0], []))
            for row in connection.execute(_ROUNDS, {"game_id": game.id})
        ]
        game.__dict__["_round_rows"] = cached
    return cached  # type: ignore[no-any-return]


def board(game: Game) -> Scoreboard:
    """The scoreboard (``presentation.scoreboard``) of this version of the game."""
    return for_version(game, "board", lambda: scoreboard(_with_seats(game), _rounds(game)))


def state(game: Game) -> TableState:
    """What the table needs for the next round (``rounds.table_state``)."""
    return for_version(game, "state", lambda: table_state(_with_seats(game), _rounds(game)))


def corrections(game: Game) -> tuple[list[AuditLine], int | None]:
    """The corrections in words, newest first, and the batch "Undo" would undo now."""

    def make() -> tuple[list[AuditLine], int | None]:
        _with_seats(game)  # the names of the seats the corrections name
        return audit_trail(game), last_correction_batch(game)

    return for_version(game, "corrections", make)


def in_play(game: Game) -> list[str]:
    """The rules in play, in words."""
    return for_version(game, "in_play", lambda: list(variant_of(game).in_play(game_rules(game))))


def joining(game: Game) -> tuple[str, int]:
    """For a player who sits down now: the name of the last seat (they sit after it) and the
    total they start with."""

    def make() -> tuple[str, int]:
        _with_seats(game)
        return game.seats[-1].player.name, joiner_start(game)

    return for_version(game, "joining", make)

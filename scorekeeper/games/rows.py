"""A game's seats, rounds and scores as plain rows, kept per game version in each process.

Every write that changes what a game holds moves the game's version on (``setup.touch``;
``totals.games_shown_again`` for a renamed or merged player), in the same transaction. So the
rows of one version never change, and a process keeps them (with the values worked out from
them, ``games.kept``) under (game, version, what).

Both the pages and the round form and its save read them from here:

- a page reads the game's row (which says the version) and the rows only when this process has
  not seen that version yet;
- a write locks the game's row first (``setup.find_game`` or ``setup.load_game`` with
  ``for_update=True``), so the version it reads is the last one committed and no other write
  can commit before it does: the rows kept for that version are exactly what is in the
  database. (Rows read for a version v are never older than v; they can be newer only when a
  write committed between reading the game's row and the rounds, and then the committed
  version is already beyond v and no writer asks for v again.)

Nothing is kept for a version that the request has not committed (``WRITTEN``): after a write,
the rows are read afresh (pending changes flushed first), and a rolled-back write leaves no rows
under a number the next write will use again.

A saved round knows the rows of the version it makes: those of the version before (read after
the lock, so exactly what the database held) and the round it wrote. It hands them over
(``keep_when_committed``) and they are kept once the request's transaction commits, never if it
rolls back: the table view that the phone opens next, and the next round's form, need not read
them again in this process.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple, TypeVar

from sqlalchemy import bindparam, event, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, SessionTransaction

from scorekeeper.extensions import db
from scorekeeper.games.totals import WRITTEN
from scorekeeper.models import Game, Player, Round, Score, Seat
from scorekeeper.web.i18n import chosen as chosen_language
from scorekeeper.web.lru_values import KeptValues

T = TypeVar("T")

KEEP = 4096  # entries per process (about 5 a game version; 4.6 kB each, 19 MB when full)

_kept = KeptValues(KEEP)


def for_version(game: Game, what: str, make: Callable[[], T]) -> T:
    """``make()``, worked out once for this version of the game (in this process).

    Not kept when this request has written to the game (``setup.touch``): its new version is
    not committed yet, and if the request were rolled back the next write would give the
    same version number to other values."""
    if game.__dict__.get(WRITTEN):
        return make()
    # The public id, not the row id: SQLite may give a deleted game's row id to a new game,
    # whose versions start again at 1; a public id is never given out twice. Values in words
    # (the rules in play, the corrections, the pages' HTML) are kept per language; the rows are
    # the same in every language.
    key = (game.public_id, game.version, what)
    if what != "rows":
        key += (chosen_language(),)
    return _kept.get(key, make)


def while_same(game: Game, what: str, facts: Hashable, make: Callable[[], T]) -> T:
    """``make()``, kept for the game (in this process, in this language) for as long as
    ``facts`` stay the same: for a value that depends on less than the whole version (a fresh
    round form's seats change only with the players, not with every round). ``facts`` must
    hold everything ``make`` reads that can change during a game."""
    if game.__dict__.get(WRITTEN):
        return make()
    return _kept.get((game.public_id, what, facts, chosen_language()), make)


def forget_all() -> None:
    """Drop everything kept (tests that change rows behind the services' back use it)."""
    _kept.clear()


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
    form_token: str
    scores: list[ScoreRow]


class SeatRow(NamedTuple):
    """A seat and its player's name."""

    id: int
    position: int
    name: str
    joined_round: int
    start_total: int


class TableRows(NamedTuple):
    """A game's seats (in seat order) and its rounds (in round order) with their scores."""

    seats: tuple[SeatRow, ...]
    rounds: tuple[RoundRow, ...]

    def totals(self, before: int | None = None) -> list[int]:
        """Each seat's total in seat order (a late joiner's from its starting total), after
        every round, or only the rounds before round ``before``."""
        sums = {seat.id: seat.start_total for seat in self.seats}
        for recorded in self.rounds:
            if before is not None and recorded.number >= before:
                break
            for score in recorded.scores:
                sums[score.seat_id] += score.points
        return [sums[seat.id] for seat in self.seats]

    def hands_of(self, number: int) -> dict[int, int]:
        """Each seat's hand in round ``number``, by position ({} when there is none)."""
        positions = {seat.id: seat.position for seat in self.seats}
        for recorded in self.rounds:
            if recorded.number == number:
                return {positions[s.seat_id]: s.hand for s in recorded.scores}
        return {}


_SEATS = (
    select(Seat.id, Seat.position, Player.name, Seat.joined_round, Seat.start_total)
    .join(Player, Player.id == Seat.player_id)
    .where(Seat.game_id == bindparam("game_id"))
    .order_by(Seat.position)
)
_ROUNDS = (
    # Each round with its scores, in round order, each round's scores in seat order (a round
    # without scores comes once, with None for a score).
    select(
        Round.id,
        Round.number,
        Round.engine,
        Round.went_out_seat_id,
        Round.went_out_on_double,
        Round.form_token,
        Score.seat_id,
        Score.points,
        Score.hand,
        Score.tiles,
        Score.markers,
        Score.made,
        Score.corrected,
    )
    .outerjoin(Score, Score.round_id == Round.id)
    .where(Round.game_id == bindparam("game_id"))
    .order_by(Round.number, Score.seat_id)
)


def flushed_connection() -> Connection:
    """The session's connection, for plain queries, with the session's pending changes flushed
    first: a plain query does not autoflush, and must see what this request wrote."""
    if db.session.new or db.session.dirty or db.session.deleted:
        db.session.flush()
    return db.session.connection()


def _read(game: Game) -> TableRows:
    """Two SQLAlchemy Core queries on the session's connection, in its transaction (pending
    changes flushed first, ``flushed_connection``): the seats with their players' names, and
    the rounds with their scores. Plain rows, not ORM objects: nothing is tracked by the
    session. A first look at a new version in a process reads them: 3 queries → 2 was
    124 → 108 µs (docs/benchmarks.md, "Capacity", fourth sitting)."""
    connection = flushed_connection()
    params = {"game_id": game.id}
    seats = tuple(SeatRow._make(row) for row in connection.execute(_SEATS, params))
    rounds: list[RoundRow] = []
    scores: list[ScoreRow] = []
    for round_id, number, engine, out, on_double, token, *score in connection.execute(
        _ROUNDS, params
    ):
        if not rounds or rounds[-1].id != round_id:
            scores = []
            rounds.append(RoundRow(round_id, number, engine, out, on_double, token, scores))
        if score[0] is not None:
            scores.append(ScoreRow._make(score))
    return TableRows(seats=seats, rounds=tuple(rounds))


def table(game: Game) -> TableRows:
    """The game's seats, rounds and scores as they are now: kept for the game's version, or
    read afresh when this request has written to the game."""
    return for_version(game, "rows", lambda: _read(game))


# --------------------------------------------------------------------------------------------
# Rows a write knows, kept once it is committed

_WHEN_COMMITTED = "scorekeeper.rows.when_committed"  # in the session's info: (key, rows) pairs


def keep_when_committed(game: Game, table: TableRows) -> None:
    """``table`` is what the game holds at its new version (``setup.touch`` moved it on, with
    the game's row locked): keep it under that version once the transaction commits."""
    entry = ((game.public_id, game.version, "rows"), table)
    db.session.info.setdefault(_WHEN_COMMITTED, []).append(entry)


@event.listens_for(Session, "after_commit")
def _keep_committed(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: the transaction goes on
        return
    for key, table in session.info.pop(_WHEN_COMMITTED, ()):
        _kept.put(key, table)


@event.listens_for(Session, "after_soft_rollback")
def _drop_rolled_back(session: Session, _previous: SessionTransaction) -> None:
    # Any rollback, a savepoint's too: what was handed over may describe undone writes.
    session.info.pop(_WHEN_COMMITTED, None)

"""A game's seats, rounds and scores as plain rows, read in two Core queries.

Both the pages and the round form and its save read them (``loaded.LoadedGame.rows``), once per
request and version of the game: a write locks the game's row first (``setup.find_game`` or
``setup.load_game`` with ``for_update=True``), so what it reads after the lock is what the
database holds until it commits.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Round, Score, Seat


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


def table(game: Game) -> TableRows:
    """Two SQLAlchemy Core queries on the session's connection, in its transaction (pending
    changes flushed first, ``flushed_connection``): the seats with their players' names, and
    the rounds with their scores. Plain rows, not ORM objects: nothing is tracked by the
    session."""
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

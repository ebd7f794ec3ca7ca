"""Each seat's game so far, stored on the seat, and the league's standings stamp.

The league pages rank players over years of games. Adding up every round score of every game
on each request does not scale, so every write to a game stores each seat's total, rounds
played, rounds gone out and place on the seat row, worked out by the database from the scores
themselves (one statement, whatever was written: a round, a correction, an undo). The league
pages then read one row per seat.

A league's computed standings are kept (``leagues.standings``) under its ``standings_stamp``,
which gets a new random value whenever something they show may have changed. Only finished
games count in the standings, so a round saved at a table still playing leaves the stamp alone.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from functools import cache

from sqlalchemy import Update, bindparam, case, func, select, update
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.models import Game, League, Night, Round, Score, Seat
from scorekeeper.rules.games import higher_wins


def new_stamp() -> str:
    return secrets.token_hex(8)


def store_totals(games: Iterable[Game]) -> None:
    """Store each seat's total (its start total, for a late joiner, plus its round scores),
    rounds played, rounds gone out and place (lowest total 1st, or highest in a game where the
    highest wins; equal totals share the place and the next one skips: 80, 80, 95 -> 1, 1, 3)
    for ``games``, from the scores in the database. Pending changes are flushed first."""
    games = list(games)
    if not games:
        return
    db.session.flush()
    store_totals_of(
        [game.id for game in games],
        [game.id for game in games if higher_wins(game.kind, game.rules)],
    )
    for game in games:
        for seat in game.__dict__.get("seats", ()):  # only loaded ones (no load for this)
            db.session.expire(seat, ["total", "rounds_played", "rounds_out", "place"])


def store_totals_of(game_ids: list[int], higher_ids: Iterable[int] = ()) -> None:
    """``store_totals`` by game id, without touching loaded objects (bulk writes);
    ``higher_ids``: the games among them where the highest total wins."""
    # On the session's connection (Core): no ORM objects are touched, and the ORM's bulk
    # UPDATE machinery would cost more than the statement.
    db.session.connection().execute(
        _totals_update(), {"game_ids": list(game_ids), "higher_ids": list(higher_ids)}
    )


@cache
def _totals_update() -> Update:
    """One UPDATE ... FROM for every seat of the games: the sums come from correlated
    subqueries on the covering indexes, the places from ``rank()`` (equal totals share, the
    next place skips). Built once: the statement is the same for every write."""
    seat = aliased(Seat)
    points = (
        select(func.coalesce(func.sum(Score.points), 0))
        .where(Score.seat_id == seat.id)
        .correlate(seat)
        .scalar_subquery()
    )
    played = select(func.count()).where(Score.seat_id == seat.id).correlate(seat).scalar_subquery()
    out = (
        select(func.count())
        .where(Round.went_out_seat_id == seat.id)
        .correlate(seat)
        .scalar_subquery()
    )
    sums = (
        select(
            seat.id.label("id"),
            seat.game_id.label("game_id"),
            (points + seat.start_total).label("total"),
            played.label("played"),
            out.label("out"),
        )
        .where(seat.game_id.in_(bindparam("game_ids", expanding=True)))
        .subquery()
    )
    ranked = select(
        sums.c.id,
        sums.c.total,
        sums.c.played,
        sums.c.out,
        func.rank()
        .over(
            partition_by=sums.c.game_id,
            order_by=case(
                (sums.c.game_id.in_(bindparam("higher_ids", expanding=True)), -sums.c.total),
                else_=sums.c.total,
            ),
        )
        .label("place"),
    ).subquery()
    return (
        update(Seat.__table__)
        .where(Seat.__table__.c.id == ranked.c.id)
        .values(
            total=ranked.c.total,
            rounds_played=ranked.c.played,
            rounds_out=ranked.c.out,
            place=ranked.c.place,
        )
    )


def standings_changed(league_id: int | None = None, night_id: int | None = None) -> None:
    """Give the league (by id, or the league of ``night_id``) a new standings stamp: standings
    kept under the old one are no longer used, in any server process."""
    if league_id is None:
        if night_id is None:
            return
        target = League.id == select(Night.league_id).where(Night.id == night_id).scalar_subquery()
    else:
        target = League.id == league_id
    db.session.execute(
        update(League)
        .where(target)
        .values(standings_stamp=new_stamp())
        .execution_options(synchronize_session=False)
    )
    # A League loaded in this session reads the new stamp when next asked.
    for item in list(db.session.identity_map.values()):
        if isinstance(item, League) and (league_id is None or item.id == league_id):
            db.session.expire(item, ["standings_stamp"])


def games_shown_again(player_ids: Iterable[int]) -> None:
    """The games these players sat at now show something else (a player renamed, or merged
    into another entry): their versions move on, so phones following them fetch them again
    and nothing worked out for an older version is shown. Call it before
    seats move to another player."""
    ids = list(player_ids)
    if not ids:
        return
    db.session.execute(
        update(Game)
        .where(Game.id.in_(select(Seat.game_id).where(Seat.player_id.in_(ids))))
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )
    # A Game loaded in this session reads its new version when next asked.
    for item in list(db.session.identity_map.values()):
        if isinstance(item, Game):
            db.session.expire(item, ["version"])

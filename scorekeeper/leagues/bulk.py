"""Writing many finished games at once (an import, the demo league) with bulk INSERTs.

Plain specs in, a handful of ``INSERT ... RETURNING`` statements out: one per table, never one
ORM object per score, so five years of a club (about 61,000 round scores) go in within seconds.
Like every service it only flushes; the caller's request (or command) commits.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import insert

from scorekeeper.extensions import db
from scorekeeper.games.setup import EDIT_CODE_ALPHABET
from scorekeeper.games.totals import standings_changed, store_totals_of
from scorekeeper.models import Game, Night, Round, Score, Seat
from scorekeeper.rules.games import DEFAULT_KIND, higher_wins


@dataclass
class ScoreSpec:
    points: int
    hand: int | None = None  # defaults to the points (never below 0)
    tiles: str | None = None
    markers: int = 0
    open_doubles: int = 0
    made: int = 0  # points made during play (points games)


@dataclass
class RoundSpec:
    engine: int | None  # None: a hand of a points game
    scores: list[ScoreSpec | None]  # in seat order; None: not at the table yet (a late joiner)
    went_out: int | None = None  # seat position; None for a blocked round
    on_double: bool = False


@dataclass
class GameSpec:
    table_name: str
    players: list[int]  # player ids in seat order
    rounds: list[RoundSpec]
    rules: dict[str, Any]
    status: str = "finished"
    ended_early: bool = False  # finished before its last round (the average leaves it out)
    kind: str = DEFAULT_KIND
    starts: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat: (joined, start)


@dataclass
class NightSpec:
    played_on: date
    place: str
    games: list[GameSpec] = field(default_factory=list)
    night_id: int | None = None  # an existing night to add the games to


@dataclass(frozen=True)
class Written:
    nights: int
    games: int
    rounds: int
    scores: int


def _code() -> str:
    return "".join(secrets.choice(EDIT_CODE_ALPHABET) for _ in range(6))


def _insert_games(game_specs: list[tuple[NightSpec, GameSpec]], device: str) -> list[int]:
    """Insert the games (evening games: 19:00 on the night, a minute apart so they keep their
    order); their ids, in order."""
    game_rows = []
    for number, (night, game) in enumerate(game_specs):
        when = datetime.combine(night.played_on, time(19, 0), UTC) + timedelta(minutes=number)
        game_rows.append(
            {
                "public_id": secrets.token_urlsafe(9)[:12],
                "edit_code": _code(),
                "creator_device": device,
                "rules": game.rules,
                "first_starter": 0,
                "status": game.status,
                "created_at": when,
                "updated_at": when,
                "finished_at": when if game.status == "finished" else None,
                "night_id": night.night_id,
                "table_name": game.table_name,
                "kind": game.kind,
                "ended_early": game.ended_early,
            }
        )
    return list(
        db.session.scalars(
            insert(Game).returning(Game.id, sort_by_parameter_order=True), game_rows
        ).all()
    )


def _insert_seats(
    game_ids: list[int], game_specs: list[tuple[NightSpec, GameSpec]]
) -> list[list[int]]:
    """Insert every game's seats; each game's seat ids, in seat order."""
    seat_rows = [
        {
            "game_id": game_id,
            "player_id": player_id,
            "position": position,
            "joined_round": game.starts.get(position, (1, 0))[0],
            "start_total": game.starts.get(position, (1, 0))[1],
        }
        for game_id, (_, game) in zip(game_ids, game_specs, strict=True)
        for position, player_id in enumerate(game.players)
    ]
    seat_ids = iter(
        db.session.scalars(
            insert(Seat).returning(Seat.id, sort_by_parameter_order=True), seat_rows
        ).all()
    )
    return [[next(seat_ids) for _ in game.players] for _, game in game_specs]


def _insert_rounds(
    game_ids: list[int],
    seats_of_game: list[list[int]],
    game_specs: list[tuple[NightSpec, GameSpec]],
) -> tuple[int, int]:
    """Insert every game's rounds, then their scores; how many of each."""
    round_rows = []
    for game_id, seats, (_, game) in zip(game_ids, seats_of_game, game_specs, strict=True):
        for number, spec in enumerate(game.rounds, start=1):
            round_rows.append(
                {
                    "game_id": game_id,
                    "number": number,
                    "engine": spec.engine,
                    "went_out_seat_id": seats[spec.went_out] if spec.went_out is not None else None,
                    "went_out_on_double": spec.on_double,
                    "form_token": secrets.token_urlsafe(18),
                }
            )
    # No round at all (every table seated, none started yet): an insert of no rows would
    # insert one empty row instead.
    round_ids = iter(
        db.session.scalars(
            insert(Round).returning(Round.id, sort_by_parameter_order=True), round_rows
        ).all()
        if round_rows
        else []
    )
    score_rows = []
    for seats, (_, game) in zip(seats_of_game, game_specs, strict=True):
        for spec in game.rounds:
            round_id = next(round_ids)
            for seat_id, score in zip(seats, spec.scores, strict=True):
                if score is None:
                    continue
                score_rows.append(
                    {
                        "round_id": round_id,
                        "seat_id": seat_id,
                        "hand": score.hand if score.hand is not None else max(score.points, 0),
                        "tiles": score.tiles,
                        "markers": score.markers,
                        "open_doubles": score.open_doubles,
                        "made": score.made,
                        "points": score.points,
                        "corrected": False,
                    }
                )
    if score_rows:
        db.session.execute(insert(Score), score_rows)
    return len(round_rows), len(score_rows)


def write_nights(league_id: int, nights: Sequence[NightSpec], device: str) -> Written:
    """Insert the nights (or add to existing ones), their games, seats, rounds and scores;
    store each seat's total and place, and give the league a new standings stamp."""
    standings_changed(league_id=league_id)
    new_nights = [spec for spec in nights if spec.night_id is None]
    if new_nights:
        ids = db.session.scalars(
            insert(Night).returning(Night.id, sort_by_parameter_order=True),
            [
                {"league_id": league_id, "played_on": spec.played_on, "place": spec.place}
                for spec in new_nights
            ],
        ).all()
        for spec, night_id in zip(new_nights, ids, strict=True):
            spec.night_id = night_id

    game_specs: list[tuple[NightSpec, GameSpec]] = [
        (night, game) for night in nights for game in night.games
    ]
    if not game_specs:
        db.session.flush()
        return Written(len(new_nights), 0, 0, 0)
    game_ids = _insert_games(game_specs, device)
    seats_of_game = _insert_seats(game_ids, game_specs)
    rounds, scores = _insert_rounds(game_ids, seats_of_game, game_specs)
    higher = [
        game_id
        for game_id, (_, game) in zip(game_ids, game_specs, strict=True)
        if higher_wins(game.kind, game.rules)
    ]
    for start in range(0, len(game_ids), 1000):
        chunk = set(game_ids[start : start + 1000])
        store_totals_of(sorted(chunk), [game_id for game_id in higher if game_id in chunk])
    db.session.flush()
    return Written(len(new_nights), len(game_ids), rounds, scores)

"""A league's data out: one JSON document, or a .zip of CSV files (cells a spreadsheet would
run are neutralised)."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import (
    Game,
    League,
    Night,
    Player,
    Round,
    Score,
    Seat,
)

FORMAT = "scorekeeper-league"
FORMAT_VERSION = 1


# --------------------------------------------------------------------------------------------
# Export


def league_rows(league: League) -> dict[str, list[Any]]:
    """Everything of the league as plain rows, in a fixed number of queries."""
    nights = db.session.execute(
        select(Night.id, Night.played_on, Night.place)
        .where(Night.league_id == league.id)
        .order_by(Night.played_on, Night.id)
    ).all()
    games = db.session.execute(
        select(
            Game.id,
            Game.night_id,
            Game.table_name,
            Game.status,
            Game.kind,
            Game.rules,
            Game.created_at,
            Game.finished_at,
            Game.ended_early,
        )
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league.id)
        .order_by(Night.played_on, Night.id, Game.id)
    ).all()
    seats, rounds, scores = _game_rows(league)
    players = db.session.execute(
        select(Player.id, Player.name, Player.is_guest, Player.merged_into_id)
        .where(Player.league_id == league.id)
        .order_by(Player.id)
    ).all()
    return {
        "nights": list(nights),
        "games": list(games),
        "seats": list(seats),
        "rounds": list(rounds),
        "scores": list(scores),
        "players": list(players),
    }


def _game_rows(league: League) -> tuple[Any, Any, Any]:
    """The seats, rounds and scores of the league's games, in order."""
    # Seats, rounds and scores belong to the league through its games.
    league_games = (
        select(Game.id).join(Night, Night.id == Game.night_id).where(Night.league_id == league.id)
    )
    seats = db.session.execute(
        select(
            Seat.id,
            Seat.game_id,
            Seat.player_id,
            Seat.position,
            Seat.joined_round,
            Seat.start_total,
        )
        .where(Seat.game_id.in_(league_games))
        .order_by(Seat.game_id, Seat.position)
    ).all()
    rounds = db.session.execute(
        select(
            Round.id,
            Round.game_id,
            Round.number,
            Round.engine,
            Round.went_out_seat_id,
            Round.went_out_on_double,
        )
        .where(Round.game_id.in_(league_games))
        .order_by(Round.game_id, Round.number)
    ).all()
    scores = db.session.execute(
        select(
            Score.round_id,
            Score.seat_id,
            Score.hand,
            Score.tiles,
            Score.markers,
            Score.points,
            Score.corrected,
            Score.made,
            Score.open_doubles,
        )
        .join(Round, Round.id == Score.round_id)
        .where(Round.game_id.in_(league_games))
        .order_by(Score.round_id, Score.seat_id)
    ).all()
    return seats, rounds, scores


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_document(league: League) -> dict[str, Any]:
    """The whole league as one JSON-ready document (the passphrase is never exported)."""
    rows = league_rows(league)
    seat_player = {seat.id: seat.player_id for seat in rows["seats"]}
    scores_of: dict[int, list[Any]] = defaultdict(list)
    for score in rows["scores"]:
        scores_of[score.round_id].append(score)
    rounds_of: dict[int, list[Any]] = defaultdict(list)
    for recorded in rows["rounds"]:
        rounds_of[recorded.game_id].append(recorded)
    seats_of: dict[int, list[Any]] = defaultdict(list)
    for seat in rows["seats"]:
        seats_of[seat.game_id].append(seat)
    games_of: dict[int, list[Any]] = defaultdict(list)
    for game in rows["games"]:
        games_of[game.night_id].append(game)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "league": {
            "name": league.name,
            "code": league.code,
            "ranking": league.ranking,
            "min_games": league.min_games,
            "min_nights_percent": league.min_nights_percent,
            "placement_points": [int(p) for p in league.placement_points.split(",") if p],
            "best_nights": league.best_nights,
            "rules": league.rules,
        },
        "seasons": [
            {"name": s.name, "starts_on": s.starts_on.isoformat(), "ends_on": s.ends_on.isoformat()}
            for s in league.seasons
        ],
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "guest": bool(p.is_guest),
                "merged_into": p.merged_into_id,
            }
            for p in rows["players"]
        ],
        "nights": [
            {
                "id": night.id,
                "date": night.played_on.isoformat(),
                "place": night.place,
                "games": [
                    _game_document(
                        game, seats_of[game.id], rounds_of[game.id], scores_of, seat_player
                    )
                    for game in games_of[night.id]
                ],
            }
            for night in rows["nights"]
        ],
    }


def _game_document(
    game: Any,
    seats: list[Any],
    rounds: list[Any],
    scores_of: dict[int, list[Any]],
    seat_player: dict[int, int],
) -> dict[str, Any]:
    """One game of the JSON document: its table, status, kind and rules, its players (and the
    late joiners), its rounds with every score."""
    return {
        "table": game.table_name,
        "status": game.status,
        "kind": game.kind,
        "rules": game.rules,
        "started_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "ended_early": bool(game.ended_early),
        "players": [seat.player_id for seat in seats],
        # Players who joined the running game: from which round, starting with which total.
        "late_joiners": [
            {"player": seat.player_id, "from_round": seat.joined_round, "start": seat.start_total}
            for seat in seats
            if seat.joined_round > 1 or seat.start_total
        ],
        "rounds": [
            {
                "number": r.number,
                "engine": r.engine,
                "went_out": seat_player.get(r.went_out_seat_id),
                "on_double": bool(r.went_out_on_double),
                "scores": [
                    {
                        "player": seat_player[s.seat_id],
                        "hand": s.hand,
                        "tiles": s.tiles,
                        "markers": s.markers,
                        "open_doubles": s.open_doubles,
                        "made": s.made,
                        "points": s.points,
                        "corrected": bool(s.corrected),
                    }
                    for s in scores_of[r.id]
                ],
            }
            for r in rounds
        ],
    }

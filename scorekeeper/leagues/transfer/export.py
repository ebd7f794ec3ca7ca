"""A league's data out: one JSON document, or a .zip of CSV files (cells a spreadsheet would
run are neutralised)."""

from __future__ import annotations

import io
import json
import zipfile
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.leagues.standings import league_table
from scorekeeper.leagues.transfer.reading import SCORE_COLUMNS
from scorekeeper.models import (
    Game,
    League,
    Night,
    Player,
    Round,
    Score,
    Seat,
)
from scorekeeper.rules.placings import game_placings, shown
from scorekeeper.rules.standings import not_ranked_reason
from scorekeeper.rules.variants import higher_wins
from scorekeeper.web.outside_text import csv_text

FORMAT = "scorekeeper-league"
FORMAT_VERSION = 1


# --------------------------------------------------------------------------------------------
# Export


def _rows(league: League) -> dict[str, list[Any]]:
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


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_document(league: League) -> dict[str, Any]:
    """The whole league as one JSON-ready document (the passphrase is never exported)."""
    rows = _rows(league)
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
                    {
                        "table": game.table_name,
                        "status": game.status,
                        "kind": game.kind,
                        "rules": game.rules,
                        "started_at": _iso(game.created_at),
                        "finished_at": _iso(game.finished_at),
                        "ended_early": bool(game.ended_early),
                        "players": [seat.player_id for seat in seats_of[game.id]],
                        # Players who joined the running game: from which round, starting
                        # with which total.
                        "late_joiners": [
                            {
                                "player": seat.player_id,
                                "from_round": seat.joined_round,
                                "start": seat.start_total,
                            }
                            for seat in seats_of[game.id]
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
                            for r in rounds_of[game.id]
                        ],
                    }
                    for game in games_of[night.id]
                ],
            }
            for night in rows["nights"]
        ],
    }


def _csv(rows: Iterable[Iterable[Any]]) -> bytes:
    return csv_text(rows).encode("utf-8-sig")  # the BOM makes spreadsheets read UTF-8


def _yes(value: bool) -> str:
    return "yes" if value else "no"  # i18n: the import format's flags, English in any language


# What the export holds, for whoever opens the .zip: in the language of the phone that exported
# it. The files themselves (their names, columns, yes / no, game kinds, dates) stay English, so
# an import reads an export made in any language.
def export_readme(name: str) -> str:
    return _(
        """Scorekeeper league export: %(name)s

scores.csv    every round score: one row per player per round (import this file, or the whole
              .zip, into a league to rebuild it; the kind column says which game)
games.csv     every game total: one row per player per game, with the place at the table
standings.csv the standings over all nights, by the league's ranking method; players not ranked
              yet follow without a rank, the note column saying why (too few games); only
              the header row when no game has finished
players.csv   the roster, guests and merged entries
nights.csv    every night: date, place, tables, players
seasons.csv   the seasons the standings can be filtered by

The files' column names and values (yes, no, the game's kind) are the same in every language.
Dates are YYYY-MM-DD. The files are UTF-8.
""",
        name=name,
    ) + _(
        "rules.csv     each game's house rules (as JSON), so an import plays every game by the "
        "rules it was played under\n"
    )


def export_zip(league: League) -> bytes:
    """Every CSV file of the league in one .zip."""
    rows = _rows(league)
    names = {p.id: p.name for p in rows["players"]}
    guests = {p.id for p in rows["players"] if p.is_guest}
    nights = {n.id: n for n in rows["nights"]}
    seats_by_id = {seat.id: seat for seat in rows["seats"]}
    game_info: dict[int, tuple[Any, Any, int]] = {}
    per_table: dict[tuple[int, str], int] = defaultdict(int)
    for game in rows["games"]:
        key = (game.night_id, (game.table_name or "").casefold())
        per_table[key] += 1
        game_info[game.id] = (nights[game.night_id], game, per_table[key])
    rounds = {r.id: r for r in rows["rounds"]}

    scores_csv: list[list[Any]] = [list(SCORE_COLUMNS)]
    # A late joiner's game total starts from what they started with.
    starts = {seat.id: seat.start_total for seat in rows["seats"]}
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for seat_id, start in starts.items():
        totals[seat_id][0] += start
    for score in rows["scores"]:
        recorded = rounds[score.round_id]
        night, game, number = game_info[recorded.game_id]
        seat = seats_by_id[score.seat_id]
        totals[seat.id][0] += score.points
        totals[seat.id][1] += 1
        totals[seat.id][2] += recorded.went_out_seat_id == seat.id
        scores_csv.append(
            [
                night.played_on.isoformat(),
                night.place,
                game.table_name or "",
                number,
                names[seat.player_id],
                _yes(seat.player_id in guests),
                recorded.number,
                recorded.engine,
                _yes(recorded.went_out_seat_id == seat.id),
                _yes(recorded.went_out_on_double),
                score.hand,
                score.tiles or "",
                score.markers,
                score.points,
                _yes(game.status == "finished"),
                game.kind,
                score.made,
                score.open_doubles,
                seat.start_total,
                _yes(game.ended_early),
            ]
        )
    # A seat without a round yet (a table just started, a late joiner before their first
    # round): one row with its start and no round or score, so the import seats it too.
    scored = {score.seat_id for score in rows["scores"]}
    for seat in rows["seats"]:
        if seat.id not in scored:
            night, game, number = game_info[seat.game_id]
            scores_csv.append(
                [night.played_on.isoformat(), night.place, game.table_name or "", number,
                 names[seat.player_id], _yes(seat.player_id in guests), "", "", "no", "no", "",
                 "", "", "", _yes(game.status == "finished"), game.kind, "", "",
                 seat.start_total, _yes(game.ended_early)]
            )  # fmt: skip

    games_csv: list[list[Any]] = [
        # i18n: CSV column names (a spreadsheet's, and the import's): English in every language
        ["night", "place", "table", "game", "player", "seat", "total", "rounds", "went_out",
         "place_at_table", "win", "finished", "kind"]
    ]  # fmt: skip
    seats_of: dict[int, list[Any]] = defaultdict(list)
    for seat in rows["seats"]:
        seats_of[seat.game_id].append(seat)
    for game in rows["games"]:
        night, _game, number = game_info[game.id]
        seats = seats_of[game.id]
        places = game_placings(
            {seat.id: totals[seat.id][0] for seat in seats},
            higher_wins=higher_wins(game.kind, game.rules),
        )
        for seat in seats:
            place = places[seat.id].place
            games_csv.append(
                [
                    night.played_on.isoformat(),
                    night.place,
                    game.table_name or "",
                    number,
                    names[seat.player_id],
                    seat.position + 1,
                    totals[seat.id][0],
                    totals[seat.id][1],
                    totals[seat.id][2],
                    place,
                    _yes(place == 1),
                    _yes(game.status == "finished"),
                    game.kind,
                ]
            )

    games_played: dict[int, int] = defaultdict(int)
    for seat in rows["seats"]:
        games_played[seat.player_id] += 1
    # i18n: CSV column names and status values the import reads back: English in every language
    players_csv: list[list[Any]] = [["name", "status", "merged_into", "games"]]
    for p in rows["players"]:
        status = "merged" if p.merged_into_id else "guest" if p.is_guest else "roster"
        players_csv.append(
            [p.name, status, names.get(p.merged_into_id, ""), games_played.get(p.id, 0)]
        )

    # i18n: CSV column names: English in every language
    nights_csv: list[list[Any]] = [["night", "place", "tables", "games", "players"]]
    for night in rows["nights"]:
        night_games = [g for g in rows["games"] if g.night_id == night.id]
        players = {s.player_id for g in night_games for s in seats_of[g.id]}
        tables = {(g.table_name or "").casefold() for g in night_games}
        nights_csv.append(
            [night.played_on.isoformat(), night.place, len(tables), len(night_games), len(players)]
        )

    table = league_table(league).table
    standings_csv: list[list[Any]] = [
        # i18n: CSV column names (a spreadsheet's): English in every language
        ["rank", "player", "value", "games", "wins", "average", "points", "method", "note"]
    ]
    for ranked in table.ranked:
        line = ranked.line
        standings_csv.append(
            [
                f"{ranked.rank}{'=' if ranked.tied else ''}",
                names.get(line.player, ""),
                ranked.value,
                line.games,
                line.wins,
                shown(line.average),
                shown(line.points),
                table.method.kind,
                ranked.note,
            ]
        )
    # Players not ranked yet are listed too, with the reason: a file with no one ranked still
    # says who played and why the ranking is empty.
    for line in table.unranked:
        standings_csv.append(
            [
                "",
                names.get(line.player, ""),
                "",
                line.games,
                line.wins,
                shown(line.average),
                shown(line.points),
                table.method.kind,
                # The note is for people (no import reads standings.csv): translated.
                _(
                    "not ranked: %(reason)s",
                    reason=not_ranked_reason(line.games, table.min_games),
                ),
            ]
        )
    # i18n: CSV column names, read back
    rules_csv: list[list[Any]] = [["night", "place", "table", "game", "kind", "rules"]]
    for game in rows["games"]:
        night, _game, number = game_info[game.id]
        rules_csv.append(
            [
                night.played_on.isoformat(),
                night.place,
                game.table_name or "",
                number,
                game.kind,
                json.dumps(game.rules, sort_keys=True, separators=(",", ":")),
            ]
        )
    seasons_csv = [["name", "starts_on", "ends_on"]] + [  # i18n: CSV column names, read back
        [s.name, s.starts_on.isoformat(), s.ends_on.isoformat()] for s in league.seasons
    ]

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", export_readme(league.name))
        archive.writestr("scores.csv", _csv(scores_csv))
        archive.writestr("games.csv", _csv(games_csv))
        archive.writestr("standings.csv", _csv(standings_csv))
        archive.writestr("players.csv", _csv(players_csv))
        archive.writestr("nights.csv", _csv(nights_csv))
        archive.writestr("seasons.csv", _csv(seasons_csv))
        archive.writestr("rules.csv", _csv(rules_csv))
    return buffer.getvalue()

"""A league's data out as a .zip of CSV files, one file per kind of row (cells a spreadsheet
would run are neutralised): each file is written by its own function from the rows of
``export.league_rows`` and what is worked out once for all of them (``_Facts``)."""

from __future__ import annotations

import io
import json
import zipfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from scorekeeper.leagues.standings import league_table
from scorekeeper.leagues.transfer.export import league_rows
from scorekeeper.leagues.transfer.reading import SCORE_COLUMNS
from scorekeeper.models import League
from scorekeeper.rules.games import higher_wins
from scorekeeper.rules.placings import game_placings, shown
from scorekeeper.rules.standings import not_ranked_reason
from scorekeeper.web.outside_text import csv_text


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
    facts = _Facts(league_rows(league))
    files = {
        "scores.csv": _scores_csv(facts),
        "games.csv": _games_csv(facts),
        "standings.csv": _standings_csv(league, facts.names),
        "players.csv": _players_csv(facts),
        "nights.csv": _nights_csv(facts),
        "seasons.csv": [["name", "starts_on", "ends_on"]]  # i18n: CSV column names, read back
        + [[s.name, s.starts_on.isoformat(), s.ends_on.isoformat()] for s in league.seasons],
        "rules.csv": _rules_csv(facts),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", export_readme(league.name))
        for name, rows in files.items():
            archive.writestr(name, _csv(rows))
    return buffer.getvalue()


@dataclass
class _Facts:
    """The league's rows and what several files need of them: the players' names, the guests,
    each game's night and number at its table, each game's seats, and each seat's total,
    rounds played and rounds gone out (a late joiner's total starts from their start)."""

    rows: dict[str, list[Any]]
    names: dict[int, str] = field(init=False)
    guests: set[int] = field(init=False)
    game_info: dict[int, tuple[Any, Any, int]] = field(init=False)
    seats_of: dict[int, list[Any]] = field(init=False)
    totals: dict[int, list[int]] = field(init=False)

    def __post_init__(self) -> None:
        rows = self.rows
        self.names = {p.id: p.name for p in rows["players"]}
        self.guests = {p.id for p in rows["players"] if p.is_guest}
        nights = {n.id: n for n in rows["nights"]}
        self.game_info = {}
        per_table: dict[tuple[int, str], int] = defaultdict(int)
        for game in rows["games"]:
            key = (game.night_id, (game.table_name or "").casefold())
            per_table[key] += 1
            self.game_info[game.id] = (nights[game.night_id], game, per_table[key])
        self.seats_of = defaultdict(list)
        for seat in rows["seats"]:
            self.seats_of[seat.game_id].append(seat)
        rounds = {r.id: r for r in rows["rounds"]}
        self.totals = defaultdict(lambda: [0, 0, 0])
        for seat in rows["seats"]:
            self.totals[seat.id][0] += seat.start_total
        for score in rows["scores"]:
            recorded = rounds[score.round_id]
            self.totals[score.seat_id][0] += score.points
            self.totals[score.seat_id][1] += 1
            self.totals[score.seat_id][2] += recorded.went_out_seat_id == score.seat_id


def _scores_csv(facts: _Facts) -> list[list[Any]]:
    """scores.csv: one row per player per round, and one per seat without a round yet."""
    rows = facts.rows
    rounds = {r.id: r for r in rows["rounds"]}
    seats_by_id = {seat.id: seat for seat in rows["seats"]}
    names, guests = facts.names, facts.guests
    scores_csv: list[list[Any]] = [list(SCORE_COLUMNS)]
    for score in rows["scores"]:
        recorded = rounds[score.round_id]
        night, game, number = facts.game_info[recorded.game_id]
        seat = seats_by_id[score.seat_id]
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
            night, game, number = facts.game_info[seat.game_id]
            scores_csv.append(
                [night.played_on.isoformat(), night.place, game.table_name or "", number,
                 names[seat.player_id], _yes(seat.player_id in guests), "", "", "no", "no", "",
                 "", "", "", _yes(game.status == "finished"), game.kind, "", "",
                 seat.start_total, _yes(game.ended_early)]
            )  # fmt: skip
    return scores_csv


def _games_csv(facts: _Facts) -> list[list[Any]]:
    """games.csv: one row per player per game, with the place at the table."""
    games_csv: list[list[Any]] = [
        # i18n: CSV column names (a spreadsheet's, and the import's): English in every language
        ["night", "place", "table", "game", "player", "seat", "total", "rounds", "went_out",
         "place_at_table", "win", "finished", "kind"]
    ]  # fmt: skip
    totals = facts.totals
    for game in facts.rows["games"]:
        night, _game, number = facts.game_info[game.id]
        seats = facts.seats_of[game.id]
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
                    facts.names[seat.player_id],
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
    return games_csv


def _players_csv(facts: _Facts) -> list[list[Any]]:
    """players.csv: the roster, guests and merged entries, with their games."""
    games_played: dict[int, int] = defaultdict(int)
    for seat in facts.rows["seats"]:
        games_played[seat.player_id] += 1
    # i18n: CSV column names and status values the import reads back: English in every language
    players_csv: list[list[Any]] = [["name", "status", "merged_into", "games"]]
    for p in facts.rows["players"]:
        status = "merged" if p.merged_into_id else "guest" if p.is_guest else "roster"
        players_csv.append(
            [p.name, status, facts.names.get(p.merged_into_id, ""), games_played.get(p.id, 0)]
        )
    return players_csv


def _nights_csv(facts: _Facts) -> list[list[Any]]:
    """nights.csv: every night's date, place, tables, games and players."""
    # i18n: CSV column names: English in every language
    nights_csv: list[list[Any]] = [["night", "place", "tables", "games", "players"]]
    for night in facts.rows["nights"]:
        night_games = [g for g in facts.rows["games"] if g.night_id == night.id]
        players = {s.player_id for g in night_games for s in facts.seats_of[g.id]}
        tables = {(g.table_name or "").casefold() for g in night_games}
        nights_csv.append(
            [night.played_on.isoformat(), night.place, len(tables), len(night_games), len(players)]
        )
    return nights_csv


def _standings_csv(league: League, names: dict[int, str]) -> list[list[Any]]:
    """standings.csv: the ranked players, then those not ranked yet with the reason."""
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
    return standings_csv


def _rules_csv(facts: _Facts) -> list[list[Any]]:
    """rules.csv: each game's house rules as JSON, so an import plays it by them."""
    # i18n: CSV column names, read back
    rules_csv: list[list[Any]] = [["night", "place", "table", "game", "kind", "rules"]]
    for game in facts.rows["games"]:
        night, _game, number = facts.game_info[game.id]
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
    return rules_csv

"""Getting a league's data out (one JSON document, or a .zip of CSV files) and in (a CSV file of
round scores, such as old paper score sheets typed into a spreadsheet, or the exported .zip).

Import format, one row per player per round (a header row names the columns; any order; other
columns are ignored; commas, semicolons or tabs):

    night,table,player,round,score
    2024-01-04,Table 1,Ann,1,0
    2024-01-04,Table 1,Bob,1,23

Optional columns: ``place`` (where the night was), ``game`` (1, 2 … when a table played more than
one game that night), ``guest`` (yes: not ranked), ``went_out`` (yes for who went out; without the
column a round's only 0 is taken as going out), ``engine``, ``hand``, ``tiles``, ``markers``,
``on_double``, ``finished`` (no: a game still being played).

Nothing is written until the whole file is valid: every bad row is reported with its line
number (the header is line 1) and the reason.
"""

from __future__ import annotations

import csv
import io
import json
import re
import secrets
import time
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from flask import current_app
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.leagues import bulk, services
from scorekeeper.leagues.standings import league_table
from scorekeeper.locks import lock_row
from scorekeeper.models import (
    Game,
    League,
    LeagueImport,
    Night,
    Player,
    Round,
    Score,
    Season,
    Seat,
)
from scorekeeper.rules import HandError, deal_plan, engine_schedule, format_hand, parse_hand
from scorekeeper.rules.standings import game_placings, shown
from scorekeeper.safety import clean_text, csv_text, from_spreadsheet_cell

FORMAT = "scorekeeper-league"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 12 * 1024 * 1024  # the uploaded file
MAX_MEMBER_BYTES = 12 * 1024 * 1024  # one file inside a .zip, unpacked
MAX_ARCHIVE_BYTES = 24 * 1024 * 1024  # every file inside a .zip together, unpacked
MAX_RATIO = 100  # unpacked / packed size of a file inside a .zip
RATIO_FROM_BYTES = 1024 * 1024  # small files may shrink as much as they like
MAX_IMPORT_LINES = 300_000  # a busy league's ten years are about 250,000 round scores
TOO_MANY_LINES = (
    f"The file has more than {MAX_IMPORT_LINES:,} lines. Split it into smaller files "
    "(a season each) and import them one after the other."
)
PENDING_HOURS = 24
SCORE_COLUMNS = (
    "night",
    "place",
    "table",
    "game",
    "player",
    "guest",
    "round",
    "engine",
    "went_out",
    "on_double",
    "hand",
    "tiles",
    "markers",
    "score",
    "finished",
)
REQUIRED = ("night", "table", "player", "round", "score")
ALIASES = {
    "date": "night",
    "name": "player",
    "points": "score",
    "wentout": "went_out",
    "out": "went_out",
    "ondouble": "on_double",
    "tablename": "table",
}
YES = {"yes", "y", "1", "true", "x", "✓", "✔"}
NO = {"no", "n", "0", "false", ""}
MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}


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
            Game.rules,
            Game.created_at,
            Game.finished_at,
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
        select(Seat.id, Seat.game_id, Seat.player_id, Seat.position)
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
                        "rules": game.rules,
                        "started_at": _iso(game.created_at),
                        "finished_at": _iso(game.finished_at),
                        "players": [seat.player_id for seat in seats_of[game.id]],
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
    return "yes" if value else "no"


EXPORT_README = """Scorekeeper league export: {name}

scores.csv    every round score: one row per player per round (import this file, or the whole
              .zip, into a league to rebuild it)
games.csv     every game total: one row per player per game, with the place at the table
standings.csv the standings over all nights, by the league's ranking method
players.csv   the roster, guests and merged entries
nights.csv    every night: date, place, tables, players
seasons.csv   the seasons the standings can be filtered by

Dates are YYYY-MM-DD. The files are UTF-8.
"""


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
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
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
            ]
        )

    games_csv: list[list[Any]] = [
        ["night", "place", "table", "game", "player", "seat", "total", "rounds", "went_out",
         "place_at_table", "win", "finished"]
    ]  # fmt: skip
    seats_of: dict[int, list[Any]] = defaultdict(list)
    for seat in rows["seats"]:
        seats_of[seat.game_id].append(seat)
    for game in rows["games"]:
        night, _, number = game_info[game.id]
        seats = seats_of[game.id]
        places = game_placings({seat.id: totals[seat.id][0] for seat in seats})
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
                ]
            )

    games_played: dict[int, int] = defaultdict(int)
    for seat in rows["seats"]:
        games_played[seat.player_id] += 1
    players_csv: list[list[Any]] = [["name", "status", "merged_into", "games"]]
    for p in rows["players"]:
        status = "merged" if p.merged_into_id else "guest" if p.is_guest else "roster"
        players_csv.append(
            [p.name, status, names.get(p.merged_into_id, ""), games_played.get(p.id, 0)]
        )

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
        ["rank", "player", "value", "games", "wins", "average", "points", "method"]
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
                league.ranking,
            ]
        )
    seasons_csv = [["name", "starts_on", "ends_on"]] + [
        [s.name, s.starts_on.isoformat(), s.ends_on.isoformat()] for s in league.seasons
    ]

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", EXPORT_README.format(name=league.name))
        archive.writestr("scores.csv", _csv(scores_csv))
        archive.writestr("games.csv", _csv(games_csv))
        archive.writestr("standings.csv", _csv(standings_csv))
        archive.writestr("players.csv", _csv(players_csv))
        archive.writestr("nights.csv", _csv(nights_csv))
        archive.writestr("seasons.csv", _csv(seasons_csv))
    return buffer.getvalue()


# --------------------------------------------------------------------------------------------
# Import: read and check everything, then write


@dataclass(frozen=True)
class Problem:
    line: int
    message: str


@dataclass
class PlannedScore:
    line: int
    points: int
    hand: int | None
    tiles: str | None
    markers: int
    went_out: bool | None  # None: the file has no went_out column
    on_double: bool
    engine: int | None


@dataclass
class PlannedGame:
    table: str
    number: int
    first_line: int
    finished: bool = True
    players: list[str] = field(default_factory=list)  # seat order: first appearance
    rounds: dict[int, dict[str, PlannedScore]] = field(default_factory=dict)


@dataclass
class PlannedNight:
    played_on: date
    place: str
    games: list[PlannedGame] = field(default_factory=list)
    existing_id: int | None = None


@dataclass
class ImportPlan:
    """A checked file: ``problems`` (line numbers and reasons) or what would be written."""

    fatal: str | None = None
    problems: list[Problem] = field(default_factory=list)
    nights: list[PlannedNight] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    known_players: list[str] = field(default_factory=list)
    roster_only: list[str] = field(default_factory=list)  # roster players without games
    seasons: list[tuple[str, date, date]] = field(default_factory=list)
    guests: set[str] = field(default_factory=set)
    rows: int = 0
    player_ids: dict[str, int] = field(default_factory=dict)  # folded name -> existing player

    @property
    def games(self) -> int:
        return sum(len(night.games) for night in self.nights)

    @property
    def rounds(self) -> int:
        return sum(len(game.rounds) for night in self.nights for game in night.games)


def parse_date(text: str, month_first: bool = False) -> date:
    """2024-01-04, 4/1/2024 (or 1/4/2024 month first), 4.1.24, 4 Jan 2024, January 4, 2024."""
    cleaned = text.strip().lower().replace(",", " ")
    try:
        return date.fromisoformat(cleaned)
    except ValueError:
        pass
    numbers = re.fullmatch(r"(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})", cleaned)
    if numbers:
        a, b, c = (int(part) for part in numbers.groups())
        if len(numbers.group(1)) == 4:
            year, month, day = a, b, c
        else:
            day, month, year = (b, a, c) if month_first else (a, b, c)
            if year < 100:
                year += 2000
        return date(year, month, day)
    words = cleaned.split()
    if len(words) == 3:
        if words[0].isdigit() and words[1].rstrip(".") in MONTHS:
            return date(int(words[2]), MONTHS[words[1].rstrip(".")], int(words[0]))
        if words[1].isdigit() and words[0].rstrip(".") in MONTHS:
            return date(int(words[2]), MONTHS[words[0].rstrip(".")], int(words[1]))
    raise ValueError(text)


def _decode(content: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return content.decode("latin-1")


class TooManyLines(Exception):
    """A file longer than any league's history (or a file of empty lines)."""


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time (no copy of the whole text)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


class _Rows:
    """The rows of a CSV text, read one at a time: every cell cleaned of control characters and
    of the ``'`` an export puts in front of a formula-like cell (see scorekeeper.safety)."""

    def __init__(self, text: str) -> None:
        end = text.find("\n")
        first_line = text[: end if end >= 0 else 2000]
        delimiter = max((",", ";", "\t"), key=first_line.count)
        self._reader = csv.reader(_lines(text), delimiter=delimiter)

    @property
    def line_num(self) -> int:
        return self._reader.line_num

    def __iter__(self) -> Iterator[list[str]]:
        return self

    def __next__(self) -> list[str]:
        row = next(self._reader)
        if self._reader.line_num > MAX_IMPORT_LINES:
            raise TooManyLines
        return [from_spreadsheet_cell(clean_text(cell)) for cell in row]


def _reader(text: str) -> _Rows:
    return _Rows(text)


class ArchiveRefused(Exception):
    """A .zip that is not read: the message says why in plain words."""


def _archive_sizes(archive: zipfile.ZipFile) -> None:
    """Refuse a zip bomb from its directory, before a single byte is decompressed: each file
    and the whole archive have a size cap, and a file may not shrink more than MAX_RATIO
    times (a league export shrinks about ten times)."""
    total = 0
    for info in archive.infolist():
        total += info.file_size
        if info.file_size > MAX_MEMBER_BYTES:
            raise ArchiveRefused(
                f"{info.filename[:60]} in this .zip is too big: at most "
                f"{MAX_MEMBER_BYTES // 2**20} MB a file."
            )
        if info.file_size > RATIO_FROM_BYTES and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise ArchiveRefused(
                f"{info.filename[:60]} in this .zip is packed too tightly to be a league export."
            )
    if total > MAX_ARCHIVE_BYTES:
        raise ArchiveRefused(
            f"This .zip holds too much: at most {MAX_ARCHIVE_BYTES // 2**20} MB unpacked."
        )


def _member(archive: zipfile.ZipFile, name: str) -> str:
    """One file of the archive, read in pieces and never beyond its cap (even if the directory
    understated its size)."""
    pieces: list[bytes] = []
    size = 0
    with archive.open(name) as member:
        while piece := member.read(64 * 1024):
            size += len(piece)
            if size > MAX_MEMBER_BYTES:
                raise ArchiveRefused(
                    f"{name} in this .zip is too big: at most {MAX_MEMBER_BYTES // 2**20} MB."
                )
            pieces.append(piece)
    return _decode(b"".join(pieces))


def _column(name: str) -> str:
    key = re.sub(r"[\s_\-]+", "", name.strip().lower())
    key = ALIASES.get(key, key)
    return {"wentout": "went_out", "ondouble": "on_double"}.get(key, key)


def _whole(text: str) -> int | None:
    text = text.strip()
    if re.fullmatch(r"[+-]?\d{1,7}", text):
        return int(text)
    return None


def read_upload(league: League, filename: str, content: bytes, month_first: bool) -> ImportPlan:
    """Check an uploaded file (.csv, or the .zip this app exports) without writing anything."""
    if len(content) > MAX_IMPORT_BYTES:
        return ImportPlan(fatal=f"The file is too big: at most {MAX_IMPORT_BYTES // 2**20} MB.")
    if not content.strip():
        return ImportPlan(fatal="The file is empty.")
    roster: list[tuple[str, str]] = []
    seasons: list[tuple[str, date, date]] = []
    if filename.lower().endswith(".zip") or content[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(content)) as archive:
                _archive_sizes(archive)
                names = set(archive.namelist())
                if "scores.csv" not in names:
                    return ImportPlan(fatal="This .zip has no scores.csv: is it a league export?")
                scores_text = _member(archive, "scores.csv")
                if "players.csv" in names:
                    roster = _roster_rows(_member(archive, "players.csv"))
                if "seasons.csv" in names:
                    seasons = _season_rows(_member(archive, "seasons.csv"))
        except ArchiveRefused as refused:
            return ImportPlan(fatal=str(refused))
        except TooManyLines:
            return ImportPlan(fatal=TOO_MANY_LINES)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, RuntimeError, EOFError):
            return ImportPlan(fatal="This .zip file cannot be read.")
        except (NotImplementedError, ValueError, OSError):  # unknown compression, bad header
            return ImportPlan(fatal="This .zip file cannot be read.")
    else:
        if b"\x00" in content[:4096]:
            return ImportPlan(fatal="This is not a CSV file. Save the sheet as CSV and try again.")
        scores_text = _decode(content)
    plan = check_scores(league, scores_text, month_first)
    if plan.fatal is None:
        known = {name.casefold() for name in plan.known_players + plan.new_players}
        existing = {
            p.name.casefold() for p in services.league_players(league) if p.merged_into_id is None
        }
        plan.roster_only = [
            name
            for name, status in roster
            if status == "roster" and name.casefold() not in known | existing
        ]
        have = {s.name.casefold() for s in league.seasons}
        plan.seasons = [s for s in seasons if s[0].casefold() not in have]
    return plan


def _roster_rows(text: str) -> list[tuple[str, str]]:
    rows = list(_reader(text))
    if not rows:
        return []
    header = [_column(h) for h in rows[0]]
    if "name" not in header and "player" not in header:
        return []
    at = header.index("player") if "player" in header else header.index("name")
    status_at = header.index("status") if "status" in header else None
    found = []
    for row in rows[1:]:
        if len(row) > at and row[at].strip():
            status = "roster"
            if status_at is not None and len(row) > status_at:
                status = row[status_at].strip().lower()
            found.append((services.clean_text(row[at], services.MAX_PLAYER_NAME), status))
    return found


def _season_rows(text: str) -> list[tuple[str, date, date]]:
    rows = list(_reader(text))
    found = []
    for row in rows[1:]:
        if len(row) >= 3:
            try:
                start, end = date.fromisoformat(row[1].strip()), date.fromisoformat(row[2].strip())
            except ValueError:
                continue
            if row[0].strip() and end >= start:
                found.append((row[0].strip()[:60], start, end))
    return found


def check_scores(league: League, text: str, month_first: bool = False) -> ImportPlan:
    """Read and check every row of a scores CSV; see the module docstring for the format."""
    try:
        return _check_scores(league, text, month_first)
    except TooManyLines:
        return ImportPlan(fatal=TOO_MANY_LINES)


def _check_scores(league: League, text: str, month_first: bool) -> ImportPlan:
    plan = ImportPlan()
    rows = _reader(text)
    try:
        header_row = next(rows)
    except (StopIteration, csv.Error):
        return ImportPlan(fatal="The file has no header row.")
    header = [_column(name) for name in header_row]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        return ImportPlan(
            fatal="The first row must name the columns. Missing: "
            + ", ".join(missing)
            + f". Found: {', '.join(h for h in header_row if h.strip())[:200] or 'nothing'}."
        )
    at = {name: header.index(name) for name in SCORE_COLUMNS if name in header}
    rules = services.league_rules(league)
    schedule = engine_schedule(rules)
    has_went_out = "went_out" in at

    # Names lead to the live entry first; an old name of a merged entry leads to its survivor.
    everyone = sorted(services.league_players(league), key=lambda p: p.merged_into_id is not None)
    by_name: dict[str, Player] = {}
    for player in everyone:
        by_name.setdefault(player.name.casefold(), player)

    nights: dict[tuple[date, str], PlannedNight] = {}
    games: dict[tuple[date, str, str, int], PlannedGame] = {}
    guests_marked: set[str] = set()
    problems = plan.problems

    def cell(row: list[str], name: str) -> str:
        index = at.get(name)
        return row[index].strip() if index is not None and index < len(row) else ""

    line = 1
    try:
        for row in rows:
            line = rows.line_num  # type: ignore[attr-defined]
            if not any(value.strip() for value in row):
                continue
            plan.rows += 1
            reasons: list[str] = []
            night_text = cell(row, "night")
            played_on = None
            try:
                played_on = parse_date(night_text, month_first)
                if not date(2000, 1, 1) <= played_on <= date(2100, 12, 31):
                    reasons.append(f"the night {night_text} is not between 2000 and 2100")
                    played_on = None
            except ValueError:
                reasons.append(
                    f"“{night_text[:30]}” is not a date (use 2024-01-04)"
                    if night_text
                    else "the night's date is missing"
                )
            table = services.clean_text(cell(row, "table"), services.MAX_TABLE_NAME)
            if not table:
                reasons.append("the table is missing")
            name = services.clean_text(cell(row, "player"), services.MAX_PLAYER_NAME)
            if not name:
                reasons.append("the player's name is missing")
            number = _whole(cell(row, "round"))
            if number is None or not 1 <= number <= 100:
                reasons.append(
                    f"the round “{cell(row, 'round')[:20]}” is not a number from 1 to 100"
                )
            points = _whole(cell(row, "score"))
            if points is None:
                score_text = cell(row, "score")
                reasons.append(
                    f"the score “{score_text[:20]}” is not a whole number"
                    if score_text
                    else "the score is missing"
                )
            elif not -100 <= points <= 5000:
                reasons.append(f"the score {points} is not possible")
            game_text = cell(row, "game") or "1"
            game_number = _whole(game_text)
            if game_number is None or not 1 <= game_number <= 50:
                reasons.append(f"the game “{game_text[:20]}” is not a number like 1 or 2")
            flags: dict[str, bool] = {}
            for flag in ("guest", "went_out", "on_double", "finished"):
                value = cell(row, flag).lower()
                if value in YES:
                    flags[flag] = True
                elif value in NO:
                    # An empty "finished" cell means finished; other empty flags mean no.
                    flags[flag] = flag == "finished" and not value
                else:
                    reasons.append(f"{flag.replace('_', ' ')} “{value[:10]}” should be yes or no")
            hand = None
            if cell(row, "hand"):
                hand = _whole(cell(row, "hand"))
                if hand is None or hand < 0:
                    reasons.append(
                        f"the hand “{cell(row, 'hand')[:20]}” is not a whole number of 0 or more"
                    )
            markers = 0
            if cell(row, "markers"):
                markers_value = _whole(cell(row, "markers"))
                if markers_value is None or not 0 <= markers_value <= 20:
                    reasons.append("markers should be a number from 0 to 20")
                else:
                    markers = markers_value
            tiles = None
            if cell(row, "tiles"):
                try:
                    tiles = format_hand(parse_hand(cell(row, "tiles"), max_pip=rules.max_pip))
                except HandError as error:
                    reasons.append(f"tiles: {error}")
            engine = None
            engine_text = cell(row, "engine")
            if engine_text:
                match = re.fullmatch(r"(\d{1,2})(?:\s*[-|/:]\s*(\d{1,2}))?", engine_text)
                if not match or (match.group(2) and match.group(1) != match.group(2)):
                    reasons.append(f"the engine “{engine_text[:10]}” is not a double like 12-12")
                else:
                    engine = int(match.group(1))
                    if engine > rules.max_pip:
                        reasons.append(f"the engine {engine}-{engine} is not in this league's set")
            elif number is not None and number > len(schedule):
                reasons.append(
                    f"round {number}, but this league's games have {len(schedule)} rounds"
                )
            if reasons:
                problems.append(Problem(line, _sentence(reasons)))
                continue
            assert played_on is not None and number is not None and points is not None
            assert game_number is not None
            place = services.clean_text(cell(row, "place"), services.MAX_PLACE)
            night = nights.setdefault(
                (played_on, place.casefold()), PlannedNight(played_on=played_on, place=place)
            )
            key = (played_on, place.casefold(), table.casefold(), game_number)
            game = games.get(key)
            if game is None:
                game = PlannedGame(table=table, number=game_number, first_line=line)
                games[key] = game
                night.games.append(game)
            if "finished" in at:
                game.finished = game.finished and flags.get("finished", True)
            folded = name.casefold()
            if folded not in {p.casefold() for p in game.players}:
                game.players.append(name)
            scores = game.rounds.setdefault(number, {})
            real = next((p for p in game.players if p.casefold() == folded), name)
            if real in scores:
                problems.append(
                    Problem(
                        line,
                        f"{name} already has a score for round {number} at {table} on "
                        f"{services.day_text(played_on)} (line {scores[real].line}).",
                    )
                )
                continue
            if flags.get("guest"):
                guests_marked.add(folded)
            scores[real] = PlannedScore(
                line=line,
                points=points,
                hand=hand,
                tiles=tiles,
                markers=markers,
                went_out=flags.get("went_out") if has_went_out else None,
                on_double=flags.get("on_double", False),
                engine=engine,
            )
    except csv.Error as error:
        problems.append(Problem(line, f"this line cannot be read as CSV ({error})."))

    if plan.rows == 0 and not problems:
        return ImportPlan(fatal="The file has a header row but no scores.")

    # Whole games: every player in every round, rounds 1..n, at most one player out a round.
    existing_nights = {
        (night.played_on, night.place.casefold()): night
        for night in db.session.scalars(select(Night).where(Night.league_id == league.id))
    }
    existing_tables: dict[int, set[str]] = defaultdict(set)
    for night_id, table_name in db.session.execute(
        select(Game.night_id, Game.table_name)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league.id)
    ):
        existing_tables[night_id].add((table_name or "").casefold())

    for night in nights.values():
        found = existing_nights.get((night.played_on, night.place.casefold()))
        night.existing_id = found.id if found is not None else None
        for game in night.games:
            where = f"{game.table} on {services.day_text(night.played_on)}"
            if found is not None and game.table.casefold() in existing_tables[found.id]:
                problems.append(
                    Problem(
                        game.first_line,
                        f"{where} is already in this league (was this file imported before?).",
                    )
                )
            numbers = sorted(game.rounds)
            if numbers != list(range(1, len(numbers) + 1)):
                gap = next(n for n in range(1, len(numbers) + 2) if n not in game.rounds)
                problems.append(Problem(game.first_line, f"{where}: round {gap} is missing."))
            if len(game.players) < 2:
                problems.append(Problem(game.first_line, f"{where} has only one player."))
            else:
                try:
                    deal_plan(len(game.players), rules)
                except ValueError:
                    problems.append(
                        Problem(
                            game.first_line,
                            f"{where} has {len(game.players)} players, too many for this "
                            "league's set.",
                        )
                    )
            resolved: dict[int, str] = {}
            for player_name in game.players:
                match = by_name.get(player_name.casefold())
                if match is not None and match.merged_into_id is not None:
                    match = services.surviving(match)
                if match is not None and match.id in resolved:
                    problems.append(
                        Problem(
                            game.first_line,
                            f"{where}: {resolved[match.id]} and {player_name} are the same "
                            "player in this league (merged).",
                        )
                    )
                if match is not None:
                    resolved[match.id] = player_name
            for number in numbers:
                scores = game.rounds[number]
                first = min(score.line for score in scores.values())
                absent = [p for p in game.players if p not in scores]
                if absent:
                    problems.append(
                        Problem(
                            first,
                            f"round {number} at {where} has no score for {', '.join(absent)}.",
                        )
                    )
                out = [p for p, s in scores.items() if s.went_out]
                if len(out) > 1:
                    problems.append(
                        Problem(
                            first,
                            f"round {number} at {where}: {' and '.join(out)} cannot both go out.",
                        )
                    )
                engines = {s.engine for s in scores.values()}
                if len(engines) > 1:
                    problems.append(
                        Problem(first, f"round {number} at {where} has different engines.")
                    )

    problems.sort(key=lambda problem: problem.line)
    plan.nights = sorted(nights.values(), key=lambda night: (night.played_on, night.place))
    names_seen: dict[str, str] = {}
    for night in plan.nights:
        for game in night.games:
            for player_name in game.players:
                names_seen.setdefault(player_name.casefold(), player_name)
    for folded, player_name in names_seen.items():
        match = by_name.get(folded)
        if match is not None:
            survivor = services.surviving(match)
            plan.known_players.append(survivor.name)
            plan.player_ids[folded] = survivor.id
        else:
            plan.new_players.append(player_name)
            if folded in guests_marked:
                plan.guests.add(folded)
    return plan


def _sentence(reasons: list[str]) -> str:
    text = "; ".join(reasons)
    return text[0].upper() + text[1:] + "."


def start_confirmed_import(league: League, token: str) -> bool:
    """Take the league's row lock and say whether the preview ``token`` may still be written
    (False: it was confirmed already, from this phone or another). Call before reading the
    file; ``apply_import`` then records the token, so a file is written once per preview."""
    lock_row(League, league.id)
    return (
        db.session.scalars(select(LeagueImport.id).where(LeagueImport.token == token)).first()
        is None
    )


def apply_import(
    league: League, plan: ImportPlan, device: str, token: str, filename: str
) -> bulk.Written:
    """Write a checked plan: new players, nights, games, rounds and scores (bulk inserts), and
    record the preview token so the same confirmation can never write twice."""
    assert not plan.problems and plan.fatal is None
    ids = dict(plan.player_ids)
    for name in plan.new_players:
        player = Player(name=name, league_id=league.id, is_guest=name.casefold() in plan.guests)
        db.session.add(player)
        db.session.flush()
        ids[name.casefold()] = player.id
    for name in plan.roster_only:
        db.session.add(Player(name=name, league_id=league.id, is_guest=False))
    for name, starts_on, ends_on in plan.seasons:
        db.session.add(Season(league_id=league.id, name=name, starts_on=starts_on, ends_on=ends_on))
    rules = services.league_rules(league)
    schedule = engine_schedule(rules)
    specs = []
    for night in plan.nights:
        spec = bulk.NightSpec(
            played_on=night.played_on, place=night.place, night_id=night.existing_id
        )
        for game in night.games:
            players = game.players
            rounds = []
            for number in sorted(game.rounds):
                scores = game.rounds[number]
                out = [i for i, p in enumerate(players) if scores[p].went_out]
                if not any(s.went_out is not None for s in scores.values()):
                    zeros = [i for i, p in enumerate(players) if scores[p].points == 0]
                    out = zeros if len(zeros) == 1 else []
                engine = next(iter(scores.values())).engine
                rounds.append(
                    bulk.RoundSpec(
                        engine=engine if engine is not None else schedule[number - 1],
                        went_out=out[0] if out else None,
                        on_double=bool(out) and scores[players[out[0]]].on_double,
                        scores=[
                            bulk.ScoreSpec(
                                points=scores[p].points,
                                hand=scores[p].hand,
                                tiles=scores[p].tiles,
                                markers=scores[p].markers,
                            )
                            for p in players
                        ],
                    )
                )
            spec.games.append(
                bulk.GameSpec(
                    table_name=game.table,
                    players=[ids[p.casefold()] for p in players],
                    rounds=rounds,
                    rules=rules.to_dict(),
                    status="finished" if game.finished else "playing",
                )
            )
        specs.append(spec)
    written = bulk.write_nights(league.id, specs, device)
    db.session.add(
        LeagueImport(league_id=league.id, token=token, filename=filename[:200], games=written.games)
    )
    db.session.flush()
    return written


# --------------------------------------------------------------------------------------------
# The file between the preview and the confirmation


def _pending_dir() -> Path:
    folder = Path(current_app.instance_path) / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def save_pending(league: League, content: bytes, filename: str) -> str:
    """Keep an uploaded file until the organiser confirms the preview (a day at most)."""
    folder = _pending_dir()
    cutoff = time.time() - PENDING_HOURS * 3600
    for old in folder.iterdir():
        if old.stat().st_mtime < cutoff:
            old.unlink(missing_ok=True)
    token = secrets.token_urlsafe(16)
    (folder / f"{league.code}-{token}.data").write_bytes(content)
    (folder / f"{league.code}-{token}.json").write_text(json.dumps({"filename": filename}))
    return token


def _pending_paths(league: League, token: str) -> tuple[Path, Path] | None:
    if not re.fullmatch(r"[A-Za-z0-9_\-]{10,40}", token or ""):
        return None
    folder = _pending_dir()
    return folder / f"{league.code}-{token}.data", folder / f"{league.code}-{token}.json"


def load_pending(league: League, token: str) -> tuple[str, bytes] | None:
    paths = _pending_paths(league, token)
    if paths is None or not paths[0].exists() or not paths[1].exists():
        return None
    meta = json.loads(paths[1].read_text())
    return str(meta.get("filename", "upload.csv")), paths[0].read_bytes()


def drop_pending(league: League, token: str) -> None:
    paths = _pending_paths(league, token)
    if paths is not None:
        for path in paths:
            path.unlink(missing_ok=True)

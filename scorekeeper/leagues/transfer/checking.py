"""Rows of an uploaded file into an import plan: every bad row is named with its line number
(the header is line 1) and the reason."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from flask_babel import gettext as _

from scorekeeper.leagues import services
from scorekeeper.leagues.transfer.document import NotAnExport, read_document
from scorekeeper.leagues.transfer.game_checks import check_whole_games
from scorekeeper.leagues.transfer.plan import (
    ImportPlan,
    PlannedGame,
    PlannedNight,
    PlannedScore,
    Problem,
)
from scorekeeper.leagues.transfer.reading import (
    MAX_IMPORT_BYTES,
    REQUIRED,
    SCORE_COLUMNS,
    ArchiveRefused,
    TooManyLines,
    _archive_sizes,
    _column,
    _decode,
    _member,
    _reader,
    too_many_lines,
)
from scorekeeper.leagues.transfer.rows import _Cells, _read_row, _sentence
from scorekeeper.models import (
    League,
    Player,
)
from scorekeeper.rules import (
    HouseRules,
    engine_schedule,
)
from scorekeeper.rules.games import VARIANTS, default_game
from scorekeeper.rules.names import NameRefused, clean_name, name_key

Row = TypeVar("Row")
#: A game of a file: its night, place and table (folded) and its number at that table.
GameKey = tuple[date, str, str, int]


def read_upload(league: League, filename: str, content: bytes, month_first: bool) -> ImportPlan:
    """Check an uploaded file (.csv, or the .zip this app exports) without writing anything."""
    if len(content) > MAX_IMPORT_BYTES:
        return ImportPlan(
            fatal=_("The file is too big: at most %(mb)s MB.", mb=MAX_IMPORT_BYTES // 2**20)
        )
    if not content.strip():
        return ImportPlan(fatal=_("The file is empty."))
    roster: list[tuple[str, str, str]] = []
    seasons: list[tuple[str, date, date]] = []
    game_rules: dict[GameKey, dict[str, Any]] = {}
    from_json = filename.lower().endswith(".json") or content.lstrip()[:1] == b"{"
    if from_json:
        try:
            scores_text, roster, seasons, game_rules = read_document(content)
        except NotAnExport as refused:
            return ImportPlan(fatal=str(refused))
    elif filename.lower().endswith(".zip") or content[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(content)) as archive:
                _archive_sizes(archive)
                names = set(archive.namelist())
                if "scores.csv" not in names:
                    return ImportPlan(
                        fatal=_("This .zip has no scores.csv: is it a league export?")
                    )
                scores_text = _member(archive, "scores.csv")
                if "players.csv" in names:
                    roster = _side_file(_roster_rows, _member(archive, "players.csv"), "players")
                if "seasons.csv" in names:
                    seasons = _side_file(_season_rows, _member(archive, "seasons.csv"), "seasons")
                if "rules.csv" in names:
                    game_rules = _side_file(_rules_rows, _member(archive, "rules.csv"), "rules")
        except ArchiveRefused as refused:
            return ImportPlan(fatal=str(refused))
        except TooManyLines:
            return ImportPlan(fatal=too_many_lines())
        except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, RuntimeError, EOFError):
            return ImportPlan(fatal=_("This .zip file cannot be read."))
        except (NotImplementedError, ValueError, OSError):  # unknown compression, bad header
            return ImportPlan(fatal=_("This .zip file cannot be read."))
    else:
        if b"\x00" in content[:4096]:
            return ImportPlan(
                fatal=_("This is not a CSV file. Save the sheet as CSV and try again.")
            )
        scores_text = _decode(content)
    plan = check_scores(league, scores_text, month_first, game_rules)
    plan.from_json = from_json
    if plan.fatal is None:
        _plan_roster(league, plan, roster)
        have = {s.name.casefold() for s in league.seasons}
        plan.seasons = [s for s in seasons if s[0].casefold() not in have]
    return plan


def _plan_roster(league: League, plan: ImportPlan, roster: list[tuple[str, str, str]]) -> None:
    """What players.csv adds: roster players without games, merged entries (whose survivor is
    in the league or the file), and the order the new players are added in."""
    known = {name_key(name) for name in plan.known_players + plan.new_players}
    everyone = services.league_players(league)
    existing = {name_key(p.name) for p in everyone if p.merged_into_id is None}
    entries = {name_key(p.name) for p in everyone}
    plan.roster_only = [
        name
        for name, status, _into in roster
        if status == "roster" and name_key(name) not in known | existing
    ]
    survivors = known | existing | {name_key(name) for name in plan.roster_only}
    plan.merged = [
        (name, into)
        for name, status, into in roster
        if status == "merged"
        and name_key(name) not in entries | known
        and name_key(into) in survivors
    ]
    plan.order = [name_key(name) for name, _status, _into in roster]


def _side_file(read: Callable[[str], list[Row]], text: str, name: str) -> list[Row]:
    """players.csv or seasons.csv of an export, read by ``read``; a file that is not CSV (a
    cell longer than the csv module's 131,072 characters, say) is refused with its name."""
    try:
        return read(text)
    except csv.Error as error:
        raise ArchiveRefused(
            _(
                "%(file)s in this .zip cannot be read as CSV (%(error)s). Export the league "
                "again, or import scores.csv alone.",
                file=f"{name}.csv",
                error=error,
            )
        ) from error


def _roster_rows(text: str) -> list[tuple[str, str, str]]:
    """(name, status, merged into) of every row of players.csv; a name that is not kept as
    it is (too long, invisible) refuses the file with its line: never cut."""
    rows = list(_reader(text))
    if not rows:
        return []
    header = [_column(h) for h in rows[0]]
    if "name" not in header and "player" not in header:
        return []
    at = header.index("player") if "player" in header else header.index("name")

    def cell(row: list[str], column: str) -> str:
        index = header.index(column) if column in header else None
        return row[index].strip() if index is not None and len(row) > index else ""

    found = []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) > at and row[at].strip():
            try:
                name = clean_name(row[at], services.MAX_PLAYER_NAME)
                into = clean_name(cell(row, "mergedinto"), services.MAX_PLAYER_NAME)
            except NameRefused as refused:
                raise ArchiveRefused(
                    _(
                        "players.csv in this .zip, line %(line)s: %(problem)s",
                        line=line,
                        problem=refused,
                    )
                ) from None
            found.append((name, cell(row, "status").lower() or "roster", into))
    return found


def _rules_rows(text: str) -> dict[GameKey, dict[str, Any]]:
    """Each game's house rules from rules.csv of an export: (night, place, table, game) ->
    the rules. A row that is not rules the app knows refuses the file with its line."""
    rows = list(_reader(text))
    if not rows:
        return {}
    header = [_column(h) for h in rows[0]]
    found: dict[GameKey, dict[str, Any]] = {}
    for line, row in enumerate(rows[1:], start=2):
        cells = dict(zip(header, row, strict=False))
        try:
            key = (
                date.fromisoformat(cells.get("night", "").strip()),
                " ".join(cells.get("place", "").split()).casefold(),
                " ".join(cells.get("table", "").split()).casefold(),
                int(cells.get("game", "1").strip() or "1"),
            )
            rules = json.loads(cells.get("rules", ""))
            variant = VARIANTS[cells.get("kind", "").strip() or default_game().name]
            variant.deal_plan(2, HouseRules.from_dict(rules))
        except (ValueError, TypeError, KeyError, AttributeError):
            raise ArchiveRefused(
                _(
                    "rules.csv in this .zip, line %(line)s: these are not house rules this app "
                    "knows. Export the league again, or import scores.csv alone.",
                    line=line,
                )
            ) from None
        found[key] = rules
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


def check_scores(
    league: League,
    text: str,
    month_first: bool = False,
    game_rules: dict[GameKey, dict[str, Any]] | None = None,
) -> ImportPlan:
    """Read and check every row of a scores CSV; see the module docstring for the format.
    ``game_rules``: each game's own house rules (rules.csv of an export), by game."""
    try:
        return _check_scores(league, text, month_first, game_rules or {})
    except TooManyLines:
        return ImportPlan(fatal=too_many_lines())


def _check_scores(
    league: League, text: str, month_first: bool, game_rules: dict[GameKey, dict[str, Any]]
) -> ImportPlan:
    rows = _reader(text)
    at = _columns(rows)
    if isinstance(at, ImportPlan):
        return at
    rules = services.league_rules(league)
    reading = _Reading(at, rules, len(engine_schedule(rules)), month_first, game_rules)
    plan, problems = reading.plan, reading.plan.problems
    line = 1
    try:
        for raw in rows:
            line = rows.line_num  # type: ignore[attr-defined]
            if any(value.strip() for value in raw):
                reading.add(line, raw)
    except csv.Error as error:
        problems.append(
            Problem(line, _("this line cannot be read as CSV (%(error)s).", error=error))
        )

    if plan.rows == 0 and not problems:
        return ImportPlan(fatal=_("The file has a header row but no scores."))

    # Names lead to the live entry first; an old name of a merged entry leads to its survivor.
    everyone = sorted(services.league_players(league), key=lambda p: p.merged_into_id is not None)
    by_name: dict[str, Player] = {}
    for player in everyone:
        by_name.setdefault(name_key(player.name), player)

    nights = list(reading.nights.values())
    check_whole_games(league, nights, rules, by_name, problems, reading.refused)
    problems.sort(key=lambda problem: problem.line)
    plan.nights = sorted(nights, key=lambda night: (night.played_on, night.place))
    _sort_players(plan, by_name, reading.guests_marked)
    return plan


def _columns(rows: Any) -> dict[str, int] | ImportPlan:
    """Where each column of the format is in the file (from its header row), or a plan that
    says why the file cannot be read (no header, a required column missing)."""
    try:
        header_row = next(rows)
    except (StopIteration, csv.Error):
        return ImportPlan(fatal=_("The file has no header row."))
    header = [_column(name) for name in header_row]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        found = ", ".join(h for h in header_row if h.strip())[:200]
        # The column names stay as the import format writes them (English, in any language).
        return ImportPlan(
            fatal=_(
                "The first row must name the columns. Missing: %(missing)s. Found: %(found)s.",
                missing=", ".join(missing),
                found=found or _("nothing"),
            )
        )
    return {name: header.index(name) for name in SCORE_COLUMNS if name in header}


@dataclass
class _Reading:
    """The scores file read so far: its nights and games, the names marked as guests, the
    (table, player, round) of the lines that could not be read, and the plan's problems."""

    at: dict[str, int]
    rules: HouseRules
    rounds: int
    month_first: bool
    game_rules: dict[GameKey, dict[str, Any]]
    plan: ImportPlan = field(default_factory=ImportPlan)
    nights: dict[tuple[date, str], PlannedNight] = field(default_factory=dict)
    games: dict[GameKey, PlannedGame] = field(default_factory=dict)
    guests_marked: set[str] = field(default_factory=set)
    refused: set[tuple[str, str, str]] = field(default_factory=set)

    def add(self, line: int, raw: list[str]) -> None:
        """One line of scores (or a seat without a round yet) into its game."""
        self.plan.rows += 1
        cell = _Cells(self.at, raw)
        row, reasons = _read_row(cell, self.rules, self.rounds, self.month_first)
        if row is None:
            self.plan.problems.append(Problem(line, _sentence(reasons)))
            # Its game will miss this score: that is this line's problem, said once here.
            self.refused.add((cell("table").casefold(), cell("player").casefold(), cell("round")))
            return
        game = self._game(line, row, services.clean_text(cell("place"), services.MAX_PLACE))
        if game is None:
            return
        if "finished" in self.at:
            game.finished = game.finished and row.flags.get("finished", True)
        if "ended_early" in self.at:
            game.ended_early = game.ended_early or row.flags.get("ended_early", False)
        folded = row.name.casefold()
        if folded not in {p.casefold() for p in game.players}:
            game.players.append(row.name)
        real = next((p for p in game.players if p.casefold() == folded), row.name)
        if row.number is None or row.points is None:  # seated, no round yet
            if row.flags.get("guest"):
                self.guests_marked.add(folded)
            game.starts[real] = row.start or 0
            return
        self._score(line, row, game, real)

    def _game(self, line: int, row: Any, place: str) -> PlannedGame | None:
        """The row's game (new on its first row); None when the row's kind is not its game's."""
        night = self.nights.setdefault(
            (row.played_on, place.casefold()),
            PlannedNight(played_on=row.played_on, place=place),
        )
        key = (row.played_on, place.casefold(), row.table.casefold(), row.game_number)
        game = self.games.get(key)
        if game is None:
            game = PlannedGame(
                table=row.table,
                number=row.game_number,
                first_line=line,
                kind=row.kind,
                rules=self.game_rules.get(key),
            )
            self.games[key] = game
            night.games.append(game)
            return game
        if game.kind == row.kind:
            return game
        message = _(
            "this row is from a game of %(game)s, but %(table)s played %(other)s (line %(line)s).",
            game=VARIANTS[row.kind].label,
            table=row.table,
            other=VARIANTS[game.kind].label,
            line=game.first_line,
        )
        self.plan.problems.append(Problem(line, message))
        return None

    def _score(self, line: int, row: Any, game: PlannedGame, real: str) -> None:
        """The row's round score for player ``real`` (once a round)."""
        scores = game.rounds.setdefault(row.number, {})
        if real in scores:
            message = _(
                "%(name)s already has a score for round %(n)s at %(table)s on "
                "%(day)s (line %(line)s).",
                name=row.name,
                n=row.number,
                table=row.table,
                day=services.day_text(row.played_on),
                line=scores[real].line,
            )
            self.plan.problems.append(Problem(line, message))
            return
        if row.flags.get("guest"):
            self.guests_marked.add(row.name.casefold())
        if row.start is not None:  # 0 too: a late joiner may start with nothing
            game.starts[real] = row.start
        scores[real] = PlannedScore(
            line=line,
            points=row.points,
            hand=row.hand,
            tiles=row.tiles,
            markers=row.markers,
            went_out=row.flags.get("went_out") if "went_out" in self.at else None,
            on_double=row.flags.get("on_double", False),
            engine=row.engine,
            open_doubles=row.open_doubles,
            made=row.made,
        )


def _sort_players(plan: ImportPlan, by_name: dict[str, Player], guests_marked: set[str]) -> None:
    """Which names of the file are players of the league already, and which are new."""
    names_seen: dict[str, str] = {}
    for night in plan.nights:
        for game in night.games:
            for player_name in game.players:
                names_seen.setdefault(player_name.casefold(), player_name)
    for folded, player_name in names_seen.items():
        match = by_name.get(name_key(player_name))
        if match is not None:
            survivor = services.surviving(match)
            plan.known_players.append(survivor.name)
            plan.player_ids[folded] = survivor.id
        else:
            plan.new_players.append(player_name)
            if folded in guests_marked:
                plan.guests.add(folded)

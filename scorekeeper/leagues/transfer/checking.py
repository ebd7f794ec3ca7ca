"""Rows of an uploaded file into an import plan: every bad row is named with its line number
(the header is line 1) and the reason."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.leagues import services
from scorekeeper.leagues.transfer.document import NotAnExport, read_document
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
    Game,
    League,
    Night,
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
    plan = ImportPlan()
    rows = _reader(text)
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
    at = {name: header.index(name) for name in SCORE_COLUMNS if name in header}
    rules = services.league_rules(league)
    rounds = len(engine_schedule(rules))
    has_went_out = "went_out" in at

    nights: dict[tuple[date, str], PlannedNight] = {}
    games: dict[GameKey, PlannedGame] = {}
    guests_marked: set[str] = set()
    refused: set[tuple[str, str, str]] = set()  # (table, player, round) of unreadable lines
    problems = plan.problems

    line = 1
    try:
        for raw in rows:
            line = rows.line_num  # type: ignore[attr-defined]
            if not any(value.strip() for value in raw):
                continue
            plan.rows += 1
            cell = _Cells(at, raw)
            row, reasons = _read_row(cell, rules, rounds, month_first)
            if row is None:
                problems.append(Problem(line, _sentence(reasons)))
                # Its game will miss this score: that is this line's problem, said once here.
                refused.add((cell("table").casefold(), cell("player").casefold(), cell("round")))
                continue
            place = services.clean_text(cell("place"), services.MAX_PLACE)
            night = nights.setdefault(
                (row.played_on, place.casefold()),
                PlannedNight(played_on=row.played_on, place=place),
            )
            key = (row.played_on, place.casefold(), row.table.casefold(), row.game_number)
            game = games.get(key)
            if game is None:
                game = PlannedGame(
                    table=row.table,
                    number=row.game_number,
                    first_line=line,
                    kind=row.kind,
                    rules=game_rules.get(key),
                )
                games[key] = game
                night.games.append(game)
            elif game.kind != row.kind:
                problems.append(
                    Problem(
                        line,
                        _(
                            "this row is from a game of %(game)s, but %(table)s played "
                            "%(other)s (line %(line)s).",
                            game=VARIANTS[row.kind].label,
                            table=row.table,
                            other=VARIANTS[game.kind].label,
                            line=game.first_line,
                        ),
                    )
                )
                continue
            if "finished" in at:
                game.finished = game.finished and row.flags.get("finished", True)
            if "ended_early" in at:
                game.ended_early = game.ended_early or row.flags.get("ended_early", False)
            folded = row.name.casefold()
            if folded not in {p.casefold() for p in game.players}:
                game.players.append(row.name)
            real = next((p for p in game.players if p.casefold() == folded), row.name)
            if row.number is None or row.points is None:  # seated, no round yet
                if row.flags.get("guest"):
                    guests_marked.add(folded)
                game.starts[real] = row.start or 0
                continue
            scores = game.rounds.setdefault(row.number, {})
            if real in scores:
                problems.append(
                    Problem(
                        line,
                        _(
                            "%(name)s already has a score for round %(n)s at %(table)s on "
                            "%(day)s (line %(line)s).",
                            name=row.name,
                            n=row.number,
                            table=row.table,
                            day=services.day_text(row.played_on),
                            line=scores[real].line,
                        ),
                    )
                )
                continue
            if row.flags.get("guest"):
                guests_marked.add(folded)
            if row.start is not None:  # 0 too: a late joiner may start with nothing
                game.starts[real] = row.start
            scores[real] = PlannedScore(
                line=line,
                points=row.points,
                hand=row.hand,
                tiles=row.tiles,
                markers=row.markers,
                went_out=row.flags.get("went_out") if has_went_out else None,
                on_double=row.flags.get("on_double", False),
                engine=row.engine,
                open_doubles=row.open_doubles,
                made=row.made,
            )
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

    _check_whole_games(league, list(nights.values()), rules, by_name, problems, refused)
    problems.sort(key=lambda problem: problem.line)
    plan.nights = sorted(nights.values(), key=lambda night: (night.played_on, night.place))
    _sort_players(plan, by_name, guests_marked)
    return plan


def _check_whole_games(
    league: League,
    nights: list[PlannedNight],
    rules: HouseRules,
    by_name: dict[str, Player],
    problems: list[Problem],
    refused: set[tuple[str, str, str]],
) -> None:
    """Whole games: not already imported, every player in every round, rounds 1..n, a playable
    number of players, at most one player out a round, one engine a round. A score missing
    because its own line could not be read is not reported again (``refused``)."""
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

    for night in nights:
        found = existing_nights.get((night.played_on, night.place.casefold()))
        night.existing_id = found.id if found is not None else None
        for game in night.games:
            where = _(
                "%(table)s on %(day)s", table=game.table, day=services.day_text(night.played_on)
            )
            if found is not None and game.table.casefold() in existing_tables[found.id]:
                problems.append(
                    Problem(
                        game.first_line,
                        _(
                            "%(game)s is already in this league (was this file imported before?).",
                            game=where,
                        ),
                    )
                )
            _check_game(game, where, rules, by_name, problems, refused)


def _check_game(
    game: PlannedGame,
    where: str,
    rules: HouseRules,
    by_name: dict[str, Player],
    problems: list[Problem],
    refused: set[tuple[str, str, str]],
) -> None:
    numbers = sorted(game.rounds)
    if numbers != list(range(1, len(numbers) + 1)):
        gap = next(n for n in range(1, len(numbers) + 2) if n not in game.rounds)
        problems.append(
            Problem(game.first_line, _("%(game)s: round %(n)s is missing.", game=where, n=gap))
        )
    if len(game.players) < 2:
        problems.append(Problem(game.first_line, _("%(game)s has only one player.", game=where)))
    else:
        variant = VARIANTS[game.kind]
        game_rules = rules if variant is default_game() else variant.adopt(rules)
        if game.rules is not None:
            game_rules = HouseRules.from_dict(game.rules)
        try:
            variant.deal_plan(len(game.players), game_rules)
        except ValueError:
            problems.append(
                Problem(
                    game.first_line,
                    _(
                        "%(game)s has %(n)s players, too many for the set of %(variant)s.",
                        game=where,
                        n=len(game.players),
                        variant=variant.label,
                    ),
                )
            )
    resolved: dict[int, str] = {}
    for player_name in game.players:
        match = by_name.get(name_key(player_name))
        if match is not None and match.merged_into_id is not None:
            match = services.surviving(match)
        if match is not None and match.id in resolved:
            problems.append(
                Problem(
                    game.first_line,
                    _(
                        "%(game)s: %(one)s and %(other)s are the same player in this league "
                        "(merged).",
                        game=where,
                        one=resolved[match.id],
                        other=player_name,
                    ),
                )
            )
        if match is not None:
            resolved[match.id] = player_name
    # A late joiner (the file gives their start, as the export does) has no score before the
    # round they sat down in, and sits after the players who were there before them.
    joined = {
        player: min((n for n in numbers if player in game.rounds[n]), default=len(numbers) + 1)
        for player in game.players
    }
    order = [joined.get(player, 1) for player in game.players]
    if order != sorted(order):
        problems.append(
            Problem(
                game.first_line,
                _("%(game)s: a player who joined late is listed before others.", game=where),
            )
        )
    for number in numbers:
        scores = game.rounds[number]
        first = min(score.line for score in scores.values())
        absent = [
            p
            for p in game.players
            if p not in scores
            and not (p in game.starts and number < joined.get(p, 1))
            and (game.table.casefold(), p.casefold(), str(number)) not in refused
        ]
        if absent:
            problems.append(
                Problem(
                    first,
                    _(
                        "round %(n)s at %(game)s has no score for %(names)s.",
                        n=number,
                        game=where,
                        names=", ".join(absent),
                    ),
                )
            )
        out = [p for p, s in scores.items() if s.went_out]
        if len(out) > 1:
            problems.append(
                Problem(
                    first,
                    _(
                        "round %(n)s at %(game)s: %(names)s cannot both go out.",
                        n=number,
                        game=where,
                        names=_("%(first)s and %(last)s", first=", ".join(out[:-1]), last=out[-1]),
                    ),
                )
            )
        if len({s.engine for s in scores.values()}) > 1:
            problems.append(
                Problem(
                    first,
                    _("round %(n)s at %(game)s has different engines.", n=number, game=where),
                )
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

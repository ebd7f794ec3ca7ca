"""Standings, night results and player pages: each seat's game as stored on the seat
(``games.totals``), ranked by the pure maths of ``scorekeeper.rules.standings``.

Every page here runs a fixed number of queries whatever the number of nights: one row per seat
(never one per round score), the players from one more query.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games import services as games
from scorekeeper.leagues import rating
from scorekeeper.leagues.services import league_method
from scorekeeper.models import Game, League, Night, Player, Seat
from scorekeeper.rules.games import WHO_WINS_RULES, higher_wins
from scorekeeper.rules.history import PlayedGame, Rivalry, games_of, head_to_head, night_results
from scorekeeper.rules.placings import SeatResult, placings
from scorekeeper.rules.standings import (
    Method,
    PlayerLine,
    Ranked,
    Standings,
    player_lines,
    standings,
)


@dataclass(frozen=True)
class Period:
    """Which nights count: both ends included, None for open."""

    start: date | None = None
    end: date | None = None
    label: str = ""  # "" : all nights

    @property
    def in_words(self) -> str:
        """The label inside a sentence: "all nights", "season 2025", "20 Nov 2026 to today"
        (only the first letter is made small: a month keeps its capital)."""
        label = self.shown_label
        return label[:1].lower() + label[1:]

    @property
    def shown_label(self) -> str:
        """The label, in the page's language ("All nights" when there is none)."""
        return self.label or _("All nights")


def seat_results(league_id: int, period: Period = Period()) -> list[SeatResult]:
    """One row per player per finished game of the league in ``period``, in the order played:
    the game total, rounds played and rounds gone out as stored on the seat by every write to
    its game (``games.totals``): one row read per seat, never every round score.

    One query lists the finished games with their nights and dates (from indexes), one more
    reads their seats. Who wins each game (``higher_wins``)
    comes from the few stored house rules that say so (``rules.games.WHO_WINS_RULES``, read
    from the JSON by the database: no game's whole rules are decoded)."""
    finished = (Night.league_id == league_id, Game.status == "finished")
    in_period = []
    if period.start is not None:
        in_period.append(Night.played_on >= period.start)
    if period.end is not None:
        in_period.append(Night.played_on <= period.end)
    connection = db.session.connection()
    games = connection.execute(
        select(Game.public_id, Game.version, Game.id, Night.id, Night.played_on)
        .select_from(Night)
        .join(Game, Game.night_id == Night.id)
        .where(*finished, *in_period)
        .order_by(Night.played_on, Night.id, Game.id)
    ).all()
    keys = [tuple(row) for row in games]
    found = _read_games(connection, keys, (*finished, *in_period))
    return [result for key in keys for result in found[key]]


def _read_games(
    connection: Any, keys: list[tuple[Any, ...]], where: tuple[Any, ...]
) -> dict[tuple[Any, ...], Any]:
    """The seat results of the games ``keys`` (public id, version, game, night, date), read
    from the games (joined with their nights) that match ``where``. A game found
    that is not among ``keys`` (it finished since they were listed) is left for next time."""
    by_id = {key[2]: key for key in keys}
    decided: dict[tuple[object, ...], bool] = {}  # (kind, *rules): a handful per league
    kinds: dict[int, tuple[str, bool, bool]] = {}
    for game_id, kind, early, *rules in connection.execute(
        select(
            Game.id,
            Game.kind,
            Game.ended_early,
            *(Game.rules[name].as_string() for name in WHO_WINS_RULES),
        )
        .select_from(Night)
        .join(Game, Game.night_id == Night.id)
        .where(*where)
    ):
        how = (kind, *rules)
        if how not in decided:
            decided[how] = higher_wins(kind, dict(zip(WHO_WINS_RULES, rules, strict=True)))
        kinds[game_id] = (kind, decided[how], not early)
    found: dict[tuple[Any, ...], list[SeatResult]] = {key: [] for key in keys}
    new = tuple.__new__  # a SeatResult made without its Python-level __new__: 4,680 of them
    for game, player, total, played, out in connection.execute(
        select(Seat.game_id, Seat.player_id, Seat.total, Seat.rounds_played, Seat.rounds_out)
        .select_from(Night)
        .join(Game, Game.night_id == Night.id)
        .join(Seat, Seat.game_id == Game.id)
        .where(*where)
        .order_by(Seat.game_id, Seat.position)
    ):
        key = by_id.get(game)
        if key is None or game not in kinds:
            continue
        found[key].append(
            new(SeatResult, (game, key[3], key[4], player, total, played, out, *kinds[game]))
        )
    return found


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    is_guest: bool
    merged_into_id: int | None


def people(league_id: int) -> dict[int, Person]:
    rows = db.session.execute(
        select(Player.id, Player.name, Player.is_guest, Player.merged_into_id).where(
            Player.league_id == league_id
        )
    )
    return {row.id: Person(row.id, row.name, row.is_guest, row.merged_into_id) for row in rows}


@dataclass(frozen=True)
class LeagueTable:
    table: Standings
    names: dict[int, str]
    guests: int  # guests who played in the period (not ranked)
    games: int
    results: int

    @property
    def empty(self) -> bool:
        return not self.table.ranked and not self.table.unranked


def _ratings_for(method: Method, results: Sequence[SeatResult]) -> dict[Hashable, float] | None:
    return rating.ratings(results) if method.spec.ratings else None


def league_table(league: League, period: Period = Period(), kind: str | None = None) -> LeagueTable:
    """The league's standings over ``period`` by its chosen method (or, to look, by another
    method ``kind`` with the league's other settings); guests are not ranked but their games
    count for the places of the players who sat with them."""
    method = league_method(league)
    if kind is not None and kind != method.kind:
        method = replace(method, kind=kind)
    return compute_league_table(league, period, method)


def compute_league_table(
    league: League,
    period: Period = Period(),
    method: Method | None = None,
    results: list[SeatResult] | None = None,
) -> LeagueTable:
    """``league_table`` worked out from the stored seat totals, or from ``results`` (never
    kept)."""
    method = method or league_method(league)
    results = seat_results(league.id, period) if results is None else results
    everyone = people(league.id)
    members = [p.id for p in everyone.values() if not p.is_guest and p.merged_into_id is None]
    names = {pid: person.name for pid, person in everyone.items()}
    table = standings(
        results,
        method,
        ratings=_ratings_for(method, results),
        ranked_players=members,
        order=lambda pid: names.get(pid, "").casefold(),
    )
    guests = {r.player for r in results if (p := everyone.get(r.player)) and p.is_guest}  # type: ignore[arg-type]
    return LeagueTable(
        table=table,
        names=names,
        guests=len(guests),
        games=len({r.game for r in results}),
        results=len(results),
    )


@dataclass(frozen=True)
class GameRow:
    played: PlayedGame
    public_id: str
    table_name: str


@dataclass(frozen=True)
class PlayerReport:
    """Everything on a player's page for ``period``."""

    line: PlayerLine | None
    nights_held: int
    games: list[GameRow]  # newest first
    rivals: list[Rivalry]
    names: dict[int, str]
    standing: Ranked | None
    method: Method
    chart_points: list[tuple[date, int]]

    @property
    def attendance(self) -> Fraction | None:
        if not self.nights_held or self.line is None:
            return None
        return Fraction(self.line.nights, self.nights_held)


def player_report(league: League, player: Player, period: Period = Period()) -> PlayerReport:
    """A player's games, wins, win rate, averages, rounds gone out, best and worst game,
    attendance (nights played of the nights held), head-to-head and place in the standings."""
    return compute_player_report(league, player, period, league_method(league))


def compute_player_report(
    league: League, player: Player, period: Period = Period(), method: Method | None = None
) -> PlayerReport:
    """``player_report`` worked out from the stored seat totals (never kept)."""
    method = method or league_method(league)
    results = seat_results(league.id, period)
    everyone = people(league.id)
    names = {pid: person.name for pid, person in everyone.items()}
    ratings = _ratings_for(method, results)
    placed = placings(results, method.placement_points)
    lines = player_lines(
        results,
        method.placement_points,
        method.best_nights if method.spec.best_nights else None,
        ratings,
        placed=placed,
    )
    members = [p.id for p in everyone.values() if not p.is_guest and p.merged_into_id is None]
    table = standings(results, method, ratings=ratings, ranked_players=members, lines=lines)
    standing = next((r for r in table.ranked if r.line.player == player.id), None)
    played = games_of(results, player.id, method.placement_points, placed=placed)
    info = _game_info({p.result.game for p in played})
    rows = [
        GameRow(p, *info.get(p.result.game, ("", "")))
        for p in reversed(played)  # type: ignore[arg-type]
    ]
    rivals = head_to_head(results, player.id)
    rivals.sort(key=lambda r: (-r.games, names.get(r.opponent, "").casefold()))
    return PlayerReport(
        line=lines.get(player.id),
        nights_held=len({r.night for r in results}),
        games=rows,
        rivals=rivals,
        names=names,
        standing=standing,
        method=method,
        chart_points=[(p.result.played_on, p.result.total) for p in played],
    )


def _game_info(game_ids: set[Hashable]) -> dict[Hashable, tuple[str, str]]:
    if not game_ids:
        return {}
    rows = db.session.execute(
        select(Game.id, Game.public_id, Game.table_name).where(Game.id.in_(game_ids))
    )
    return {row.id: (row.public_id, row.table_name or "") for row in rows}


# --------------------------------------------------------------------------------------------
# A night: every table live, then the results across tables


@dataclass(frozen=True)
class TableView:
    game: Game
    board: games.Scoreboard
    state: games.TableState


@dataclass(frozen=True)
class NightView:
    night: Night
    tables: list[TableView]
    results: list[Ranked]
    finished: bool  # every table has finished (and there is at least one)
    names: dict[int, str]
    tables_of: dict[int, str]  # player -> the table(s) they sat at
    version: str

    @property
    def version_hash(self) -> str:
        """The version as an opaque short hash (it names the night's place, which may hold any
        character: fit for an ETag or a URL)."""
        return hashlib.sha256(self.version.encode()).hexdigest()[:16]

    @property
    def started(self) -> bool:
        """Some table has recorded a round."""
        return any(table.board.rows for table in self.tables)


def night_view(league: League, night: Night) -> NightView:
    """Every table of a loaded night (see services.load_night) with its board, and the night's
    results across the finished tables. Each table's board and state are those kept for its
    game's version (``games.kept``): when one table saves a round, the night's page and every
    phone following it work out that table alone again."""
    tables = []
    for game in night.games:
        loaded = games.load(game)
        tables.append(TableView(game, games.scoreboard(loaded), games.table_state(loaded)))
    results: list[SeatResult] = []
    names: dict[int, str] = {}
    sat_at: dict[int, list[str]] = {}
    for view in tables:
        for seat, player in zip(view.game.seats, view.board.players, strict=True):
            names[seat.player_id] = seat.player.name
            where = sat_at.setdefault(seat.player_id, [])
            if (view.game.table_name or "") not in where:
                where.append(view.game.table_name or "")
            if view.game.status == "finished":
                results.append(
                    SeatResult(
                        view.game.id,
                        night.id,
                        night.played_on,
                        seat.player_id,
                        player.total,
                        len(view.board.rows),
                        player.went_out,
                        view.game.kind,
                        higher_wins(view.game.kind, view.game.rules),
                    )
                )
    method = league_method(league)
    ranked = night_results(results, method.placement_points, lambda pid: names[pid].casefold())
    return NightView(
        night=night,
        tables=tables,
        results=ranked,
        finished=bool(tables) and all(v.game.status == "finished" for v in tables),
        names=names,
        tables_of={player: ", ".join(where) for player, where in sat_at.items()},
        version=_night_version(
            night.id,
            night.played_on,
            night.place,
            league.standings_stamp,
            [(game.id, game.version) for game in night.games],
        ),
    )


def _night_version(
    night_id: int,
    played_on: date,
    place: str | None,
    stamp: str | None,
    games: Iterable[tuple[int, int]],
) -> str:
    """What a night's live page shows changes only with the night's date or place, its tables
    and their games' versions (every write to a game, a player renamed), or the league's
    standings stamp (the placement points of the night's results, the roster)."""
    tables = "-".join(f"{game}.{version}" for game, version in sorted(games))
    return f"{night_id}-{played_on}-{place}-{stamp}-{tables}"


def night_version(league: League, night_id: int) -> str | None:
    """``NightView.version`` of the night as it is now, in one query (the games are not
    loaded): a phone whose copy is current gets 304 from this alone. None: no such night."""
    rows = db.session.execute(
        select(Night.played_on, Night.place, Game.id, Game.version)
        .outerjoin(Game, Game.night_id == Night.id)
        .where(Night.id == night_id, Night.league_id == league.id)
    ).all()
    if not rows:
        return None
    played_on, place = rows[0][0], rows[0][1]
    games = [(game, version) for _, _, game, version in rows if game is not None]
    return _night_version(night_id, played_on, place, league.standings_stamp, games)

"""Use cases of a league: the league and its passphrase, the roster, nights, tables, seasons.

Services load rows, call ``scorekeeper.rules`` and write rows; they ``flush()`` and never commit
(the request boundary does). Nothing here renders HTML. A table of a night is an ordinary game
(scorekeeper.games) with ``night_id`` and ``table_name`` set.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.orm import selectinload
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db
from scorekeeper.games import services as games
from scorekeeper.games.totals import standings_changed
from scorekeeper.locks import lock_row
from scorekeeper.models import Game, League, Night, Player, Round, Season, Seat
from scorekeeper.rules import HouseRules
from scorekeeper.rules.standings import (
    DEFAULT_PLACEMENT_POINTS,
    Method,
    parse_placement_points,
)

CODE_ALPHABET = games.EDIT_CODE_ALPHABET
CODE_LENGTH = 6
MAX_LEAGUE_NAME = 60
MAX_PLAYER_NAME = games.MAX_NAME
MAX_PLACE = 80
MAX_TABLE_NAME = 40
MIN_PASSPHRASE = 6
MAX_PASSPHRASE = 100


class LeagueError(ValueError):
    """A request that cannot be carried out, with a sentence for the organiser."""


def day_text(day: date) -> str:
    """4 Jan 2024"""
    return f"{day.day} {day:%b %Y}"


def clean_text(text: str, limit: int) -> str:
    """Trimmed, inner spaces collapsed, cut to ``limit`` characters."""
    return " ".join((text or "").split())[:limit]


# --------------------------------------------------------------------------------------------
# The league and its passphrase


def normalise_passphrase(text: str) -> str:
    """Capitals and extra spaces do not matter: phones capitalise the first letter on their own."""
    return " ".join((text or "").split()).casefold()


def check_new_passphrase(text: str) -> str:
    passphrase = normalise_passphrase(text)
    if len(passphrase) < MIN_PASSPHRASE:
        raise LeagueError(f"Use at least {MIN_PASSPHRASE} characters, like “blue engine 7”.")
    if len(passphrase) > MAX_PASSPHRASE:
        raise LeagueError(f"Use at most {MAX_PASSPHRASE} characters.")
    return passphrase


def passphrase_matches(league: League, typed: str) -> bool:
    return check_password_hash(league.passphrase_hash, normalise_passphrase(typed))


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.scalar(select(League.id).where(League.code == code)) is None:
            return code


def create_league(name: str, passphrase: str, device: str) -> League:
    """A new league; ``device`` (a device hash) becomes its organiser."""
    cleaned = clean_text(name, MAX_LEAGUE_NAME)
    if not cleaned:
        raise LeagueError("Give the league a name, like “Thursday Train Club”.")
    league = League(
        code=_new_code(),
        name=cleaned,
        passphrase_hash=generate_password_hash(check_new_passphrase(passphrase)),
        passphrase_version=1,
        organiser_device=device,
        rules=HouseRules().to_dict(),
        ranking="average",
        min_games=3,
        min_nights_percent=0,
        placement_points=",".join(str(p) for p in DEFAULT_PLACEMENT_POINTS),
    )
    db.session.add(league)
    db.session.flush()
    return league


def load_league(code: str) -> League | None:
    return db.session.scalars(select(League).where(League.code == (code or "").upper())).first()


def league_by_public_token(token: str) -> League | None:
    if not token:
        return None
    return db.session.scalars(select(League).where(League.public_token == token)).first()


def leagues_for(device: str | None, codes: Iterable[str]) -> list[League]:
    """The leagues this device organises or has unlocked, by name."""
    wanted = list(codes)
    conditions = [League.code.in_(wanted)] if wanted else []
    if device:
        conditions.append(League.organiser_device == device)
    if not conditions:
        return []
    return list(db.session.scalars(select(League).where(or_(*conditions)).order_by(League.name)))


def change_passphrase(league: League, new: str) -> None:
    """Set a new passphrase. Every other device loses its rights (and old join links stop
    working): the version they were unlocked under is no longer the league's."""
    league.passphrase_hash = generate_password_hash(check_new_passphrase(new))
    league.passphrase_version += 1
    # The tables' edit codes were shown to every phone with the old passphrase: new ones.
    for game in db.session.scalars(
        select(Game).join(Night, Game.night_id == Night.id).where(Night.league_id == league.id)
    ):
        game.edit_code = games.new_edit_code()
    db.session.flush()


def make_organiser(league: League, device: str) -> None:
    """Hand the organiser role to ``device`` (a device hash)."""
    league.organiser_device = device
    db.session.flush()


def set_public_page(league: League, public: bool, new_link: bool = False) -> None:
    """Turn the read-only public page on or off; ``new_link`` makes the old link stop working."""
    if not public:
        league.public_token = None
    elif league.public_token is None or new_link:
        league.public_token = secrets.token_urlsafe(12)
    db.session.flush()


def league_method(league: League) -> Method:
    """The league's ranking settings as the standings maths takes them."""
    try:
        points = parse_placement_points(league.placement_points)
    except ValueError:
        points = DEFAULT_PLACEMENT_POINTS
    return Method(
        kind=league.ranking,
        min_games=league.min_games,
        min_nights_percent=league.min_nights_percent,
        placement_points=points,
        best_nights=league.best_nights,
    )


def update_settings(league: League, name: str, method: Method, rules: HouseRules) -> None:
    cleaned = clean_text(name, MAX_LEAGUE_NAME)
    if not cleaned:
        raise LeagueError("Give the league a name.")
    league.name = cleaned
    league.ranking = method.kind
    league.min_games = method.min_games
    league.min_nights_percent = method.min_nights_percent
    league.placement_points = ",".join(str(p) for p in method.placement_points)
    league.best_nights = method.best_nights
    league.rules = rules.to_dict()
    standings_changed(league_id=league.id)
    db.session.flush()


def league_rules(league: League) -> HouseRules:
    return HouseRules.from_dict(league.rules)


# --------------------------------------------------------------------------------------------
# Seasons


def add_season(league: League, name: str, starts_on: date, ends_on: date) -> Season:
    cleaned = clean_text(name, 60)
    if not cleaned:
        raise LeagueError("Give the season a name, like “2025” or “Spring 2025”.")
    if ends_on < starts_on:
        raise LeagueError("The season cannot end before it starts.")
    season = Season(league=league, name=cleaned, starts_on=starts_on, ends_on=ends_on)
    db.session.add(season)
    db.session.flush()
    return season


def delete_season(league: League, season_id: int) -> None:
    season = db.session.get(Season, season_id)
    if season is None or season.league_id != league.id:
        raise LeagueError("That season is not in this league.")
    db.session.delete(season)
    db.session.flush()


def default_season(seasons: Sequence[Season], today: date) -> Season | None:
    """The season the standings open on: the one running today, else the latest one that has
    started, else none (all nights)."""
    running = [s for s in seasons if s.starts_on <= today <= s.ends_on]
    if running:
        return max(running, key=lambda s: s.starts_on)
    started = [s for s in seasons if s.starts_on <= today]
    return max(started, key=lambda s: s.starts_on) if started else None


# --------------------------------------------------------------------------------------------
# Players: the roster, guests, renaming and merging


def league_players(league: League) -> list[Player]:
    """Everyone entered in the league, merged entries included."""
    return list(
        db.session.scalars(select(Player).where(Player.league_id == league.id).order_by(Player.id))
    )


def _same_name(players: Iterable[Player], name: str, skip: Player | None = None) -> Player | None:
    folded = name.casefold()
    for player in players:
        if (
            player is not skip
            and player.merged_into_id is None
            and player.name.casefold() == folded
        ):
            return player
    return None


def find_player(league: League, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    if player is None or player.league_id != league.id:
        return None
    return player


def surviving(player: Player) -> Player:
    """The entry a merged player now lives on as (the player itself when not merged)."""
    seen = {player.id}
    while player.merged_into_id is not None:
        nxt = db.session.get(Player, player.merged_into_id)
        if nxt is None or nxt.id in seen:
            break
        seen.add(nxt.id)
        player = nxt
    return player


def add_player(league: League, name: str) -> Player:
    """Put a player on the roster. A guest of the same name joins the roster instead."""
    cleaned = clean_text(name, MAX_PLAYER_NAME)
    if not cleaned:
        raise LeagueError("Type the player's name.")
    existing = _same_name(league_players(league), cleaned)
    if existing is not None:
        if not existing.is_guest:
            raise LeagueError(f"{existing.name} is already on the roster.")
        existing.is_guest = False
        standings_changed(league_id=league.id)
        db.session.flush()
        return existing
    player = Player(name=cleaned, league_id=league.id, is_guest=False)
    db.session.add(player)
    standings_changed(league_id=league.id)
    db.session.flush()
    return player


def edit_player(league: League, player: Player, name: str, guest: bool) -> None:
    """Rename a player (every game shows the new name: seats point at the player, not at a
    name), or move them between the roster and the guests."""
    cleaned = clean_text(name, MAX_PLAYER_NAME)
    if not cleaned:
        raise LeagueError("Type the player's name.")
    other = _same_name(league_players(league), cleaned, skip=player)
    if other is not None:
        raise LeagueError(
            f"Another player is already called {other.name}. If they are the same person, "
            "merge them instead."
        )
    player.name = cleaned
    player.is_guest = guest
    standings_changed(league_id=league.id)
    db.session.flush()


def split_names(typed: str) -> list[str]:
    """The names in ``typed`` when it looks like several ("Alice, Boris; Cy"): commas,
    semicolons and new lines separate them. One name (or fewer) gives []."""
    parts = [part.strip() for part in typed.replace(";", ",").replace("\n", ",").split(",")]
    names = [part for part in parts if part]
    return names if len(names) > 1 else []


def player_games(player: Player) -> int:
    """How many games a player (or an entry merged into them) has sat at, finished or not."""
    return db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == player.id)) or 0


def delete_player(league: League, player: Player) -> None:
    """Remove an entry typed by mistake. Only one that has never sat at a table: a player's
    games are history (renaming, marking as a guest or merging keeps them)."""
    games = player_games(player)
    if games:
        raise LeagueError(
            f"{player.name} has {games} game{'' if games == 1 else 's'} in the league, so the "
            "entry stays: removing it would change the standings and old score sheets. Rename "
            "it, mark it as a guest, or merge it with the right entry instead."
        )
    # Entries merged into this one have no games left either: they go with it.
    db.session.execute(delete(Player).where(Player.merged_into_id == player.id))
    db.session.delete(player)
    standings_changed(league_id=league.id)
    db.session.flush()


@dataclass(frozen=True)
class MergePlan:
    source: Player
    target: Player
    games: int
    clashes: list[str]  # "4 Jan 2024 at Table 1": both played in the same game


def merge_plan(league: League, source: Player, target: Player) -> MergePlan:
    """What merging ``source`` into ``target`` would do; ``clashes`` list the games where both
    played (then they cannot be the same person)."""
    if source.id == target.id:
        raise LeagueError("Choose a different player to merge with.")
    if source.league_id != league.id or target.league_id != league.id:
        raise LeagueError("Both players must be in this league.")
    if source.merged_into_id is not None or target.merged_into_id is not None:
        raise LeagueError("That player has already been merged.")
    source_games = select(Seat.game_id).where(Seat.player_id == source.id)
    shared = db.session.execute(
        select(Night.played_on, Game.table_name)
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(Night, Night.id == Game.night_id)
        .where(Seat.player_id == target.id, Seat.game_id.in_(source_games))
        .order_by(Night.played_on)
    ).all()
    clashes = [
        f"{day_text(played_on) if played_on else 'a game'} at {table or 'a table'}"
        for played_on, table in shared
    ]
    count = db.session.scalar(select(func.count()).where(Seat.player_id == source.id)) or 0
    return MergePlan(source=source, target=target, games=count, clashes=clashes)


def merge_players(league: League, source: Player, target: Player) -> int:
    """Merge two entries that are the same person: every game of ``source`` moves to ``target``
    (who keeps their name); ``source`` is kept as a pointer so old links still work. Refused
    when both played in the same game. Returns the number of games moved."""
    plan = merge_plan(league, source, target)
    if plan.clashes:
        raise LeagueError(
            f"{source.name} and {target.name} played in the same game "
            f"({', '.join(plan.clashes[:3])}), so they cannot be the same person."
        )
    db.session.execute(update(Seat).where(Seat.player_id == source.id).values(player_id=target.id))
    db.session.execute(
        update(Player).where(Player.merged_into_id == source.id).values(merged_into_id=target.id)
    )
    source.merged_into_id = target.id
    target.is_guest = target.is_guest and source.is_guest
    standings_changed(league_id=league.id)
    db.session.flush()
    db.session.expire_all()
    return plan.games


def roster_counts(league: League) -> dict[int, tuple[int, date | None]]:
    """Games seated and the last night played, per player (all games, finished or not)."""
    rows = db.session.execute(
        select(Seat.player_id, func.count(Seat.id), func.max(Night.played_on))
        .join(Game, Game.id == Seat.game_id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league.id)
        .group_by(Seat.player_id)
    ).all()
    return {player_id: (count, last) for player_id, count, last in rows}


# --------------------------------------------------------------------------------------------
# Nights and their tables


def _check_date(played_on: date) -> None:
    if not date(2000, 1, 1) <= played_on <= date(2100, 12, 31):
        raise LeagueError("Choose a date between the years 2000 and 2100.")


def create_night(league: League, played_on: date, place: str) -> Night:
    _check_date(played_on)
    night = Night(league=league, played_on=played_on, place=clean_text(place, MAX_PLACE))
    db.session.add(night)
    db.session.flush()
    return night


def update_night(night: Night, played_on: date, place: str) -> None:
    _check_date(played_on)
    night.played_on = played_on
    night.place = clean_text(place, MAX_PLACE)
    standings_changed(league_id=night.league_id)
    db.session.flush()


def last_place(league: League) -> str:
    """Where the league met last, to fill in a new night."""
    return (
        db.session.scalar(
            select(Night.place)
            .where(Night.league_id == league.id)
            .order_by(Night.played_on.desc(), Night.id.desc())
            .limit(1)
        )
        or ""
    )


def league_nights(league: League) -> list[tuple[Night, int, int, int]]:
    """Every night, newest first, with its number of games, finished games and players."""
    rows = db.session.execute(
        select(
            Night,
            func.count(func.distinct(Game.id)),
            func.count(func.distinct(case((Game.status == "finished", Game.id)))),
            func.count(func.distinct(Seat.player_id)),
        )
        .outerjoin(Game, Game.night_id == Night.id)
        .outerjoin(Seat, Seat.game_id == Game.id)
        .where(Night.league_id == league.id)
        .group_by(Night.id)
        .order_by(Night.played_on.desc(), Night.id.desc())
    ).all()
    return [
        (night, games_count, finished, players) for night, games_count, finished, players in rows
    ]


def recent_nights(league: League, limit: int = 5) -> list[Night]:
    return list(
        db.session.scalars(
            select(Night)
            .where(Night.league_id == league.id)
            .order_by(Night.played_on.desc(), Night.id.desc())
            .limit(limit)
        )
    )


def load_night(league: League, night_id: int) -> Night | None:
    """A night with its games, seats, players, rounds and scores, in a fixed number of queries."""
    return db.session.scalars(
        select(Night)
        .where(Night.id == night_id, Night.league_id == league.id)
        .options(
            selectinload(Night.games).selectinload(Game.seats).selectinload(Seat.player),
            selectinload(Night.games).selectinload(Game.rounds).selectinload(Round.scores),
        )
    ).first()


def tonight(league: League, today: date) -> Night | None:
    return db.session.scalars(
        select(Night)
        .where(Night.league_id == league.id, Night.played_on == today)
        .order_by(Night.id.desc())
    ).first()


def _delete_lonely_guests(league: League) -> None:
    """Guests whose only table was removed leave no trace."""
    seated = select(Seat.player_id)
    merged_into = select(Player.merged_into_id).where(Player.merged_into_id.is_not(None))
    db.session.execute(
        delete(Player)
        .where(
            Player.league_id == league.id,
            Player.is_guest.is_(True),
            Player.merged_into_id.is_(None),
            Player.id.not_in(seated),
            Player.id.not_in(merged_into),
        )
        .execution_options(synchronize_session=False)
    )


def delete_night(league: League, night: Night) -> None:
    """Delete a night entered by mistake; refused once any of its tables recorded a round."""
    if any(game.rounds for game in night.games):
        raise LeagueError(
            "This night has recorded rounds, so it cannot be deleted. Remove single tables "
            "that have not started instead."
        )
    for game in list(night.games):
        db.session.delete(game)
    db.session.delete(night)
    db.session.flush()
    _delete_lonely_guests(league)
    standings_changed(league_id=league.id)
    db.session.flush()


def playing_tonight(night: Night) -> dict[int, str]:
    """Players at a table of this night whose game is still going: player id -> table name."""
    return {
        seat.player_id: game.table_name or "a table"
        for game in night.games
        if game.status == "playing"
        for seat in game.seats
    }


def next_table_name(night: Night) -> str:
    names = {(game.table_name or "").casefold() for game in night.games}
    number = 1
    while f"table {number}" in names:
        number += 1
    return f"Table {number}"


def add_table(
    league: League,
    night: Night,
    table_name: str,
    player_ids: Sequence[int],
    guest_names: Sequence[str],
    device: str,
) -> Game:
    """Start a table of the night: a game under the league's house rules with the chosen roster
    players and guests, in the order given. A guest's name that matches someone in the league
    seats that player. Refused when someone is already playing at another table tonight.

    The night's row is locked first, so two phones seating the same player at two tables at
    the same moment cannot both succeed: the second sees the first's table."""
    lock_row(Night, night.id)
    name = clean_text(table_name, MAX_TABLE_NAME) or next_table_name(night)
    busy = {
        game.table_name.casefold()
        for game in night.games
        if game.status == "playing" and game.table_name
    }
    if name.casefold() in busy:
        raise LeagueError(f"{name} is still playing tonight: give this table another name.")
    everyone = league_players(league)
    by_id = {player.id: player for player in everyone if player.merged_into_id is None}
    chosen: list[Player] = []
    for player_id in player_ids:
        player = by_id.get(player_id)
        if player is None:
            raise LeagueError("One of the chosen players is not in this league any more.")
        if player not in chosen:
            chosen.append(player)
    for typed in guest_names:
        guest_name = clean_text(typed, MAX_PLAYER_NAME)
        if not guest_name:
            continue
        player = _same_name(everyone, guest_name)
        if player is None:
            player = Player(name=guest_name, league_id=league.id, is_guest=True)
            db.session.add(player)
            everyone.append(player)
        if player in chosen:
            raise LeagueError(f"{player.name} is at this table twice.")
        chosen.append(player)
    playing = playing_tonight(night)
    for player in chosen:
        if player.id in playing:
            raise LeagueError(f"{player.name} is already playing at {playing[player.id]} tonight.")
    if len(chosen) < 2:
        raise LeagueError("Choose at least two players for the table.")
    try:
        game = games.create_game(
            [player.name for player in chosen],
            league_rules(league),
            0,
            device,
            players=chosen,
        )
    except games.GameError as error:
        raise LeagueError(str(error)) from error
    game.night_id = night.id
    game.table_name = name
    db.session.flush()
    return game


def remove_table(league: League, night: Night, public_id: str) -> str:
    """Remove a table seated by mistake, before its first round. Returns its name."""
    game = next((g for g in night.games if g.public_id == public_id), None)
    if game is None:
        raise LeagueError("That table is not part of this night.")
    if game.rounds:
        raise LeagueError(f"{game.table_name} has recorded rounds, so it stays.")
    name = game.table_name or "The table"
    night.games.remove(game)
    db.session.delete(game)
    db.session.flush()
    _delete_lonely_guests(league)
    standings_changed(league_id=league.id)
    db.session.flush()
    return name

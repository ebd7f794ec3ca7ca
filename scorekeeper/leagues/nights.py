"""Use cases of league nights and their tables. A table of a night is an ordinary game
(scorekeeper.games) with ``night_id`` and ``table_name`` set."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import case, delete, func, select
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.games import services as games
from scorekeeper.games.totals import standings_changed
from scorekeeper.leagues.roster import _same_name, league_players, player_name
from scorekeeper.leagues.setup import (
    MAX_PLACE,
    MAX_TABLE_NAME,
    LeagueError,
    clean_text,
    league_rules,
)
from scorekeeper.models import Game, League, Night, Player, Seat
from scorekeeper.rules.games import DEFAULT_KIND, default_game, variant_or_default
from scorekeeper.web.row_locks import lock_row

# --------------------------------------------------------------------------------------------
# Nights and their tables


def _check_date(played_on: date) -> None:
    if not date(2000, 1, 1) <= played_on <= date(2100, 12, 31):
        raise LeagueError(_("Choose a date between the years 2000 and 2100."))


def create_night(league: League, played_on: date, place: str) -> Night:
    _check_date(played_on)
    night = Night(league=league, played_on=played_on, place=clean_text(place, MAX_PLACE))
    db.session.add(night)
    db.session.flush()
    return night


def nights_on(league: League, played_on: date, other_than: Night | None = None) -> list[Night]:
    """The league's nights on that day (another night than ``other_than``): a second night on
    one date is asked about first (two nights count as two in the standings)."""
    query = select(Night).where(Night.league_id == league.id, Night.played_on == played_on)
    if other_than is not None:
        query = query.where(Night.id != other_than.id)
    return list(db.session.scalars(query.order_by(Night.id)))


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


def load_night(league: League, night_id: int, rounds: bool = True) -> Night | None:
    """A night with its games, their seats and players and (with ``rounds``: whether a table
    has started decides what may be removed) their rounds, in a fixed number of queries. The
    night's pages take each table's scoreboard from what is kept for its game's version
    (``standings.night_view``), which reads the table's rows itself when it must."""
    games = selectinload(Night.games)
    options = [games.selectinload(Game.seats).selectinload(Seat.player)]
    if rounds:
        options.append(games.selectinload(Game.rounds))
    return db.session.scalars(
        select(Night).where(Night.id == night_id, Night.league_id == league.id).options(*options)
    ).first()


def tonight(league: League, today: date) -> Night | None:
    return db.session.scalars(
        select(Night)
        .where(Night.league_id == league.id, Night.played_on == today)
        .order_by(Night.id.desc())
    ).first()


def landing_night(league: League, today: date) -> Night | None:
    """The night a phone that has just joined the league should see: tonight's (dated today
    or yesterday: a club night runs past midnight, and the server's day may be another time
    zone's), else the latest night with a table still playing; None sends it to the
    standings."""
    recent = db.session.scalars(
        select(Night)
        .where(Night.league_id == league.id, Night.played_on >= today - timedelta(days=1))
        .where(Night.played_on <= today)
        .order_by(Night.played_on.desc(), Night.id.desc())
    ).first()
    if recent is not None:
        return recent
    return db.session.scalars(
        select(Night)
        .join(Game, Game.night_id == Night.id)
        .where(Night.league_id == league.id, Game.status == "playing")
        .order_by(Night.played_on.desc(), Night.id.desc())
    ).first()


def delete_lonely_guests(league_id: int) -> None:
    """Guests whose only table was removed (or whose only games were purged from the trash,
    ``games.trash``) leave no trace."""
    seated = select(Seat.player_id)
    merged_into = select(Player.merged_into_id).where(Player.merged_into_id.is_not(None))
    db.session.execute(
        delete(Player)
        .where(
            Player.league_id == league_id,
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
            _(
                "This night has recorded rounds, so it cannot be deleted. Remove single tables "
                "that have not started instead."
            )
        )
    for game in list(night.games):
        db.session.delete(game)
    db.session.delete(night)
    db.session.flush()
    delete_lonely_guests(league.id)
    standings_changed(league_id=league.id)
    db.session.flush()


def playing_tonight(night: Night) -> dict[int, str]:
    """Players at a table of this night whose game is still going: player id -> table name."""
    return {
        seat.player_id: game.table_name or _("a table")
        for game in night.games
        if game.status == "playing"
        for seat in game.seats
    }


def next_table_name(night: Night) -> str:
    """The first free "Table 1", "Table 2" … in the page's language: the name the organiser
    is offered (and may change), kept as if typed."""
    names = {(game.table_name or "").casefold() for game in night.games}
    number = 1
    while _("Table %(n)s", n=number).casefold() in names:
        number += 1
    return _("Table %(n)s", n=number)


def _players_for_table(
    league: League, night: Night, player_ids: Sequence[int], guest_names: Sequence[str]
) -> list[Player]:
    """The chosen roster players, then the guests (a guest's name that matches someone in the
    league seats that player), each once; refused when one is playing at another table."""
    everyone = league_players(league)
    by_id = {player.id: player for player in everyone if player.merged_into_id is None}
    chosen: list[Player] = []
    for player_id in player_ids:
        player = by_id.get(player_id)
        if player is None:
            raise LeagueError(_("One of the chosen players is not in this league any more."))
        if player not in chosen:
            chosen.append(player)
    for typed in guest_names:
        if not typed.strip():
            continue
        guest_name = player_name(typed)
        player = _same_name(everyone, guest_name)
        if player is None:
            player = Player(name=guest_name, league_id=league.id, is_guest=True)
            db.session.add(player)
            everyone.append(player)
        if player in chosen:
            raise LeagueError(_("%(name)s is at this table twice.", name=player.name))
        chosen.append(player)
    playing = playing_tonight(night)
    for player in chosen:
        if player.id in playing:
            raise LeagueError(
                _(
                    "%(name)s is already playing at %(table)s tonight.",
                    name=player.name,
                    table=playing[player.id],
                )
            )
    return chosen


def add_table(
    league: League,
    night: Night,
    table_name: str,
    player_ids: Sequence[int],
    guest_names: Sequence[str],
    device: str,
    kind: str = DEFAULT_KIND,
) -> Game:
    """Start a table of the night: a game of ``kind`` under the league's house rules (another
    game than Mexican Train plays its own usual set and rules over them) with the chosen roster
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
        raise LeagueError(
            _("%(table)s is still playing tonight: give this table another name.", table=name)
        )
    chosen = _players_for_table(league, night, player_ids, guest_names)
    if len(chosen) < 2:
        raise LeagueError(_("Choose at least two players for the table."))
    variant = variant_or_default(kind)
    rules = league_rules(league)
    if variant is not default_game():
        rules = variant.adopt(rules)
    try:
        game = games.create_game(
            [player.name for player in chosen],
            rules,
            0,
            device,
            players=chosen,
            kind=variant.name,
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
        raise LeagueError(_("That table is not part of this night."))
    if game.rounds:
        raise LeagueError(_("%(table)s has recorded rounds, so it stays.", table=game.table_name))
    name = game.table_name or _("The table")
    night.games.remove(game)
    db.session.delete(game)
    db.session.flush()
    delete_lonely_guests(league.id)
    standings_changed(league_id=league.id)
    db.session.flush()
    return name

"""Deleting a game with a trail, undo, and the purge.

A game with recorded rounds is never deleted at once: it goes to the trash with who deleted it
("organiser", "creator" or "edit code"), from which device (hashed) and when. What it was (the
night, the table, the players and their totals) stays in its own rows, untouched, so undo puts
back exactly what was there, the league's standings included. A deleted game is invisible to
every read: its pages answer 404 (``setup.find_game``, ``load_game`` and ``game_state`` skip
it) and a league game leaves its night (``night_id`` empty, ``deleted_night_id`` remembers it),
so no night page, standings, export or player page can count it. The delete and the undo each
move the game's version on (``setup.touch``), so nothing kept for a version outlives them.

After ``DELETED_KEEP_DAYS`` (14 by default) the trash is purged for good: by ``flask
purge-deleted``, and on the cheap path of every delete (so a server nobody runs the command on
still forgets). A game without rounds holds nothing to lose and is deleted at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.games import access as games_access
from scorekeeper.games import league_tables
from scorekeeper.games.setup import new_edit_code, touch
from scorekeeper.games.totals import standings_changed
from scorekeeper.models import Game, Night, Round, Seat
from scorekeeper.rules.words import N_
from scorekeeper.web.devices import is_this_device

KEEP_DAYS = 14
#: Who deleted a game (keys: the stored ``deleted_by``), said through ``_`` where shown.
WHO = {
    "organiser": N_("the organiser"),
    "creator": N_("its creator"),
    "edit code": N_("a scorekeeper"),
}


def keep_days() -> int:
    """How many days a deleted game can be brought back (``DELETED_KEEP_DAYS``)."""
    return int(current_app.config.get("DELETED_KEEP_DAYS", KEEP_DAYS))


def has_rounds(game: Game) -> bool:
    return db.session.scalar(select(Round.id).where(Round.game_id == game.id).limit(1)) is not None


def delete_game(game: Game, who: str, device: str) -> bool:
    """Delete ``game`` as ``who`` ("organiser", "creator", "edit code") from ``device`` (its
    hash). A game with rounds goes to the trash (returns True: it can be brought back); one
    without is deleted at once (False)."""
    purge_deleted()
    if not has_rounds(game):
        if game.night_id is not None and game.status == "finished":
            standings_changed(night_id=game.night_id)
        db.session.delete(game)
        db.session.flush()
        return False
    # The version moves on while the game is still at its night (a finished game's league
    # then gets new standings), then it leaves the night.
    touch(game, scores=False)
    game.deleted_at = datetime.now(UTC)
    game.deleted_by = who
    game.deleted_device = device
    game.deleted_night_id, game.night_id = game.night_id, None
    # The edit code shown before cannot be typed again: undo brings the game back with a new
    # one (phones that had already unlocked it keep what they had).
    game.edit_code = new_edit_code()
    db.session.flush()
    return True


def find_deleted(public_id: str) -> Game | None:
    """A game in the trash (still within its days), locked for the undo."""
    return db.session.scalars(
        select(Game)
        .where(
            Game.public_id == public_id,
            Game.deleted_at.is_not(None),
            Game.deleted_at >= _cutoff(),
        )
        .with_for_update(of=Game)
    ).first()


def restore_game(game: Game) -> None:
    """Undo a delete: the game is back as it was (at its night, with its rounds and totals);
    its version moves on, and a finished league game gives the standings a new stamp."""
    game.night_id, game.deleted_night_id = game.deleted_night_id, None
    game.deleted_at = game.deleted_by = game.deleted_device = None
    db.session.flush()
    touch(game, scores=False)


@dataclass(frozen=True)
class DeletedGame:
    """A game in the trash, in words: what it was, who deleted it and until when it can be
    brought back."""

    public_id: str
    kind: str
    table_name: str | None
    night: Night | None
    players: list[tuple[str, int]]  # name, total, in seat order
    rounds: int
    finished: bool
    deleted_at: datetime
    who: str
    until: datetime


def _cutoff() -> datetime:
    return datetime.now(UTC) - timedelta(days=keep_days())


def _described(games: Sequence[Game]) -> list[DeletedGame]:
    days = timedelta(days=keep_days())
    described = []
    for game in games:
        deleted_at = game.deleted_at
        assert deleted_at is not None
        if deleted_at.tzinfo is None:  # SQLite gives back naive UTC times
            deleted_at = deleted_at.replace(tzinfo=UTC)
        described.append(
            DeletedGame(
                public_id=game.public_id,
                kind=game.kind,
                table_name=game.table_name,
                night=game.deleted_night,
                players=[(seat.player.name, seat.total) for seat in game.seats],
                rounds=max((seat.rounds_played for seat in game.seats), default=0),
                finished=game.status == "finished",
                deleted_at=deleted_at,
                who=_(WHO.get(game.deleted_by or "", N_("a phone"))),
                until=deleted_at + days,
            )
        )
    return described


def _trash(*where: object) -> list[DeletedGame]:
    games = db.session.scalars(
        select(Game)
        .where(Game.deleted_at.is_not(None), Game.deleted_at >= _cutoff(), *where)
        .options(
            selectinload(Game.seats).selectinload(Seat.player),
            selectinload(Game.deleted_night),
        )
        .order_by(Game.deleted_at.desc(), Game.id.desc())
    ).all()
    return _described(games)


def deleted_in_league(league_id: int, night_id: int | None = None) -> list[DeletedGame]:
    """The league's games in the trash, newest delete first (of one night, with ``night_id``)."""
    nights = select(Night.id).where(Night.league_id == league_id)
    if night_id is not None:
        nights = nights.where(Night.id == night_id)
    return _trash(Game.deleted_night_id.in_(nights))


def deleted_by_device(device: str) -> list[DeletedGame]:
    """Games of one's own (not of a league) that this device created or deleted, in the
    trash."""
    return _trash(
        Game.deleted_night_id.is_(None),
        (Game.creator_device == device) | (Game.deleted_device == device),
    )


def purge_deleted(now: datetime | None = None) -> int:
    """Delete for good every game that has been in the trash longer than the days it is kept
    (its rounds, corrections and photos go with it); guests of a league who sat only at those
    games go too. Returns how many games were purged."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=keep_days())
    expired = select(Game.id).where(Game.deleted_at.is_not(None), Game.deleted_at < cutoff)
    ids = list(db.session.scalars(expired))
    if not ids:
        return 0
    leagues = set(
        db.session.scalars(
            select(Night.league_id)
            .join(Game, Game.deleted_night_id == Night.id)
            .where(Game.id.in_(ids))
        )
    )
    for game in db.session.scalars(select(Game).where(Game.id.in_(ids))):
        db.session.delete(game)
    db.session.flush()
    for league_id in leagues:
        league_tables.delete_lonely_guests(league_id)
    db.session.flush()
    db.session.expire_all()
    return len(ids)


# --------------------------------------------------------------------------------------------
# Who may delete and bring back


def deleting_as(game: Game) -> str | None:
    """Who this phone deletes ``game`` as, or None when it may not. A league game: only the
    league's organiser (a table's phone keeps score, it does not remove history). A game of
    one's own: its creator, or a phone that typed its edit code."""
    if game.night is not None:
        return "organiser" if league_tables.is_organiser(game.night.league) else None
    if is_this_device(game.creator_device):
        return "creator"
    return "edit code" if games_access.can_edit(game) else None


def may_restore(game: Game) -> bool:
    """Bring a deleted game back: a league game, the organiser; a game of one's own, its
    creator or the phone that deleted it."""
    if game.deleted_night is not None:
        return league_tables.is_organiser(game.deleted_night.league)
    return is_this_device(game.creator_device) or is_this_device(game.deleted_device)

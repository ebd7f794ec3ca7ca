"""Database models: data and the invariants the database can keep. No rules live here."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, query_expression, relationship

from scorekeeper.extensions import db
from scorekeeper.rules.games import DEFAULT_KIND


def utcnow() -> datetime:
    """Called per row at insert time (never evaluated once at import)."""
    return datetime.now(UTC)


class Player(db.Model):
    """A person who plays: seated in games; in a league, kept across nights.

    League players belong to one league (``league_id``); a guest plays without joining the roster.
    A merged entry (``merged_into_id``) has handed all its seats to the surviving entry and is kept
    only so old names and links still lead somewhere.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    league_id: Mapped[int | None] = mapped_column(
        ForeignKey("league.id", ondelete="CASCADE"), index=True
    )
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))

    seats: Mapped[list[Seat]] = relationship(back_populates="player")
    league: Mapped[League | None] = relationship(back_populates="players")


class Game(db.Model):
    """One game at one table, with the house rules it was started under."""

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(16), unique=True)
    edit_code: Mapped[str] = mapped_column(String(12))
    creator_device: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(24), default=DEFAULT_KIND)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_starter: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(12), default="playing")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Bumped by every write to the game (round, correction, undo, end, reopen): a form says which
    # version it was based on, and the live views ask "changed since version N?" cheaply. The
    # ORM moves it on with every UPDATE of the row (``version_id_col``, below), and an UPDATE
    # based on a version another write has moved on fails (``StaleDataError``).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    __mapper_args__ = {"version_id_col": version}  # i18n: SQLAlchemy option
    # A league game is an ordinary game played at one table of a league night.
    night_id: Mapped[int | None] = mapped_column(
        ForeignKey("night.id", ondelete="CASCADE"), index=True
    )
    table_name: Mapped[str | None] = mapped_column(String(40))
    # Hand photos stay with their rounds only when the table chose so at setup.
    keep_photos: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The table ended the game before its last round (or its target): its totals cover fewer
    # rounds than a whole game's, so the average standings leave it out.
    ended_early: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Not a column: whether the game has any correction, read with the game's row by the query
    # that asks for it (``setup.find_game(..., correction_flag=True)``); None otherwise.
    has_corrections: Mapped[bool | None] = query_expression()
    # Deleted games wait in the trash (``games.trash``) before they are purged: when, by whom
    # ("organiser", "creator" or "edit code") and from which device (hashed). A deleted league
    # game leaves its night (``night_id`` empty, so no league page or standings can count it)
    # and remembers it in ``deleted_night_id`` to go back there on undo.
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deleted_by: Mapped[str | None] = mapped_column(String(16))
    deleted_device: Mapped[str | None] = mapped_column(String(64))
    deleted_night_id: Mapped[int | None] = mapped_column(
        ForeignKey("night.id", ondelete="CASCADE"), index=True
    )

    night: Mapped[Night | None] = relationship(back_populates="games", foreign_keys=[night_id])
    deleted_night: Mapped[Night | None] = relationship(foreign_keys=[deleted_night_id])
    seats: Mapped[list[Seat]] = relationship(
        back_populates="game",
        order_by="Seat.position",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game",
        order_by="Round.number",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="game",
        order_by="Correction.id",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
    )
    photos: Mapped[list[Photo]] = relationship(
        back_populates="game",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
        passive_deletes=True,
    )

    __table_args__ = (
        CheckConstraint("status IN ('playing', 'finished')", name="status_known"),  # i18n: SQL
        CheckConstraint("first_starter >= 0", name="first_starter_non_negative"),
        CheckConstraint("version >= 1", name="version_positive"),
    )

    @property
    def played_on(self) -> date:
        """The day the game was played: a league game's night (scores may be typed days
        later), else the day it was started."""
        return self.night.played_on if self.night is not None else self.created_at.date()


class Seat(db.Model):
    """A player's place at a game's table, in playing order."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    # A late joiner (rules.md 2.4): the first round this seat plays, and the total it starts
    # with (0, or the highest total at the table under the late_joiner house rule).
    joined_round: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    start_total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The seat's game so far, stored by every write to the game (``games.totals``) so the
    # league pages read one row per seat instead of adding up every round score: the total of
    # its round scores, rounds played, rounds gone out, and its place at the table (lowest
    # total 1st, equal totals share, rules.md 6).
    total: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    rounds_played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    rounds_out: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    place: Mapped[int] = mapped_column(Integer, default=1, server_default="1")

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")

    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
        CheckConstraint("position >= 0", name="position_non_negative"),
        CheckConstraint("joined_round >= 1", name="joined_round_positive"),
    )


class Round(db.Model):
    """One recorded round: its engine, how it ended and the token of the form that saved it."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    # The round's engine double; None for a hand of a points game (no engine).
    engine: Mapped[int | None] = mapped_column(Integer)
    went_out_seat_id: Mapped[int | None] = mapped_column(ForeignKey("seat.id"))
    went_out_on_double: Mapped[bool] = mapped_column(Boolean, default=False)
    form_token: Mapped[str] = mapped_column(String(64), unique=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    scores: Mapped[list[Score]] = relationship(
        back_populates="round",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
        order_by="Score.seat_id",
    )

    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("engine >= 0", name="engine_non_negative"),
    )


class Score(db.Model):
    """A player's result in one round: the hand as entered and the round score it gives."""

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"), index=True)
    hand: Mapped[int] = mapped_column(Integer)
    tiles: Mapped[str | None] = mapped_column(Text)
    markers: Mapped[int] = mapped_column(Integer, default=0)
    # Doubles this player left open (unsatisfied) at round end (house rule open_double_penalty).
    open_doubles: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Points made during play (points games, rules.md 5); ``points`` includes them.
    made: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    points: Mapped[int] = mapped_column(Integer)
    corrected: Mapped[bool] = mapped_column(Boolean, default=False)

    round: Mapped[Round] = relationship(back_populates="scores")
    seat: Mapped[Seat] = relationship()

    __table_args__ = (
        UniqueConstraint("round_id", "seat_id"),
        CheckConstraint("hand >= 0", name="hand_non_negative"),
        CheckConstraint("markers >= 0", name="markers_non_negative"),
        CheckConstraint("open_doubles >= 0", name="open_doubles_non_negative"),
        CheckConstraint("made >= 0", name="made_non_negative"),
    )


class Correction(db.Model):
    """An audit entry: one changed value in a recorded round, from what to what, when and why.

    The values changed by one save share a ``batch``; undo restores a whole batch.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    batch: Mapped[int] = mapped_column(Integer)
    round_number: Mapped[int] = mapped_column(Integer)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seat.id", ondelete="CASCADE"))
    field: Mapped[str] = mapped_column(String(24))
    old_value: Mapped[str] = mapped_column(Text)
    new_value: Mapped[str] = mapped_column(Text)
    note: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    game: Mapped[Game] = relationship(back_populates="corrections")
    seat: Mapped[Seat | None] = relationship()


# --------------------------------------------------------------------------------------------
# Leagues: the same group over many nights (rules.md 6)


class League(db.Model):
    """A club that meets night after night. A passphrase (stored hashed) lets a phone keep score
    for it; changing it bumps ``passphrase_version``, which signs other phones out. The creating
    device is the organiser. ``public_token`` is the read-only public page's link (None: off).
    The ranking settings choose the method of rules.md 6; ``rules`` are the house rules new
    tables start with."""

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    passphrase_hash: Mapped[str] = mapped_column(String(255))
    passphrase_version: Mapped[int] = mapped_column(Integer, default=1)
    organiser_device: Mapped[str] = mapped_column(String(64), index=True)
    public_token: Mapped[str | None] = mapped_column(String(24), unique=True)
    # The name of a standings method (rules.standings_methods); no constraint ties it to the
    # declarations, so a new method needs no migration: the settings form and
    # ``Method`` refuse a name no method has, and one stored by another version of the app is
    # ranked by the default method (``leagues.setup.league_method``).
    ranking: Mapped[str] = mapped_column(String(16), default="average")
    min_games: Mapped[int] = mapped_column(Integer, default=2)  # rules.standings default
    min_nights_percent: Mapped[int] = mapped_column(Integer, default=0)
    placement_points: Mapped[str] = mapped_column(String(80), default="5,3,2,1")
    best_nights: Mapped[int | None] = mapped_column(Integer)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The language of the league's pages and its members' link (a code of
    # scorekeeper.web.i18n.LANGUAGES); None: each phone's own. A phone's own choice still wins.
    language: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A new random value whenever anything the standings show may have changed (a finished
    # game, the roster, a night's date, the settings, an import): computed standings are kept
    # under it, so every server process finds out from the row it loads anyway.
    standings_stamp: Mapped[str] = mapped_column(
        String(32), default=lambda: secrets.token_hex(8), server_default=""
    )

    players: Mapped[list[Player]] = relationship(back_populates="league")
    nights: Mapped[list[Night]] = relationship(
        back_populates="league",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
        passive_deletes=True,
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="league",
        order_by="Season.starts_on",
        cascade="all, delete-orphan",  # i18n: SQLAlchemy option
        passive_deletes=True,
    )

    __table_args__ = (
        CheckConstraint("min_games >= 1", name="min_games_positive"),
        CheckConstraint(
            "min_nights_percent >= 0 AND min_nights_percent <= 100",
            name="min_nights_percent_range",  # i18n: SQL
        ),
        CheckConstraint(
            "best_nights IS NULL OR best_nights >= 1", name="best_nights_positive"
        ),  # i18n: SQL
        CheckConstraint("passphrase_version >= 1", name="passphrase_version_positive"),
    )


class Night(db.Model):
    """One evening of a league: a date, a place, and the games of its tables."""

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    played_on: Mapped[date] = mapped_column(Date)
    place: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    league: Mapped[League] = relationship(back_populates="nights")
    games: Mapped[list[Game]] = relationship(
        back_populates="night",
        order_by="Game.id",
        passive_deletes=True,
        foreign_keys="Game.night_id",
    )


class Season(db.Model):
    """A named stretch of dates (both ends included) that the standings can be filtered by."""

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)

    league: Mapped[League] = relationship(back_populates="seasons")

    __table_args__ = (CheckConstraint("ends_on >= starts_on", name="dates_in_order"),)


# The league pages add up every seat's round scores and rounds gone out with one query; these
# indexes let the database answer it from the index alone (no table reads per score).
Index("ix_score_seat_id_points", Score.seat_id, Score.points)
Index("ix_round_went_out_seat_id", Round.went_out_seat_id)
# The standings list a league's finished games with their versions in the order played (the
# nights by date, their finished games), then read the seats of the games not kept with what
# is stored on them: all from indexes (no table reads, and no sort).
Index("ix_night_league_id_played_on", Night.league_id, Night.played_on)
Index("ix_game_night_id_status_version", Game.night_id, Game.status, Game.version, Game.public_id)
Index(
    "ix_seat_game_id_results",
    Seat.game_id,
    Seat.position,
    Seat.player_id,
    Seat.total,
    Seat.rounds_played,
    Seat.rounds_out,
)


class LeagueImport(db.Model):
    """A confirmed import: its preview token can be confirmed once only (a second confirm,
    say from a double tap or two phones, finds the token taken and writes nothing)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True)
    filename: Mapped[str] = mapped_column(String(200), default="")
    games: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Photo(db.Model):
    """A photo of one player's tiles, stripped of all metadata, with what the reader saw.

    Kept with its round only when the game keeps photos; until the round is saved it is
    pending (``round_id`` empty). Deleted with the game.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    seat_position: Mapped[int] = mapped_column(Integer)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    image: Mapped[bytes] = mapped_column(LargeBinary)
    reading: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="photos")

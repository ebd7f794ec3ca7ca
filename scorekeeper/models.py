"""Database models: data and the invariants the database can keep. No rules live here."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.extensions import db


def utcnow() -> datetime:
    """Called per row at insert time (never evaluated once at import)."""
    return datetime.now(UTC)


class Player(db.Model):
    """A person who plays: seated in games; in a league, kept across nights."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")


class Game(db.Model):
    """One game at one table, with the house rules it was started under."""

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(16), unique=True)
    edit_code: Mapped[str] = mapped_column(String(12))
    creator_device: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(24), default="mexican_train")
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_starter: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(12), default="playing")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="game", order_by="Correction.id", cascade="all, delete-orphan"
    )

    __table_args__ = (
        CheckConstraint("status IN ('playing', 'finished')", name="status_known"),
        CheckConstraint("first_starter >= 0", name="first_starter_non_negative"),
    )


class Seat(db.Model):
    """A player's place at a game's table, in playing order."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")

    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
        CheckConstraint("position >= 0", name="position_non_negative"),
    )


class Round(db.Model):
    """One recorded round: its engine, how it ended and the token of the form that saved it."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    engine: Mapped[int] = mapped_column(Integer)
    went_out_seat_id: Mapped[int | None] = mapped_column(ForeignKey("seat.id"))
    went_out_on_double: Mapped[bool] = mapped_column(Boolean, default=False)
    form_token: Mapped[str] = mapped_column(String(64), unique=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    scores: Mapped[list[Score]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="Score.seat_id"
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
    points: Mapped[int] = mapped_column(Integer)
    corrected: Mapped[bool] = mapped_column(Boolean, default=False)

    round: Mapped[Round] = relationship(back_populates="scores")
    seat: Mapped[Seat] = relationship()

    __table_args__ = (
        UniqueConstraint("round_id", "seat_id"),
        CheckConstraint("hand >= 0", name="hand_non_negative"),
        CheckConstraint("markers >= 0", name="markers_non_negative"),
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

"""Setting up a game and loading it: the players, the rules stored with it, the game's
variant; the errors every game use case raises; deleting a game.

Services load rows, hand plain values to ``scorekeeper.rules`` and write rows; they ``flush()``
and never commit (the request boundary does). Nothing here renders HTML."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from flask_babel import gettext as _
from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.orm import selectinload, with_expression

from scorekeeper.extensions import db
from scorekeeper.games.totals import standings_changed, store_totals
from scorekeeper.models import Correction, Game, Night, Player, Round, Seat
from scorekeeper.rules import (
    HouseRules,
)
from scorekeeper.rules.games import DEFAULT_KIND, GameVariant, variant_named
from scorekeeper.rules.names import MAX_NAME as MAX_NAME  # a name's limit, re-exported
from scorekeeper.rules.names import NameRefused, clean_name, name_key
from scorekeeper.web.transactions import ReadAgain, lock_taken, write_lock_deferred

EDIT_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


class GameError(ValueError):
    """A request that cannot be carried out, with a sentence for the player."""


class RoundTaken(GameError):
    """A form for round N arrived after round N was saved (from another phone, or an old tab).
    Nothing was saved; ``saved`` is the round as it stands."""

    def __init__(self, saved: Round) -> None:
        super().__init__(_("Round %(n)s was already saved from another phone.", n=saved.number))
        self.saved = saved


class RoundChanged(GameError):
    """A correction based on values that another phone has changed meanwhile. Nothing was
    saved; ``current`` holds the round's values now, ``seen`` the ones the phone started from
    (both keyed like ``round_values``)."""

    def __init__(self, number: int, seen: dict[str, str], current: dict[str, str]) -> None:
        super().__init__(
            _("Round %(n)s was changed on another phone while you were correcting it.", n=number)
        )
        self.number = number
        self.seen = seen
        self.current = current


# --------------------------------------------------------------------------------------------
# Loading and setting up


def variant_of(game: Game) -> GameVariant:
    """The game played at this table (``rules.games``): what its rounds, checks and
    scoreboard are."""
    return variant_named(game.kind)


def game_rules(game: Game) -> HouseRules:
    """The house rules stored with the game (later changes to defaults never touch them)."""
    return HouseRules.from_dict(game.rules)


def find_game(
    public_id: str, for_update: bool = False, correction_flag: bool = False
) -> Game | None:
    """The game's row alone, in one query; the seats and rounds are read when a page needs them.
    ``for_update``: locked as in ``load_game``. ``correction_flag``: with whether the game has
    any correction (``Game.has_corrections``), so that the scoreboard's first look at a game
    without any (most games) does not read them."""
    # (A locked read has no flag: its corrections are then read, as without one.)
    statement = _FIND_LOCKED if for_update else _FIND_FLAGGED if correction_flag else _FIND
    return db.session.scalars(statement, {"public_id": public_id}).first()


def lock_game(game: Game) -> None:
    """Take the write lock that this request put off (``boundary.defer_write_lock``), just
    before its first write to ``game``; nothing to do when it holds the lock already.

    On SQLite the transaction of the reads made so far (``BEGIN``, no lock) ends and one that
    holds the lock (``BEGIN IMMEDIATE``) begins on the same connection; on PostgreSQL the row
    is locked ``FOR UPDATE``. Then the columns of the game's row that another request may
    change are read again: raises ``ReadAgain`` when they are no longer what was read (another
    phone wrote first, so the version moved on; or the game went to the trash, to another
    night, or got a new edit code, which move no version). What was read of the game stays
    loaded: every other change to the game moves its version on.

    The transaction of the reads ends (``Session.rollback``: the game is read again when next
    used) and the next one begins with the lock (``web.transactions``: SQLAlchemy's SQLite
    recipe, ``BEGIN IMMEDIATE`` for a request that takes its lock)."""
    if not write_lock_deferred():
        return
    read = (game.version, game.deleted_at, game.night_id, game.edit_code)
    game_id = game.id
    db.session.rollback()
    lock_taken()
    now = db.session.execute(_STILL, {"game_id": game_id}).first()
    if now is None or tuple(now) != read:
        raise ReadAgain


# Built once: a statement made per call costs its construction and its cache key each time.
# A deleted game (``games.trash``) is found by none of them: every page of it answers 404.
_FIND = select(Game).where(Game.public_id == bindparam("public_id"), Game.deleted_at.is_(None))
_FIND_LOCKED = _FIND.with_for_update(of=Game)
# What ``lock_game`` compares with what it read: every column another request may change.
_STILL = (
    select(Game.version, Game.deleted_at, Game.night_id, Game.edit_code)
    .where(Game.id == bindparam("game_id"))
    .with_for_update()
)
_FIND_FLAGGED = _FIND.options(
    with_expression(Game.has_corrections, exists().where(Correction.game_id == Game.id))
)


def load_game(public_id: str, for_update: bool = False, scores: bool = True) -> Game | None:
    """The game with its seats, players and rounds, in a fixed number of queries; with
    ``scores`` every round's scores too (the scoreboard). Without, a page that needs one
    round's scores (the previous round's hands, the round being corrected) reads just those.

    ``for_update`` (every request that may change the game) locks the game's row first
    (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite's write lock is already held, see
    ``boundary``): a second phone's write waits, then reads what the first one saved. The
    seats and rounds are read after the lock, so a check made on them stays true until commit.
    """
    query = select(Game).where(Game.public_id == public_id, Game.deleted_at.is_(None))
    if for_update:
        query = query.with_for_update(of=Game)
    rounds = selectinload(Game.rounds)
    return db.session.scalars(
        query.options(
            selectinload(Game.seats).joinedload(Seat.player, innerjoin=True),
            rounds.selectinload(Round.scores) if scores else rounds,
        )
    ).first()


@dataclass(frozen=True)
class GameState:
    version: int
    rounds: int
    status: str


# Built once: the poll is the most frequent request, and building a statement costs more than
# running it (about 0.14 ms of the 0.17 ms this took when it was built on every request).
_STATE = select(
    Game.version,
    select(func.count(Round.id)).where(Round.game_id == Game.id).correlate(Game).scalar_subquery(),
    Game.status,
).where(Game.public_id == bindparam("public_id"), Game.deleted_at.is_(None))


# The version alone, for a poll answered before Flask (``web.unchanged_polls``): one lookup on
# the unique index of the public id.
GAME_VERSION = select(Game.version).where(
    Game.public_id == bindparam("key"), Game.deleted_at.is_(None)
)


def game_state(public_id: str) -> GameState | None:
    """The game's version, round count and status in one query (for phones that poll); a
    plain Core statement on the session's connection (no ORM objects to make)."""
    row = db.session.connection().execute(_STATE, {"public_id": public_id}).first()
    return GameState(version=row[0], rounds=row[1], status=row[2]) if row else None


def touch(game: Game, scores: bool = True, status: str | None = None) -> None:
    """Every write to a game moves its version on (the row is locked, so no two writes can
    produce the same version). With ``scores`` (a round saved, corrected or undone) each seat's
    stored total and place are worked out again. ``status``: the game ends ("finished") or
    goes on ("playing") with this write. A league game that is finished, or was until now,
    gives its league's standings a new stamp (only finished games count in them)."""
    if scores:
        store_totals([game])
    was_finished = game.status == "finished"
    now = datetime.now(UTC)
    finished_at = game.finished_at
    if status is not None and status != game.status:
        finished_at = now if status == "finished" else None
    status = status or game.status
    # The ORM's UPDATE moves the version on (``Game.version`` is its ``version_id_col``).
    game.updated_at, game.status, game.finished_at = now, status, finished_at
    db.session.flush()
    if game.night_id is not None and (was_finished or status == "finished"):
        standings_changed(night_id=game.night_id)


def _new_public_id() -> str:
    return secrets.token_urlsafe(9)[:12]


def new_edit_code() -> str:
    return "".join(secrets.choice(EDIT_CODE_ALPHABET) for _ in range(6))


def clean_names(names: Sequence[str]) -> list[str]:
    """Names as typed, in the one spelling ``rules.names`` keeps, blanks dropped. Raises
    GameError for a name no one can see or too long (never cut), duplicates or bad counts."""
    try:
        cleaned = [clean_name(name) for name in names]
    except NameRefused as refused:
        raise GameError(str(refused)) from None
    cleaned = [name for name in cleaned if name]
    seen: set[str] = set()
    for name in cleaned:
        if name_key(name) in seen:
            raise GameError(
                _("%(name)s is at the table twice: give each player a different name.", name=name)
            )
        seen.add(name_key(name))
    if len(cleaned) < 2:
        raise GameError(_("Type at least two players' names."))
    if len(cleaned) > 14:
        raise GameError(_("A table has room for at most %(n)s players.", n=14))
    return cleaned


def create_game(
    names: Sequence[str],
    rules: HouseRules,
    first_starter: int,
    device: str,
    players: Sequence[Player] | None = None,
    keep_photos: bool = False,
    kind: str = DEFAULT_KIND,
) -> Game:
    """Start a game of ``kind`` (a ``rules.games`` name) with the players in seat order and
    the rules stored with it.

    Raises GameError when the set cannot seat that many players.
    """
    cleaned = clean_names(names)
    try:
        variant_named(kind).deal_plan(len(cleaned), rules)
    except ValueError as error:
        raise GameError(str(error)) from error
    if not 0 <= first_starter < len(cleaned):
        first_starter = 0
    game = Game(
        public_id=_new_public_id(),
        edit_code=new_edit_code(),
        creator_device=device,
        rules=rules.to_dict(),
        first_starter=first_starter,
        keep_photos=keep_photos,
        kind=kind,
    )
    by_name = {name_key(p.name): p for p in players or ()}
    for position, name in enumerate(cleaned):
        player = by_name.get(name_key(name)) or Player(name=name)
        game.seats.append(Seat(position=position, player=player))
    db.session.add(game)
    db.session.flush()
    return game


def recent_names(device: str, limit: int = 16) -> list[str]:
    """Names seated in this device's recent games, most recent first, for one-tap entry."""
    rows = db.session.execute(
        select(Player.name, func.max(Game.created_at).label("last"))
        .join(Seat, Seat.player_id == Player.id)
        .join(Game, Game.id == Seat.game_id)
        .where(Game.creator_device == device, Game.deleted_at.is_(None))
        .group_by(Player.name)
        .order_by(func.max(Game.created_at).desc())
        .limit(limit * 2)
    ).all()
    names: list[str] = []
    for name, _last in rows:
        if name.casefold() not in {n.casefold() for n in names}:
            names.append(name)
    return names[:limit]


def my_games(device: str, limit: int = 10) -> list[Game]:
    """This device's most recent games."""
    return list(
        db.session.scalars(
            select(Game)
            .where(Game.creator_device == device, Game.deleted_at.is_(None))
            .options(
                selectinload(Game.seats).selectinload(Seat.player),
                selectinload(Game.rounds),
                # A league game is dated by its night, and listed while the phone keeps
                # score in its league.
                selectinload(Game.night).selectinload(Night.league),
            )
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(limit)
        )
    )


def play_again(game: Game, device: str) -> Game:
    """A new game with the same players, seats and house rules; the next seat starts. A table
    of a league night plays its next game at the same night and table."""
    seats = game.seats
    new = create_game(
        [seat.player.name for seat in seats],
        game_rules(game),
        (game.first_starter + 1) % len(seats),
        device,
        players=[seat.player for seat in seats],
        keep_photos=game.keep_photos,
        kind=game.kind,
    )
    new.night_id, new.table_name = game.night_id, game.table_name
    db.session.flush()
    return new


def delete_game(game: Game) -> None:
    """Delete a game with its rounds, corrections and photos (nothing of it stays stored)."""
    if game.night_id is not None and game.status == "finished":
        standings_changed(night_id=game.night_id)
    db.session.delete(game)
    db.session.flush()

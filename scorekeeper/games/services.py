"""Use cases of a game at one table: set up, record and check rounds, correct, finish.

Services load rows, hand plain values to ``scorekeeper.rules`` and write rows; they ``flush()``
and never commit (the request boundary does). Nothing here renders HTML.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Game, Player, Round, Score, Seat
from scorekeeper.rules import (
    RULE_OPTIONS,
    HouseRules,
    deal_plan,
    format_hand,
)
from scorekeeper.rules.round_check import (
    RoundCheck,
    RoundContext,
    RoundInput,
    SeatInput,
)
from scorekeeper.rules.schedule import DealPlan, remaining_engines
from scorekeeper.rules.scoreboard import RoundResult
from scorekeeper.rules.scoring import round_winners
from scorekeeper.rules.variants import GameVariant, variant_named

MAX_NAME = 40
EDIT_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


class GameError(ValueError):
    """A request that cannot be carried out, with a sentence for the player."""


class RoundTaken(GameError):
    """A form for round N arrived after round N was saved (from another phone, or an old tab).
    Nothing was saved; ``saved`` is the round as it stands."""

    def __init__(self, saved: Round) -> None:
        super().__init__(f"Round {saved.number} was already saved from another phone.")
        self.saved = saved


class RoundChanged(GameError):
    """A correction based on values that another phone has changed meanwhile. Nothing was
    saved; ``current`` holds the round's values now, ``seen`` the ones the phone started from
    (both keyed like ``round_values``)."""

    def __init__(self, number: int, seen: dict[str, str], current: dict[str, str]) -> None:
        super().__init__(
            f"Round {number} was changed on another phone while you were correcting it."
        )
        self.number = number
        self.seen = seen
        self.current = current


# --------------------------------------------------------------------------------------------
# Loading and setting up


def variant_of(game: Game) -> GameVariant:
    """The game played at this table (``rules.variants``): what its rounds, checks and
    scoreboard are."""
    return variant_named(game.kind)


def game_rules(game: Game) -> HouseRules:
    """The house rules stored with the game (later changes to defaults never touch them)."""
    return HouseRules.from_dict(game.rules)


def load_game(public_id: str, for_update: bool = False) -> Game | None:
    """The game with its seats, players, rounds and scores, in a fixed number of queries.

    ``for_update`` (every request that may change the game) locks the game's row first
    (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite's write lock is already held, see
    ``boundary``): a second phone's write waits, then reads what the first one saved. The
    seats and rounds are read after the lock, so a check made on them stays true until commit.
    """
    query = select(Game).where(Game.public_id == public_id)
    if for_update:
        query = query.with_for_update(of=Game)
    return db.session.scalars(
        query.options(
            selectinload(Game.seats).selectinload(Seat.player),
            selectinload(Game.rounds).selectinload(Round.scores),
        )
    ).first()


@dataclass(frozen=True)
class GameState:
    version: int
    rounds: int
    status: str


def game_state(public_id: str) -> GameState | None:
    """The game's version, round count and status in one query (for phones that poll)."""
    rounds = (
        select(func.count(Round.id)).where(Round.game_id == Game.id).correlate(Game)
    ).scalar_subquery()
    row = db.session.execute(
        select(Game.version, rounds, Game.status).where(Game.public_id == public_id)
    ).first()
    return GameState(version=row[0], rounds=row[1], status=row[2]) if row else None


def _new_public_id() -> str:
    return secrets.token_urlsafe(9)[:12]


def new_edit_code() -> str:
    return "".join(secrets.choice(EDIT_CODE_ALPHABET) for _ in range(6))


def clean_names(names: Sequence[str]) -> list[str]:
    """Names as typed, trimmed, blanks dropped. Raises GameError for duplicates or bad counts."""
    cleaned = [" ".join(name.split())[:MAX_NAME] for name in names]
    cleaned = [name for name in cleaned if name]
    seen: set[str] = set()
    for name in cleaned:
        if name.casefold() in seen:
            raise GameError(f"{name} is at the table twice: give each player a different name.")
        seen.add(name.casefold())
    if len(cleaned) < 2:
        raise GameError("Type at least two players' names.")
    if len(cleaned) > 14:
        raise GameError("A table has room for at most 14 players.")
    return cleaned


def create_game(
    names: Sequence[str],
    rules: HouseRules,
    first_starter: int,
    device: str,
    players: Sequence[Player] | None = None,
    keep_photos: bool = False,
) -> Game:
    """Start a game with the players in seat order and the rules stored with it.

    Raises GameError when the set cannot seat that many players.
    """
    cleaned = clean_names(names)
    try:
        deal_plan(len(cleaned), rules)
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
    )
    by_name = {p.name.casefold(): p for p in players or ()}
    for position, name in enumerate(cleaned):
        player = by_name.get(name.casefold()) or Player(name=name)
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
        .where(Game.creator_device == device)
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
            .where(Game.creator_device == device)
            .options(selectinload(Game.seats).selectinload(Seat.player), selectinload(Game.rounds))
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
    )
    new.night_id, new.table_name = game.night_id, game.table_name
    db.session.flush()
    return new


# --------------------------------------------------------------------------------------------
# The table: this round's engine, who starts, what to deal


@dataclass(frozen=True)
class TableState:
    round_number: int
    rounds_total: int
    engine: int | None
    next_engine: int | None
    engines_available: list[int]
    starter: str
    plan: DealPlan
    rules_in_play: list[str]
    finished: bool


def _used_engines(game: Game, skip_number: int | None = None) -> list[int]:
    return [r.engine for r in game.rounds if r.number != skip_number]


def engine_for(game: Game, number: int) -> int | None:
    """The engine of round ``number``: fixed by the schedule, or None in "highest available"
    mode where the scorekeeper records it."""
    rules = game_rules(game)
    if rules.order == "highest_available":
        for recorded in game.rounds:
            if recorded.number == number:
                return recorded.engine
        return None
    variant = variant_of(game)
    if 1 <= number <= variant.round_count(rules):
        return variant.engine_for_round(number, rules)
    return None


def _round_winner_seat(recorded: Round, seats: Sequence[Seat]) -> int | None:
    points = {s.seat_id: s.points for s in recorded.scores}
    went_out = recorded.went_out_seat_id
    winners = round_winners(points, went_out)
    if len(winners) != 1:
        return None
    positions = {seat.id: seat.position for seat in seats}
    return positions.get(winners[0])


def table_state(game: Game) -> TableState:
    """What the table needs to play the next round (rules.md 2.1-2.3)."""
    rules = game_rules(game)
    variant = variant_of(game)
    total = variant.round_count(rules)
    number = len(game.rounds) + 1
    finished = game.status == "finished" or number > total
    seats = game.seats
    names = [seat.player.name for seat in seats]
    available = remaining_engines(rules, _used_engines(game))
    engine = variant.engine_for_round(number, rules) if number <= total else None
    next_engine = variant.engine_for_round(number + 1, rules) if number < total else None
    previous_winner = _round_winner_seat(game.rounds[-1], seats) if game.rounds else None
    starter = (
        variant.starter_text(
            number,
            names,
            rules,
            engine=engine,
            first_starter=game.first_starter,
            previous_winner=previous_winner,
        )
        if not finished
        else ""
    )
    return TableState(
        round_number=min(number, total),
        rounds_total=total,
        engine=engine,
        next_engine=next_engine,
        engines_available=available,
        starter=starter,
        plan=variant.deal_plan(len(seats), rules),
        rules_in_play=rules.describe(),
        finished=finished,
    )


# --------------------------------------------------------------------------------------------
# Checking and recording a round


def _previous_hands(game: Game, number: int) -> dict[int, int]:
    positions = {seat.id: seat.position for seat in game.seats}
    for recorded in game.rounds:
        if recorded.number == number - 1:
            return {positions[s.seat_id]: s.hand for s in recorded.scores}
    return {}


def check_round(
    game: Game, entry: RoundInput, number: int | None = None, partial: bool = False
) -> RoundCheck:
    """Check a round as typed (``rules.round_check``) in this game: round ``number`` (a
    correction) or the next round. Loads what the rules need to know: the engine, the engines
    left, the previous round's hands."""
    rules = game_rules(game)
    number = number or len(game.rounds) + 1
    return variant_of(game).check_round(
        entry,
        RoundContext(
            rules=rules,
            names={seat.position: seat.player.name for seat in game.seats},
            number=number,
            engine=engine_for(game, number),
            engines_left=tuple(remaining_engines(rules, _used_engines(game, skip_number=number))),
            previous=_previous_hands(game, number),
        ),
        partial=partial,
    )


@dataclass
class RecordOutcome:
    check: RoundCheck | None
    saved: Round | None = None
    duplicate: bool = False


def _touch(game: Game) -> None:
    """Every write to a game moves its version on (the row is locked, so no two writes can
    produce the same version)."""
    game.updated_at = datetime.now(UTC)
    game.version = (game.version or 1) + 1


def record_round(game: Game, entry: RoundInput, form_token: str, number: int) -> RecordOutcome:
    """Save round ``number``, the round the form was opened for, if it passes the checks.

    - The same form (``form_token``) never saves twice: a double tap, a resubmit or a retry
      after a dropped connection finds its round already saved and reports it as saved.
    - A form for a round that is already saved (another phone was quicker, or an old tab) is
      refused with ``RoundTaken``: it never becomes the next round.
    - Warnings (a same score as last round, ...) are shown but do not stop the save.

    Call it with the game loaded ``for_update`` so the checks hold until the commit; the unique
    (game, number) and form token constraints stop whatever gets past them anyway.
    """
    existing = db.session.scalars(select(Round).where(Round.form_token == form_token)).first()
    if existing is not None:
        if existing.game_id != game.id:
            raise GameError("That form belongs to another game: open this game's round again.")
        return RecordOutcome(check=None, saved=existing, duplicate=True)
    taken = next((r for r in game.rounds if r.number == number), None)
    if taken is not None:
        raise RoundTaken(taken)
    if game.status == "finished":
        raise GameError("This game is over: correct a round from the scoreboard instead.")
    if number != len(game.rounds) + 1:
        raise GameError(
            f"This form is for round {number}, but the game is at round {len(game.rounds) + 1}."
            " Open the round again from the table."
        )
    check = check_round(game, entry, number=number)
    if not check.ok:
        return RecordOutcome(check=check)
    seat_ids = {seat.position: seat.id for seat in game.seats}
    assert check.engine is not None
    recorded = Round(
        number=check.number,
        engine=check.engine,
        went_out_seat_id=None if entry.blocked else seat_ids[entry.went_out],  # type: ignore[index]
        went_out_on_double=entry.on_double and not entry.blocked,
        form_token=form_token,
    )
    typed = {seat.position: seat for seat in entry.seats}
    for seat_check in check.seats:
        assert seat_check.hand is not None and seat_check.points is not None
        recorded.scores.append(
            Score(
                seat_id=seat_ids[seat_check.position],
                hand=seat_check.hand,
                tiles=format_hand(seat_check.tiles) if seat_check.tiles is not None else None,
                markers=typed[seat_check.position].markers,
                points=seat_check.points,
            )
        )
    try:
        with db.session.begin_nested():
            game.rounds.append(recorded)
            db.session.flush()
    except IntegrityError:
        # Only reachable when the lock was bypassed: the constraints still keep one round.
        if recorded in game.rounds:
            game.rounds.remove(recorded)
        existing = db.session.scalars(select(Round).where(Round.form_token == form_token)).first()
        if existing is not None:
            return RecordOutcome(check=None, saved=existing, duplicate=True)
        taken = db.session.scalars(
            select(Round).where(Round.game_id == game.id, Round.number == number)
        ).first()
        if taken is not None:
            raise RoundTaken(taken) from None
        raise
    _touch(game)
    if len(game.rounds) >= variant_of(game).round_count(game_rules(game)):
        finish_game(game)
    return RecordOutcome(check=check, saved=recorded)


def delete_game(game: Game) -> None:
    """Delete a game with its rounds, corrections and photos (nothing of it stays stored)."""
    db.session.delete(game)
    db.session.flush()


def finish_game(game: Game) -> None:
    """Mark the game over (all rounds played, or the table stopped early)."""
    if not game.rounds:
        raise GameError("Record at least one round before ending the game.")
    game.status = "finished"
    game.finished_at = datetime.now(UTC)
    _touch(game)
    db.session.flush()


def reopen_game(game: Game) -> None:
    """Undo an early end: the game takes rounds again."""
    if len(game.rounds) >= variant_of(game).round_count(game_rules(game)):
        raise GameError("Every round has been played; correct a round instead.")
    game.status = "playing"
    game.finished_at = None
    _touch(game)
    db.session.flush()


# --------------------------------------------------------------------------------------------
# Corrections with an audit trail


def round_input_of(game: Game, recorded: Round) -> RoundInput:
    """A recorded round as the form shows it, to be edited."""
    positions = {seat.id: seat.position for seat in game.seats}
    return RoundInput(
        seats=[
            SeatInput(
                position=positions[s.seat_id],
                hand=s.hand,
                tiles=s.tiles or "",
                markers=s.markers,
            )
            for s in sorted(recorded.scores, key=lambda s: positions[s.seat_id])
        ],
        went_out=positions.get(recorded.went_out_seat_id) if recorded.went_out_seat_id else None,
        blocked=recorded.went_out_seat_id is None,
        on_double=recorded.went_out_on_double,
        engine=recorded.engine,
    )


def _round_values(game: Game, recorded: Round) -> dict[tuple[int | None, str], str]:
    """Every value of a round that a correction can change, as text keyed (seat id, field)."""
    names = {seat.id: seat.position for seat in game.seats}
    values: dict[tuple[int | None, str], str] = {
        (None, "went_out"): str(names[recorded.went_out_seat_id])
        if recorded.went_out_seat_id
        else "",
        (None, "on_double"): "yes" if recorded.went_out_on_double else "no",
        (None, "engine"): str(recorded.engine),
    }
    for score in recorded.scores:
        values[(score.seat_id, "hand")] = str(score.hand)
        values[(score.seat_id, "tiles")] = score.tiles or ""
        values[(score.seat_id, "markers")] = str(score.markers)
    return values


def round_values(game: Game, recorded: Round) -> dict[str, str]:
    """The values of a round as a correction form shows them, keyed ``went_out``,
    ``on_double``, ``engine`` and ``<seat position>.hand`` / ``.tiles`` / ``.markers``: what the
    form sends back as the base of the correction."""
    positions = {seat.id: seat.position for seat in game.seats}
    return {
        (name if seat_id is None else f"{positions[seat_id]}.{name}"): value
        for (seat_id, name), value in _round_values(game, recorded).items()
    }


def find_round(game: Game, number: int) -> Round:
    for recorded in game.rounds:
        if recorded.number == number:
            return recorded
    raise GameError(f"There is no round {number} in this game yet.")


def _apply(game: Game, recorded: Round, check: RoundCheck, entry: RoundInput) -> None:
    seat_ids = {seat.position: seat.id for seat in game.seats}
    typed = {seat.position: seat for seat in entry.seats}
    by_seat = {score.seat_id: score for score in recorded.scores}
    assert check.engine is not None
    recorded.engine = check.engine
    recorded.went_out_seat_id = None if entry.blocked else seat_ids[entry.went_out]  # type: ignore[index]
    recorded.went_out_on_double = entry.on_double and not entry.blocked
    for seat_check in check.seats:
        score = by_seat[seat_ids[seat_check.position]]
        assert seat_check.hand is not None and seat_check.points is not None
        score.hand = seat_check.hand
        score.tiles = format_hand(seat_check.tiles) if seat_check.tiles is not None else None
        score.markers = typed[seat_check.position].markers
        score.points = seat_check.points


def correct_round(
    game: Game, number: int, entry: RoundInput, based_on: dict[str, str], note: str = ""
) -> RecordOutcome:
    """Change a recorded round; every changed value is written to the audit trail.

    ``based_on`` is the round as the phone saw it when the correction form was opened
    (``round_values``). If the round has changed since (another phone corrected it), nothing is
    written and ``RoundChanged`` says what it is now, so the phone can choose; the audit trail
    only ever records values that were really there. The new values go through the same checks
    and scoring as a new round; warnings are shown but do not stop the save. Call it with the
    game loaded ``for_update``.
    """
    recorded = find_round(game, number)
    current = round_values(game, recorded)
    if based_on != current:
        raise RoundChanged(number, seen=based_on, current=current)
    check = check_round(game, entry, number=number)
    if not check.ok:
        return RecordOutcome(check=check)
    before = _round_values(game, recorded)
    _apply(game, recorded, check, entry)
    after = _round_values(game, recorded)
    changed = [key for key in before if before[key] != after[key]]
    if not changed:
        raise GameError("Nothing was changed.")
    batch = (
        db.session.scalar(
            select(func.coalesce(func.max(Correction.batch), 0)).where(
                Correction.game_id == game.id
            )
        )
        or 0
    ) + 1
    for seat_id, name in changed:
        game.corrections.append(
            Correction(
                batch=batch,
                round_number=number,
                seat_id=seat_id,
                field=name,
                old_value=before[(seat_id, name)],
                new_value=after[(seat_id, name)],
                note=note.strip()[:500],
            )
        )
    _mark_corrected(game, recorded)
    _touch(game)
    db.session.flush()
    return RecordOutcome(check=check, saved=recorded)


def _mark_corrected(game: Game, recorded: Round) -> None:
    live = {
        c.seat_id
        for c in game.corrections
        if c.round_number == recorded.number and c.undone_at is None and c.seat_id is not None
    }
    round_level = any(
        c.round_number == recorded.number and c.undone_at is None and c.seat_id is None
        for c in game.corrections
    )
    for score in recorded.scores:
        score.corrected = round_level or score.seat_id in live


def last_correction_batch(game: Game) -> int | None:
    """The batch an "Undo" button would undo now (None: nothing to undo)."""
    live = [c.batch for c in game.corrections if c.undone_at is None]
    return max(live) if live else None


def undo_last_correction(game: Game, batch: int | None = None) -> list[Correction]:
    """Put back the values of the most recent correction that is not undone yet, onto its own
    round. ``batch`` is the correction the phone saw as the latest: if another correction came
    after it, nothing is undone and the phone is told to look again.

    Batch numbers are unique per game because corrections take the game's row lock."""
    newest = last_correction_batch(game)
    if newest is None:
        raise GameError("There is no correction to undo.")
    if batch is not None and batch != newest:
        raise GameError(
            "Another correction was saved since you opened this page, so nothing was undone."
            " Look at the history below and undo again if you still want to."
        )
    changes = [c for c in game.corrections if c.undone_at is None and c.batch == newest]
    if len({c.round_number for c in changes}) != 1:
        raise GameError("That correction cannot be undone: it spans more than one round.")
    recorded = find_round(game, changes[0].round_number)
    current = round_input_of(game, recorded)
    positions = {seat.id: seat.position for seat in game.seats}
    seats = {seat.position: seat for seat in current.seats}
    went_out, blocked = current.went_out, current.blocked
    on_double, engine = current.on_double, current.engine
    for change in changes:
        old = change.old_value
        if change.seat_id is None:
            if change.field == "went_out":
                went_out, blocked = (int(old), False) if old else (None, True)
            elif change.field == "on_double":
                on_double = old == "yes"
            elif change.field == "engine":
                engine = int(old)
            continue
        position = positions[change.seat_id]
        seat = seats[position]
        if change.field == "hand":
            seats[position] = SeatInput(position, int(old), seat.tiles, seat.markers)
        elif change.field == "tiles":
            seats[position] = SeatInput(position, seat.hand, old, seat.markers)
        elif change.field == "markers":
            seats[position] = SeatInput(position, seat.hand, seat.tiles, int(old))
    restored = RoundInput(
        seats=list(seats.values()),
        went_out=went_out,
        blocked=blocked,
        on_double=on_double,
        engine=engine,
    )
    check = check_round(game, restored, number=recorded.number)
    if not check.ok:
        raise GameError("That correction cannot be undone: a later change depends on it.")
    _apply(game, recorded, check, restored)
    now = datetime.now(UTC)
    for change in changes:
        change.undone_at = now
    _mark_corrected(game, recorded)
    _touch(game)
    db.session.flush()
    return changes


# --------------------------------------------------------------------------------------------
# The scoreboard and the end of the game


@dataclass(frozen=True)
class Cell:
    points: int
    hand: int
    tiles: str | None
    markers: int
    went_out: bool
    round_win: bool
    corrected: bool


@dataclass(frozen=True)
class BoardRow:
    number: int
    engine: int
    blocked: bool
    on_double: bool
    cells: list[Cell]  # in seat order
    running: list[int]  # running totals after this round, in seat order


@dataclass(frozen=True)
class BoardPlayer:
    position: int
    name: str
    total: int
    rank: int
    tied: bool
    gap: int
    movement: int  # places gained since the previous round (negative: lost)
    rounds_won: int
    went_out: int
    best: int | None
    worst: int | None
    note: str


@dataclass(frozen=True)
class Scoreboard:
    players: list[BoardPlayer]  # seat order
    standings: list[BoardPlayer]  # rank order
    rows: list[BoardRow]
    rounds_total: int
    finished: bool
    winners: list[str]
    tie_break: str

    @property
    def series(self) -> list[tuple[str, list[int]]]:
        """Running totals per player, starting at 0, for the chart."""
        return [
            (player.name, [0] + [row.running[i] for row in self.rows])
            for i, player in enumerate(self.players)
        ]


def scoreboard(game: Game) -> Scoreboard:
    """Rounds by players, running totals, shared ranks, gaps, movement and round wins: the rules
    work them out (``rules.scoreboard``); this adds the names and what was typed."""
    rules = game_rules(game)
    seats = game.seats
    index = {seat.id: i for i, seat in enumerate(seats)}
    names = [seat.player.name for seat in seats]
    by_round = [{index[s.seat_id]: s for s in recorded.scores} for recorded in game.rounds]
    variant = variant_of(game)
    board = variant.scoreboard(
        len(seats),
        [
            RoundResult(
                points=tuple(scores[i].points for i in range(len(seats))),
                went_out=index[recorded.went_out_seat_id] if recorded.went_out_seat_id else None,
            )
            for recorded, scores in zip(game.rounds, by_round, strict=True)
        ],
        rules,
    )
    rows = [
        BoardRow(
            number=recorded.number,
            engine=recorded.engine,
            blocked=recorded.went_out_seat_id is None,
            on_double=recorded.went_out_on_double,
            cells=[
                Cell(
                    points=scores[i].points,
                    hand=scores[i].hand,
                    tiles=scores[i].tiles,
                    markers=scores[i].markers,
                    went_out=recorded.went_out_seat_id == seats[i].id,
                    round_win=i in wins,
                    corrected=scores[i].corrected,
                )
                for i in range(len(seats))
            ],
            running=list(running),
        )
        for recorded, scores, running, wins in zip(
            game.rounds, by_round, board.running, board.round_wins, strict=True
        )
    ]
    players = [
        BoardPlayer(
            position=p.seat,
            name=names[p.seat],
            total=p.total,
            rank=p.rank,
            tied=p.tied,
            gap=p.gap,
            movement=p.movement,
            rounds_won=p.rounds_won,
            went_out=p.went_out,
            best=p.best,
            worst=p.worst,
            note=p.note,
        )
        for p in board.players
    ]
    return Scoreboard(
        players=players,
        standings=sorted(players, key=lambda p: (p.rank, p.position)),
        rows=rows,
        rounds_total=variant.round_count(rules),
        finished=game.status == "finished",
        winners=[names[seat] for seat in board.winners],
        tie_break=dict(RULE_OPTIONS["tie_break"])[rules.tie_break],
    )


def game_as_text(game: Game, board: Scoreboard) -> str:
    """A short plain-text summary to paste into a group chat."""
    when = game.created_at.strftime("%d %b %Y")
    label = variant_of(game).label
    lines = [f"{label}, {when}: {len(board.rows)} of {board.rounds_total} rounds"]
    if board.winners:
        verb = "wins" if len(board.winners) == 1 else "share the win"
        lines.append(f"{' and '.join(board.winners)} {verb}!")
    for player in board.standings:
        tie = "=" if player.tied else ""
        lines.append(
            f"{player.rank}{tie}. {player.name}: {player.total}"
            f" ({player.rounds_won} round{'s' if player.rounds_won != 1 else ''} won)"
        )
    return "\n".join(lines)


def game_csv_rows(game: Game, board: Scoreboard) -> list[list[str]]:
    """Every round of the game as rows for a CSV file: round, engine, player, hand, tiles,
    markers, went out, points, running total, corrected."""
    rows = [
        [
            "round",
            "engine",
            "player",
            "hand",
            "tiles",
            "markers",
            "went_out",
            "points",
            "running_total",
            "corrected",
        ]
    ]
    for row in board.rows:
        for player, cell, running in zip(board.players, row.cells, row.running, strict=True):
            rows.append(
                [
                    str(row.number),
                    f"{row.engine}-{row.engine}",
                    player.name,
                    str(cell.hand),
                    cell.tiles or "",
                    str(cell.markers),
                    "yes" if cell.went_out else "no",
                    str(cell.points),
                    str(running),
                    "yes" if cell.corrected else "no",
                ]
            )
    return rows


@dataclass(frozen=True)
class AuditLine:
    round_number: int
    who: str | None
    what: str
    old: str
    new: str
    note: str
    at: datetime
    undone_at: datetime | None


_FIELD_NAMES = {
    "hand": "points",
    "tiles": "tiles",
    "markers": "markers",
    "went_out": "went out",
    "on_double": "went out on a double",
    "engine": "engine",
}


def _show(game: Game, field_name: str, value: str) -> str:
    if field_name == "went_out":
        names = {str(seat.position): seat.player.name for seat in game.seats}
        return names.get(value, "nobody (blocked)") if value else "nobody (blocked)"
    if field_name == "tiles":
        return value or "not typed"
    if field_name == "engine":
        return f"{value}-{value}"
    return value


def audit_trail(game: Game) -> list[AuditLine]:
    """Every correction in words, newest first: old value, new value, when, the note."""
    return [
        AuditLine(
            round_number=c.round_number,
            who=c.seat.player.name if c.seat is not None else None,
            what=_FIELD_NAMES.get(c.field, c.field),
            old=_show(game, c.field, c.old_value),
            new=_show(game, c.field, c.new_value),
            note=c.note,
            at=c.created_at,
            undone_at=c.undone_at,
        )
        for c in sorted(game.corrections, key=lambda c: c.id, reverse=True)
    ]


# --------------------------------------------------------------------------------------------
# Two phones: what was saved, what this phone typed, what changed meanwhile


@dataclass(frozen=True)
class SeatLine:
    """One player's part of a round in words, for the "already saved" page."""

    name: str
    hand: str  # the points as typed or saved; "" when not typed
    tiles: str
    went_out: bool


def describe_round(game: Game, recorded: Round) -> list[SeatLine]:
    """A saved round, player by player in seat order."""
    by_seat = {score.seat_id: score for score in recorded.scores}
    return [
        SeatLine(
            name=seat.player.name,
            hand=str(by_seat[seat.id].hand) if seat.id in by_seat else "",
            tiles=(by_seat[seat.id].tiles or "") if seat.id in by_seat else "",
            went_out=recorded.went_out_seat_id == seat.id,
        )
        for seat in game.seats
    ]


def describe_input(game: Game, entry: RoundInput) -> list[SeatLine]:
    """What a phone typed for a round, player by player in seat order."""
    typed = {seat.position: seat for seat in entry.seats}
    lines = []
    for seat in game.seats:
        mine = typed.get(seat.position)
        lines.append(
            SeatLine(
                name=seat.player.name,
                hand="" if mine is None or mine.hand is None else str(mine.hand),
                tiles=mine.tiles.strip() if mine else "",
                went_out=entry.went_out == seat.position,
            )
        )
    return lines


@dataclass(frozen=True)
class ValueChange:
    """A value of a round that another phone changed while this phone was correcting it."""

    who: str | None
    what: str
    seen: str
    now: str


def describe_changes(
    game: Game, seen: dict[str, str], current: dict[str, str]
) -> list[ValueChange]:
    """The values that differ between what a phone started from and what is saved now."""
    names = {str(seat.position): seat.player.name for seat in game.seats}
    changes = []
    for key in sorted(set(seen) | set(current)):
        if seen.get(key) == current.get(key):
            continue
        position, _, name = key.rpartition(".")
        changes.append(
            ValueChange(
                who=names.get(position) if position else None,
                what=_FIELD_NAMES.get(name, name),
                seen=_show(game, name, seen.get(key, "")),
                now=_show(game, name, current.get(key, "")),
            )
        )
    return changes

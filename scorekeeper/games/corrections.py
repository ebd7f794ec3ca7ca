"""Corrections with an audit trail: a recorded round's values, changing them when the phone's
base still holds, undoing the newest correction onto its own round, and the history in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import bindparam, func, select

from scorekeeper.extensions import db
from scorekeeper.games import rows
from scorekeeper.games.joining import JOINED
from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.rounds import RecordOutcome, check_round
from scorekeeper.games.setup import GameError, RoundChanged, touch
from scorekeeper.models import Correction, Game, Round
from scorekeeper.rules import (
    format_hand,
)
from scorekeeper.rules.round_check import (
    RoundCheck,
    RoundInput,
    SeatInput,
)
from scorekeeper.rules.words import N_

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
                open_doubles=s.open_doubles,
                made=s.made,
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
        (None, "engine"): "" if recorded.engine is None else str(recorded.engine),
    }
    for score in recorded.scores:
        values[(score.seat_id, "hand")] = str(score.hand)
        values[(score.seat_id, "tiles")] = score.tiles or ""
        values[(score.seat_id, "markers")] = str(score.markers)
        values[(score.seat_id, "open_doubles")] = str(score.open_doubles)
        values[(score.seat_id, "made")] = str(score.made)
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
    raise GameError(_("There is no round %(n)s in this game yet.", n=number))


def _apply(loaded: LoadedGame, recorded: Round, check: RoundCheck, entry: RoundInput) -> None:
    seat_ids = {seat.position: seat.id for seat in loaded.game.seats}
    typed = {seat.position: seat for seat in entry.seats}
    by_seat = {score.seat_id: score for score in recorded.scores}
    makes_points = loaded.variant.makes_points
    recorded.engine = check.engine
    recorded.went_out_seat_id = None if entry.blocked else seat_ids[entry.went_out]  # type: ignore[index]
    recorded.went_out_on_double = entry.on_double and not entry.blocked
    for seat_check in check.seats:
        score = by_seat[seat_ids[seat_check.position]]
        assert seat_check.hand is not None and seat_check.points is not None
        score.hand = seat_check.hand
        score.tiles = format_hand(seat_check.tiles) if seat_check.tiles is not None else None
        score.markers = typed[seat_check.position].markers
        score.open_doubles = typed[seat_check.position].open_doubles
        score.made = (typed[seat_check.position].made or 0) if makes_points else 0
        score.points = seat_check.points


def correct_round(
    loaded: LoadedGame, number: int, entry: RoundInput, based_on: dict[str, str], note: str = ""
) -> RecordOutcome:
    """Change a recorded round; every changed value is written to the audit trail.

    ``based_on`` is the round as the phone saw it when the correction form was opened
    (``round_values``). If the round has changed since (another phone corrected it), nothing is
    written and ``RoundChanged`` says what it is now, so the phone can choose; the audit trail
    only ever records values that were really there. The new values go through the same checks
    and scoring as a new round; warnings are shown but do not stop the save. Call it with the
    game loaded ``for_update``.
    """
    game = loaded.game
    recorded = find_round(game, number)
    current = round_values(game, recorded)
    if based_on != current:
        raise RoundChanged(number, seen=based_on, current=current)
    check = check_round(loaded, entry, number=number)
    if not check.ok:
        return RecordOutcome(check=check)
    before = _round_values(game, recorded)
    _apply(loaded, recorded, check, entry)
    after = _round_values(game, recorded)
    changed = [key for key in before if before[key] != after[key]]
    if not changed:
        raise GameError(_("Nothing was changed."))
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
    touch(game)
    db.session.flush()
    return RecordOutcome(check=check, saved=recorded)


def _mark_corrected(game: Game, recorded: Round) -> None:
    live = {
        c.seat_id
        for c in game.corrections
        if c.round_number == recorded.number
        and c.undone_at is None
        and c.seat_id is not None
        and c.field != JOINED
    }
    round_level = any(
        c.round_number == recorded.number and c.undone_at is None and c.seat_id is None
        for c in game.corrections
    )
    for score in recorded.scores:
        score.corrected = round_level or score.seat_id in live


def last_correction_batch(game: Game) -> int | None:
    """The batch an "Undo" button would undo now (None: nothing to undo)."""
    return _last_batch(_corrections(game))


def _last_batch(corrections: Sequence[Any]) -> int | None:
    live = [c.batch for c in corrections if c.undone_at is None and c.field != JOINED]
    return max(live) if live else None


_CORRECTIONS = select(
    Correction.id,
    Correction.batch,
    Correction.round_number,
    Correction.seat_id,
    Correction.field,
    Correction.old_value,
    Correction.new_value,
    Correction.note,
    Correction.created_at,
    Correction.undone_at,
).where(Correction.game_id == bindparam("game_id"))


def _corrections(game: Game) -> Sequence[Any]:
    """The game's corrections: the loaded objects when this request loaded them, else plain
    rows with the same attributes (one Core query, ``rows.flushed_connection``)."""
    if "corrections" in game.__dict__:
        return list(game.corrections)
    return rows.flushed_connection().execute(_CORRECTIONS, {"game_id": game.id}).all()


def _values_before(game: Game, current: RoundInput, changes: Sequence[Correction]) -> RoundInput:
    """The round as typed (``current``) with the old values of ``changes`` put back."""
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
                engine = int(old) if old else None
            continue
        position = positions[change.seat_id]
        seat = seats[position]
        if change.field == "hand":
            seats[position] = replace(seat, hand=int(old))
        elif change.field == "tiles":
            seats[position] = replace(seat, tiles=old)
        elif change.field == "markers":
            seats[position] = replace(seat, markers=int(old))
        elif change.field == "open_doubles":
            seats[position] = replace(seat, open_doubles=int(old))
        elif change.field == "made":
            seats[position] = replace(seat, made=int(old))
    return RoundInput(
        seats=list(seats.values()),
        went_out=went_out,
        blocked=blocked,
        on_double=on_double,
        engine=engine,
    )


def undo_last_correction(loaded: LoadedGame, batch: int | None = None) -> list[Correction]:
    """Put back the values of the most recent correction that is not undone yet, onto its own
    round. ``batch`` is the correction the phone saw as the latest: if another correction came
    after it, nothing is undone and the phone is told to look again.

    Batch numbers are unique per game because corrections take the game's row lock."""
    game = loaded.game
    newest = last_correction_batch(game)
    if newest is None:
        raise GameError(_("There is no correction to undo."))
    if batch is not None and batch != newest:
        raise GameError(
            _(
                "Another correction was saved since you opened this page, so nothing was undone."
                " Look at the history below and undo again if you still want to."
            )
        )
    changes = [c for c in game.corrections if c.undone_at is None and c.batch == newest]
    if len({c.round_number for c in changes}) != 1:
        raise GameError(_("That correction cannot be undone: it spans more than one round."))
    recorded = find_round(game, changes[0].round_number)
    restored = _values_before(game, round_input_of(game, recorded), changes)
    check = check_round(loaded, restored, number=recorded.number)
    if not check.ok:
        raise GameError(_("That correction cannot be undone: a later change depends on it."))
    _apply(loaded, recorded, check, restored)
    now = datetime.now(UTC)
    for change in changes:
        change.undone_at = now
    _mark_corrected(game, recorded)
    touch(game)
    db.session.flush()
    return changes


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
    sentence: str = ""  # an entry that is not a change of value (a player joined)
    batch: int = 0  # the correction (one save) this change was part of


#: What each changed value is called in the history (keys: the stored field names).
_FIELD_NAMES = {
    "hand": N_("points"),
    "tiles": N_("tiles"),
    "markers": N_("markers"),
    "open_doubles": N_("doubles left open"),
    "made": N_("points made during play"),
    "went_out": N_("went out"),
    "on_double": N_("went out on a double"),
    "engine": N_("engine"),
}


def _field_name(field_name: str) -> str:
    """A stored field's name in the player's words."""
    return _(_FIELD_NAMES[field_name]) if field_name in _FIELD_NAMES else field_name


def _show(seats: Sequence[rows.SeatRow], field_name: str, value: str) -> str:
    if field_name == "went_out":
        names = {str(seat.position): seat.name for seat in seats}
        nobody = _("nobody (blocked)")
        return names.get(value, nobody) if value else nobody
    if field_name == "tiles":
        return value or _("not typed")
    if field_name == "engine":
        return f"{value}-{value}"
    if field_name == "on_double":
        # stored as "yes" / "no"
        return {"yes": _("yes"), "no": _("no")}.get(value, value)
    return value


def audit_trail(loaded: LoadedGame) -> list[AuditLine]:
    """Every correction in words, newest first: old value, new value, when, the note. The
    players' names come from the table's rows (``rows.table``), not from seat objects."""
    return _audit_lines(loaded, _corrections(loaded.game))


def corrections_shown(loaded: LoadedGame) -> tuple[list[AuditLine], int | None]:
    """``audit_trail`` and ``last_correction_batch`` from one read of the corrections. Nothing
    is read when the game's row came with its correction flag (``setup.find_game``) saying
    none."""
    if loaded.game.has_corrections is False:
        return [], None
    found = _corrections(loaded.game)
    return _audit_lines(loaded, found), _last_batch(found)


def _audit_lines(loaded: LoadedGame, corrections: Sequence[Any]) -> list[AuditLine]:
    seats = loaded.rows.seats
    names = {seat.id: seat.name for seat in seats}
    return [
        AuditLine(
            round_number=c.round_number,
            who=names.get(c.seat_id) if c.seat_id is not None else None,
            what=_field_name(c.field),
            old=_show(seats, c.field, c.old_value),
            new=_show(seats, c.field, c.new_value),
            note=c.note,
            at=c.created_at,
            undone_at=c.undone_at,
            sentence=_(
                "joined the game before this round, starting with %(points)s points",
                points=c.new_value,
            )
            if c.field == JOINED
            else "",
            batch=c.batch,
        )
        for c in sorted(corrections, key=lambda c: c.id, reverse=True)
    ]


@dataclass(frozen=True)
class ValueChange:
    """A value of a round that another phone changed while this phone was correcting it."""

    who: str | None
    what: str
    seen: str
    now: str


def describe_changes(
    loaded: LoadedGame, seen: dict[str, str], current: dict[str, str]
) -> list[ValueChange]:
    """The values that differ between what a phone started from and what is saved now."""
    seats = loaded.rows.seats
    names = {str(seat.position): seat.name for seat in seats}
    changes = []
    for key in sorted(set(seen) | set(current)):
        if seen.get(key) == current.get(key):
            continue
        position, _, name = key.rpartition(".")
        changes.append(
            ValueChange(
                who=names.get(position) if position else None,
                what=_field_name(name),
                seen=_show(seats, name, seen.get(key, "")),
                now=_show(seats, name, current.get(key, "")),
            )
        )
    return changes

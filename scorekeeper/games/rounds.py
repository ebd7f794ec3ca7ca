"""The table and its rounds: what the next round needs (engine, starter, deal), checking a
round as typed, recording it exactly once, ending the game early and carrying on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.games import rows
from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.rows import SeatRow
from scorekeeper.games.setup import GameError, RoundTaken, lock_game, touch
from scorekeeper.games.words import round_words
from scorekeeper.models import Round, Score
from scorekeeper.rules import (
    HouseRules,
    format_hand,
)
from scorekeeper.rules.games.registry import deal_sources
from scorekeeper.rules.games.sheets import SheetSource
from scorekeeper.rules.round_check import (
    RoundCheck,
    RoundContext,
    RoundInput,
)
from scorekeeper.rules.schedule import DealPlan, deal_text, remaining_engines
from scorekeeper.rules.scoring import late_joiner_start, round_winners

# --------------------------------------------------------------------------------------------
# The table: this round's engine, who starts, what to deal


@dataclass(frozen=True)
class TableState:
    round_number: int
    rounds_total: int | None  # None: the table decides when the game ends
    engine: int | None
    next_engine: int | None
    engines_available: list[int]
    starter: str
    deal: str
    plan: DealPlan
    rules_in_play: list[str]
    finished: bool
    round_word: str = "Round"  # "Hand" in the points games
    uses_engines: bool = True
    makes_points: bool = False
    hub: bool = True  # the round's double goes in a hub (False: Chicken Foot, no hub)
    notes: tuple[str, ...] = ()  # the deal, the spinner rule, the target (points games)
    target: int | None = None
    label: str = "Mexican Train"  # i18n: a default never shown (every state sets its label)
    # The round after this one as far as it is known before this one is played, for a phone
    # that keeps this round unsent (offline.js shows it): its deal, and who starts (None when
    # that follows from this round's scores).
    next_deal: str = ""
    next_starter: str | None = None
    # Where the deal's number comes from ("Why 15 each?"): the sheet, and its published sources
    # as docs/rules.md cites them.
    deal_sheet: str = ""
    deal_sources: tuple[SheetSource, ...] = ()


def _used_engines(table: rows.TableRows, skip_number: int | None = None) -> list[int]:
    return [r.engine for r in table.rounds if r.number != skip_number]  # type: ignore[misc]


def engine_for(loaded: LoadedGame, number: int) -> int | None:
    """The engine of round ``number``: fixed by the schedule, or None in "highest available"
    mode where the scorekeeper records it."""
    rules, variant = loaded.rules, loaded.variant
    if rules.order == "highest_available":
        for recorded in loaded.rows.rounds:
            if recorded.number == number:
                return recorded.engine
        return None
    total = variant.round_count(rules)
    if number >= 1 and (total is None or number <= total):
        return variant.engine_for_round(number, rules)
    return None


def _round_winner_seat(recorded: Any, seats: Sequence[SeatRow], rules: HouseRules) -> int | None:
    points = {s.seat_id: s.points for s in recorded.scores}
    went_out = recorded.went_out_seat_id
    winners = round_winners(points, went_out, rules)
    if len(winners) != 1:
        return None
    positions = {seat.id: seat.position for seat in seats}
    return positions.get(winners[0])


def joiner_start(loaded: LoadedGame) -> int:
    """The total a player who joins the game now starts with (the late-joiner house rule)."""
    rules = loaded.rules
    if rules.late_joiner == "none":
        return 0
    lower = loaded.variant.lower_is_better and rules.lower_is_better
    return late_joiner_start(dict(enumerate(loaded.rows.totals())), rules, lower)


def playing_engine(loaded: LoadedGame) -> int | None:
    """The engine double of the round being played (rules.md 2.1): None when no round is left
    to play or the game has no engines. The share view needs only this of ``table_state``."""
    rules, variant = loaded.rules, loaded.variant
    total = variant.round_count(rules)
    number = len(loaded.rows.rounds) + 1
    return variant.engine_for_round(number, rules) if total is None or number <= total else None


def _starters(
    loaded: LoadedGame,
    number: int,
    engine: int | None,
    next_engine: int | None,
    finished: bool,
) -> tuple[str, str | None]:
    """Who starts round ``number`` ("" when the game is finished), and who starts the round
    after it when that is known now (None when it follows from this round's scores)."""
    game, rules, variant, table = loaded.game, loaded.rules, loaded.variant, loaded.rows
    rounds, seats = table.rounds, table.seats
    total = variant.round_count(rules)
    names = [seat.name for seat in seats]
    previous_winner = _round_winner_seat(rounds[-1], seats, rules) if rounds else None
    totals = table.totals() if rules.start_rule == "lowest_total" else None
    starter = (
        variant.starter_text(
            number,
            names,
            rules,
            engine=engine,
            first_starter=game.first_starter,
            previous_winner=previous_winner,
            totals=totals,
        )
        if not finished
        else ""
    )
    # Who starts the round after this one is known now unless it follows from this round.
    next_known = not variant.uses_engines or rules.start_rule in ("rotate", "engine_holder")
    next_starter = (
        variant.starter_text(
            number + 1,
            names,
            rules,
            engine=next_engine,
            first_starter=game.first_starter,
        )
        if next_known and not finished and (total is None or number < total)
        else None
    )
    return starter, next_starter


def table_state(loaded: LoadedGame) -> TableState:
    """What the table needs to play the next round (rules.md 2.1-2.3), from the game's rows
    (``rows.table``)."""
    game, rules, variant = loaded.game, loaded.rules, loaded.variant
    total = variant.round_count(rules)
    table = loaded.rows
    rounds, seats = table.rounds, table.seats
    number = len(rounds) + 1
    more = total is None or number <= total  # a round is left to play
    finished = game.status == "finished" or not more
    available = remaining_engines(rules, [r.engine for r in rounds])
    engine = playing_engine(loaded)
    next_engine = (
        variant.engine_for_round(number + 1, rules) if total is None or number < total else None
    )
    starter, next_starter = _starters(loaded, number, engine, next_engine, finished)
    plan = variant.deal_plan(len(seats), rules)
    return TableState(
        round_number=number if total is None else min(number, total),
        rounds_total=total,
        engine=engine,
        next_engine=next_engine,
        engines_available=available,
        starter=starter,
        deal=deal_text(plan, rules, engine, hub=variant.hub) if variant.uses_engines else "",
        plan=plan,
        rules_in_play=variant.describe(rules),
        finished=finished,
        round_word=variant.round_word,
        uses_engines=variant.uses_engines,
        makes_points=variant.makes_points,
        hub=variant.hub,
        notes=tuple(variant.table_notes(len(seats), rules)),
        target=variant.target(rules),
        label=variant.label,
        next_deal=deal_text(plan, rules, next_engine, hub=variant.hub)
        if variant.uses_engines
        else "",
        next_starter=next_starter,
        deal_sheet=variant.sheets.used_line(plan.source, rules),
        deal_sources=deal_sources(variant.name, plan.source, rules.max_pip, rules.copies),
    )


# --------------------------------------------------------------------------------------------
# Checking and recording a round


def check_round(
    loaded: LoadedGame, entry: RoundInput, number: int | None = None, partial: bool = False
) -> RoundCheck:
    """Check a round as typed (``rules.round_check``) in this game: round ``number`` (a
    correction) or the next round. Hands the rules what they need to know: the engine, the
    engines left, the previous round's hands."""
    rules, variant, table = loaded.rules, loaded.variant, loaded.rows
    number = number or len(table.rounds) + 1
    return variant.check_round(
        entry,
        RoundContext(
            rules=rules,
            names={seat.position: seat.name for seat in table.seats if seat.joined_round <= number},
            number=number,
            engine=engine_for(loaded, number),
            engines_left=tuple(remaining_engines(rules, _used_engines(table, skip_number=number))),
            previous=table.hands_of(number - 1),
            totals=(
                {s.position: t for s, t in zip(table.seats, table.totals(number), strict=True)}
                if not variant.uses_engines
                else {}
            ),
        ),
        partial=partial,
    )


@dataclass
class RecordOutcome:
    check: RoundCheck | None
    saved: Round | None = None
    duplicate: bool = False


def record_round(
    loaded: LoadedGame, entry: RoundInput, form_token: str, number: int
) -> RecordOutcome:
    """Save round ``number``, the round the form was opened for, if it passes the checks.

    - The same form (``form_token``) never saves twice: a double tap, a resubmit or a retry
      after a dropped connection finds its round already saved and reports it as saved.
    - A form for a round that is already saved (another phone was quicker, or an old tab) is
      refused with ``RoundTaken``: it never becomes the next round.
    - Warnings (a same score as last round, ...) are shown but do not stop the save.

    Call it with the game's row loaded ``for_update`` (and ``loaded`` made after that) so the
    checks hold until the commit, or with the request's write lock put off
    (``boundary.defer_write_lock``): the lock is then taken just before the write
    (``setup.lock_game``), and if the game's version moved on since it was read the request
    is answered again under the lock. The unique (game, number) and form token constraints
    stop whatever gets past them anyway.
    """
    game = loaded.game
    # The rows of the game's version (``rows.table``) are what the database held at that
    # version: a token saved before is among them (a token of another game is stopped by its
    # unique constraint below). With the row locked that version is the last one committed;
    # with the lock put off, ``lock_game`` finds out before the write whether it still is. A
    # round found saved or taken here is an answer either way: nothing is written.
    table = loaded.rows
    existing = next((r for r in table.rounds if r.form_token == form_token), None)
    if existing is not None:
        return RecordOutcome(check=None, saved=_round(existing.id), duplicate=True)
    _refuse_a_stale_form(loaded, number)
    check = check_round(loaded, entry, number=number)
    if not check.ok:
        return RecordOutcome(check=check)
    seat_ids = {seat.position: seat.id for seat in table.seats}
    assert check.engine is not None or not loaded.variant.uses_engines
    values = {
        "game_id": game.id,
        "number": check.number,
        "engine": check.engine,
        "went_out_seat_id": None if entry.blocked else seat_ids[entry.went_out],  # type: ignore[index]
        "went_out_on_double": entry.on_double and not entry.blocked,
        "form_token": form_token,
        "recorded_at": datetime.now(UTC),
    }
    scores = _score_values(check, entry, seat_ids, loaded.variant.makes_points)
    # Everything above was read and checked; a save that put its lock off takes it now, and is
    # answered again under it if another phone wrote first (``boundary.defer_write_lock``).
    lock_game(game)
    written = _insert_round(game.id, values, scores, number)
    if isinstance(written, RecordOutcome):
        return written
    recorded = _after_insert(loaded, check, values, scores, written)
    return RecordOutcome(check=check, saved=recorded)


def _refuse_a_stale_form(loaded: LoadedGame, number: int) -> None:
    """``RoundTaken`` when round ``number`` is saved already, ``GameError`` when the game is
    over or is at another round than the form's."""
    table = loaded.rows
    taken = next((r for r in table.rounds if r.number == number), None)
    if taken is not None:
        raise RoundTaken(_round(taken.id))
    if loaded.game.status == "finished":
        raise GameError(_("This game is over: correct a round from the scoreboard instead."))
    if number != len(table.rounds) + 1:
        raise GameError(
            _(
                "This form is for round %(n)s, but the game is at round %(now)s."
                " Open the round again from the table.",
                n=number,
                now=len(table.rounds) + 1,
            )
        )


def _score_values(
    check: RoundCheck, entry: RoundInput, seat_ids: dict[int, int], makes_points: bool
) -> list[dict[str, Any]]:
    """Every seat's score row to write, from the round's check and what was typed."""
    typed = {seat.position: seat for seat in entry.seats}
    scores = []
    for seat_check in check.seats:
        assert seat_check.hand is not None and seat_check.points is not None
        scores.append(
            {
                "seat_id": seat_ids[seat_check.position],
                "hand": seat_check.hand,
                "tiles": format_hand(seat_check.tiles) if seat_check.tiles is not None else None,
                "markers": typed[seat_check.position].markers,
                "open_doubles": typed[seat_check.position].open_doubles,
                # Only a game that makes points during play keeps them.
                "made": (typed[seat_check.position].made or 0) if makes_points else 0,
                "points": seat_check.points,
                "corrected": False,
            }
        )
    return scores


def _insert_round(
    game_id: int, values: dict[str, Any], scores: list[dict[str, Any]], number: int
) -> int | RecordOutcome:
    """Write the round and its scores: the new round's id, or (only when the lock was bypassed
    and a constraint stopped the write) the round the same form saved before."""
    try:
        with db.session.begin_nested():
            # Plain statements on the session's connection: the round (its id returned), then
            # every seat's score in one executemany (the ORM's unit of work would cost more
            # than the statements).
            connection = db.session.connection()
            round_id = connection.execute(_INSERT_ROUND, values).scalar_one()
            connection.execute(_INSERT_SCORE, [{**row, "round_id": round_id} for row in scores])
    except IntegrityError:
        # Only reachable when the lock was bypassed: the constraints still keep one round.
        form_token = values["form_token"]
        existing = db.session.scalars(select(Round).where(Round.form_token == form_token)).first()
        if existing is not None:
            if existing.game_id != game_id:
                raise GameError(
                    _("That form belongs to another game: open this game's round again.")
                ) from None
            return RecordOutcome(check=None, saved=existing, duplicate=True)
        taken = db.session.scalars(
            select(Round).where(Round.game_id == game_id, Round.number == number)
        ).first()
        if taken is not None:
            raise RoundTaken(taken) from None
        raise
    return round_id


def _after_insert(
    loaded: LoadedGame,
    check: RoundCheck,
    values: dict[str, Any],
    scores: list[dict[str, Any]],
    round_id: int,
) -> Round:
    """After the write: the saved round in the session, the game's new version (finished after
    its last round) and the rows of that version kept for when the commit succeeds."""
    game, variant, rules, table = loaded.game, loaded.variant, loaded.rules, loaded.rows
    seat_ids = {seat.position: seat.id for seat in table.seats}
    # The saved round as an object of the session without reading it back: what was written
    # is known (its scores are read when asked for).
    recorded = Round(id=round_id, **values)
    make_transient_to_detached(recorded)
    db.session.add(recorded)
    if "rounds" in game.__dict__:  # loaded before: it holds the new round too
        set_committed_value(game, "rounds", [*game.rounds, recorded])
    total = variant.round_count(rules)
    over = (total is not None and values["number"] >= total) or (
        variant.target(rules) is not None
        and variant.game_over(_totals_after(table, check.seats, seat_ids), rules)
    )
    touch(game, status="finished" if over else None)  # the last round ends the game
    return recorded


def _round(round_id: int) -> Round:
    """A saved round as an object (to show it, or to name it as the one saved)."""
    return db.session.get_one(Round, round_id)


def _totals_after(table: rows.TableRows, new: Sequence[Any], seat_ids: dict[int, int]) -> list[int]:
    """Each seat's total in seat order once the round with ``new`` (seat checks) is added."""
    added = {seat_ids[seat.position]: seat.points or 0 for seat in new}
    return [
        total + added.get(seat.id, 0)
        for seat, total in zip(table.seats, table.totals(), strict=True)
    ]


_INSERT_ROUND = insert(Round.__table__).returning(Round.__table__.c.id)
_INSERT_SCORE = insert(Score.__table__)  # Core: one executemany, no ORM bulk machinery


def finish_game(loaded: LoadedGame) -> None:
    """Mark the game over (all rounds played, or the table stopped early)."""
    game, variant, rules = loaded.game, loaded.variant, loaded.rules
    if not game.rounds:
        raise GameError(_("Record at least one round before ending the game."))
    total = variant.round_count(rules)
    if variant.target(rules) is not None:
        short = not variant.game_over(loaded.rows.totals(), rules)
    else:
        short = total is not None and len(game.rounds) < total
    game.ended_early = short  # a whole game, or ended before its last round
    touch(game, scores=False, status="finished")


def reopen_game(loaded: LoadedGame) -> None:
    """Undo an early end: the game takes rounds again."""
    game, variant, rules = loaded.game, loaded.variant, loaded.rules
    total = variant.round_count(rules)
    if total is not None and len(game.rounds) >= total:
        raise GameError(_("Every round has been played; correct a round instead."))
    if variant.target(rules) is not None and variant.game_over(loaded.rows.totals(), rules):
        word = round_words(variant.round_word).one
        if variant.lower_is_better:
            said = _(
                "Someone has reached the losing total; correct a %(round)s instead.", round=word
            )
        else:
            said = _("Someone has reached the target; correct a %(round)s instead.", round=word)
        raise GameError(said)
    game.ended_early = False
    touch(game, scores=False, status="playing")

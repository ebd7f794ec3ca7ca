"""A player who sits down at a running game (rules.md 2.4, "late joiner"): seated for the next
round at the next seat, with the starting total the house rules give, and written to the
game's audit trail."""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.rounds import joiner_start
from scorekeeper.games.setup import GameError, touch
from scorekeeper.models import Correction, Game, Player, Seat
from scorekeeper.rules.names import NameRefused, clean_name, name_key

#: The audit trail's field for a player who joined (never undone like a correction).
JOINED = "joined"
MAX_SEATS = 14


def _player_for(game: Game, name: str) -> Player:
    """The player to seat: at a league table the league's player of that name (or a new guest
    of the league), otherwise a new player."""
    if game.night is None:
        return Player(name=name)
    league_id = game.night.league_id
    found = db.session.scalars(
        select(Player).where(
            Player.league_id == league_id,
            Player.merged_into_id.is_(None),
            func.lower(Player.name) == name.lower(),
        )
    ).first()
    if found is not None:
        playing = db.session.scalar(
            select(Game.table_name)
            .join(Seat, Seat.game_id == Game.id)
            .where(
                Game.night_id == game.night_id,
                Game.status == "playing",
                Game.id != game.id,
                Seat.player_id == found.id,
            )
        )
        if playing is not None:
            raise GameError(
                _(
                    "%(name)s is already playing at %(table)s tonight.",
                    name=found.name,
                    table=playing,
                )
            )
        return found
    player = Player(name=name, league_id=league_id, is_guest=True)
    db.session.add(player)
    return player


def join_game(loaded: LoadedGame, name: str) -> Seat:
    """Seat a new player at a running game from the next round on, at the next seat (after the
    last one, so the seats of the rounds already played keep their places). They start with 0,
    or under the "highest_total" house rule with the highest total at the table. Written to
    the audit trail. Raises GameError with a sentence when they cannot join.

    Call it with the game loaded ``for_update``."""
    game = loaded.game
    try:
        cleaned = clean_name(name)
    except NameRefused as refused:
        raise GameError(str(refused)) from None
    if not cleaned:
        raise GameError(_("Type the new player's name."))
    if game.status == "finished":
        raise GameError(_("This game is over: carry on playing it first, then seat the player."))
    for seat in game.seats:
        if name_key(seat.player.name) == name_key(cleaned):
            raise GameError(_("%(name)s is already at this table.", name=seat.player.name))
    if len(game.seats) >= MAX_SEATS:
        raise GameError(_("A table has room for at most %(n)s players.", n=MAX_SEATS))
    rules = loaded.rules
    try:
        loaded.variant.deal_plan(len(game.seats) + 1, rules)
    except ValueError as error:
        raise GameError(str(error)) from error
    number = len(game.rounds) + 1
    start = joiner_start(loaded)
    seat = Seat(
        position=len(game.seats),
        player=_player_for(game, cleaned),
        joined_round=number,
        start_total=start,
    )
    game.seats.append(seat)
    db.session.flush()
    batch = max((c.batch for c in game.corrections), default=0) + 1
    game.corrections.append(
        Correction(
            batch=batch,
            round_number=number,
            seat_id=seat.id,
            field=JOINED,
            old_value="",
            new_value=str(start),
            note="",
        )
    )
    touch(game)
    db.session.flush()
    return seat

"""Seating a league night's tables (docs/guide.md, "Seating the night"): who is here, tables
that mix the club (``rules.seating``), a late arrival put where they have met the fewest people.

A player is named here by a key: ``p<id>`` for a player of the league (a roster player or a
guest seen before), ``g:<name>`` for a guest typed tonight. The history of who met whom is the
league's nights as played: the seats of the games of its nights (hand-made tables count too),
never a separate record.

Starting the proposed tables is a write that says what it was based on (``night_basis``: the
night's tables and who was here); another phone's table started meanwhile makes it stale.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games import services as games
from scorekeeper.leagues.nights import add_table, load_night, playing_tonight
from scorekeeper.leagues.roster import _same_name, league_players, player_name, roster_counts
from scorekeeper.leagues.setup import LeagueError
from scorekeeper.leagues.standings import league_table
from scorekeeper.models import Game, League, Night, Player, Seat
from scorekeeper.rules import seating
from scorekeeper.rules.names import name_key
from scorekeeper.web.row_locks import lock_row

GUEST = "g:"
TABLE_SIZES = (3, 4, 5, 6)


class SeatingStale(LeagueError):
    """The night changed since the tables were proposed: nothing was started."""


class SeatingDone(LeagueError):
    """The proposed tables were started already (the same form sent twice)."""


def member_key(player_id: int) -> str:
    return f"p{player_id}"


@dataclass(frozen=True)
class SeatChoices:
    """Who may be seated tonight: the league's players (regulars first) who are not at a table
    still playing (``busy``: player id -> table name), and who came to the last night."""

    players: list[Player]
    busy: dict[int, str]
    last_night: set[int]


def seat_choices(league: League, night: Night) -> SeatChoices:
    counts = roster_counts(league)
    everyone = [p for p in league_players(league) if p.merged_into_id is None]
    everyone.sort(key=lambda p: (p.is_guest, -(counts.get(p.id, (0, None))[0]), p.name.casefold()))
    return SeatChoices(everyone, playing_tonight(night), _last_attendance(league, night))


def _last_attendance(league: League, night: Night) -> set[int]:
    """The players seated at the league's last night before this one (merged ones as who they
    are now)."""
    before = db.session.scalars(
        select(Night.id)
        .join(Game, Game.night_id == Night.id)
        .where(Night.league_id == league.id, Night.id != night.id)
        .where(Night.played_on <= night.played_on)
        .order_by(Night.played_on.desc(), Night.id.desc())
        .limit(1)
    ).first()
    if before is None:
        return set()
    now = _surviving_ids(league)
    seated = db.session.scalars(
        select(Seat.player_id).join(Game, Game.id == Seat.game_id).where(Game.night_id == before)
    )
    return {now.get(player_id, player_id) for player_id in seated}


def _surviving_ids(league: League) -> dict[int, int]:
    """Player id -> the id it lives on as (merged players followed to the end)."""
    into = {p.id: p.merged_into_id for p in league_players(league)}
    result = {}
    for player_id in into:
        seen, at = {player_id}, player_id
        while (nxt := into.get(at)) is not None and nxt not in seen:
            seen.add(nxt)
            at = nxt
        result[player_id] = at
    return result


def night_history(league: League, night: Night) -> list[list[list[str]]]:
    """The league's nights up to this one (this night's tables so far included), each a list of
    tables of player keys, from the seats of their games."""
    rows = db.session.execute(
        select(Game.night_id, Game.id, Seat.player_id)
        .join(Seat, Seat.game_id == Game.id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league.id, Night.played_on <= night.played_on)
        .order_by(Game.night_id, Game.id, Seat.position)
    ).all()
    now = _surviving_ids(league)
    nights: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for night_id, game_id, player_id in rows:
        nights[night_id][game_id].append(member_key(now.get(player_id, player_id)))
    return [list(tables.values()) for tables in nights.values()]


def present_keys(
    league: League,
    player_ids: Sequence[int],
    guests: Sequence[str],
    busy: dict[int, str] | None = None,
) -> list[str]:
    """Tonight's players as keys: the ticked players, then the guests typed (a name that is a
    player of the league is that player). Raises LeagueError on a name it refuses, or on a
    typed name of a player ``busy`` at a table still playing."""
    busy = busy or {}
    everyone = league_players(league)
    known = {p.id for p in everyone if p.merged_into_id is None}
    keys: list[str] = []
    for player_id in player_ids:
        if player_id not in known:
            raise LeagueError(_("One of the chosen players is not in this league any more."))
        keys.append(member_key(player_id))
    for typed in guests:
        if not typed.strip():
            continue
        name = player_name(typed)
        player = _same_name(everyone, name)
        if player is not None and player.id in busy:
            raise LeagueError(
                _(
                    "%(name)s is already playing at %(table)s tonight.",
                    name=player.name,
                    table=busy[player.id],
                )
            )
        key = member_key(player.id) if player is not None else GUEST + name
        same = any(
            k.startswith(GUEST) and name_key(k[len(GUEST) :]) == name_key(name) for k in keys
        )
        if not same:
            keys.append(key)
    return list(dict.fromkeys(keys))


def key_names(league: League, keys: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """Key -> (name, is a guest)."""
    players = {member_key(p.id): p for p in league_players(league)}
    named = {}
    for key in keys:
        if key.startswith(GUEST):
            named[key] = (key[len(GUEST) :], True)
        elif key in players:
            named[key] = (players[key].name, players[key].is_guest)
    return named


def night_basis(night: Night, present: Sequence[str]) -> str:
    """What a proposal is based on: the night's tables (their players and whether they still
    play) and who was here."""
    tables = [
        [game.id, game.status, [seat.player_id for seat in game.seats]] for game in night.games
    ]
    text = json.dumps([sorted(present), tables])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def propose(
    league: League, night: Night, present: Sequence[str], table_size: int, strong: bool = False
) -> list[list[str]]:
    """Tonight's tables for the players in ``present``: as few repeated meetings as the
    history allows, or with ``strong`` by the current standings (the top players together)."""
    if table_size not in TABLE_SIZES:
        raise LeagueError(_("Choose 3 to 6 players per table."))
    if len(present) < 2:
        raise LeagueError(_("Tick at least two players who are here."))
    if strong:
        tables = seating.ranked_tables(_by_standings(league, present), table_size)
    else:
        tables = seating.seat_night(present, night_history(league, night), table_size)
    return [_in_order(table, present) for table in tables]


def _by_standings(league: League, present: Sequence[str]) -> list[str]:
    """``present`` in the order of the league's current standings: the ranked, then the players
    not ranked yet, then those without a game, then the guests (each in the order given)."""
    table = league_table(league).table
    order = [member_key(r.item.player) for r in table.ranked]
    order += [member_key(line.player) for line in table.unranked]
    place = {key: at for at, key in enumerate(order)}
    guests = {key for key, (_name, guest) in key_names(league, present).items() if guest}
    return sorted(
        present,
        key=lambda key: (key in guests, place.get(key, len(place)), present.index(key)),
    )


def _in_order(table: Sequence[str], present: Sequence[str]) -> list[str]:
    return sorted(table, key=list(present).index)


def check_tables(tables: Sequence[Sequence[str]], present: Sequence[str]) -> list[list[str]]:
    """The tables a form sent back, checked: everyone here seated once, two at least a table."""
    seated = [key for table in tables for key in table]
    if sorted(seated) != sorted(present) or any(len(table) < 2 for table in tables):
        raise LeagueError(_("These tables do not match who is here: propose them again."))
    return [_in_order(table, present) for table in tables]


def swap(
    tables: Sequence[Sequence[str]], picked: Sequence[str], present: Sequence[str]
) -> list[list[str]]:
    """The tables with the two ``picked`` players changing places."""
    where = {key: at for at, table in enumerate(tables) for key in table}
    if len(set(picked)) != 2 or any(key not in where for key in picked):
        raise LeagueError(_("Tap two players, each at another table, then Swap."))
    first, second = picked
    if where[first] == where[second]:
        raise LeagueError(_("These two are at the same table: tap players at two tables."))
    swapped = [[second if k == first else first if k == second else k for k in t] for t in tables]
    return [_in_order(table, present) for table in swapped]


def met_before(
    tables: Sequence[Sequence[str]], history: Sequence[Sequence[Sequence[str]]]
) -> list[list[tuple[str, str, int]]]:
    """For each table, its pairs who have met before and how many times, most first."""
    met = seating.meetings(history)
    result = []
    for table in tables:
        pairs = [
            (a, b, met[frozenset((a, b))])
            for at, a in enumerate(table)
            for b in table[at + 1 :]
            if met[frozenset((a, b))]
        ]
        result.append(sorted(pairs, key=lambda pair: -pair[2]))
    return result


def start_seating(
    league: League,
    night: Night,
    present: Sequence[str],
    tables: Sequence[Sequence[str]],
    basis: str,
    device: str,
) -> list[Game]:
    """Start the proposed tables, each through ``add_table`` (the usual table flow), when the
    night is still what the proposal was based on. Raises SeatingDone when these tables were
    started already (the form sent twice), SeatingStale when the night changed meanwhile."""
    lock_row(Night, night.id)
    fresh = load_night(league, night.id, rounds=False)
    if fresh is None:
        raise SeatingStale(_("This night was deleted meanwhile."))
    tables = check_tables(tables, present)
    if night_basis(fresh, present) != basis:
        names = key_names(league, present)
        if _already_started(fresh, tables, names):
            raise SeatingDone(_("These tables have started already."))
        raise SeatingStale(
            _(
                "The night's tables changed since these were proposed (another phone started "
                "or removed a table): nothing was started."
            )
        )
    started = []
    for table in tables:
        ids = [int(key[1:]) for key in table if not key.startswith(GUEST)]
        guests = [key[len(GUEST) :] for key in table if key.startswith(GUEST)]
        started.append(add_table(league, fresh, "", ids, guests, device))
    return started


def started_already(league: League, night: Night, tables: Sequence[Sequence[str]]) -> bool:
    """Whether every one of ``tables`` is playing at this night already (a form sent twice)."""
    names = key_names(league, [key for table in tables for key in table])
    return len(names) == sum(len(t) for t in tables) and _already_started(night, tables, names)


def _already_started(
    night: Night, tables: Sequence[Sequence[str]], names: dict[str, tuple[str, bool]]
) -> bool:
    seated = {
        frozenset(name_key(seat.player.name) for seat in game.seats)
        for game in night.games
        if game.status == "playing"
    }
    wanted = [frozenset(name_key(names[key][0]) for key in table) for table in tables]
    return bool(wanted) and all(table in seated for table in wanted)


def seat_late(league: League, night: Night, key: str, device: str) -> tuple[Game, Seat]:
    """Seat a late arrival at the table still playing where they have met the fewest people
    (``rules.seating.late_table``), as a player joining that game (the usual late-joiner
    flow: from the next round, with the house rules' start)."""
    lock_row(Night, night.id)
    fresh = load_night(league, night.id)
    if fresh is None:
        raise LeagueError(_("This night was deleted meanwhile."))
    playing = [game for game in fresh.games if game.status == "playing"]
    if not playing:
        raise LeagueError(_("No table is playing tonight: seat the tables first."))
    tables = [[member_key(seat.player_id) for seat in game.seats] for game in playing]
    at = seating.late_table(key, tables, night_history(league, fresh))
    assert at is not None
    game = playing[at]
    name = key_names(league, [key])[key][0]
    try:
        seat = games.join_game(games.load(game), name)
    except games.GameError as error:
        raise LeagueError(str(error)) from error
    return game, seat

"""Seating a league night, the services called directly (scorekeeper.leagues.seating): the
history is the games' seats (hand-made tables and merged players included), proposals seat
everyone once, starting checks what it was based on, late arrivals join where they met the
fewest people."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from scorekeeper.leagues import seating
from scorekeeper.leagues import services as leagues
from scorekeeper.models import Player
from scorekeeper.rules.seating import repeats

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
DEVICE = "d" * 64


def _players(league: Any) -> dict[str, Player]:
    return {p.name: p for p in leagues.league_players(league)}


def _night(league: Any, day: date, *tables: list[str]) -> Any:
    players = _players(league)
    night = leagues.create_night(league, day, "Hall")
    for table in tables:
        leagues.add_table(league, night, "", [players[n].id for n in table], [], DEVICE)
    return night


def _keys(league: Any, *names: str) -> list[str]:
    players = _players(league)
    return [seating.member_key(players[n].id) for n in names]


def test_the_history_is_the_games_seats_up_to_the_night(session: Any, make_league: Any) -> None:
    league = make_league(NAMES)
    _night(league, date(2025, 3, 6), NAMES[:4], NAMES[4:])
    tonight = _night(league, date(2025, 3, 13), ["Ann", "Eve"])
    _night(league, date(2025, 3, 20), ["Ann", "Bob"])  # a later night is not history
    history = seating.night_history(league, tonight)
    assert history == [
        [_keys(league, *NAMES[:4]), _keys(league, *NAMES[4:])],
        [_keys(league, "Ann", "Eve")],
    ]
    # A merged player's games count as the player they now are.
    players = _players(league)
    leagues.merge_players(league, players["Hal"], players["Bob"])
    history = seating.night_history(league, tonight)
    assert history[0][1] == _keys(league, "Eve", "Fay", "Gus", "Bob")


def test_last_nights_players_are_offered_ticked(session: Any, make_league: Any) -> None:
    league = make_league([*NAMES, "Ivy"])
    _night(league, date(2025, 3, 6), NAMES[:4], NAMES[4:])
    tonight = _night(league, date(2025, 3, 13), ["Ann", "Bob"])
    session.expire_all()  # as a request reads the night
    choices = seating.seat_choices(league, tonight)
    players = _players(league)
    assert choices.last_night == {players[n].id for n in NAMES}
    assert set(choices.busy) == {players["Ann"].id, players["Bob"].id}


def test_a_proposal_seats_everyone_once_and_mixes_the_tables(
    session: Any, make_league: Any
) -> None:
    league = make_league(NAMES)
    _night(league, date(2025, 3, 6), NAMES[:4], NAMES[4:])
    tonight = leagues.create_night(league, date(2025, 3, 13), "Hall")
    present = _keys(league, *NAMES) + ["g:Zed"]
    tables = seating.propose(league, tonight, present, 4)
    assert sorted(k for t in tables for k in t) == sorted(present)
    assert sorted(len(t) for t in tables) == [4, 5]
    assert tables == seating.propose(league, tonight, present, 4)  # the same again
    # Of the 8 who met last week in two fours, two tables can hold no more than 4 repeats.
    history = seating.night_history(league, tonight)
    assert repeats([*history, tables]) == 4
    with pytest.raises(leagues.LeagueError, match="3 to 6"):
        seating.propose(league, tonight, present, 7)
    with pytest.raises(leagues.LeagueError, match="at least two"):
        seating.propose(league, tonight, present[:1], 4)


def test_a_typed_guest_who_is_a_player_is_the_player(session: Any, make_league: Any) -> None:
    league = make_league(NAMES)
    players = _players(league)
    keys = seating.present_keys(league, [players["Ann"].id], [" bob ", "Zed", "zed", ""])
    assert keys == _keys(league, "Ann", "Bob") + ["g:Zed"]


def test_starting_checks_what_the_proposal_was_based_on(session: Any, make_league: Any) -> None:
    league = make_league(NAMES)
    night = leagues.create_night(league, date(2025, 3, 13), "Hall")
    present = _keys(league, *NAMES)
    tables = seating.propose(league, night, present, 4)
    basis = seating.night_basis(night, present)
    with pytest.raises(leagues.LeagueError, match="do not match"):
        seating.start_seating(league, night, present, [tables[0]], basis, DEVICE)
    started = seating.start_seating(league, night, present, tables, basis, DEVICE)
    assert [[s.player.name for s in g.seats] for g in started] == [
        [p.name for p in leagues.league_players(league) if seating.member_key(p.id) in t]
        for t in tables
    ]
    assert [g.table_name for g in started] == ["Table 1", "Table 2"]
    with pytest.raises(seating.SeatingDone):
        seating.start_seating(league, night, present, tables, basis, DEVICE)
    other = leagues.create_night(league, date(2025, 3, 20), "Hall")
    basis = seating.night_basis(other, present)
    _players_now = _players(league)
    leagues.add_table(
        league, other, "", [_players_now["Ann"].id, _players_now["Bob"].id], [], DEVICE
    )
    with pytest.raises(seating.SeatingStale):
        seating.start_seating(league, other, present, tables, basis, DEVICE)


def test_a_late_arrival_joins_where_they_met_the_fewest(session: Any, make_league: Any) -> None:
    league = make_league([*NAMES, "Ivy"])
    _night(league, date(2025, 3, 6), ["Ivy", "Ann", "Bob"], ["Cy", "Di"])
    night = _night(league, date(2025, 3, 13), ["Ann", "Cy", "Eve"], ["Bob", "Fay"], ["Di", "Gus"])
    game, seat = seating.seat_late(league, night, _keys(league, "Ivy")[0], DEVICE)
    # Ivy met Ann (first table) and Bob (second): the third table, where she met nobody.
    assert game.table_name == "Table 3" and seat.player.name == "Ivy"
    with pytest.raises(leagues.LeagueError, match="already"):
        seating.seat_late(league, night, _keys(league, "Ann")[0], DEVICE)

"""Stored seat totals and kept standings are never out of date: after any sequence of saves,
corrections, undos, early ends, re-openings, renames, imports, a night moved to another date
and changed settings, every seat's stored total, rounds, rounds gone out and place equal a full
recomputation from the round scores, and the league's standings and player pages (kept under
its stamp) equal standings recomputed from those scores."""

from __future__ import annotations

import secrets
from collections import defaultdict
from datetime import date, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games import services as games
from scorekeeper.leagues import services as leagues
from scorekeeper.leagues import transfer
from scorekeeper.leagues.standings import (
    Period,
    SeatResult,
    compute_league_table,
    compute_player_report,
    league_table,
    player_report,
)
from scorekeeper.models import Game, League, Night, Round, Score, Seat
from scorekeeper.rules.standings import Method
from tests.services.conftest import DEVICE, typed_round

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def recomputed_seats(league_id: int) -> dict[int, tuple[int, int, int, int]]:
    """Every seat of the league's games: (total, rounds, rounds gone out, place), added up
    here from the round scores, not read from the seat."""
    seats = db.session.execute(
        select(Seat.id, Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league_id)
    ).all()
    totals: dict[int, int] = defaultdict(int)
    rounds: dict[int, int] = defaultdict(int)
    outs: dict[int, int] = defaultdict(int)
    for seat_id, points in db.session.execute(select(Score.seat_id, Score.points)):
        totals[seat_id] += points
        rounds[seat_id] += 1
    for (seat_id,) in db.session.execute(select(Round.went_out_seat_id)):
        if seat_id is not None:
            outs[seat_id] += 1
    by_game: dict[int, list[int]] = defaultdict(list)
    for seat_id, game_id in seats:
        by_game[game_id].append(totals[seat_id])
    return {
        seat_id: (
            totals[seat_id],
            rounds[seat_id],
            outs[seat_id],
            1 + sum(other < totals[seat_id] for other in by_game[game_id]),
        )
        for seat_id, game_id in seats
    }


def recomputed_results(league_id: int) -> list[SeatResult]:
    """The league's finished games as the standings take them, from the round scores."""
    again = recomputed_seats(league_id)
    rows = db.session.execute(
        select(
            Seat.id, Seat.game_id, Game.night_id, Night.played_on, Seat.player_id, Game.ended_early
        )
        .join(Game, Game.id == Seat.game_id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league_id, Game.status == "finished")
        .order_by(Night.played_on, Game.night_id, Seat.game_id, Seat.position)
    ).all()
    return [
        SeatResult(game, night, played_on, player, *again[seat_id][:3], whole=not ended_early)
        for seat_id, game, night, played_on, player, ended_early in rows
    ]


def stored_seats(league_id: int) -> dict[int, tuple[int, int, int, int]]:
    rows = db.session.execute(
        select(Seat.id, Seat.total, Seat.rounds_played, Seat.rounds_out, Seat.place)
        .join(Game, Game.id == Seat.game_id)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league_id)
    ).all()
    return {row[0]: tuple(row[1:]) for row in rows}  # type: ignore[misc]


def check_league(code: str) -> None:
    db.session.expire_all()
    league = leagues.load_league(code)
    assert league is not None
    assert stored_seats(league.id) == recomputed_seats(league.id)
    expected = compute_league_table(league, Period(), results=recomputed_results(league.id))
    assert league_table(league) == expected
    season = Period(date(2025, 1, 1), date(2025, 1, 31))
    assert league_table(league, season) == compute_league_table(
        league,
        season,
        results=[r for r in recomputed_results(league.id) if r.played_on <= season.end],
    )
    for player in leagues.league_players(league)[:2]:
        assert player_report(league, player) == compute_player_report(league, player)


class Club:
    """A league with six players, a night and two tables of three, driven like the pages do."""

    def __init__(self) -> None:
        league = leagues.create_league("Property Club", "blue engine 7", DEVICE)
        self.code = league.code
        self.players = [leagues.add_player(league, name).id for name in NAMES]
        night = leagues.create_night(league, date(2025, 1, 2), "Hall")
        self.tables = [
            leagues.add_table(league, night, "", self.players[:3], [], DEVICE).public_id,
            leagues.add_table(league, night, "", self.players[3:], [], DEVICE).public_id,
        ]
        self.imports = 0
        db.session.commit()

    def league(self) -> League:
        league = leagues.load_league(self.code)
        assert league is not None
        return league

    def game(self, table: int) -> Game:
        game = games.load_game(self.tables[table % len(self.tables)], for_update=True)
        assert game is not None
        return game

    def apply(self, step: tuple[str, int, list[int]]) -> None:
        kind, table, numbers = step
        try:
            getattr(self, kind)(table, numbers)
        except games.GameError:
            db.session.rollback()
        else:
            db.session.commit()

    def record(self, table: int, numbers: list[int]) -> None:
        game = self.game(table)
        points = [numbers[i % len(numbers)] for i in range(len(game.seats))]
        out = numbers[0] % len(points)
        points[out] = 0
        games.record_round(
            games.load(game),
            typed_round(points, out),
            secrets.token_urlsafe(12),
            len(game.rounds) + 1,
        )

    def correct(self, table: int, numbers: list[int]) -> None:
        game = self.game(table)
        if not game.rounds:
            return
        recorded = game.rounds[numbers[0] % len(game.rounds)]
        seen = games.round_values(game, recorded)
        points = [numbers[(i + 1) % len(numbers)] for i in range(len(game.seats))]
        out = None if numbers[-1] % 4 == 0 else numbers[-1] % len(points)
        if out is not None:
            points[out] = 0
        games.correct_round(games.load(game), recorded.number, typed_round(points, out), seen)

    def undo(self, table: int, numbers: list[int]) -> None:
        games.undo_last_correction(games.load(self.game(table)))

    def finish(self, table: int, numbers: list[int]) -> None:
        games.finish_game(games.load(self.game(table)))

    def reopen(self, table: int, numbers: list[int]) -> None:
        games.reopen_game(games.load(self.game(table)))

    def rename(self, table: int, numbers: list[int]) -> None:
        league = self.league()
        player = leagues.find_player(league, self.players[table % len(self.players)])
        assert player is not None
        leagues.edit_player(league, player, f"{NAMES[table % 6]} {numbers[0]}", numbers[0] % 5 == 0)

    def move_night(self, table: int, numbers: list[int]) -> None:
        """The first night's date changes: it may leave the January season or come back."""
        night = self.league().nights[0]
        leagues.update_night(night, date(2025, 1, 2) + timedelta(days=20 * (numbers[0] % 3)), "")

    def settings(self, table: int, numbers: list[int]) -> None:
        league = self.league()
        method = Method(kind=("average", "wins", "points")[numbers[0] % 3], min_games=1)
        leagues.update_settings(league, league.name, method, leagues.league_rules(league))

    def imported(self, table: int, numbers: list[int]) -> None:
        """A night of one finished table, through the import (check, then write)."""
        self.imports += 1
        day = date(2025, 1, 2) + timedelta(days=7 * self.imports)
        lines = ["night,table,player,round,score"]
        for number, points in enumerate(numbers[:4], start=1):
            for seat, name in enumerate(NAMES[table % 3 : table % 3 + 3]):
                lines.append(f"{day},Table 9,{name},{number},{0 if seat == 0 else points}")
        league = self.league()
        plan = transfer.check_scores(league, "\n".join(lines) + "\n")
        assert not plan.problems and plan.fatal is None, plan.problems
        assert transfer.start_confirmed_import(league, f"t{secrets.token_hex(6)}")
        transfer.apply_import(league, plan, DEVICE, secrets.token_hex(8), "scores.csv")


steps = st.lists(
    st.tuples(
        st.sampled_from(
            ["record"] * 6
            + ["correct"] * 2
            + ["undo", "finish", "reopen", "rename", "imported", "move_night", "settings"]
        ),
        st.integers(0, 5),
        st.lists(st.integers(1, 40), min_size=1, max_size=4),
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=steps)
def test_stored_totals_and_kept_standings_match_a_full_recomputation(
    session: Any, steps: list[tuple[str, int, list[int]]]
) -> None:
    club = Club()
    check_league(club.code)
    for step in steps:
        club.apply(step)
        check_league(club.code)


def test_a_whole_game_then_corrections_and_undo(session: Any) -> None:
    """A fixed story that reaches the end of a game (13 rounds) and corrects it afterwards."""
    club = Club()
    for number in range(13):
        club.apply(("record", 0, [number + 3, 7, 11]))
    assert club.game(0).status == "finished"
    session.commit()
    check_league(club.code)
    before = league_table(club.league())
    club.apply(("correct", 0, [4, 40, 1, 2]))
    check_league(club.code)
    assert league_table(club.league()) != before
    club.apply(("undo", 0, [0]))
    check_league(club.code)
    assert league_table(club.league()) == before
    club.apply(("reopen", 0, [0]))
    check_league(club.code)


def test_every_change_the_standings_show_renews_the_stamp(session: Any) -> None:
    """Each write that can change what the standings or a player page show gives the league a
    new stamp; a round saved at a table still playing does not (only finished games count)."""
    club = Club()

    def stamp() -> str:
        db.session.expire_all()
        return club.league().standings_stamp

    def renews(change: Any) -> None:
        before = stamp()
        change()
        db.session.commit()
        assert stamp() != before, change.__name__

    before = stamp()
    club.apply(("record", 0, [5, 9, 12]))
    assert stamp() == before, "a round at a table still playing"

    league = club.league()
    spare = leagues.add_player(league, "Spare")
    db.session.commit()
    other = leagues.add_player(club.league(), "Other")
    db.session.commit()
    empty_night = leagues.create_night(club.league(), date(2025, 2, 6), "Hall")
    db.session.commit()
    empty_night_id = empty_night.id

    def added() -> None:
        leagues.add_player(club.league(), "Newcomer")

    def renamed() -> None:
        league = club.league()
        leagues.edit_player(league, leagues.find_player(league, spare.id), "Spare Two", True)  # type: ignore[arg-type]

    def merged() -> None:
        league = club.league()
        source, target = (
            leagues.find_player(league, other.id),
            leagues.find_player(league, spare.id),
        )
        leagues.merge_players(league, source, target)  # type: ignore[arg-type]

    def removed() -> None:
        league = club.league()
        leagues.delete_player(league, leagues.find_player(league, spare.id))  # type: ignore[arg-type]

    def night_moved() -> None:
        leagues.update_night(club.league().nights[0], date(2025, 1, 9), "Hall")

    def night_deleted() -> None:
        league = club.league()
        leagues.delete_night(league, leagues.load_night(league, empty_night_id))  # type: ignore[arg-type]

    def table_removed() -> None:
        league = club.league()
        night = leagues.load_night(league, league.nights[0].id)
        assert night is not None
        leagues.remove_table(league, night, club.tables[1])

    def settings() -> None:
        league = club.league()
        leagues.update_settings(
            league, "Renamed Club", Method(kind="wins"), leagues.league_rules(league)
        )

    def finished() -> None:
        games.finish_game(games.load(club.game(0)))

    def corrected() -> None:
        club.correct(0, [0, 7, 3, 1])

    def reopened() -> None:
        games.reopen_game(games.load(club.game(0)))

    def deleted() -> None:
        games.finish_game(games.load(club.game(0)))
        db.session.commit()
        games.delete_game(club.game(0))

    def imported() -> None:
        club.imported(1, [4, 8])

    for change in (
        added, renamed, merged, removed, night_moved, night_deleted, table_removed, settings,
        finished, corrected, reopened, deleted, imported,
    ):  # fmt: skip
        renews(change)


def _stored(game: Game) -> list[tuple[int, int]]:
    db.session.expire_all()
    return [(seat.total, seat.place) for seat in sorted(game.seats, key=lambda s: s.position)]


def test_under_arrivals_scoring_the_highest_stored_total_is_first(
    make_game: Any, play: Any
) -> None:
    """A seat's stored place follows the game's direction: under arrivals scoring (one point a
    round gone out) the player who went out most is 1st."""
    game = make_game(["Ann", "Bob", "Cy"], score_by="arrivals")
    play(game, [0, 12, 30], went_out=0)
    play(game, [0, 5, 9], went_out=0)
    play(game, [7, 0, 3], went_out=1)
    assert _stored(game) == [(2, 1), (1, 2), (0, 3)]


def test_a_late_joiner_s_stored_total_starts_from_the_start_total(
    make_game: Any, play: Any, session: Any
) -> None:
    game = make_game(["Ann", "Bob"], late_joiner="highest_total")
    play(game, [0, 20], went_out=0)
    games.join_game(games.load(games.load_game(game.public_id, for_update=True)), "Cy")
    session.commit()
    play(game, [4, 0, 3], went_out=1)
    # Cy starts with the highest total (Bob's 20) and adds 3.
    assert _stored(game) == [(4, 1), (20, 2), (23, 3)]


def test_a_night_moved_to_another_date_moves_its_games_on_the_player_pages(session: Any) -> None:
    """The kept seat results of a game carry its night's date: after the night moves, the
    player page's games and chart show the new date (not the one kept with the results)."""
    club = Club()
    club.apply(("record", 0, [5, 9, 12]))
    club.apply(("finish", 0, [0]))
    league = club.league()
    player = leagues.league_players(league)[0]
    assert [day for day, _ in player_report(league, player).chart_points] == [date(2025, 1, 2)]
    club.apply(("move_night", 0, [1]))
    league = club.league()
    assert [day for day, _ in player_report(league, player).chart_points] == [date(2025, 1, 22)]
    check_league(club.code)

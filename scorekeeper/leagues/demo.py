"""A realistic demo league: weekly nights, several tables, a roster with regulars and
occasional guests, players of different strength. Deterministic for a given seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import insert

from scorekeeper.extensions import db
from scorekeeper.leagues import bulk, services
from scorekeeper.models import League, Player, Season
from scorekeeper.rules import HouseRules, engine_schedule

FIRST_NAMES = (
    "Ann", "Bob", "Carol", "Dave", "Edna", "Frank", "Gail", "Hank", "Iris", "Jim", "Kath",
    "Len", "Mabel", "Ned", "Olive", "Pete", "Queenie", "Ray", "Sue", "Ted", "Una", "Vic",
    "Wendy", "Walt", "Yvonne", "Zach", "Agnes", "Bert", "Cora", "Dot", "Ernie", "Flo",
    "Gus", "Hazel", "Ivan", "June", "Ken", "Lil", "Moe", "Nell",
)  # fmt: skip
SURNAMES = "ABCDEFGHJKLMNPRSTW"
# The demo league (``flask seed-demo``, for whoever runs the server): made-up data stored in
# the database, as a club would type it.
HALL = "Community hall"  # i18n: demo data stored in the database
PLACES = (HALL, HALL, HALL, "The Crown", "Library room")  # i18n: demo data in the database
DEMO_PASSPHRASE = "demo train 2025"


@dataclass(frozen=True)
class DemoLeague:
    league: League
    written: bulk.Written
    passphrase: str


def _roster_names(count: int, rng: random.Random) -> list[str]:
    names: list[str] = []
    for index in range(count):
        first = FIRST_NAMES[index % len(FIRST_NAMES)]
        surname = SURNAMES[(index * 7 + rng.randrange(len(SURNAMES))) % len(SURNAMES)]
        names.append(f"{first} {surname}." if index >= len(FIRST_NAMES) // 2 else first)
    return names


def seed_demo(
    nights: int = 260,
    tables: int = 3,
    players: int = 6,
    seed: int = 1,
    start: date = date(2021, 1, 7),
    name: str = "Thursday Train Club",  # i18n: demo data stored in the database
    passphrase: str = DEMO_PASSPHRASE,
    device: str = "demo",
) -> DemoLeague:
    """Build the demo league: ``nights`` weekly nights from ``start``, each with ``tables``
    tables of ``players`` players playing a full double-12 game (13 rounds)."""
    if nights < 1 or tables < 1 or not 2 <= players <= 8:
        raise ValueError("Use at least 1 night and 1 table, and 2 to 8 players a table.")
    rng = random.Random(seed)
    league = services.create_league(name, passphrase, device)
    rules = HouseRules()
    league.rules = rules.to_dict()
    seats = tables * players
    roster_size = max(seats + 2, round(seats * 4 / 3))
    names = _roster_names(roster_size, rng)
    player_ids = db.session.scalars(
        insert(Player).returning(Player.id, sort_by_parameter_order=True),
        [{"name": n, "league_id": league.id, "is_guest": False} for n in names],
    ).all()
    # Skill scales how many points a player is left holding; attendance how often they come.
    skill = {pid: rng.uniform(0.75, 1.3) for pid in player_ids}
    attendance = {pid: rng.uniform(0.55, 0.97) for pid in player_ids}
    schedule = engine_schedule(rules)
    guest_number = 0
    specs: list[bulk.NightSpec] = []
    for week in range(nights):
        played_on = start + timedelta(weeks=week)
        coming = [pid for pid in player_ids if rng.random() < attendance[pid]]
        rng.shuffle(coming)
        others = [pid for pid in player_ids if pid not in coming]
        rng.shuffle(others)
        present = (coming + others)[:seats]
        if rng.random() < 0.06:  # now and then a guest takes a seat
            guest_number += 1
            guest_id = db.session.scalars(
                insert(Player).returning(Player.id),
                [{"name": f"Guest {guest_number}", "league_id": league.id, "is_guest": True}],
            ).one()
            skill[guest_id] = rng.uniform(0.9, 1.4)
            present[-1] = guest_id
        rng.shuffle(present)
        night = bulk.NightSpec(played_on=played_on, place=rng.choice(PLACES))
        for table in range(tables):
            at_table = present[table * players : (table + 1) * players]
            night.games.append(_game(table, at_table, league, schedule, skill, rng))
        specs.append(night)
    written = bulk.write_nights(league.id, specs, device)
    _add_seasons(league, start.year, (start + timedelta(weeks=nights - 1)).year)
    db.session.flush()
    return DemoLeague(league=league, written=written, passphrase=passphrase)


def _game(
    table: int,
    at_table: list[int],
    league: League,
    schedule: list[int],
    skill: dict[int, float],
    rng: random.Random,
) -> bulk.GameSpec:
    """A full game of the demo at table number ``table`` (from 0)."""
    return bulk.GameSpec(
        table_name=f"Table {table + 1}",
        players=at_table,
        rounds=[_round(engine, at_table, skill, rng) for engine in schedule],
        rules=league.rules,
    )


def _add_seasons(league: League, first_year: int, last_year: int) -> None:
    """A season a calendar year, from the first night's year to the last's."""
    for year in range(first_year, last_year + 1):
        db.session.add(
            Season(
                league_id=league.id,
                name=str(year),
                starts_on=date(year, 1, 1),
                ends_on=date(year, 12, 31),
            )
        )


def _round(
    engine: int, at_table: list[int], skill: dict[int, float], rng: random.Random
) -> bulk.RoundSpec:
    if rng.random() < 0.07:
        went_out = None  # blocked: everyone counts their hand
    else:
        weights = [1 / skill[pid] ** 2 for pid in at_table]
        went_out = rng.choices(range(len(at_table)), weights=weights)[0]
    scores = []
    for position, pid in enumerate(at_table):
        if position == went_out:
            scores.append(bulk.ScoreSpec(points=0))
        else:
            points = max(1, min(180, round(rng.gammavariate(2.2, 8.5 * skill[pid]))))
            scores.append(bulk.ScoreSpec(points=points))
    return bulk.RoundSpec(engine=engine, scores=scores, went_out=went_out)

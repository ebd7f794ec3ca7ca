"""The checks of an import's whole games, once every row is read: not already imported, every
player in every round, rounds 1..n, a playable number of players, at most one player out a
round, one engine a round."""

from __future__ import annotations

from collections import defaultdict

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.leagues import services
from scorekeeper.leagues.transfer.plan import PlannedGame, PlannedNight, Problem
from scorekeeper.models import Game, League, Night, Player
from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import VARIANTS, default_game
from scorekeeper.rules.names import name_key


def check_whole_games(
    league: League,
    nights: list[PlannedNight],
    rules: HouseRules,
    by_name: dict[str, Player],
    problems: list[Problem],
    refused: set[tuple[str, str, str]],
) -> None:
    """Whole games: not already imported, every player in every round, rounds 1..n, a playable
    number of players, at most one player out a round, one engine a round. A score missing
    because its own line could not be read is not reported again (``refused``)."""
    existing_nights = {
        (night.played_on, night.place.casefold()): night
        for night in db.session.scalars(select(Night).where(Night.league_id == league.id))
    }
    existing_tables: dict[int, set[str]] = defaultdict(set)
    for night_id, table_name in db.session.execute(
        select(Game.night_id, Game.table_name)
        .join(Night, Night.id == Game.night_id)
        .where(Night.league_id == league.id)
    ):
        existing_tables[night_id].add((table_name or "").casefold())

    for night in nights:
        found = existing_nights.get((night.played_on, night.place.casefold()))
        night.existing_id = found.id if found is not None else None
        for game in night.games:
            where = _(
                "%(table)s on %(day)s", table=game.table, day=services.day_text(night.played_on)
            )
            if found is not None and game.table.casefold() in existing_tables[found.id]:
                problems.append(
                    Problem(
                        game.first_line,
                        _(
                            "%(game)s is already in this league (was this file imported before?).",
                            game=where,
                        ),
                    )
                )
            _check_game(game, where, rules, by_name, problems, refused)


def _check_game(
    game: PlannedGame,
    where: str,
    rules: HouseRules,
    by_name: dict[str, Player],
    problems: list[Problem],
    refused: set[tuple[str, str, str]],
) -> None:
    numbers = sorted(game.rounds)
    if numbers != list(range(1, len(numbers) + 1)):
        gap = next(n for n in range(1, len(numbers) + 2) if n not in game.rounds)
        problems.append(
            Problem(game.first_line, _("%(game)s: round %(n)s is missing.", game=where, n=gap))
        )
    if len(game.players) < 2:
        problems.append(Problem(game.first_line, _("%(game)s has only one player.", game=where)))
    else:
        _check_table_size(game, where, rules, problems)
    _check_merged_names(game, where, by_name, problems)
    # A late joiner (the file gives their start, as the export does) has no score before the
    # round they sat down in, and sits after the players who were there before them.
    joined = {
        player: min((n for n in numbers if player in game.rounds[n]), default=len(numbers) + 1)
        for player in game.players
    }
    order = [joined.get(player, 1) for player in game.players]
    if order != sorted(order):
        problems.append(
            Problem(
                game.first_line,
                _("%(game)s: a player who joined late is listed before others.", game=where),
            )
        )
    for number in numbers:
        _check_round(game, number, where, joined, problems, refused)


def _check_table_size(
    game: PlannedGame, where: str, rules: HouseRules, problems: list[Problem]
) -> None:
    """The game's set deals to this many players (under the game's own rules, when given)."""
    variant = VARIANTS[game.kind]
    game_rules = rules if variant is default_game() else variant.adopt(rules)
    if game.rules is not None:
        game_rules = HouseRules.from_dict(game.rules)
    try:
        variant.deal_plan(len(game.players), game_rules)
    except ValueError:
        problems.append(
            Problem(
                game.first_line,
                _(
                    "%(game)s has %(n)s players, too many for the set of %(variant)s.",
                    game=where,
                    n=len(game.players),
                    variant=variant.label,
                ),
            )
        )


def _check_merged_names(
    game: PlannedGame, where: str, by_name: dict[str, Player], problems: list[Problem]
) -> None:
    """No two names of the game lead to the same player of the league (merged entries)."""
    resolved: dict[int, str] = {}
    for player_name in game.players:
        match = by_name.get(name_key(player_name))
        if match is not None and match.merged_into_id is not None:
            match = services.surviving(match)
        if match is not None and match.id in resolved:
            problems.append(
                Problem(
                    game.first_line,
                    _(
                        "%(game)s: %(one)s and %(other)s are the same player in this league "
                        "(merged).",
                        game=where,
                        one=resolved[match.id],
                        other=player_name,
                    ),
                )
            )
        if match is not None:
            resolved[match.id] = player_name


def _check_round(
    game: PlannedGame,
    number: int,
    where: str,
    joined: dict[str, int],
    problems: list[Problem],
    refused: set[tuple[str, str, str]],
) -> None:
    """Round ``number``: a score for every player seated by then (unless its line was refused),
    at most one player out, one engine."""
    scores = game.rounds[number]
    first = min(score.line for score in scores.values())
    absent = [
        p
        for p in game.players
        if p not in scores
        and not (p in game.starts and number < joined.get(p, 1))
        and (game.table.casefold(), p.casefold(), str(number)) not in refused
    ]
    if absent:
        message = _(
            "round %(n)s at %(game)s has no score for %(names)s.",
            n=number,
            game=where,
            names=", ".join(absent),
        )
        problems.append(Problem(first, message))
    out = [p for p, s in scores.items() if s.went_out]
    if len(out) > 1:
        message = _(
            "round %(n)s at %(game)s: %(names)s cannot both go out.",
            n=number,
            game=where,
            names=_("%(first)s and %(last)s", first=", ".join(out[:-1]), last=out[-1]),
        )
        problems.append(Problem(first, message))
    if len({s.engine for s in scores.values()}) > 1:
        message = _("round %(n)s at %(game)s has different engines.", n=number, game=where)
        problems.append(Problem(first, message))

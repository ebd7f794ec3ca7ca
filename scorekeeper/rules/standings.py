"""League standings across nights (rules.md 6): pure maths on plain per-seat game results.

The database hands over one :class:`SeatResult` per player per finished game (the game total,
rounds played, rounds gone out); everything else is worked out here: each player's line
(``rules.player_lines``), ranked by the league's method (``rules.standings_methods``, where
each method is declared once, with its rules).

Places at a table: the lowest game total is 1st; equal totals share a place and the next place
skips (totals 80, 80, 95 -> places 1, 1, 3). Everyone in 1st place has won the game, so
co-winners each get a win.

Numbers are compared as they are shown, to one decimal (rounded half up): two players shown on
85.3 are level, and the tie-break chain decides. Players still level after the whole chain share
the rank, and the next rank skips (1, 2, 2, 4).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.placings import SeatResult
from scorekeeper.rules.player_lines import PlayerLine, player_lines
from scorekeeper.rules.ranking import Criterion, Ranked, rank_by
from scorekeeper.rules.standings_methods import (
    AVERAGE,
    DEFAULT_MIN_GAMES,
    FEWER_GAMES,
    METHOD_REGISTRY,
    MORE_GAMES,
    POINTS,
    RATING,
    WINS,
    Method,
    StandingsMethod,
    UnknownMethod,
    average_kind,
    default_method,
    method_named,
    register_method,
    unregister_method,
)
from scorekeeper.rules.words import _, ngettext

__all__ = [
    "AVERAGE",
    "DEFAULT_MIN_GAMES",
    "FEWER_GAMES",
    "METHOD_REGISTRY",
    "MORE_GAMES",
    "POINTS",
    "RATING",
    "WINS",
    "Method",
    "PlayerLine",
    "Ranked",
    "Standings",
    "StandingsMethod",
    "UnknownMethod",
    "average_kind",
    "default_method",
    "league_note",
    "method_named",
    "method_text",
    "min_games_needed",
    "not_ranked_reason",
    "player_lines",
    "rank_lines",
    "register_method",
    "standings",
    "tie_break_text",
    "unregister_method",
]


# --------------------------------------------------------------------------------------------
# Ranking with a written-down tie-break chain


def league_note(entry: Ranked[PlayerLine]) -> str:
    """A league table's tie note in plain words: which tie-break put the place above ahead
    ("Level on 60.0 with the place above, which goes ahead on more wins: 2 to 1."), and that
    the place is shared when a player beside is level on every tie-break."""
    notes: list[str] = []
    if entry.above is not None:
        step = entry.above.criterion
        notes.append(
            _(
                "Level on %(value)s with the place above, which goes ahead on %(step)s: "
                "%(theirs)s to %(mine)s.",
                value=entry.value,
                step=step.label,
                theirs=entry.above.theirs,
                mine=entry.above.mine,
            )
        )
    if entry.tied:
        notes.append(_("Shares this place with another player, level on every tie-break."))
    return " ".join(notes)


def rank_lines(
    lines: Iterable[PlayerLine],
    chain: Sequence[Criterion[PlayerLine]],
    order: Callable[[Any], Any] | None = None,
) -> list[Ranked[PlayerLine]]:
    """Rank player lines with ``chain`` (the one ranking engine, ``rules.ranking.rank_by``);
    ``order`` orders players within a shared rank."""
    return rank_by(
        lines,
        chain,
        order=(lambda line: order(line.player)) if order else None,
        note=league_note,
    )


def min_games_needed(method: Method, nights_held: int) -> int:
    """Games a player needs to be ranked by average: ``min_games``, or the share of nights held
    (rounded up) when that is more."""
    share = math.ceil(method.min_nights_percent * nights_held / 100)
    return max(method.min_games, share)


def not_ranked_reason(games: int, needed: int) -> str:
    """Why a player is not in the ranking yet: "1 game of the 2 needed to be ranked"."""
    return ngettext(
        "%(num)s game of the %(needed)s needed to be ranked",
        "%(num)s games of the %(needed)s needed to be ranked",
        games,
        needed=needed,
    )


@dataclass(frozen=True)
class Standings:
    """A league table: ranked lines, players not ranked yet (too few games for the average), the
    minimum that applied, the nights held, and the method and tie-breaks in plain words."""

    method: Method
    ranked: list[Ranked]
    unranked: list[PlayerLine]
    min_games: int
    nights_held: int
    method_text: str
    tie_break_text: str


def method_text(method: Method, min_games: int, nights_held: int) -> str:
    """The ranking method in one or two plain sentences."""
    return method.spec.explain(method, min_games, nights_held)


def tie_break_text(method: Method) -> str:
    """The tie-break chain in plain words."""
    steps = [str(criterion.label) for criterion in method.spec.chain[1:]]
    if not steps:
        return _("Players level share the place. Numbers are compared as shown, to one decimal.")
    chain = steps[0]
    for step in steps[1:]:
        chain = _("%(before)s, then %(after)s", before=chain, after=step)
    return _(
        "Ties: %(steps)s. Players still level share the place. Numbers are compared as shown, "
        "to one decimal.",
        steps=chain,
    )


DEFAULT_SETTINGS = Method()  # the default method with its default numbers


def standings(
    results: Sequence[SeatResult],
    method: Method = DEFAULT_SETTINGS,
    *,
    nights_held: int | None = None,
    ratings: Mapping[Hashable, float] | None = None,
    ranked_players: Iterable[Hashable] | None = None,
    order: Callable[[Any], Any] | None = None,
    lines: Mapping[Hashable, PlayerLine] | None = None,
) -> Standings:
    """The league table of ``results`` by ``method`` (see the module docstring for the rules).

    Every result counts for places at its table, but only ``ranked_players`` (default: everyone)
    appear in the table, so guests' games still decide who beat whom. ``nights_held`` defaults
    to the nights in ``results``; ``lines`` are ``player_lines`` of the results under
    ``method`` when the caller has them already.
    """
    spec = method.spec
    if nights_held is None:
        nights_held = len({result.night for result in results})
    left_out = ""
    if spec.counts is not None:
        counted, left_out = spec.counts(results)
        if len(counted) != len(results):
            results, lines = counted, None
    if lines is None:
        lines = player_lines(
            results,
            method.placement_points,
            method.best_nights if spec.best_nights else None,
            ratings,
        )
    if ranked_players is not None:
        wanted = set(ranked_players)
        lines = {player: line for player, line in lines.items() if player in wanted}
    needed = min_games_needed(method, nights_held) if spec.minimum_games else 1
    eligible = [line for line in lines.values() if line.games >= needed]
    waiting = sorted(
        (line for line in lines.values() if line.games < needed),
        key=lambda line: (-line.games, order(line.player) if order else 0),
    )
    return Standings(
        method=method,
        ranked=rank_lines(eligible, spec.chain, order),
        unranked=waiting,
        min_games=needed,
        nights_held=nights_held,
        method_text=method_text(method, needed, nights_held) + left_out,
        tie_break_text=tie_break_text(method),
    )

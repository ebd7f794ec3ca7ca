"""League standings across nights (rules.md 6): pure maths on plain per-seat game results.

The database hands over one :class:`SeatResult` per player per finished game (the game total,
rounds played, rounds gone out); everything else is worked out here.

Places at a table: the lowest game total is 1st; equal totals share a place and the next place
skips (totals 80, 80, 95 -> places 1, 1, 3). Everyone in 1st place has won the game, so
co-winners each get a win.

Ranking methods a league chooses from (default first):

- ``average``: lowest average game total first, among players with at least a minimum number of
  games (``min_games``, default 2; or a share of the nights held, ``min_nights_percent``, when
  that asks for more). Ties: more games played, then more wins.
- ``wins``: most wins first. Ties: fewer games played (the same wins in fewer games is the
  better win rate), then lowest average game total.
- ``points``: most placement points first. Each game gives points by place (default 1st 5,
  2nd 3, 3rd 2, 4th 1, later places 0); players who share a place share the points of the places
  they cover (two tied for 1st get (5 + 3) / 2 = 4 each), so a game hands out the same points
  with or without ties. Points are summed, or only each player's best N nights count
  (``best_nights``, "best N of M nights"). Ties: more wins, then lowest average game total.
- ``rating``: highest skill rating first (the rating itself comes from a rating library and is
  passed in). Ties: more games played, then more wins.

Numbers are compared as they are shown, to one decimal (rounded half up): two players shown on
85.3 are level, and the tie-break chain decides. Players still level after the whole chain share
the rank, and the next rank skips (1, 2, 2, 4).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scorekeeper.rules.games import DEFAULT_KIND
from scorekeeper.rules.placings import (
    DEFAULT_PLACEMENT_POINTS,
    Placing,
    SeatResult,
    placement_points_text,
    placings,
    shown,
)
from scorekeeper.rules.ranking import Criterion, Ranked, rank_by
from scorekeeper.rules.words import LazyText, _, lazy, ngettext, number

# Two games: after a club's second night everyone who came to both is ranked; one game alone
# is not a ranking. (Leagues started before this keep the minimum they stored.)
DEFAULT_MIN_GAMES = 2


@dataclass(frozen=True)
class Method:
    """A league's ranking settings (rules.md 6)."""

    kind: str = "average"
    min_games: int = DEFAULT_MIN_GAMES
    min_nights_percent: int = 0
    placement_points: tuple[int, ...] = DEFAULT_PLACEMENT_POINTS
    best_nights: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in METHOD_REGISTRY:
            raise ValueError(f"Unknown ranking method {self.kind!r}.")
        if self.min_games < 1:
            raise ValueError("The minimum number of games is at least 1.")
        if not 0 <= self.min_nights_percent <= 100:
            raise ValueError("The share of nights is a percentage from 0 to 100.")
        if self.best_nights is not None and self.best_nights < 1:
            raise ValueError("Best N nights needs N of at least 1.")

    @property
    def spec(self) -> StandingsMethod:
        """The declaration of this ranking method (``METHOD_REGISTRY``)."""
        return METHOD_REGISTRY[self.kind]


# --------------------------------------------------------------------------------------------
# A player's line over many games


@dataclass(frozen=True)
class PlayerLine:
    """What a player did over the results given: games, wins, totals, rounds, nights, points."""

    player: Any
    games: int
    wins: int
    total: int
    rounds: int
    went_out: int
    best: int | None
    worst: int | None
    nights: int
    points: Fraction | int
    rating: float | None = None

    @property
    def average(self) -> Fraction | None:
        """Average game total (lower is better)."""
        return Fraction(self.total, self.games) if self.games else None

    @property
    def per_round(self) -> Fraction | None:
        """Average points per round played."""
        return Fraction(self.total, self.rounds) if self.rounds else None

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.games) if self.games else None


def player_lines(
    results: Sequence[SeatResult],
    table: Sequence[int] = DEFAULT_PLACEMENT_POINTS,
    best_nights: int | None = None,
    ratings: Mapping[Hashable, float] | None = None,
    placed: Mapping[tuple[Hashable, Hashable], Placing] | None = None,
) -> dict[Hashable, PlayerLine]:
    """Each player's line. Placement points are summed over all games, or, with ``best_nights``
    N, over the player's N best nights (a night's points are the sum of its games).
    ``placed`` is ``placings(results, table)`` when the caller has it already."""
    if placed is None:
        placed = placings(results, table)
    mine: dict[Hashable, list[SeatResult]] = defaultdict(list)
    for result in results:
        mine[result.player].append(result)
    # Shared places give fractions (two tied for 1st get 8/2, three for 2nd get 6/3 or 5/3):
    # points are added as whole multiples of 1/scale, exactly, and made a Fraction once.
    scale = math.lcm(
        1, *{p.points.denominator for p in placed.values() if isinstance(p.points, Fraction)}
    )
    lines: dict[Hashable, PlayerLine] = {}
    for player, games in mine.items():
        night_points: dict[Hashable, int] = defaultdict(int)
        wins = 0
        for result in games:
            placing = placed[(result.game, player)]
            wins += placing.win
            points = placing.points
            night_points[result.night] += (
                points * scale
                if isinstance(points, int)
                else points.numerator * (scale // points.denominator)
            )
        counted = list(night_points.values())
        if best_nights is not None:
            counted = sorted(counted, reverse=True)[:best_nights]
        summed = sum(counted)
        totals = [result.total for result in games]
        lines[player] = PlayerLine(
            player=player,
            games=len(games),
            wins=wins,
            total=sum(totals),
            rounds=sum(result.rounds for result in games),
            went_out=sum(result.went_out for result in games),
            best=min(totals),
            worst=max(totals),
            nights=len(night_points),
            points=summed // scale if summed % scale == 0 else Fraction(summed, scale),
            rating=ratings.get(player) if ratings is not None else None,
        )
    return lines


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


def _average(line: PlayerLine) -> Decimal:
    value = shown(line.average)
    return value if value is not None else Decimal("Infinity")


def _points(line: PlayerLine) -> Decimal:
    return shown(line.points) or Decimal(0)


def _rating(line: PlayerLine) -> Decimal:
    value = shown(line.rating)
    return value if value is not None else Decimal("-Infinity")


AVERAGE: Criterion[PlayerLine] = Criterion(
    lazy("lowest average game total"), _average, False, lazy("average")
)
WINS: Criterion[PlayerLine] = Criterion(
    lazy("more wins"), lambda line: line.wins, True, lazy("wins")
)
MORE_GAMES: Criterion[PlayerLine] = Criterion(
    lazy("more games played"), lambda line: line.games, True, lazy("games")
)
FEWER_GAMES: Criterion[PlayerLine] = Criterion(
    lazy("fewer games played"), lambda line: line.games, False, lazy("games")
)
POINTS: Criterion[PlayerLine] = Criterion(
    lazy("most placement points"), _points, True, lazy("points")
)
RATING: Criterion[PlayerLine] = Criterion(
    lazy("highest skill rating"), _rating, True, lazy("rating")
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


def _explain_average(method: Method, min_games: int, nights_held: int) -> str:
    text = _(
        "Ranked by average game total: a player's game totals added up and divided by "
        "their number of games. The lowest average leads. An average compares games of one "
        "game type only: the league's most played game where the lowest total wins."
    )
    if method.min_nights_percent:
        need = ngettext(
            "Only players with at least %(num)s game are ranked (%(games)s or %(percent)s%% of "
            "the %(nights)s nights held, whichever is more).",
            "Only players with at least %(num)s games are ranked (%(games)s or %(percent)s%% "
            "of the %(nights)s nights held, whichever is more).",
            min_games,
            games=method.min_games,
            percent=method.min_nights_percent,
            nights=nights_held,
        )
    else:
        need = ngettext(
            "Only players with at least %(num)s game are ranked.",
            "Only players with at least %(num)s games are ranked.",
            min_games,
        )
    return f"{text} {need}"


def _explain_wins(method: Method, min_games: int, nights_held: int) -> str:
    return _(
        "Ranked by wins: the lowest total at a table wins the game; players who tie for "
        "the lowest total each get a win."
    )


def _explain_points(method: Method, min_games: int, nights_held: int) -> str:
    points = placement_points_text(method.placement_points)
    text = _(
        "Ranked by placement points, for every game: %(points)s. Players who tie at a table "
        "share the points of the places they cover.",
        points=points,
    )
    if method.best_nights:
        counted = _(
            "Only each player's best %(best)s nights count (best %(best)s of %(nights)s).",
            best=method.best_nights,
            nights=nights_held,
        )
    else:
        counted = _("Every game counts.")
    return f"{text} {counted}"


def _explain_rating(method: Method, min_games: int, nights_held: int) -> str:
    text = _(
        "Ranked by skill rating: everyone starts equal, and after every game the rating moves "
        "by where you finished and how strong the others at your table were (beating strong "
        "players counts for more). The rating shown is a careful estimate: it starts low and "
        "grows as you play more games and your level becomes clearer."
    )
    ties = _("A tie with someone counts as half a win against them.")  # rules/rating.py
    return f"{text} {ties}"


@dataclass(frozen=True)
class StandingsMethod:
    """A way to rank a league, declared once: its name (stored with the league), its label and
    one-line choice for the settings form, its ranking chain (the first criterion ranks, the
    others break ties), how a value is shown ("12 wins"), how it is explained in words, and
    what it needs: a minimum number of games, best-N-nights placement points, ratings."""

    name: str
    label: LazyText  # declared with ``lazy``: worded when shown
    choice: LazyText
    chain: tuple[Criterion[PlayerLine], ...]
    unit: str  # "average", "win", "points", "rating": a key, worded by ``value_text``
    explain: Callable[[Method, int, int], str]
    minimum_games: bool = False
    best_nights: bool = False
    ratings: bool = False

    def value_text(self, value: Any) -> str:
        """A ranking value in words: "average 85.3", "12 wins", "24 points", "rating 21.4"."""
        if self.unit == "win":
            return ngettext("%(num)s win", "%(num)s wins", value)
        if self.unit == "points":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            return _("%(points)s points", points=number(value))
        if self.unit == "average":
            return _("average %(value)s", value=number(value))
        return _("rating %(value)s", value=number(value))


METHOD_REGISTRY: Mapping[str, StandingsMethod] = {
    method.name: method
    for method in (
        StandingsMethod(
            "average",
            lazy("Average game total"),
            lazy(
                "Average game total (lowest first), with a minimum number of games; one game "
                "type only (wins, placement points and the rating count every game)"
            ),
            (AVERAGE, MORE_GAMES, WINS),
            "average",
            _explain_average,
            minimum_games=True,
        ),
        StandingsMethod(
            "wins",
            lazy("Wins"),
            lazy("Wins (a shared win counts for each co-winner)"),
            (WINS, FEWER_GAMES, AVERAGE),
            "win",
            _explain_wins,
        ),
        StandingsMethod(
            "points",
            lazy("Placement points"),
            lazy("Placement points for every game, summed or best nights only"),
            (POINTS, WINS, AVERAGE),
            "points",
            _explain_points,
            best_nights=True,
        ),
        StandingsMethod(
            "rating",
            lazy("Skill rating"),
            lazy("Skill rating: where you finished, and against whom"),
            (RATING, MORE_GAMES, WINS),
            "rating",
            _explain_rating,
            ratings=True,
        ),
    )
}
CHAINS: Mapping[str, tuple[Criterion[PlayerLine], ...]] = {
    name: method.chain for name, method in METHOD_REGISTRY.items()
}


def method_text(method: Method, min_games: int, nights_held: int) -> str:
    """The ranking method in one or two plain sentences."""
    return METHOD_REGISTRY[method.kind].explain(method, min_games, nights_held)


METHODS = tuple(METHOD_REGISTRY)
METHOD_NAMES: Mapping[str, LazyText] = {name: m.label for name, m in METHOD_REGISTRY.items()}


def tie_break_text(method: Method) -> str:
    """The tie-break chain in plain words."""
    steps = [str(criterion.label) for criterion in CHAINS[method.kind][1:]]
    chain = steps[0]
    for step in steps[1:]:
        chain = _("%(before)s, then %(after)s", before=chain, after=step)
    return _(
        "Ties: %(steps)s. Players still level share the place. Numbers are compared as shown, "
        "to one decimal.",
        steps=chain,
    )


def average_kind(results: Iterable[SeatResult]) -> str | None:
    """The game type the average method ranks on: the most played game where the lowest total
    wins (Mexican Train when level); None when there is none."""
    counts = Counter(r.kind for r in results if not r.higher_wins)
    if not counts:
        return None
    return max(counts, key=lambda kind: (counts[kind], kind == DEFAULT_KIND))


def _label(kind: str | None) -> str | None:
    from scorekeeper.rules.games import VARIANTS  # the variants import the ranking engine

    variant = VARIANTS.get(kind or "")
    return str(variant.label) if variant else None


def standings(
    results: Sequence[SeatResult],
    method: Method = Method(),
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
    if nights_held is None:
        nights_held = len({result.night for result in results})
    left_out = ""
    if method.kind == "average":
        kind = average_kind(results)
        counted = [r for r in results if r.kind == kind and not r.higher_wins]
        if len(counted) != len(results):
            games_out = len({r.game for r in results}) - len({r.game for r in counted})
            label = _label(kind)
            if label is None:
                left_out = " " + ngettext(
                    "Only no games count here; %(num)s game of other types is left out.",
                    "Only no games count here; %(num)s games of other types are left out.",
                    games_out,
                )
            else:
                left_out = " " + ngettext(
                    "Only %(game)s games count here; %(num)s game of other types is left out.",
                    "Only %(game)s games count here; %(num)s games of other types are left out.",
                    games_out,
                    game=label,
                )
            results, lines = counted, None
        whole = [r for r in results if r.whole]
        if len(whole) != len(results):
            short = len({r.game for r in results}) - len({r.game for r in whole})
            left_out += " " + ngettext(
                "%(num)s game ended before the last round is left out: a short game's total is "
                "not comparable (wins, placement points and the rating count it).",
                "%(num)s games ended before the last round are left out: a short game's total "
                "is not comparable (wins, placement points and the rating count it).",
                short,
            )
            results, lines = whole, None
    if lines is None:
        lines = player_lines(
            results,
            method.placement_points,
            method.best_nights if method.spec.best_nights else None,
            ratings,
        )
    if ranked_players is not None:
        wanted = set(ranked_players)
        lines = {player: line for player, line in lines.items() if player in wanted}
    needed = min_games_needed(method, nights_held) if method.spec.minimum_games else 1
    eligible = [line for line in lines.values() if line.games >= needed]
    waiting = sorted(
        (line for line in lines.values() if line.games < needed),
        key=lambda line: (-line.games, order(line.player) if order else 0),
    )
    return Standings(
        method=method,
        ranked=rank_lines(eligible, CHAINS[method.kind], order),
        unranked=waiting,
        min_games=needed,
        nights_held=nights_held,
        method_text=method_text(method, needed, nights_held) + left_out,
        tie_break_text=tie_break_text(method),
    )

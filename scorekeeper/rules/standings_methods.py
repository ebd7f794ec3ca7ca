"""The ways a league can be ranked (rules.md 6), each declared once as a ``StandingsMethod``.

A method says everything about itself: its name (stored with the league), its label and its
line in the settings form, its ranking chain (the first criterion ranks, the others break
ties), how its value is written ("85.3 average", "12 wins") and headed ("Average"), which of a
player's facts are shown beside it, how it is explained in words, and what it needs (a minimum
number of games, best-N-nights placement points, ratings; the average also narrows the games
that count). The settings form, the standings page and its print view, the player page, the
league list and the exports all ask the method; nothing else names one. ``METHOD_REGISTRY``
holds them, the league's default first; ``register_method`` adds one (a test's toy method).

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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scorekeeper.rules.games import DEFAULT_KIND, VARIANTS
from scorekeeper.rules.placings import (
    DEFAULT_PLACEMENT_POINTS,
    SeatResult,
    placement_points_text,
    shown,
)
from scorekeeper.rules.player_lines import PlayerLine
from scorekeeper.rules.ranking import Criterion
from scorekeeper.rules.words import LazyText, _, lazy, ngettext, number

# Two games: after a club's second night everyone who came to both is ranked; one game alone
# is not a ranking. (Leagues started before this keep the minimum they stored.)
DEFAULT_MIN_GAMES = 2


class UnknownMethod(ValueError):
    """A ranking method no declaration has; the message says so in plain words."""


@dataclass(frozen=True)
class Method:
    """A league's ranking settings (rules.md 6): the method's name and the numbers it uses."""

    kind: str = "average"
    min_games: int = DEFAULT_MIN_GAMES
    min_nights_percent: int = 0
    placement_points: tuple[int, ...] = DEFAULT_PLACEMENT_POINTS
    best_nights: int | None = None

    def __post_init__(self) -> None:
        method_named(self.kind)  # raises UnknownMethod
        if self.min_games < 1:
            raise ValueError("The minimum number of games is at least 1.")
        if not 0 <= self.min_nights_percent <= 100:
            raise ValueError("The share of nights is a percentage from 0 to 100.")
        if self.best_nights is not None and self.best_nights < 1:
            raise ValueError("Best N nights needs N of at least 1.")

    @property
    def spec(self) -> StandingsMethod:
        """The declaration of this ranking method (``METHOD_REGISTRY``)."""
        return method_named(self.kind)


# --------------------------------------------------------------------------------------------
# What the methods rank on, and the facts shown beside a value


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


def whole(value: Any) -> str:
    """A number without a bare ".0" (24.0 -> "24", 10.5 -> "10.5"), the language's way."""
    if isinstance(value, Decimal | float) and value == int(value):
        value = int(value)
    return number(value)


@dataclass(frozen=True)
class Fact:
    """One of a player's facts shown beside the ranking value: a column heading ("Games"),
    the number for a column, the fact in words for a line ("5 games")."""

    heading: LazyText
    number: Callable[[PlayerLine], str]
    text: Callable[[PlayerLine], str]


GAMES_FACT = Fact(
    lazy("Games"),
    lambda line: number(line.games),
    lambda line: ngettext("%(num)s game", "%(num)s games", line.games),
)
WINS_FACT = Fact(
    lazy("Wins"),
    lambda line: number(line.wins),
    lambda line: ngettext("%(num)s win", "%(num)s wins", line.wins),
)
AVERAGE_FACT = Fact(
    lazy("Average"),
    lambda line: number(shown(line.average)),
    lambda line: _("average %(value)s", value=number(shown(line.average))),
)


# --------------------------------------------------------------------------------------------
# A method, declared once


@dataclass(frozen=True)
class StandingsMethod:
    """A way to rank a league, declared once (see the module docstring).

    ``heading``, ``unit`` and ``words`` write its value: the value's column heading and its
    name among a player's facts ("Points"); the word under the number on the standings page
    ("points", by the value for plurals); the value in a sentence ("24 points"). ``write``
    writes the number itself (one decimal as ranked, or ``whole`` for points). ``facts`` are
    the player's facts shown beside the value; ``player_fact`` lists the value among the
    player's facts on the player page (False when the page always shows it: wins, average).
    ``counts`` narrows the results that count and says in a sentence what it left out."""

    name: str
    label: LazyText  # declared with ``lazy``: worded when shown
    choice: LazyText
    chain: tuple[Criterion[PlayerLine], ...]
    heading: LazyText
    unit: Callable[[Any], str]
    words: Callable[[Any], str]
    explain: Callable[[Method, int, int], str]
    write: Callable[[Any], str] = number
    facts: tuple[Fact, ...] = (GAMES_FACT, WINS_FACT, AVERAGE_FACT)
    player_fact: bool = True
    counts: Callable[[Sequence[SeatResult]], tuple[Sequence[SeatResult], str]] | None = None
    minimum_games: bool = False
    best_nights: bool = False
    ratings: bool = False

    def value_text(self, value: Any) -> str:
        """A ranking value in words: "average 85.3", "12 wins", "24 points", "rating 21.4"."""
        return self.words(value)

    def line_value(self, line: PlayerLine) -> Any:
        """The value a player's line is ranked on (the first criterion's)."""
        return self.chain[0].value(line)


METHOD_REGISTRY: dict[str, StandingsMethod] = {}


def register_method(method: StandingsMethod) -> StandingsMethod:
    """Add ``method`` to the ways a league can be ranked (after those already there)."""
    if method.name in METHOD_REGISTRY:
        raise ValueError(f"A standings method is already called {method.name!r}.")
    METHOD_REGISTRY[method.name] = method
    return method


def unregister_method(name: str) -> None:
    """Take a method out again (a test's toy method)."""
    METHOD_REGISTRY.pop(name, None)


def method_named(name: str) -> StandingsMethod:
    """The method called ``name``; raises ``UnknownMethod`` with a sentence when none is."""
    method = METHOD_REGISTRY.get(name)
    if method is None:
        raise UnknownMethod(
            _(
                "“%(name)s” is not a ranking method this app knows. Choose one of: %(methods)s.",
                name=name,
                methods=", ".join(str(m.label) for m in METHOD_REGISTRY.values()),
            )
        )
    return method


def default_method() -> StandingsMethod:
    """The method a new league is ranked by: the first declared."""
    return next(iter(METHOD_REGISTRY.values()))


# --------------------------------------------------------------------------------------------
# The four methods


def average_kind(results: Iterable[SeatResult]) -> str | None:
    """The game type the average method ranks on: the most played game where the lowest total
    wins (Mexican Train when level); None when there is none."""
    counts = Counter(r.kind for r in results if not r.higher_wins)
    if not counts:
        return None
    return max(counts, key=lambda kind: (counts[kind], kind == DEFAULT_KIND))


def _label(kind: str | None) -> str | None:
    variant = VARIANTS.get(kind or "")
    return str(variant.label) if variant else None


def _one_kind(results: Sequence[SeatResult]) -> tuple[Sequence[SeatResult], str]:
    """The games of the average's one game type, and what was left out."""
    kind = average_kind(results)
    counted = [r for r in results if r.kind == kind and not r.higher_wins]
    if len(counted) == len(results):
        return results, ""
    games_out = len({r.game for r in results}) - len({r.game for r in counted})
    label = _label(kind)
    if label is None:
        return counted, " " + ngettext(
            "Only no games count here; %(num)s game of other types is left out.",
            "Only no games count here; %(num)s games of other types are left out.",
            games_out,
        )
    return counted, " " + ngettext(
        "Only %(game)s games count here; %(num)s game of other types is left out.",
        "Only %(game)s games count here; %(num)s games of other types are left out.",
        games_out,
        game=label,
    )


def _average_counts(results: Sequence[SeatResult]) -> tuple[Sequence[SeatResult], str]:
    """An average compares whole games of one game type: the others are left out, and said."""
    results, left_out = _one_kind(results)
    whole_games = [r for r in results if r.whole]
    if len(whole_games) != len(results):
        short = len({r.game for r in results}) - len({r.game for r in whole_games})
        left_out += " " + ngettext(
            "%(num)s game ended before the last round is left out: a short game's total is "
            "not comparable (wins, placement points and the rating count it).",
            "%(num)s games ended before the last round are left out: a short game's total "
            "is not comparable (wins, placement points and the rating count it).",
            short,
        )
        results = whole_games
    return results, left_out


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


register_method(
    StandingsMethod(
        "average",
        lazy("Average game total"),
        lazy(
            "Average game total (lowest first), with a minimum number of games; one game "
            "type only (wins, placement points and the rating count every game)"
        ),
        (AVERAGE, MORE_GAMES, WINS),
        heading=lazy("Average"),
        unit=lambda value: _("average"),
        words=lambda value: _("average %(value)s", value=number(value)),
        explain=_explain_average,
        facts=(GAMES_FACT, WINS_FACT),
        player_fact=False,  # "Average game"
        counts=_average_counts,
        minimum_games=True,
    )
)
register_method(
    StandingsMethod(
        "wins",
        lazy("Wins"),
        lazy("Wins (a shared win counts for each co-winner)"),
        (WINS, FEWER_GAMES, AVERAGE),
        heading=lazy("Wins"),
        unit=lambda value: ngettext("win", "wins", value),
        words=lambda value: ngettext("%(num)s win", "%(num)s wins", value),
        explain=_explain_wins,
        facts=(GAMES_FACT, AVERAGE_FACT),
        player_fact=False,  # "Wins"
    )
)
register_method(
    StandingsMethod(
        "points",
        lazy("Placement points"),
        lazy("Placement points for every game, summed or best nights only"),
        (POINTS, WINS, AVERAGE),
        heading=lazy("Points"),
        unit=lambda value: _("points"),
        words=lambda value: _("%(points)s points", points=whole(value)),
        explain=_explain_points,
        write=whole,
        best_nights=True,
    )
)
register_method(
    StandingsMethod(
        "rating",
        lazy("Skill rating"),
        lazy("Skill rating: where you finished, and against whom"),
        (RATING, MORE_GAMES, WINS),
        heading=lazy("Rating"),
        unit=lambda value: _("rating"),
        words=lambda value: _("rating %(value)s", value=number(value)),
        explain=_explain_rating,
        ratings=True,
    )
)

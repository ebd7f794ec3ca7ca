"""Ranking: the one engine behind a table's ranks (rules.md 2.4) and a league's standings (6).

Standard competition ranking: things equal on every step of the chain share a rank and the next
rank skips (1, 1, 3). A chain is a list of criteria: the first ranks, the later ones break ties
in order. Mexican Train ranks the lowest total first; the points games of rules.md 5 rank the
highest first (``lower_is_better=False``).

The engine (``rank_by``) says, for each place, which criterion decided it against the place
above and the place below; a table and a league put that into words differently
(``game_note`` here, ``league_note`` in ``rules.standings``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from scorekeeper.rules.house import HouseRules
from scorekeeper.rules.words import _, number

P = TypeVar("P", bound=Hashable)
T = TypeVar("T")
Number = int | float

_DEFAULT_RULES = HouseRules()


@dataclass(frozen=True)
class Criterion(Generic[T]):
    """One step of a ranking: ``label`` in plain words ("more wins"), the value it compares,
    and whether higher is better. ``name`` is what the value is called in a note: "wins" in
    "ahead on wins: 5 to 3"."""

    label: str
    value: Callable[[T], Any]
    higher_is_better: bool
    name: str = ""


@dataclass(frozen=True)
class Decision:
    """How a tie on the first criterion was decided against a neighbouring place: by
    ``criterion``, this place's value ``mine`` against the neighbour's ``theirs``."""

    criterion: Criterion[Any]
    mine: Any
    theirs: Any


class Ranked(NamedTuple, Generic[T]):
    """A ranked thing: ``rank`` is shared by things level on the whole chain (``tied``);
    ``value`` is the first criterion's value; ``above`` / ``below`` say how a tie on it with
    the neighbouring place was decided (None: no tie there); ``note`` puts it into words."""

    item: T
    rank: int
    tied: bool
    value: Any
    above: Decision | None = None
    below: Decision | None = None
    note: str = ""

    @property
    def line(self) -> T:
        """The league's name for the ranked item (a ``PlayerLine``)."""
        return self.item


# Ranked, Standing and GameLine are named tuples: a scoreboard ranks its players twice (now
# and before the last round) and a league every player, and a tuple is made several times
# faster than a frozen dataclass, and is as unchangeable.


def _refine(
    block: list[T], chain: Sequence[Criterion[T]], index: int
) -> tuple[list[list[T]], list[int]]:
    """Split a block level on ``chain[:index]`` by the criteria from ``index`` on. Returns the
    ordered groups and, for each boundary between consecutive groups, the index of the criterion
    that decided it. A criterion with no value (None) for someone in the block is skipped for
    that block: missing data decides nothing."""
    if len(block) == 1 or index >= len(chain):
        return [block], []
    criterion = chain[index]
    values = [criterion.value(item) for item in block]
    if any(value is None for value in values):
        return _refine(block, chain, index + 1)
    groups: list[list[T]] = []
    boundaries: list[int] = []
    for position, value in enumerate(sorted(set(values), reverse=criterion.higher_is_better)):
        sub_groups, sub_boundaries = _refine(
            [item for item, mine in zip(block, values, strict=True) if mine == value],
            chain,
            index + 1,
        )
        if position:
            boundaries.append(index)
        groups.extend(sub_groups)
        boundaries.extend(sub_boundaries)
    return groups, boundaries


def rank_by(
    items: Iterable[T],
    chain: Sequence[Criterion[T]],
    order: Callable[[T], Any] | None = None,
    note: Callable[[Ranked[T]], str] | None = None,
) -> list[Ranked[T]]:
    """Rank ``items`` by ``chain[0]``, breaking ties by the later criteria in order. Items equal
    on every criterion share a rank and the next rank skips. ``order`` only orders items within
    a shared rank (for display, such as by name); ``note`` words each place's ties."""
    listed = list(items)
    if order is not None:
        listed.sort(key=order)
    groups, boundaries = _refine(listed, chain, 0) if listed else ([], [])

    def decided(mine: T, theirs: T, boundary: int) -> Decision | None:
        if boundary == 0:  # apart on the first criterion: no tie to break
            return None
        criterion = chain[boundary]
        return Decision(criterion, criterion.value(mine), criterion.value(theirs))

    ranked: list[Ranked[T]] = []
    place = 1
    for index, group in enumerate(groups):
        first = group[0]
        above = decided(first, groups[index - 1][0], boundaries[index - 1]) if index else None
        below = (
            decided(first, groups[index + 1][0], boundaries[index])
            if index + 1 < len(groups)
            else None
        )
        tied = len(group) > 1
        for item in group:
            entry = Ranked(item, place, tied, chain[0].value(item), above, below)
            if note is not None:
                entry = Ranked(item, place, tied, entry.value, above, below, note(entry))
            ranked.append(entry)
        place += len(group)
    return ranked


def rank_values(values: Mapping[P, Number], lower_is_better: bool = True) -> dict[P, int]:
    """Standard competition ranks of ``values``: equal values share a rank, the next rank skips
    (totals 10, 10, 12 -> ranks 1, 1, 3)."""
    value = Criterion("value", lambda player: values[player], not lower_is_better)
    return {entry.item: entry.rank for entry in rank_by(values, [value])}


# --------------------------------------------------------------------------------------------
# A game's table


class Standing(NamedTuple):
    """One line of a game's ranking: ``rank`` is shared by tied players (``tied`` True); ``note``
    says how a tie was broken or that it stands ("" when there was no tie)."""

    player: Any
    total: Number
    rank: int
    tied: bool
    note: str = ""


class GameLine(NamedTuple):
    """What the game's tie-break chain compares for one player."""

    player: Any
    total: Number
    went_out: int
    worst: Number | None  # None: no rounds known for this player
    final: Number | None
    zeros: int | None = None  # rounds with 0 points (None: no rounds known)
    lowest_nonzero: Number | None = None  # the best round that was not 0


def _fmt(value: Any) -> str:
    """A total or a tie-break value in the player's language: 40, "17,5" (a whole 40.0: 40)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return number(value)


def game_chain(
    rules: HouseRules,
    has_rounds: bool,
    has_went_out: bool,
    lower_is_better: bool = True,
) -> list[Criterion[GameLine]]:
    """A game's ranking chain (rules.md 2.4): the total; then, when ``rules.tie_break`` is
    "chain", most rounds gone out, the lowest worst round and the lowest final round (the
    highest for points games); when it is "zero_rounds" (a club's chain), most rounds with 0
    points, then the lowest round that was not 0; leaving out steps whose data is missing."""
    chain: list[Criterion[GameLine]] = [
        Criterion(_("total"), lambda line: line.total, not lower_is_better, _("total"))
    ]
    if rules.tie_break == "zero_rounds":
        if has_rounds:
            chain.append(
                Criterion(
                    _("most rounds with 0 points"),
                    lambda line: line.zeros,
                    True,
                    _("rounds with 0"),
                )
            )
            chain.append(
                Criterion(
                    _("lowest round that was not 0"),
                    lambda line: line.lowest_nonzero,
                    not lower_is_better,
                    _("lowest round that was not 0"),
                )
            )
        return chain
    if rules.tie_break != "chain":
        return chain
    if has_went_out:
        chain.append(
            Criterion(
                _("most rounds gone out"), lambda line: line.went_out, True, _("rounds gone out")
            )
        )
    if has_rounds:
        chain.append(
            Criterion(
                _("lowest worst round"),
                lambda line: line.worst,
                not lower_is_better,
                _("worst round"),
            )
        )
        chain.append(
            Criterion(
                _("lowest final round"),
                lambda line: line.final,
                not lower_is_better,
                _("final round"),
            )
        )
    return chain


def game_note(entry: Ranked[GameLine], chain_rule: bool) -> str:
    """A table's tie note: "tied on 40" (co-winners), or with the chain "tied on 40; ahead on
    rounds gone out: 3 to 1", and "tied on 40 after every tie-break" when it still stands."""
    total = _fmt(entry.item.total)
    if not chain_rule:
        return _("tied on %(total)s", total=total) if entry.tied else ""
    notes = []
    if entry.above:
        notes.append(
            _(
                "behind on %(what)s: %(mine)s to %(theirs)s",
                what=entry.above.criterion.name,
                mine=_fmt(entry.above.mine),
                theirs=_fmt(entry.above.theirs),
            )
        )
    if entry.below:
        notes.append(
            _(
                "ahead on %(what)s: %(mine)s to %(theirs)s",
                what=entry.below.criterion.name,
                mine=_fmt(entry.below.mine),
                theirs=_fmt(entry.below.theirs),
            )
        )
    if entry.tied:
        notes.append(_("tied on %(total)s after every tie-break", total=total))
    if not notes:
        return ""
    if entry.tied:
        return "; ".join(notes)
    return _("tied on %(total)s; %(notes)s", total=total, notes="; ".join(notes))


def _lowest_nonzero(scores: Sequence[Number], lower_is_better: bool) -> Number | None:
    """The best round that was not 0 (the lowest; the highest for points games). A player
    with only 0 rounds has none: the step then decides nothing for their tie."""
    others = [score for score in scores if score != 0]
    if not others:
        return None
    return min(others) if lower_is_better else max(others)


def rank_players(
    totals: Mapping[P, Number],
    rules: HouseRules = _DEFAULT_RULES,
    round_scores: Mapping[P, Sequence[Number]] | None = None,
    went_out_counts: Mapping[P, int] | None = None,
    *,
    lower_is_better: bool = True,
) -> list[Standing]:
    """Rank a game's players (rules.md 2.4): the lowest total first (``lower_is_better=False``
    for points games). Tied players share a rank (1, 1, 3) and are co-winners, unless
    ``rules.tie_break`` is "chain": then ties are broken by, in order,

    1. most rounds gone out (``went_out_counts``),
    2. lowest worst round (``round_scores``; the highest single round score is the worst),
    3. lowest final round (the last of ``round_scores``),

    skipping a step whose data is missing. The note says which step decided ("ahead on rounds
    gone out: 3 to 1"); players still level after every step keep sharing the rank.
    """
    values = list(totals.values())
    if len(set(values)) == len(values):
        # Nobody level on the total (most tables, most rounds): the totals alone rank, no tie
        # is broken and there is nothing to note, whatever the chain.
        ordered = sorted(totals, key=totals.__getitem__, reverse=not lower_is_better)
        return [
            Standing(player, totals[player], place, False)
            for place, player in enumerate(ordered, 1)
        ]
    return _rank_by_chain(totals, rules, round_scores, went_out_counts, lower_is_better)


def _rank_by_chain(
    totals: Mapping[P, Number],
    rules: HouseRules,
    round_scores: Mapping[P, Sequence[Number]] | None,
    went_out_counts: Mapping[P, int] | None,
    lower_is_better: bool,
) -> list[Standing]:
    """``rank_players`` through the whole chain (``rank_by``)."""
    # Only what the chain compares is worked out (under co-winners: the totals alone).
    chain_steps = rules.tie_break == "chain"
    zero_steps = rules.tie_break == "zero_rounds"
    lines = []
    for player in totals:
        scores = round_scores.get(player, ()) if round_scores is not None else ()
        lines.append(
            GameLine(
                player,
                totals[player],
                went_out_counts.get(player, 0) if went_out_counts is not None else 0,
                (max(scores) if lower_is_better else min(scores))
                if chain_steps and scores
                else None,
                scores[-1] if chain_steps and scores else None,
                scores.count(0) if zero_steps and scores else None,
                _lowest_nonzero(scores, lower_is_better) if zero_steps else None,
            )
        )
    chain = game_chain(
        rules, round_scores is not None, went_out_counts is not None, lower_is_better
    )
    position = {player: index for index, player in enumerate(totals)}
    # Only a chain breaks ties; under co-winners (and "another hand", which plays on instead)
    # a tie that stands is just noted.
    chain_rule = rules.tie_break in ("chain", "zero_rounds")
    return [
        Standing(entry.item.player, entry.item.total, entry.rank, entry.tied, entry.note)
        for entry in rank_by(
            lines,
            chain,
            order=lambda line: position[line.player],
            note=lambda entry: game_note(entry, chain_rule),
        )
    ]


def winners(standings: Sequence[Standing]) -> list[Any]:
    """The players ranked first: one winner, or co-winners when a tie stands."""
    return [standing.player for standing in standings if standing.rank == 1]


def rank_movement(
    previous: Sequence[Standing], current: Sequence[Standing]
) -> dict[Any, int | None]:
    """How far each player moved since the previous standings: positive is up (rank 3 -> 1 is
    +2), 0 unchanged, None for a player who was not ranked before."""
    before = {standing.player: standing.rank for standing in previous}
    return {
        standing.player: (before[standing.player] - standing.rank)
        if standing.player in before
        else None
        for standing in current
    }

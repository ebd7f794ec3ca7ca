"""A house rule's declaration (``HouseRule``) and the table of the games that offer it.

A rule is declared once, with keyword arguments: the ``HouseRules`` field it sets, its label,
its choices each with a one-line explanation (the rule book's default first), where the setup
form shows it, how it changes the score and its line in "Rules in play". A game that words a
rule its own way declares ``rule.worded_as(...)``: the same field, its own label, choices and
line. Each game lists the rules it offers in its declaration (``rules.games``); registering a
game enters them here (``offer``), so the setup form, the league settings, validation, the
stored JSON and "Rules in play" all read one table, derived from the games' declarations.

A line function takes the game's ``HouseRules``; it is typed ``Rules`` (``Any``) here because
``stored`` imports this module, never the other way round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.words import LazyText

#: A ``stored.HouseRules`` (see the module docstring).
Rules = Any


@dataclass(frozen=True, kw_only=True)
class HouseRule:
    """A house rule, declared once: ``name`` (the ``HouseRules`` field and the key in the JSON
    stored with each game), ``label``, ``options`` (the allowed values each with a one-line
    explanation, the rule book's default first), ``section`` (where the setup form shows it:
    "set", "schedule", "scoring", "play", "ties", "points"), ``in_play`` (its line in "Rules
    in play"; None when another rule's line covers it) and ``scoring`` (how it changes the
    score, "" when it does not)."""

    name: str
    label: LazyText  # declared with ``lazy``: worded when shown
    options: tuple[tuple[Any, LazyText], ...]
    section: str
    in_play: Callable[[Rules], str | None]
    scoring: LazyText | str = ""
    #: False for max_pip, first_engine, deal_table, rounds, target, losing_total: checked
    #: apart (any set size the rules know; a double of the set; a preset or a custom deal; a
    #: number in range).
    fixed: bool = True

    def worded_as(
        self,
        *,
        label: LazyText | None = None,
        options: tuple[tuple[Any, LazyText], ...] | None = None,
        in_play: Callable[[Rules], str | None] | None = None,
    ) -> HouseRule:
        """The same rule as one game words it: its own label, the choices it offers (the
        rule's other values stay valid for games stored with them) and its own line."""
        changes: dict[str, Any] = {}
        if label is not None:
            changes["label"] = label
        if options is not None:
            changes["options"] = options
        if in_play is not None:
            changes["in_play"] = in_play
        return dataclasses.replace(self, **changes)

    def _version(self, game: str) -> HouseRule:
        return _OFFERS.get(game, {}).get(self.name, self)

    def applies_to(self, game: str) -> bool:
        """True when ``game`` offers the rule (shown at its setup and in its "Rules in play")."""
        return self.name in _OFFERS.get(game, {})

    @property
    def default(self) -> Any:
        return self.options[0][0]

    @property
    def values(self) -> tuple[Any, ...]:
        """Every value the rule takes in some game (what a stored game may hold)."""
        return _VALUES.get(self.name) or tuple(value for value, _ in self.options)

    def label_in(self, game: str) -> str:
        """The rule's label in ``game``, in the language of the moment."""
        return str(self._version(game).label)

    def options_in(self, game: str) -> tuple[tuple[Any, str], ...]:
        """The choices ``game`` offers, each with its one-line explanation (default first), in
        the language of the moment."""
        return tuple((value, str(text)) for value, text in self._version(game).options)

    def default_in(self, game: str) -> Any:
        """The rule book's choice in ``game``."""
        return self._version(game).options[0][0]

    def worded_in(self, game: str) -> bool:
        """True when ``game`` words the rule its own way (label or choices)."""
        version = self._version(game)
        return version.label is not self.label or version.options is not self.options

    def line_in(self, game: str, rules: Rules) -> str | None:
        """The rule's "Rules in play" line in ``game``."""
        return self._version(game).in_play(rules)

    def parse(self, text: object) -> Any:
        """The value a form sent (text) as the rule's own type; raises ValueError when it is
        not one of the choices."""
        for value in self.values:
            if str(value) == str(text):
                return value
        raise ValueError(f"{text!r} is not a choice for {self.label.lower()}")


def line_per_value(
    lines: Mapping[Any, LazyText | None], name: str
) -> Callable[[Rules], str | None]:
    """The "Rules in play" line of a rule that is one sentence per value (declared with
    ``lazy``, worded in the language of whoever looks)."""

    def line(rules: Rules) -> str | None:
        text = lines[getattr(rules, name)]
        return None if text is None else str(text)

    return line


# --- The table of rules, filled from the declarations ---------------------------------------------

#: Every rule by field, the first declaration of each (``declare``, then the games' own).
_RULES: dict[str, HouseRule] = {}
#: game -> its rules by field, in its "Rules in play" order (``offer``).
_OFFERS: dict[str, dict[str, HouseRule]] = {}
#: field -> every value some game offers (validation of a stored game).
_VALUES: dict[str, tuple[Any, ...]] = {}

#: Every house rule, by field: read-only view of the table the declarations fill.
HOUSE_RULES: Mapping[str, HouseRule] = MappingProxyType(_RULES)


def declare(*rules: HouseRule) -> None:
    """Enter rules every game may offer (``common``) in the table."""
    for rule in rules:
        _RULES.setdefault(rule.name, rule)
    _recount()


def offer(game: str, rules: Iterable[HouseRule]) -> None:
    """Enter the rules ``game`` offers, as it words them, in its "Rules in play" order; a rule
    of its own (a field no other game has offered) joins the table."""
    offered = {rule.name: rule for rule in rules}
    for rule in offered.values():
        _RULES.setdefault(rule.name, rule)
    _OFFERS[game] = offered
    _recount()


def withdraw(game: str) -> None:
    """Take a game's rules out of the table (a game unregistered, as the tests' toy game)."""
    _OFFERS.pop(game, None)
    _recount()


def offered(game: str) -> Iterator[HouseRule]:
    """The rules ``game`` offers, as it words them, in its "Rules in play" order."""
    return iter(_OFFERS.get(game, {}).values())


def first_game() -> str | None:
    """The first game that offered its rules (the default game)."""
    return next(iter(_OFFERS), None)


def _recount() -> None:
    values: dict[str, list[Any]] = {
        name: [v for v, _ in rule.options] for name, rule in _RULES.items()
    }
    for rules in _OFFERS.values():
        for rule in rules.values():
            known = values.setdefault(rule.name, [])
            known += [value for value, _ in rule.options if value not in known]
    _VALUES.clear()
    _VALUES.update({name: tuple(found) for name, found in values.items()})

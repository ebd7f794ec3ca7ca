"""Every house rule, declared once (rules.md 2.1-2.4, and the choices of the other games of
section 5): the setup form, the league settings, validation, the stored JSON and "Rules in
play" all read ``HOUSE_RULES``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.deal_sheets import GAME_SHEETS
from scorekeeper.rules.house_rules_games import (
    CHICKEN_FOOT_LENGTH,
    CHICKEN_FOOT_ORDER,
    CHICKEN_FOOT_START,
    CHICKEN_FOOT_START_LINES,
    GAME_RULES,
    HIGHEST_TIES,
    LOWEST_JOINS,
    points_sets,
    reworded,
    sheet_choice,
)
from scorekeeper.rules.rule_text import (
    POINT_GAMES,
    PRESET_DESCRIPTIONS,
    HouseRule,
    Wording,
    _blanks_line,
    _deal_line,
    _engines_line,
    _line,
    _open_double_line,
    _set_line,
    game_deal_line,
)
from scorekeeper.rules.words import LazyText, _, lazy

#: The engine orders, the round counts and who starts: the choices Mexican Train offers (and
#: every other game with engines, where ``Wording`` words them its own way).
ORDER_CHOICES: tuple[tuple[str, LazyText], ...] = (
    ("descending", lazy("Highest double first, down to 0-0")),
    ("ascending", lazy("0-0 first, up to the highest double (house option)")),
    (
        "highest_available",
        lazy("Each round the highest double anyone holds that has not been an engine yet"),
    ),
    (
        "up_and_back",
        lazy(
            "0-0 up to the highest double, then back down to 0-0 (double-12: 26 "
            "rounds, the 12-12 played twice)"
        ),
    ),
    (
        "down_and_up",
        lazy(
            "The highest double down to 0-0, then back up (double-6: 6-6 to 0-0, "
            "then 0-0 to 6-6; 14 rounds, the 0-0 played twice)"
        ),
    ),
)
LENGTH_CHOICES: tuple[tuple[str, LazyText], ...] = (
    ("doubles", lazy("One round for each engine of the schedule")),
    (
        "fixed",
        lazy(
            "A set number of rounds: the game stops early, or starts the schedule "
            "again when there are more rounds than doubles"
        ),
    ),
    (
        "free",
        lazy("As many rounds as the table wants: end the game from the table"),
    ),
)
START_CHOICES: tuple[tuple[str, LazyText], ...] = (
    (
        "rotate",
        lazy(
            "Rotate clockwise: the engine is taken out before the deal; the seat "
            "chosen for round 1 starts, then the starting seat moves one to the "
            "left each round"
        ),
    ),
    (
        "engine_holder",
        lazy("Whoever holds the engine places it and starts (the engine is shuffled in and dealt)"),
    ),
    ("previous_winner", lazy("The previous round's winner starts")),
    ("left_of_setter", lazy("The player left of whoever set the engine starts")),
    (
        "lowest_total",
        lazy("The player with the lowest total so far starts the next round"),
    ),
)
START_LINES: Mapping[str, LazyText] = {
    "engine_holder": lazy("Who starts: whoever holds the engine"),
    "rotate": lazy("Who starts: rotates clockwise, one seat to the left each round"),
    "previous_winner": lazy("Who starts: the previous round's winner"),
    "left_of_setter": lazy("Who starts: the player left of whoever set the engine"),
    "lowest_total": lazy("Who starts: the player with the lowest total so far"),
}

#: Every house rule of rules.md 2.1-2.4, in the order "Rules in play" lists them.
HOUSE_RULES: Mapping[str, HouseRule] = MappingProxyType(
    {
        rule.name: rule
        for rule in (
            HouseRule(
                "max_pip",
                lazy("Set"),
                (
                    (12, lazy("Double-12: 91 tiles, 13 rounds, 5-8 players (up to 10)")),
                    (6, lazy("Double-6: 28 tiles, 7 rounds, 2-4 players")),
                    (9, lazy("Double-9: 55 tiles, 10 rounds, 2-8 players")),
                    (15, lazy("Double-15: 136 tiles, 16 rounds, 9-12 players")),
                    (18, lazy("Double-18: 190 tiles, 19 rounds, 13-16 players")),
                ),
                "set",
                _set_line,
                fixed=False,  # any set check_max_pip allows; these are the form's choices
                games=None,
                worded=MappingProxyType(
                    {
                        "chicken_foot": Wording(
                            lazy("Set"),
                            (
                                (
                                    9,
                                    lazy(
                                        "Double-9: 55 tiles, 10 rounds, 2-8 players (the usual set)"
                                    ),
                                ),
                                (6, lazy("Double-6: 28 tiles, 7 rounds, 2-4 players")),
                                (12, lazy("Double-12: 91 tiles, 13 rounds, for more players")),
                                (15, lazy("Double-15: 136 tiles, 16 rounds")),
                                (18, lazy("Double-18: 190 tiles, 19 rounds")),
                            ),
                        ),
                        **{game: points_sets(game) for game in POINT_GAMES},
                    }
                ),
            ),
            HouseRule(
                "copies",
                lazy("Copies of each tile"),
                (
                    (1, lazy("One set")),
                    (2, lazy("Two identical sets mixed: every tile exists twice")),
                ),
                "set",
                lambda rules: None,  # in the set's line
                games=None,
            ),
            HouseRule(
                "first_engine",
                lazy("First engine"),
                ((None, lazy("The set's highest double (full game)")),),
                "schedule",
                lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                "order",
                lazy("Engine order"),
                ORDER_CHOICES,
                "schedule",
                _engines_line,
                worded=MappingProxyType(
                    {
                        "chicken_foot": Wording(
                            lazy("Which double starts each round"),
                            reworded(ORDER_CHOICES, CHICKEN_FOOT_ORDER),
                        )
                    }
                ),
            ),
            HouseRule(
                "length",
                lazy("How many rounds"),
                LENGTH_CHOICES,
                "schedule",
                lambda rules: None,  # in the engines' line
                worded=MappingProxyType(
                    {
                        "chicken_foot": Wording(
                            lazy("How many rounds"), reworded(LENGTH_CHOICES, CHICKEN_FOOT_LENGTH)
                        )
                    }
                ),
            ),
            HouseRule(
                "rounds",
                lazy("Number of rounds"),
                ((None, lazy("One round for each engine")),),
                "schedule",
                lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                "score_by",
                lazy("How a round is scored"),
                (
                    ("pips", lazy("Pips left in hand; the lowest total wins")),
                    (
                        "arrivals",
                        lazy(
                            "Arrivals: one point for going out, nothing else counts; the highest "
                            "total wins"
                        ),
                    ),
                ),
                "scoring",
                _line(
                    {
                        "pips": None,  # the rule book's scoring needs no line
                        "arrivals": lazy(
                            "Scoring: arrivals, one point for each round gone out; "
                            "the highest total wins (the hand rules below do not count)"
                        ),
                    },
                    "score_by",
                ),
                scoring=lazy(
                    "Arrivals: 1 point to the player who goes out, 0 to everyone else; "
                    "a blocked round gives nobody a point."
                ),
            ),
            HouseRule(
                "double_blank",
                lazy("Double blank (0-0) left in hand"),
                (
                    (0, lazy("Counts 0, like its pips")),
                    (25, lazy("Counts 25")),
                    (50, lazy("Counts 50")),
                ),
                "scoring",
                _blanks_line,
                scoring=lazy("The 0-0 left in hand counts this instead of 0."),
            ),
            HouseRule(
                "blank_half",
                lazy("Each blank half left in hand"),
                (
                    (0, lazy("Counts 0, like its pips")),
                    (5, lazy("Counts 5 (the double blank then counts 10)")),
                    (25, lazy("Counts 25 (the double blank then counts 50)")),
                ),
                "scoring",
                lambda rules: None,  # in the double blank's line
                scoring=lazy(
                    "Every blank half left in hand counts this; the 0-0 counts it twice "
                    "and the double-blank rule is not added on top unless the next rule says so."
                ),
            ),
            HouseRule(
                "double_blank_on_top",
                lazy("Blank halves and the double-blank penalty"),
                (
                    (False, lazy("The double blank counts its two blank halves only")),
                    (
                        True,
                        lazy("The double-blank penalty is added on top of its two blank halves"),
                    ),
                ),
                "scoring",
                lambda rules: None,  # in the double blank's line
                scoring=lazy(
                    "With blank halves counting: the 0-0 counts two blank halves plus the "
                    "double-blank rule's 25 or 50."
                ),
            ),
            HouseRule(
                "doubles_count",
                lazy("Doubles left in hand"),
                (
                    ("face", lazy("Count their pips, like any tile")),
                    ("twice", lazy("Count twice their pips (a 6-6 counts 24)")),
                ),
                "scoring",
                _line(
                    {
                        "face": None,  # the rule book's default needs no line
                        "twice": lazy("Doubles left in hand count twice their pips"),
                    },
                    "doubles_count",
                ),
                scoring=lazy("A double's pips count twice; the 0-0's blank rules are not doubled."),
            ),
            HouseRule(
                "blocked_round",
                lazy("Blocked round (nobody goes out)"),
                (
                    ("all_count", lazy("Everyone scores their hand")),
                    ("lowest_zero", lazy("The lowest hand scores 0 (all of them when tied)")),
                ),
                "scoring",
                _line(
                    {
                        "all_count": lazy("Blocked round: everyone scores their hand"),
                        "lowest_zero": lazy("Blocked round: the lowest hand scores 0"),
                    },
                    "blocked_round",
                ),
                scoring=lazy(
                    "In a blocked round the lowest hand (every one tied for lowest) counts "
                    "0 pips; markers and open doubles still count."
                ),
            ),
            HouseRule(
                "end_on_double",
                lazy("Going out on a double"),
                (
                    ("allowed", lazy("Allowed, no penalty")),
                    ("penalty", lazy("Allowed, but +50 to the player who does it")),
                    ("double_others", lazy("The other players' round scores are doubled")),
                ),
                "scoring",
                _line(
                    {
                        "allowed": lazy("Going out on a double: allowed, no penalty"),
                        # END_ON_DOUBLE_PENALTY (50), as the choice above says it.
                        "penalty": lazy("Going out on a double: +50 to the player who does it"),
                        "double_others": lazy("Going out on a double: others' scores doubled"),
                    },
                    "end_on_double",
                ),
                scoring=lazy(
                    "When a player goes out on a double: +50 to that player, or the "
                    "others' hand scores doubled."
                ),
            ),
            HouseRule(
                "marker_penalty",
                lazy("Open-train marker still out at round end"),
                (
                    (0, lazy("No penalty")),
                    (5, lazy("5 points per marker")),
                    (10, lazy("10 points per marker")),
                    (25, lazy("25 points per marker")),
                ),
                "scoring",
                lambda rules: (
                    _(
                        "Open-train markers still out: %(points)s points each",
                        points=rules.marker_penalty,
                    )
                    if rules.marker_penalty
                    else _("Open-train markers still out: no penalty")
                ),
                scoring=lazy("Added for each marker still out (not doubled)."),
                games=("mexican_train",),  # Chicken Foot has no trains to mark
            ),
            HouseRule(
                "open_double_penalty",
                lazy("Double left open (unsatisfied) at round end"),
                (
                    ("none", lazy("No penalty")),
                    ("plus_5", lazy("5 points for each double the player left open")),
                    ("plus_10", lazy("10 points for each double the player left open")),
                    ("times_3", lazy("That player's hand counts 3 times")),
                    ("times_5", lazy("That player's hand counts 5 times")),
                ),
                "scoring",
                _open_double_line,
                scoring=lazy(
                    "The player who left a double open at round end gets the points for "
                    "each one, or their hand counted that many times."
                ),
            ),
            HouseRule(
                "going_out_bonus",
                lazy("Going-out bonus"),
                (
                    (0, lazy("None")),
                    (-5, lazy("5 points off for the player who goes out")),
                    (-10, lazy("10 points off for the player who goes out")),
                ),
                "scoring",
                lambda rules: (
                    _(
                        "Going-out bonus: %(points)s to the player who goes out",
                        points=rules.going_out_bonus,
                    )
                    if rules.going_out_bonus
                    else _("Going-out bonus: none")
                ),
                scoring=lazy("Added to the round score of the player who went out."),
            ),
            HouseRule(
                "deal_table",
                lazy("Tiles to deal"),
                tuple((name, text) for name, text in PRESET_DESCRIPTIONS.items()),
                "schedule",
                _deal_line,
                fixed=False,
                games=None,
                worded=MappingProxyType(
                    {
                        game: Wording(
                            lazy("Tiles to deal"), sheet_choice(game), game_deal_line(game)
                        )
                        for game in GAME_SHEETS
                    }
                ),
            ),
            HouseRule(
                "start_rule",
                lazy("Who starts a round"),
                START_CHOICES,
                "play",
                _line(START_LINES, "start_rule"),
                worded=MappingProxyType(
                    {
                        "chicken_foot": Wording(
                            lazy("Who starts a round"),
                            reworded(START_CHOICES, CHICKEN_FOOT_START, first="engine_holder"),
                            _line({**START_LINES, **CHICKEN_FOOT_START_LINES}, "start_rule"),
                        )
                    }
                ),
            ),
            HouseRule(
                "tie_break",
                lazy("Tie for the lowest total"),
                (
                    ("co_winners", lazy("Players tied for the lowest total are co-winners")),
                    (
                        "chain",
                        lazy(
                            "Break ties by most rounds gone out, then lowest worst round, "
                            "then lowest final round"
                        ),
                    ),
                    (
                        "zero_rounds",
                        lazy(
                            "Break ties by most rounds with 0 points, then the lowest round "
                            "that was not 0"
                        ),
                    ),
                ),
                "ties",
                _line(
                    {
                        "co_winners": lazy("Ties: co-winners"),
                        "chain": lazy(
                            "Ties: broken by most rounds gone out, then lowest worst "
                            "round, then lowest final round"
                        ),
                        "zero_rounds": lazy(
                            "Ties: broken by most rounds with 0 points, then the "
                            "lowest round that was not 0"
                        ),
                    },
                    "tie_break",
                ),
                games=None,
                worded=MappingProxyType(dict.fromkeys(POINT_GAMES, HIGHEST_TIES)),
            ),
            *GAME_RULES,
            HouseRule(
                "late_joiner",
                lazy("A player who joins late"),
                (
                    ("none", lazy("Starts at 0")),
                    (
                        "highest_total",
                        lazy(
                            "Starts with the highest current total at the table (the lowest "
                            "where the highest total wins)"
                        ),
                    ),
                ),
                "play",
                lambda rules: (
                    _("Late joiner: starts at 0")
                    if rules.late_joiner == "none"
                    else _("Late joiner: starts with the highest current total")
                    if rules.lower_is_better
                    else _("Late joiner: starts with the lowest current total")
                ),
                games=None,
                worded=MappingProxyType(dict.fromkeys(POINT_GAMES, LOWEST_JOINS)),
            ),
        )
    }
)

#: Plain labels for the setup form, by field (read from ``HOUSE_RULES``).
RULE_LABELS: Mapping[str, LazyText] = MappingProxyType(
    {name: rule.label for name, rule in HOUSE_RULES.items()}
)
#: For each rule field, the allowed values with a one-line explanation (default first), read from
#: ``HOUSE_RULES``. first_engine also takes any double of the set: see ``first_engine_options``;
#: deal_table "custom" stands for a mapping players -> tiles typed by the group.
RULE_OPTIONS: Mapping[str, tuple[tuple[Any, LazyText], ...]] = MappingProxyType(
    {name: rule.options for name, rule in HOUSE_RULES.items()}
)

"""Every house rule, declared once (rules.md 2.1-2.4, and the choices of the other games of
section 5): the setup form, the league settings, validation, the stored JSON and "Rules in
play" all read ``HOUSE_RULES``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.deal_sheets import GAME_SHEETS
from scorekeeper.rules.house_rules_games import (
    GAME_RULES,
    HIGHEST_TIES,
    LOWEST_JOINS,
    points_sets,
    sheet_choice,
)
from scorekeeper.rules.rule_text import (
    END_ON_DOUBLE_PENALTY,
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

#: Every house rule of rules.md 2.1-2.4, in the order "Rules in play" lists them.
HOUSE_RULES: Mapping[str, HouseRule] = MappingProxyType(
    {
        rule.name: rule
        for rule in (
            HouseRule(
                "max_pip",
                "Set",
                (
                    (12, "Double-12: 91 tiles, 13 rounds, 5-8 players (up to 10)"),
                    (6, "Double-6: 28 tiles, 7 rounds, 2-4 players"),
                    (9, "Double-9: 55 tiles, 10 rounds, 2-8 players"),
                    (15, "Double-15: 136 tiles, 16 rounds, 9-12 players"),
                    (18, "Double-18: 190 tiles, 19 rounds, 13-16 players"),
                ),
                "set",
                _set_line,
                fixed=False,  # any set check_max_pip allows; these are the form's choices
                games=None,
                worded=MappingProxyType(
                    {
                        "chicken_foot": Wording(
                            "Set",
                            (
                                (9, "Double-9: 55 tiles, 10 rounds, 2-8 players (the usual set)"),
                                (6, "Double-6: 28 tiles, 7 rounds, 2-4 players"),
                                (12, "Double-12: 91 tiles, 13 rounds, for more players"),
                                (15, "Double-15: 136 tiles, 16 rounds"),
                                (18, "Double-18: 190 tiles, 19 rounds"),
                            ),
                        ),
                        **{game: points_sets(game) for game in POINT_GAMES},
                    }
                ),
            ),
            HouseRule(
                "copies",
                "Copies of each tile",
                (
                    (1, "One set"),
                    (2, "Two identical sets mixed: every tile exists twice"),
                ),
                "set",
                lambda rules: None,  # in the set's line
                games=None,
            ),
            HouseRule(
                "first_engine",
                "First engine",
                ((None, "The set's highest double (full game)"),),
                "schedule",
                lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                "order",
                "Engine order",
                (
                    ("descending", "Highest double first, down to 0-0"),
                    ("ascending", "0-0 first, up to the highest double (house option)"),
                    (
                        "highest_available",
                        "Each round the highest double anyone holds that has not been an "
                        "engine yet",
                    ),
                    (
                        "up_and_back",
                        "0-0 up to the highest double, then back down to 0-0 (double-12: 26 "
                        "rounds, the 12-12 played twice)",
                    ),
                    (
                        "down_and_up",
                        "The highest double down to 0-0, then back up (double-6: 6-6 to 0-0, "
                        "then 0-0 to 6-6; 14 rounds, the 0-0 played twice)",
                    ),
                ),
                "schedule",
                _engines_line,
            ),
            HouseRule(
                "length",
                "How many rounds",
                (
                    ("doubles", "One round for each engine of the schedule"),
                    (
                        "fixed",
                        "A set number of rounds: the game stops early, or starts the schedule "
                        "again when there are more rounds than doubles",
                    ),
                    ("free", "As many rounds as the table wants: end the game from the table"),
                ),
                "schedule",
                lambda rules: None,  # in the engines' line
            ),
            HouseRule(
                "rounds",
                "Number of rounds",
                ((None, "One round for each engine"),),
                "schedule",
                lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                "score_by",
                "How a round is scored",
                (
                    ("pips", "Pips left in hand; the lowest total wins"),
                    (
                        "arrivals",
                        "Arrivals: one point for going out, nothing else counts; the highest "
                        "total wins",
                    ),
                ),
                "scoring",
                _line(
                    {
                        "pips": None,  # the rule book's scoring needs no line
                        "arrivals": "Scoring: arrivals, one point for each round gone out; "
                        "the highest total wins (the hand rules below do not count)",
                    },
                    "score_by",
                ),
                scoring="Arrivals: 1 point to the player who goes out, 0 to everyone else; "
                "a blocked round gives nobody a point.",
            ),
            HouseRule(
                "double_blank",
                "Double blank (0-0) left in hand",
                ((0, "Counts 0, like its pips"), (25, "Counts 25"), (50, "Counts 50")),
                "scoring",
                _blanks_line,
                scoring="The 0-0 left in hand counts this instead of 0.",
            ),
            HouseRule(
                "blank_half",
                "Each blank half left in hand",
                (
                    (0, "Counts 0, like its pips"),
                    (5, "Counts 5 (the double blank then counts 10)"),
                    (25, "Counts 25 (the double blank then counts 50)"),
                ),
                "scoring",
                lambda rules: None,  # in the double blank's line
                scoring="Every blank half left in hand counts this; the 0-0 counts it twice "
                "and the double-blank rule is not added on top unless the next rule says so.",
            ),
            HouseRule(
                "double_blank_on_top",
                "Blank halves and the double-blank penalty",
                (
                    (False, "The double blank counts its two blank halves only"),
                    (True, "The double-blank penalty is added on top of its two blank halves"),
                ),
                "scoring",
                lambda rules: None,  # in the double blank's line
                scoring="With blank halves counting: the 0-0 counts two blank halves plus the "
                "double-blank rule's 25 or 50.",
            ),
            HouseRule(
                "doubles_count",
                "Doubles left in hand",
                (
                    ("face", "Count their pips, like any tile"),
                    ("twice", "Count twice their pips (a 6-6 counts 24)"),
                ),
                "scoring",
                _line(
                    {
                        "face": None,  # the rule book's default needs no line
                        "twice": "Doubles left in hand count twice their pips",
                    },
                    "doubles_count",
                ),
                scoring="A double's pips count twice; the 0-0's blank rules are not doubled.",
            ),
            HouseRule(
                "blocked_round",
                "Blocked round (nobody goes out)",
                (
                    ("all_count", "Everyone scores their hand"),
                    ("lowest_zero", "The lowest hand scores 0 (all of them when tied)"),
                ),
                "scoring",
                _line(
                    {
                        "all_count": "Blocked round: everyone scores their hand",
                        "lowest_zero": "Blocked round: the lowest hand scores 0",
                    },
                    "blocked_round",
                ),
                scoring="In a blocked round the lowest hand (every one tied for lowest) counts "
                "0 pips; markers and open doubles still count.",
            ),
            HouseRule(
                "end_on_double",
                "Going out on a double",
                (
                    ("allowed", "Allowed, no penalty"),
                    ("penalty", "Allowed, but +50 to the player who does it"),
                    ("double_others", "The other players' round scores are doubled"),
                ),
                "scoring",
                _line(
                    {
                        "allowed": "Going out on a double: allowed, no penalty",
                        "penalty": f"Going out on a double: +{END_ON_DOUBLE_PENALTY} to the "
                        "player who does it",
                        "double_others": "Going out on a double: others' scores doubled",
                    },
                    "end_on_double",
                ),
                scoring="When a player goes out on a double: +50 to that player, or the "
                "others' hand scores doubled.",
            ),
            HouseRule(
                "marker_penalty",
                "Open-train marker still out at round end",
                (
                    (0, "No penalty"),
                    (5, "5 points per marker"),
                    (10, "10 points per marker"),
                    (25, "25 points per marker"),
                ),
                "scoring",
                lambda rules: (
                    f"Open-train markers still out: {rules.marker_penalty} points each"
                    if rules.marker_penalty
                    else "Open-train markers still out: no penalty"
                ),
                scoring="Added for each marker still out (not doubled).",
                games=("mexican_train",),  # Chicken Foot has no trains to mark
            ),
            HouseRule(
                "open_double_penalty",
                "Double left open (unsatisfied) at round end",
                (
                    ("none", "No penalty"),
                    ("plus_5", "5 points for each double the player left open"),
                    ("plus_10", "10 points for each double the player left open"),
                    ("times_3", "That player's hand counts 3 times"),
                    ("times_5", "That player's hand counts 5 times"),
                ),
                "scoring",
                _open_double_line,
                scoring="The player who left a double open at round end gets the points for "
                "each one, or their hand counted that many times.",
            ),
            HouseRule(
                "going_out_bonus",
                "Going-out bonus",
                (
                    (0, "None"),
                    (-5, "5 points off for the player who goes out"),
                    (-10, "10 points off for the player who goes out"),
                ),
                "scoring",
                lambda rules: (
                    f"Going-out bonus: {rules.going_out_bonus} to the player who goes out"
                    if rules.going_out_bonus
                    else "Going-out bonus: none"
                ),
                scoring="Added to the round score of the player who went out.",
            ),
            HouseRule(
                "deal_table",
                "Tiles to deal",
                tuple((name, text) for name, text in PRESET_DESCRIPTIONS.items()),
                "schedule",
                _deal_line,
                fixed=False,
                games=None,
                worded=MappingProxyType(
                    {
                        game: Wording("Tiles to deal", sheet_choice(game), game_deal_line(game))
                        for game in GAME_SHEETS
                    }
                ),
            ),
            HouseRule(
                "start_rule",
                "Who starts a round",
                (
                    (
                        "rotate",
                        "Rotate clockwise: the engine is taken out before the deal; the seat "
                        "chosen for round 1 starts, then the starting seat moves one to the "
                        "left each round",
                    ),
                    (
                        "engine_holder",
                        "Whoever holds the engine places it and starts (the engine is "
                        "shuffled in and dealt)",
                    ),
                    ("previous_winner", "The previous round's winner starts"),
                    ("left_of_setter", "The player left of whoever set the engine starts"),
                    (
                        "lowest_total",
                        "The player with the lowest total so far starts the next round",
                    ),
                ),
                "play",
                _line(
                    {
                        "engine_holder": "Who starts: whoever holds the engine",
                        "rotate": "Who starts: rotates clockwise, one seat to the left each round",
                        "previous_winner": "Who starts: the previous round's winner",
                        "left_of_setter": "Who starts: the player left of whoever set the engine",
                        "lowest_total": "Who starts: the player with the lowest total so far",
                    },
                    "start_rule",
                ),
            ),
            HouseRule(
                "tie_break",
                "Tie for the lowest total",
                (
                    ("co_winners", "Players tied for the lowest total are co-winners"),
                    (
                        "chain",
                        "Break ties by most rounds gone out, then lowest worst round, "
                        "then lowest final round",
                    ),
                    (
                        "zero_rounds",
                        "Break ties by most rounds with 0 points, then the lowest round "
                        "that was not 0",
                    ),
                ),
                "ties",
                _line(
                    {
                        "co_winners": "Ties: co-winners",
                        "chain": "Ties: broken by most rounds gone out, then lowest worst "
                        "round, then lowest final round",
                        "zero_rounds": "Ties: broken by most rounds with 0 points, then the "
                        "lowest round that was not 0",
                    },
                    "tie_break",
                ),
                games=None,
                worded=MappingProxyType(dict.fromkeys(POINT_GAMES, HIGHEST_TIES)),
            ),
            *GAME_RULES,
            HouseRule(
                "late_joiner",
                "A player who joins late",
                (
                    ("none", "Starts at 0"),
                    (
                        "highest_total",
                        "Starts with the highest current total at the table (the lowest "
                        "where the highest total wins)",
                    ),
                ),
                "play",
                lambda rules: (
                    "Late joiner: starts at 0"
                    if rules.late_joiner == "none"
                    else "Late joiner: starts with the highest current total"
                    if rules.lower_is_better
                    else "Late joiner: starts with the lowest current total"
                ),
                games=None,
                worded=MappingProxyType(dict.fromkeys(POINT_GAMES, LOWEST_JOINS)),
            ),
        )
    }
)

#: Plain labels for the setup form, by field (read from ``HOUSE_RULES``).
RULE_LABELS: Mapping[str, str] = MappingProxyType(
    {name: rule.label for name, rule in HOUSE_RULES.items()}
)
#: For each rule field, the allowed values with a one-line explanation (default first), read from
#: ``HOUSE_RULES``. first_engine also takes any double of the set: see ``first_engine_options``;
#: deal_table "custom" stands for a mapping players -> tiles typed by the group.
RULE_OPTIONS: Mapping[str, tuple[tuple[Any, str], ...]] = MappingProxyType(
    {name: rule.options for name, rule in HOUSE_RULES.items()}
)

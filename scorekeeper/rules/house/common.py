"""The house rules of rules.md 2.1-2.4, declared once each: the rules every game may offer
(``COMMON``), in the order "Rules in play" lists them. A game offers some of them, worded its
own way where it needs (``HouseRule.worded_as``), and declares its own in its module
(``rules.games``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from scorekeeper.rules.house.declaration import HouseRule, declare, line_per_value
from scorekeeper.rules.house.texts import (
    PRESET_DESCRIPTIONS,
    blanks_line,
    deal_line,
    engines_line,
    open_double_line,
    set_line,
)
from scorekeeper.rules.words import LazyText, _, lazy

#: The engine orders, the round counts and who starts: the choices Mexican Train offers (and
#: every other game with engines, which words them its own way).
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

#: Every common house rule, in the order "Rules in play" lists them (a game's own rules go
#: between the ties and the late joiner).
COMMON: Mapping[str, HouseRule] = MappingProxyType(
    {
        rule.name: rule
        for rule in (
            HouseRule(
                name="max_pip",
                label=lazy("Set"),
                options=(
                    (12, lazy("Double-12: 91 tiles, 13 rounds, 5-8 players (up to 10)")),
                    (6, lazy("Double-6: 28 tiles, 7 rounds, 2-4 players")),
                    (9, lazy("Double-9: 55 tiles, 10 rounds, 2-8 players")),
                    (15, lazy("Double-15: 136 tiles, 16 rounds, 9-12 players")),
                    (18, lazy("Double-18: 190 tiles, 19 rounds, 13-16 players")),
                ),
                section="set",
                in_play=set_line,
                fixed=False,  # any set check_max_pip allows; these are the form's choices
            ),
            HouseRule(
                name="copies",
                label=lazy("Copies of each tile"),
                options=(
                    (1, lazy("One set")),
                    (2, lazy("Two identical sets mixed: every tile exists twice")),
                ),
                section="set",
                in_play=lambda rules: None,  # in the set's line
            ),
            HouseRule(
                name="first_engine",
                label=lazy("First engine"),
                options=((None, lazy("The set's highest double (full game)")),),
                section="schedule",
                in_play=lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                name="order",
                label=lazy("Engine order"),
                options=ORDER_CHOICES,
                section="schedule",
                in_play=engines_line,
            ),
            HouseRule(
                name="length",
                label=lazy("How many rounds"),
                options=LENGTH_CHOICES,
                section="schedule",
                in_play=lambda rules: None,  # in the engines' line
            ),
            HouseRule(
                name="rounds",
                label=lazy("Number of rounds"),
                options=((None, lazy("One round for each engine")),),
                section="schedule",
                in_play=lambda rules: None,  # in the engines' line
                fixed=False,
            ),
            HouseRule(
                name="score_by",
                label=lazy("How a round is scored"),
                options=(
                    ("pips", lazy("Pips left in hand; the lowest total wins")),
                    (
                        "arrivals",
                        lazy(
                            "Arrivals: one point for going out, nothing else counts; the highest "
                            "total wins"
                        ),
                    ),
                ),
                section="scoring",
                in_play=line_per_value(
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
                name="double_blank",
                label=lazy("Double blank (0-0) left in hand"),
                options=(
                    (0, lazy("Counts 0, like its pips")),
                    (25, lazy("Counts 25")),
                    (50, lazy("Counts 50")),
                ),
                section="scoring",
                in_play=blanks_line,
                scoring=lazy("The 0-0 left in hand counts this instead of 0."),
            ),
            HouseRule(
                name="blank_half",
                label=lazy("Each blank half left in hand"),
                options=(
                    (0, lazy("Counts 0, like its pips")),
                    (5, lazy("Counts 5 (the double blank then counts 10)")),
                    (25, lazy("Counts 25 (the double blank then counts 50)")),
                ),
                section="scoring",
                in_play=lambda rules: None,  # in the double blank's line
                scoring=lazy(
                    "Every blank half left in hand counts this; the 0-0 counts it twice "
                    "and the double-blank rule is not added on top unless the next rule says so."
                ),
            ),
            HouseRule(
                name="double_blank_on_top",
                label=lazy("Blank halves and the double-blank penalty"),
                options=(
                    (False, lazy("The double blank counts its two blank halves only")),
                    (
                        True,
                        lazy("The double-blank penalty is added on top of its two blank halves"),
                    ),
                ),
                section="scoring",
                in_play=lambda rules: None,  # in the double blank's line
                scoring=lazy(
                    "With blank halves counting: the 0-0 counts two blank halves plus the "
                    "double-blank rule's 25 or 50."
                ),
            ),
            HouseRule(
                name="doubles_count",
                label=lazy("Doubles left in hand"),
                options=(
                    ("face", lazy("Count their pips, like any tile")),
                    ("twice", lazy("Count twice their pips (a 6-6 counts 24)")),
                ),
                section="scoring",
                in_play=line_per_value(
                    {
                        "face": None,  # the rule book's default needs no line
                        "twice": lazy("Doubles left in hand count twice their pips"),
                    },
                    "doubles_count",
                ),
                scoring=lazy("A double's pips count twice; the 0-0's blank rules are not doubled."),
            ),
            HouseRule(
                name="blocked_round",
                label=lazy("Blocked round (nobody goes out)"),
                options=(
                    ("all_count", lazy("Everyone scores their hand")),
                    ("lowest_zero", lazy("The lowest hand scores 0 (all of them when tied)")),
                ),
                section="scoring",
                in_play=line_per_value(
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
                name="end_on_double",
                label=lazy("Going out on a double"),
                options=(
                    ("allowed", lazy("Allowed, no penalty")),
                    ("penalty", lazy("Allowed, but +50 to the player who does it")),
                    ("double_others", lazy("The other players' round scores are doubled")),
                ),
                section="scoring",
                in_play=line_per_value(
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
                name="marker_penalty",
                label=lazy("Open-train marker still out at round end"),
                options=(
                    (0, lazy("No penalty")),
                    (5, lazy("5 points per marker")),
                    (10, lazy("10 points per marker")),
                    (25, lazy("25 points per marker")),
                ),
                section="scoring",
                in_play=lambda rules: (
                    _(
                        "Open-train markers still out: %(points)s points each",
                        points=rules.marker_penalty,
                    )
                    if rules.marker_penalty
                    else _("Open-train markers still out: no penalty")
                ),
                scoring=lazy("Added for each marker still out (not doubled)."),
            ),
            HouseRule(
                name="open_double_penalty",
                label=lazy("Double left open (unsatisfied) at round end"),
                options=(
                    ("none", lazy("No penalty")),
                    ("plus_5", lazy("5 points for each double the player left open")),
                    ("plus_10", lazy("10 points for each double the player left open")),
                    ("times_3", lazy("That player's hand counts 3 times")),
                    ("times_5", lazy("That player's hand counts 5 times")),
                ),
                section="scoring",
                in_play=open_double_line,
                scoring=lazy(
                    "The player who left a double open at round end gets the points for "
                    "each one, or their hand counted that many times."
                ),
            ),
            HouseRule(
                name="going_out_bonus",
                label=lazy("Going-out bonus"),
                options=(
                    (0, lazy("None")),
                    (-5, lazy("5 points off for the player who goes out")),
                    (-10, lazy("10 points off for the player who goes out")),
                ),
                section="scoring",
                in_play=lambda rules: (
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
                name="deal_table",
                label=lazy("Tiles to deal"),
                options=tuple((name, text) for name, text in PRESET_DESCRIPTIONS.items()),
                section="schedule",
                in_play=deal_line,
                fixed=False,
            ),
            HouseRule(
                name="start_rule",
                label=lazy("Who starts a round"),
                options=START_CHOICES,
                section="play",
                in_play=line_per_value(START_LINES, "start_rule"),
            ),
            HouseRule(
                name="tie_break",
                label=lazy("Tie for the lowest total"),
                options=(
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
                section="ties",
                in_play=line_per_value(
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
            ),
            HouseRule(
                name="late_joiner",
                label=lazy("A player who joins late"),
                options=(
                    ("none", lazy("Starts at 0")),
                    (
                        "highest_total",
                        lazy(
                            "Starts with the highest current total at the table (the lowest "
                            "where the highest total wins)"
                        ),
                    ),
                ),
                section="play",
                in_play=lambda rules: (
                    _("Late joiner: starts at 0")
                    if rules.late_joiner == "none"
                    else _("Late joiner: starts with the highest current total")
                    if rules.lower_is_better
                    else _("Late joiner: starts with the lowest current total")
                ),
            ),
        )
    }
)

declare(*COMMON.values())

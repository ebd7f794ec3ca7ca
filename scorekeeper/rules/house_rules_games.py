"""The house rules of the games other than Mexican Train (rules.md 5 and the published
conventions of docs/rules.md), and how the shared rules read in those games (``Wording``).
``house_rules.HOUSE_RULES`` lists them with the others, in the order "Rules in play" shows
them; a new rule of these games is one declaration here plus its scoring and tests."""

from __future__ import annotations

from scorekeeper.rules.deal_sheets import GAME_SHEETS, SHEET_NAMES, sheet_words
from scorekeeper.rules.rule_text import POINT_GAMES, HouseRule, Wording, _line
from scorekeeper.rules.words import LazyText, _, lazy


def sheet_choice(game: str) -> tuple[tuple[str, LazyText], ...]:
    """A game's one deal choice besides the group's own number: its sheet, in words."""
    return (("standard", _SheetChoice(game)),)


class _SheetChoice(LazyText):
    """The sheet choice of a game, worded when shown: "The Block sheet: 7 each for 2-4
    players on a double-6; ...; computed for other sets"."""

    __slots__ = ("game",)

    def __init__(self, game: str) -> None:
        super().__init__(f"sheet choice of {game}")  # i18n: an identity, never shown
        self.game = game

    def __str__(self) -> str:
        sheets = "; ".join(
            _("%(numbers)s on a double-%(top)s", numbers=sheet_words(sheet), top=max_pip)
            for max_pip, sheet in GAME_SHEETS[self.game].items()
        )
        return _(
            "The %(sheet)s: %(sheets)s; computed for other sets",
            sheet=SHEET_NAMES[self.game],
            sheets=sheets,
        )


class _SetChoice(LazyText):
    """A set offered in a points game, worded when shown: "Double-6: 28 tiles, 2-4 players
    (All Fives sheet)"."""

    __slots__ = ("game", "max_pip", "count")

    def __init__(self, game: str, max_pip: int, count: int) -> None:
        super().__init__(f"set {max_pip} of {game}")  # i18n: an identity, never shown
        self.game, self.max_pip, self.count = game, max_pip, count

    def __str__(self) -> str:
        sheet = GAME_SHEETS[self.game].get(self.max_pip)
        if sheet:
            return _(
                "Double-%(top)s: %(count)s tiles, %(low)s-%(high)s players (%(sheet)s)",
                top=self.max_pip,
                count=self.count,
                low=min(sheet),
                high=max(sheet),
                sheet=SHEET_NAMES[self.game],
            )
        return _(
            "Double-%(top)s: %(count)s tiles, a computed deal", top=self.max_pip, count=self.count
        )


def points_sets(game: str) -> Wording:
    """The sets of a points game: hands, not rounds; the players its sheet deals to on each."""
    tiles = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}
    options = tuple((max_pip, _SetChoice(game, max_pip, count)) for max_pip, count in tiles.items())
    return Wording(lazy("Set"), options)


#: How the tie rule reads where the highest total wins (the points games of rules.md 5). A
#: stored game keeps a chain chosen before these games had their own wording, so every value
#: has a line; only co-winners and another hand are offered.
HIGHEST_TIES = Wording(
    lazy("Tie for the highest total"),
    (
        (
            "co_winners",
            lazy("Players tied for the highest total when the game ends are co-winners"),
        ),
        (
            "another_hand",
            lazy(
                "A tie for the highest total at the target plays another hand, until one player "
                "is ahead (a published convention)"
            ),
        ),
    ),
    _line(
        {
            "co_winners": lazy("Ties: co-winners"),
            "another_hand": lazy("Ties at the target: another hand is played"),
            "chain": lazy(
                "Ties: broken by most hands gone out, then the highest lowest hand, "
                "then the highest final hand"
            ),
            "zero_rounds": lazy(
                "Ties: broken by most hands with 0 points, then the highest hand that was not 0"
            ),
        },
        "tie_break",
    ),
)

#: A late joiner where the highest total wins starts with the lowest (the worst) total.
LOWEST_JOINS = Wording(
    lazy("A player who joins late"),
    (
        ("none", lazy("Starts at 0")),
        ("highest_total", lazy("Starts with the lowest current total at the table (the worst)")),
    ),
    _line(
        {
            "none": lazy("Late joiner: starts at 0"),
            "highest_total": lazy("Late joiner: starts with the lowest current total"),
        },
        "late_joiner",
    ),
)

#: The rules of the points games (and Chicken Foot's losing total), in "Rules in play" order.
GAME_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "target",
        lazy("Target score"),
        ((None, lazy("The game's usual target")),),
        "points",
        lambda rules: None,  # the game's own line says the target
        fixed=False,
        games=POINT_GAMES,
    ),
    HouseRule(
        "all_fives_scale",
        lazy("All Fives: how ends count"),
        (
            ("face", lazy("Face value: ends of 10 score 10 (target 150)")),
            ("per_five", lazy("One point per five: ends of 10 score 2 (target 61)")),
        ),
        "points",
        _line(
            {
                "face": lazy("Points: face value (ends of 10 score 10)"),
                "per_five": lazy("Points: one point per five (ends of 10 score 2)"),
            },
            "all_fives_scale",
        ),
        games=("all_fives",),
    ),
    HouseRule(
        "all_fives_rounding",
        lazy("All Fives: the winner's pips from the other hands"),
        (
            (
                "together_nearest",
                lazy("Added up, then rounded to the nearest 5 (27 scores 25, 28 scores 30)"),
            ),
            (
                "each_nearest",
                lazy(
                    "Each opponent's hand rounded to the nearest 5 on its own, then added up "
                    "(8 and 8 score 10 + 10 = 20)"
                ),
            ),
            ("together_down", lazy("Added up, then rounded down to a 5 (29 scores 25)")),
            (
                "each_down",
                lazy("Each opponent's hand rounded down to a 5 on its own (8 and 9 score 5 + 5)"),
            ),
        ),
        "points",
        _line(
            {
                "together_nearest": lazy(
                    "End of a hand: the others' pips added up, rounded to the nearest 5"
                ),
                "each_nearest": lazy(
                    "End of a hand: each opponent's pips rounded to the nearest 5 on their own"
                ),
                "together_down": lazy(
                    "End of a hand: the others' pips added up, rounded down to a 5"
                ),
                "each_down": lazy(
                    "End of a hand: each opponent's pips rounded down to a 5 on their own"
                ),
            },
            "all_fives_rounding",
        ),
        scoring=lazy("What the winner of a hand scores from the pips left in the other hands."),
        games=("all_fives",),
    ),
    HouseRule(
        "all_fives_blocked",
        lazy("All Fives: a blocked hand"),
        (
            ("others", lazy("The lowest hand scores the others' pips")),
            ("minus_own", lazy("The lowest hand scores the others' pips minus its own")),
        ),
        "points",
        _line(
            {
                "others": None,  # the rule book's blocked hand needs no line
                "minus_own": lazy(
                    "Blocked hand: the lowest hand scores the others' pips minus its own"
                ),
            },
            "all_fives_blocked",
        ),
        scoring=lazy("In a blocked hand the winner's own pips are taken off its bonus."),
        games=("all_fives",),
    ),
    HouseRule(
        "fives_threes_scale",
        lazy("Fives and Threes: how ends count"),
        (
            (
                "pub",
                lazy(
                    "Pub rules: one point per three and per five (15 scores 8); going out "
                    "scores 1; exactly 61 wins"
                ),
            ),
            (
                "face",
                lazy(
                    "Face value: the ends' total when it divides by 3 or 5, twice when by "
                    "both (30 scores 60); the winner takes the others' pips; target 251"
                ),
            ),
            (
                "pub_100",
                lazy(
                    "Pub scoring to 100: one point per three and per five, going out "
                    "scores 1; no exact finish: once anyone has 100 at the end of a hand, "
                    "the highest total wins"
                ),
            ),
        ),
        "points",
        _line(
            {
                "pub": lazy(
                    "Points: one per three and per five (15 scores 8); going out "
                    "scores 1; points that would pass the target are lost"
                ),
                "face": lazy(
                    "Points: face value, twice when both 3 and 5 divide (30 scores "
                    "60); the winner of a hand takes the others' pips"
                ),
                "pub_100": lazy(
                    "Points: one per three and per five (15 scores 8); going out "
                    "scores 1; the highest total once anyone has 100 wins"
                ),
            },
            "fives_threes_scale",
        ),
        games=("fives_and_threes",),
    ),
    HouseRule(
        "block_win",
        lazy("The winner of a hand scores"),
        (
            ("opponents", lazy("The other players' pips")),
            ("minus_own", lazy("The other players' pips minus their own")),
        ),
        "points",
        _line(
            {
                "opponents": lazy("The winner of a hand scores the other players' pips"),
                "minus_own": lazy(
                    "The winner of a hand scores the other players' pips minus their own"
                ),
            },
            "block_win",
        ),
        games=("draw", "block"),
    ),
    HouseRule(
        "block_tie",
        lazy("Block: a tie for the lowest hand when blocked"),
        (
            ("nobody", lazy("Nobody scores")),
            (
                "lightest_tile",
                lazy(
                    "The tied player holding the lightest single tile wins the hand (type "
                    "the tied hands' tiles)"
                ),
            ),
        ),
        "points",
        _line(
            {
                "nobody": None,  # the rule book's tie needs no line
                "lightest_tile": lazy(
                    "Blocked hand tied for lowest: the lightest single tile wins"
                ),
            },
            "block_tie",
        ),
        scoring=lazy("Which tied player wins a blocked hand: the one holding the lightest tile."),
        games=("block",),
    ),
    HouseRule(
        "losing_total",
        lazy("Losing total"),
        ((None, lazy("None: play the rounds of the schedule")),),
        "schedule",
        lambda rules: (
            _(
                "Game ends at the end of the round in which someone reaches %(total)s; the "
                "lowest total wins",
                total=rules.losing_total,
            )
            if rules.losing_total
            else None
        ),
        fixed=False,
        games=("chicken_foot",),
    ),
    HouseRule(
        "partners",
        lazy("Partnerships"),
        (
            (False, lazy("Everyone plays for themselves")),
            (
                True,
                lazy(
                    "Four players, two against two: the 1st and 3rd seat against the 2nd "
                    "and 4th; partners share one score"
                ),
            ),
        ),
        "points",
        _line(
            {
                False: None,
                True: lazy(
                    "Partnerships: the 1st and 3rd seat against the 2nd and 4th, one score per side"
                ),
            },
            "partners",
        ),
        games=POINT_GAMES,
    ),
)


def reworded(
    choices: tuple[tuple[str, LazyText], ...],
    words: dict[str, LazyText],
    first: str | None = None,
) -> tuple[tuple[str, LazyText], ...]:
    """A shared rule's choices as one game words them: the texts in ``words`` in place of the
    shared ones (the values stay), ``first`` (that game's default) put first."""
    worded = tuple((value, words.get(value, text)) for value, text in choices)
    return tuple(sorted(worded, key=lambda choice: choice[0] != first)) if first else worded


# Chicken Foot has no hub and no engine: the round's double goes in the middle of the table,
# and by default whoever holds it places it and starts (docs/rules.md, htfbw-cf, cdd-cf).
CHICKEN_FOOT_ORDER: dict[str, LazyText] = {
    "highest_available": lazy(
        "Each round the highest double anyone holds that has not started a round yet"
    ),
}
CHICKEN_FOOT_LENGTH: dict[str, LazyText] = {
    "doubles": lazy("One round for each double of the schedule"),
}
CHICKEN_FOOT_START: dict[str, LazyText] = {
    "engine_holder": lazy(
        "Whoever holds the round's double places it in the middle of the table and starts "
        "(every tile is dealt)"
    ),
    "rotate": lazy(
        "Rotate clockwise: the round's double is taken out and put in the middle of the table "
        "before the deal; the seat chosen for round 1 starts, then the starting seat moves one "
        "to the left each round"
    ),
    "left_of_setter": lazy("The player left of whoever set the round's double starts"),
}
CHICKEN_FOOT_START_LINES: dict[str, LazyText] = {
    "engine_holder": lazy("Who starts: whoever holds the round's double"),
    "left_of_setter": lazy("Who starts: the player left of whoever set the round's double"),
}

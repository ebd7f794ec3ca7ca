"""Forms of a game: setup, round entry (built per game), corrections, the edit code."""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, StopValidation

from scorekeeper.games.loaded import LoadedGame
from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import (
    DEFAULT_KIND,
    VARIANTS,
    GameVariant,
    default_game,
    variant_named,
)
from scorekeeper.rules.house import (
    HOUSE_RULES,
    MAX_ROUNDS,
    MAX_TARGET,
    RULE_LABELS,
    RULE_OPTIONS,
    first_engine_options,
)

MAX_SEATS = 14
FIRST_SEATS = 4

WHOLE_NUMBER = _l("Type a whole number of points, like 23.")


class PlainWordsMixin:
    """Reads the typed text with ``parse``; an empty field is None, anything unreadable gets
    ``message`` (a sentence a player understands) and the typed text stays in the field."""

    message = ""
    data: Any

    @staticmethod
    def parse(text: str) -> Any:
        raise NotImplementedError

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not str(valuelist[0]).strip():
            self.data = None
            self.raw_data = []  # only spaces is nothing typed: InputRequired says so
            return
        try:
            self.data = self.parse(str(valuelist[0]).strip())
        except ValueError:
            self.data = None
            raise ValueError(str(self.message)) from None

    def pre_validate(self, form: Any) -> None:
        # Text that could not be read has its one message already: the range checks after it
        # ("cannot be below 0") would only add a second, wrong one.
        if self.process_errors:
            raise StopValidation()


class WholeNumberField(PlainWordsMixin, IntegerField):
    """A whole number, or "Type a whole number of points, like 23." """

    message = WHOLE_NUMBER
    parse = staticmethod(int)


def _options(name: str) -> dict[str, Any]:
    """A rule's choices in WTForms' shorthand {value: explanation}, default first."""
    return {str(value): text for value, text in RULE_OPTIONS[name]}


def said(choices: dict[str, Any]) -> Any:
    """Choices declared once (their words lazy) for a field: WTForms asks for them on each
    form, and gets them as plain text in the language of that request."""
    return lambda: {value: str(text) for value, text in choices.items()}


def rule_field(name: str, extra_choices: dict[str, Any] | None = None) -> RadioField:
    """A house rule as radio buttons, each option with its one-line explanation from the
    domain; the rule book's default (listed first) is preselected."""
    options = _options(name) | (extra_choices or {})
    return RadioField(RULE_LABELS[name], choices=said(options), default=next(iter(options)))


#: The scoring rules a table (or a league, for its tables) chooses, from the declarations.
SCORING_RULES = tuple(name for name, rule in HOUSE_RULES.items() if rule.section == "scoring")
#: The choices of the points games (the target is typed: a number field).
POINTS_RULES = tuple(
    name for name, rule in HOUSE_RULES.items() if rule.section == "points" and rule.fixed
)

#: The house rules of rules.md 2.4 that a table (or a league, for its tables) chooses: every
#: declared scoring rule and who starts, built from ``HOUSE_RULES`` (a new rule declared there
#: appears in the setup form and the league settings by itself).
HouseRuleFields = type(
    "HouseRuleFields",
    (Form,),
    {
        **{name: rule_field(name) for name in (*SCORING_RULES, "start_rule")},
        "SCORING_RULES": SCORING_RULES,
        "__doc__": "The house rules a table or a league chooses (from ``HOUSE_RULES``).",
        # i18n: a class's docstring (for programmers)
    },
)


#: The choices of the points games (rules.md 5), built from ``HOUSE_RULES`` like the others.
PointsRuleFields = type(
    "PointsRuleFields",
    (Form,),
    {
        **{name: rule_field(name) for name in POINTS_RULES},
        "__doc__": "The choices of the points games (from ``HOUSE_RULES``).",
        # i18n: a class's docstring (for programmers)
    },
)


class SetupForm(HouseRuleFields, PointsRuleFields, FlaskForm):  # type: ignore[valid-type,misc]
    """A new game: players in seat order, the set, the schedule and the house rules."""

    names = FieldList(
        StringField(_l("Name"), validators=[Optional(), Length(max=40)]),
        min_entries=FIRST_SEATS,
        max_entries=MAX_SEATS,
    )
    first_starter = HiddenField(default="0")
    max_pip = rule_field("max_pip")
    copies = rule_field("copies")
    order = rule_field("order")
    first_engine = SelectField(
        _l("Start at"),
        default="",
        description=_l("Start at a lower double for a shorter game."),
    )
    length = rule_field("length")
    rounds = WholeNumberField(
        _l("Number of rounds (a set number of rounds)"),
        validators=[
            Optional(),
            NumberRange(1, MAX_ROUNDS, _l("Type from 1 to %(n)s rounds.", n=MAX_ROUNDS)),
        ],
        render_kw={"inputmode": "numeric"},
    )
    deal_table = rule_field("deal_table", {"custom": _l("Our own number")})
    custom_deal = WholeNumberField(
        _l("Tiles each (our own number)"),
        validators=[Optional(), NumberRange(1, 40, _l("Type from 1 to %(n)s tiles each.", n=40))],
        render_kw={"inputmode": "numeric"},
    )
    keep_photos = BooleanField(
        _l("Keep hand photos with the rounds"),
        description=_l(
            "Off: a photo only checks the count and is deleted when the round is saved."
        ),
    )
    tie_break = rule_field("tie_break")
    late_joiner = rule_field("late_joiner")
    kind = HiddenField(default=DEFAULT_KIND)
    target = WholeNumberField(
        _l("Target score (empty: the game's usual target)"),
        validators=[
            Optional(),
            NumberRange(1, MAX_TARGET, _l("Type from 1 to %(n)s.", n=MAX_TARGET)),
        ],
        render_kw={"inputmode": "numeric"},
    )
    losing_total = WholeNumberField(
        _l("Losing total (empty: play every round)"),
        description=_l(
            "The game ends at the end of the round in which someone reaches it; the "
            "lowest total wins."
        ),
        validators=[
            Optional(),
            NumberRange(1, MAX_TARGET, _l("Type from 1 to %(n)s.", n=MAX_TARGET)),
        ],
        render_kw={"inputmode": "numeric"},
    )

    RULE_FIELDS = (*SCORING_RULES, *POINTS_RULES, "tie_break", "late_joiner")
    #: The round schedule's choices (train games only).
    SCHEDULE_FIELDS = ("order", "first_engine", "length", "rounds", "copies", "start_rule")

    def __init__(self, *args: Any, kind: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_submitted() and kind in VARIANTS:
            self.kind.data = kind
        if self.kind.data not in VARIANTS:
            self.kind.data = DEFAULT_KIND
        self._word_for_game()
        if not self.is_submitted():
            # The site's default (KEEP_PHOTOS); each game can still choose.
            self.keep_photos.data = bool(current_app.config.get("KEEP_PHOTOS"))
            # The chosen game's own defaults (Chicken Foot on a double-9, the 0-0 at 50, ...).
            for name, value in self.variant.default_rules.items():
                self[name].data = str(value)
        max_pip = int(self.max_pip.data) if str(self.max_pip.data).isdigit() else 12
        if max_pip not in (6, 9, 12, 15, 18):
            max_pip = 12
        self.first_engine.choices = {
            "" if value is None else str(value): str(text)
            for value, text in first_engine_options(max_pip)
        }
        # A set change can leave a first engine the new set does not have: keep the form valid.
        if self.first_engine.data not in self.first_engine.choices:
            self.first_engine.data = ""

    def _word_for_game(self) -> None:
        """The rules that read differently in the chosen game (``HouseRule.worded_in``) get its
        label and offer only its choices: a points game's ties are for the highest total, a
        game's deal is from its own sheets."""
        game = self.kind.data
        for name in (*self.RULE_FIELDS, "deal_table", "max_pip", "order", "length", "start_rule"):
            rule = HOUSE_RULES[name]
            if not rule.worded_in(game):
                continue
            field = self[name]
            field.label.text = rule.label_in(game)
            choices = {str(value): str(text) for value, text in rule.options_in(game)}
            if name == "deal_table":
                choices["custom"] = _("Our own number")
            field.choices = choices
            if not self.is_submitted() and field.data not in choices:
                field.data = str(rule.default_in(game))

    @property
    def variant(self) -> GameVariant:
        """The game being set up."""
        return variant_named(self.kind.data or DEFAULT_KIND)

    @property
    def other_game(self) -> bool:
        """True when the game set up is not the default game (the page names it)."""
        return self.variant is not default_game()

    def offers(self, name: str) -> bool:
        """Whether the chosen game has house rule ``name``."""
        return HOUSE_RULES[name].applies_to(self.kind.data)

    def shown_rules(self) -> list[str]:
        """The house rules of the chosen game, in the order the form lists them."""
        return [name for name in self.RULE_FIELDS if HOUSE_RULES[name].applies_to(self.kind.data)]

    def typed_names(self) -> list[str]:
        return [entry.data or "" for entry in self.names]

    def house_rules(self) -> HouseRules:
        """The chosen rules of the chosen game; raises ValueError with a sentence when they do
        not fit together. Rules that are not part of the game keep the game's defaults."""
        variant = self.variant

        def applies(name: str) -> bool:
            return HOUSE_RULES[name].applies_to(variant.name)

        max_pip = int(self.max_pip.data)
        deal: Any = self.deal_table.data if applies("order") else "standard"
        if deal == "custom":
            if self.custom_deal.data is None:
                raise ValueError(_("Type how many tiles each player gets, or pick a deal table."))
            players = len([n for n in self.typed_names() if n.strip()])
            deal = {max(players, 2): self.custom_deal.data}
        chosen = {
            name: HOUSE_RULES[name].parse(self[name].data)
            for name in ("copies", "order", "length", *self.RULE_FIELDS, "start_rule")
            if applies(name)
        }
        if applies("target") and self.target.data is not None:
            chosen["target"] = self.target.data
        if applies("losing_total") and self.losing_total.data is not None:
            chosen["losing_total"] = self.losing_total.data
        if not applies("order"):
            return variant.new_rules(max_pip=max_pip, **chosen)
        rounds = None
        if chosen["length"] == "fixed":
            if self.rounds.data is None:
                raise ValueError(_("Type how many rounds the game has, or choose another length."))
            rounds = self.rounds.data
        first_engine = int(self.first_engine.data) if self.first_engine.data else None
        doubles = (max_pip if first_engine is None else first_engine) + 1
        if chosen["order"] == "highest_available" and (
            chosen["length"] == "free" or (rounds or 0) > doubles
        ):
            raise ValueError(
                _(
                    "With “the highest double anyone holds” each double is the engine once: "
                    "choose at most %(n)s rounds, or another engine order.",
                    n=doubles,
                )
            )
        return variant.new_rules(
            max_pip=max_pip,
            first_engine=first_engine,
            deal_table=deal,
            rounds=rounds,
            **chosen,
        )


class SeatForm(Form):
    """One player's part of a round."""

    hand = WholeNumberField(
        _l("Points"),
        validators=[Optional(), NumberRange(min=0, message=_l("Points cannot be below 0."))],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    tiles = TextAreaField(
        _l("Tiles left (optional)"),
        validators=[Optional(), Length(max=400)],
        render_kw={
            "rows": 1,
            "autocomplete": "off",
            "autocapitalize": "none",
            "spellcheck": "false",
            "placeholder": _l("12-5, 3/4, double blank"),
        },
    )
    photo_token = HiddenField()
    photo_kept = HiddenField()  # the value kept over the photo's reading ("Keep 90")
    markers = WholeNumberField(
        _l("Markers left out"),
        default=0,
        validators=[Optional(), NumberRange(0, 20, _l("Markers: a number from 0 to 20."))],
        render_kw={"inputmode": "numeric"},
    )

    made = WholeNumberField(
        _l("Points made during play"),
        validators=[
            Optional(),
            NumberRange(0, 1000, _l("Points made: a number from 0 to 1000.")),
        ],
        render_kw={"inputmode": "numeric"},
    )
    open_doubles = WholeNumberField(
        _l("Doubles left open"),
        default=0,
        validators=[Optional(), NumberRange(0, 5, _l("Doubles left open: a number from 0 to 5."))],
        render_kw={"inputmode": "numeric"},
    )

    NUMBERS = ("hand", "markers", "open_doubles", "made")  # the numbers typed for a player

    def number(self, name: str) -> int | None:
        """The number typed in field ``name``; None when blank, when it was refused (its message
        says why) or when this game's form has no such field (a game without that rule)."""
        field = getattr(self, name, None)
        return field.data if field is not None and not field.errors else None

    @property
    def number_errors(self) -> list[str]:
        """The messages of the numbers typed for this player, in the form's order."""
        return [
            error
            for name in self.NUMBERS
            if (field := getattr(self, name, None)) is not None
            for error in field.errors
        ]


@cache
def _seat_form_class(markers: bool, made: bool, open_doubles: bool) -> type[SeatForm]:
    """The seat form with only the fields the game uses (a field set to None is left out):
    a form that asks for nothing it does not show, and costs less to build for each seat."""
    left_out = {
        name: None
        for name, used in (("markers", markers), ("made", made), ("open_doubles", open_doubles))
        if not used
    }
    return type("GameSeatForm", (SeatForm,), left_out) if left_out else SeatForm


class RoundForm(FlaskForm):
    """A round: one SeatForm per player, who went out (or blocked), the penalties."""

    went_out = RadioField(_l("Who went out?"), validate_choice=False)
    on_double = BooleanField(_l("Went out on a double"))
    engine = SelectField(_l("Engine double this round"), validate_choice=False)
    # What the write is based on: the round this form is for and the game's version when it was
    # opened; a correction also carries the round's values as the phone saw them (JSON).
    form_token = HiddenField()
    round_number = HiddenField()
    game_version = HiddenField()
    based_on = HiddenField()
    note = StringField(
        _l("Why the change? (optional)"),
        validators=[Optional(), Length(max=200)],
    )
    seat_count = 0
    seat_names: list[str] = []  # the players' names, in seat order

    @property
    def seats(self) -> list[FormField]:
        """The per-seat subforms in seat order."""
        return [self[f"seat_{position}"] for position in range(self.seat_count)]


@cache
def _round_form_class(seat_count: int, seat_form: type[SeatForm]) -> type[RoundForm]:
    """The round form class for a table of ``seat_count`` (made once per table size and kind
    of seat form)."""
    fields = {f"seat_{position}": FormField(seat_form) for position in range(seat_count)}
    return type("GameRoundForm", (RoundForm,), fields)


def round_form(
    loaded: LoadedGame, data: Any | None = None, number: int | None = None, **kwargs: Any
) -> RoundForm:
    """The round form for the seats that play round ``number`` (the next round when None):
    one SeatForm per seat, named ``seat_N-...`` by seat position (not a list, so a missing
    field can never shift a score to a neighbour). A late joiner sits at the next position,
    so the seats of an earlier round are always the first ones."""
    table = loaded.rows
    number = number or len(table.rounds) + 1
    seats = [seat for seat in table.seats if seat.joined_round <= number]
    seat_count = len(seats)
    rules = loaded.rules
    # A number the game does not use is still read when it is sent (an old page, a request
    # made by hand), so that the rules can say why it does not count instead of it being lost.
    sent = {key.rpartition("-")[2] for key in data} if data is not None else set()
    seat_form = _seat_form_class(
        markers=bool(rules.marker_penalty) or "markers" in sent,
        made=loaded.variant.makes_points or "made" in sent,
        open_doubles=rules.open_double_penalty != "none" or "open_doubles" in sent,
    )
    form = _round_form_class(seat_count, seat_form)(formdata=data, **kwargs)
    form.seat_count = seat_count
    form.seat_names = [seat.name for seat in seats]
    form.went_out.choices = {str(seat.position): seat.name for seat in seats} | {
        "blocked": _("Blocked round: nobody went out")
    }
    return form


class PhotoUploadForm(Form):
    """The photo step "Read the photo": the photo of one seat's tiles (``seat_N-photo``: made
    with ``prefix="seat_N"``)."""

    photo = FileField()


class KeepTypedForm(Form):
    """The photo step "Keep 90": the typed value kept over the photo's reading (the button's
    own value)."""

    kept = IntegerField(validators=[Optional(), NumberRange(min=0)])


class JoinForm(FlaskForm):
    """A player sits down at a running game."""

    name = StringField(
        _l("Name"),
        validators=[InputRequired(_l("Type the new player's name.")), Length(max=40)],
        render_kw={"autocomplete": "off", "autocapitalize": "words"},
    )


class EditCodeForm(FlaskForm):
    code = StringField(
        _l("Edit code"),
        validators=[InputRequired(_l("Type the edit code shown on the scorekeeper's phone."))],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )

"""Forms of a league: creating and joining, nights and tables, players, settings, import."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    Form,
    HiddenField,
    PasswordField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
    widgets,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorekeeper.games.forms import (
    SCORING_RULES,
    HouseRuleFields,
    PlainWordsMixin,
    WholeNumberField,
    rule_field,
)
from scorekeeper.leagues.services import (
    MAX_LEAGUE_NAME,
    MAX_PASSPHRASE,
    MAX_PLACE,
    MAX_PLAYER_NAME,
    MAX_TABLE_NAME,
    MIN_PASSPHRASE,
)
from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import DEFAULT_KIND, VARIANTS
from scorekeeper.rules.house import HOUSE_RULES
from scorekeeper.rules.placings import parse_placement_points
from scorekeeper.rules.standings import (
    DEFAULT_MIN_GAMES,
    METHOD_REGISTRY,
    Method,
    UnknownMethod,
    default_method,
    method_named,
)
from scorekeeper.web.i18n import LANGUAGES

GUEST_FIELDS = 3


class FriendlyDateField(PlainWordsMixin, DateField):
    """A date from the calendar, or a sentence saying so; keeps what was typed."""

    message = _l("Choose a date from the calendar, like 2025-03-06.")
    parse = staticmethod(date.fromisoformat)


class NewLeagueForm(FlaskForm):
    name = StringField(
        _l("League name"),
        validators=[
            InputRequired(_l("Give the league a name.")),
            Length(
                max=MAX_LEAGUE_NAME,
                message=_l("Use at most %(n)s characters.", n=MAX_LEAGUE_NAME),
            ),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "words"},
    )
    passphrase = StringField(
        _l("Passphrase for scorekeeping phones"),
        description=_l(
            "Phones that type this may keep score for the league. Pick something easy to say "
            "out loud, at least %(n)s characters and two words or more, like “blue engine 7”. "
            "Capitals and extra spaces do not matter.",
            n=MIN_PASSPHRASE,
        ),
        validators=[InputRequired(_l("Choose a passphrase.")), Length(max=MAX_PASSPHRASE)],
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )


class PassphraseForm(FlaskForm):
    passphrase = PasswordField(
        _l("League passphrase"),
        description=_l("Ask the organiser. Capitals and extra spaces do not matter."),
        validators=[InputRequired(_l("Type the league's passphrase."))],
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )


class JoinForm(PassphraseForm):
    code = StringField(
        _l("League code"),
        description=_l("Six letters and numbers, shown on the organiser's phone."),
        validators=[InputRequired(_l("Type the league code.")), Length(max=12)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )


class ConfirmForm(FlaskForm):
    """A form with only its CSRF token: a button that changes something."""


class NightForm(FlaskForm):
    played_on = FriendlyDateField(
        _l("Date"), validators=[InputRequired(_l("Choose the night's date."))]
    )
    place = StringField(
        _l("Place"),
        description=_l("Where you play, like “Community hall”. Optional."),
        validators=[
            Optional(),
            Length(max=MAX_PLACE, message=_l("At most %(n)s characters.", n=MAX_PLACE)),
        ],
    )


class GuestBoxes:
    """The guest boxes of a form that seats players (``templates/leagues/_macros.html``
    ``guest_boxes``): plain inputs ``guest-0`` .. ``guest-2``, read as typed."""

    def guest_names(self, form_data: Any) -> list[str]:
        return [form_data.get(f"guest-{i}", "") for i in range(GUEST_FIELDS)]


class TableForm(GuestBoxes, FlaskForm):
    table_name = StringField(
        _l("Table name"),
        validators=[
            Optional(),
            Length(max=MAX_TABLE_NAME, message=_l("At most %(n)s characters.", n=MAX_TABLE_NAME)),
        ],
        render_kw={"maxlength": False},  # refused with the limit, never cut by the browser
    )
    players = SelectMultipleField(
        _l("Players at this table"),
        coerce=int,
        validate_choice=False,
        option_widget=widgets.CheckboxInput(),
        widget=widgets.ListWidget(prefix_label=False),
    )
    game = RadioField(
        _l("Which game?"),
        # Read when the form is built: every registered game.
        choices=lambda: [SelectChoice(name, variant.label) for name, variant in VARIANTS.items()],
        default=DEFAULT_KIND,
    )
    guests = StringField(
        _l("Guests (not on the roster)"),
        description=_l("One name per box. Guests play tonight without joining the standings."),
        validators=[Optional(), Length(max=MAX_PLAYER_NAME)],
    )

    seat_order = HiddenField(default="")

    def seated_ids(self) -> list[int]:
        """The chosen players in seat order: the order they were tapped in (``seat_order``,
        kept by the page's script), then any others in the order of the list."""
        chosen = list(self.players.data or [])
        tapped = []
        for part in (self.seat_order.data or "").split(","):
            if part.strip().isdecimal() and int(part) in chosen and int(part) not in tapped:
                tapped.append(int(part))
        return tapped + [player for player in chosen if player not in tapped]


class SeatForm(GuestBoxes, FlaskForm):
    """Seat tonight's tables: who is here, how many a table; the proposal it shows comes back
    in ``tables`` with what it was based on (``present``, ``basis``)."""

    players = SelectMultipleField(
        _l("Who is here?"),
        coerce=int,
        validate_choice=False,
        option_widget=widgets.CheckboxInput(),
        widget=widgets.ListWidget(prefix_label=False),
    )
    size = SelectField(
        _l("Players per table"),
        choices=[SelectChoice(n, str(n)) for n in (3, 4, 5, 6)],
        coerce=int,
        default=4,
    )
    strong = BooleanField(
        _l("Strong with strong"),
        description=_l("Tables by the current standings, the top players together: for a final."),
    )
    tables = HiddenField(default="")
    present = HiddenField(default="")
    basis = HiddenField(default="")


class LateForm(FlaskForm):
    """A late arrival: a player of the league, or a guest's name."""

    player = SelectField(_l("Who arrived?"), coerce=int, validate_choice=False, default=0)
    guest = StringField(
        _l("Or a guest's name"),
        validators=[
            Optional(),
            Length(
                max=MAX_PLAYER_NAME,
                message=_l("A name may have at most %(n)s characters.", n=MAX_PLAYER_NAME),
            ),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "words", "maxlength": False},
    )


# A name longer than the limit is refused with the limit, never cut: no ``maxlength`` on the
# page (a browser cuts a pasted text at it without a word).
NAME_TOO_LONG = _l("A name may have at most %(n)s characters.", n=MAX_PLAYER_NAME)
MAX_PASTED_NAMES = 4000  # a club's whole list pasted at once, with room to spare


class PlayerForm(FlaskForm):
    """One player, or several: one name a line (a list pasted from a spreadsheet or a chat)."""

    name = TextAreaField(
        _l("Player's name"),
        description=_l("Several at once? One name a line: paste the club's list."),
        validators=[
            InputRequired(_l("Type the player's name.")),
            Length(max=MAX_PASTED_NAMES, message=_l("That is too much text: paste fewer names.")),
        ],
        render_kw={
            "autocomplete": "off",
            "autocapitalize": "words",
            "rows": 2,
            "maxlength": False,
        },
    )

    def names(self) -> list[str]:
        """The names typed, one a line, blank lines left out."""
        return [line.strip() for line in (self.name.data or "").splitlines() if line.strip()]


class EditPlayerForm(FlaskForm):
    name = StringField(
        _l("Player's name"),
        validators=[
            InputRequired(_l("Type the player's name.")),
            Length(max=MAX_PLAYER_NAME, message=NAME_TOO_LONG),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "words", "maxlength": False},
    )
    guest = BooleanField(_l("Guest (not ranked in the standings)"))


class MergeForm(FlaskForm):
    target = SelectField(
        _l("Same person as"),
        validate_choice=False,
        validators=[InputRequired(_l("Choose who this player really is."))],
    )
    confirm = HiddenField(default="")


class SeasonForm(FlaskForm):
    name = StringField(
        _l("Season name"),
        validators=[InputRequired(_l("Give the season a name, like “2025”.")), Length(max=60)],
    )
    starts_on = FriendlyDateField(
        _l("First day"), validators=[InputRequired(_l("Choose the first day."))]
    )
    ends_on = FriendlyDateField(
        _l("Last day"), validators=[InputRequired(_l("Choose the last day."))]
    )


class PeriodForm(Form):
    """The standings filter (a GET form: no CSRF token, nothing changes)."""

    season = SelectField(_l("Season"), validate_choice=False)
    start = FriendlyDateField(_l("From"), validators=[Optional()])
    end = FriendlyDateField(_l("To"), validators=[Optional()])


LEAGUE_RULE_FIELDS = ("max_pip", *SCORING_RULES, "start_rule", "tie_break", "late_joiner")


def _method_choices() -> list[SelectChoice]:
    return [SelectChoice(name, method.choice) for name, method in METHOD_REGISTRY.items()]


def _known_method(form: Any, field: Any) -> None:
    """A ranking method posted that no declaration has is refused with a sentence (nothing
    posted keeps the default)."""
    if field.data:
        try:
            method_named(field.data)
        except UnknownMethod as error:
            raise ValidationError(str(error)) from None


class SettingsForm(HouseRuleFields, FlaskForm):  # type: ignore[valid-type,misc]
    RULE_FIELDS = LEAGUE_RULE_FIELDS
    name = StringField(
        _l("League name"),
        validators=[InputRequired(_l("Give the league a name.")), Length(max=MAX_LEAGUE_NAME)],
    )
    ranking = RadioField(
        _l("Rank players by"),
        choices=_method_choices,  # read when a form is made: every method declared by then
        default=lambda: default_method().name,
        validate_choice=False,  # _known_method says what is wrong in words
        validators=[_known_method],
    )
    min_games = WholeNumberField(
        _l("Minimum games to be ranked (average only)"),
        default=DEFAULT_MIN_GAMES,
        validators=[
            InputRequired(_l("Type a number of games, like 3.")),
            NumberRange(1, 1000, _l("Type from 1 to 1000 games.")),
        ],
        render_kw={"inputmode": "numeric"},
    )
    min_nights_percent = WholeNumberField(
        _l("…or this share of the nights held, when more (%)"),
        default=0,
        description=_l("0 to use only the number of games above."),
        validators=[Optional(), NumberRange(0, 100, _l("Type a percentage from 0 to 100."))],
        render_kw={"inputmode": "numeric"},
    )
    placement_points = StringField(
        _l("Placement points for 1st, 2nd, 3rd …"),
        default="5, 3, 2, 1",
        description=_l("Separated by commas. Later places get 0."),
        validators=[Optional(), Length(max=80)],
    )
    best_nights = WholeNumberField(
        _l("Count only each player's best nights (placement points only)"),
        description=_l("Leave empty to add up every night."),
        validators=[Optional(), NumberRange(1, 1000, _l("Type from 1 to 1000 nights."))],
        render_kw={"inputmode": "numeric"},
    )
    language = RadioField(
        _l("Language of the league's pages"),
        description=_l(
            "For phones that have not chosen a language: the league's pages and its members' "
            "link. A phone's own choice (at the foot of every page) always wins."
        ),
        choices=[
            SelectChoice("", _l("Each phone's own language")),
            *(SelectChoice(code, name) for code, name in LANGUAGES.items()),
        ],
        validate_choice=False,  # anything else is saved as "each phone's own"
        default="",
    )
    max_pip = rule_field("max_pip")
    tie_break = rule_field("tie_break")
    late_joiner = rule_field("late_joiner")

    def method(self) -> Method:
        """The chosen ranking; raises ValueError with a sentence (placement points)."""
        text = self.placement_points.data or "5, 3, 2, 1"
        try:
            points = parse_placement_points(text)
        except ValueError as error:
            self.placement_points.errors = [*self.placement_points.errors, str(error)]
            raise
        return Method(
            kind=self.ranking.data
            if self.ranking.data in METHOD_REGISTRY
            else default_method().name,
            min_games=self.min_games.data or DEFAULT_MIN_GAMES,
            min_nights_percent=self.min_nights_percent.data or 0,
            placement_points=points,
            best_nights=self.best_nights.data,
        )

    def house_rules(self, current: HouseRules) -> HouseRules:
        """The rules new tables start with; other rules stay as they were."""
        values = current.to_dict()
        for name in LEAGUE_RULE_FIELDS:
            values[name] = HOUSE_RULES[name].parse(self[name].data)
        return HouseRules.from_dict(values)

    def fill(self, league: Any, rules: HouseRules) -> None:
        self.name.data = league.name
        self.ranking.data = league.ranking
        try:
            method_named(league.ranking)
        except UnknownMethod as error:  # stored by another version of the app: say so
            self.ranking.data = None
            self.ranking.errors = [str(error)]
        self.min_games.data = league.min_games
        self.min_nights_percent.data = league.min_nights_percent
        self.placement_points.data = league.placement_points.replace(",", ", ")
        self.best_nights.data = league.best_nights
        self.language.data = league.language or ""
        current = rules.to_dict()
        for name in LEAGUE_RULE_FIELDS:
            self[name].data = str(current[name])


class NewPassphraseForm(FlaskForm):
    new_passphrase = StringField(
        _l("New passphrase"),
        description=_l(
            "Every other phone is signed out: scorekeepers need the new passphrase, members the "
            "new members' link. Use at least %(n)s characters and two words or more. Capitals "
            "and extra spaces do not matter.",
            n=MIN_PASSPHRASE,
        ),
        validators=[InputRequired(_l("Type the new passphrase.")), Length(max=MAX_PASSPHRASE)],
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )


class PublicPageForm(FlaskForm):
    action = HiddenField()


class ImportForm(FlaskForm):
    file = FileField(
        _l("File to import"),
        description=_l(
            "A CSV file with the columns night, table, player, round, score (one row per "
            "player per round), or a league this app exported: its .zip or its .json file."
        ),
        render_kw={"accept": ".csv,.txt,.zip,.json,text/csv,application/json"},
    )
    dates = RadioField(
        _l("Dates like 03/04/2025 mean"),
        choices=[
            SelectChoice("day_first", _l("3 April (day first)")),
            SelectChoice("month_first", _l("March 4 (month first)")),
        ],
        default="day_first",
    )


class ImportConfirmForm(FlaskForm):
    token = HiddenField()

"""Forms of the table helper (GET forms: nothing is stored, so no CSRF token). The choices
are the house rules' own, read from their declarations (``rules.house``)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, TextAreaField
from wtforms.validators import InputRequired, NumberRange, Optional

from scorekeeper.rules import HOUSE_RULES
from scorekeeper.rules.games import DEFAULT_KIND, VARIANTS, GameVariant, variant_or_default


def _offered(name: str, *, leave_out: tuple[object, ...] = ()) -> object:
    """A house rule's choices as its declaration words them (``rules.house``), for a field:
    {value: explanation} in the language of the request, the rule book's default first."""
    return lambda: {
        str(value): str(text) for value, text in HOUSE_RULES[name].options if value not in leave_out
    }


class HelperForm(FlaskForm):
    class Meta:
        csrf = False

    game = SelectField(
        _l("Which game?"),
        choices=lambda: {name: str(variant.label) for name, variant in VARIANTS.items()},
        default=DEFAULT_KIND,
        validate_choice=False,  # an unknown game is the default one, as on the new-game page
    )
    max_pip = SelectField(_l("Set"), choices=_offered("max_pip"), coerce=int, default=12)
    players = IntegerField(
        _l("Players"),
        default=4,
        validators=[
            InputRequired(_l("Type how many people are playing.")),
            NumberRange(
                2, 16, _l("Type a number of players from %(low)s to %(high)s.", low=2, high=16)
            ),
        ],
        render_kw={"inputmode": "numeric", "min": 2, "max": 16},
    )
    deal_table = SelectField(
        _l("Deal table (double-12)"),
        choices=_offered("deal_table", leave_out=("custom",)),
        default="standard",
        description=_l("Use the sheet that came in your box."),
    )
    hand = TextAreaField(
        _l("Tiles left in a hand"),
        validators=[Optional()],
        description=_l('Any way you write them: "12-5, 3/4, double blank".'),
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )
    double_blank = SelectField(
        _l("Double blank"), choices=_offered("double_blank"), coerce=int, default=0
    )

    @property
    def variant(self) -> GameVariant:
        """The game chosen (the default game for anything else)."""
        return variant_or_default(self.game.data)

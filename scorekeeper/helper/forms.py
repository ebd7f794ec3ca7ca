"""Forms of the table helper (GET forms: nothing is stored, so no CSRF token)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, TextAreaField
from wtforms.validators import InputRequired, NumberRange, Optional

from scorekeeper.games.forms import said
from scorekeeper.rules import SETS

SET_CHOICES = {
    str(n): _l("Double-%(n)s (%(tiles)s tiles)", n=n, tiles=(n + 1) * (n + 2) // 2) for n in SETS
}
# WTForms' shorthand: {value: label}, in display order.
DEAL_CHOICES = {
    "standard": _l("Standard table"),
    "cardinal": _l("Cardinal box sheet"),
    "fundex": _l("Fundex box sheet"),
    "gamerules": _l("Gamerules sheet"),
}
DOUBLE_BLANK_CHOICES = {
    "0": _l("Double blank counts %(n)s", n=0),
    "25": _l("Double blank counts %(n)s", n=25),
    "50": _l("Double blank counts %(n)s", n=50),
}


class HelperForm(FlaskForm):
    class Meta:
        csrf = False

    max_pip = SelectField(_l("Set"), choices=said(SET_CHOICES), coerce=int, default=12)
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
        choices=said(DEAL_CHOICES),
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
        _l("Double blank"), choices=said(DOUBLE_BLANK_CHOICES), coerce=int, default=0
    )

"""Forms of the table helper (GET forms: nothing is stored, so no CSRF token)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, TextAreaField
from wtforms.validators import InputRequired, NumberRange, Optional

from scorekeeper.rules import SETS

SET_CHOICES = {str(n): f"Double-{n} ({(n + 1) * (n + 2) // 2} tiles)" for n in SETS}
# WTForms' shorthand: {value: label}, in display order.
DEAL_CHOICES = {
    "standard": "Standard table",
    "cardinal": "Cardinal box sheet",
    "fundex": "Fundex box sheet",
    "gamerules": "Gamerules sheet",
}
DOUBLE_BLANK_CHOICES = {
    "0": "Double blank counts 0",
    "25": "Double blank counts 25",
    "50": "Double blank counts 50",
}


class HelperForm(FlaskForm):
    class Meta:
        csrf = False

    max_pip = SelectField("Set", choices=SET_CHOICES, coerce=int, default=12)
    players = IntegerField(
        "Players",
        default=4,
        validators=[
            InputRequired("Type how many people are playing."),
            NumberRange(2, 16, "Type a number of players from 2 to 16."),
        ],
        render_kw={"inputmode": "numeric", "min": 2, "max": 16},
    )
    deal_table = SelectField(
        "Deal table (double-12)",
        choices=DEAL_CHOICES,
        default="standard",
        description="Use the sheet that came in your box.",
    )
    hand = TextAreaField(
        "Tiles left in a hand",
        validators=[Optional()],
        description='Any way you write them: "12-5, 3/4, double blank".',
        render_kw={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"},
    )
    double_blank = SelectField("Double blank", choices=DOUBLE_BLANK_CHOICES, coerce=int, default=0)

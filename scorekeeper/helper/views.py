"""Views of the table helper and the start page."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from scorekeeper.helper import services
from scorekeeper.helper.forms import HelperForm

bp = Blueprint("helper", __name__)


def _helper_form() -> HelperForm:
    return HelperForm(formdata=request.args if request.args else None)


@bp.get("/helper")
def table_helper() -> str:
    form = _helper_form()
    summary = None
    # A first visit shows the defaults' table straight away.
    if not request.args or form.validate():
        try:
            summary = services.summarise_table(
                form.max_pip.data, form.players.data, form.deal_table.data, form.variant.name
            )
        except ValueError as error:
            form.players.errors.append(str(error))
    count = _count(form)
    return render_template("helper/table_helper.html", form=form, summary=summary, count=count)


@bp.get("/helper/count")
def count_hand() -> str:
    """The hand total alone: the partial htmx swaps in while someone types."""
    form = _helper_form()
    form.validate()
    return render_template("helper/_hand_count.html", form=form, count=_count(form))


def _count(form: HelperForm) -> services.HandCount | None:
    if form.max_pip.errors or form.double_blank.errors or not (form.hand.data or "").strip():
        return None
    return services.count_hand(form.hand.data, form.max_pip.data, form.double_blank.data)

"""The cheap attribute writer writes exactly what WTForms' own writes, for any attributes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from scorekeeper.form_widgets import html_params, original_html_params

NAMES = st.from_regex(r"\A(data_|aria_)?[a-z][a-z_]{0,10}_?\Z")
VALUES = st.one_of(
    st.booleans(),
    st.integers(),
    st.text(),
    st.text().map(Markup),  # already safe markup, which may hold a raw quote
    st.sampled_from(['say "hi"', "a & b", "<b>", "it's", Markup('x="1"')]),
)


@given(st.dictionaries(NAMES, VALUES, max_size=8))
def test_the_same_text_as_wtforms(attributes: dict[str, object]) -> None:
    ours = html_params(**attributes)
    theirs = original_html_params(**attributes)
    assert ours == theirs
    assert isinstance(ours, Markup)


def test_examples_from_the_wtforms_documentation() -> None:
    assert html_params(data_attr="user.name", aria_labeledby="name") == (
        'aria-labeledby="name" data-attr="user.name"'
    )
    assert html_params(name="text1", id="f", class_="text") == 'class="text" id="f" name="text1"'
    assert html_params(checked=True, readonly=False, name="text1", abc="hello") == (
        'abc="hello" checked name="text1"'
    )
    assert html_params(value='say "hi" <now>') == 'value="say &#34;hi&#34; &lt;now&gt;"'


def test_every_widget_uses_it_once_the_app_is_made() -> None:
    import wtforms.widgets
    from wtforms.widgets import core

    from scorekeeper import create_app

    create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})
    assert core.html_params is html_params
    assert wtforms.widgets.html_params is html_params
    assert core.Input.html_params is html_params

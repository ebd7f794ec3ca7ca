"""The round form's inputs written by the template macro (templates/games/_inputs.html) are the
inputs WTForms' widgets write: the same attributes and values, for values typed, refused and
hostile, and whatever the page adds."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask, render_template_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from scorekeeper.games.forms import SeatForm


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})
    with app.test_request_context():
        yield app


class _Inputs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            self.found.append(dict(attrs))


def _attributes(html: str) -> list[dict[str, str | None]]:
    parser = _Inputs()
    parser.feed(html)
    return parser.found


MACRO = '{% import "games/_inputs.html" as inputs %}{{ inputs.input(f, kind, **extra) }}'


def _both(form: SeatForm, name: str, kind: str, extra: dict[str, Any]) -> tuple[Any, Any]:
    field = form[name]
    ours = render_template_string(MACRO, f=field, kind=kind, extra=extra)
    wtforms = field(type=kind, **extra) if kind != "hidden" else field(**extra)
    return _attributes(ours), _attributes(str(wtforms))


typed = st.text(max_size=12) | st.sampled_from(["12", "-5", "abc", '"><script>', "1e3", ""])
extras = st.fixed_dictionaries(
    {},
    optional={
        "placeholder": st.text(max_size=8),
        "aria-describedby": st.just("seat-0-feedback"),
        "aria-invalid": st.just("true"),
        "enterkeyhint": st.sampled_from(["next", "done"]),
        "min": st.integers(0, 5),
        "max": st.integers(5, 20),
        "class": st.just("points"),
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    value=typed,
    field=st.sampled_from(
        [("hand", "text"), ("markers", "number"), ("made", "number"), ("photo_token", "hidden")]
    ),
    extra=extras,
)
def test_the_macro_writes_what_wtforms_writes(
    app: Flask, value: str, field: tuple[str, str], extra: dict[str, Any]
) -> None:
    name, kind = field
    form = SeatForm(MultiDict({name: value}), meta={"csrf": False})
    form.validate()
    ours, theirs = _both(form, name, kind, extra)
    assert ours == theirs


class _Textarea(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.attributes: dict[str, str | None] = {}
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "textarea":
            self.attributes = dict(attrs)

    def handle_data(self, data: str) -> None:
        self.text += data


def _textarea(html: str) -> tuple[dict[str, str | None], str]:
    parser = _Textarea()
    parser.feed(html)
    # The line break after <textarea> is not part of the value (WTForms writes CR LF).
    return parser.attributes, parser.text.removeprefix("\r").removeprefix("\n")


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=typed)
def test_the_tiles_box_is_what_wtforms_writes(app: Flask, value: str) -> None:
    form = SeatForm(MultiDict({"tiles": value}), meta={"csrf": False})
    form.validate()
    ours = render_template_string(
        '{% import "games/_inputs.html" as inputs %}{{ inputs.textarea(f) }}', f=form.tiles
    )
    assert _textarea(ours) == _textarea(str(form.tiles()))

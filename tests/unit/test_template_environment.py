"""The templates' sentences: what Jinja and markupsafe would give (a hostile name escaped,
markup kept, numbers as typed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask, render_template_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from scorekeeper import create_app


@pytest.fixture(scope="module")
def app() -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})
    with app.test_request_context():
        yield app


names = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names | st.integers() | names.map(Markup), count=st.integers(-5, 10**6))
def test_a_sentence_escapes_what_is_put_in_it_as_markupsafe_does(
    app: Flask, name: object, count: int
) -> None:
    """What a sentence's variables become on an escaped page is exactly markupsafe's
    ``Markup(sentence) % variables`` (a hostile name escaped, markup kept, numbers as typed),
    and on an unescaped page plain %-formatting."""
    sentence = "<b>%(name)s</b> wins after %(n)s rounds (100%%)"
    page = render_template_string("{{ _(s, name=name, n=n) }}", s=sentence, name=name, n=count)
    assert page == Markup(sentence) % {"name": name, "n": count}
    plain = render_template_string(
        "{% autoescape false %}{{ _(s, name=name, n=n) }}{% endautoescape %}",
        s=sentence,
        name=name,
        n=count,
    )
    assert plain == sentence % {"name": name, "n": count}


def test_a_hostile_name_in_a_plural_sentence_is_escaped(app: Flask) -> None:
    page = render_template_string(
        "{{ ngettext('%(num)s round for %(name)s', '%(num)s rounds for %(name)s', 2, name=name) }}",
        name='<script>alert("x")</script>',
    )
    assert page == "2 rounds for &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"

"""The cheap conditional GET (``web.unchanged_polls``): a current copy of ``state.json`` or the
live board gets its 304 before Flask, with the headers and in the language Flask's own answer
has; anything else is Flask's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import running_app
from tests.web.helpers import enter_round, start_game

POLLS = ("state.json", "watch/board")

# What phones send about their language, and the language each gets.
PHONES = [
    ({}, "en"),
    ({"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}, "es"),
    ({"Accept-Language": "de-DE, fr;q=0.7"}, "fr"),
    ({"Accept-Language": "en;q=0.2, fr_CA"}, "fr"),
    ({"Accept-Language": "*"}, "en"),
]
COOKIES = [(None, None), ("fr", "fr"), ("es", "es"), ("xx", None), ("pseudo", None)]


@contextmanager
def flask_only(app: Flask) -> Iterator[None]:
    """Requests go straight to Flask (the middleware taken out)."""
    polls = app.extensions["unchanged_polls"]
    app.wsgi_app = polls.wsgi_app  # type: ignore[method-assign]
    try:
        yield
    finally:
        app.wsgi_app = polls  # type: ignore[method-assign]


def _ask(client: FlaskClient, path: str, headers: dict[str, str], cookie: str | None) -> Any:
    client.delete_cookie("lang")
    if cookie:
        client.set_cookie("lang", cookie)
    return client.get(path, headers=headers)


@pytest.mark.parametrize("cookie,by_cookie", COOKIES)
@pytest.mark.parametrize("headers,language", PHONES)
def test_a_current_copy_gets_the_304_flask_would_give(
    app: Flask,
    client: FlaskClient,
    headers: dict[str, str],
    language: str,
    cookie: str | None,
    by_cookie: str | None,
) -> None:
    public_id = start_game(client, ["Ann", "Bob"])
    assert enter_round(client, public_id, {0: 0, 1: 12}, went_out=0).status_code == 302
    for poll in POLLS:
        path = f"/g/{public_id}/{poll}"
        with flask_only(app):
            first = _ask(client, path, headers, cookie)
            tag = {"If-None-Match": first.headers["ETag"], **headers}
            flask_304 = _ask(client, path, tag, cookie)
        assert first.status_code == 200 and flask_304.status_code == 304
        if poll == "watch/board":
            assert first.headers["Content-Language"] == (by_cookie or language)

        def not_flask(*_args: Any) -> Any:
            raise AssertionError("Flask was asked")

        polls = app.extensions["unchanged_polls"]
        flask_app, polls.wsgi_app = polls.wsgi_app, not_flask
        try:
            ours = _ask(client, path, tag, cookie)
        finally:
            polls.wsgi_app = flask_app
        assert ours.status_code == 304
        # Flask's also sends the session cookie again (its 400 days start again): a page
        # load does that; a poll need not.
        expected = [item for item in flask_304.headers.items() if item[0] != "Set-Cookie"]
        assert sorted(ours.headers.items()) == sorted(expected)


def test_another_copy_is_answered_by_flask(client: FlaskClient) -> None:
    """An older version, another language's copy, a deleted game, a POST: Flask answers."""
    public_id = start_game(client, ["Ann", "Bob"])
    path = f"/g/{public_id}/watch/board"
    old = client.get(path).headers["ETag"]
    assert enter_round(client, public_id, {0: 0, 1: 12}, went_out=0).status_code == 302
    fresh = client.get(path, headers={"If-None-Match": old})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != old
    assert "12" in fresh.get_data(as_text=True)
    english = fresh.headers["ETag"]
    spanish = client.get(path, headers={"If-None-Match": english, "Accept-Language": "es"})
    assert spanish.status_code == 200 and spanish.headers["Content-Language"] == "es"
    state = client.get(f"/g/{public_id}/state.json", headers={"If-None-Match": "*"})
    assert state.status_code == 304  # as Flask answers "*" (werkzeug: any tag)
    assert (
        client.get("/g/nosuchgame1/state.json", headers={"If-None-Match": english}).status_code
        == 404
    )


@pytest.fixture
def https_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, HTTPS=True) as app:
        yield app


def test_over_https_the_304_keeps_hsts(https_app: Flask) -> None:
    client = https_app.test_client()
    public_id = start_game(client, ["Ann", "Bob"])
    path = f"/g/{public_id}/state.json"
    tag = client.get(path).headers["ETag"]
    answer = client.get(path, headers={"If-None-Match": tag})
    assert answer.status_code == 304
    assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"

"""Cookies and transport: Secure session cookie and HSTS on HTTPS; X-Forwarded-* headers only
from trusted proxies; every POST route refuses a request without a CSRF token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import running_app
from tests.web.helpers import setup_data


def session_cookie(response) -> str:  # type: ignore[no-untyped-def]
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert cookies, response.headers
    return cookies[0]


def test_plain_http_has_no_hsts_and_a_cookie_for_400_days(client: FlaskClient) -> None:
    response = client.post("/games/new", data=setup_data(["Ann", "Bob"]))
    assert response.status_code == 302
    assert "Strict-Transport-Security" not in response.headers
    cookie = session_cookie(response)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))  # type: ignore[union-attr]
    assert (expires - datetime.now(UTC)).days in (399, 400)


def test_https_requests_get_a_secure_cookie_and_hsts(client: FlaskClient) -> None:
    response = client.get("/games/new", base_url="https://localhost")
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    # A new phone (the cookie goes back only with an answer that changed it).
    phone = client.application.test_client()
    cookie = session_cookie(
        phone.post("/games/new", data=setup_data(["A", "B"]), base_url="https://localhost")
    )
    assert "; Secure" in cookie


def test_the_https_setting_makes_the_cookie_secure_behind_any_proxy(
    migrated_database: str,
) -> None:
    with running_app(migrated_database, HTTPS=True) as app:
        client = app.test_client()
        response = client.post("/games/new", data=setup_data(["A", "B"]))
        assert "; Secure" in session_cookie(response)
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


FORWARDED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}


def test_forwarded_headers_are_ignored_without_trusted_proxies(client: FlaskClient) -> None:
    client.application.add_url_rule(
        "/_who", "who", lambda: __import__("flask").request.remote_addr or ""
    )
    response = client.get("/_who", headers=FORWARDED)
    assert response.get_data(as_text=True) == "127.0.0.1"
    assert "Strict-Transport-Security" not in response.headers


def test_forwarded_headers_count_from_one_trusted_proxy(migrated_database: str) -> None:
    with running_app(migrated_database, TRUSTED_PROXIES=1) as app:
        app.add_url_rule("/_who", "who", lambda: __import__("flask").request.remote_addr or "")
        response = app.test_client().get("/_who", headers=FORWARDED)
        assert response.get_data(as_text=True) == "203.0.113.9"
        assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
        # A second, spoofed address in front is not believed: only the proxy's own entry is.
        spoofed = {**FORWARDED, "X-Forwarded-For": "10.0.0.1, 203.0.113.9"}
        assert app.test_client().get("/_who", headers=spoofed).get_data(as_text=True) == (
            "203.0.113.9"
        )


# --------------------------------------------------------------------------------------------
# CSRF on every POST route, found from the URL map (a new route without a token fails here)


def _sample_url(rule) -> str:  # type: ignore[no-untyped-def]
    values = {
        name: 1 if type(converter).__name__ == "IntegerConverter" else "x"
        for name, converter in rule._converters.items()
    }
    return (
        rule.rule
        if not values
        else re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: str(values[m.group(1)]), rule.rule)
    )


@pytest.fixture
def csrf_routes(csrf_app: Flask) -> Iterator[list[str]]:
    yield sorted(
        {
            _sample_url(rule)
            for rule in csrf_app.url_map.iter_rules()
            if "POST" in (rule.methods or set())
        }
    )


def test_every_post_route_without_a_token_is_refused(
    csrf_app: Flask, csrf_routes: list[str]
) -> None:
    assert len(csrf_routes) >= 30, csrf_routes
    client = csrf_app.test_client()
    answers = {url: client.post(url, data={"name": "x"}).status_code for url in csrf_routes}
    assert {url: code for url, code in answers.items() if code != 400} == {}

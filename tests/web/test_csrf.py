"""CSRF protection is on outside tests: a POST without the token saves nothing."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import setup_data


def test_post_without_token_is_refused_with_a_clear_page(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    response = client.post("/games/new", data=setup_data(["Ann", "Bob"]))
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)


def test_post_with_token_is_accepted(csrf_app: Flask) -> None:
    client: FlaskClient = csrf_app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    data = {**setup_data(["Ann", "Bob"]), "csrf_token": token.group(1)}
    assert client.post("/games/new", data=data).status_code == 302

"""``/healthz`` (issue 23): JSON for the proxy and monitors, checks the database, never cached,
never rate-limited."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from scorekeeper.extensions import limiter
from tests.conftest import make_app, running_app


def test_healthz_says_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok"}
    assert "no-store" in response.headers["Cache-Control"]


def test_healthz_says_when_the_database_does_not(tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'no such folder' / 'db.sqlite'}")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "error", "database": "unreachable"}
    assert "no-store" in response.headers["Cache-Control"]


def test_healthz_is_never_rate_limited(migrated_database: str) -> None:
    try:
        with running_app(
            migrated_database, RATELIMIT_ENABLED=True, RATELIMIT_DEFAULT="2 per minute"
        ) as app:
            client = app.test_client()
            assert [client.get("/helper").status_code for _ in range(3)][-1] == 429
            assert {client.get("/healthz").status_code for _ in range(20)} == {200}
    finally:
        # The limiter is one object for every app of the test run, and Flask-Limiter keeps
        # default limits once set: the apps of later tests must not inherit this one's.
        limiter.limit_manager.set_default_limits([])

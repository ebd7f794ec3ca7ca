"""Fixtures shared by the web and browser tests: an app on a migrated database, a client.

The database is a temporary SQLite file, or ``TEST_DATABASE_URL`` (CI runs the suite again on
PostgreSQL). The schema is built once per run by the migrations, then emptied after each test.

Two checks on every test: what the package keeps for the life of the process (functools caches,
kept values) is emptied before it, so no test sees what another left; and a test that starts a
process must be marked ``slow`` (``make test-fast`` leaves those out), or it fails here.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.database import fresh_schema
from tests.process_caches import clear_process_caches

E2E = os.path.join(os.path.dirname(__file__), "e2e")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is ``e2e`` and ``slow`` (it drives Chromium, a process of its own)."""
    for item in items:
        if str(item.path).startswith(E2E + os.sep):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _fresh_process_caches() -> None:
    clear_process_caches()


@pytest.fixture(autouse=True)
def _processes_only_in_slow_tests(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test not marked ``slow`` that starts a process (subprocess.run, Popen, asyncio's
    subprocesses: all go through Popen) fails with the reason."""
    if request.node.get_closest_marker("slow") is not None:
        return

    def refuse(self: subprocess.Popen, args: Any, *rest: Any, **options: Any) -> None:
        pytest.fail(
            f"{request.node.nodeid} starts a process ({args!r}): mark it @pytest.mark.slow "
            "(make test-fast leaves slow tests out)",
            pytrace=False,
        )

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'scorekeeper-test.sqlite'}"


def make_app(database_url: str, **overrides: Any) -> Flask:
    config: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": database_url,
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
    }
    config.update(overrides)
    return create_app(config)


@pytest.fixture(scope="session")
def migrated_database(database_url: str) -> str:
    """Drop whatever a previous run left, then apply every migration from scratch."""
    app = make_app(database_url)
    fresh_schema(app)
    with app.app_context():
        db.engine.dispose()
    return database_url


def empty_database() -> None:
    tables = [t.name for t in reversed(db.metadata.sorted_tables)]
    with db.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            joined = ", ".join(f'"{name}"' for name in tables)
            connection.execute(text(f"TRUNCATE {joined} RESTART IDENTITY CASCADE"))
        else:
            for name in tables:
                connection.execute(text(f'DELETE FROM "{name}"'))


@contextmanager
def running_app(database_url: str, **overrides: Any) -> Iterator[Flask]:
    """An app on the migrated database; afterwards the database is emptied for the next test."""
    app = make_app(database_url, **overrides)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            empty_database()
            db.engine.dispose()


@pytest.fixture
def app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database) as app:
        yield app


@pytest.fixture
def csrf_app(migrated_database: str) -> Iterator[Flask]:
    """The app with CSRF protection on, as in production."""
    with running_app(migrated_database, WTF_CSRF_ENABLED=True) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The app's command-line runner (``flask seed-demo``, ``flask league-import`` ...)."""
    return app.test_cli_runner()

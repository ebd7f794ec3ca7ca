"""``flask backup`` and ``flask restore`` (issue 23): a backup taken while tables record rounds
is one consistent moment, and restored into a fresh database it holds every round saved
before it began; a backup after the writes holds every round.

On SQLite always; on PostgreSQL with ``TEST_DATABASE_URL`` (or a throw-away server) and
``pg_dump``, skipped with the reason otherwise, except in CI.
"""

from __future__ import annotations

import shutil
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, make_url, text

from scorekeeper.extensions import db
from tests.conftest import make_app
from tests.database import fresh_schema
from tests.web.helpers import enter_round, start_game
from tests.web.test_processes import _unavailable, postgres_url  # noqa: F401

TABLES = 3
PLAYERS = ["Ann", "Bob", "Cy"]


def rounds_in(database_url: str) -> dict[tuple[str, int], int]:
    """Every round stored: (game, round number) -> the number of scores it has."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT game.public_id, round.number, COUNT(score.id) FROM round"
                    " JOIN game ON game.id = round.game_id"
                    " LEFT JOIN score ON score.round_id = round.id"
                    " GROUP BY game.public_id, round.number"
                )
            ).all()
    finally:
        engine.dispose()
    return {(game, number): scores for game, number, scores in rows}


class Tables:
    """TABLES threads, each a table phone saving rounds (a new game after the 13th) until
    told to stop; ``saved`` lists every round whose save was answered."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.saved: list[tuple[str, int]] = []
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.play, daemon=True) for _ in range(TABLES)]

    def play(self) -> None:
        client = self.app.test_client()
        try:
            while not self.stop.is_set():
                game = start_game(client, PLAYERS)
                for number in range(1, 14):
                    if self.stop.is_set():
                        return
                    answer = enter_round(client, game, {0: 0, 1: number, 2: 7}, went_out=0)
                    if answer.status_code != 302:
                        self.errors.append(f"{answer.status_code} {answer.get_data(True)[:300]}")
                        return
                    self.saved.append((game, number))
        except Exception as error:  # a thread's failure is the test's failure
            self.errors.append(repr(error))

    def __enter__(self) -> Tables:
        for thread in self.threads:
            thread.start()
        return self

    def wait_for(self, count: int, seconds: float = 60) -> None:
        """Until ``count`` rounds are saved (or a writer failed); 60 s at most."""
        deadline = time.monotonic() + seconds
        pause = threading.Event()
        while len(self.saved) < count and not self.errors:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.saved)} rounds saved in {seconds} s, not {count}")
            pause.wait(0.01)  # the writers run on their own; nothing to wait on but them

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


def backed_up_under_writes(app: Flask, folder: Path, fresh_url: str) -> None:
    runner = app.test_cli_runner()
    with Tables(app) as tables:
        tables.wait_for(10)
        before = set(tables.saved)
        result = runner.invoke(args=["backup", str(folder / "during.backup")])
        assert result.exit_code == 0, result.output
        tables.wait_for(len(tables.saved) + 5)
    assert not tables.errors, tables.errors
    everything = set(tables.saved)
    assert "written to" in result.output

    restore = make_app(fresh_url).test_cli_runner()
    result = restore.invoke(args=["restore", "--yes", str(folder / "during.backup")])
    assert result.exit_code == 0, result.output
    restored = rounds_in(fresh_url)
    # Every round saved before the backup began, none that was never saved, each whole.
    assert before <= set(restored) <= everything
    assert set(restored.values()) == {len(PLAYERS)}
    for game in {game for game, _ in restored}:
        numbers = sorted(number for g, number in restored if g == game)
        assert numbers == list(range(1, len(numbers) + 1)), (game, numbers)

    # With the tables done, a backup holds every round.
    result = runner.invoke(args=["backup", str(folder / "after.backup")])
    assert result.exit_code == 0, result.output
    result = restore.invoke(args=["restore", "--yes", str(folder / "after.backup")])
    assert result.exit_code == 0, result.output
    assert set(rounds_in(fresh_url)) == everything == set(rounds_in(app.config["DATABASE_URL"]))


@pytest.mark.slow  # writers against a backup
def test_sqlite_backup_under_writes_restores_every_round(tmp_path: Path) -> None:
    live = f"sqlite:///{tmp_path / 'live.sqlite'}"
    app = make_app(live)
    fresh_schema(app)
    backed_up_under_writes(app, tmp_path, f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def fresh_postgres(postgres_url: str) -> Iterator[str]:  # noqa: F811
    """A new, empty database on the same PostgreSQL server."""
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        _unavailable("pg_dump and pg_restore are needed (apt-get install postgresql-client)")
    name = f"restore_{uuid.uuid4().hex[:12]}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.slow  # writers; pg_dump
def test_postgresql_backup_under_writes_restores_every_round(
    postgres_url: str,  # noqa: F811
    fresh_postgres: str,
    tmp_path: Path,
) -> None:
    app = make_app(postgres_url)
    try:
        backed_up_under_writes(app, tmp_path, fresh_postgres)
    finally:
        with app.app_context():
            db.session.remove()
            from tests.conftest import empty_database

            empty_database()
            db.engine.dispose()


def test_a_backup_never_overwrites_and_a_restore_checks_its_file(
    tmp_path: Path, migrated_database: str
) -> None:
    app = make_app(migrated_database)
    runner = app.test_cli_runner()
    existing = tmp_path / "kept.backup"
    existing.write_text("yesterday's backup")
    result = runner.invoke(args=["backup", str(existing)])
    assert result.exit_code != 0 and "already exists" in result.output
    assert existing.read_text() == "yesterday's backup"
    result = runner.invoke(args=["restore", "--yes", str(existing)])
    assert result.exit_code != 0 and "is not" in result.output
    result = runner.invoke(args=["restore", "--yes", str(tmp_path / "missing.backup")])
    assert result.exit_code != 0 and "There is no backup" in result.output
    with app.app_context():
        db.engine.dispose()

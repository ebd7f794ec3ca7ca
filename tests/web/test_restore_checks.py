"""``flask restore`` checks a backup before it changes anything (issue 37): a damaged file
(20 KiB overwritten in the middle, a truncated copy), a database that is not scorekeeper's, one
from a newer version are refused in a plain sentence, without a traceback, the live database
untouched; the database a restore replaces is kept beside it until the next restore. The files
are real backups, really damaged; on SQLite always, on PostgreSQL where a server can be started.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.extensions import db
from tests.conftest import make_app
from tests.database import fresh_schema
from tests.web.helpers import enter_round, start_game
from tests.web.test_backup import fresh_postgres, rounds_in  # noqa: F401
from tests.web.test_processes import postgres_url  # noqa: F401

PLAYERS = ["Ann", "Bob", "Cy"]


def play(app: Flask, games: int = 2) -> None:
    client = app.test_client()
    for _ in range(games):
        game = start_game(client, PLAYERS)
        for number in range(1, 8):
            assert enter_round(client, game, {0: 0, 1: number, 2: 7}, went_out=0).status_code == 302


def overwrite_middle(path: Path, size: int = 20 * 1024) -> None:
    """``size`` bytes of noise written over the middle of the file (a bad disk, a torn copy)."""
    data = bytearray(path.read_bytes())
    assert len(data) > 2 * size, len(data)
    start = len(data) // 2 - size // 2
    data[start : start + size] = random.Random(37).randbytes(size)
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 5])


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Flask, str, Path]]:
    """An SQLite database with games in it, its app, and a good backup of it."""
    path = tmp_path / "live.sqlite"
    app = make_app(f"sqlite:///{path}")
    fresh_schema(app)
    play(app)
    good = tmp_path / "good.backup"
    result = app.test_cli_runner().invoke(args=["backup", str(good)])
    assert result.exit_code == 0, result.output
    yield app, f"sqlite:///{path}", good
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def integrity(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        connection.close()


def refused(app: Flask, backup: Path, *words: str) -> str:
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(backup)])
    assert result.exit_code == 1, result.output
    assert "Nothing was changed" in result.output, result.output
    assert "Traceback" not in result.output and result.exception.__class__ is SystemExit
    for word in words:
        assert word in result.output, result.output
    return result.output


@pytest.mark.parametrize("damage", [overwrite_middle, truncate], ids=["overwritten", "truncated"])
def test_a_damaged_sqlite_backup_is_refused_and_nothing_changes(
    live: tuple[Flask, str, Path], tmp_path: Path, damage
) -> None:
    app, url, good = live
    before = rounds_in(url)
    assert len(before) == 2 * 7
    bad = tmp_path / "bad.backup"
    bad.write_bytes(good.read_bytes())
    damage(bad)
    refused(app, bad, f"{bad} is damaged", "try an older backup")
    database = Path(url.removeprefix("sqlite:///"))
    assert integrity(database) == "ok"
    assert rounds_in(url) == before
    assert not list(tmp_path.glob("live.sqlite.replaced-*"))
    response = app.test_client().get("/healthz")
    assert response.get_json() == {"status": "ok", "database": "ok"}


def test_another_database_or_a_newer_schema_is_refused(
    live: tuple[Flask, str, Path], tmp_path: Path
) -> None:
    app, url, good = live
    before = rounds_in(url)
    other = tmp_path / "other.sqlite"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT)")
    connection.commit()
    connection.close()
    refused(app, other, "is not a scorekeeper backup")

    newer = tmp_path / "newer.backup"
    newer.write_bytes(good.read_bytes())
    connection = sqlite3.connect(newer)
    connection.execute("UPDATE alembic_version SET version_num = 'ffff00000000'")
    connection.commit()
    connection.close()
    refused(app, newer, "another version of scorekeeper", "ffff00000000", "update this app first")
    assert rounds_in(url) == before


def test_the_replaced_database_is_kept_until_the_next_restore(
    live: tuple[Flask, str, Path], tmp_path: Path
) -> None:
    app, url, good = live
    with_two = rounds_in(url)
    play(app, games=1)  # saved after the backup: the restore takes it away...
    with_three = rounds_in(url)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["restore", "--yes", str(good)])
    assert result.exit_code == 0, result.output
    assert rounds_in(url) == with_two
    (kept,) = tmp_path.glob("live.sqlite.replaced-*")
    assert f"kept as {kept}" in result.output
    # ... and it is still there, in the database kept beside it.
    assert integrity(kept) == "ok"
    assert rounds_in(f"sqlite:///{kept}") == with_three

    result = runner.invoke(args=["restore", "--yes", str(good)])
    assert result.exit_code == 0, result.output
    (newest,) = tmp_path.glob("live.sqlite.replaced-*")
    assert newest != kept  # the older copy went with the next restore that succeeded
    assert rounds_in(f"sqlite:///{newest}") == with_two


def test_healthz_notices_a_database_that_answers_but_is_damaged(
    live: tuple[Flask, str, Path],
) -> None:
    app, url, _good = live
    with app.app_context():
        db.engine.dispose()
    database = Path(url.removeprefix("sqlite:///"))
    overwrite_middle(database)
    damaged = database.read_bytes()
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "error", "database": "damaged"}

    # The way back: the good backup restored; the damaged database is kept as it was.
    with app.app_context():
        db.engine.dispose()
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(_good)])
    assert result.exit_code == 0, result.output
    (kept,) = database.parent.glob("live.sqlite.replaced-*")
    assert kept.read_bytes() == damaged
    restarted = make_app(url)
    assert restarted.test_client().get("/healthz").get_json()["database"] == "ok"
    with restarted.app_context():
        db.engine.dispose()


@pytest.mark.slow  # pg_dump and pg_restore: processes
def test_a_damaged_postgresql_backup_changes_nothing(
    postgres_url: str,  # noqa: F811
    fresh_postgres: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    app = make_app(postgres_url)
    target = make_app(fresh_postgres)
    try:
        play(app, games=1)
        good = tmp_path / "good.backup"
        result = app.test_cli_runner().invoke(args=["backup", str(good)])
        assert result.exit_code == 0, result.output
        runner = target.test_cli_runner()
        assert runner.invoke(args=["restore", "--yes", str(good)]).exit_code == 0
        before = rounds_in(fresh_postgres)
        assert len(before) == 7
        # The database a restore replaces is dumped beside the backup, until the next restore.
        result = runner.invoke(args=["restore", "--yes", str(good)])
        assert result.exit_code == 0, result.output
        (kept,) = tmp_path.glob("*.replaced-*.backup")
        assert f"kept as {kept}" in result.output and kept.read_bytes().startswith(b"PGDMP")
        for damage in (overwrite_middle, truncate):
            bad = tmp_path / f"{damage.__name__}.backup"
            bad.write_bytes(good.read_bytes())
            damage(bad)
            refused(target, bad)
            assert rounds_in(fresh_postgres) == before
    finally:
        for each in (app, target):
            with each.app_context():
                db.session.remove()
                if each is app:
                    from tests.conftest import empty_database

                    empty_database()
                db.engine.dispose()

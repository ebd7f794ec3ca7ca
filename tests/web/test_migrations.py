"""The committed migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask

from scorekeeper.extensions import db


def test_models_and_migrations_agree(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, db.metadata)
    assert differences == [], f"run `flask db migrate`: {differences}"


def test_foreign_keys_are_enforced(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1

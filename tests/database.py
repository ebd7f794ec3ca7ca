"""Emptying a database and building the schema by the migrations: the test run does it once
(``tests/conftest.py``), and so does each benchmark that brings its own database."""

from __future__ import annotations

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import inspect, text

from scorekeeper.extensions import db


def fresh_schema(app: Flask) -> None:
    """Drop every table the app's database has (what a previous run left), then apply every
    migration from scratch."""
    with app.app_context():
        with db.engine.begin() as connection:
            for table in reversed(inspect(connection).get_table_names()):
                connection.execute(
                    text(
                        f'DROP TABLE IF EXISTS "{table}" CASCADE'
                        if connection.dialect.name == "postgresql"
                        else f'DROP TABLE IF EXISTS "{table}"'
                    )
                )
        upgrade()

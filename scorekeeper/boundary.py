"""The request boundary: one commit per request, roll back on error; security headers.

Services only ``flush()``; whatever a successful request changed is committed here, once.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask, Response
from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper.extensions import db

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys are off by default on SQLite; WAL lets the share view read while a round
    is written."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


def init_app(app: Flask) -> None:
    @app.after_request
    def commit_or_roll_back(response: Response) -> Response:
        if response.status_code < 400:
            db.session.commit()
        else:
            db.session.rollback()
        return response

    @app.teardown_request
    def roll_back_on_error(exc: BaseException | None) -> None:
        if exc is not None:
            db.session.rollback()

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

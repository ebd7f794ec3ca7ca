"""The request boundary: one commit per request, roll back on error; security headers.

Services only ``flush()``; whatever a successful request changed is committed here, once.

Writes are serialised where they meet: a write request (a POST not marked ``read_only``) starts
its SQLite transaction with ``BEGIN IMMEDIATE`` (SQLite's one write lock, taken before anything
is read, so nothing it reads can be stale when it writes), and on PostgreSQL the services take a
row lock (``SELECT ... FOR UPDATE``) on the game, night or league they change before reading it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper.extensions import db

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)  # i18n: HTTP header


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys are off by default on SQLite; WAL lets the share view read while a round
    is written. pysqlite's own transaction handling is switched off so that ``_sqlite_begin``
    chooses how each transaction begins (SQLAlchemy's documented recipe)."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()
        dbapi_connection.isolation_level = None


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Any) -> None:
    """A write request takes SQLite's write lock at its first statement (``BEGIN IMMEDIATE``):
    a second phone's write waits for it instead of reading rows that are about to change."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE" if is_write_request() else "BEGIN")


View = Callable[..., Any]


def read_only(view: View) -> View:
    """Mark a POST view that changes nothing (a live check): it takes no write lock."""
    view.read_only = True  # type: ignore[attr-defined]
    return view


def is_write_request() -> bool:
    """True inside a request that may change data: a POST to a view not marked ``read_only``."""
    if not has_request_context() or request.method != "POST":
        return False
    view = current_app.view_functions.get(request.endpoint or "")
    return not getattr(view, "read_only", False)


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
        if served_over_https(app):
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        return response

    app.session_interface = HttpsAwareSessions()


# A year; no includeSubDomains: other sites may share the domain.
HSTS = "max-age=31536000"  # i18n: HTTP header


def served_over_https(app: Flask) -> bool:
    """HTTPS when the request came over it (X-Forwarded-Proto counts only from a trusted
    proxy) or when the HTTPS setting says so."""
    return bool(app.config.get("HTTPS")) or (has_request_context() and request.is_secure)


class HttpsAwareSessions(SecureCookieSessionInterface):
    """The session cookie (it proves which phone may keep score) is Secure on HTTPS, so it is
    never sent over plain HTTP. It lasts PERMANENT_SESSION_LIFETIME (400 days, the longest a
    browser keeps a cookie): a table phone stays signed in for a season."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or served_over_https(app)

"""The request cycle's transactions: one commit per request, roll back on error.

Services only ``flush()``; whatever a successful request changed is committed here, once.

Writes are serialised where they meet: a write request (a POST not marked ``read_only``) starts
its SQLite transaction with ``BEGIN IMMEDIATE`` (SQLite's one write lock, taken before anything
is read, so nothing it reads can be stale when it writes), and on PostgreSQL the services take a
row lock (``SELECT ... FOR UPDATE``) on the game, night or league they change before reading it.

A write that checks a lot before it writes (a round: the form, then the rules) may put its lock
off (``defer_write_lock``): it reads and checks without the lock, and takes it just before its
first write (``games.setup.lock_game``), where it finds out whether what it read still holds
(the game's version). If not, it is answered again from the start, under the lock
(``ReadAgain``). So SQLite's one write lock, which every table of a club night shares, is held
for the write alone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, Response, current_app, g, has_request_context, request
from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper.extensions import db


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
    a second phone's write waits for it instead of reading rows that are about to change. A
    request that put its lock off (``defer_write_lock``) takes it with its next transaction."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE" if locks_for_writing() else "BEGIN")


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


class ReadAgain(Exception):
    """What a request read before taking its put-off write lock changed meanwhile (another
    phone wrote first): the request is answered again from the start, under the lock."""


_DEFERRED = "write_lock_deferred"  # in ``g``: the request reads before it takes its lock


def defer_write_lock(view: View, applies: Callable[[], bool]) -> View:
    """``view`` (a write) reads and checks without the write lock when ``applies()`` for the
    request, and takes the lock just before its first write (``games.setup.lock_game``). When
    what it read changed by then (``ReadAgain``), it is answered again, under the lock from
    its first read, as any other write.

    For a round, most of a save is reading the form and checking it against the rules, and
    SQLite has one write lock for the whole club: a save holds it 0.82 ms instead of 1.74 ms
    of its 2.7 ms in process, and at 240 tables of the load test this code stopped falling
    behind for good (worst p99 1.4 → 0.34 s; docs/benchmarks.md, "Capacity", fourth
    sitting)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not (is_write_request() and applies()):
            return view(*args, **kwargs)
        setattr(g, _DEFERRED, True)
        try:
            return view(*args, **kwargs)
        except ReadAgain:
            setattr(g, _DEFERRED, False)
            db.session.rollback()  # the reads made without the lock go; the next ones take it
            return view(*args, **kwargs)

    return wrapped


def write_lock_deferred() -> bool:
    """True while this request reads before taking its put-off write lock."""
    return has_request_context() and bool(g.get(_DEFERRED))


def lock_taken() -> None:
    """The request takes its put-off write lock now (``games.setup.lock_game``)."""
    setattr(g, _DEFERRED, False)


def locks_for_writing() -> bool:
    """True when this request's reads are made under the write lock: a write request that did
    not put its lock off (or has taken it since)."""
    return is_write_request() and not write_lock_deferred()


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

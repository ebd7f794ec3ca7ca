"""``/healthz``: whether this process can answer and its database is usable, for a monitor, the
proxy in front, and the deploy script's check after a restart.

JSON, never cached, never rate-limited. What it checks, each time unless said:

1. the database answers (``SELECT 1``); else 503, ``"database": "unreachable"``;
2. it is scorekeeper's, migrated: its schema version (``alembic_version``) reads;
3. the newest game, round and score read (the last page of each table's index: a few pages);
4. on SQLite, SQLite's own ``PRAGMA quick_check`` of every page: when the process first asks,
   then at most once per ``HEALTH_FULL_CHECK_SECONDS`` (600 by default; its answer is kept
   meanwhile). It costs about 30 ms per MB of database (1 s for 32 MB), too much for every
   poll, and it is what finds a file damaged in the middle (a bad disk, a torn copy) that the
   other checks do not read.

2 to 4 failing: 503, ``"database": "damaged"`` (the database answers, but pages would fail).
"""

from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db, limiter

bp = Blueprint("health", __name__)

#: The tables whose newest row is read (their primary key index's last page).
NEWEST = ("game", "round", "score")  # i18n: table names


@bp.get("/healthz")
@limiter.exempt
def healthz() -> tuple[Response, int]:
    try:
        db.session.execute(text("SELECT 1")).scalar_one()
    except SQLAlchemyError:
        db.session.rollback()
        return _answer({"status": "error", "database": "unreachable"}, 503)
    try:
        db.session.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        for table in NEWEST:
            db.session.execute(text(f"SELECT max(id) FROM {table}")).scalar()  # i18n: SQL
        whole = _whole()
    except SQLAlchemyError:
        db.session.rollback()
        whole = False
    db.session.rollback()  # no transaction left open by a check
    if not whole:
        return _answer({"status": "error", "database": "damaged"}, 503)
    return _answer({"status": "ok", "database": "ok"}, 200)


def _whole() -> bool:
    """SQLite's quick check of every page, at most once per HEALTH_FULL_CHECK_SECONDS per
    process (its last answer meanwhile); True elsewhere."""
    if db.engine.dialect.name != "sqlite":
        return True
    kept = current_app.extensions.setdefault("scorekeeper.web.health", {})
    every = current_app.config["HEALTH_FULL_CHECK_SECONDS"]
    now = time.monotonic()
    if "whole" in kept and now - kept["at"] < every:
        return bool(kept["whole"])
    try:
        answer = db.session.execute(text("PRAGMA quick_check(1)")).scalar()
        whole = answer == "ok"
    except SQLAlchemyError:
        db.session.rollback()
        whole = False
    kept.update(whole=whole, at=now)
    return whole


def _answer(status: dict[str, str], code: int) -> tuple[Response, int]:
    response = jsonify(status)
    response.cache_control.no_store = True
    return response, code

"""``/healthz``: whether this process can answer and reach its database, for the proxy in
front (Caddy's health checks), a monitor, and the deploy script's check after a restart.

JSON, never cached, never rate-limited; 503 when the database does not answer ``SELECT 1``."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db, limiter

bp = Blueprint("health", __name__)


@bp.get("/healthz")
@limiter.exempt
def healthz() -> tuple[Response, int]:
    try:
        db.session.execute(text("SELECT 1")).scalar_one()
        status, code = {"status": "ok", "database": "ok"}, 200
    except SQLAlchemyError:
        db.session.rollback()
        status, code = {"status": "error", "database": "unreachable"}, 503
    response = jsonify(status)
    response.cache_control.no_store = True
    return response, code

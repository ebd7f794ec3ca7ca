"""scorekeeper: Mexican Train score keeping for the phone lying next to the tiles.

``create_app`` is the table of contents: configuration, extensions, blueprints, error handlers,
request transactions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.config import load_config
from scorekeeper.extensions import csrf, db, limiter, migrate
from scorekeeper.web import (
    error_pages,
    i18n,
    outside_text,
    page_helpers,
    public_url,
    security_headers,
    static_files,
    transactions,
    unchanged_polls,
)

PACKAGE_DIR = Path(__file__).resolve().parent


def _project_folder(name: str) -> str:
    """templates/, static/ and migrations/ sit beside the package in a checkout and inside it
    in an installed wheel (see pyproject.toml)."""
    inside = PACKAGE_DIR / name
    return str(inside if inside.is_dir() else PACKAGE_DIR.parent / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the application. ``test_config`` replaces instance/config.py and the environment."""
    app = public_url.App(
        __name__,
        instance_relative_config=True,
        template_folder=_project_folder("templates"),
        static_folder=_project_folder("static"),
    )
    load_config(app, test_config)
    public_url.configure(app)
    unchanged_polls.init_app(app)  # inside ProxyFix: it sees the client's scheme
    trust_proxies(app)
    register_extensions(app)
    outside_text.init_app(app)
    i18n.init_app(app)
    register_blueprints(app)
    error_pages.init_app(app)
    page_helpers.init_app(app)
    transactions.init_app(app)
    security_headers.init_app(app)
    static_files.init_app(app)
    register_commands(app)
    return app


def trust_proxies(app: Flask) -> None:
    """Behind TRUSTED_PROXIES reverse proxies, take the client's address, scheme and host from
    their X-Forwarded-* headers (werkzeug's ProxyFix); with none, those headers are ignored."""
    count = int(app.config.get("TRUSTED_PROXIES") or 0)
    if count > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)  # type: ignore[method-assign]


def register_extensions(app: Flask) -> None:
    from scorekeeper import models  # noqa: F401  (the metadata migrations compare against)

    db.init_app(app)
    migrate.init_app(app, db, directory=_project_folder("migrations"), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)


def register_blueprints(app: Flask) -> None:
    from scorekeeper import leagues
    from scorekeeper.games import bp as games_bp
    from scorekeeper.helper import bp as helper_bp
    from scorekeeper.web.health import bp as health_bp
    from scorekeeper.web.pwa import bp as pwa_bp

    app.register_blueprint(games_bp)
    app.register_blueprint(health_bp)
    app.register_blueprint(helper_bp)
    leagues.init_app(app)
    app.register_blueprint(pwa_bp)


def register_commands(app: Flask) -> None:
    from scorekeeper import cli

    cli.init_app(app)

"""Configuration: defaults here, then ``instance/config.py``, then the environment.

Nothing is read at import time; :func:`load_config` runs inside ``create_app``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask


class Defaults:
    """Values used when neither instance/config.py nor the environment says otherwise."""

    SQLALCHEMY_ENGINE_OPTIONS: dict[str, Any] = {"pool_pre_ping": True}
    WTF_CSRF_TIME_LIMIT = None  # a round form may stay open for an hour at the table
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_HTTPONLY = True
    PERMANENT_SESSION_LIFETIME = 60 * 60 * 24 * 400  # a table phone stays signed in for a season
    # The cookie goes back only with an answer that changed it (a save's message, rights given),
    # which also starts its 400 days again. Sent with every answer, a late answer to a request
    # made before a save (the round form's live check, a poll) would put the session back as it
    # was: the message gone, rights just given lost (tests/web/test_session_cookie.py).
    SESSION_REFRESH_EACH_REQUEST = False
    MAX_CONTENT_LENGTH = 16 * 1024 * 1024  # photos up to 15 MB plus form fields
    # Where rate-limit counts live: memory:// is one process and forgets on a restart; several
    # server processes share redis://host:6379 (pip install "scorekeeper[redis]").
    RATELIMIT_STORAGE_URI = "memory://"
    # How many reverse proxies in front of the app set X-Forwarded-For/-Proto/-Host. 0 (the
    # default): those headers are ignored, so nobody can pretend to be another address.
    TRUSTED_PROXIES = 0
    # The site is served over HTTPS (behind a proxy that ends TLS without X-Forwarded-Proto):
    # the session cookie is Secure and HSTS is sent. Both happen anyway on an HTTPS request.
    HTTPS = False
    PHOTO_READERS = 2  # photos read at the same time in one server process (1 core each)
    PHOTO_WAIT = 5.0  # seconds a photo waits for a free reader before "busy, try again"
    RATELIMIT_HEADERS_ENABLED = True
    SEND_FILE_MAX_AGE_DEFAULT = 60 * 60 * 24 * 7
    KEEP_PHOTOS = False
    # The address phones open (https://scores.example.org): every absolute link and QR code
    # starts with it. Unset: the request's host when it names this machine or is one of
    # TRUSTED_HOSTS (see scorekeeper/web/public_url.py).
    PUBLIC_URL = None
    # Host names this server answers to (comma-separated in the environment); when set, a
    # request for any other Host is refused with 400 (Flask's TRUSTED_HOSTS).
    TRUSTED_HOSTS = None
    # Days a deleted game (with rounds) waits in the trash, where its organiser or creator can
    # bring it back, before it is purged for good (games.trash, ``flask purge-deleted``).
    DELETED_KEEP_DAYS = 14
    # /healthz runs SQLite's quick check of every page at most this often per process (about
    # 30 ms per MB of database): scorekeeper/web/health.py.
    HEALTH_FULL_CHECK_SECONDS = 600


def _normalise_database_url(url: str) -> str:
    """Accept the common ``postgres://`` / ``postgresql://`` spellings and use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _secret_key(instance_path: Path) -> str:
    """The SECRET_KEY: generated once and kept in ``instance/secret_key`` when not given."""
    key_file = instance_path / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_hex(32)
    key_file.write_text(key + "\n")
    key_file.chmod(0o600)
    return key


def load_config(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Fill ``app.config`` from defaults, instance/config.py, the environment, then test_config."""
    instance_path = Path(app.instance_path)
    instance_path.mkdir(parents=True, exist_ok=True)
    app.config.from_object(Defaults)
    app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance_path / 'scorekeeper.sqlite'}"
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        for name in ("SECRET_KEY", "DATABASE_URL", "PUBLIC_URL", "TRUSTED_HOSTS"):
            if os.environ.get(name):
                app.config[name] = os.environ[name]
        if os.environ.get("RATELIMIT_STORAGE_URI"):
            app.config["RATELIMIT_STORAGE_URI"] = os.environ["RATELIMIT_STORAGE_URI"]
        for name in ("KEEP_PHOTOS", "HTTPS"):
            if os.environ.get(name):
                app.config[name] = os.environ[name].lower() in ("1", "true", "yes")
        for name in ("TRUSTED_PROXIES", "PHOTO_READERS", "DELETED_KEEP_DAYS"):
            if os.environ.get(name, "").isdigit():
                app.config[name] = int(os.environ[name])
    else:
        app.config.update(test_config)
    if app.config.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    app.config["SQLALCHEMY_DATABASE_URI"] = _normalise_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance_path)

"""The cheap conditional GET: a phone polling a page whose copy is current gets ``304 Not
Modified`` from one indexed query of the version, before Flask does any request work.

Most requests of an evening are phones following a table (the table view asks ``state.json``,
the share view its live board, every few seconds), and nearly all of them are answered 304.
Flask's answer to them (``responses.unless_unchanged``) is right but goes through a whole
request: the request context, the session cookie read and checked, CSRF, the language, the
URL map, the transaction hooks, compression and the headers. Served by gunicorn (2 workers x 4
threads, wrk with 16 connections) that was 3.2x a bare Flask hello (docs/benchmarks.md,
"Polls"). This WSGI middleware, in front of the Flask app, answers those polls itself when it
can: a GET with ``If-None-Match`` to a registered address (``answer_unchanged``) whose version,
read with one prebuilt statement on its own pooled connection, gives the ETag the phone has.
Anything else (no tag, another tag, no such row, another address or method) goes to Flask
untouched, which answers exactly as before. The 304 carries the headers Flask's would.
Kept for a real evening's capacity: without it 2,000 tables at p99 < 100 ms instead of at least
4,000 (50% or more), and 1.64 cores at 2,000 tables against 0.95 (docs/benchmarks.md, "A real
evening", fourth sitting).

The ETag is ``responses.etag_for(version, language)``, the language worked out as
``i18n.chosen`` does for these pages (the ``lang`` cookie, then Accept-Language;
``test_unchanged_polls`` checks they agree).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy import Executable
from sqlalchemy.engine import Engine
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie, parse_etags

from scorekeeper.extensions import db
from scorekeeper.web.i18n import COOKIE, DEFAULT, LANGUAGES, PSEUDO
from scorekeeper.web.responses import etag_for
from scorekeeper.web.security_headers import CONTENT_SECURITY_POLICY, HSTS

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_SECURITY = [
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
]


class UnchangedPolls:
    """WSGI middleware answering 304 to the registered polls whose copy is current."""

    def __init__(self, app: Flask, wsgi_app: WsgiApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.polls: list[tuple[re.Pattern[str], Executable]] = []
        self._engine: Engine | None = None
        self._sql: dict[int, tuple[str, bool]] = {}  # by statement: its SQL, positional
        self.languages = set(LANGUAGES) | ({PSEUDO} if app.config.get("PSEUDO_LOCALE") else set())

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ:
            path = environ.get("PATH_INFO", "")
            for pattern, statement in self.polls:
                found = pattern.fullmatch(path)
                if found and self._unchanged(environ, statement, found.group(1)):
                    start_response("304 Not Modified", self._headers(environ))  # i18n: HTTP
                    return []
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ: dict[str, Any], statement: Executable, key: str) -> bool:
        version = self._version(statement, key)
        if version is None:
            return False  # no such row: Flask answers (404)
        environ["scorekeeper.poll_etag"] = etag_for(f"v{version}", self.language(environ))
        tags = parse_etags(environ["HTTP_IF_NONE_MATCH"])
        return tags.contains_weak(environ["scorekeeper.poll_etag"])

    def _version(self, statement: Executable, key: str) -> Any:
        """The statement's one value, on a connection of the app's pool, through the driver.
        Kept because it carries a real evening past 2,500 tables: read through SQLAlchemy's
        ``Connection`` (its transaction, events and result objects), 2,500 tables at p99 < 100
        ms against at least 4,000 with this (37.5% or more), and 1.17 cores at 2,000 tables
        against 0.95 (docs/benchmarks.md, "A real evening", fourth sitting)."""
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        if id(statement) not in self._sql:
            compiled = statement.compile(dialect=self._engine.dialect)
            self._sql[id(statement)] = (str(compiled), compiled.positional)
        sql, positional = self._sql[id(statement)]
        connection = self._engine.raw_connection()  # back to the pool, rolled back, on close
        try:
            cursor = connection.cursor()
            cursor.execute(sql, (key,) if positional else {"key": key})
            row = cursor.fetchone()
            cursor.close()
        finally:
            connection.close()
        return row[0] if row else None

    def language(self, environ: dict[str, Any]) -> str:
        """The language ``i18n.chosen`` gives a game's polls: the ``lang`` cookie when it names
        a language offered here, else the phone's first language offered, else English."""
        cookie = parse_cookie(environ.get("HTTP_COOKIE")).get(COOKIE)
        if cookie in self.languages:
            return cookie  # type: ignore[return-value]
        accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
        for value, _quality in accepted:
            primary = value.replace("_", "-").split("-")[0].lower()
            if primary in LANGUAGES:
                return primary
        return DEFAULT

    def _headers(self, environ: dict[str, Any]) -> list[tuple[str, str]]:
        headers = [
            ("ETag", f'W/"{environ["scorekeeper.poll_etag"]}"'),
            ("Cache-Control", "no-cache"),
            ("Vary", "Accept-Encoding, Accept-Language, Cookie"),  # i18n: HTTP header
            *_SECURITY,
        ]
        https = environ.get("wsgi.url_scheme") == "https" or self.app.config.get("HTTPS")
        if https:
            headers.append(("Strict-Transport-Security", HSTS))
        return headers


def init_app(app: Flask) -> None:
    """Put the middleware in front of the app (``answer_unchanged`` registers the polls)."""
    app.wsgi_app = UnchangedPolls(app, app.wsgi_app)  # type: ignore[method-assign]
    app.extensions["unchanged_polls"] = app.wsgi_app


def answer_unchanged(app: Flask, address: str, version_of: Executable) -> None:
    """GETs of ``address`` (a regular expression; its one group is the key) whose
    ``If-None-Match`` holds the ETag of ``version_of`` (a statement of one value, the version,
    with a ``key`` parameter) are answered 304 without Flask."""
    polls: UnchangedPolls = app.extensions["unchanged_polls"]
    polls.polls.append((re.compile(address), version_of))

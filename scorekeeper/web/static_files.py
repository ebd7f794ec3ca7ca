"""Static files under hashed names, precompressed, cached for a year; pages compressed.

WhiteNoise serves static/ in front of Flask: each file also gets a copy named after its content
(``css/app.css`` -> ``css/app.3f2a9c41d0b7.css``) and gzip and Brotli versions made once, so a
file is never compressed per request and the browser keeps a hashed file for a year (a new
deploy changes the name of what changed). ``url_for("static", ...)`` gives the hashed name, so
the pages, the manifest and the service worker's app shell all ask for it. The plain names stay
served, checked again after a minute, for anything that links to them by hand.

The copies are made at start-up in ``instance/static/<version>/`` (only when that version is
not there yet; several processes may start at once: each builds in its own folder and the first
to finish wins). Older versions are removed then, but for the newest few (``prune``): a
process of the previous deploy may still be serving from one, and a rollback finds its files
ready. Pages and JSON are compressed per response by Flask-Compress.

The same manifest of hashed names gives the static files their one version
(:func:`static_version`): the build folder's name and the service worker's cache (pwa.py).

In debug mode nothing changes: Flask serves static/ as it is, so edits show at once.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Flask
from flask_compress import Compress
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

YEAR = 365 * 24 * 3600
PLAIN_MAX_AGE = 60
HASH_LENGTH = 12
COMPRESSED = (".gz", ".br")
KEEP_VERSIONS = 3  # the version being served and the two built before it
STALE_BUILD = 3600  # seconds: an unfinished build folder this old was left by a crash
# The worker is served by pwa.py at /sw.js (with its settings), never as a hashed file.
NOT_HASHED = ("sw.js",)

compress = Compress()


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESS_MIMETYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Per response, so cheap levels: on a 31 KB scoreboard Brotli 2 takes 0.12 ms for 5.2 KB,
    # level 4 0.25 ms for 5.0 KB; gzip 3 0.15 ms for 5.9 KB, level 6 0.30 ms for 5.3 KB.
    # (The static files are compressed once, at the highest levels, by WhiteNoise.)
    app.config.setdefault("COMPRESS_BR_LEVEL", 2)
    app.config.setdefault("COMPRESS_LEVEL", 3)
    compress.init_app(app)
    if app.debug or not app.config.get("STATIC_HASHED", True) or app.static_folder is None:
        return
    # Version and names are read once here; debug mode reads them again at every call.
    try:
        folder, names = build(Path(app.static_folder), Path(app.instance_path) / "static")
    except OSError:  # a read-only instance folder: the copies go to the temporary folder
        folder, names = build(
            Path(app.static_folder), Path(tempfile.gettempdir()) / "scorekeeper-static"
        )
    app.extensions["static_version"] = folder.name
    security = security_headers(app)

    def add_headers(headers: Any, path: str, url: str) -> None:
        for name, value in security.items():
            headers[name] = value

    hashed_urls = {f"{app.static_url_path}/{hashed}" for hashed in names.values()}
    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]
        app.wsgi_app,
        root=str(folder),
        prefix=f"{app.static_url_path}/",
        max_age=PLAIN_MAX_AGE,
        immutable_file_test=lambda path, url: url in hashed_urls,
        add_headers_function=add_headers,
        allow_all_origins=False,
    )

    @app.url_defaults
    def hashed_static_names(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static":
            name = values.get("filename")
            if name in names:
                values["filename"] = names[name]


COMPRESS_MIMETYPES = [
    "text/html",
    "text/plain",
    "text/csv",
    "application/json",
    "application/manifest+json",
    "text/javascript",
    "image/svg+xml",
]


def security_headers(app: Flask) -> dict[str, str]:
    """The headers every Flask response gets (boundary.py) that make sense on a file."""
    from scorekeeper.web.security_headers import CONTENT_SECURITY_POLICY

    return {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }


def hashed_name(name: str, content: bytes) -> str:
    """``css/app.css`` -> ``css/app.<first 12 hex digits of its SHA-256>.css``."""
    digest = hashlib.sha256(content).hexdigest()[:HASH_LENGTH]
    stem, dot, suffix = name.rpartition(".")
    if not dot or "/" in suffix:
        return f"{name}.{digest}"
    return f"{stem}.{digest}.{suffix}"


def _read(source: Path) -> dict[str, bytes]:
    return {
        path.relative_to(source).as_posix(): path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file() and not path.name.endswith(COMPRESSED)
    }


def manifest(files: dict[str, bytes]) -> tuple[str, dict[str, str]]:
    """The version of ``files`` (plain name -> content) and the map from plain to hashed
    names. The version is a hash of every file's hashed name (the worker's too, though it is
    served under its plain name): it changes whenever any file does."""
    every = {name: hashed_name(name, content) for name, content in files.items()}
    version = hashlib.sha256("\n".join(sorted(every.values())).encode()).hexdigest()[:16]
    return version, {name: every[name] for name in every if not name.endswith(NOT_HASHED)}


def static_version(app: Flask) -> str:
    """The static files' version (:func:`manifest`): the one read at start-up, or, in debug
    mode or without hashed names, read now."""
    known = app.extensions.get("static_version")
    if known is None or app.debug:
        known = manifest(_read(Path(str(app.static_folder))))[0]
        if not app.debug:
            app.extensions["static_version"] = known
    return known


def build(source: Path, target: Path) -> tuple[Path, dict[str, str]]:
    """The served folder for ``source``: every file under its own name and its hashed name,
    with .gz and .br copies where compressing pays. Returns the folder (named after the
    version) and the map from plain to hashed names."""
    files = _read(source)
    version, names = manifest(files)
    folder = target / version
    if (folder / ".complete").exists():
        prune(target, folder)
        return folder, names
    target.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target))
    try:
        compressor = Compressor(quiet=True)
        for name, content in files.items():
            for served in {name, names.get(name, name)}:
                path = work / served
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
                if compressor.should_compress(served):
                    for _ in compressor.compress(str(path)):
                        pass
        (work / ".complete").write_text(version)
        try:
            os.replace(work, folder)
        except OSError:
            if not (folder / ".complete").exists():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    prune(target, folder)
    return folder, names


def prune(target: Path, current: Path, now: float | None = None) -> None:
    """Remove what earlier versions of the static files left in ``target``: every built
    version but ``current`` and the newest ones before it (``KEEP_VERSIONS`` in all, by when
    they were built), and build folders a crash left unfinished over an hour ago (a younger
    one may be another process building right now). Anything else there is left alone, and a
    folder another process removes first is no error."""
    now = time.time() if now is None else now
    built: list[tuple[float, Path]] = []
    for entry in target.iterdir():
        try:
            if entry.name.startswith(".build-") and entry.is_dir():
                if now - entry.stat().st_mtime > STALE_BUILD:
                    shutil.rmtree(entry, ignore_errors=True)
            elif entry != current and (entry / ".complete").is_file():
                built.append(((entry / ".complete").stat().st_mtime, entry))
        except OSError:  # removed meanwhile by another process starting up
            continue
    for _, old in sorted(built, reverse=True)[KEEP_VERSIONS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)

"""The installable app: web app manifest, service worker and the page shown without signal.

The service worker lives in static/sw.js but is served from /sw.js, because a worker only
controls pages at or below its own path. The version it is served with is a hash of every
static file, so a deploy that changes any of them installs a new worker, which drops the old
static cache (see static/sw.js).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for

bp = Blueprint("pwa", __name__)

WORKER = "sw.js"
THEME_COLOUR = "#0b5a8a"
BACKGROUND_COLOUR = "#fbf8f1"
# Served as files but not worth keeping on the phone: licence texts and the worker itself.
NOT_PRECACHED = (".LICENSE", WORKER)


def _static_files(folder: str) -> list[str]:
    root = Path(folder)
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and not path.name.endswith(NOT_PRECACHED)
    )


@cache
def _version_of(folder: str) -> str:
    digest = hashlib.sha256()
    root = Path(folder)
    for name in [*_static_files(folder), WORKER]:
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:16]


def static_version() -> str:
    """Changes whenever any static file changes (recomputed on every call in debug mode)."""
    folder = str(current_app.static_folder)
    if current_app.debug:
        _version_of.cache_clear()
    return _version_of(folder)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    icon = "icons/{}".format
    document = {
        "id": url_for("games.home"),
        "name": "Scorekeeper: Mexican Train scores",
        "short_name": "Scorekeeper",
        "description": "Mexican Train dominoes scoring for the phone next to the tiles.",
        "lang": "en",
        "start_url": url_for("games.home"),
        "scope": url_for("games.home"),
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {
                "src": url_for("static", filename=icon("icon-192.png")),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": url_for("static", filename=icon("icon-512.png")),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": url_for("static", filename=icon("maskable-512.png")),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = Response(json.dumps(document, indent=1), mimetype="application/manifest+json")
    response.cache_control.max_age = 3600
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """static/sw.js, preceded by its settings: the version and the files of the app shell."""
    folder = str(current_app.static_folder)
    shell = [url_for("games.home"), url_for("pwa.offline")] + [
        url_for("static", filename=name) for name in _static_files(folder)
    ]
    settings = {
        "version": static_version(),
        "shell": shell,
        "offline": url_for("pwa.offline"),
        "static": url_for("static", filename=""),
    }
    source = (Path(folder) / WORKER).read_text()
    body = f"self.SCOREKEEPER = {json.dumps(settings)};\n{source}"
    response = Response(body, mimetype="text/javascript")
    # The browser must ask for a new worker on every visit, or a deploy would go unnoticed.
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page this phone has not kept."""
    return render_template("pwa/offline.html")


@bp.get("/help/https")
def https_help() -> str:
    """Why a phone on plain HTTP misses the offline start and installing, and how a club gets
    HTTPS (linked from the notice static/js/https-notice.js shows once)."""
    return render_template("pwa/https.html")

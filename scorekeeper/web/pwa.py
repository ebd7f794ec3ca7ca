"""The installable app: web app manifest, service worker and the page shown without signal.

The service worker lives in static/sw.js but is served from /sw.js, because a worker only
controls pages at or below its own path. The version it is served with is the static files'
version (``static_files.static_version``: a hash of their hashed names), so a deploy that
changes any of them installs a new worker, which drops the old static cache (see static/sw.js).

Languages: the manifest's name and description are in the page's language. The worker has no
page of its own, so what it says comes with it: the served worker carries its few sentences
translated into every language (``words``), and picks the one of the page it writes into. The
page shown without signal is kept in every language (``/offline/<lang>``), and so are the
scripts' catalogs (``/i18n/<lang>.js``): a page opened without signal keeps its words. Every
page says its language in ``Content-Language``; the worker keeps the page shown without signal
in the language this phone last used.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from babel.messages.extract import extract_from_file
from babel.support import NullTranslations, Translations
from flask import Blueprint, Response, abort, current_app, g, render_template, url_for
from flask_babel import gettext as _
from flask_babel import refresh

from scorekeeper.web import i18n, static_files

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


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    icon = "icons/{}".format
    document = {
        "id": url_for("games.home"),
        "name": _("Scorekeeper: Mexican Train scores"),
        "short_name": "Scorekeeper",
        "description": _("Mexican Train dominoes scoring for the phone next to the tiles."),
        "lang": i18n.current_language(),
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
    response.vary.add("Accept-Language")  # the name and description are in the phone's language
    response.vary.add("Cookie")
    return response


@cache
def _worker_messages(folder: str) -> tuple[str, ...]:
    """The sentences of static/sw.js (``t("…", language)``), found once per process."""
    found = extract_from_file("javascript", str(Path(folder) / WORKER), keywords={"t": None})
    return tuple(dict.fromkeys(message for _line, message, _c, _x in found if message))


def _catalog(language: str) -> NullTranslations:
    if language == i18n.PSEUDO:
        return i18n.PseudoTranslations()
    return Translations.load(str(i18n.TRANSLATIONS), [language])


@cache
def _worker_words(folder: str, languages: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The worker's sentences in each of ``languages`` but English (the source), read from the
    compiled catalogs once per process (a deploy that changes them restarts it)."""
    words: dict[str, dict[str, str]] = {}
    for language in languages:
        if language != i18n.DEFAULT:
            catalog = _catalog(language)
            words[language] = {m: catalog.ugettext(m) for m in _worker_messages(folder)}
    return words


@bp.get("/sw.js")
def service_worker() -> Response:
    """static/sw.js, preceded by its settings: the version and the files of the app shell."""
    folder = str(current_app.static_folder)
    languages = list(i18n.offered())
    offline_pages = {code: url_for("pwa.offline_in", language=code) for code in languages}
    catalogs = [
        url_for("i18n.script_catalog", language=code, v=i18n.catalog_version())
        for code in languages
        if code != i18n.DEFAULT
    ]
    shell = [
        url_for("games.home"),
        url_for("pwa.offline"),
        *offline_pages.values(),
        *catalogs,
        *(url_for("static", filename=name) for name in _static_files(folder)),
    ]
    settings = {
        # A new catalog is a new worker too: it keeps the scripts' catalogs of its version.
        "version": f"{static_files.static_version(current_app)}-{i18n.catalog_version()}",
        "shell": shell,
        "offline": url_for("pwa.offline"),
        "offlinePages": offline_pages,
        "static": url_for("static", filename=""),
        # Where the scripts' catalogs are: "/i18n/" (cached like the static files).
        "catalogs": url_for("i18n.script_catalog", language="x").rsplit("/", 1)[0] + "/",
        "words": _worker_words(folder, tuple(languages)),
    }
    source = (Path(folder) / WORKER).read_text()
    body = f"self.SCOREKEEPER = {json.dumps(settings)};\n{source}"  # i18n: JavaScript
    response = Response(body, mimetype="text/javascript")
    # The browser must ask for a new worker on every visit, or a deploy would go unnoticed.
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page this phone has not kept."""
    return render_template("pwa/offline.html")


@bp.get("/offline/<language>")
def offline_in(language: str) -> str:
    """The same page in ``language`` (the worker keeps one for each language offered)."""
    if language not in i18n.offered():
        abort(404)
    g.forced_language = language
    refresh()
    return render_template("pwa/offline.html")


@bp.after_app_request
def page_language(response: Response) -> Response:
    """Every page says its language, so the worker keeps the page shown without signal in the
    language this phone uses (static/sw.js)."""
    if response.mimetype == "text/html" and "Content-Language" not in response.headers:
        response.headers["Content-Language"] = i18n.current_language()
    return response


@bp.get("/help/https")
def https_help() -> str:
    """Why a phone on plain HTTP misses the offline start and installing, and how a club gets
    HTTPS (linked from the notice static/js/https-notice.js shows once)."""
    return render_template("pwa/https.html")

"""Every sentence a player can see goes through the catalogs (issue 25), seen on the pages
themselves: with ``PSEUDO_LOCALE`` on and the cookie ``lang=pseudo``, every translated sentence
comes out inside ``⟦…⟧``. Every page a player can reach (read from ``app.url_map``, with real
data: a game of every game type with a round played, a correction, a finished game, a league
with a night, tables, a season and its public page, the print views, the cards, the error
pages, forms sent back with their errors, the pages after a save with their message) must
render without a server error, and every text on it with letters must be inside ``⟦…⟧`` or be
what the test typed (names, places, codes), a date's month or day name, or a word that is the
same in every language.

The failure lists each page with the texts that escaped gettext (and writes them all to
``test-results/pseudo-locale-untranslated.txt``; pytest-playwright empties test-results/ when
a run starts, so the file is the last run's).

Also: nothing translated is stored (a world made in the pseudo-language and read in English
shows no ⟦), and exports keep their column names in every language (their README is worded).

    .venv/bin/python -m pytest -q tests/web/test_pseudo_locale.py
"""

from __future__ import annotations

import html
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.dates import get_day_names, get_month_names, get_period_names
from flask import Flask, abort
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.conftest import running_app
from tests.unit.test_catalogs import SAME_EVERYWHERE
from tests.web.helpers import enter_round, setup_data, start_game
from tests.web.i18n_world import NAMES, World, build_world
from tests.web.visible_text import allowed_pattern, untranslated

REPORT = Path(__file__).resolve().parents[2] / "test-results" / "pseudo-locale-untranslated.txt"
ERROR_CODES = (400, 403, 404, 405, 413, 429, 500)


@pytest.fixture
def pseudo_app(migrated_database: str) -> Iterator[Flask]:
    with running_app(migrated_database, PSEUDO_LOCALE=True) as app:

        def error_page(code: int) -> Any:
            """Stands for anything that ends in this error (a 500 is an exception)."""
            if code == 500:
                raise RuntimeError("a server error, on purpose")
            abort(code)

        # Before the first request (Flask takes no new routes after it).
        app.add_url_rule("/test-only/error/<int:code>", "test_error", error_page)
        yield app


@pytest.fixture
def world(pseudo_app: Flask) -> World:
    return build_world(pseudo_app)


def _in_pseudo(client: FlaskClient) -> FlaskClient:
    client.set_cookie("lang", "pseudo")
    return client


def _accepted_table_names(app: Flask) -> list[str]:
    """The tables' names as the organiser saved them. The form offers "Table 1" in the
    organiser's language and keeps what they save as if typed: a name, like a player's."""
    with app.app_context():
        names = db.session.scalars(select(Game.table_name).where(Game.table_name.is_not(None)))
        return sorted({name for name in names if name})


def _allowed(world: World, app: Flask) -> Any:
    """What a page may show as it is, in any language."""
    dates: list[str] = []
    for width in ("wide", "abbreviated"):
        # The pseudo-language dates in English (Babel's, from CLDR: no catalog of ours).
        dates += get_month_names(width, locale="en").values()
        dates += get_day_names(width, locale="en").values()
        dates += get_period_names(width, locale="en").values()
    initials = [name[0] for name in world.data if name[:1].isupper()]  # a player's badge
    typed = [*world.data, *_accepted_table_names(app)]
    return allowed_pattern([*typed, *initials, *dates, *SAME_EVERYWHERE])


def _pages_and_answers(app: Flask, world: World) -> Iterator[tuple[str, Any]]:
    """(what, the answer) for every page a player can reach, as the organiser and as a
    stranger; then the error pages, forms with their errors and pages with a saved message."""
    organiser, stranger = _in_pseudo(world.organiser), _in_pseudo(world.stranger)
    organiser.get("/")  # the messages left by making the world (in English) shown and gone
    for url in world.urls(app):
        yield url, organiser.get(url)
        yield f"{url} (a stranger)", stranger.get(url)

    # The error pages: the real ones, then each code the app words.
    yield "/no-such-page (404)", stranger.get("/no-such-page")
    yield "/g/NoSuchGame (404)", stranger.get("/g/NoSuchGame")
    mexican = world.games["mexican_train"]
    yield f"GET /g/{mexican}/finish (405)", organiser.get(f"/g/{mexican}/finish")
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        yield "a form without its CSRF token (400)", organiser.post(f"/g/{mexican}/finish")
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    too_big = b"x" * (app.config["MAX_CONTENT_LENGTH"] + 1)
    yield (
        "a too big upload (413)",
        organiser.post(
            "/games/new", data=too_big, content_type="application/x-www-form-urlencoded"
        ),
    )
    app.config["PROPAGATE_EXCEPTIONS"] = False
    try:
        for code in ERROR_CODES:
            yield f"the error page {code}", stranger.get(f"/test-only/error/{code}")
    finally:
        app.config["PROPAGATE_EXCEPTIONS"] = None

    # Forms sent back with their errors.
    yield "new game, no names", organiser.post("/games/new", data=setup_data(["", ""]))
    yield (
        "new game, too many players for Draw",
        organiser.post("/games/new", data=setup_data(list("ABCDE"), kind="draw", max_pip=6)),
    )
    yield "new league, nothing typed", organiser.post("/leagues/new", data={})
    yield (
        "a round with a wrong total",
        enter_round(organiser, mexican, points={0: "abc", 1: 999999}, went_out=""),
    )
    yield (
        "the edit code, wrong",
        stranger.post(f"/g/{mexican}/unlock", data={"code": "0000"}, follow_redirects=True),
    )
    yield (
        "the passphrase, wrong",
        stranger.post(
            f"/leagues/{world.code}/unlock", data={"passphrase": "no"}, follow_redirects=True
        ),
    )
    yield (
        "join a league, unknown code",
        stranger.post("/leagues/join", data={"code": "ZZZZZZ", "passphrase": "no"}),
    )

    # Pages with the message a save leaves.
    fresh = start_game(organiser, NAMES["mexican_train"])
    yield (
        "after saving a round",
        enter_round(organiser, fresh, points={1: 5, 2: 6}, went_out=0, follow_redirects=True),
    )
    yield (
        "after finishing a game",
        organiser.post(f"/g/{fresh}/finish", follow_redirects=True),
    )
    yield (
        "after adding a league player",
        organiser.post(
            f"/leagues/{world.code}/players/new",
            data={"name": "Wilberforce", "split": "no"},
            follow_redirects=True,
        ),
    )


def test_the_check_sees_what_escaped() -> None:
    """The crawl's reading of a page: a marked sentence split by markup passes, an unmarked one
    is caught, in text and in the attributes a phone shows, and data passes."""
    page = """<html><head><title>⟦Stàrt ẋ⟧ · Scorekeeper</title>
      <meta name="description" content="Keep the score">
      <style>.x { content: "Hidden" }</style></head><body>
      <p>⟦Öpéñ <a href="/r">thé rûlés</a> ẋẋ⟧</p>
      <p>⟦Gàmé: ⟦Dràw ẋ⟧ ẋ⟧ left over</p>
      <p>Annabel 12 6 March 2025</p><p>Hello there</p>
      <button aria-label="Close">✕</button><input type="submit" value="Send">
      <button name="lang" value="es">Español</button><img alt="⟦QR ẋ⟧" src="/q.svg">
      <span title="Went out">★</span><code>went_out</code><pre>night,table</pre>
      <script>var s = "English";</script></body></html>"""
    allowed = allowed_pattern(["Annabel", "March", "Scorekeeper", "Español"])
    assert untranslated(page, allowed) == [
        "[content] Keep the score",
        "⟦Gàmé: ⟦Dràw ẋ⟧ ẋ⟧ left over",
        "Hello there",
        "[aria-label] Close",
        "[value] Send",
        "[title] Went out",
    ]


def test_every_page_renders_and_every_sentence_is_translated(
    pseudo_app: Flask, world: World
) -> None:
    world.data.append("Wilberforce")
    allowed = _allowed(world, pseudo_app)
    errors: list[str] = []
    left: dict[str, list[str]] = {}
    checked = 0
    for what, response in _pages_and_answers(pseudo_app, world):
        if response.status_code >= 500 and "error page 500" not in what:
            errors.append(f"{what}: {response.status_code}")
            continue
        if response.mimetype not in ("text/html", "image/svg+xml"):
            continue  # CSV, JSON, a ZIP, a photo: read by machines, English and stable
        if response.status_code in (301, 302, 303, 304):
            continue
        checked += 1
        found = untranslated(response.get_data(as_text=True), allowed)
        if found:
            left[what] = found
    assert checked > 150, checked  # every page, not a handful
    assert errors == [], "server errors in the pseudo-language:\n" + "\n".join(errors)

    # The file: every page with all it left. The message: each text once, under the first
    # page it is on (the base template's texts would otherwise fill it once per page).
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text(
        "".join(f"{what}\n" + "".join(f"    {t}\n" for t in texts) for what, texts in left.items())
    )
    listed: set[str] = set()
    lines = []
    for what, texts in left.items():
        new = [text for text in texts if text not in listed]
        listed.update(new)
        if new:
            more = f" (and {len(texts) - len(new)} listed above)" if len(new) < len(texts) else ""
            lines.append(f"{what}{more}\n" + "".join(f"    {t[:160]}\n" for t in new))
    assert not left, (
        f"{len(listed)} texts escaped gettext on {len(left)} of {checked} pages "
        f"(every page with all it left: {REPORT}):\n" + "".join(lines)
    )


def test_nothing_translated_is_stored(pseudo_app: Flask) -> None:
    """A world made by phones in the pseudo-language, then read in English: no ⟦ on any page
    (a default name, a trail entry, a message kept in the database would still carry it; what
    is stored is the facts, worded where it is shown)."""
    world = build_world(pseudo_app, "pseudo")
    world.organiser.get("/")  # the messages left by making the world shown and gone
    accepted = _accepted_table_names(pseudo_app)  # offered in the phone's language, then saved
    for client in (world.organiser, world.stranger):
        client.set_cookie("lang", "en")
    stored = {}
    for url in world.urls(pseudo_app):
        for who, client in (("", world.organiser), (" (a stranger)", world.stranger)):
            response = client.get(url)
            assert response.status_code < 500, url
            if response.mimetype in ("text/html", "image/svg+xml", "text/csv", "application/json"):
                body = response.get_data(as_text=True)
                for name in accepted:
                    body = body.replace(name, "").replace(html.escape(name), "")
                found = sorted({m for m in re.findall(r"⟦[^⟦⟧]*⟧", body)})
                if "⟦" in body:
                    stored[url + who] = found or ["⟦ (unclosed)"]
    assert not stored, "translated text stored, shown in English:\n" + "\n".join(
        f"{url}: {texts[:5]}" for url, texts in stored.items()
    )


def test_exports_keep_their_columns_and_word_their_readme(pseudo_app: Flask, world: World) -> None:
    """What machines read stays stable: a league's export and a game's CSV have the same
    column names in every language; the README inside the export is worded in the phone's."""
    organiser = world.organiser
    exports = {}
    for language in ("en", "pseudo"):
        organiser.set_cookie("lang", language)
        archive = organiser.get(f"/leagues/{world.code}/export.zip")
        assert archive.status_code == 200
        with zipfile.ZipFile(io.BytesIO(archive.data)) as opened:
            files = {name: opened.read(name).decode("utf-8-sig") for name in opened.namelist()}
        game = organiser.get(f"/g/{world.games['mexican_train']}/game.csv")
        files["game.csv"] = game.get_data(as_text=True).lstrip("\ufeff")
        exports[language] = files
    english, pseudo = exports["en"], exports["pseudo"]
    assert set(english) == set(pseudo)
    for name in english:
        if name.endswith(".csv"):
            header = english[name].splitlines()[0]
            assert pseudo[name].splitlines()[0] == header, name
            assert "⟦" not in header
    readme = next(name for name in english if name.lower().startswith("readme"))
    assert "⟦" not in english[readme]
    assert "⟦" in pseudo[readme], pseudo[readme][:300]

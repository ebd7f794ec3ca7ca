"""Which language a page is in (issue 25): the phone's Accept-Language (es-MX is Spanish,
fr-CA French, German falls back to English), beaten by the language button's cookie; the button
(a link, GET /language/<code>?next=<page>) keeps the choice and goes back to the page it was
tapped on, never to another site; ``<html lang>`` follows; pages say they vary by language, and
a polled page never answers 304 to a copy in another language; the scripts' catalogs at
/i18n/<lang>.js; the buttons on every page.

    .venv/bin/python -m pytest -q tests/web/test_languages.py
"""

from __future__ import annotations

import json
import re
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import get_translations, gettext

from tests.web.helpers import enter_round, start_game
from tests.web.i18n_world import World, build_world
from tests.web.league_helpers import text_of
from tests.web.test_leagues import settings_data

ROOT = Path(__file__).resolve().parents[2]
HTML_LANG = re.compile(r"<html[^>]*\blang=\"([^\"]*)\"")
LANGUAGE_FORM = re.compile(r'<nav class="languages"[^>]*>(.*?)</nav>', re.S)
LINK = re.compile(r'<a href="([^"]*)"([^>]*)>([^<]*)</a>')


def choose(phone: FlaskClient, language: str, page: str) -> Any:
    """One tap on a language button: its link, going back to ``page``."""
    return phone.get(f"/language/{quote(language, safe='')}", query_string={"next": page})


def _lang(response) -> str:  # type: ignore[no-untyped-def]
    found = HTML_LANG.search(response.get_data(as_text=True))
    assert found, response.get_data(as_text=True)[:300]
    return found.group(1)


def _text(client: FlaskClient, path: str, **headers: str) -> str:
    return text_of(client.get(path, headers=headers).get_data(as_text=True))


@pytest.fixture
def game(client: FlaskClient) -> str:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    assert enter_round(client, public_id, points={1: 12, 2: 30}, went_out=0).status_code == 302
    return public_id


# --- Which language -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "en"),
        ("es-MX", "es"),
        ("es-MX,es;q=0.9,en;q=0.8", "es"),
        ("fr-CA", "fr"),
        ("fr-CA,fr;q=0.9,en-US;q=0.8", "fr"),
        ("de", "en"),
        ("de-DE,de;q=0.9", "en"),
        ("de-DE,fr;q=0.5", "fr"),  # German is not offered: the next it reads
        ("en-GB,es;q=0.5", "en"),  # en-GB is English, first: before Spanish at q=0.5
        ("es-MX,fr;q=0.5", "es"),
        ("fr-CA,es;q=0.5", "fr"),
        ("*", "en"),
    ],
)
def test_the_phones_language(client: FlaskClient, game: str, accept: str | None, expected: str):
    headers = {"Accept-Language": accept} if accept else {}
    for path in ("/", f"/g/{game}", f"/g/{game}/scoreboard"):
        assert _lang(client.get(path, headers=headers)) == expected, (path, accept)


def test_a_page_is_in_its_language(client: FlaskClient, game: str) -> None:
    """Not only ``<html lang>``: the words change (three different pages)."""
    for path in ("/", f"/g/{game}", "/games/new"):
        english = _text(client, path)
        spanish = _text(client, path, **{"Accept-Language": "es-MX"})
        french = _text(client, path, **{"Accept-Language": "fr-CA"})
        assert len({english, spanish, french}) == 3, path
    with client.application.test_request_context(headers={"Accept-Language": "es"}):
        new_game_es = gettext("New game")
    assert new_game_es != "New game"
    assert new_game_es in _text(client, "/", **{"Accept-Language": "es"})


def test_the_cookie_beats_the_phones_language(client: FlaskClient, game: str) -> None:
    client.set_cookie("lang", "fr")
    assert _lang(client.get(f"/g/{game}", headers={"Accept-Language": "es-MX"})) == "fr"
    client.set_cookie("lang", "en")
    assert _lang(client.get(f"/g/{game}", headers={"Accept-Language": "es-MX"})) == "en"
    # A cookie naming no language offered here is ignored (the phone's own then counts).
    for unknown in ("xx", "de", "pseudo", ""):
        client.set_cookie("lang", unknown)
        assert _lang(client.get("/", headers={"Accept-Language": "es-MX"})) == "es", unknown


# --- The language buttons -------------------------------------------------------------------


def _cookie(response) -> SimpleCookie | None:  # type: ignore[no-untyped-def]
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("lang="):
            jar = SimpleCookie()
            jar.load(header)
            return jar
    return None


@pytest.fixture
def phone(csrf_app: Flask) -> FlaskClient:
    """A phone on the app with CSRF protection on: the buttons are links and need no token
    (they change nothing but this phone's cookie)."""
    return csrf_app.test_client()


@pytest.mark.parametrize("page", ["/", "/games/new?game=all_fives", "/leagues"])
def test_the_button_keeps_the_choice_and_goes_back(phone: FlaskClient, page: str) -> None:
    response = choose(phone, "es", page)
    assert response.status_code == 303
    location = urlsplit(response.headers["Location"])
    assert location.netloc in ("", "localhost")
    assert (location.path + (f"?{location.query}" if location.query else "")) == page
    jar = _cookie(response)
    assert jar is not None, response.headers.getlist("Set-Cookie")
    morsel = jar["lang"]
    assert morsel.value == "es"
    assert morsel["httponly"] is True
    assert morsel["samesite"].lower() == "lax"
    assert morsel["path"] == "/"
    assert int(morsel["max-age"]) >= 60 * 60 * 24 * 365  # kept: one tap, once
    # The phone now reads Spanish, whatever its own language.
    followed = phone.get(page, headers={"Accept-Language": "fr-CA"})
    assert _lang(followed) == "es"
    # And back to English with the English button.
    response = choose(phone, "en", page)
    assert _cookie(response)["lang"].value == "en"  # type: ignore[index]
    assert _lang(phone.get(page, headers={"Accept-Language": "fr-CA"})) == "en"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example",
        "//evil.example/g/abc",
        "https://evil.example",
        "https://evil.example/leagues",
        "http:/evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "/\t/evil.example",  # a browser drops the tab: //evil.example
        "/\r\nX-Injected: 1",
        "javascript:alert(1)",
        "evil.example",
        "",
    ],
)
def test_the_button_never_leads_to_another_site(phone: FlaskClient, target: str) -> None:
    response = choose(phone, "fr", target)
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"] in ("/", "http://localhost/"), response.headers
    assert "X-Injected" not in response.headers
    assert _cookie(response)["lang"].value == "fr"  # type: ignore[index]


@pytest.mark.parametrize("language", ["xx", "de", "pseudo", "ES", "es\r\nX-Injected: 1"])
def test_an_unknown_language_is_ignored(phone: FlaskClient, language: str) -> None:
    phone.set_cookie("lang", "es")
    response = choose(phone, language, "/leagues")
    # Back to the page (or no such address, for a code with a line break in it).
    assert response.status_code in (303, 404)
    if response.status_code == 303:
        assert urlsplit(response.headers["Location"]).path == "/leagues"
    assert "X-Injected" not in response.headers
    assert _cookie(response) is None  # the choice made before stands
    assert _lang(phone.get("/leagues")) == "es"


def test_html_lang_and_the_current_button_follow(client: FlaskClient, game: str) -> None:
    for language in ("en", "es", "fr"):
        client.set_cookie("lang", language)
        for path in ("/", f"/g/{game}", f"/g/{game}/round", "/leagues/new", "/no-such-page"):
            response = client.get(path)
            assert _lang(response) == language, path
            form = LANGUAGE_FORM.search(response.get_data(as_text=True))
            assert form, path
            current = re.findall(r'<a [^>]*aria-current="true"[^>]*>', form.group(1))
            assert len(current) == 1 and f"/language/{language}?" in current[0], (path, current)


def test_html_answers_vary_by_language(client: FlaskClient, game: str) -> None:
    for path in ("/", f"/g/{game}", f"/g/{game}/scoreboard", f"/g/{game}/watch", "/nope"):
        response = client.get(path)
        assert response.mimetype == "text/html"
        vary = {part.strip().lower() for part in response.headers.get("Vary", "").split(",")}
        assert {"accept-language", "cookie"} <= vary, (path, response.headers.get("Vary"))


# --- Polled pages: one ETag per language ----------------------------------------------------


@pytest.fixture
def world(app: Flask) -> World:
    return build_world(app)


def _polled(world: World) -> list[str]:
    """The pages a phone polls (answered by ``scorekeeper.web.responses.unless_unchanged``)."""
    night = f"nights/{world.night}"
    return [
        f"/g/{world.games['mexican_train']}/watch/board",
        f"/g/{world.table}/watch/board",
        f"/g/{world.games['mexican_train']}/card.svg",
        f"/leagues/{world.code}/{night}/live",
        f"/leagues/{world.code}/{night}/card.svg",
        f"/p/{world.values['token']}/{night}/live",
        f"/p/{world.values['token']}/{night}/card.svg",
    ]


def test_a_polled_page_has_an_etag_per_language(world: World, app: Flask) -> None:
    client = world.organiser
    for url in _polled(world):
        tags = {}
        for language in ("en", "es", "fr"):
            first = client.get(url, headers={"Accept-Language": language})
            assert first.status_code == 200, url
            tags[language] = first.headers["ETag"]
            # The same language again: unchanged.
            again = client.get(
                url, headers={"Accept-Language": language, "If-None-Match": tags[language]}
            )
            assert again.status_code == 304, (url, language)
        assert len(set(tags.values())) == 3, (url, tags)
        # A phone that switched language (its Accept-Language, then the cookie) with the copy
        # it kept: the page again, in the new language, never a 304.
        for old, new in (("en", "es"), ("es", "fr"), ("fr", "en")):
            moved = client.get(url, headers={"Accept-Language": new, "If-None-Match": tags[old]})
            assert moved.status_code == 200, (url, old, new)
            assert moved.headers["ETag"] == tags[new]
        client.set_cookie("lang", "es")
        moved = client.get(url, headers={"Accept-Language": "en", "If-None-Match": tags["en"]})
        assert moved.status_code == 200 and moved.headers["ETag"] == tags["es"], url
        client.delete_cookie("lang")


def test_what_is_kept_once_is_kept_per_language(client: FlaskClient, game: str) -> None:
    """The share view's live part is written once per version of the game, a fresh round
    form's seats once per game and players, and a domino once per tile and size, in each
    process: a phone in Spanish, then one in English, then Spanish again, each gets its own
    language, never the words kept for the other."""
    phones = {language: client.application.test_client() for language in ("es", "en")}
    for language in ("es", "en", "es"):
        board = (
            phones[language]
            .get(f"/g/{game}/watch/board", headers={"Accept-Language": language})
            .get_data(as_text=True)
        )
        form = client.get(f"/g/{game}/round", headers={"Accept-Language": language}).get_data(
            as_text=True
        )
        if language == "es":
            assert 'aria-label="Clasificación"' in board
            assert 'aria-label="doble 11"' in form  # the engine of round 2
            assert "<span>Salió<span" in form  # the seats, kept while the players stay
        else:
            assert 'aria-label="Standings"' in board
            assert 'aria-label="double 11"' in form
            assert "<span>Went out<span" in form


# --- The scripts' catalogs ------------------------------------------------------------------

# t("...") and tn("...", "...", n) in the scripts, in double or single quotes.
JS_STRING = r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
T_CALL = re.compile(rf"(?<![\w.$])t\(\s*{JS_STRING}")
TN_CALL = re.compile(rf"(?<![\w.$])tn\(\s*{JS_STRING}\s*,\s*{JS_STRING}")


def _script_calls() -> tuple[set[str], list[tuple[str, str]]]:
    """Every sentence the scripts pass to t() or tn(), and the (singular, plural) of each tn()."""
    found: set[str] = set()
    pairs: list[tuple[str, str]] = []
    for path in [*sorted((ROOT / "static" / "js").glob("*.js")), ROOT / "static" / "sw.js"]:
        # Comments name t() and tn() as examples: not sentences.
        source = re.sub(r"//[^\n]*|/\*.*?\*/", "", path.read_text(), flags=re.S)
        for match in T_CALL.finditer(source):
            found.add(json.loads(_double_quoted(match.group(1))))
        for match in TN_CALL.finditer(source):
            one, many = (json.loads(_double_quoted(m)) for m in match.groups())
            found.update((one, many))
            pairs.append((one, many))
    return found, pairs


def _double_quoted(literal: str) -> str:
    if literal.startswith("'"):
        inner = literal[1:-1].replace("\\'", "'").replace('"', '\\"')
        return f'"{inner}"'
    return literal


def _catalog(client: FlaskClient, language: str) -> dict:
    response = client.get(f"/i18n/{language}.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    body = response.get_data(as_text=True)
    prefix = "window.SK_I18N = "
    assert body.startswith(prefix), body[:100]
    return json.loads(body[len(prefix) :].strip().rstrip(";"))


@pytest.mark.parametrize("language", ["es", "fr"])
def test_the_scripts_catalog(client: FlaskClient, app: Flask, language: str) -> None:
    catalog = _catalog(client, language)
    assert catalog["lang"] == language
    messages = catalog["messages"]
    sentences, pairs = _script_calls()
    assert sentences, "the scripts say nothing through t() or tn() yet"
    assert set(messages) == sentences
    with app.test_request_context(headers={"Accept-Language": language}):
        expected = {message: gettext(message) for message in sentences}
        # A tn() pair: its singular is sent as the form for one, its plural as the form for
        # many (the plural is not a msgid of its own).
        for singular, plural in pairs:  # placeholders left for the script to fill
            expected[singular] = get_translations().ungettext(singular, plural, 1)
            expected[plural] = get_translations().ungettext(singular, plural, 2)
    assert messages == expected
    same = [m for m, translated in messages.items() if translated == m]
    assert len(same) <= len(messages) // 10, f"not translated into {language}: {same}"


def test_a_page_loads_its_languages_catalog(client: FlaskClient) -> None:
    english = client.get("/").get_data(as_text=True)
    assert "/i18n/" not in english  # English is the scripts' own
    client.set_cookie("lang", "es")
    spanish = client.get("/").get_data(as_text=True)
    found = re.search(r'<script src="(/i18n/es\.js\?v=[^"]+)"', spanish)
    assert found, spanish[:2000]
    assert client.get(found.group(1).replace("&amp;", "&")).status_code == 200


@pytest.mark.parametrize("language", ["xx", "de", "pseudo", "EN", "es-MX"])
def test_no_catalog_for_a_language_not_offered(client: FlaskClient, language: str) -> None:
    assert client.get(f"/i18n/{language}.js").status_code == 404


# --- The buttons on every page --------------------------------------------------------------


def _pages(world: World, app: Flask) -> dict[str, object]:
    pages: dict[str, object] = {}
    for url in world.urls(app):
        for who, client in (("", world.organiser), (" (a stranger)", world.stranger)):
            response = client.get(url)
            if (
                response.mimetype == "text/html"
                and not 300 <= response.status_code < 400
                and "<html" in response.get_data(as_text=True)
            ):
                pages[url + who] = response  # a page (not a fragment a page polls)
    for client in (world.organiser, world.stranger):  # what a stranger is sent to
        pages[f"/g/{world.table}/unlock"] = client.get(f"/g/{world.table}/unlock")
        pages[f"/leagues/{world.code}/unlock"] = client.get(f"/leagues/{world.code}/unlock")
    pages["/no-such-page"] = world.stranger.get("/no-such-page")
    pages["GET finish (405)"] = world.organiser.get(f"/g/{world.table}/finish")
    return pages


def test_the_buttons_are_on_every_page(world: World, app: Flask) -> None:
    """Every page but the print views (a sheet of paper) offers the three languages, each a
    link that goes back to this very page. (The fragments a page polls,
    watch/board and a night's live tables, are parts of a page that has them.)"""
    checked = 0
    missing = []
    for what, response in _pages(world, app).items():
        if what.split("?")[0].split(" ")[0].endswith("/print"):
            continue
        page = response.get_data(as_text=True)  # type: ignore[attr-defined]
        form = LANGUAGE_FORM.search(page)
        if not form:
            missing.append(what)
            continue
        checked += 1
        links = LINK.findall(form.group(1))
        offered = {
            re.search(r"/language/(\w+)\?", href).group(1): name  # type: ignore[union-attr]
            for href, _attributes, name in links
        }
        assert offered == {"en": "English", "es": "Español", "fr": "Français"}, (what, offered)
        path = what.split(" ")[0]
        for href, attributes, _name in links:
            assert re.search(r'\blang="(en|es|fr)"', attributes), attributes  # named in itself
            back = urlsplit(href.replace("&amp;", "&"))
            assert back.path.startswith("/language/"), href
            if path.startswith("/"):
                nxt = dict(parse_qsl(back.query)).get("next")
                assert nxt == path, (what, href)
    assert missing == [], f"no language buttons on: {missing}"
    assert checked > 60, checked


def test_the_print_views_follow_the_language(world: World, app: Flask) -> None:
    prints = [url for url in world.urls(app) if url.endswith("/print")]
    assert len(prints) >= 5, prints
    world.organiser.set_cookie("lang", "fr")
    for url in prints:
        assert _lang(world.organiser.get(url)) == "fr", url


# --- A league's language --------------------------------------------------------------------


def test_a_leagues_language(world: World, app: Flask) -> None:
    """A league in Spanish: its pages, its members' link and its tables are Spanish for a phone
    that chose no language, whatever the phone's own; a phone's button still wins; pages
    outside the league keep the phone's language."""
    organiser = world.organiser
    response = organiser.post(
        f"/leagues/{world.code}/settings",
        data=settings_data(
            name="Zephyrine Domino Circle",
            ranking="points",
            placement_points="3,2,1",
            language="es",
        ),
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    league_pages = [
        f"/leagues/{world.code}",
        f"/leagues/{world.code}/nights/{world.night}",
        f"/leagues/{world.code}/players",
        f"/g/{world.table}",  # a table of the league's night
        f"/p/{world.values['token']}",
    ]
    for path in league_pages:
        for accept in ({}, {"Accept-Language": "fr-CA"}, {"Accept-Language": "en-US"}):
            assert _lang(organiser.get(path, headers=accept)) == "es", (path, accept)
    # The members' link, opened by a new phone.
    newcomer = app.test_client()
    members = f"/leagues/{world.code}/members/{world.values['leagues.members_link:token']}"
    landed = newcomer.get(members, headers={"Accept-Language": "en-GB"}, follow_redirects=True)
    assert _lang(landed) == "es"
    # Outside the league: the phone's own.
    assert _lang(organiser.get("/", headers={"Accept-Language": "fr-CA"})) == "fr"
    assert _lang(organiser.get(f"/g/{world.games['draw']}")) == "en"
    # The phone's choice beats the league's.
    organiser.set_cookie("lang", "fr")
    for path in league_pages:
        assert _lang(organiser.get(path)) == "fr", path

"""A phone in Spanish, and one in French (issue 25), 360 px wide: the language chosen by
tapping its button at the foot of the page; a whole round of a new Mexican Train game (the
totals, who went out, Save), that round corrected, a league night and the standings. On every
page visited, no English word of the app's own is left in what the phone shows (its text and
what it reads aloud). Screenshots under test-results/screenshots/lang-<code>-<page>.png.

The flow never finds a control by its English words: by its place in the page (the same in
every language).

    .venv/bin/python -m pytest -q tests/e2e/test_languages.py
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night
from tests.web.test_leagues import settings_data

pytestmark = pytest.mark.e2e

WIDTH, HEIGHT = 360, 780
BUTTONS = {"es": "Español", "fr": "Français"}
#: What the test types (names, a place): shown as typed in every language.
PLAYERS = {"es": ["Ximena", "Rodrigo", "Lucía"], "fr": ["Ségolène", "Thibault", "Maëlle"]}
LEAGUE = {"es": "Club Dominó Jalisco", "fr": "Club Domino Lyonnais"}
PLACE = {"es": "Casa Ramírez", "fr": "Chez Dupuis"}
ROSTER = {
    "es": ["Ximena", "Rodrigo", "Lucía", "Mateo"],
    "fr": ["Ségolène", "Thibault", "Maëlle", "Aurélien"],
}


#: English words of the app's own that are not Spanish or French words too ("total", "score",
#: "table", "train", "points", "double", "photo", "place", "correction", "correct", "content",
#: "stop", "on", "a" are: left out), matched as whole words, any case.
ENGLISH = [
    "Save", "Saved", "Round", "Rounds", "Player", "Players", "Game", "Games", "Game over",
    "Went out", "Blocked", "Undo", "Correct round", "New game", "League", "Leagues",
    "Standings", "Night", "Nights", "Rules", "Share", "Delete", "Back", "Scoreboard", "Enter",
    "Start", "Starts", "Keep", "Leave", "Edit", "Settings", "Season", "Wins", "Winner",
    "Tiles", "Hand", "Seat", "Guest", "Language", "Print", "Helper", "Rank", "Played",
    "Why", "Mexican", "Tonight", "Results", "Skip", "the", "and", "of", "your", "this", "with",
    "from", "to", "for", "what", "who", "is", "are",
]  # fmt: skip
ENGLISH_WORDS = re.compile(
    r"(?<!\w)(" + "|".join(re.escape(w) for w in ENGLISH) + r")(?!\w)", re.IGNORECASE
)

#: What the phone shows and reads aloud: the text, and the names of visible controls.
SHOWN = """() => {
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0
      && style.visibility !== "hidden" && style.display !== "none";
  };
  const parts = [document.title, document.body.innerText];
  const named = "[aria-label], [title], [placeholder], [alt], input[type=submit]";
  for (const el of document.querySelectorAll(named)) {
    if (!shown(el)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      if (el.getAttribute(name)) parts.push(el.getAttribute(name));
    }
    if (el.matches("input[type=submit]")) parts.push(el.value);
  }
  return parts.join("\\n");
}"""


def _english_left(page: Page, typed: list[str]) -> list[str]:
    text = page.evaluate(SHOWN)
    for data in sorted(typed, key=len, reverse=True):
        text = text.replace(data, " ")
    found = []
    for line in text.splitlines():
        words = sorted({m.group(1) for m in ENGLISH_WORDS.finditer(line)})
        if words:
            found.append(f"{', '.join(words)}: {' '.join(line.split())[:140]}")
    return list(dict.fromkeys(found))


def _league(page: Page, app: Flask, live_server: str, language: str) -> tuple[str, int]:
    """A league of this phone's (its organiser) with a night and two played tables, made
    through the app's own forms by a test client that carries the phone's session (and hands
    it back: the session holds the organiser's rights)."""
    (session,) = [c for c in page.context.cookies(live_server) if c["name"] == "session"]
    client = app.test_client()
    client.set_cookie("session", session["value"])
    client.set_cookie("lang", language)  # the messages it leaves in the phone's language
    app.config["WTF_CSRF_ENABLED"] = False  # the test client sends no tokens
    try:
        code = start_league(client, LEAGUE[language])
        # Ranked by wins (the average ranks a player from their third game).
        response = client.post(
            f"/leagues/{code}/settings",
            data=settings_data(
                name=LEAGUE[language], ranking="wins", min_games=1, placement_points="3,2,1"
            ),
        )
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        ids = add_players(client, code, ROSTER[language])
        night = start_night(client, code, place=PLACE[language])
        names = ROSTER[language]
        table = add_table(client, code, night, [ids[names[0]], ids[names[1]]])
        play(client, table, [0, 23])
        table = add_table(client, code, night, [ids[names[2]], ids[names[3]]])
        play(client, table, [11, 0])
    finally:
        app.config["WTF_CSRF_ENABLED"] = True
    kept = client.get_cookie("session")
    assert kept is not None
    page.context.add_cookies([{"name": "session", "value": kept.value, "url": live_server}])
    return code, night


@pytest.mark.parametrize("language", ["es", "fr"])
def test_a_round_a_correction_and_the_standings(
    page: Page, live_app: Flask, live_server: str, language: str
) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    names = PLAYERS[language]
    typed = [*names, *ROSTER[language], LEAGUE[language], PLACE[language], "Scorekeeper"]
    left: dict[str, list[str]] = {}

    def visit(name: str) -> None:
        expect(page.locator("html")).to_have_attribute("lang", language)
        found = _english_left(page, typed)
        if found:
            left[f"{name} ({page.url.removeprefix(live_server)})"] = found

    def shoot(name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"lang-{language}-{name}.png"), full_page=True)

    # The phone speaks English (its Accept-Language): one tap on the button at the foot.
    page.goto(f"{live_server}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    button = page.locator(".page-foot .languages a", has_text=BUTTONS[language])
    button.scroll_into_view_if_needed()
    button.tap()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator(".page-foot .language.current")).to_have_attribute("hreflang", language)
    assert page.url == f"{live_server}/"  # back on the page it was tapped on
    # The scripts have their sentences in this language too.
    # Asked through page.evaluate (DevTools, outside the page's CSP): wait_for_function's
    # string predicate is run by an eval the page's script-src 'self' refuses.
    deadline = time.monotonic() + 10
    while page.evaluate("() => window.SK_I18N && window.SK_I18N.lang") != language:
        assert time.monotonic() < deadline, "the scripts' sentences never came in this language"
        page.wait_for_timeout(50)
    visit("start")
    shoot("start")

    # A new Mexican Train game of three.
    page.locator('main a[href="/games/new"]').first.tap()
    for index, name in enumerate(names):
        page.locator(f'input[name="names-{index}"]').fill(name)
    visit("setup")
    page.locator('#setup-form button.block[type="submit"][value=""]').tap()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    public_id = page.url.rsplit("/", 1)[1]
    visit("table")
    shoot("table")

    # Round 1: the totals, who went out, Save.
    page.locator(f'a[href="/g/{public_id}/round"]').first.tap()
    page.locator("#seat-0 .went-out").tap()
    expect(page.locator("#seat-0 input.points")).to_have_value("0")
    page.locator("#seat-1 input.points").fill("12")
    page.locator("#seat-2 input.points").fill("30")
    visit("round")
    shoot("round")
    page.locator("#round-form button.save-round").tap()
    page.wait_for_url(f"{live_server}/g/{public_id}")
    expect(page.locator(f'a[href="/g/{public_id}/round"]').first).to_be_visible()
    visit("table after round 1")

    # The round corrected from the scoreboard: the second player had 22, not 12.
    page.goto(f"{live_server}/g/{public_id}/scoreboard")
    visit("scoreboard")
    page.locator(f'a[href="/g/{public_id}/rounds/1"]').first.tap()
    expect(page.locator("#seat-1 input.points")).to_have_value("12")
    page.locator("#seat-1 input.points").fill("22")
    visit("correction")
    page.locator("#round-form button.save-round").tap()
    page.wait_for_url(re.compile(rf"/g/{public_id}/scoreboard"))
    expect(page.locator("td.corrected")).to_have_count(1)
    visit("scoreboard after the correction")
    shoot("scoreboard")

    # A league night of this phone's, and the standings.
    code, night = _league(page, live_app, live_server, language)
    page.goto(f"{live_server}/leagues/{code}/nights/{night}")
    expect(page.locator("ol.mini-standings")).to_have_count(2)
    expect(page.locator("table.results")).to_be_visible()
    visit("league night")
    shoot("night")
    page.goto(f"{live_server}/leagues/{code}")
    expect(page.locator("ol.standings.league li")).to_have_count(4)
    visit("standings")
    shoot("standings")

    assert not left, f"English left on the {language} pages:\n" + "".join(
        f"{where}\n" + "".join(f"    {line}\n" for line in lines) for where, lines in left.items()
    )


def test_the_language_buttons_are_big_targets(page: Page, live_server: str, shoot: Any) -> None:
    """At 360 px, each language button is at least 48 x 48 px, none covering another."""
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    for path in ("/", "/games/new", "/leagues"):
        page.goto(f"{live_server}{path}")
        buttons = page.locator(".page-foot .languages a")
        expect(buttons).to_have_count(3)
        boxes = []
        for index in range(buttons.count()):
            buttons.nth(index).scroll_into_view_if_needed()
            box = buttons.nth(index).bounding_box()
            assert box is not None and box["height"] >= 48 and box["width"] >= 48, (path, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (path, box)
            boxes.append(box)
        for a, b in zip(boxes, boxes[1:], strict=False):
            apart = a["x"] + a["width"] <= b["x"] or a["y"] + a["height"] <= b["y"]
            assert apart, (path, a, b)
    page.locator(".page-foot").scroll_into_view_if_needed()
    shoot("lang-buttons-360", full_page=False)

"""A shared phone: what it keeps of a league's table for use without signal carries no secret,
and signing it out of the league (or of a game) clears the pages, drafts and unsent rounds it
kept, with the service worker in control of the page or not."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.extensions import db
from scorekeeper.leagues import services as leagues
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_game_flow import NAMES, _start_game
from tests.e2e.test_offline import _controlled, _keeps_game, _second_phone

pytestmark = pytest.mark.e2e

PASSPHRASE = "blue engine 7"


def _league_table(app: Flask) -> tuple[str, str, str, str]:
    """A league (organised by another phone) with a night and one table: (league code, league
    name, the table's public id, its edit code)."""
    with app.app_context():
        league = leagues.create_league("Thursday Club", PASSPHRASE, "0" * 64)
        players = [leagues.add_player(league, name) for name in ("Ann", "Bob", "Cy")]
        night = leagues.create_night(league, date.today(), "Hall")
        game = leagues.add_table(league, night, "", [p.id for p in players], [], "0" * 64)
        found = (league.code, league.name, game.public_id, game.edit_code)
        db.session.commit()
        db.session.remove()
    return found


def _kept_pages(page: Page) -> list[str]:
    return page.evaluate(
        "() => caches.has('pages').then(has => has ? caches.open('pages')"
        ".then(c => c.keys()).then(keys => keys.map(r => new URL(r.url).pathname)) : [])"
    )


def _kept_copy(page: Page, path: str) -> str:
    return page.evaluate(
        "path => caches.open('pages').then(c => c.match(location.origin + path))"
        ".then(r => r ? r.text() : '')",
        path,
    )


def _stored(page: Page) -> dict[str, Any]:
    return json.loads(page.evaluate("() => JSON.stringify(Object.assign({}, localStorage))"))


def test_signing_a_shared_phone_out_of_a_league_leaves_nothing_to_read(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask, shoot: Any
) -> None:
    code, name, public_id, edit_code = _league_table(live_app)
    page.goto(f"{live_server}/leagues/{code}/unlock")
    page.get_by_label("League passphrase").fill(PASSPHRASE)
    page.get_by_role("button", name="Unlock").click()
    expect(page.get_by_text(f"This phone can now keep score for {name}.")).to_be_visible()

    # The table's game: the worker keeps its pages; the edit code is on the page itself.
    page.goto(f"{live_server}/g/{public_id}")
    _keeps_game(page, public_id)
    page.locator("#share > summary").click()
    page.get_by_text("Show the edit code").click()
    expect(page.locator(".huge.code")).to_have_text(edit_code)
    page.locator("#share").scroll_into_view_if_needed()
    shoot("shared-phone-league-table-share", full_page=False)
    # The kept copy has neither the edit code nor the members' link.
    copy = _kept_copy(page, f"/g/{public_id}")
    assert "data-table-view" in copy and "data-secret-removed" in copy
    assert edit_code not in copy
    assert "/members/" not in copy
    # That copy is what the phone shows without signal.
    context.set_offline(True)
    page.goto(f"{live_server}/g/{public_id}")
    page.locator("#share > summary").click()
    expect(page.locator("#share [data-secret-removed]")).to_have_text(
        "Shown only with signal: it is not kept on this phone."
    )
    expect(page.locator(".huge.code")).to_have_count(0)
    page.locator("#share").scroll_into_view_if_needed()
    shoot("shared-phone-kept-copy-offline", full_page=False)
    context.set_offline(False)

    # A round typed but not saved: a draft on the phone.
    page.goto(f"{live_server}/g/{public_id}/round")
    page.locator('input[name="seat_1-hand"]').fill("12")
    page.locator('input[name="seat_2-hand"]').fill("7")
    page.wait_for_function(
        "id => Object.keys(localStorage).some(k => k.startsWith('scorekeeper:draft:' + id))",
        arg=public_id,
    )

    page.goto(f"{live_server}/leagues/{code}/manage")
    page.get_by_role("button", name=f"Sign this phone out of {name}").click()
    expect(page.get_by_text(f"This phone no longer keeps score for {name}")).to_be_visible()
    page.wait_for_selector("html[data-forgotten]", state="attached")
    assert [path for path in _kept_pages(page) if path.startswith("/g/")] == []
    assert not [key for key in _stored(page) if public_id in key]
    assert "scorekeeper:queue" not in _stored(page) or public_id not in _stored(page).get(
        "scorekeeper:queue", ""
    )

    # Back: the league's page the phone was on comes again from the server, which asks for
    # the passphrase (no members' link).
    page.go_back()
    expect(page.get_by_role("heading", name=f"Open {name} on this phone")).to_be_visible()
    assert "/members/" not in page.content()

    # Someone picks the phone up later, without signal: nothing of the table to read.
    context.set_offline(True)
    page.goto(f"{live_server}/g/{public_id}")
    expect(page.get_by_role("heading", name=re.compile("No signal", re.I))).to_be_visible()
    html = page.content()
    assert edit_code not in html
    assert "/members/" not in html
    shoot("shared-phone-signed-out-offline", full_page=False)
    page.goto(f"{live_server}/g/{public_id}/round")
    assert edit_code not in page.content()
    assert not page.locator("#round-form").count()
    context.set_offline(False)


def test_signing_out_of_a_game_clears_it_without_the_worker(
    browser: Any, browser_context_args: dict[str, Any], live_server: str, live_app: Flask
) -> None:
    """No service worker controls the page (blocked here; also the first visit, or a browser
    without one): the page itself empties the kept pages and the drafts."""
    _code, _name, public_id, edit_code = _league_table(live_app)
    context = browser.new_context(**browser_context_args, service_workers="block")
    page = context.new_page()
    page.goto(f"{live_server}/g/{public_id}/unlock")
    page.get_by_label("Edit code").fill(edit_code)
    page.get_by_role("button", name="Unlock").click()
    expect(page.locator("[data-keep-score]")).to_be_attached()
    # Copies kept earlier (by a worker since gone), and a draft.
    page.evaluate(
        "id => caches.open('pages').then(c => c.addAll(['/g/' + id, '/g/' + id + '/round']))",
        public_id,
    )
    page.evaluate(
        "id => localStorage.setItem('scorekeeper:draft:' + id + ':1',"
        " JSON.stringify({game: id, round: 1, token: 't', fields: [], summary: ''}))",
        public_id,
    )
    assert len(_kept_pages(page)) == 2
    page.locator("#share > summary").click()
    page.set_viewport_size({"width": 360, "height": 780})
    page.get_by_role("button", name="Sign this phone out of this game").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "shared-phone-game-sign-out-360.png"))
    page.get_by_role("button", name="Sign this phone out of this game").click()
    expect(page.get_by_text("This phone no longer keeps score for this game")).to_be_visible()
    page.wait_for_selector("html[data-forgotten]", state="attached")
    assert (
        page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
        is False
    )
    assert _kept_pages(page) == []
    assert not [key for key in _stored(page) if public_id in key]
    expect(page.locator(".huge.code")).to_have_count(0)
    context.close()


def test_a_new_edit_code_ends_what_the_old_one_gave(
    page: Page, browser: Any, browser_context_args: dict[str, Any], live_server: str
) -> None:
    """The creator changes the code after a borrowed phone has seen it: that phone is asked
    for the code again, the old code is refused, the new one works."""
    public_id = _start_game(page, live_server, NAMES)
    page.locator("#share > summary").click()
    page.get_by_text("Show the edit code").click()
    old_code = page.locator(".huge.code").inner_text().strip()
    context, other = _second_phone(browser, browser_context_args, live_server, public_id, old_code)
    expect(other.get_by_role("link", name="Enter round 1 scores")).to_be_visible()

    page.get_by_role("link", name="Change the edit code").click()
    page.set_viewport_size({"width": 360, "height": 780})
    page.screenshot(path=str(SCREENSHOTS / "change-edit-code-360.png"))
    page.get_by_role("button", name="Give the game a new edit code").click()
    expect(page.get_by_text("The game has a new edit code.")).to_be_visible()
    page.locator("#share > summary").click()
    page.get_by_text("Show the edit code").click()
    new_code = page.locator(".huge.code").inner_text().strip()
    assert new_code != old_code

    other.get_by_role("link", name="Enter round 1 scores").click()
    expect(
        other.get_by_text("The game has a new edit code since this phone typed one")
    ).to_be_visible()
    other.get_by_label("Edit code").fill(old_code)
    other.get_by_role("button", name="Unlock").click()
    expect(other.get_by_text("That is not this game's edit code.")).to_be_visible()
    other.get_by_label("Edit code").fill(new_code)
    other.get_by_role("button", name="Unlock").click()
    expect(other.locator("h1")).to_contain_text("Round 1")
    context.close()


def _wait_for_kept_start_page(page: Page, naming: str) -> None:
    """Wait until the kept copy of the start page names ``naming`` (the worker keeps it after
    the page is shown)."""
    for _ in range(100):
        if naming in _kept_copy(page, "/"):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the start page kept on the phone does not name {naming}")


def test_signing_out_of_a_league_takes_its_game_off_the_start_page(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask, shoot: Any
) -> None:
    """Issue 36 item 20: a table phone that played again at a league table lists that game on
    its start page; signed out of the league, the start page no longer shows it, with signal
    or from the copy kept for use without signal."""
    code, name, public_id, _edit_code = _league_table(live_app)
    page.goto(f"{live_server}/leagues/{code}/unlock")
    page.get_by_label("League passphrase").fill(PASSPHRASE)
    page.get_by_role("button", name="Unlock").click()
    page.goto(f"{live_server}/g/{public_id}/round")
    page.locator("#seat-0 input.points").fill("17")
    page.locator("#seat-1 .went-out").click()
    page.locator("#seat-2 input.points").fill("23")
    page.get_by_role("button", name="Save round 1").click()
    page.get_by_text("Stop early").click()
    page.get_by_role("button", name="End the game after round 1").click()
    page.get_by_role("link", name=re.compile("Play again at")).click()
    page.get_by_role("button", name="Start the new game").click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    new = page.url.rsplit("/", 1)[-1]
    assert new != public_id

    page.goto(f"{live_server}/")
    _controlled(page)
    page.goto(f"{live_server}/")
    expect(page.locator(f'a[href="/g/{new}"]')).to_contain_text("Ann, Bob, Cy")
    _wait_for_kept_start_page(page, f"/g/{new}")

    page.goto(f"{live_server}/leagues/{code}/manage")
    page.get_by_role("button", name=f"Sign this phone out of {name}").click()
    expect(page.get_by_text(f"This phone no longer keeps score for {name}")).to_be_visible()
    page.wait_for_selector("html[data-forgotten]", state="attached")

    # Without signal, the start page the phone kept does not show the league's game ...
    context.set_offline(True)
    page.goto(f"{live_server}/")
    expect(page.locator("body")).not_to_contain_text("Ann, Bob, Cy")
    assert f"/g/{new}" not in page.content()
    shoot("shared-phone-start-page-signed-out-offline", full_page=False)
    context.set_offline(False)
    # ... nor does the start page with signal.
    page.goto(f"{live_server}/")
    expect(page.get_by_role("heading", name="Mexican Train scores")).to_be_visible()
    expect(page.get_by_text("Games on this phone")).to_have_count(0)
    assert f"/g/{new}" not in page.content()

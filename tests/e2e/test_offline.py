"""No signal at the table: the installable app, drafts kept while typing, rounds kept on the
phone and sent by themselves exactly once, a kept round that another phone beat, and the table
view following another phone's saves."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Round
from tests.e2e.conftest import LiveServer
from tests.e2e.test_game_flow import NAMES, _enter, _start_game

pytestmark = pytest.mark.e2e

CHECKS = (Path(__file__).parent / "a11y.js").read_text()
ICON = Path(__file__).resolve().parents[2] / "static" / "icons" / "icon-192.png"


def _saved_rounds(app: Flask) -> list[tuple[int, list[int]]]:
    """(number, points by seat) of every round the server stored."""
    with app.app_context():
        rounds = db.session.scalars(select(Round).order_by(Round.number)).all()
        saved = [
            (r.number, [s.points for s in sorted(r.scores, key=lambda s: s.seat.position)])
            for r in rounds
        ]
        db.session.remove()
    return saved


CONTROLLED = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"


def _controlled(page: Page) -> None:
    """Wait until the service worker controls the page.

    The worker installs on the first page the phone opens. A page whose navigation began
    while the worker was still installing can miss the worker's clients.claim() (Chromium,
    now and then on a busy machine) and stays uncontrolled until the next page load, as it
    would for a player until their next tap. So: wait for the active worker, give the
    claim a moment, else load the page again, which the active worker always controls.
    """
    # Bounded: a worker that never becomes active (its install failed) fails here, not hangs.
    active = page.evaluate(
        "() => Promise.race([navigator.serviceWorker.ready.then(() => true),"
        " new Promise(resolve => setTimeout(() => resolve(false), 30000))])"
    )
    assert active, "the service worker never became active"
    try:
        page.wait_for_function(CONTROLLED, timeout=5_000)
    except PlaywrightTimeoutError:
        page.reload()
        page.wait_for_function(CONTROLLED)


def _abort(route: Any) -> None:
    route.abort("internetdisconnected")


def _no_signal(context: BrowserContext, server: LiveServer, offline: bool) -> None:
    """The phone without signal (``offline``) or with it again.

    ``set_offline`` and a context route do not always reach the service worker's own requests
    in Chromium (its requests are outside both unless Playwright's experimental service worker
    network events are on, microsoft/playwright#2311): now and then a round was saved through
    the worker while the phone had no signal (2 runs in 15; with the route, once more in CI). So the
    server is out of reach too, as it is for a phone without signal: nothing the phone sends
    can arrive, whichever of its parts sends it.
    """
    if offline:
        context.set_offline(True)
        context.route("**/*", _abort)
        server.stop()
    else:
        server.start()
        context.unroute("**/*", _abort)
        context.set_offline(False)


def _keeps_game(page: Page, public_id: str) -> None:
    """Wait until the service worker controls the page and keeps the game's round form."""
    _controlled(page)
    # wait_for_function does not wait for a promise: ask until the answer is yes.
    for _ in range(100):
        kept = page.evaluate(
            "id => caches.open('pages').then(c => c.keys())"
            ".then(keys => keys.some(r => r.url === location.origin + '/g/' + id + '/round'))",
            public_id,
        )
        if kept:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker did not keep the round form")


def _wait_for_kept(
    page: Page, path: str, found: Callable[[str], bool], what: str, tries: int = 100
) -> None:
    """Wait until the service worker's kept copy of ``path`` is ``found`` (asked every 0.1 s,
    ``tries`` times; else fail with ``what``)."""
    for _ in range(tries):  # wait_for_function does not wait for a promise: ask until yes
        kept = page.evaluate(
            "path => caches.open('pages').then(c => c.match(location.origin + path))"
            ".then(r => r ? r.text() : '')",
            path,
        )
        if found(kept):
            return
        page.wait_for_timeout(100)
    raise AssertionError(what)


def _queue(page: Page) -> list[dict[str, Any]]:
    return json.loads(page.evaluate("localStorage.getItem('scorekeeper:queue') || '[]'"))


def _scroll_to_queued_round(page: Page, number: int) -> None:
    """Scrolls to a kept round's notice in the page, in one step: the client draws its queue
    again while it retries or the table view refreshes, and a locator's scroll can find the
    element it resolved already replaced ("Element is not attached to the DOM")."""
    page.evaluate(f"document.querySelector(\"[data-queued-round='{number}']\").scrollIntoView()")


def _second_phone(
    browser: Any, browser_context_args: dict[str, Any], live_server: str, public_id: str, code: str
) -> tuple[BrowserContext, Page]:
    context = browser.new_context(**browser_context_args)
    other = context.new_page()
    other.goto(f"{live_server}/g/{public_id}/unlock")
    other.get_by_label("Edit code").fill(code)
    other.get_by_role("button", name=re.compile("Unlock|Keep score|Continue|OK", re.I)).click()
    return context, other


def _edit_code(page: Page) -> str:
    page.get_by_text("Show the edit code").click()  # never shown without this tap (issue 36)
    return page.locator(".code").first.inner_text().strip()


def _no_a11y_problems(page: Page) -> None:
    assert page.evaluate(CHECKS) == []


def test_the_app_is_installable(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/")
    _controlled(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's browser contexts are incognito, where Chromium never offers to install;
    # anything else (manifest, icons, start_url, service worker) would be listed here.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []


def test_a_round_saved_without_signal_arrives_once(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    context.set_offline(True)
    expect(page.get_by_text("No signal: Save keeps the round on this phone.")).to_be_visible()
    _enter(page, [0, 12, 30, 8], 0)
    page.evaluate("window.scrollTo(0, 0)")
    shoot("offline-round-form", full_page=False)
    page.get_by_role("button", name="Save round 1").click()

    # The table view opens from the phone's copy and says plainly what happened.
    waiting = page.locator("[data-queued-round='1']")
    expect(waiting).to_contain_text(
        "Round 1: saved on this phone, not sent yet: it will be sent when you have signal."
    )
    expect(waiting).to_contain_text("Ann 0 (went out) · Bob 12 · Cy 30 · Di 8")
    expect(page.get_by_role("link", name="Enter round 2 scores")).to_be_visible()
    assert _saved_rounds(live_app) == []
    assert len(_queue(page)) == 1
    _no_a11y_problems(page)
    shoot("offline-queue-table-view", full_page=False)

    context.set_offline(False)
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    expect(waiting).to_have_count(0)
    # The table view updates by itself to the next round.
    expect(page.get_by_text("Round 2 of 13")).to_be_visible(timeout=10_000)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]
    assert _queue(page) == []


def test_a_resent_round_is_stored_once(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    context.set_offline(True)
    _enter(page, [0, 5, 6, 7], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    kept = _queue(page)
    context.set_offline(False)
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    # As if the first answer had been lost: the same round, the same token, sent again.
    page.evaluate("q => localStorage.setItem('scorekeeper:queue', JSON.stringify(q))", kept)
    page.reload()
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    assert _queue(page) == []
    assert _saved_rounds(live_app) == [(1, [0, 5, 6, 7])]


def test_two_rounds_without_signal_arrive_in_order(
    page: Page,
    context: BrowserContext,
    server: LiveServer,
    live_server: str,
    live_app: Flask,
    shoot: Any,
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    _no_signal(context, server, True)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    # The phone's copy of the round form becomes the form for round 2.
    page.get_by_role("link", name="Enter round 2 scores").click()
    expect(page.locator("h1")).to_contain_text("Round 2")
    # The copy's engine was round 1's: the one shown is round 2's, which the copy carries.
    expect(page.locator(".round-engine[data-engine-round='1']")).to_be_hidden()
    expect(page.locator("h1 .round-engine:visible")).to_contain_text("11-11")
    expect(page.locator("[data-queued-round='1']")).to_have_text(
        "Round 1: saved on this phone, not sent yet."
    )
    page.evaluate("window.scrollTo(0, 0)")
    shoot("offline-next-round-form", full_page=False)
    _enter(page, [4, 0, 30, 2], 1)  # Cy 30 again: worth a look, not a reason to refuse
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("[data-queued-round='2']")).to_be_visible()
    tokens = [entry["token"] for entry in _queue(page)]
    assert len(set(tokens)) == 2
    _no_signal(context, server, False)
    expect(page.get_by_text("Round 3 of 13")).to_be_visible(timeout=20_000)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8]), (2, [4, 0, 30, 2])]
    # What the server said about it after the save is shown, not swallowed.
    expect(
        page.get_by_text("Round 2: Saved as typed; worth a look: Cy scored 30 again")
    ).to_be_visible()


def test_what_was_typed_survives_a_failed_save_and_a_reload(
    browser: Any, browser_context_args: dict[str, Any], live_server: str, live_app: Flask
) -> None:
    # Without a service worker, as on a first visit: the browser shows its own error page.
    context = browser.new_context(**browser_context_args, service_workers="block")
    page = context.new_page()
    try:
        public_id = _start_game(page, live_server, NAMES)
        page.get_by_role("link", name="Enter round 1 scores").click()
        _enter(page, [0, 12, 30, 8], 0)
        page.locator("#seat-3 summary").click()
        page.locator("#seat-3 textarea").fill("4-4")
        page.route(
            f"**/g/{public_id}/round",
            lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
        )
        page.get_by_role("button", name="Save round 1").click()
        page.wait_for_url(re.compile("^chrome-error"))  # waits for the error page's load
        # Back from the browser's error page lands on the table view (as in the issue);
        # the round form has everything that was typed.
        page.go_back()
        page.wait_for_load_state()
        if page.locator("#round-form").count() == 0:
            page.get_by_role("link", name="Enter round 1 scores").click()
        expect(page.locator("#seat-1 input.points")).to_have_value("12")
        expect(page.locator("#seat-0 .went-out input")).to_be_checked()
        expect(page.locator("#seat-3 textarea")).to_have_value("4-4")

        # Away to the table view and back, then a reload: still there, same token.
        token = page.locator("input[name=form_token]").input_value()
        page.goto(f"{live_server}/g/{public_id}")
        page.get_by_role("link", name="Enter round 1 scores").click()
        expect(page.get_by_text("What you typed on this phone is back")).to_be_visible()
        expect(page.locator("#seat-2 input.points")).to_have_value("30")
        page.reload()
        expect(page.locator("#seat-2 input.points")).to_have_value("30")
        assert page.locator("input[name=form_token]").input_value() == token

        page.unroute(f"**/g/{public_id}/round")
        page.get_by_role("button", name="Save round 1").click()
        expect(page.get_by_text("Round 2 of 13")).to_be_visible()
        assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]
        # Saved: the next round starts empty.
        page.get_by_role("link", name="Enter round 2 scores").click()
        expect(page.locator("#seat-1 input.points")).to_have_value("")
        assert page.locator("input[name=form_token]").input_value() != token
        # "Leave without saving" (answered yes) throws the typed values away.
        page.locator("#seat-1 input.points").fill("5")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("link", name="Leave without saving").click()
        page.get_by_role("link", name="Enter round 2 scores").click()
        expect(page.locator("#seat-1 input.points")).to_have_value("")
    finally:
        context.close()


def test_a_kept_round_refused_by_the_server_is_shown(
    page: Page,
    context: BrowserContext,
    browser: Any,
    browser_context_args: dict[str, Any],
    live_server: str,
    live_app: Flask,
    shoot: Any,
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    page.locator("#share > summary").click()
    code = _edit_code(page)
    _keeps_game(page, public_id)
    context.set_offline(True)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()

    other_context, other = _second_phone(
        browser, browser_context_args, live_server, public_id, code
    )
    try:
        other.goto(f"{live_server}/g/{public_id}/round")
        _enter(other, [7, 0, 3, 5], 1)
        other.get_by_role("button", name="Save round 1").click()
        expect(other.get_by_text("Round 2 of 13")).to_be_visible()
    finally:
        other_context.close()

    context.set_offline(False)
    refused = page.locator("[data-queued-round='1'][data-state='refused']")
    expect(refused).to_contain_text("Round 1 was already saved from another phone", timeout=15_000)
    expect(refused).to_contain_text("Saved there: Ann 7 · Bob 0 (went out) · Cy 3 · Di 5")
    expect(refused).to_contain_text("Typed here: Ann 0 (went out) · Bob 12 · Cy 30 · Di 8")
    expect(refused.get_by_role("link", name="See what was saved")).to_be_visible()
    expect(refused.get_by_role("link", name="Correct round 1")).to_have_attribute(
        "href", f"/g/{public_id}/rounds/1"
    )
    assert _saved_rounds(live_app) == [(1, [7, 0, 3, 5])]
    # The table view moves on to the round after the one the other phone saved.
    expect(page.get_by_text("Round 2 of 13")).to_be_visible(timeout=10_000)
    expect(page.get_by_role("link", name="Enter round 2 scores")).to_be_visible()
    expect(page.get_by_text("Until round 1 reaches the server")).to_have_count(0)
    _no_a11y_problems(page)
    page.emulate_media(color_scheme="dark")
    _no_a11y_problems(page)
    page.emulate_media(color_scheme="light")
    _scroll_to_queued_round(page, 1)
    shoot("offline-refused-round", full_page=False)

    # Still shown after a reload; gone once the player says so.
    page.reload()
    expect(refused).to_be_visible()
    refused.get_by_role("button", name="I have seen it").click()
    expect(page.locator("[data-queued-round]")).to_have_count(0)
    assert _queue(page) == []


def test_an_expired_security_token_is_renewed_once(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    context.set_offline(True)
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    kept = _queue(page)
    kept[0]["fields"] = [
        [name, "expired" if name == "csrf_token" else value] for name, value in kept[0]["fields"]
    ]
    page.evaluate("q => localStorage.setItem('scorekeeper:queue', JSON.stringify(q))", kept)
    context.set_offline(False)
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]


def test_a_photo_without_signal_says_it_needs_signal(
    page: Page, context: BrowserContext, live_server: str
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    expect(page.locator("#round-form")).to_be_visible()
    if page.locator("#seat-1 input[type=file]").count() == 0:
        pytest.skip("photo check not installed (pip install 'scorekeeper[photo]')")
    page.locator("#seat-0 input.points").fill("17")
    context.set_offline(True)
    page.locator("#seat-1 summary").click()
    page.locator("#seat-1 input[type=file]").set_input_files(str(ICON))
    expect(page.locator("#seat-1").get_by_role("alert")).to_contain_text(
        "Reading a photo needs signal"
    )
    expect(page.locator("#seat-0 input.points")).to_have_value("17")
    assert _queue(page) == []


def test_the_table_view_follows_another_phone(
    page: Page, browser: Any, browser_context_args: dict[str, Any], live_server: str
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    page.locator("#share > summary").click()
    code = _edit_code(page)
    page.evaluate("window.__sameDocument = true")
    other_context, other = _second_phone(
        browser, browser_context_args, live_server, public_id, code
    )
    try:
        other.goto(f"{live_server}/g/{public_id}/round")
        _enter(other, [7, 0, 3, 5], 1)
        other.get_by_role("button", name="Save round 1").click()
        expect(other.get_by_text("Round 2 of 13")).to_be_visible()
    finally:
        other_context.close()
    expect(page.get_by_text("Round 2 of 13")).to_be_visible(timeout=10_000)
    assert page.evaluate("window.__sameDocument") is True
    # The section this phone had open stays open.
    expect(page.locator("#share")).to_have_attribute("open", "")


HIDE = """() => {
  Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
# Counts, in the page, every request the page's scripts send (fetch, and htmx's
# XMLHttpRequest), at the moment they send it.
COUNT_REQUESTS = """() => {
  window.__asked = 0;
  const fetch = window.fetch;
  window.fetch = (...args) => { window.__asked += 1; return fetch(...args); };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    window.__asked += 1;
    return send.apply(this, args);
  };
}"""


def test_polling_stops_while_the_page_is_hidden(page: Page, live_server: str) -> None:
    """Playwright's clock moves the pages' timers on (no test time spent waiting): hidden, the
    table view and the share view ask nothing; visible, they ask."""
    page.clock.install()
    public_id = _start_game(page, live_server, NAMES)
    page.evaluate(COUNT_REQUESTS)
    page.evaluate(HIDE)
    page.clock.run_for(6000)  # more than one poll's interval (4.5 s)
    assert page.evaluate("window.__asked") == 0
    page.goto(f"{live_server}/g/{public_id}")
    with page.expect_request(lambda r: "state.json" in r.url):
        page.clock.run_for(5000)

    # The share view's own polling (htmx, every 4 s) pauses the same way.
    page.goto(f"{live_server}/g/{public_id}/watch")
    with page.expect_request(lambda r: "/watch/board" in r.url):
        page.clock.run_for(5000)
    page.evaluate(COUNT_REQUESTS)
    page.evaluate(HIDE)
    page.clock.run_for(5000)
    assert page.evaluate("window.__asked") == 0


def test_a_kept_round_with_a_problem_opens_again_to_fix(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    context.set_offline(True)
    page.locator("#seat-0 .went-out").click()
    page.locator("#seat-1 input.points").fill("12")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    context.set_offline(False)
    problem = page.locator("[data-queued-round='1'][data-state='invalid']")
    expect(problem).to_contain_text("Round 1 was not saved", timeout=15_000)
    token = _queue(page)[0]["token"]
    expect(page.get_by_role("link", name="Enter round 1 scores")).to_be_visible()
    shoot("offline-kept-round-problem", full_page=False)
    problem.get_by_role("button", name="Open round 1 to fix it").click()
    expect(page.locator("#seat-1 input.points")).to_have_value("12")
    expect(page.locator("#seat-0 .went-out input")).to_be_checked()
    assert page.locator("input[name=form_token]").input_value() == token
    page.locator("#seat-2 input.points").fill("30")
    page.locator("#seat-3 input.points").fill("8")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 2 of 13")).to_be_visible()
    assert _queue(page) == []
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]


def test_two_tabs_send_a_kept_round_once(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    context.set_offline(True)
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    second = context.new_page()
    second.goto(f"{live_server}/g/{public_id}")
    expect(second.locator("[data-queued-round='1']")).to_be_visible()
    context.set_offline(False)
    for tab in (page, second):
        expect(tab.get_by_text("Round 2 of 13")).to_be_visible(timeout=15_000)
        expect(tab.locator("[data-queued-round]")).to_have_count(0)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]


def test_a_save_that_gets_no_answer_is_kept(
    page: Page, server: LiveServer, live_server: str, live_app: Flask
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    # The phone thinks it has signal, but nothing answers: the service worker turns the
    # failed post into the table view with the round kept on the phone.
    server.stop()
    try:
        page.get_by_role("button", name="Save round 1").click()
        waiting = page.locator("[data-queued-round='1']")
        expect(waiting).to_contain_text("saved on this phone, not sent yet", timeout=20_000)
        assert "unsent" not in page.url
        assert _saved_rounds(live_app) == []
    finally:
        server.start()
    # The player taps "Send it now". The phone also tries again by itself (5 s after the
    # failed try, then longer), so on a slow machine it may have sent the round before the
    # tap: either way it arrives, once.
    sent = page.get_by_text("Round 1 was sent and saved.")
    send_now = page.get_by_role("button", name="Send it now")
    expect(sent.or_(send_now).first).to_be_visible()
    if not sent.is_visible():
        # (The phone's own try may take the button away just before the tap.)
        with contextlib.suppress(PlaywrightTimeoutError):
            send_now.click(timeout=10_000)
    expect(sent).to_be_visible(timeout=15_000)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]


def test_the_kept_round_form_follows_the_game(
    page: Page, context: BrowserContext, live_server: str
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 2 of 13")).to_be_visible()
    # The worker refreshes its copy of the round form when the game has moved on.
    _wait_for_kept(
        page,
        f"/g/{public_id}/round",
        lambda kept: re.search(r'name="round_number" type="hidden" value="2"', kept) is not None,
        "the kept round form is still for round 1",
    )
    context.set_offline(True)
    page.get_by_role("link", name="Enter round 2 scores").click()
    expect(page.locator("h1")).to_contain_text("Round 2")
    expect(page.locator(".round-engine[data-engine-round='2']")).to_be_visible()  # its own, 11-11
    expect(page.locator(".round-engine[data-engine-round='2']")).to_contain_text("11-11")

"""A phone on the club's Wi-Fi over plain HTTP, on a name other than localhost (issue 23):
``http://clubhouse.lan:<port>``, mapped to 127.0.0.1 by Chromium's ``--host-resolver-rules``.

The browser gives such a page no secure context and no service worker. The phone is told
once what it misses; drafts and rounds saved without signal still work (localStorage).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import SCREENSHOTS, LiveServer, requests_elsewhere
from tests.e2e.test_game_flow import NAMES, _enter, _start_game
from tests.e2e.test_offline import _no_a11y_problems, _queue, _saved_rounds

pytestmark = pytest.mark.e2e

LAN_NAME = "clubhouse.lan"
NOTICE = "Offline start and installing the app need HTTPS."


@pytest.fixture(scope="module")
def lan_browser(playwright: Any, browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """Chromium that finds clubhouse.lan at 127.0.0.1 (as a club's router would find the club
    machine); nothing else is mapped, so no request leaves this machine."""
    args = [
        *browser_type_launch_args.get("args", []),
        f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1",
    ]
    browser = playwright.chromium.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


@pytest.fixture
def lan(server: LiveServer) -> str:
    return f"http://{LAN_NAME}:{server.port}"


@pytest.fixture
def lan_context(
    lan_browser: Browser, browser_context_args: dict[str, Any]
) -> Iterator[BrowserContext]:
    context = lan_browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture
def lan_page(lan_context: BrowserContext, lan: str) -> Iterator[Page]:
    page = lan_context.new_page()
    outside = requests_elsewhere(page, lan)
    yield page
    page.close()
    assert not outside, f"requests to other hosts: {outside}"


@pytest.fixture(autouse=True)
def _no_other_hosts() -> None:
    """Replaced: the requests of this module's own page are checked in ``lan_page``."""


def test_plain_http_says_once_what_it_misses(lan_page: Page, lan: str) -> None:
    page = lan_page
    page.goto(f"{lan}/")
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("typeof navigator.serviceWorker") == "undefined"
    notice = page.locator("#https-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(NOTICE)
    expect(notice).to_contain_text(
        "Scores, what you type, and rounds saved without signal still work."
    )
    _no_a11y_problems(page)
    _shot(page, "plain-http-notice")
    page.set_viewport_size({"width": 360, "height": 780})
    _shot(page, "plain-http-notice-360")
    # Where it leads: the page says what is missing and how to get it.
    with page.expect_navigation():
        notice.get_by_role("link", name="How to get HTTPS").click()
    expect(page.locator("h1")).to_have_text("Offline start and installing need HTTPS")
    expect(page.locator("#https-notice")).to_be_hidden()  # told once already
    _shot(page, "plain-http-help")
    page.go_back()
    expect(page.locator("#https-notice")).to_be_hidden()
    page.reload()
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("#https-notice")).to_be_hidden()


def test_ok_puts_the_notice_away_for_good(lan_context: BrowserContext, lan: str) -> None:
    page = lan_context.new_page()
    page.goto(f"{lan}/helper")
    page.locator("#https-notice").get_by_role("button", name="OK").click()
    expect(page.locator("#https-notice")).to_be_hidden()
    page.reload()
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("#https-notice")).to_be_hidden()
    page.close()


def test_drafts_and_the_queue_work_without_a_service_worker(
    lan_page: Page, lan_context: BrowserContext, lan: str, live_app: Flask
) -> None:
    page = lan_page
    public_id = _start_game(page, lan, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    # Back, then the round form again: what was typed is back.
    page.go_back()
    expect(page.get_by_text("Round 1 of 13")).to_be_visible()
    page.get_by_role("link", name="Enter round 1 scores").click()
    expect(page.get_by_text("What you typed on this phone is back")).to_be_visible()
    expect(page.locator("#seat-1 input.points")).to_have_value("12")
    page.reload()
    expect(page.locator("#seat-2 input.points")).to_have_value("30")
    expect(page.locator("#seat-0 .went-out input")).to_be_checked()

    # No signal: the round is kept on the phone (no service worker to open the table view).
    lan_context.set_offline(True)
    page.get_by_role("button", name="Save round 1").click()
    waiting = page.locator("[data-queued-round='1']")
    expect(waiting).to_contain_text("Round 1: saved on this phone, not sent yet")
    assert _saved_rounds(live_app) == []
    assert len(_queue(page)) == 1
    _shot(page, "plain-http-queued")

    lan_context.set_offline(False)
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]
    assert _queue(page) == []
    page.goto(f"{lan}/g/{public_id}")
    expect(page.get_by_text("Round 2 of 13")).to_be_visible()
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]


def _shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

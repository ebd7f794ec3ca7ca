"""Every screen: labelled fields, 44 px targets, WCAG AA text contrast in light and dark mode,
and no sideways scrolling at 200% text size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.test_game_flow import NAMES, _enter, _start_game

pytestmark = pytest.mark.e2e

CHECKS = (Path(__file__).parent / "a11y.js").read_text()


def _screens(page: Page, live_server: str) -> list[str]:
    public_id = _start_game(page, live_server, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    base = f"{live_server}/g/{public_id}"
    # A points game: the setup page of All Fives, its table view and its hand form.
    page.goto(f"{live_server}/games/new?game=all_fives")
    for index, name in enumerate(NAMES[:3]):
        page.get_by_label(f"Player {index + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").last.click()
    page.get_by_text("Hand 1", exact=True).wait_for()
    fives = page.url.rsplit("/", 1)[1]
    return [
        f"{live_server}/games/new?game=all_fives",
        f"{live_server}/g/{fives}",
        f"{live_server}/g/{fives}/round",
        f"{live_server}/",
        f"{live_server}/helper?max_pip=12&players=9&hand=3-4",
        f"{live_server}/games/new",
        base,
        f"{base}/round",
        f"{base}/scoreboard",
        f"{base}/summary",
        f"{base}/watch",
        f"{base}/rounds/1",
    ]


def _problems(page: Page, url: str) -> list[str]:
    page.goto(url)
    for details in page.locator("details").all():
        details.evaluate("d => d.open = true")
    return [f"{url}: {p}" for p in page.evaluate(CHECKS)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screens_pass_the_checks(page: Page, live_server: str, scheme: str, shoot: Any) -> None:
    page.emulate_media(color_scheme=scheme)
    problems: list[str] = []
    for url in _screens(page, live_server):
        problems += _problems(page, url)
        if scheme == "dark":
            shoot(f"dark-{url.rstrip('/').rsplit('/', 1)[-1].split('?')[0][:20]}", False)
    assert problems == [], "\n".join(problems)


def test_200_percent_text_does_not_break_the_layout(
    browser: Any, browser_context_args: dict[str, Any], live_server: str
) -> None:
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    try:
        urls = _screens(page, live_server)
        for url in urls:
            page.goto(url)
            # The user's text size setting: the root font size doubles.
            page.evaluate("document.documentElement.style.fontSize = '225%'")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"] + 1, f"{url} is {width}px wide at 200%"
    finally:
        context.close()

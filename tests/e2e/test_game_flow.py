"""A whole game at the table, in a phone browser: setup, 13 rounds, a correction, the end;
tile entry that hits a duplicate; the share view following along without a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _start_game(page: Page, live_server: str, names: list[str], shoot: Any = None) -> str:
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Start a new game").click()
    for index, name in enumerate(names):
        page.get_by_label(f"Player {index + 1}", exact=True).fill(name)
    if shoot:
        page.locator("details").first.click()
        shoot("setup")
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_text("Round 1 of 13")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def _enter(page: Page, points: list[int], went_out: int | None) -> None:
    for index, value in enumerate(points):
        field = page.locator(f"#seat-{index} input.points")
        if index == went_out:
            page.locator(f"#seat-{index} .went-out").click()
            expect(field).to_have_value("0")
        else:
            field.fill(str(value))
    if went_out is None:
        page.get_by_text("Blocked round: nobody could play").click()


def test_full_game_with_a_correction(page: Page, live_server: str, shoot: Any) -> None:
    public_id = _start_game(page, live_server, NAMES, shoot)
    shoot("table-round-1")
    totals = [0, 0, 0, 0]
    for number in range(1, 14):
        page.get_by_role("link", name=f"Enter round {number} scores").click()
        went_out = number % 4 if number != 7 else None
        points = [((number * 7 + seat * 5) % 40) + 1 for seat in range(4)]
        if went_out is not None:
            points[went_out] = 0
        _enter(page, points, went_out)
        if number == 1:
            shoot("enter-round")
        page.get_by_role("button", name=f"Save round {number}").click()
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        if number == 4:
            expect(page.get_by_text("Round 5 of 13")).to_be_visible()
            shoot("table-round-5")
            shoot("readme-table", full_page=False)
    expect(page.get_by_text("Game over")).to_be_visible()

    # One correction: round 2, Bob's points.
    page.goto(f"{live_server}/g/{public_id}/scoreboard")
    page.get_by_role("link", name="Correct round 2").click()
    bob = page.locator("#seat-1 input.points")
    old = int(bob.input_value())
    bob.fill(str(old + 10))
    page.get_by_label("Why the change? (optional)").fill("counted the 12-12 wrong")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text(f"points {old} → {old + 10}")).to_be_visible()
    expect(page.locator("td.corrected")).to_have_count(1)
    totals[1] += 10
    totals_text = page.locator(".board tfoot tr").first.inner_text()
    assert [int(n) for n in re.findall(r"-?\d+", totals_text)] == totals
    shoot("scoreboard")
    page.locator(".board").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, -90)")
    shoot("readme-scoreboard", full_page=False)

    page.goto(f"{live_server}/g/{public_id}/summary")
    winner = NAMES[totals.index(min(totals))]
    expect(page.locator(".winner")).to_contain_text(winner)
    shoot("summary")


def test_tiles_in_two_hands_are_refused(page: Page, live_server: str, shoot: Any) -> None:
    _start_game(page, live_server, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    page.locator("#seat-0 .went-out").click()
    for seat, tiles in ((1, "12-5, 3/4"), (2, "5-12 double blank"), (3, "6-6")):
        page.locator(f"#seat-{seat} summary").click()
        page.locator(f"#seat-{seat} textarea").fill(tiles)
    # The live check shows the problem while typing, before saving.
    expect(page.locator("#seat-1-feedback")).to_contain_text("both have 5-12")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Nothing was saved yet")).to_be_visible()
    expect(page.locator("#seat-2-feedback")).to_contain_text("both have 5-12")
    expect(page.locator("#seat-2 textarea")).to_have_value("5-12 double blank")
    shoot("enter-round-duplicate-tile")


def test_share_view_updates_without_reload(
    page: Page, live_server: str, shoot: Any, browser: Any, browser_context_args: dict[str, Any]
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    watcher_context = browser.new_context(**browser_context_args)
    watcher = watcher_context.new_page()
    try:
        watcher.goto(f"{live_server}/g/{public_id}/watch")
        expect(watcher.get_by_text("0 of 13 rounds played")).to_be_visible()
        watcher.evaluate("window.__sameDocument = true")
        page.get_by_role("link", name="Enter round 1 scores").click()
        _enter(page, [0, 12, 30, 8], 0)
        page.get_by_role("button", name="Save round 1").click()
        expect(watcher.get_by_text("1 of 13 rounds played")).to_be_visible(timeout=10_000)
        assert watcher.evaluate("window.__sameDocument") is True  # no full reload
        assert watcher.locator("form").count() == 0
        shoot_page(watcher, "share-view")
    finally:
        watcher_context.close()


def shoot_page(page: Page, name: str) -> None:
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

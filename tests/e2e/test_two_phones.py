"""Two phones keeping score for one game in two browsers: the slower phone is told, plainly,
that the round was saved from the other phone, and a correction made on both at once asks
which values to keep. Nothing is counted twice, nothing typed is lost."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_game_flow import _enter, _start_game

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bob", "Cy"]


def _second_phone(
    browser: Browser, browser_context_args: dict[str, Any], page: Page, live_server: str
) -> Page:
    """Another phone, let in with the edit code shown on the first."""
    public_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{live_server}/g/{public_id}")
    page.get_by_text("Let others follow").click()
    page.get_by_text("Show the edit code").click()
    code = page.locator("p.huge.code").inner_text().strip()
    other = browser.new_context(**browser_context_args).new_page()
    other.goto(f"{live_server}/g/{public_id}/unlock")
    other.get_by_label("Edit code").fill(code)
    other.get_by_role("button", name="Unlock").click()
    expect(other.get_by_text("This phone can now keep score")).to_be_visible()
    return other


def test_the_slower_phone_sees_the_round_was_saved_already(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], live_server: str, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    other = _second_phone(browser, browser_context_args, page, live_server)
    page.goto(f"{live_server}/g/{public_id}/round")
    other.goto(f"{live_server}/g/{public_id}/round")
    _enter(page, [0, 5, 7], 0)
    _enter(other, [9, 0, 4], 1)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 2 of 13")).to_be_visible()
    other.get_by_role("button", name="Save round 1").click()
    expect(
        other.get_by_role("heading", name="Round 1 was already saved from another phone")
    ).to_be_visible()
    shoot_other(other, "round-already-saved")
    # What this phone typed is still on the screen, beside what was saved.
    typed = other.locator("section", has_text="What you typed")
    expect(typed.get_by_role("row", name="Cy 4")).to_be_visible()
    other.get_by_role("link", name="Correct round 1").click()
    expect(other.get_by_role("heading", name="Correct round 1")).to_be_visible()
    other.goto(f"{live_server}/g/{public_id}")
    expect(other.get_by_text("Round 2 of 13")).to_be_visible()
    other.context.close()


def test_a_correction_made_on_both_phones_asks_which_to_keep(
    page: Page, browser: Browser, browser_context_args: dict[str, Any], live_server: str
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    page.goto(f"{live_server}/g/{public_id}/round")
    _enter(page, [0, 5, 7], 0)
    page.get_by_role("button", name="Save round 1").click()
    other = _second_phone(browser, browser_context_args, page, live_server)
    page.goto(f"{live_server}/g/{public_id}/rounds/1")
    other.goto(f"{live_server}/g/{public_id}/rounds/1")
    page.locator("#seat-1 input.points").fill("6")
    other.locator("#seat-2 input.points").fill("12")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Round 1 corrected")).to_be_visible()
    other.get_by_role("button", name="Save the correction").click()
    notice = other.locator("[data-conflict=correction]")
    expect(notice).to_contain_text("changed on another phone while you were correcting it")
    expect(notice).to_contain_text("Bob’s points: 5 when you opened it, 6 now")
    shoot_other(other, "correction-conflict")
    expect(other.locator("#seat-2 input.points")).to_have_value("12")
    other.get_by_role("button", name="Save mine instead").click()
    expect(other.get_by_text("Round 1 corrected")).to_be_visible()
    expect(other.locator("ul.audit li")).to_have_count(3)
    other.context.close()


def shoot_other(other: Page, name: str) -> None:
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    other.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

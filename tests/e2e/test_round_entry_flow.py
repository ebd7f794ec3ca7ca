"""Round entry in a phone browser (issue 21, items 9, 13, 14): Back after a save never brings
the saved round's values into the next round's form (with and without signal), "+ Add a seat"
lands on the new field, and a phone keeping a round unsent shows the round after it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.test_game_flow import NAMES, _enter, _start_game
from tests.e2e.test_offline import _keeps_game

pytestmark = pytest.mark.e2e


def _form_is_empty(page: Page) -> None:
    """Nobody went out, nothing typed: a new round's form."""
    expect(page.locator('input[name="went_out"]:checked')).to_have_count(0)
    for seat in range(len(NAMES)):
        expect(page.locator(f"#seat-{seat} input.points")).to_have_value("")


def test_back_after_a_save_opens_the_next_round_empty(
    page: Page, live_server: str, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)  # as at a table: the phone keeps the game's pages
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)  # Ann went out
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 2 of 13")).to_be_visible()
    page.go_back()
    expect(page.locator("h1")).to_contain_text("Round 2")
    _form_is_empty(page)
    shoot("back-after-save")
    # And the form of round 2 saves round 2.
    _enter(page, [5, 0, 9, 4], 1)
    page.get_by_role("button", name="Save round 2").click()
    expect(page.get_by_text("Round 3 of 13")).to_be_visible()


def test_back_after_a_save_without_signal_opens_the_next_round_empty(
    page: Page, context: BrowserContext, live_server: str, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    context.set_offline(True)
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    page.go_back()
    expect(page.locator("h1")).to_contain_text("Round 2")
    _form_is_empty(page)
    shoot("back-after-save-offline")


def test_a_round_kept_unsent_shows_the_round_after_it(
    page: Page, context: BrowserContext, live_server: str, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    context.set_offline(True)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    # The table view: round 2 of 13 with its engine beside "Enter round 2 scores".
    view = page.locator("[data-table-view]")
    expect(page.get_by_role("link", name="Enter round 2 scores")).to_be_visible()
    expect(view.get_by_text("Round 2 of 13")).to_be_visible()
    expect(view.get_by_text("Round 1 of 13")).to_be_hidden()
    expect(view.locator(".engine-hero h1").filter(has_text="11-11")).to_be_visible()
    expect(view.locator(".engine-hero h1").filter(has_text="12-12")).to_be_hidden()
    expect(view.get_by_text("Bob starts.")).to_be_visible()  # the seat left of round 1's
    expect(view.locator(".next-round")).to_be_hidden()  # "Next round: 11-11" is this one
    shoot("offline-table-next-round", full_page=False)
    # The round form of round 2 has round 2's engine in its header.
    page.get_by_role("link", name="Enter round 2 scores").click()
    expect(page.locator("h1")).to_contain_text("Round 2")
    expect(page.locator("h1 .round-engine:visible")).to_have_text("engine11-11")
    shoot("offline-round-2-form", full_page=False)


def test_adding_a_seat_lands_on_the_new_field(page: Page, live_server: str, shoot: Any) -> None:
    page.set_viewport_size({"width": 412, "height": 600})
    page.goto(f"{live_server}/games/new")
    page.get_by_role("button", name="+ Add a seat").scroll_into_view_if_needed()
    page.get_by_role("button", name="+ Add a seat").click()
    added = page.get_by_label("Player 5", exact=True)
    expect(added).to_be_focused()
    expect(added).to_be_in_viewport()
    page.keyboard.type("Eve")  # straight on with the name
    expect(added).to_have_value("Eve")
    shoot("setup-seat-added", full_page=False)


def test_a_round_form_back_from_the_page_cache_is_loaded_again(
    page: Page, context: BrowserContext, live_server: str
) -> None:
    """The back/forward cache brings a page back as it was left: a round form whose round was
    saved meanwhile must not offer the saved values again for the next round."""
    public_id = _start_game(page, live_server, NAMES)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    other = context.new_page()  # the same phone saves round 1 in another tab
    other.goto(f"{live_server}/g/{public_id}/round")
    _enter(other, [0, 12, 30, 8], 0)
    other.get_by_role("button", name="Save round 1").click()
    expect(other.get_by_text("Round 2 of 13")).to_be_visible()
    other.close()
    # What Chromium does when Back restores the page from its cache.
    page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    expect(page.locator("h1")).to_contain_text("Round 2")
    _form_is_empty(page)

"""The fourth table trial (issue 36), round entry and the table on a phone: a tap on a filled
number lets the digits typed replace it, Save stays on screen at 360x740 (and with the keyboard
open), the keypad's Next skips the player who went out, the edit code waits for its own tap."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.test_game_flow import NAMES, _enter
from tests.e2e.test_table_trial import FIVE, SIX, _round_page, _start_game

pytestmark = pytest.mark.e2e


def _tap_and_type(page: Page, field: Locator, digits: str) -> None:
    """As a finger does it: a tap on the field, then the keypad's digits."""
    field.tap()
    expect(field).to_be_focused()
    page.keyboard.type(digits)


def test_a_tap_on_a_filled_number_lets_the_digits_replace_it(page: Page, live_server: str) -> None:
    public_id = _round_page(page, live_server, NAMES)
    # The round form: a number typed, left, then tapped again.
    bob = page.locator("#seat-1 input.points")
    bob.fill("10")
    page.locator("#seat-2 input.points").tap()
    _tap_and_type(page, bob, "8")
    expect(bob).to_have_value("8")
    _enter(page, [0, 10, 30, 8], 0)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    # The correction form: Bob's saved 10, tapped, then 8.
    page.goto(f"{live_server}/g/{public_id}/rounds/1")
    bob = page.locator("#seat-1 input.points")
    expect(bob).to_have_value("10")
    _tap_and_type(page, bob, "8")
    expect(bob).to_have_value("8")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("points 10 → 8")).to_be_visible()


def test_a_tap_on_a_filled_extra_number_lets_the_digits_replace_it(
    page: Page, live_server: str
) -> None:
    """The other numbers typed at the table: markers still out (a house rule), 0 by default."""
    page.goto(f"{live_server}/games/new")
    for index, name in enumerate(NAMES):
        page.get_by_label(f"Player {index + 1}", exact=True).fill(name)
    page.get_by_text("House rules (standard unless you change them)").click()
    page.get_by_text("10 points per marker").click()
    page.get_by_role("button", name="Start the game").last.click()
    page.get_by_role("link", name="Enter round 1 scores").click()
    markers = page.locator("#seat-2 .markers-field input")
    expect(markers).to_have_value("0")
    _tap_and_type(page, markers, "2")
    expect(markers).to_have_value("2")


@pytest.mark.parametrize("names", [FIVE, SIX], ids=["5 players", "6 players"])
def test_save_is_on_screen_at_360x740_and_with_the_keyboard_open(
    page: Page, live_server: str, shoot: Any, names: list[str]
) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    _round_page(page, live_server, names)
    save = page.get_by_role("button", name="Save round 1")
    assert page.evaluate("window.scrollY") == 0  # nothing scrolled
    box = save.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 740, box
    shoot(f"trial4-save-{len(names)}-players-360", full_page=False)
    # The keyboard open: the page is left about 360x400 (interactive-widget=resizes-content),
    # and the last player's field is the one being typed into.
    last = page.locator(f"#seat-{len(names) - 1} input.points")
    last.focus()
    page.set_viewport_size({"width": 360, "height": 400})
    last.evaluate("field => field.scrollIntoView({block: 'nearest'})")
    box = save.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 400, box
    field = last.bounding_box()
    assert field and field["y"] + field["height"] <= box["y"], (field, box)  # not under the bar
    shoot(f"trial4-save-{len(names)}-players-keyboard", full_page=False)
    page.keyboard.type("7")
    expect(last).to_have_value("7")


def test_the_keypads_next_skips_the_player_who_went_out(page: Page, live_server: str) -> None:
    _round_page(page, live_server, NAMES)
    page.locator("#seat-1 .went-out").click()  # Bob went out: his 0 is in
    page.locator("#seat-0 input.points").fill("12")
    page.keyboard.press("Enter")  # the keypad's Next
    expect(page.locator("#seat-2 input.points")).to_be_focused()
    page.keyboard.type("7")
    # Di, the last player, went out instead (Bob's 0 goes, his 5 is typed): Cy's field is the
    # last to type, its key says Done, and Enter there saves.
    page.locator("#seat-3 .went-out").click()
    expect(page.locator("#seat-2 input.points")).to_have_attribute("enterkeyhint", "done")
    expect(page.locator("#seat-1 input.points")).to_have_attribute("enterkeyhint", "next")
    page.locator("#seat-1 input.points").fill("5")
    page.locator("#seat-2 input.points").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()


def test_the_edit_code_waits_for_its_own_tap(page: Page, live_server: str, shoot: Any) -> None:
    _start_game(page, live_server, NAMES)
    page.get_by_text("Let others follow").click()
    expect(page.get_by_role("img", name="QR code for the live scoreboard")).to_be_visible()
    code = page.locator(".huge.code")
    expect(code).to_be_hidden()
    show = page.get_by_text("Show the edit code")
    show.scroll_into_view_if_needed()
    shoot("trial4-share-code-hidden", full_page=False)
    show.tap()
    expect(code).to_be_visible()
    shoot("trial4-share-code-shown", full_page=False)
    expect(code).to_have_text(re.compile(r"^\s*[A-Z0-9]{6}\s*$"))


def test_the_deal_names_its_sheet_in_one_tap(page: Page, live_server: str, shoot: Any) -> None:
    _start_game(page, live_server, NAMES)
    sheet = page.get_by_text("Standard table: 15 15 15 12 12 10 10 for 2-8 players")
    expect(sheet).to_be_hidden()
    page.get_by_text("Why 15 each?").tap()
    expect(sheet).to_be_visible()
    source = page.get_by_role("link", name="htfbw.com, Mexican Train")
    expect(source).to_have_attribute("href", "https://htfbw.com/games-cards/Games/76098.shtml")
    source.scroll_into_view_if_needed()
    shoot("trial4-deal-source", full_page=False)

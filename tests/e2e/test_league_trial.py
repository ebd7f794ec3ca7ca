"""League items of the third table trial in the browser (issue 21): a pasted list of names
adds one player a line; a table sits in the order its players were tapped; every reader may
look at the standings by another method."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_game_flow import _enter

pytestmark = pytest.mark.e2e

PASSPHRASE = "blue engine 7"
CHECKS = (Path(__file__).parent / "a11y.js").read_text()


def _start_league(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/leagues/new")
    page.get_by_label("League name").fill("Thursday Train Club")
    page.get_by_label("Passphrase for scorekeeping phones").fill(PASSPHRASE)
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()


def test_a_pasted_list_and_seats_in_the_order_tapped(
    page: Page, live_server: str, shoot: Any
) -> None:
    _start_league(page, live_server)
    # A column of names pasted from a spreadsheet: one player a line, nothing cut.
    page.get_by_label("Player's name").fill("Ann Baker\nBob Carter\nCarol Diaz\nDev Patel")
    page.get_by_role("button", name="Add to the roster").click()
    expect(
        page.get_by_text("Ann Baker, Bob Carter, Carol Diaz and Dev Patel are on the roster.")
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Roster (4)")).to_be_visible()
    league_url = page.url.removesuffix("/players")

    page.get_by_role("link", name="Nights").click()
    page.get_by_role("link", name="Start a night").click()
    page.get_by_role("button", name="Start the night").click()
    expect(page.get_by_text("Tap the players in seat order")).to_be_visible()
    chip = {name: page.locator("label.chip", has_text=name) for name in ("Carol", "Ann", "Dev")}
    for name in ("Carol", "Ann", "Dev"):
        chip[name].click()
    expect(chip["Carol"].locator(".chip-seat")).to_have_text("seat 1")
    expect(chip["Ann"].locator(".chip-seat")).to_have_text("seat 2")
    expect(chip["Dev"].locator(".chip-seat")).to_have_text("seat 3")
    # Untapping closes the gap; tapping again sits at the end.
    chip["Ann"].click()
    expect(chip["Ann"].locator(".chip-seat")).to_have_count(0)
    expect(chip["Dev"].locator(".chip-seat")).to_have_text("seat 2")
    chip["Ann"].click()
    expect(chip["Ann"].locator(".chip-seat")).to_have_text("seat 3")
    shoot("league-trial-seat-order")
    assert page.evaluate(CHECKS) == []
    page.set_viewport_size({"width": 360, "height": 800})
    shoot("league-trial-seat-order-360")
    page.set_viewport_size({"width": 412, "height": 915})
    page.get_by_role("button", name="Start Table 1").click()
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    page.get_by_role("link", name="Keep score at Table 1").click()
    page.get_by_role("link", name="Enter round 1 scores").click()
    expect(page.locator(".seat-name")).to_contain_text(["Carol Diaz", "Dev Patel", "Ann Baker"])

    # The table stops after one round: the average leaves the short game out, and says so.
    _enter(page, [0, 5, 7], 0)
    page.get_by_role("button", name="Save round 1").click()
    page.get_by_text("Stop early").click()
    page.get_by_role("button", name="End the game after round 1").click()
    expect(page.get_by_text("Game over")).to_be_visible()
    page.goto(league_url)
    expect(
        page.get_by_text("1 finished game, but none counts for this ranking yet")
    ).to_be_visible()
    expect(page.get_by_text("1 game ended before the last round is left out")).to_be_visible()
    shoot("league-trial-standings-short-game")
    # The standings by another method, to look.
    page.get_by_role("link", name="Wins").click()
    expect(page.get_by_text("Looking at the standings by wins, to compare")).to_be_visible()
    expect(page.get_by_role("link", name="Wins")).to_have_attribute("aria-current", "page")
    shoot("league-trial-standings-by-wins")
    assert page.evaluate(CHECKS) == []

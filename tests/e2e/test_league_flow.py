"""A league night from phones alone: the organiser starts a league, adds the roster, starts a
night with two tables; a table's phone joins with the passphrase and keeps score; the night's
results and the standings follow. League screens pass the accessibility checks too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_game_flow import _enter, shoot_page

pytestmark = pytest.mark.e2e

CHECKS = (Path(__file__).parent / "a11y.js").read_text()
ROSTER = ["Ann", "Bob", "Cy", "Di", "Ed", "Fay"]
PASSPHRASE = "blue engine 7"


def _play_one_round_and_stop(page: Page, points: list[int], went_out: int) -> None:
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, points, went_out)
    page.get_by_role("button", name="Save round 1").click()
    page.get_by_text("Stop early").click()
    page.get_by_role("button", name="End the game after round 1").click()
    expect(page.get_by_text("Game over")).to_be_visible()


def test_a_league_night_run_from_phones(
    page: Page,
    live_server: str,
    shoot: Any,
    browser: Any,
    browser_context_args: dict[str, Any],
) -> None:
    # The organiser starts the league from the start page.
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Leagues: club nights and standings").click()
    shoot("league-index")
    page.get_by_role("link", name="Start a league").click()
    page.get_by_label("League name").fill("Thursday Train Club")
    page.get_by_label("Passphrase for scorekeeping phones").fill(PASSPHRASE)
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
    for name in ROSTER:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add to the roster").click()
        expect(page.get_by_text(f"{name} is on the roster.")).to_be_visible()
    shoot("league-players")

    # A night with two tables, seated from the roster in a few taps.
    page.get_by_role("link", name="Nights").click()
    page.get_by_role("link", name="Start a night").click()
    page.get_by_label("Place").fill("Community hall")
    page.get_by_role("button", name="Start the night").click()
    for name in ("Ann", "Bob", "Cy"):
        page.locator("label.chip", has_text=name).click()
    shoot("league-seat-table")
    page.get_by_role("button", name="Start Table 1").click()
    page.get_by_role("link", name="Add a table").click()
    for name in ("Di", "Ed", "Fay"):
        page.locator("label.chip", has_text=name).click()
    expect(page.locator("label.chip.busy", has_text="Ann")).to_contain_text("at Table 1")
    page.get_by_label("Guest 1").fill("Gwen")
    page.get_by_role("button", name="Start Table 2").click()
    expect(page.get_by_role("heading", name="Table 2")).to_be_visible()
    night_url = page.url
    page.get_by_text("Let a table's phone keep score").click()
    shoot("league-night-start")

    # Table 2's phone joins with the passphrase and keeps score there.
    context = browser.new_context(**browser_context_args)
    table_phone = context.new_page()
    try:
        table_phone.goto(night_url)
        expect(table_phone.get_by_role("heading", name="Keep score at a table")).to_be_visible()
        table_phone.get_by_label("League passphrase").fill("Blue engine 7")
        table_phone.get_by_role("button", name="Unlock").click()
        expect(table_phone.get_by_text("This phone can now keep score")).to_be_visible()
        shoot_page(table_phone, "league-table-phone-night")
        table_phone.get_by_role("link", name="Keep score at Table 2").click()
        expect(table_phone.get_by_text("Round 1 of 13")).to_be_visible()
        _play_one_round_and_stop(table_phone, [14, 0, 33, 21], went_out=1)
    finally:
        context.close()

    # Meanwhile the night's page shows Table 2 finished without a reload.
    expect(page.get_by_text("Game over: Ed wins")).to_be_visible(timeout=10_000)
    expect(page.get_by_text("Results so far")).to_be_visible()

    # The organiser keeps score at Table 1.
    page.get_by_role("link", name="Keep score at Table 1").click()
    _play_one_round_and_stop(page, [0, 17, 9], went_out=0)
    page.goto(night_url)
    expect(page.get_by_role("heading", name="Tonight's results")).to_be_visible()
    shoot("league-night-results")

    # Rank by wins for this first night (the average needs 3 games a player).
    page.get_by_role("link", name="League", exact=True).click()
    page.get_by_role("link", name="Settings: ranking, house rules, passphrase, public page").click()
    page.get_by_label("Wins (a shared win counts for each co-winner)").check()
    page.get_by_role("button", name="Save the settings").click()
    expect(page.get_by_text("Settings saved.")).to_be_visible()
    standings = page.locator("ol.standings.league li")
    expect(standings).to_have_count(6)
    expect(standings.nth(0)).to_contain_text("Ann")
    expect(standings.nth(1)).to_contain_text("Ed")
    expect(
        page.get_by_text("Ties: fewer games played, then lowest average game total")
    ).to_be_visible()
    shoot("league-standings")
    page.get_by_role("link", name="Ed").first.click()
    expect(page.get_by_role("heading", name="Head to head")).to_be_visible()
    shoot("league-player")

    # Every league screen passes the accessibility checks.
    problems: list[str] = []
    for url in [
        page.url,
        night_url,
        f"{night_url}/tables/new",
        night_url.rsplit("/nights/", 1)[0],
        night_url.rsplit("/nights/", 1)[0] + "/players",
        night_url.rsplit("/nights/", 1)[0] + "/manage",
        night_url.rsplit("/nights/", 1)[0] + "/settings",
        night_url.rsplit("/nights/", 1)[0] + "/import",
        f"{live_server}/leagues",
    ]:
        page.goto(url)
        for details in page.locator("details").all():
            details.evaluate("d => d.open = true")
        problems += [f"{url}: {p}" for p in page.evaluate(CHECKS)]
    assert problems == [], "\n".join(problems)

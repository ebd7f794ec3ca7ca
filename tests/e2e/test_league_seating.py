"""Seat tonight's tables on a 360 px phone (issue 39): the organiser ticks who is here and a
guest, proposes tables, swaps two players by tapping them, starts the tables; the night's page
lists who sits where; a late guest joins a table. The seating screens pass the accessibility
checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

PASSPHRASE = "blue engine 7"
CHECKS = (Path(__file__).parent / "a11y.js").read_text()
ROSTER = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def _table_names(page: Page, number: int) -> list[str]:
    card = page.locator("section.table-card").nth(number)
    return [
        text.strip()
        for text in card.locator("label.chip.pick > span:first-of-type").all_inner_texts()
    ]


def test_seating_a_night_on_a_small_phone(page: Page, live_server: str, shoot: Any) -> None:
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{live_server}/leagues/new")
    page.get_by_label("League name").fill("Thursday Train Club")
    page.get_by_label("Passphrase for scorekeeping phones").fill(PASSPHRASE)
    page.get_by_role("button", name="Start the league").click()
    page.get_by_label("Player's name").fill("\n".join(ROSTER))
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.get_by_role("heading", name="Roster (8)")).to_be_visible()
    page.get_by_role("link", name="Nights").click()
    page.get_by_role("link", name="Start a night").click()
    page.get_by_role("button", name="Start the night").click()
    page.get_by_role("link", name="Back to the night").click()

    # Who is here: seven of the roster and a guest, four a table.
    page.get_by_role("link", name="Seat tonight's tables").click()
    expect(page.get_by_role("heading", name="Seat tonight's tables")).to_be_visible()
    for name in ROSTER[:7]:
        page.locator("fieldset label.chip", has_text=name).click()
    page.get_by_label("Guest 1").fill("Zed")
    shoot("seating-who-is-here-360")
    page.get_by_role("button", name="Propose tables").click()
    expect(page.get_by_role("heading", name="Proposed tables")).to_be_visible()
    expect(page.locator("section.table-card")).to_have_count(2)
    first, second = _table_names(page, 0), _table_names(page, 1)
    assert sorted(first + second) == sorted([*ROSTER[:7], "Zed"])
    expect(page.get_by_text("Nobody at this table has met before.")).to_have_count(2)
    shoot("seating-proposed-360")

    # Tap one player, then another at the same table (the choice moves there), then one at
    # the other table: those two swap at once.
    chips = [page.locator("section.table-card").nth(n).locator("label.chip.pick") for n in (0, 1)]
    chips[0].nth(0).click()
    chips[0].nth(1).click()
    expect(chips[0].nth(0).locator("input")).not_to_be_checked()
    expect(chips[0].nth(1).locator("input")).to_be_checked()
    chips[1].nth(0).click()
    expect(page.locator("section.table-card").nth(0)).to_contain_text(second[0])
    expect(page.locator("section.table-card").nth(1)).to_contain_text(first[1])
    swapped = _table_names(page, 0), _table_names(page, 1)
    assert first[1] in swapped[1] and second[0] in swapped[0] and first[0] in swapped[0]
    assert page.evaluate(CHECKS) == []
    shoot("seating-swapped-360")
    shoot("seating-swapped-screen-360", full_page=False)  # where the page opens: the proposal

    # Start these tables: the night lists who sits where, in big type.
    page.get_by_role("button", name="Start these tables").click()
    expect(page.get_by_text("2 tables started.")).to_be_visible()
    seating = page.locator("ul.seating li")
    expect(seating).to_have_count(2)
    expect(seating.nth(0)).to_have_text(f"Table 1: {', '.join(swapped[0])}")
    expect(seating.nth(1)).to_have_text(f"Table 2: {', '.join(swapped[1])}")
    shoot("seating-night-360")

    # Hal comes late: he has met nobody, and the tables are alike: the first.
    page.get_by_role("link", name="Seat tonight's tables").click()
    page.get_by_label("Who arrived?").select_option(label="Hal")
    shoot("seating-late-360")
    page.get_by_role("button", name="Add to a table").click()
    expect(page.get_by_text("Hal joins Table 1 from round 1")).to_be_visible()
    expect(page.locator("ul.seating li").nth(0)).to_contain_text("Hal")
    night_url = page.url

    # The next week: last night's players come ticked, and the proposal says who met before.
    page.goto(night_url.rsplit("/nights/", 1)[0] + "/nights/new")
    page.get_by_label("Date").fill("2099-01-07")
    page.get_by_role("button", name="Start the night").click()
    page.get_by_role("link", name="Back to the night").click()
    page.get_by_role("link", name="Seat tonight's tables").click()
    for name in [*ROSTER, "Zed"]:
        expect(page.locator("fieldset label.chip", has_text=name).locator("input")).to_be_checked()
    page.get_by_role("button", name="Propose tables").click()
    expect(page.get_by_text("met once before").first).to_be_visible()
    shoot("seating-met-before-screen-360", full_page=False)
    for url in (night_url, night_url + "/seat"):
        page.goto(url)
        for details in page.locator("details").all():
            details.evaluate("d => d.open = true")
        assert page.evaluate(CHECKS) == [], url

"""The table helper in a phone browser."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_helper_shows_deal_schedule_and_counts_a_hand(
    page: Any, live_server: str, shoot: Any
) -> None:
    page.goto(f"{live_server}/helper")
    page.get_by_label("Set").select_option("12")
    page.get_by_label("Players").fill("6")
    page.get_by_role("button", name="Show what to deal").click()
    expect(page.locator(".facts")).to_contain_text("12")
    expect(page.get_by_text("deal 12 each; 18 stay in the boneyard")).to_be_visible()
    expect(page.locator(".schedule li")).to_have_count(13)
    page.get_by_label("Tiles left in a hand").fill("12-5, 3/4, double blank")
    expect(page.locator("#hand-count")).to_contain_text("24")  # live, without pressing Count
    shoot("helper")
    page.get_by_label("Tiles left in a hand").fill("12-5, 13-2")
    expect(page.locator("#hand-count")).to_contain_text('"13" is not on a double-12 set')
    shoot("helper-error")

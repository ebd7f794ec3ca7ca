"""A league table's phone after the organiser changed the passphrase (issue 21 item 3): Save is
refused in the league's words, the page lists what was typed, and after the new passphrase the
round form opens with it again (the phone's draft)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper.extensions import db
from scorekeeper.leagues import services
from tests.e2e.test_game_flow import _enter
from tests.e2e.test_offline import _keeps_game, _queue, _saved_rounds, _scroll_to_queued_round

pytestmark = pytest.mark.e2e


def _league_table(app: Flask) -> tuple[str, str]:
    """A league (organised by another phone) with a table of Ann, Bob and Cy tonight."""
    with app.app_context():
        league = services.create_league("Thursday Club", "blue engine 7", "0" * 64)
        players = [services.add_player(league, name) for name in ("Ann", "Bob", "Cy")]
        night = services.create_night(league, date.today(), "Hall")
        game = services.add_table(league, night, "Table 1", [p.id for p in players], [], "0" * 64)
        db.session.commit()
        ids = league.code, game.public_id
        db.session.remove()
    return ids


def _new_passphrase(app: Flask, code: str) -> None:
    with app.app_context():
        league = services.load_league(code)
        assert league is not None
        services.change_passphrase(league, "red engine 9")
        db.session.commit()
        db.session.remove()


def test_a_round_refused_after_a_new_passphrase_keeps_what_was_typed(
    page: Page, live_server: str, live_app: Flask, shoot: Any
) -> None:
    code, game = _league_table(live_app)
    page.goto(f"{live_server}/leagues/{code}/unlock")
    page.get_by_label("League passphrase").fill("blue engine 7")
    page.get_by_role("button", name="Unlock").click()
    page.goto(f"{live_server}/g/{game}/round")
    page.locator("#seat-0 input.points").fill("17")
    page.locator("#seat-1 .went-out").click()
    page.locator("#seat-2 input.points").fill("23")
    _new_passphrase(live_app, code)

    page.get_by_role("button", name="Save round 1").click()
    expect(
        page.get_by_role("heading", name="Thursday Club's passphrase has changed")
    ).to_be_visible()
    expect(page.get_by_text("Ask the organiser for the new passphrase")).to_be_visible()
    typed = page.locator(".typed-round")
    expect(typed).to_contain_text("Ann 17")
    expect(typed).to_contain_text("Bob 0 (went out)")
    expect(typed).to_contain_text("Cy 23")
    shoot("league-refused-new-passphrase")

    page.get_by_role("link", name="Type the new passphrase").click()
    page.get_by_label("League passphrase").fill("red engine 9")
    page.get_by_role("button", name="Unlock").click()
    page.wait_for_url(re.compile(f"/g/{game}/round$"))
    expect(page.get_by_text("What you typed on this phone is back")).to_be_visible()
    expect(page.locator("#seat-0 input.points")).to_have_value("17")
    expect(page.locator("#seat-1 .went-out input")).to_be_checked()
    expect(page.locator("#seat-2 input.points")).to_have_value("23")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 2 of 13")).to_be_visible()


def test_the_organiser_deletes_a_league_game_and_brings_it_back(
    page: Page, live_server: str, live_app: Flask, shoot: Any
) -> None:
    page.goto(f"{live_server}/leagues/new")
    page.get_by_label("League name").fill("Thursday Club")
    page.get_by_label("Passphrase for scorekeeping phones").fill("blue engine 7")
    page.get_by_role("button", name="Start the league").click()
    code = page.url.split("/")[4]
    with live_app.app_context():
        league = services.load_league(code)
        assert league is not None
        players = [services.add_player(league, name) for name in ("Margaret", "Harold", "Dorothy")]
        night = services.create_night(league, date(2025, 11, 17), "Hall")
        game = services.add_table(league, night, "Table 1", [p.id for p in players], [], "0" * 64)
        db.session.commit()
        night_url, public_id = f"{live_server}/leagues/{code}/nights/{night.id}", game.public_id
        db.session.remove()
    page.goto(f"{live_server}/g/{public_id}/round")
    page.locator("#seat-0 input.points").fill("17")
    page.locator("#seat-1 .went-out").click()
    page.locator("#seat-2 input.points").fill("23")
    page.get_by_role("button", name="Save round 1").click()
    page.get_by_text("Stop early").click()
    page.get_by_role("button", name="End the game after round 1").click()
    # The end of a league game: no big "Play again" button, a plain one that asks first.
    again = page.get_by_role("link", name="Play again at Table 1…")
    expect(again).to_have_class(re.compile("secondary"))
    shoot("league-summary-organiser")

    page.get_by_role("link", name="Delete this game…").click()
    expect(
        page.get_by_text("It can be brought back, exactly as it is, for 14 days")
    ).to_be_visible()
    page.get_by_role("button", name="Delete the game").click()
    page.wait_for_url(night_url)
    expect(page.get_by_text("No tables yet.")).to_be_visible()
    deleted = page.locator("#recently-deleted")
    expect(deleted).to_contain_text("Margaret 17 · Harold 0 · Dorothy 23")
    expect(deleted).to_contain_text("Deleted by the organiser")
    for width in (412, 360):
        page.set_viewport_size({"width": width, "height": 915})
        deleted.scroll_into_view_if_needed()
        shoot(f"league-night-recently-deleted-{width}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_role("button", name="Undo: bring it back").click()
    page.wait_for_url(re.compile(f"/g/{public_id}$"))
    expect(page.get_by_text("The game is back, as it was.")).to_be_visible()
    page.goto(night_url)
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    expect(page.locator("#recently-deleted")).to_have_count(0)


def test_a_kept_round_refused_after_a_new_passphrase_says_so_and_waits(
    page: Page, context: BrowserContext, live_server: str, live_app: Flask, shoot: Any
) -> None:
    code, game = _league_table(live_app)
    page.goto(f"{live_server}/leagues/{code}/unlock")
    page.get_by_label("League passphrase").fill("blue engine 7")
    page.get_by_role("button", name="Unlock").click()
    page.goto(f"{live_server}/g/{game}")
    _keeps_game(page, game)
    context.set_offline(True)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [17, 0, 23], 1)
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("[data-queued-round='1']")).to_be_visible()
    _new_passphrase(live_app, code)

    context.set_offline(False)
    denied = page.locator("[data-queued-round='1'][data-state='denied']")
    expect(denied).to_contain_text(
        "Round 1 is not sent. The organiser changed the league's passphrase", timeout=15_000
    )
    expect(denied).to_contain_text("Ask the organiser for the new passphrase")
    expect(denied).to_contain_text("Typed here: Ann 17 · Bob 0 (went out) · Cy 23")
    fix = denied.get_by_role("link", name="Type the new passphrase")
    expect(fix).to_have_attribute("href", f"/leagues/{code}/unlock?next=/g/{game}/round")
    _scroll_to_queued_round(page, 1)
    shoot("offline-denied-new-passphrase", full_page=False)
    assert len(_queue(page)) == 1  # the round waits, as typed

    # The new passphrase, then "Try again": the round arrives.
    fix.click()
    page.get_by_label("League passphrase").fill("red engine 9")
    page.get_by_role("button", name="Unlock").click()
    page.goto(f"{live_server}/g/{game}")
    page.locator("[data-queued-round='1']").get_by_role("button", name="Try again").click()
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=15_000)
    assert _saved_rounds(live_app) == [(1, [17, 0, 23])]

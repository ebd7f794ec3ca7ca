"""A league table's phone after the organiser changed the passphrase (issue 21 item 3): Save is
refused in the league's words, the page lists what was typed, and after the new passphrase the
round form opens with it again (the phone's draft)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper.extensions import db
from scorekeeper.leagues import services

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

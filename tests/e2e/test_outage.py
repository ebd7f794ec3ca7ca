"""The database stops while a table keeps score (issue 37): the phone goes on showing what it
kept (a 5xx answer is no signal to the service worker), a round saved meanwhile joins the queue
of unsent rounds, and it is sent exactly once when the database is back.

The database is really stopped: the app's SQLite file is reached through a link, which is turned
to a folder (nothing can open a database there) and its pooled connections closed, as a server
whose database went away; then turned back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.extensions import db
from tests.conftest import make_app
from tests.database import fresh_schema
from tests.e2e.test_game_flow import NAMES, _enter, _start_game
from tests.e2e.test_offline import _keeps_game, _queue, _saved_rounds

pytestmark = pytest.mark.e2e


class Database:
    """The app's SQLite database behind a link that can be pointed away from it."""

    def __init__(self, folder: Path) -> None:
        self.file = folder / "data" / "scores.sqlite"
        self.file.parent.mkdir()
        self.nowhere = folder / "stopped"
        self.nowhere.mkdir()
        self.link = folder / "scores.sqlite"
        self.link.symlink_to(self.file)
        self.url = f"sqlite:///{self.link}"

    def _point_to(self, target: Path) -> None:
        new = self.link.with_name("scores.sqlite.new")
        new.symlink_to(target)
        os.replace(new, self.link)  # in one step: no moment without a link

    def stop(self, app: Flask) -> None:
        self._point_to(self.nowhere)
        with app.app_context():
            db.engine.dispose()  # the connections opened before go; new ones fail

    def start(self, app: Flask) -> None:
        self._point_to(self.file)
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def database(tmp_path: Path) -> Database:
    return Database(tmp_path)


@pytest.fixture
def live_app(database: Database) -> Iterator[Flask]:
    # The app's own error page, as in production (TESTING would hand the error to werkzeug).
    app = make_app(database.url, WTF_CSRF_ENABLED=True, PROPAGATE_EXCEPTIONS=False)
    fresh_schema(app)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_an_outage_shows_the_kept_table_view_and_scoreboard(
    page: Page, live_server: str, live_app: Flask, database: Database, shoot: Any
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    database.stop(live_app)
    answer = page.request.get(f"{live_server}/g/{public_id}/scoreboard")
    assert answer.status >= 500  # the server itself cannot show it

    page.goto(f"{live_server}/g/{public_id}/scoreboard")
    expect(page.locator("h1")).to_have_text("Scoreboard")
    expect(page.locator("main")).to_contain_text("Bob")
    page.goto(f"{live_server}/g/{public_id}")
    expect(page.get_by_text("Round 1 of 13")).to_be_visible()
    expect(page.get_by_role("link", name="Enter round 1 scores")).to_be_visible()
    shoot("outage-kept-table-view", full_page=False)
    database.start(live_app)


def test_a_round_saved_during_an_outage_is_sent_once_when_the_database_is_back(
    page: Page,
    context: BrowserContext,
    live_server: str,
    live_app: Flask,
    database: Database,
    shoot: Any,
) -> None:
    public_id = _start_game(page, live_server, NAMES)
    _keeps_game(page, public_id)
    page.get_by_role("link", name="Enter round 1 scores").click()
    _enter(page, [0, 12, 30, 8], 0)
    database.stop(live_app)
    page.get_by_role("button", name="Save round 1").click()

    # The table view opens from the phone's copy, the round waiting in the queue.
    waiting = page.locator("[data-queued-round='1']")
    expect(waiting).to_contain_text("Round 1: saved on this phone, not sent yet")
    expect(waiting).to_contain_text("Ann 0 (went out) · Bob 12 · Cy 30 · Di 8")
    # It was tried: the phone has signal, the server is the trouble, and says so.
    expect(waiting).to_contain_text(
        "Round 1: saved on this phone, not sent yet: the server is having trouble. "
        "It will be sent when the server answers again."
    )
    assert len(_queue(page)) == 1
    shoot("outage-round-queued", full_page=False)
    page.set_viewport_size({"width": 360, "height": 740})
    shoot("outage-round-queued-360", full_page=False)

    database.start(live_app)
    expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=90_000)
    expect(waiting).to_have_count(0)
    assert _queue(page) == []
    assert _saved_rounds(live_app) == [(1, [0, 12, 30, 8])]


def test_without_the_service_worker_a_save_answered_5xx_is_queued_too(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    live_app: Flask,
    database: Database,
) -> None:
    """Plain HTTP on a club's network has no service worker: the server's error page takes the
    round into the queue."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    try:
        page = context.new_page()
        _start_game(page, live_server, NAMES)
        page.get_by_role("link", name="Enter round 1 scores").click()
        _enter(page, [0, 5, 6, 7], 0)
        database.stop(live_app)
        page.get_by_role("button", name="Save round 1").click()
        expect(page.locator("h1")).to_have_text("Sorry, something went wrong")
        waiting = page.locator("[data-queued-round='1']")
        expect(waiting).to_contain_text("the server is having trouble")
        assert len(_queue(page)) == 1

        database.start(live_app)
        expect(page.get_by_text("Round 1 was sent and saved.")).to_be_visible(timeout=90_000)
        assert _queue(page) == []
        assert _saved_rounds(live_app) == [(1, [0, 5, 6, 7])]
    finally:
        context.close()

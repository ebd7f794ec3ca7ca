"""Results leave the app: the result card (a PNG made on the phone from the page's SVG, handed
to the share sheet or downloaded) for games of 2, 5 and 8 players and a league night, and the
print views, rendered to PDF by Chromium on one A4 and one Letter page each."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import League
from scorekeeper.web import result_cards
from tests.e2e.conftest import SCREENSHOTS
from tests.web.helpers import enter_round, start_game
from tests.web.league_helpers import add_players, add_table, play, start_league, start_night

pytestmark = pytest.mark.e2e

Image = pytest.importorskip("PIL.Image", reason="Pillow (the photo extra) reads the PNG")

NAMES = [
    "Margaret",
    "Harold Featherstonehaugh",  # a 24-character name
    "Dorothy",
    "Walter",
    "Bea",
    "Łucja Żółć",
    "Ана",
    "Renée 🎲",
]
NO_SHARE_SHEET = "delete Navigator.prototype.canShare; delete Navigator.prototype.share;"
SHARE_SHEET = """
Navigator.prototype.canShare = function (data) { return !!(data && data.files); };
Navigator.prototype.share = async function (data) {
  const file = data.files[0];
  window.sharedFile = { name: file.name, type: file.type, size: file.size };
};
"""


def _finished_game(app: Flask, players: int, rounds: int) -> str:
    """A game of ``players`` players with ``rounds`` rounds saved, then ended."""
    client = app.test_client()
    public_id = start_game(client, NAMES[:players])
    for number in range(rounds):
        out = number % players
        points = {seat: 0 if seat == out else 5 + 7 * seat + number for seat in range(players)}
        response = enter_round(client, public_id, points, went_out=out)
        assert response.status_code == 302, response.get_data(as_text=True)
    if rounds < 13:
        assert client.post(f"/g/{public_id}/finish").status_code == 302
    return public_id


def _png(path: Path) -> Any:
    picture = Image.open(io.BytesIO(path.read_bytes()))
    picture.load()
    return picture.convert("RGB")


def _not_blank(picture: Any) -> None:
    """Many colours, and a share of dark (text) pixels: the card was drawn, not left empty."""
    colours = picture.getcolors(maxcolors=1 << 24)
    dark = sum(count for count, (r, g, b) in colours if r + g + b < 200)
    assert len(colours) > 20
    assert 0.01 < dark / (picture.width * picture.height) < 0.5


def _download_card(page: Page, name: str) -> Path:
    with page.expect_download() as caught:
        page.get_by_role("button", name="Share the picture").click()
    target = SCREENSHOTS / f"{name}.png"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    caught.value.save_as(target)
    expect(page.get_by_text("The picture is saved in your downloads")).to_be_visible(timeout=30_000)
    return target


@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_card_of_a_game_downloads_where_the_phone_cannot_share(
    page: Page, live_server: str, app: Flask, shoot: Any, players: int
) -> None:
    public_id = _finished_game(app, players, 3)
    page.add_init_script(NO_SHARE_SHEET)
    page.goto(f"{live_server}/g/{public_id}/summary")
    card = page.get_by_role("img", name=re.compile("Mexican Train"))
    expect(card).to_be_visible()
    card.scroll_into_view_if_needed()
    shoot(f"summary-card-{players}")
    saved = _download_card(page, f"result-card-{players}-players")
    picture = _png(saved)
    svg = app.test_client().get(f"/g/{public_id}/card.svg").get_data(as_text=True)
    height = int(re.search(r'<svg[^>]* height="(\d+)"', svg).group(1))
    assert height >= result_cards.HEADER + players * result_cards.ROW + result_cards.FOOTER
    assert (picture.width, picture.height) == (1080, height)
    _not_blank(picture)
    # The winner's band is drawn: the card's first row has the gold colour.
    first_row = picture.crop(
        (40, result_cards.HEADER + 10, 1040, result_cards.HEADER + result_cards.ROW - 10)
    )
    assert (255, 241, 184) in {colour for _, colour in first_row.getcolors(maxcolors=1 << 24)}


def test_the_card_goes_to_the_share_sheet_where_the_phone_can(
    page: Page, live_server: str, app: Flask
) -> None:
    public_id = _finished_game(app, 5, 2)
    page.add_init_script(SHARE_SHEET)
    page.goto(f"{live_server}/g/{public_id}/summary")
    page.get_by_role("button", name="Share the picture").click()
    # Drawing the card waits for the phone's fonts (the first picture of a browser may look
    # through every font for a glyph): the page says "Making the picture…" meanwhile.
    expect(page.get_by_text("Shared.")).to_be_visible(timeout=30_000)
    shared = page.evaluate("window.sharedFile")
    assert shared["type"] == "image/png" and shared["name"].endswith(".png")
    assert shared["size"] > 10_000


def test_a_player_following_on_their_phone_gets_the_card_once_the_game_is_over(
    page: Page, live_server: str, app: Flask, shoot: Any
) -> None:
    client = app.test_client()
    public_id = start_game(client, NAMES[:3])
    enter_round(client, public_id, {0: 0, 1: 10, 2: 20}, went_out=0)
    page.add_init_script(NO_SHARE_SHEET)
    page.goto(f"{live_server}/g/{public_id}/watch")
    expect(page.get_by_role("button", name="Share the picture")).to_have_count(0)
    assert client.post(f"/g/{public_id}/finish").status_code == 302
    # The share view polls: the card arrives with the game's end, without a reload.
    expect(page.get_by_role("button", name="Share the picture")).to_be_visible(timeout=15_000)
    shoot("watch-card")
    _not_blank(_png(_download_card(page, "watch-card")))


def _league_night(app: Flask, tables: int = 2, per_table: int = 4) -> tuple[str, int, str]:
    """A league night of finished tables, and the league's public page token."""
    client = app.test_client()
    code = start_league(client, "Клуб Łódź")
    names = [f"Player {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(tables * per_table)]
    ids = add_players(client, code, names)
    night = start_night(client, code, "2026-11-19", 'The "Anchor" ☕')
    for t in range(tables):
        seated = [ids[name] for name in names[t * per_table : (t + 1) * per_table]]
        public_id = add_table(client, code, night, seated)
        play(client, public_id, [0] + [5 * (t + s + 1) for s in range(per_table - 1)])
    assert client.post(f"/leagues/{code}/settings/public", data={"action": "on"}).status_code == 302
    with app.app_context():
        league = db.session.scalars(select(League).where(League.code == code)).one()
        league.min_games = 1
        league.standings_stamp = "e2e-min-1"
        db.session.commit()
        token = league.public_token
    assert token
    return code, night, token


def test_the_card_of_a_league_night(page: Page, live_server: str, app: Flask, shoot: Any) -> None:
    _code, night, token = _league_night(app)
    page.add_init_script(NO_SHARE_SHEET)
    page.goto(f"{live_server}/p/{token}/nights/{night}")
    expect(page.get_by_role("img", name=re.compile("Клуб Łódź"))).to_be_visible()
    picture = _png(_download_card(page, "result-card-night"))
    assert picture.width == 1080 and picture.height > result_cards.HEADER + 8 * result_cards.ROW
    _not_blank(picture)


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_print_views_fit_one_page(page: Page, live_server: str, app: Flask, paper: str) -> None:
    public_id = _finished_game(app, 8, 13)
    _code, night, token = _league_night(app, tables=5, per_table=6)  # 30 players
    views = {
        "game": f"/g/{public_id}/print",
        "night": f"/p/{token}/nights/{night}/print",
        "standings": f"/p/{token}/print?season=all",
    }
    for name, path in views.items():
        page.goto(f"{live_server}{path}")
        rows = page.locator("tbody tr")
        expect(rows).to_have_count(13 if name == "game" else 30)
        expect(page.get_by_role("button", name="Print this page")).to_be_visible()
        pdf = page.pdf(format=paper, print_background=False)
        (SCREENSHOTS / f"print-{name}-{paper}.pdf").write_bytes(pdf)
        assert _pages(pdf) == 1, f"{name} on {paper}: {_pages(pdf)} pages"

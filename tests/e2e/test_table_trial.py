"""What a real group found in a phone trial (issue 9), each checked in a phone browser: the
start sentence, "Went out" moving, the one-screen round form, Enter moving on, leaving a round,
the live check clearing a refusal, open/close sections, photo labels, the player page."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_game_flow import _start_game as _start_four

pytestmark = pytest.mark.e2e

FIVE = ["Alexandra", "Boris", "Cy", "Dorothea", "Eve"]
SIX = [*FIVE, "Frank"]


def _start_game(page: Page, live_server: str, names: list[str]) -> str:
    """Setup with as many seats as names (the form starts with four)."""
    if len(names) <= 4:
        return _start_four(page, live_server, names)
    page.goto(f"{live_server}/games/new")
    for _ in range(len(names) - 4):
        page.get_by_role("button", name="+ Add a seat").click()
    for index, name in enumerate(names):
        page.get_by_label(f"Player {index + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_text("Round 1 of 13")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def _round_page(page: Page, live_server: str, names: list[str]) -> str:
    public_id = _start_game(page, live_server, names)
    page.get_by_role("link", name="Enter round 1 scores").click()
    return public_id


def test_the_table_view_says_how_to_start_and_honours_the_setup_choice(
    page: Page, live_server: str, shoot: Any
) -> None:
    page.goto(f"{live_server}/games/new")
    for index, name in enumerate(FIVE[:4]):
        page.get_by_label(f"Player {index + 1}", exact=True).fill(name)
    page.locator(".seat-row").nth(2).get_by_text("Starts").click()  # Cy starts round 1
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_text("Round 1 of 13")).to_be_visible()
    # The engine is taken out, so nobody is told to hold it; the chosen seat starts.
    expect(page.get_by_text("Take out the 12-12 and put it in the hub")).to_be_visible()
    expect(page.get_by_text("Cy starts.")).to_be_visible()
    expect(page.get_by_text("Whoever holds")).to_have_count(0)
    shoot("trial-table-view")


def test_went_out_moving_takes_its_zero_along(page: Page, live_server: str, shoot: Any) -> None:
    _round_page(page, live_server, FIVE)
    first = page.locator("#seat-0 input.points")
    second = page.locator("#seat-1 input.points")
    page.locator("#seat-0 .went-out").click()
    expect(first).to_have_value("0")
    page.locator("#seat-1 .went-out").click()  # changed their mind
    expect(second).to_have_value("0")
    expect(first).to_have_value("")  # not left behind as a real score
    expect(first).to_have_attribute("placeholder", "not yet")
    expect(page.locator("#seat-0")).to_have_css("border-top-style", "dashed")
    # A 0 typed by a person stays.
    first.fill("0")
    page.get_by_text("Blocked round: nobody could play").click()
    expect(second).to_have_value("")
    expect(first).to_have_value("0")
    shoot("trial-went-out-moved")


def test_six_players_and_save_fit_one_phone_screen(
    page: Page, live_server: str, shoot: Any
) -> None:
    page.set_viewport_size({"width": 412, "height": 915})
    _round_page(page, live_server, SIX)
    shoot("trial-six-players", full_page=False)
    save = page.get_by_role("button", name="Save round 1")
    expect(save).to_be_in_viewport()
    box = save.bounding_box()
    assert box and box["y"] + box["height"] <= 915
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    # Save and the way out are far apart.
    back = page.get_by_role("link", name="‹ Table").bounding_box()
    assert back and box["y"] - (back["y"] + back["height"]) > 300
    # The tiles and photo of one player open below that player's row only.
    page.get_by_label("Tiles or photo for Cy").click()
    expect(page.get_by_label("Tiles left in Cy’s hand")).to_be_visible()
    expect(page.get_by_label("Tiles left in Boris’s hand")).to_be_hidden()
    shoot("trial-six-players-tiles-open", full_page=False)
    page.get_by_label("Tiles or photo for Cy").click()


def test_enter_moves_to_the_next_player_and_saves_from_the_last(
    page: Page, live_server: str
) -> None:
    _round_page(page, live_server, FIVE[:3])
    page.locator("#seat-0 .went-out").click()
    page.locator("#seat-1 input.points").fill("12")
    page.keyboard.press("Enter")
    expect(page.locator("#seat-2 input.points")).to_be_focused()
    assert page.url.endswith("/round")  # not sent
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()


def test_leaving_a_round_with_typed_values_asks_first(page: Page, live_server: str) -> None:
    _round_page(page, live_server, FIVE[:3])
    page.locator("#seat-1 input.points").fill("12")
    questions: list[str] = []

    def answer(dialog: Any) -> None:
        questions.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    page.get_by_role("link", name="‹ Table").click()
    assert questions and "without saving" in questions[0]
    expect(page.locator("#seat-1 input.points")).to_have_value("12")  # still here
    page.remove_listener("dialog", answer)
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("link", name="Leave without saving").click()
    expect(page.get_by_text("Round 1 of 13")).to_be_visible()


def test_the_live_check_clears_a_fixed_refusal(page: Page, live_server: str, shoot: Any) -> None:
    _round_page(page, live_server, FIVE[:3])
    page.locator("#seat-0 .went-out").click()
    page.locator("#seat-1 input.points").fill("12")
    page.locator("#seat-2 input.points").fill("2000")  # no hand can hold that much
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Nothing was saved yet")).to_be_visible()
    field = page.locator("#seat-2 input.points")
    expect(field).to_have_attribute("aria-invalid", "true")
    shoot("trial-refused")
    field.fill("20")
    expect(page.get_by_text("Nothing was saved yet")).to_have_count(0)
    expect(field).not_to_have_attribute("aria-invalid", "true")
    shoot("trial-refusal-fixed")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    page.get_by_role("link", name="Full scoreboard").click()
    _chart_text_is_inside(page)  # the "Round" label and the last round's number too
    shoot("trial-scoreboard")


def test_sections_show_they_open_and_the_share_code_is_found(
    page: Page, live_server: str, shoot: Any
) -> None:
    _start_game(page, live_server, FIVE[:4])
    share = page.locator("#share > summary")
    expect(share.locator(".to-open")).to_be_visible()
    expect(share.locator(".to-close")).to_be_hidden()
    assert share.locator(".open-close").inner_text() == "Open ▾"
    share.click()
    expect(page.get_by_role("img", name="QR code for the live scoreboard")).to_be_visible()
    expect(share.locator(".to-open")).to_be_hidden()
    assert share.locator(".open-close").inner_text() == "Close ▴"
    shoot("trial-sections")


def test_photo_labels_sit_inside_their_tiles_and_on_the_photo(
    page: Page, live_server: str, shoot: Any, tmp_path: Path
) -> None:
    np = pytest.importorskip("numpy", reason="the photo extra is not installed")
    synth = pytest.importorskip("scorekeeper.vision.synth")
    scene = synth.render_hand(
        np.random.default_rng(11),
        [(5, 12), (3, 4), (6, 6), (0, 9), (11, 12)],
        size=(1280, 960),
        difficulty=0.0,
        allow_cut=False,
    )
    photo = tmp_path / "hand.png"
    photo.write_bytes(synth.encode_png(scene.image))
    _round_page(page, live_server, FIVE[:3])
    page.locator("#seat-1 summary").click()
    page.get_by_label("photo of Boris’s tiles").set_input_files(str(photo))
    marks = page.locator("#seat-1 .tile-mark")
    expect(marks.first).to_be_visible()
    boxes = page.evaluate(
        """() => {
        const svg = document.querySelector('#seat-1 .photo-marks');
        const [,, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
        return Array.from(svg.querySelectorAll('.tile-mark')).map(m => {
          const t = m.querySelector('text').getBBox();
          const p = m.querySelector('polygon').getBBox();
          return {t: [t.x, t.y, t.width, t.height], p: [p.x, p.y, p.width, p.height], w, h};
        });
    }"""
    )
    assert boxes
    for box in boxes:
        tx, ty, tw, th = box["t"]
        px, py, pw, ph = box["p"]
        assert tx >= 0 and ty >= 0 and tx + tw <= box["w"] and ty + th <= box["h"]  # on the photo
        centre = (tx + tw / 2, ty + th / 2)
        assert px <= centre[0] <= px + pw and py <= centre[1] <= py + ph  # on its own tile
    shoot("trial-photo-labels")


def _demo_league(app: Any, nights: int = 12) -> tuple[str, int]:
    from scorekeeper.extensions import db
    from scorekeeper.leagues.demo import seed_demo
    from scorekeeper.models import Player

    with app.app_context():
        demo = seed_demo(nights=nights, tables=1, players=5, start=date(2025, 9, 4))
        db.session.commit()
        code = demo.league.code
        player = db.session.scalars(db.select(Player).order_by(Player.id)).first()
        return code, player.id


def test_the_player_page_fits_a_phone(
    page: Page, live_app: Any, live_server: str, shoot: Any
) -> None:
    code, player_id = _demo_league(live_app)
    page.goto(f"{live_server}/leagues/{code}/unlock")
    page.get_by_label("Passphrase").fill("demo train 2025")
    page.get_by_role("button", name="Unlock").click()
    page.goto(f"{live_server}/leagues/{code}/players/{player_id}")
    shoot("trial-player-page")
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    games = page.locator("table.games")
    box = games.bounding_box()
    scroller = page.locator("table.games").locator("xpath=..").bounding_box()
    assert box and scroller and box["width"] <= scroller["width"] + 1  # nothing cut off
    _chart_text_is_inside(page)


def _chart_text_is_inside(page: Page) -> None:
    """Every label of the page's first chart is drawn inside the chart, as it is on screen."""
    boxes = page.locator("svg.chart").first.evaluate(
        """svg => { const c = svg.getBoundingClientRect();
        return Array.from(svg.querySelectorAll('text')).map(t => {
          const b = t.getBoundingClientRect();
          return [b.left - c.left, b.top - c.top, b.right - c.left, b.bottom - c.top,
                  c.width, c.height, t.textContent]; }); }"""
    )
    assert boxes
    for left, top, right, bottom, width, height, text in boxes:
        assert left >= -0.5 and right <= width + 0.5, f"{text!r} is cut off"
        assert top >= -0.5 and bottom <= height + 0.5, f"{text!r} is cut off"


def test_league_rights_in_a_phone_browser(
    page: Page,
    live_app: Any,
    live_server: str,
    shoot: Any,
    browser: Any,
    browser_context_args: dict[str, Any],
) -> None:
    code, _ = _demo_league(live_app, nights=4)
    # A table phone (the passphrase, not the organiser) opening the league's settings.
    page.goto(f"{live_server}/leagues/{code}/unlock")
    expect(page.get_by_text("Just want to follow the standings?")).to_be_visible()
    shoot("trial-league-unlock")
    page.get_by_label("Passphrase").fill("demo train 2025")
    page.get_by_role("button", name="Unlock").click()
    page.goto(f"{live_server}/leagues/{code}/settings")
    expect(
        page.get_by_role("heading", name="Only the organiser's phone can do this")
    ).to_be_visible()
    expect(page.get_by_text("This phone can keep score at the league's tables.")).to_be_visible()
    expect(page.get_by_text("edit code")).to_have_count(0)
    shoot("trial-league-settings-refused")
    # The More page says which right is which and shows the members' link.
    page.goto(f"{live_server}/leagues/{code}/manage")
    expect(page.locator(".rights-list li.mine")).to_contain_text("Keep score at a table")
    link = page.get_by_role("link", name=f"/leagues/{code}/members/").get_attribute("href")
    shoot("trial-league-more")
    # A member who only reads: the members' link, no passphrase.
    context = browser.new_context(**browser_context_args)
    member = context.new_page()
    try:
        member.goto(link or "")
        expect(member.get_by_role("heading", name="Standings")).to_be_visible()
        expect(member.get_by_role("link", name="Start tonight's night")).to_have_count(0)
        member.get_by_role("link", name="Players").click()
        expect(member.get_by_role("button", name="Add to the roster")).to_have_count(0)
        member.screenshot(path=str(SCREENSHOTS / "trial-league-member.png"), full_page=True)
    finally:
        context.close()


def test_roster_names_and_the_csv_in_a_phone_browser(
    page: Page, live_server: str, shoot: Any
) -> None:
    page.goto(f"{live_server}/leagues/new")
    page.get_by_label("League name").fill("Friday Club")
    page.get_by_label("Passphrase for scorekeeping phones").fill("green train 4")
    page.get_by_role("button", name="Start the league").click()
    page.get_by_label("Player's name").fill("Alice, Boris")
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.get_by_text("“Alice, Boris” looks like 2 names.")).to_be_visible()
    shoot("trial-comma-names")
    page.get_by_role("button", name="Add Alice, Boris: 2 players").click()
    expect(page.get_by_text("Alice and Boris are on the roster.")).to_be_visible()
    page.get_by_role("link", name="Boris").click()
    page.get_by_role("link", name="Rename, or remove").click()
    page.get_by_role("button", name="Remove Boris from the roster").click()
    expect(page.get_by_text("Boris is no longer on the roster.")).to_be_visible()
    expect(page.locator(".game-list")).not_to_contain_text("Boris")
    # A blocked round is marked in the game's CSV.
    public_id = _start_game(page, live_server, ["Ann", "Bob"])
    page.get_by_role("link", name="Enter round 1 scores").click()
    page.locator("#seat-0 input.points").fill("5")
    page.locator("#seat-1 input.points").fill("9")
    page.get_by_text("Blocked round: nobody could play").click()
    page.get_by_role("button", name="Save round 1").click()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    csv_text = page.request.get(f"{live_server}/g/{public_id}/game.csv").text()
    header, first = csv_text.splitlines()[:2]
    assert "blocked" in header.split(",")
    assert first.split(",")[header.split(",").index("blocked")] == "yes"


def test_a_photo_without_tiles_keeps_the_typed_total(
    page: Page, live_server: str, shoot: Any, tmp_path: Path
) -> None:
    image = pytest.importorskip("PIL.Image", reason="the photo extra is not installed")
    pytest.importorskip("scorekeeper.vision.synth", reason="the photo extra is not installed")
    photo = tmp_path / "table.png"
    image.new("RGB", (1280, 960), (92, 64, 51)).save(photo)  # the bare table, no tile on it
    _round_page(page, live_server, FIVE[:3])
    page.locator("#seat-1 input.points").fill("65")
    page.locator("#seat-1 summary").click()
    page.get_by_label("photo of Boris’s tiles").set_input_files(str(photo))
    expect(page.get_by_text("No tile was found in the photo")).to_be_visible()
    expect(page.get_by_role("button", name="Use the photo: 0")).to_have_count(0)
    expect(page.locator("#seat-1 input.points")).to_have_value("65")
    shoot("trial-photo-no-tiles")


def test_a_points_game_table_view_has_its_button_on_the_first_screen(
    page: Page, live_server: str, shoot: Any
) -> None:
    """All Fives: who leads and the deal in big type, then the button; the spinner rule, how
    play scores and the target follow in ordinary type, so the button is not pushed off."""
    page.set_viewport_size({"width": 412, "height": 915})
    page.goto(f"{live_server}/games/new?game=all_fives")
    for index, name in enumerate(FIVE[:3]):
        page.get_by_label(f"Player {index + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_text("Hand 1", exact=True)).to_be_visible()
    shoot("trial-points-game-table", full_page=False)
    expect(page.get_by_role("link", name="Enter hand 1 scores")).to_be_in_viewport()
    expect(page.get_by_text("Shuffle, deal 5 each", exact=False)).to_be_in_viewport()
    notes = page.locator("ul.table-notes")
    expect(notes.get_by_text("The first double is the spinner", exact=False)).to_be_visible()
    expect(notes.get_by_text("The first to 150 at the end", exact=False)).to_be_visible()
    # The hand form: points made during play and the pips left, per player, Save on screen.
    page.get_by_role("link", name="Enter hand 1 scores").click()
    shoot("trial-points-game-hand", full_page=False)
    expect(page.get_by_role("button", name="Save hand 1")).to_be_in_viewport()

"""The league items of the third table trial (issue 21, items 24-28 and 30-33): adding several
players, the night's date on a league game, seat order, where a joining phone lands, the
"already saved" comparison, a second night on one date, the standings' defaults and words, the
exports' and charts' small print."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import date, timedelta

from flask.testing import FlaskClient

from tests.web.helpers import enter_round, round_data, round_form_fields, start_game
from tests.web.league_helpers import (
    PASSPHRASE,
    add_players,
    add_table,
    play,
    start_league,
    start_night,
    text_of,
    unlock,
)
from tests.web.test_leagues import settings_data, standings_rows
from tests.web.test_leagues_transfer import upload
from tests.web.test_two_phones import second_phone

# --------------------------------------------------------------------------------------------
# 27: a phone that joins lands on tonight's tables


def test_joining_lands_on_tonights_night_when_there_is_one(client: FlaskClient) -> None:
    code = start_league(client)
    member = client.application.test_client()
    # No night yet: the standings.
    response = unlock(member, code)
    assert response.headers["Location"] == f"/leagues/{code}"
    night = start_night(client, code, date.today().isoformat())
    answer = unlock(client.application.test_client(), code)
    assert answer.headers["Location"] == f"/leagues/{code}/nights/{night}"
    answer = client.application.test_client().post(
        "/leagues/join", data={"code": code, "passphrase": PASSPHRASE}
    )
    assert answer.headers["Location"] == f"/leagues/{code}/nights/{night}"


def test_joining_lands_on_the_latest_night_still_playing(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    old = start_night(client, code, (date.today() - timedelta(days=30)).isoformat())
    finished = add_table(client, code, old, [ids["Ann"], ids["Bob"]])
    play(client, finished, [0, 10])
    member = client.application.test_client()
    # Only a finished night a month ago: the standings.
    assert unlock(member, code).headers["Location"] == f"/leagues/{code}"
    later = start_night(client, code, (date.today() - timedelta(days=7)).isoformat())
    add_table(client, code, later, [ids["Ann"], ids["Bob"]])
    phone = client.application.test_client()
    assert unlock(phone, code).headers["Location"] == f"/leagues/{code}/nights/{later}"


# --------------------------------------------------------------------------------------------
# 25: a league game is dated by its night, not by the day its scores were typed


def test_a_league_game_shows_its_nights_date(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code, "2025-03-06")
    game = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, game, [0, 10])
    today = date.today()
    typed_on = f"{today.day} {today:%b %Y}"
    summary = client.get(f"/g/{game}/summary").get_data(as_text=True)
    assert "Mexican Train, 6 Mar 2025: 1 of 13 rounds" in summary
    assert typed_on not in summary
    delete_page = text_of(client.get(f"/g/{game}/delete").get_data(as_text=True))
    assert "on 6 Mar 2025" in delete_page and typed_on not in delete_page
    home = text_of(client.get("/").get_data(as_text=True))
    assert "6 Mar 2025" in home and typed_on not in home


# --------------------------------------------------------------------------------------------
# 26: the players sit in the order they were tapped


def _seat_names(client: FlaskClient, public_id: str) -> list[str]:
    page = client.get(f"/g/{public_id}/round").get_data(as_text=True)
    return re.findall(r'<legend[^>]*>\s*<span class="seat-name">([^<]+)<', page)


def test_a_table_sits_in_the_order_the_players_were_tapped(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy"])
    night = start_night(client, code)
    before = client.get(f"/leagues/{code}/nights/{night}/tables/new").get_data(as_text=True)
    assert 'name="seat_order"' in before and "js/seat-order" in before
    order = [ids["Cy"], ids["Ann"], ids["Bob"]]
    response = client.post(
        f"/leagues/{code}/nights/{night}/tables/new",
        data={
            "table_name": "Table 1",
            "players": [str(ids[name]) for name in ("Ann", "Bob", "Cy")],
            "seat_order": ",".join(str(player) for player in order),
        },
    )
    assert response.status_code == 302
    page = client.get(f"/leagues/{code}/nights/{night}").get_data(as_text=True)
    (game,) = set(re.findall(r'href="/g/([A-Za-z0-9_-]+)"', page))
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    with client.application.app_context():
        seated = db.session.scalars(db.select(Game).where(Game.public_id == game)).one()
        assert [seat.player.name for seat in seated.seats] == ["Cy", "Ann", "Bob"]


# --------------------------------------------------------------------------------------------
# 24: several players at once, and a name never cut short


def test_a_pasted_list_adds_one_player_a_line(client: FlaskClient) -> None:
    code = start_league(client)
    page = client.get(f"/leagues/{code}/players").get_data(as_text=True)
    # The box takes a pasted list (a textarea keeps its lines) and never cuts what is pasted.
    box = re.search(r"<textarea[^>]*name=\"name\"[^>]*>", page)
    assert box and "maxlength" not in box.group(0)
    assert "One name a line" in page
    response = client.post(
        f"/leagues/{code}/players/new",
        data={"name": "Ann Baker\r\nBob Carter\r\n\r\n  Carol Diaz \r\nDev Patel\r\n"},
    )
    assert response.status_code == 302
    roster = text_of(client.get(f"/leagues/{code}/players").get_data(as_text=True))
    assert "Ann Baker, Bob Carter, Carol Diaz and Dev Patel are on the roster." in roster
    assert "Roster (4)" in roster


def test_a_name_too_long_is_refused_with_the_limit_and_nothing_is_added(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    add_players(client, code, ["Ann Baker"])
    typed = "Bob Carter\nAnn Baker\n" + "Carol Diaz Dev Patel Eve Foster Gus Hill Ida"
    response = client.post(f"/leagues/{code}/players/new", data={"name": typed})
    assert response.status_code == 422
    page = text_of(response.get_data(as_text=True))
    assert "has 44 characters; a name may have at most 40" in page
    assert "Ann Baker is already on the roster." in page
    # Nothing was added, and everything typed is still in the box.
    assert "Gus Hill Ida" in response.get_data(as_text=True)
    assert "Roster (1)" in page and "Bob Carter" in page
    assert "Roster (1)" in text_of(client.get(f"/leagues/{code}/players").get_data(as_text=True))
    # One long name on its own line is refused too, never cut to 40.
    response = client.post(f"/leagues/{code}/players/new", data={"name": "x" * 41})
    assert response.status_code == 422
    assert "at most 40" in response.get_data(as_text=True)


def test_a_long_guest_or_new_name_is_refused_not_cut(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann"])
    night = start_night(client, code)
    form = client.get(f"/leagues/{code}/nights/{night}/tables/new").get_data(as_text=True)
    assert 'maxlength="40"' not in form
    long_name = "Margaret Elizabeth Montgomery-Carrington III"
    response = client.post(
        f"/leagues/{code}/nights/{night}/tables/new",
        data={"table_name": "Table 1", "players": [str(ids["Ann"])], "guest-0": long_name},
    )
    assert response.status_code == 422
    assert "at most 40" in response.get_data(as_text=True)
    response = client.post(f"/leagues/{code}/players/{ids['Ann']}/edit", data={"name": long_name})
    assert response.status_code == 422
    assert "at most 40 characters" in response.get_data(as_text=True)
    assert "maxlength" not in re.search(
        r'<input[^>]*name="name"[^>]*>', response.get_data(as_text=True)
    ).group(0)


# --------------------------------------------------------------------------------------------
# 28: the "already saved" page marks what differs, in colour and in words


def test_the_already_saved_page_marks_the_values_that_differ(client: FlaskClient) -> None:
    public_id = start_game(client, ["Ann", "Bob", "Cy"])
    other = second_phone(client, public_id)
    stale = {**round_data({0: 0, 1: 5, 2: 4}, went_out=0), **round_form_fields(other, public_id)}
    assert enter_round(client, public_id, points={0: 0, 1: 5, 2: 7}, went_out=0).status_code == 302
    response = other.post(f"/g/{public_id}/round", data=stale)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    # Only Cy's line differs: marked in both tables, and said in words.
    assert page.count('<tr class="differs"><th scope="row">Cy</th>') == 2
    assert page.count('class="differs"') == 2
    assert "Not the same: Cy (points)." in text_of(page)
    assert 'Cy</th><td>4 <span class="tag differs">not the same</span>' in page


def test_differences_between_two_phones_lines() -> None:
    from scorekeeper.games.presentation import SeatLine, line_differences

    saved = [SeatLine("Ann", "0", "", True), SeatLine("Bob", "5", "3-4", False)]
    typed = [SeatLine("Ann", "0", "", False), SeatLine("Bob", "5", " 3-4 ", True)]
    assert line_differences(saved, typed) == {0: ["went out"], 1: ["went out"]}
    assert line_differences(saved, saved) == {}
    typed = [SeatLine("Ann", "7", "6-1", True), SeatLine("Bob", "5", "3-4", False)]
    assert line_differences(saved, typed) == {0: ["points", "tiles"]}


# --------------------------------------------------------------------------------------------
# 30: a second night on one date is asked about; the settings say who is signed out and who
# can see the league


def test_a_second_night_on_the_same_date_is_asked_about_first(client: FlaskClient) -> None:
    code = start_league(client)
    first = start_night(client, code, "2026-11-17", place="Hall")
    response = client.post(
        f"/leagues/{code}/nights/new", data={"played_on": "2026-11-17", "place": "Annexe"}
    )
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    words = text_of(page)
    assert "Tuesday 17 Nov 2026 already has a night: the night at Hall." in words.replace(
        "Hall .", "Hall."
    )
    assert f'href="/leagues/{code}/nights/{first}"' in page
    assert 'name="same_day" value="yes"' in page and 'value="Annexe"' in page
    assert len(client.get(f"/leagues/{code}/nights").get_data(as_text=True).split("Annexe")) == 1
    # Said yes: the second night is started.
    response = client.post(
        f"/leagues/{code}/nights/new",
        data={"played_on": "2026-11-17", "place": "Annexe", "same_day": "yes"},
    )
    assert response.status_code == 302
    second = int(response.headers["Location"].split("/")[4])
    # Moving a night onto another night's date is asked about too.
    third = start_night(client, code, "2026-11-24")
    response = client.post(
        f"/leagues/{code}/nights/{third}/edit", data={"played_on": "2026-11-17", "place": "Hall"}
    )
    assert response.status_code == 200
    assert "Move it to 17 Nov 2026" in response.get_data(as_text=True)
    # A night saved again on its own date is not a second night.
    response = client.post(
        f"/leagues/{code}/nights/{second}/edit",
        data={"played_on": "2026-11-17", "place": "Annexe"},
    )
    assert response.status_code == 302


def test_the_settings_say_readers_are_signed_out_and_can_see_the_league(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    page = text_of(client.get(f"/leagues/{code}/settings").get_data(as_text=True))
    assert "members' phones that follow the league until they open the new members' link" in (
        page.replace("&#39;", "'")
    )
    assert "only phones with the passphrase and members' phones" in page.replace("&#39;", "'")


# --------------------------------------------------------------------------------------------
# 32: plain words, and every reader may look at the other methods


def test_members_may_look_at_the_standings_by_another_method(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy"])
    night = start_night(client, code)
    play(client, add_table(client, code, night, [ids["Ann"], ids["Bob"], ids["Cy"]]), [0, 10, 20])
    member = client.application.test_client()
    unlock(member, code)
    page = member.get(f"/leagues/{code}").get_data(as_text=True)
    assert 'aria-current="page">Average game total' in page
    assert f'href="/leagues/{code}?method=wins"' in page
    assert "Ranked by average game total" in page and "method-viewed" not in page
    page = member.get(f"/leagues/{code}?method=rating").get_data(as_text=True)
    words = text_of(page).replace("&#39;", "'")
    assert "Ranked by skill rating" in words and "OpenSkill" not in words
    assert "Looking at the standings by skill rating, to compare: nothing changes." in words
    assert "The league is ranked by average game total, the organiser's choice" in words
    assert 'name="method" value="rating"' in page  # the period filter keeps the method
    # The organiser's choice is unchanged, and nonsense falls back to it.
    assert "Ranked by average" in member.get(f"/leagues/{code}").get_data(as_text=True)
    # Other query words are never taken for the link's own parts (a 500 before).
    response = member.get(f"/leagues/{code}?code=X&token=Y&_external=1&season=all&method=wins")
    assert response.status_code == 200
    assert f'href="/leagues/{code}?season=all&amp;method=points"' in response.get_data(as_text=True)
    page = member.get(f"/leagues/{code}?method=<script>").get_data(as_text=True)
    assert "Ranked by average" in page and "method-viewed" not in page
    # The public page offers the same, on the public page.
    client.post(f"/leagues/{code}/settings/public", data={"action": "on"})
    settings = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    token = re.search(r'href="https?://[^"]*/p/([^"/]+)"', settings).group(1)
    public = client.application.test_client().get(f"/p/{token}?method=wins")
    assert "Ranked by wins" in public.get_data(as_text=True)
    assert f'href="/p/{token}?method=points"' in public.get_data(as_text=True)


# --------------------------------------------------------------------------------------------
# 33: small print: a CSV typo is one problem, standings.csv says why it is empty, dates keep
# their capitals, the chart's two labels differ, "tonight" only tonight, "12-12" in one piece


def test_a_typo_in_an_import_is_one_problem_on_its_own_line(client: FlaskClient) -> None:
    code = start_league(client)
    typo = (
        "night,place,table,player,round,score\n"
        "2024-01-04,Hall,Table 1,Ann,1,0\n"
        "2024-01-04,Hall,Table 1,Bob,1,2O\n"
        "2024-01-04,Hall,Table 1,Cy,1,7\n"
        "2024-01-04,Hall,Table 1,Ann,2,14\n"
        "2024-01-04,Hall,Table 1,Bob,2,0\n"
        "2024-01-04,Hall,Table 1,Cy,2,3\n"
    )
    page = upload(client, code, typo).get_data(as_text=True)
    problems = re.findall(r"<li><strong>Line (\d+):</strong> ([^<]+)</li>", page)
    assert problems == [("3", "The score “2O” is not a whole number.")]
    # A score truly missing (no line at all) is still found, on its round's first line.
    missing = typo.replace("2024-01-04,Hall,Table 1,Bob,1,2O\n", "")
    page = upload(client, code, missing).get_data(as_text=True)
    problems = re.findall(r"<li><strong>Line (\d+):</strong> ([^<]+)</li>", page)
    assert problems == [("2", "round 1 at Table 1 on 4 Jan 2024 has no score for Bob.")]


def test_standings_csv_says_why_nobody_is_ranked(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="3"))
    night = start_night(client, code)
    play(client, add_table(client, code, night, [ids["Ann"], ids["Bob"]]), [0, 10])
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/leagues/{code}/export.zip").data))
    rows = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode("utf-8-sig"))))
    assert [(row["rank"], row["player"], row["note"]) for row in rows] == [
        ("", "Ann", "not ranked: 1 game of the 3 needed to be ranked"),
        ("", "Bob", "not ranked: 1 game of the 3 needed to be ranked"),
    ]
    assert "players not ranked" in archive.read("README.txt").decode()


def test_a_date_range_keeps_the_months_capital(client: FlaskClient) -> None:
    code = start_league(client)
    page = text_of(client.get(f"/leagues/{code}?start=2026-11-20").get_data(as_text=True))
    assert "No finished games in 20 Nov 2026 to today" in page
    assert "20 nov 2026" not in page


def test_a_chart_within_one_month_labels_its_two_days() -> None:
    from scorekeeper.web.charts import plan_totals_over_time

    def labels(points: list[tuple[date, int]]) -> list[str]:
        return [tick.text for tick in plan_totals_over_time(points, "Ann").ticks]

    found = labels([(date(2026, 11, 17), 40), (date(2026, 11, 24), 55)])
    assert "17 Nov" in found and "24 Nov 2026" in found and "Nov 2026" not in found
    found = labels([(date(2026, 9, 3), 40), (date(2026, 11, 24), 55)])
    assert "Sep 2026" in found and "Nov 2026" in found
    assert labels([(date(2026, 11, 17), 40), (date(2026, 11, 17), 55)]).count("17 Nov 2026") == 1


def test_tonight_only_on_the_night_and_the_engine_in_one_piece(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob", "Cy", "Di"])
    old = start_night(client, code, "2025-01-09")
    play(client, add_table(client, code, old, [ids["Ann"], ids["Bob"]]), [0, 10])
    page = client.get(f"/leagues/{code}/nights/{old}").get_data(as_text=True)
    assert "The night's results" in page and "Tonight's results" not in page
    tonight = start_night(client, code, date.today().isoformat())
    play(client, add_table(client, code, tonight, [ids["Ann"], ids["Bob"]]), [0, 10])
    add_table(client, code, tonight, [ids["Cy"], ids["Di"]])
    page = client.get(f"/leagues/{code}/nights/{tonight}").get_data(as_text=True)
    assert "first engine&nbsp;12&#8209;12" in page
    assert "Results so far" in page


# --------------------------------------------------------------------------------------------
# 31: ranked after two nights by default; a game ended early is not a whole game's average


def test_a_new_league_ranks_players_from_their_second_game(client: FlaskClient) -> None:
    code = start_league(client)
    settings = client.get(f"/leagues/{code}/settings").get_data(as_text=True)
    assert re.search(r'name="min_games"[^>]*value="2"', settings)
    ids = add_players(client, code, ["Ann", "Bob"])
    first = start_night(client, code, "2026-11-17")
    play(client, add_table(client, code, first, [ids["Ann"], ids["Bob"]]), [0, 10])
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    # One night: nobody yet, and the page says why, player by player.
    assert "Nobody has 2 games yet: a player is ranked from their 2nd game" in page
    assert "Ann : 1 game of the 2 needed to be ranked" in page
    second = start_night(client, code, "2026-11-24")
    play(client, add_table(client, code, second, [ids["Ann"], ids["Bob"]]), [5, 0])
    rows = standings_rows(client, f"/leagues/{code}")
    assert [(name, value) for _, name, value in rows] == [("Ann", "2.5"), ("Bob", "5.0")]


def test_a_game_ended_after_one_round_is_left_out_of_the_average(client: FlaskClient) -> None:
    code = start_league(client)
    ids = add_players(client, code, ["Ann", "Bob"])
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="1"))
    night = start_night(client, code)
    short = add_table(client, code, night, [ids["Ann"], ids["Bob"]])
    play(client, short, [0, 10], whole=False)  # the table stops after round 1 of 13
    page = text_of(client.get(f"/leagues/{code}").get_data(as_text=True))
    assert "average 0.0" not in page and "0.0" not in [
        v for _, _, v in standings_rows(client, f"/leagues/{code}")
    ]
    assert "1 finished game, but none counts for this ranking yet" in page
    assert "1 game ended before the last round is left out" in page
    # It still counts for wins.
    client.post(f"/leagues/{code}/settings", data=settings_data(min_games="1", ranking="wins"))
    rows = standings_rows(client, f"/leagues/{code}")
    assert [(name, value) for _, name, value in rows] == [("Ann", "1"), ("Bob", "0")]
    # The game is marked as ended early (and reopening it clears the mark).
    from scorekeeper.extensions import db
    from scorekeeper.models import Game

    with client.application.app_context():
        game = db.session.scalars(db.select(Game).where(Game.public_id == short)).one()
        assert game.ended_early is True
    assert client.post(f"/g/{short}/reopen").status_code == 302
    with client.application.app_context():
        game = db.session.scalars(db.select(Game).where(Game.public_id == short)).one()
        assert game.ended_early is False


def test_ended_early_games_leave_the_average_but_count_for_wins() -> None:
    from scorekeeper.rules.placings import SeatResult
    from scorekeeper.rules.standings import Method, standings

    day = date(2026, 11, 17)
    results = [
        SeatResult("g1", 1, day, "Ann", 0, 1, 1, whole=False),
        SeatResult("g1", 1, day, "Bob", 10, 1, 0, whole=False),
        SeatResult("g2", 2, day, "Ann", 90, 13, 3),
        SeatResult("g2", 2, day, "Bob", 80, 13, 4),
    ]
    table = standings(results, Method("average", min_games=1))
    assert [(r.line.player, r.line.games, str(r.value)) for r in table.ranked] == [
        ("Bob", 1, "80.0"),
        ("Ann", 1, "90.0"),
    ]
    assert "1 game ended before the last round is left out" in table.method_text
    wins = standings(results, Method("wins"))
    assert [(r.line.player, r.line.wins) for r in wins.ranked] == [("Ann", 1), ("Bob", 1)]


def test_hostile_lists_and_seat_orders_are_refused_or_ignored_never_a_500(
    client: FlaskClient,
) -> None:
    code = start_league(client)
    many = "\n".join(f"P{n}" for n in range(201))
    response = client.post(f"/leagues/{code}/players/new", data={"name": many})
    assert response.status_code == 422
    assert "That is 201 names: add at most 200 at once." in response.get_data(as_text=True)
    ids = add_players(client, code, ["Ann", "Bob"])
    night = start_night(client, code)
    response = client.post(
        f"/leagues/{code}/nights/{night}/tables/new",
        data={
            "table_name": "Table 1",
            "players": [str(ids["Ann"]), str(ids["Bob"])],
            "seat_order": f"²,{ids['Bob']},x,,{ids['Bob']},999999999999999999999",
        },
    )
    assert response.status_code == 302

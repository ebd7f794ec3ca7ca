"""The round-by-round table and the standings list of a game (``games/_board_table.html``,
``games/_standings_list.html``): every tag closed and every name text for any scoreboard (names
with markup, late joiners, blocked rounds, points games, corrections, the scorekeeper's links,
ties), short header labels with a key where names do not fit a phone, smaller figures for seven or
eight players."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from flask import Flask, render_template
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from scorekeeper import create_app
from scorekeeper.games.board_view import board_header, header_labels
from scorekeeper.games.presentation import BoardPlayer, BoardRow, Cell, Scoreboard


@pytest.fixture(scope="module")
def templates() -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})
    with app.test_request_context():
        yield app


def board_table(board: Scoreboard, correct_url: str | None = None) -> str:
    labels, crowded = board_header([p.name for p in board.players])
    return render_template(
        "games/_board_table.html",
        board=board,
        correct_url=correct_url,
        labels=labels,
        crowded=crowded,
    )


def standings_list(board: Scoreboard) -> str:
    return render_template("games/_standings_list.html", board=board)


names = st.text(min_size=1, max_size=12) | st.sampled_from(
    ["Ann", "<b>Bo</b>", 'Cy "C"', "Dé & Eve"]
)
cells = st.none() | st.builds(
    Cell,
    points=st.integers(-50, 500),
    hand=st.integers(0, 300),
    tiles=st.none(),
    markers=st.integers(0, 3),
    made=st.integers(0, 60) | st.just(0),
    went_out=st.booleans(),
    round_win=st.booleans(),
    corrected=st.booleans(),
)


@st.composite
def boards(draw: st.DrawFn) -> Scoreboard:
    count = draw(st.integers(1, 8))
    players = [
        BoardPlayer(
            position=i,
            name=draw(names),
            start=0,
            total=draw(st.integers(-50, 900)),
            rank=draw(st.integers(1, count)),
            tied=draw(st.booleans()),
            gap=draw(st.integers(0, 300)),
            movement=draw(st.integers(-7, 7)),
            rounds_won=0,
            went_out=0,
            best=None,
            worst=None,
            note="",
        )
        for i in range(count)
    ]
    rows = [
        BoardRow(
            number=number,
            engine=draw(st.none() | st.integers(0, 18)),
            blocked=draw(st.booleans()),
            on_double=False,
            cells=draw(st.lists(cells, min_size=count, max_size=count)),
            running=draw(st.lists(st.integers(-100, 900), min_size=count, max_size=count)),
        )
        for number in range(1, draw(st.integers(0, 14)) + 1)
    ]
    return Scoreboard(
        players=players,
        standings=sorted(players, key=lambda p: (p.rank, p.position)),
        rows=rows,
        rounds_total=13,
        finished=False,
        winners=[],
        tie_break="",
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(boards(), st.none() | st.just("/g/x/rounds/"))
def test_any_board_is_well_formed_and_names_are_text(
    templates: Flask, board: Scoreboard, correct_url: str | None
) -> None:
    for written in (board_table(board, correct_url), standings_list(board)):
        tags = _Tags()
        tags.feed(written)
        assert tags.open == []
        for player in board.players:
            # Written as text: escaped (a raw "<" may also be the start of a tag, so looking
            # for the raw name would be wrong for a name like "<" or "<t").
            assert str(escape(player.name)) in written


class _Tags(HTMLParser):
    VOID = {"br", "img", "input", "meta", "link"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.cells = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)
        self.cells += tag == "td"

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (self.open, tag)
        self.open.pop()


def test_a_hostile_name_is_text_and_every_tag_is_closed(templates: Flask) -> None:
    player = BoardPlayer(0, "<script>x</script>", 0, 5, 1, False, 0, 0, 0, 0, None, None, "")
    board = Scoreboard(
        players=[player],
        standings=[player],
        rows=[BoardRow(1, 12, False, False, [Cell(5, 5, None, 0, 0, False, True, True)], [5])],
        rounds_total=13,
        finished=False,
        winners=[],
        tie_break="",
    )
    written = board_table(board, "/g/x/rounds/")
    assert "<script>" not in written and "&lt;script&gt;" in written
    assert '<a href="/g/x/rounds/1" aria-label="Correct round 1">1</a>' in written
    tags = _Tags()
    tags.feed(written)
    assert tags.open == [] and tags.cells == 3  # the round's cell, the total, the rank
    standings = standings_list(board)
    assert "<script>" not in standings and "&lt;script&gt;" in standings
    tags = _Tags()
    tags.feed(standings)
    assert tags.open == []


@pytest.mark.parametrize(
    ("names", "labels"),
    [
        (["Ann", "Bob"], None),  # the names fit
        (["Ann", "Bob", "Cy", "Di"], None),
        (["Margaret", "Harold", "Dorothy", "Walter", "Bea"], ["M", "H", "D", "W", "B"]),
        (["Annabel", "Alastair", "Beatrice", "Cy", "Di"], ["An", "Al", "B", "C", "D"]),
        (["Annabel", "Anna", "Bo", "Cy", "Di"], ["Annab", "Anna", "B", "C", "D"]),
        (["Bartholomew Ashworth", "Margaret Fitzwilliam"], None),  # two columns: they wrap
        (["Bartholomew Ashworth", "Margaret Fitzwilliam", "Cy"], ["BA", "MF", "C"]),
        (["Annette Beeston", "Annette Bolton", "Cy", "Di"], ["ABe", "ABo", "C", "D"]),
        (["Annabel", "ANNABEL", "Bob", "Cy", "Dee"], ["1", "2", "B", "C", "D"]),  # alike
        (["Ann", "Bob", "Cyd", "Dot", "Eve", "Flo"], None),  # six of three letters fit
        (["Ann", "Bob", "Cyd", "Dot", "Eve", "Flo", "Gus", "Hal"], None),
    ],
)
def test_header_labels(names: list[str], labels: list[str] | None) -> None:
    assert header_labels(names) == labels


def _board(names: list[str]) -> Scoreboard:
    players = [
        BoardPlayer(i, name, 0, 10, i + 1, False, 0, 0, 0, 0, None, None, "")
        for i, name in enumerate(names)
    ]
    row = BoardRow(
        1,
        12,
        False,
        False,
        [Cell(10, 10, None, 0, 0, False, False, False)] * len(names),
        [10] * len(names),
    )
    return Scoreboard(
        players=players,
        standings=players,
        rows=[row],
        rounds_total=13,
        finished=False,
        winners=[],
        tie_break="",
    )


def test_short_labels_come_with_a_key_and_full_names_for_screen_readers(templates: Flask) -> None:
    written = board_table(_board(["Margaret", "Harold", "Dorothy", "Walter", "Bea"]))
    assert '<span class="key"><b>M</b> Margaret</span>' in written
    header = '<span aria-hidden="true">M</span><span class="sr-only">Margaret</span>'
    assert f'<th scope="col">{header}</th>' in written
    assert '<div class="table-scroll board-scroll">' in written  # five players: usual type


def test_seven_players_crowd_in_rather_than_scroll(templates: Flask) -> None:
    """Seven or eight players take smaller figures (every total in sight at 360 px, issue 36;
    the layout test measures it), with no "swipe sideways" hint: nothing scrolls."""
    written = board_table(_board([f"Player {n}" for n in range(1, 8)]))
    assert '<div class="table-scroll board-scroll crowded">' in written
    assert "swipe" not in written and "data-scroll-cue" not in written

"""The result card's layout (scorekeeper.web.result_cards): names sized to fit before the
totals, notes wrapped to the card, the height following the players and the notes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web import result_cards
from scorekeeper.web.result_cards import Entry, make_card, name_size, went_out_most


@pytest.mark.parametrize(
    ("name", "shown", "size"),
    [
        ("Bea", "Bea", 54),
        ("Margaret", "Margaret", 54),
        ("Harold Featherstonehaugh", "Harold Featherstonehaugh", 41),
        ("A" * 33, "A" * 33, 30),
        ("A" * 60, "A" * 32 + "…", 30),
    ],
)
def test_a_name_is_as_large_as_fits(name: str, shown: str, size: int) -> None:
    assert name_size(name) == (shown, size)


@given(st.text(min_size=1, max_size=80))
def test_a_name_always_fits_before_the_totals(name: str) -> None:
    shown, size = name_size(name)
    assert result_cards.NAME_SIZES[1] <= size <= result_cards.NAME_SIZES[0]
    assert (
        len(shown) * size * result_cards.CHAR_WIDTH
        <= result_cards.NAME_RIGHT - result_cards.NAME_LEFT
    )
    assert shown == name or shown.endswith("…")


@pytest.mark.parametrize(
    ("counts", "line"),
    [
        ([("Ann", 0), ("Bob", 0)], ""),
        ([("Ann", 3), ("Bob", 1)], "Went out most: Ann (3 times)"),
        ([("Ann", 1), ("Bob", 1)], "Went out most: Ann and Bob (once)"),
        ([("Ann", 2), ("Bob", 2), ("Cy", 2)], "Went out most: Ann, Bob and Cy (2 times)"),
    ],
)
def test_who_went_out_most(counts: list[tuple[str, int]], line: str) -> None:
    assert went_out_most(counts) == line


def test_the_card_grows_with_the_players_and_the_notes() -> None:
    entry = Entry(1, False, "Ann", "12", "2 rounds won", True)
    one = make_card("Mexican Train", "25 Nov 2026", [entry], ["short"])
    three = make_card("Mexican Train", "25 Nov 2026", [entry] * 3, ["short", "x " * 80])
    assert three.height - one.height == 2 * result_cards.ROW + 3 * result_cards.NOTE_LINE
    assert [line.top for line in three.lines] == [300, 412, 524]
    assert all(len(note) <= result_cards.NOTE_CHARS for note in three.notes)
    assert "Ann 12 (winner)" in one.description


def test_a_long_subtitle_is_written_smaller_to_fit_the_card() -> None:
    short = make_card("Club", "25 Nov 2026 · final", [], [])
    night = 'Thursday 19 Nov 2026 · The "Anchor" ☕ · 2 tables · so far'
    long = make_card("Club", night, [], [])
    room = result_cards.WIDTH - 2 * result_cards.MARGIN
    assert short.subtitle_size == 38
    assert 24 <= long.subtitle_size < 38 and long.subtitle == night
    assert len(night) * long.subtitle_size * result_cards.CHAR_WIDTH <= room
    longest = make_card("Club", "x" * 200, [], [])
    assert longest.subtitle.endswith("…")
    assert len(longest.subtitle) * longest.subtitle_size * result_cards.CHAR_WIDTH <= room

"""Spreadsheet cells a spreadsheet never runs, and the import reads them back exactly."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web.outside_text import (
    clean_text,
    csv_text,
    from_spreadsheet_cell,
    spreadsheet_cell,
)


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://e.x","c")', '\'=HYPERLINK("http://e.x","c")'),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("@cmd", "'@cmd"),
        ("-2+3", "'-2+3"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("'=x", "''=x"),  # an apostrophe already there is kept: the round trip stays exact
        ("-10", "-10"),  # plain numbers stay numbers
        ("+5", "+5"),
        ("3.5", "3.5"),
        ("Ann", "Ann"),
        ("'quoted", "'quoted"),
        ("", ""),
        (-10, -10),
        (None, None),
    ],
)
def test_cells_that_would_run_get_an_apostrophe(value: object, written: object) -> None:
    assert spreadsheet_cell(value) == written


@given(st.text())
def test_every_text_comes_back_from_its_cell(text: str) -> None:
    assert from_spreadsheet_cell(spreadsheet_cell(text)) == text


@given(st.text())
def test_no_written_cell_starts_a_formula(text: str) -> None:
    cell = spreadsheet_cell(text)
    if cell.startswith(("=", "+", "-", "@", "\t", "\r")):
        assert cell.isascii()
        float(cell.replace(",", "."))  # only a plain number may start like a formula


def test_csv_text_neutralises_every_cell() -> None:
    text = csv_text([["name", "score"], ["=1+1", -3], ["@SUM(1)", "7"]])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["name", "score"], ["'=1+1", "-3"], ["'@SUM(1)", "7"]]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("A\x00nn", "Ann"),
        ("a\x01\x08\x0b\x0c\x0e\x1f\x7fb", "ab"),
        ("tab\there\r\nline", "tab\there\r\nline"),
    ],
)
def test_control_characters_are_removed_but_tabs_and_line_breaks_stay(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean

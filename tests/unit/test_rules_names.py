"""A player's name (rules.names): one spelling however the accent was typed, nothing visible
ever changed, names one cannot see and names too long refused (issue 36, items 15 and 16)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.names import (
    INVISIBLE,
    MAX_NAME,
    TOO_LONG,
    NameRefused,
    clean_name,
    name_key,
)

KEPT = [
    # (typed, kept)
    ("José", "José"),
    ("Jose\u0301", "José"),  # e + combining acute: the same name as é
    ("  Ann   Marie ", "Ann Marie"),
    ("Ann\u00a0Marie", "Ann Marie"),  # a no-break space is a space
    ("Ann\u200b", "Ann"),  # a zero-width space pasted along
    ("\ufeffBob", "Bob"),  # a byte-order mark at the start of a pasted list
    ("\u200eCy\u200f", "Cy"),  # direction marks
    ("Di\u00adana", "Diana"),  # a soft hyphen shows nothing
    ("Zo\u00eb", "Zoë"),
    ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # the joiner of an emoji family stays
    ("ب\u200cي", "ب\u200cي"),  # the zero-width non-joiner shapes the letters around it
    ("7", "7"),
    ("?", "?"),
    ("", ""),
    ("   ", ""),  # a field left empty
    (None, ""),
]


@pytest.mark.parametrize(("typed", "kept"), KEPT)
def test_a_name_is_kept_in_one_spelling(typed: str | None, kept: str) -> None:
    assert clean_name(typed) == kept


INVISIBLE_NAMES = [
    "\u200b",  # zero-width space
    "\u200b \u200b",
    "\u2060",  # word joiner
    "\u200d",  # a joiner alone
    "\u3164",  # Hangul filler
    "\u115f\u1160",
    "\uffa0",
    "\u2800",  # braille blank
    "\u0301",  # an accent on nothing
    "\ufe0f",  # a variation selector alone
    "\x01\x02",
]


@pytest.mark.parametrize("typed", INVISIBLE_NAMES)
def test_a_name_no_one_can_see_is_refused(typed: str) -> None:
    with pytest.raises(NameRefused) as refused:
        clean_name(typed)
    assert refused.value.reason == INVISIBLE
    assert "one can see" in str(refused.value)


@pytest.mark.parametrize(
    ("typed", "length"),
    [("A" * 41, 41), ("Bartholomew " * 4, 47), ("e\u0301" * 41, 41)],
)
def test_a_name_too_long_is_refused_never_cut(typed: str, length: int) -> None:
    with pytest.raises(NameRefused) as refused:
        clean_name(typed)
    assert refused.value.reason == TOO_LONG
    assert (refused.value.length, refused.value.limit) == (length, MAX_NAME)
    assert f"has {length} characters; a name may have at most 40" in str(refused.value)


def test_the_limit_counts_a_name_as_kept() -> None:
    # Forty é typed as e + accent are eighty code points but forty characters.
    assert clean_name("e\u0301" * 40) == "é" * 40
    assert clean_name("A" * 12, limit=12) == "A" * 12


@pytest.mark.parametrize(
    ("one", "other"),
    [("José", "Jose\u0301"), ("ANN", "ann"), ("Ann\u200b", "Ann"), ("Straße", "STRASSE")],
)
def test_look_alike_names_have_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


def test_different_names_keep_different_keys() -> None:
    assert name_key("José") != name_key("Jose")
    assert name_key("Ann Marie") != name_key("AnnMarie")


def _kept(text: str) -> str | None:
    try:
        return clean_name(text)
    except NameRefused:
        return None


@given(st.text(max_size=60))
def test_whatever_is_typed_a_kept_name_is_one_spelling_and_visible(typed: str) -> None:
    kept = _kept(typed)
    if kept is None:
        return
    # One spelling: NFC, no edge or double spaces, no format characters but the joiners.
    assert unicodedata.is_normalized("NFC", kept)
    assert kept == kept.strip() and "  " not in kept
    assert all(
        unicodedata.category(ch) not in {"Cc", "Cf", "Cs"} or ch in "\u200c\u200d" for ch in kept
    )
    assert len(kept) <= MAX_NAME
    assert kept == "" or any(not ch.isspace() for ch in kept)
    # Keeping it again changes nothing; the other spellings of the same text give it too.
    assert clean_name(kept) == kept
    assert _kept(unicodedata.normalize("NFD", typed)) == kept
    assert name_key(kept) == name_key(typed)

"""The result card: a game's (or a league night's) result as a picture for a group chat.

The server lays the card out (``Card``: positions and sizes worked out here, where they can be
tested) and writes it as SVG (``templates/cards/card.svg``); the phone draws that SVG on a
canvas and shares or downloads it as a PNG (``static/js/card.js``), so the picture is made with
the phone's own fonts, whatever the script of the names (Latin, accents, Cyrillic, emoji).

1080 px wide, the width chat apps show without scaling, with type large enough to read on a
phone without zooming (names 40-54 px, totals 56 px: about 13-19 px on a 390 px screen).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.web.page_helpers import and_list

WIDTH = 1080
MARGIN = 64
HEADER = 300  # app name, title, subtitle and the first rule
ROW = 112  # one player
NOTE_LINE = 44
FOOTER = 110
NAME_LEFT = 176
NAME_RIGHT = 760  # names are sized to end before the totals
NAME_SIZES = (54, 30)  # the largest and smallest name size, px
CHAR_WIDTH = 0.58  # a generous average advance of a character, in ems
NOTE_SIZE = 30
NOTE_CHARS = 58  # characters of a note line at NOTE_SIZE across the card


@dataclass(frozen=True)
class CardLinks:
    """What a page needs to show a card: the SVG's URL, the PNG's file name, the share
    sheet's title, the print view's URL and the picture in words."""

    card_url: str
    file_name: str
    title: str
    print_url: str
    alt: str


@dataclass(frozen=True)
class Entry:
    """One player on the card, as the rules placed them."""

    place: int
    tied: bool
    name: str
    total: str
    detail: str  # "3 rounds won · went out 2 times"
    winner: bool


@dataclass(frozen=True)
class CardLine:
    place: str
    name: str
    name_size: int
    total: str
    detail: str
    winner: bool
    top: int  # the row's top edge


@dataclass(frozen=True)
class Card:
    title: str
    subtitle: str
    lines: tuple[CardLine, ...]
    notes: tuple[str, ...]
    notes_top: int
    height: int
    width: int = WIDTH
    brand: str = "Scorekeeper"  # i18n: the app's name, the same in every language
    subtitle_size: int = 38  # px: smaller for a long subtitle, so it fits the card's width

    @property
    def description(self) -> str:
        """The card in words (the picture's alternative text)."""
        people = "; ".join(
            _(
                "%(place)s %(name)s %(total)s (winner)",
                place=line.place,
                name=line.name,
                total=line.total,
            )
            if line.winner
            else f"{line.place} {line.name} {line.total}"
            for line in self.lines
        )
        return f"{self.title}, {self.subtitle}: {people}."


def name_size(name: str) -> tuple[str, int]:
    """The name as drawn and its font size: the largest size at which it fits before the
    totals; a name too long even at the smallest size is cut with an ellipsis on the card
    only (the pages and the text summary always show it whole)."""
    room = NAME_RIGHT - NAME_LEFT
    largest, smallest = NAME_SIZES
    length = max(len(name), 1)
    size = int(room / (length * CHAR_WIDTH))
    if size >= smallest:
        return name, min(largest, size)
    fits = int(room / (smallest * CHAR_WIDTH)) - 1
    return name[:fits].rstrip() + "…", smallest


def wrap_note(text: str) -> list[str]:
    return textwrap.wrap(text, NOTE_CHARS, break_long_words=True) or [""]


def make_card(title: str, subtitle: str, entries: Sequence[Entry], notes: Sequence[str]) -> Card:
    """Lay out a card: the header, one row per entry in the order given (final order), then the
    notes (who went out most, the rules in play), each wrapped to the card's width."""
    lines = []
    for i, entry in enumerate(entries):
        shown, size = name_size(entry.name)
        lines.append(
            CardLine(
                place=f"{entry.place}{'=' if entry.tied else ''}",
                name=shown,
                name_size=size,
                total=entry.total,
                detail=entry.detail,
                winner=entry.winner,
                top=HEADER + i * ROW,
            )
        )
    wrapped = tuple(line for note in notes if note for line in wrap_note(note))
    notes_top = HEADER + len(lines) * ROW + 40
    height = notes_top + len(wrapped) * NOTE_LINE + FOOTER
    room = WIDTH - 2 * MARGIN
    subtitle_size = max(24, min(38, int(room / (max(len(subtitle), 1) * CHAR_WIDTH))))
    fits = int(room / (subtitle_size * CHAR_WIDTH))
    if len(subtitle) > fits:  # even at the smallest size: cut on the card only
        subtitle = subtitle[: fits - 1].rstrip() + "…"
    return Card(
        title, subtitle, tuple(lines), wrapped, notes_top, height, subtitle_size=subtitle_size
    )


def went_out_most(names_and_counts: Sequence[tuple[str, int]]) -> str:
    """ "Went out most: Ann (4 times)", or two names when they share it; "" when nobody went
    out."""
    best = max((count for _, count in names_and_counts), default=0)
    if best == 0:
        return ""
    leaders = [name for name, count in names_and_counts if count == best]
    times = ngettext("once", "%(num)s times", best)
    return _("Went out most: %(who)s (%(times)s)", who=and_list(leaders), times=times)

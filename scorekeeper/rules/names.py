"""A player's name as the app keeps it and compares it (issue 36, item 16).

A name is kept in one spelling whatever the phone sent: Unicode NFC ("José" typed as é or as
e + accent is the same name), inner spaces collapsed to one, and without the invisible format
characters a paste can bring along (zero-width space, direction marks, word joiner, soft
hyphen, byte-order mark). The two joiners (U+200C, U+200D) stay: they shape letters of some
scripts and emoji sequences. Nothing visible is ever changed: a name too long is refused,
never cut, and a name with no character one can see (only spaces, zero-width characters,
Hangul fillers, the braille blank) is refused.

Two names are the same player when their ``name_key`` is the same (capitals aside).
"""

from __future__ import annotations

import unicodedata

from scorekeeper.rules.words import _

MAX_NAME = 40

#: The joiners kept inside a name (they change how the letters around them look).
JOINERS = frozenset("\u200c\u200d")
#: Characters classed as letters or symbols that show nothing at all.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Categories taken out of a name: control, format (but the joiners) and lone surrogates.
DROPPED = frozenset({"Cc", "Cf", "Cs"})
#: Categories of the characters one can see: letters, digits, punctuation, symbols, and the
#: private-use and not-yet-assigned ones (an emoji newer than this Python's tables).
VISIBLE = frozenset("LNPS") | {"Co", "Cn"}

#: Why a name is refused.
EMPTY, INVISIBLE, TOO_LONG = "empty", "invisible", "too_long"


class NameRefused(ValueError):
    """A name that cannot be kept, with a sentence in the player's language; ``reason`` is
    ``INVISIBLE`` or ``TOO_LONG`` (with ``length`` and ``limit``)."""

    def __init__(self, message: str, reason: str, name: str = "", length: int = 0, limit: int = 0):
        super().__init__(message)
        self.reason, self.name, self.length, self.limit = reason, name, length, limit


def tidy(typed: str | None) -> str:
    """``typed`` without control and format characters (the joiners stay), inner spaces
    collapsed, in NFC. Changes nothing one can see."""
    kept = "".join(
        ch for ch in typed or "" if ch in JOINERS or unicodedata.category(ch) not in DROPPED
    )
    return unicodedata.normalize("NFC", " ".join(kept.split()))


def visible(ch: str) -> bool:
    """Whether the character shows something on its own."""
    return ch not in BLANK_LOOKING and (
        unicodedata.category(ch)[0] in VISIBLE or unicodedata.category(ch) in VISIBLE
    )


def clean_name(typed: str | None, limit: int = MAX_NAME) -> str:
    """The name as kept: ``tidy`` text, or "" when nothing but spaces was typed (a field left
    empty). Raises ``NameRefused`` for a name with no visible character or longer than
    ``limit`` characters (counted as kept, so é typed as e + accent counts once)."""
    name = tidy(typed)
    if not name and not (typed or "").strip():
        return ""
    if not any(visible(ch) for ch in name):
        raise NameRefused(
            _("A name needs at least one letter, digit or sign one can see."), INVISIBLE
        )
    if len(name) > limit:
        raise NameRefused(
            _(
                "“%(name)s” has %(length)s characters; a name may have at most %(limit)s.",
                name=name,
                length=len(name),
                limit=limit,
            ),
            TOO_LONG,
            name=name,
            length=len(name),
            limit=limit,
        )
    return name


def name_key(name: str) -> str:
    """What two names are compared by: the same key, the same player (capitals, spaces and
    the way an accent was typed aside)."""
    return unicodedata.normalize("NFC", tidy(name).casefold())

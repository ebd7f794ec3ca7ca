"""Typing a hand: the tile notations of rules.md section 3.

Accepted for one tile (all the same tile): ``3-5``, ``5-3``, ``3/5``, ``3:5``, ``3|5``, ``[3|5]``,
``(3 5)``, ``3x5``, ``three-five``, ``blank-4``, ``4-blank``, ``0-4``, ``double 6``,
``double-six``, ``dbl 6``, ``dbl. 6``, ``double blank``, ``double zero``. Number words run from
zero to eighteen; "blank", "none" and "nil" mean 0; case does not matter. Players typing in
Spanish or French are read too: ``doble 6``, ``doble seis``, ``mula de 6`` (Mexican players call
a double a "mula": ``mula de seises``, ``mula de blancas``), ``double blanc``, ``blanca-4``;
"de" is read only between a double's word and its number. Dashes typed by phones
(en dash, em dash, minus sign) and the multiplication sign count as separators inside a tile, and
spaces around a separator are fine (``3 - 5``). Inside brackets a comma also separates the two
numbers (``(3, 5)``).

Tiles are separated by commas, semicolons, ``+``, new lines or spaces, so
``12-5 3/4 double blank`` is three tiles.

Digits written together (``64``) make a tile only on sets up to double-9; on bigger sets ``112``
could be 1-12 or 11-2, so it is rejected with a hint. A lone number is never paired with its
neighbour: it is an error that asks whether a total was meant. Every error names the offending
piece of text exactly as typed and says why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from scorekeeper.rules.tiles import Tile, check_max_pip, set_name
from scorekeeper.rules.words import _

NUMBER_WORDS: dict[str, int] = {
    "zero": 0,
    "blank": 0,
    "none": 0,
    "nil": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
}
#: The same tiles in Spanish and French, for players who type in their own language:
#: "doble blanca", "double blanc", "doble seis", "double six". French seventeen and eighteen
#: ("dix-sept", "dix-huit") are left out: the dash would read them as a tile, 10-7 and 10-8.
NUMBER_WORDS.update(
    {
        "blanca": 0,
        "blanco": 0,
        "cero": 0,
        "uno": 1,
        "dos": 2,
        "tres": 3,
        "cuatro": 4,
        "cinco": 5,
        "seis": 6,
        "siete": 7,
        "ocho": 8,
        "nueve": 9,
        "diez": 10,
        "once": 11,
        "doce": 12,
        "trece": 13,
        "catorce": 14,
        "quince": 15,
        "dieciséis": 16,
        "dieciseis": 16,
        "diecisiete": 17,
        "dieciocho": 18,
        "blancas": 0,
        "blancos": 0,
        "as": 1,
        "ases": 1,
        "doses": 2,
        "treses": 3,
        "cuatros": 4,
        "cincos": 5,
        "seises": 6,
        "sietes": 7,
        "ochos": 8,
        "nueves": 9,
        "blanc": 0,
        "blanche": 0,
        "blancs": 0,
        "blanches": 0,
        "zéro": 0,
        "un": 1,
        "deux": 2,
        "trois": 3,
        "quatre": 4,
        "cinq": 5,
        "sept": 7,
        "huit": 8,
        "neuf": 9,
        "dix": 10,
        "onze": 11,
        "douze": 12,
        "treize": 13,
        "quatorze": 14,
        "quinze": 15,
        "seize": 16,
    }
)
DOUBLE_WORDS: frozenset[str] = frozenset({"double", "dbl", "dbl.", "doble", "mula"})
#: "mula de 6", "doble de seis": the word between a double's word and its number.
LINK_WORDS: frozenset[str] = frozenset({"de", "del"})
#: Highest set on which digits written together ("64") make a tile.
DIGITS_TOGETHER_MAX_PIP = 9

_TOKEN = re.compile(
    r"""
      (?P<digits>[0-9]+)
    | (?P<word>dbl\.|[^\W\d_]+)
    | (?P<pair>[-/:|\u2010-\u2015\u2212\u00d7])
    | (?P<open>[\[(])
    | (?P<close>[\])])
    | (?P<sep>[,;+\n])
    | (?P<space>\s)
    | (?P<other>.)
    """,
    re.VERBOSE | re.IGNORECASE | re.DOTALL,
)

# Token kinds.
_NUM, _PAIR, _DOUBLE, _LINK, _OPEN, _CLOSE, _SEP, _SPACE, _JUNK = (
    "num",
    "pair",
    "double",
    "link",
    "open",
    "close",
    "sep",
    "space",
    "junk",
)
_CLOSING = {"(": ")", "[": "]"}


class HandError(ValueError):
    """A hand could not be read. ``text`` is the offending piece exactly as typed, ``reason`` says
    why, ``position`` is where the piece starts in the typed text."""

    def __init__(self, text: str, reason: str, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.text = text
        self.reason = reason
        self.message = message
        self.position = position


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    start: int
    end: int
    value: int | None = None
    is_digits: bool = False


_MAX_DIGITS = 6


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    for match in _TOKEN.finditer(text):
        group = match.lastgroup or "other"
        raw = match.group()
        start, end = match.span()
        if group == "digits" and len(raw) > _MAX_DIGITS:
            # No tile is written with this many digits (and int() refuses thousands of them).
            tokens.append(_Token(_JUNK, raw, start, end))
        elif group == "digits":
            tokens.append(_Token(_NUM, raw, start, end, int(raw), is_digits=True))
        elif group == "word":
            word = raw.lower()
            if word in NUMBER_WORDS:
                tokens.append(_Token(_NUM, raw, start, end, NUMBER_WORDS[word]))
            elif word in DOUBLE_WORDS:
                tokens.append(_Token(_DOUBLE, raw, start, end))
            elif word in LINK_WORDS:
                tokens.append(_Token(_LINK, raw, start, end))
            elif word == "x":
                tokens.append(_Token(_PAIR, raw, start, end))
            else:
                tokens.append(_Token(_JUNK, raw, start, end))
        elif group == "pair":
            tokens.append(_Token(_PAIR, raw, start, end))
        elif group == "open":
            tokens.append(_Token(_OPEN, raw, start, end))
        elif group == "close":
            tokens.append(_Token(_CLOSE, raw, start, end))
        elif group == "sep":
            tokens.append(_Token(_SEP, raw, start, end))
        elif group == "space":
            tokens.append(_Token(_SPACE, raw, start, end))
        else:
            tokens.append(_Token(_JUNK, raw, start, end))
    return tokens


def _next_solid(tokens: list[_Token], index: int) -> _Token | None:
    for token in tokens[index + 1 :]:
        if token.kind != _SPACE:
            return token
    return None


def _chunks(tokens: list[_Token]) -> list[list[_Token]]:
    """Split tokens into pieces that should each be one tile.

    Hard separators end a piece (inside brackets only a new line does). A space ends a piece unless
    it is inside brackets, follows "double" or a tile separator such as "-", or comes before one.
    """
    chunks: list[list[_Token]] = []
    current: list[_Token] = []
    depth = 0

    def flush() -> None:
        nonlocal current
        while current and current[-1].kind == _SPACE:
            current.pop()
        if current:
            chunks.append(current)
        current = []

    for index, token in enumerate(tokens):
        if token.kind == _OPEN:
            if depth == 0:
                flush()
            depth += 1
            current.append(token)
        elif token.kind == _CLOSE:
            current.append(token)
            depth = max(0, depth - 1)
            if depth == 0:
                flush()
        elif token.kind == _SEP:
            if depth > 0 and token.text != "\n":
                current.append(token)
            else:
                flush()
                depth = 0
        elif token.kind == _SPACE:
            if not current:
                continue
            solid = [t for t in current if t.kind != _SPACE]
            previous = solid[-1] if solid else None
            following = _next_solid(tokens, index)
            if (
                depth > 0
                or (previous is not None and previous.kind in (_PAIR, _DOUBLE, _LINK))
                or (following is not None and following.kind == _PAIR)
            ):
                current.append(token)
            else:
                flush()
        else:
            current.append(token)
    flush()
    return chunks


class _Reader:
    """Turns one piece of text into one tile, or raises HandError naming it."""

    def __init__(self, source: str, chunk: list[_Token], max_pip: int) -> None:
        self.chunk = chunk
        self.max_pip = max_pip
        self.start = chunk[0].start
        self.piece = source[chunk[0].start : chunk[-1].end]
        self.set_name = set_name(max_pip)

    def fail(self, reason: str, message: str | None = None) -> HandError:
        return HandError(
            self.piece,
            reason,
            message
            if message is not None
            else _('"%(piece)s" %(reason)s', piece=self.piece, reason=reason),
            self.start,
        )

    def number(self, token: _Token) -> int:
        assert token.value is not None
        if token.value > self.max_pip:
            reason = _('"%(number)s" is not on a %(set)s set', number=token.text, set=self.set_name)
            if token.text == self.piece:
                raise self.fail(reason, reason)
            raise self.fail(reason, _('"%(piece)s": %(reason)s', piece=self.piece, reason=reason))
        return token.value

    def read(self) -> Tile:
        tokens = self.chunk
        junk = next((t for t in tokens if t.kind == _JUNK), None)
        if junk is not None:
            if junk.text == self.piece:
                raise self.fail(_("is not a tile"))
            raise self.fail(_('is not a tile: "%(word)s" is not a number', word=junk.text))

        bracketed = tokens[0].kind == _OPEN
        if bracketed:
            if tokens[-1].kind != _CLOSE or tokens[-1].text != _CLOSING[tokens[0].text]:
                raise self.fail(
                    _('is not a tile: the "%(bracket)s" is not closed', bracket=tokens[0].text)
                )
            inner = tokens[1:-1]
            if any(t.kind in (_OPEN, _CLOSE) for t in inner):
                raise self.fail(_("is not a tile: brackets inside brackets"))
            # Inside brackets "(3, 5)" the comma separates the two numbers.
            inner = [_Token(_PAIR, t.text, t.start, t.end) if t.kind == _SEP else t for t in inner]
        else:
            stray = next((t for t in tokens if t.kind in (_OPEN, _CLOSE)), None)
            if stray is not None:
                raise self.fail(
                    _('is not a tile: the "%(bracket)s" has no partner', bracket=stray.text)
                )
            inner = tokens
        inner = [t for t in inner if t.kind != _SPACE]
        kinds = [t.kind for t in inner]

        if not inner:
            raise self.fail(_("is not a tile: it is empty"))
        if _LINK in kinds[:1] or _LINK in kinds[2:] or (_LINK in kinds and kinds[0] != _DOUBLE):
            raise self.fail(_("is not a tile"))
        if kinds[0] == _DOUBLE:
            rest = inner[1:]
            if rest and rest[0].kind in (_PAIR, _LINK):
                rest = rest[1:]
            if len(rest) == 1 and rest[0].kind == _NUM:
                value = self.number(rest[0])
                return Tile(value, value)
            if not rest:
                raise self.fail(_("is not a tile: double what? Write for example double 6"))
            raise self.fail(_("is not a tile: write a double as double 6 or 6-6"))
        if _DOUBLE in kinds:
            raise self.fail(_("is not a tile: write a double as double 6 or 6-6"))
        if kinds == [_NUM, _PAIR, _NUM] or (bracketed and kinds == [_NUM, _NUM]):
            return Tile(self.number(inner[0]), self.number(inner[-1]))
        if kinds == [_NUM]:
            return self.single(inner[0])
        numbers = kinds.count(_NUM)
        if numbers > 2:
            raise self.fail(_("is not a tile: a tile has two numbers"))
        if numbers < 2:
            raise self.fail(_("is not a tile: a number is missing"))
        raise self.fail(_("is not a tile: write a tile as two numbers, like 3-5"))

    def single(self, token: _Token) -> Tile:
        """One number on its own: digits together on small sets, otherwise an error."""
        text = token.text
        value = token.value
        assert value is not None
        if token.is_digits and self.max_pip <= DIGITS_TOGETHER_MAX_PIP and len(text) >= 2:
            if len(text) > 2:
                raise self.fail(_("is not a tile: write two numbers with a dash, like 6-4"))
            halves = [_Token(_NUM, digit, token.start, token.end, int(digit)) for digit in text]
            return Tile(self.number(halves[0]), self.number(halves[1]))
        splits = _splits(text, self.max_pip) if token.is_digits and len(text) >= 2 else []
        if value > self.max_pip:
            if len(splits) >= 2:
                raise self.fail(
                    _(
                        "is ambiguous on a %(set)s set: write %(tiles)s",
                        set=self.set_name,
                        tiles=_or(splits),
                    )
                )
            if len(splits) == 1:
                raise self.fail(
                    _(
                        "is not on a %(set)s set: write %(tile)s for a tile, or did you mean a "
                        "total?",
                        set=self.set_name,
                        tile=splits[0],
                    )
                )
            raise self.fail(
                _(
                    "is not on a %(set)s set, and a single number is not a tile: did you mean "
                    "a total?",
                    set=self.set_name,
                )
            )
        if splits:
            raise self.fail(
                _(
                    "is a single number, not a tile: did you mean a total? For a tile, write "
                    "%(tiles)s.",
                    tiles=_or(splits),
                )
            )
        raise self.fail(_("is a single number, not a tile: did you mean a total?"))


def _or(choices: list[str]) -> str:
    """ "1-12 or 11-2", "1-1-1, 11-1 or 1-11"."""
    if len(choices) == 1:
        return choices[0]
    return _("%(some)s or %(last)s", some=", ".join(choices[:-1]), last=choices[-1])


def _splits(digits: str, max_pip: int) -> list[str]:
    """Ways to cut digits written together into two numbers on the set ("112" -> 1-12, 11-2)."""
    options = []
    for cut in range(1, len(digits)):
        left, right = digits[:cut], digits[cut:]
        if any(len(part) > 1 and part.startswith("0") for part in (left, right)):
            continue
        if int(left) <= max_pip and int(right) <= max_pip:
            options.append(f"{int(left)}-{int(right)}")
    return options


def parse_hand(text: str, max_pip: int = 12) -> list[Tile]:
    """Read the tiles typed for one hand, in the order typed (rules.md 3).

    Every notation of rules.md 3 gives the same tile; "" (or only separators) gives []. Raises
    HandError for the first piece that is not a tile on a double-``max_pip`` set; the error names
    that piece exactly as typed and says why.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_hand expects text, got {type(text).__name__}")
    max_pip = check_max_pip(max_pip)
    tokens = _tokenize(text)
    return [_Reader(text, chunk, max_pip).read() for chunk in _chunks(tokens)]


def format_hand(tiles: Iterable[Tile]) -> str:
    """The canonical text of a hand: "0-4, 3-5" (each tile low-high, in the given order).

    ``parse_hand(format_hand(tiles)) == list(tiles)`` for tiles on the set.
    """
    return ", ".join(str(tile) for tile in tiles)


def tile_label(tile: Tile) -> str:
    """A tile in words for screen readers and explanations: "double 6", "double blank",
    "blank-4", "3-5"."""
    if tile.is_double:
        return _("double blank") if tile.low == 0 else _("double %(number)s", number=tile.low)
    if tile.low == 0:
        return _("blank-%(number)s", number=tile.high)
    return str(tile)

"""The words the rules say to a player, in the player's language.

The rules stay standard-library and still word their own sentences: they write them in English
with ``_`` (and ``ngettext`` for a count), with ``%(name)s`` placeholders, exactly as the rest
of the app writes them with Flask-Babel. ``pybabel extract`` finds them here as it finds them in
the views, so one catalog holds every sentence. At run time the text passes through the
translator the app installs (``install``: Flask-Babel's, so the request's language); without an
app (scripts, the rules' own tests) it stays English.

Why not return message ids or structured values for the web layer to word? A rule's sentence is
made where its facts are (the deal, the start, a refused total); splitting it from them would
put the rules' wording in the views, one step away from the rule it explains. Passing the
translator in keeps the words next to the rule and the rules free of Flask.

Text declared at import time (a rule's label, a deal sheet's name) is wrapped in ``lazy``: it
is translated each time it is shown, in the language of whoever is looking.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

_gettext: Callable[[str], str] = lambda message: message  # noqa: E731
_ngettext: Callable[[str, str, int], str] = lambda singular, plural, n: (  # noqa: E731
    singular if n == 1 else plural
)


def _plain_number(value: Any) -> str:
    return str(value)


_number: Callable[[Any], str] = _plain_number


def _plain_fill(text: str, params: dict[str, Any]) -> str:
    return text % _numbers(params)


_fill: Callable[[str, dict[str, Any]], str] = _plain_fill
_DECIMALS = (float, Decimal)


def install(
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    number: Callable[[Any], str] | None = None,
    fill: Callable[[str, dict[str, Any]], str] | None = None,
) -> None:
    """Word the rules in the request's language: ``gettext(message)`` and
    ``ngettext(singular, plural, n)`` return the translated text, placeholders unfilled;
    ``number(value)`` writes a number as the language does ("17,5"; plain ``str`` without);
    ``fill(text, params)`` puts the params into the text the language's way (French "d’Ana")."""
    global _gettext, _ngettext, _number, _fill
    _gettext, _ngettext, _number = gettext, ngettext, number or _plain_number
    _fill = fill or _plain_fill


def number(value: Any) -> str:
    """A number as the player's language writes it: 17.5 is "17,5" in Spanish and French."""
    return _number(value)


def _numbers(params: dict[str, Any]) -> dict[str, Any]:
    # A decimal put into a sentence is written the language's way ("promedio 17,5").
    return {
        name: _number(value) if type(value) in _DECIMALS else value
        for name, value in params.items()
    }


def _(message: str, **params: Any) -> str:
    """``message`` in the player's language, with ``%(name)s`` placeholders filled (a decimal
    written as the language writes it)."""
    text = _gettext(message)
    return _fill(text, params) if params else text


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The singular or plural sentence for ``n`` (the language's own plural rule), with
    ``%(num)s`` set to ``n`` (written the language's way) and the other placeholders filled."""
    params.setdefault("num", _number(n))
    return _fill(_ngettext(singular, plural, n), params)


class LazyText:
    """English text declared at import time, translated whenever it is turned into text (a
    template, ``str()``, an f-string, a comparison), in the language of that moment."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message

    def __str__(self) -> str:
        return _gettext(self.message)

    def __repr__(self) -> str:
        return f"lazy({self.message!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __html__(self) -> str:
        from html import escape

        return escape(str(self), quote=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyText):
            return self.message == other.message
        return str(self) == other

    def __hash__(self) -> int:
        return hash(self.message)

    def __lt__(self, other: object) -> bool:
        return str(self) < str(other)

    def __len__(self) -> int:
        return len(str(self))

    def __contains__(self, part: object) -> bool:
        return str(part) in str(self)

    def __bool__(self) -> bool:
        return bool(self.message)

    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)

    def __mod__(self, params: Any) -> str:
        return str(self) % params

    def __getattr__(self, name: str) -> Any:
        # str's methods (lower, split, format, startswith ...) on the translated text.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(str(self), name)

    def __json__(self) -> str:
        return str(self)


def lazy(message: str) -> LazyText:
    """``message`` translated each time it is shown (for text declared at import time)."""
    return LazyText(message)


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Mark ``message`` for the catalogs without translating it here: whoever shows it passes
    it through ``_`` (used where a value must stay a plain ``str``, such as a dict key)."""
    return message

"""Text from outside, made harmless where it goes next: into a spreadsheet or into the database.

- Spreadsheet formulas (OWASP "CSV injection"): a cell that starts with ``=``, ``+``, ``-``,
  ``@``, a tab or a carriage return is run by Excel, LibreOffice and Google Sheets. Every CSV
  the app writes puts a ``'`` in front of such a cell (plain numbers like ``-10`` stay numbers),
  and the import takes it off again, so an export imports back exactly as it was.
- Control characters: a NUL cannot be stored by PostgreSQL (SQLite would keep it), and the
  other C0 controls show as nothing or as boxes. Every form value and query value is cleaned of
  them once, when the request is read (see :class:`CleanRequest`), so both databases store the
  same text and the page shows what was stored. Tab, line feed and carriage return stay.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

from flask import Request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.routing import UnicodeConverter

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+([.,][0-9]*)?|[.,][0-9]+)")
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# --------------------------------------------------------------------------------------------
# Spreadsheet cells


def _runs_as_formula(text: str) -> bool:
    # Apostrophes already in front are looked through, so "'=x" is written as "''=x" and
    # imported back as "'=x": the round trip is exact for every text.
    bare = text.lstrip("'")
    return bare.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(bare)


def spreadsheet_cell(value: Any) -> Any:
    """A value as a CSV cell a spreadsheet shows but never runs (OWASP's rule)."""
    if isinstance(value, str) and _runs_as_formula(value):
        return "'" + value
    return value


def from_spreadsheet_cell(text: str) -> str:
    """The text a cell written by :func:`spreadsheet_cell` stood for."""
    if text.startswith("'") and _runs_as_formula(text):
        return text[1:]
    return text


def csv_text(rows: Iterable[Iterable[Any]], lineterminator: str = "\r\n") -> str:
    """Rows as CSV text with every cell neutralised; the one way the app writes CSV."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=lineterminator)
    for row in rows:
        writer.writerow([spreadsheet_cell(value) for value in row])
    return buffer.getvalue()


# --------------------------------------------------------------------------------------------
# Control characters in requests


def clean_text(text: str) -> str:
    """``text`` without NUL and the other C0 control characters (tab and line breaks stay)."""
    return CONTROL_CHARACTERS.sub("", text)


class CleanMultiDict(ImmutableMultiDict):
    """Form and query values without control characters (file uploads are left alone)."""

    def __init__(self, mapping: Any = None) -> None:
        if mapping is None:
            super().__init__()
            return
        items = mapping.items(multi=True) if hasattr(mapping, "items") else mapping
        try:
            cleaned = [
                (clean_text(key), clean_text(value) if isinstance(value, str) else value)
                for key, value in items
            ]
        except TypeError:  # not a list of pairs: let the parent say so
            super().__init__(mapping)
            return
        super().__init__(cleaned)


class CleanRequest(Request):
    """Every text a form or a query string sends passes here before any view sees it."""

    parameter_storage_class = CleanMultiDict


class CleanStringConverter(UnicodeConverter):
    """The default URL part: a control character in a link is a 404, never a database error."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(map, *args, **kwargs)
        self.regex = self.regex.replace("[^/]", "[^/\\x00-\\x1f\\x7f]", 1)


def init_app(app: Any) -> None:
    """Before the blueprints: their URL rules are built with the converter set here."""
    app.request_class = CleanRequest
    app.url_map.converters["default"] = CleanStringConverter
    app.url_map.converters["string"] = CleanStringConverter

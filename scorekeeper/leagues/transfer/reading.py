"""An uploaded file into rows of text, refusing hostile files before they cost memory: a size
cap on the upload, caps on each .zip member, the whole archive and the packing ratio (read from
the zip directory before anything is unpacked), and a line cap while the CSV streams."""

from __future__ import annotations

import csv
import re
import zipfile
from collections.abc import Iterator
from datetime import date

from flask_babel import format_number
from flask_babel import gettext as _

from scorekeeper.web.outside_text import clean_text, from_spreadsheet_cell

MAX_IMPORT_BYTES = 12 * 1024 * 1024  # the uploaded file
MAX_MEMBER_BYTES = 12 * 1024 * 1024  # one file inside a .zip, unpacked
MAX_ARCHIVE_BYTES = 24 * 1024 * 1024  # every file inside a .zip together, unpacked
MAX_RATIO = 100  # unpacked / packed size of a file inside a .zip
RATIO_FROM_BYTES = 1024 * 1024  # small files may shrink as much as they like
MAX_IMPORT_LINES = 300_000  # a busy league's ten years are about 250,000 round scores
# i18n: the import format's column names (and their aliases, yes / no): English and stable
# in every language, so a file exported in any language imports anywhere.
SCORE_COLUMNS = (
    "night",
    "place",
    "table",
    "game",
    "player",
    "guest",
    "round",
    "engine",
    "went_out",
    "on_double",
    "hand",
    "tiles",
    "markers",
    "score",
    "finished",
    "kind",
    "made",
    "open_doubles",
    "start",
    "ended_early",
)
REQUIRED = ("night", "table", "player", "round", "score")
ALIASES = {
    "date": "night",
    "name": "player",
    "points": "score",
    "wentout": "went_out",
    "out": "went_out",
    "ondouble": "on_double",
    "tablename": "table",
    "opendoubles": "open_doubles",
    "doublesleftopen": "open_doubles",
    "gametype": "kind",
    "endedearly": "ended_early",
}
YES = {"yes", "y", "1", "true", "x", "✓", "✔"}
NO = {"no", "n", "0", "false", ""}
MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}


def parse_date(text: str, month_first: bool = False) -> date:
    """2024-01-04, 4/1/2024 (or 1/4/2024 month first), 4.1.24, 4 Jan 2024, January 4, 2024."""
    cleaned = text.strip().lower().replace(",", " ")
    try:
        return date.fromisoformat(cleaned)
    except ValueError:
        pass
    numbers = re.fullmatch(r"(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})", cleaned)
    if numbers:
        a, b, c = (int(part) for part in numbers.groups())
        if len(numbers.group(1)) == 4:
            year, month, day = a, b, c
        else:
            day, month, year = (b, a, c) if month_first else (a, b, c)
            if year < 100:
                year += 2000
        return date(year, month, day)
    words = cleaned.split()
    if len(words) == 3:
        if words[0].isdigit() and words[1].rstrip(".") in MONTHS:
            return date(int(words[2]), MONTHS[words[1].rstrip(".")], int(words[0]))
        if words[1].isdigit() and words[0].rstrip(".") in MONTHS:
            return date(int(words[2]), MONTHS[words[0].rstrip(".")], int(words[1]))
    raise ValueError(text)


def _decode(content: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return content.decode("latin-1")


class TooManyLines(Exception):
    """A file longer than any league's history (or a file of empty lines)."""


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time (no copy of the whole text)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start : end + 1]
        start = end + 1


class _Rows:
    """The rows of a CSV text, read one at a time: every cell cleaned of control characters and
    of the ``'`` an export puts in front of a formula-like cell (scorekeeper.web.outside_text)."""

    def __init__(self, text: str) -> None:
        end = text.find("\n")
        first_line = text[: end if end >= 0 else 2000]
        delimiter = max((",", ";", "\t"), key=first_line.count)
        self._reader = csv.reader(_lines(text), delimiter=delimiter)

    @property
    def line_num(self) -> int:
        return self._reader.line_num

    def __iter__(self) -> Iterator[list[str]]:
        return self

    def __next__(self) -> list[str]:
        row = next(self._reader)
        if self._reader.line_num > MAX_IMPORT_LINES:
            raise TooManyLines
        return [from_spreadsheet_cell(clean_text(cell)) for cell in row]


def _reader(text: str) -> _Rows:
    return _Rows(text)


class ArchiveRefused(Exception):
    """A .zip that is not read: the message says why in plain words."""


def too_many_lines() -> str:
    return _(
        "The file has more than %(n)s lines. Split it into smaller files (a season each) and "
        "import them one after the other.",
        n=format_number(MAX_IMPORT_LINES),
    )


def _archive_sizes(archive: zipfile.ZipFile) -> None:
    """Refuse a zip bomb from its directory, before a single byte is decompressed: each file
    and the whole archive have a size cap, and a file may not shrink more than MAX_RATIO
    times (a league export shrinks about ten times)."""
    total = 0
    for info in archive.infolist():
        total += info.file_size
        if info.file_size > MAX_MEMBER_BYTES:
            raise ArchiveRefused(
                _(
                    "%(file)s in this .zip is too big: at most %(mb)s MB a file.",
                    file=info.filename[:60],
                    mb=MAX_MEMBER_BYTES // 2**20,
                )
            )
        if info.file_size > RATIO_FROM_BYTES and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise ArchiveRefused(
                _(
                    "%(file)s in this .zip is packed too tightly to be a league export.",
                    file=info.filename[:60],
                )
            )
    if total > MAX_ARCHIVE_BYTES:
        raise ArchiveRefused(
            _(
                "This .zip holds too much: at most %(mb)s MB unpacked.",
                mb=MAX_ARCHIVE_BYTES // 2**20,
            )
        )


def _member(archive: zipfile.ZipFile, name: str) -> str:
    """One file of the archive, read in pieces and never beyond its cap (even if the directory
    understated its size)."""
    pieces: list[bytes] = []
    size = 0
    with archive.open(name) as member:
        while piece := member.read(64 * 1024):
            size += len(piece)
            if size > MAX_MEMBER_BYTES:
                raise ArchiveRefused(
                    _(
                        "%(file)s in this .zip is too big: at most %(mb)s MB.",
                        file=name,
                        mb=MAX_MEMBER_BYTES // 2**20,
                    )
                )
            pieces.append(piece)
    return _decode(b"".join(pieces))


def _column(name: str) -> str:
    key = re.sub(r"[\s_\-]+", "", name.strip().lower())
    key = ALIASES.get(key, key)
    return {"wentout": "went_out", "ondouble": "on_double", "endedearly": "ended_early"}.get(
        key, key
    )


def _whole(text: str) -> int | None:
    text = text.strip()
    if re.fullmatch(r"[+-]?\d{1,7}", text):
        return int(text)
    return None

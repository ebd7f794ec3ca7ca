"""One row of a scores CSV read into values, or every reason it cannot be used (the date, the
flags, the engine, a points game's columns)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _

from scorekeeper.leagues import services
from scorekeeper.leagues.transfer.reading import (
    NO,
    YES,
    _whole,
    parse_date,
)
from scorekeeper.rules import (
    HandError,
    HouseRules,
    format_hand,
    parse_hand,
)
from scorekeeper.rules.games import DEFAULT_KIND, VARIANTS, GameVariant, default_game
from scorekeeper.rules.names import NameRefused, clean_name


@dataclass
class _Row:
    """One valid row of a scores CSV, read into values."""

    played_on: date
    table: str
    name: str
    number: int | None  # None: a seat without a round yet (an export's, with a start)
    points: int | None
    game_number: int
    flags: dict[str, bool]
    hand: int | None
    markers: int
    tiles: str | None
    engine: int | None
    open_doubles: int = 0
    kind: str = DEFAULT_KIND
    made: int = 0
    start: int | None = None  # the total the player started the game with (a late joiner)


class _Cells:
    """The cells of one row by column name ("" where the file has no such column)."""

    def __init__(self, at: dict[str, int], row: list[str]) -> None:
        self.at, self.row = at, row

    def __call__(self, name: str) -> str:
        index = self.at.get(name)
        return self.row[index].strip() if index is not None and index < len(self.row) else ""


def _read_date(text: str, month_first: bool, reasons: list[str]) -> date | None:
    try:
        played_on = parse_date(text, month_first)
    except ValueError:
        reasons.append(
            _("“%(text)s” is not a date (use 2024-01-04)", text=text[:30])
            if text
            else _("the night's date is missing")
        )
        return None
    if not date(2000, 1, 1) <= played_on <= date(2100, 12, 31):
        reasons.append(_("the night %(text)s is not between 2000 and 2100", text=text))
        return None
    return played_on


def _read_flags(cell: _Cells, reasons: list[str]) -> dict[str, bool]:
    flags: dict[str, bool] = {}
    for flag in ("guest", "went_out", "on_double", "finished", "ended_early"):
        value = cell(flag).lower()
        if value in YES:
            flags[flag] = True
        elif value in NO:
            # An empty "finished" cell means finished; other empty flags mean no.
            flags[flag] = flag == "finished" and not value
        else:
            reasons.append(
                # The column's name and yes / no stay as the import format writes them.
                _(
                    "%(column)s “%(value)s” should be yes or no",
                    column=flag.replace("_", " "),
                    value=value[:10],
                )
            )
    return flags


def _read_engine(
    cell: _Cells, number: int | None, rules: HouseRules, rounds: int, reasons: list[str]
) -> int | None:
    engine_text = cell("engine")
    if not engine_text:
        if number is not None and number > rounds:
            reasons.append(
                _(
                    "round %(n)s, but this league's games have %(rounds)s rounds",
                    n=number,
                    rounds=rounds,
                )
            )
        return None
    match = re.fullmatch(r"(\d{1,2})(?:\s*[-|/:]\s*(\d{1,2}))?", engine_text)
    if not match or (match.group(2) and match.group(1) != match.group(2)):
        reasons.append(_("the engine “%(text)s” is not a double like 12-12", text=engine_text[:10]))
        return None
    engine = int(match.group(1))
    if engine > rules.max_pip:
        reasons.append(
            _("the engine %(tile)s is not in this league's set", tile=f"{engine}-{engine}")
        )
    return engine


def _read_round_score(
    cell: _Cells, seat_only: bool, reasons: list[str]
) -> tuple[int | None, int | None]:
    """The row's round number and score (none for a seat without a round yet)."""
    number = _whole(cell("round"))
    if not seat_only and (number is None or not 1 <= number <= 100):
        reasons.append(
            _("the round “%(text)s” is not a number from 1 to 100", text=cell("round")[:20])
        )
    points = _whole(cell("score"))
    if seat_only:
        pass
    elif points is None:
        score_text = cell("score")
        reasons.append(
            _("the score “%(text)s” is not a whole number", text=score_text[:20])
            if score_text
            else _("the score is missing")
        )
    elif not -100 <= points <= 5000:
        reasons.append(_("the score %(n)s is not possible", n=points))
    return number, points


def _read_hand(
    cell: _Cells, rules: HouseRules, reasons: list[str]
) -> tuple[int | None, int, str | None]:
    """The row's hand (points left), markers and tiles, each when given."""
    hand = None
    if cell("hand"):
        hand = _whole(cell("hand"))
        if hand is None or hand < 0:
            reasons.append(
                _(
                    "the hand “%(text)s” is not a whole number of 0 or more",
                    text=cell("hand")[:20],
                )
            )
    markers = 0
    if cell("markers"):
        markers_value = _whole(cell("markers"))
        if markers_value is None or not 0 <= markers_value <= 20:
            reasons.append(_("markers should be a number from 0 to 20"))
        else:
            markers = markers_value
    tiles = None
    if cell("tiles"):
        try:
            tiles = format_hand(parse_hand(cell("tiles"), max_pip=rules.max_pip))
        except HandError as error:
            reasons.append(_("tiles: %(problem)s", problem=error))
    return hand, markers, tiles


def _read_start(cell: _Cells, reasons: list[str]) -> int | None:
    """What a late joiner started with, when given."""
    start = None
    if cell("start"):
        start = _whole(cell("start"))
        if start is None or not 0 <= start <= 100_000:
            reasons.append(
                _("the start “%(text)s” is not a whole number from 0", text=cell("start")[:20])
            )
    return start


def _read_row(
    cell: _Cells, rules: HouseRules, rounds: int, month_first: bool
) -> tuple[_Row | None, list[str]]:
    """The values of one row, or every reason it cannot be used. A row of another game than
    Mexican Train (column ``kind``) is read under that game's rules."""
    reasons: list[str] = []
    variant = _variant(cell, reasons)
    if variant is not default_game():
        rules = variant.adopt(rules)
        count = variant.round_count(rules)
        rounds = count if count is not None else 100
    played_on = _read_date(cell("night"), month_first, reasons)
    _read_text(cell("place"), services.MAX_PLACE, "place", reasons)
    table = _read_text(cell("table"), services.MAX_TABLE_NAME, "table", reasons)
    if not cell("table"):
        reasons.append(_("the table is missing"))
    name = _read_name(cell("player"), reasons)
    # An export lists a player seated without a round yet (a table just started, a late
    # joiner before their first round) with a start and no round and score.
    seat_only = bool(cell("start")) and not cell("round") and not cell("score")
    number, points = _read_round_score(cell, seat_only, reasons)
    game_text = cell("game") or "1"
    game_number = _whole(game_text)
    if game_number is None or not 1 <= game_number <= 50:
        reasons.append(_("the game “%(text)s” is not a number like 1 or 2", text=game_text[:20]))
    flags = _read_flags(cell, reasons)
    hand, markers, tiles = _read_hand(cell, rules, reasons)
    if not variant.uses_engines and cell("engine"):
        reasons.append(_("%(game)s has no engine double", game=variant.label))
    engine = _read_engine(cell, number, rules, rounds, reasons)
    open_doubles, made = _read_other_game(cell, variant, reasons)
    start = _read_start(cell, reasons)
    if reasons:
        return None, reasons
    assert played_on is not None and game_number is not None
    row = _Row(
        played_on,
        table,
        name,
        number,
        points,
        game_number,
        flags,
        hand,
        markers,
        tiles,
        engine,
        open_doubles,
        variant.name,
        made,
        start,
    )
    return row, reasons


def _read_name(text: str, reasons: list[str]) -> str:
    """The player's name in the one spelling the app keeps (``rules.names``): never cut, so
    two long names cannot become one player; refused when too long or invisible."""
    try:
        name = clean_name(text, services.MAX_PLAYER_NAME)
    except NameRefused as refused:
        problem = str(refused).rstrip(".")
        reasons.append(_("player: %(problem)s", problem=problem[:1].lower() + problem[1:]))
        return ""
    if not name:
        reasons.append(_("the player's name is missing"))
    return name


def _read_text(text: str, limit: int, column: str, reasons: list[str]) -> str:
    """A table's or a place's name, spaces collapsed; refused (never cut) when longer than
    ``limit``. ``column`` is the import format's column name."""
    cleaned = " ".join(text.split())
    if len(cleaned) > limit:
        reasons.append(
            # The column's name stays as the import format writes it.
            _(
                "%(column)s “%(text)s” has %(length)s characters; at most %(limit)s",
                column=column,
                text=cleaned,
                length=len(cleaned),
                limit=limit,
            )
        )
        return ""
    return cleaned


def _variant(cell: _Cells, reasons: list[str]) -> GameVariant:
    """The game of the row (column ``kind``, as the export writes it): Mexican Train when the
    file does not say."""
    kind = cell("kind").lower() or default_game().name
    if kind not in VARIANTS:
        known = ", ".join(VARIANTS)
        reasons.append(
            _("the game “%(text)s” is not one of %(known)s", text=kind[:20], known=known)
        )
        return default_game()
    return VARIANTS[kind]


def _read_other_game(cell: _Cells, variant: GameVariant, reasons: list[str]) -> tuple[int, int]:
    """The columns of issue 13 that an export writes besides ``kind``: ``open_doubles``
    (doubles left open, 0 to 5) and ``made`` (points made during play, only in a game that
    makes points). Returns both."""
    made = 0
    if cell("made"):
        value = _whole(cell("made"))
        if value is None or not 0 <= value <= 1000:
            reasons.append(
                _(
                    "the points made “%(text)s” are not a number from 0 to 1000",
                    text=cell("made")[:20],
                )
            )
        elif value and not variant.makes_points:
            reasons.append(_("%(game)s makes no points during play", game=variant.label))
        else:
            made = value
    open_doubles = 0
    if cell("open_doubles"):
        value = _whole(cell("open_doubles"))
        if value is None or not 0 <= value <= 5:
            reasons.append(_("doubles left open should be a number from 0 to 5"))
        else:
            open_doubles = value
    return open_doubles, made


def _sentence(reasons: list[str]) -> str:
    text = "; ".join(reasons)
    return text[0].upper() + text[1:] + "."

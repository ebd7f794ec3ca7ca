"""The JSON export read back (issue 36, item 21): the document becomes the rows of scores.csv,
players.csv, seasons.csv and rules.csv the .zip would hold, so both exports import the same
way, checked by the same rules. In a JSON file a line is one player's score in one round,
counted from 2 (line 1 is the columns) in the order the file lists them."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date
from typing import Any

from flask_babel import gettext as _

from scorekeeper.leagues.transfer.export import FORMAT
from scorekeeper.leagues.transfer.reading import SCORE_COLUMNS
from scorekeeper.rules import HouseRules
from scorekeeper.rules.games import DEFAULT_KIND, VARIANTS
from scorekeeper.web.outside_text import csv_text


class NotAnExport(ValueError):
    """A .json file that is not this app's league export; the message says so plainly."""


def _yes(value: Any) -> str:
    return "yes" if value else "no"  # i18n: the import format's flags, English in any language


def _refused() -> NotAnExport:
    return NotAnExport(
        _(
            "This .json file is not a league export of this app. Import the .json or .zip "
            "this app exports, or a CSV file of round scores."
        )
    )


def read_document(
    content: bytes,
) -> tuple[str, list[tuple[str, str, str]], list[tuple[str, date, date]], dict[Any, Any]]:
    """The scores as CSV text, the roster (name, status, merged into), the seasons and each
    game's rules by (night, place, table, game) of a JSON export. Raises ``NotAnExport``."""
    try:
        document = json.loads(content.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refused() from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _refused()
    try:
        return _read(document)
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
        raise _refused() from None


def _game_rows(
    game: dict[str, Any], where: list[Any], kind: str, players: dict[Any, Any]
) -> list[list[Any]]:
    """One game of the document as rows of scores.csv (``where``: its night, place, table and
    number at the table), with a row for each player seated without a round yet."""
    played_on, place, table, number = where
    found: list[list[Any]] = []
    starts = {j["player"]: j["start"] for j in game.get("late_joiners", [])}
    for recorded in game["rounds"]:
        for score in recorded["scores"]:
            player = score["player"]
            found.append(
                [
                    played_on,
                    place,
                    table,
                    number,
                    str(players[player]["name"]),
                    _yes(players[player].get("guest")),
                    recorded["number"],
                    "" if recorded.get("engine") is None else recorded["engine"],
                    _yes(recorded.get("went_out") == player),
                    _yes(recorded.get("on_double")),
                    "" if score.get("hand") is None else score["hand"],
                    score.get("tiles") or "",
                    score.get("markers", 0),
                    score["points"],
                    _yes(game.get("status") == "finished"),
                    kind,
                    score.get("made", 0),
                    score.get("open_doubles", 0),
                    starts.get(player, 0),
                    _yes(game.get("ended_early")),
                ]
            )
    scored = {s["player"] for r in game["rounds"] for s in r["scores"]}
    for player in game["players"]:
        if player not in scored:  # seated, no round yet
            found.append(
                [played_on, place, table, number, str(players[player]["name"]),
                 _yes(players[player].get("guest")), "", "", "no", "no", "", "", "",
                 "", _yes(game.get("status") == "finished"), kind, "", "",
                 starts.get(player, 0), _yes(game.get("ended_early"))]
            )  # fmt: skip
    return found


def _read(
    document: dict[str, Any],
) -> tuple[str, list[tuple[str, str, str]], list[tuple[str, date, date]], dict[Any, Any]]:
    players = {p["id"]: p for p in document["players"]}
    names = {pid: str(p["name"]) for pid, p in players.items()}
    roster = [
        (
            names[pid],
            "merged" if p.get("merged_into") else "guest" if p.get("guest") else "roster",
            names.get(p.get("merged_into"), ""),
        )
        for pid, p in players.items()
    ]
    seasons = [
        (
            str(s["name"]).strip()[:60],
            date.fromisoformat(s["starts_on"]),
            date.fromisoformat(s["ends_on"]),
        )
        for s in document.get("seasons", [])
    ]
    rows: list[list[Any]] = [list(SCORE_COLUMNS)]
    game_rules: dict[Any, Any] = {}
    for night in document["nights"]:
        played_on = date.fromisoformat(night["date"])
        place = str(night.get("place") or "")
        per_table: dict[str, int] = defaultdict(int)
        for game in night["games"]:
            table = str(game.get("table") or "")
            per_table[" ".join(table.split()).casefold()] += 1
            number = per_table[" ".join(table.split()).casefold()]
            kind = str(game.get("kind") or DEFAULT_KIND)
            key = (
                played_on,
                " ".join(place.split()).casefold(),
                " ".join(table.split()).casefold(),
                number,
            )
            if game.get("rules") is not None:
                VARIANTS[kind].deal_plan(2, HouseRules.from_dict(game["rules"]))  # or refused
                game_rules[key] = game["rules"]
            where = [played_on.isoformat(), place, table, number]
            rows.extend(_game_rows(game, where, kind, players))
    return csv_text(rows), roster, seasons, game_rules

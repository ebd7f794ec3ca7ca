"""What a game shows: the scoreboard (worked out by the rules), the result as text and CSV,
and a round in words for the "already saved from another phone" page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from flask_babel import gettext as _

from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.words import round_words
from scorekeeper.models import Game, Round
from scorekeeper.rules import HouseRules
from scorekeeper.rules.games.point_hands import HandResult
from scorekeeper.rules.house import HOUSE_RULES
from scorekeeper.rules.round_check import (
    RoundInput,
)
from scorekeeper.web.i18n import format_day, names_list

# --------------------------------------------------------------------------------------------
# The scoreboard and the end of the game


class Cell(NamedTuple):
    points: int
    hand: int
    tiles: str | None
    markers: int
    made: int  # points made during play (points games)
    went_out: bool
    round_win: bool
    corrected: bool


class BoardRow(NamedTuple):
    number: int
    engine: int | None  # None: a hand of a points game
    blocked: bool
    on_double: bool
    cells: list[Cell | None]  # in seat order; None: the player had not joined yet
    running: list[int]  # running totals after this round, in seat order


class BoardPlayer(NamedTuple):
    position: int
    name: str
    start: int  # the total a late joiner started with (0 for everyone else)
    total: int
    rank: int
    tied: bool
    gap: int
    movement: int  # places gained since the previous round (negative: lost)
    rounds_won: int
    went_out: int
    best: int | None
    worst: int | None
    note: str


# Cells, rows and players are named tuples (a scoreboard of 13 rounds by 8 players has 104
# cells; a tuple is made several times faster than a frozen dataclass, and is as unchangeable,
# which values kept for a game's version must be).


@dataclass(frozen=True)
class Scoreboard:
    players: list[BoardPlayer]  # seat order
    standings: list[BoardPlayer]  # rank order
    rows: list[BoardRow]
    rounds_total: int | None  # None: the table decides when the game ends
    finished: bool
    winners: list[str]
    tie_break: str
    round_word: str = "Round"
    target: int | None = None
    #: A tie-break chain is in play: a tie on the total may have been broken (the winner's
    #: note then says how); under co-winners a tie simply stands.
    breaks_ties: bool = False

    @property
    def series(self) -> list[tuple[str, list[int]]]:
        """Running totals per player, starting at 0, for the chart."""
        return [
            (player.name, [player.start] + [row.running[i] for row in self.rows])
            for i, player in enumerate(self.players)
        ]


def scoreboard(loaded: LoadedGame) -> Scoreboard:
    """Rounds by players, running totals, shared ranks, gaps, movement and round wins: the rules
    work them out (``rules.scoreboard``); this adds the names and what was typed. Made from the
    game's rows (``rows.table``: plain rows, kept per version)."""
    rules, variant = loaded.rules, loaded.variant
    seats, rounds = loaded.rows
    index = {seat.id: i for i, seat in enumerate(seats)}
    names = [seat.name for seat in seats]
    seat_range = range(len(seats))
    by_round = [{index[s.seat_id]: s for s in recorded.scores} for recorded in rounds]
    board = variant.scoreboard(
        len(seats),
        [
            HandResult(
                points=tuple(scores[i].points if i in scores else None for i in seat_range),
                went_out=index[recorded.went_out_seat_id] if recorded.went_out_seat_id else None,
                hands=tuple(scores[i].hand if i in scores else None for i in seat_range),
            )
            for recorded, scores in zip(rounds, by_round, strict=True)
        ],
        rules,
        start=[seat.start_total for seat in seats],
    )
    rows = [
        _board_row(recorded, scores, running, wins, index)
        for recorded, scores, running, wins in zip(
            rounds, by_round, board.running, board.round_wins, strict=True
        )
    ]
    players = [
        BoardPlayer(
            p.seat,
            names[p.seat],
            seats[p.seat].start_total,
            p.total,
            p.rank,
            p.tied,
            p.gap,
            p.movement,
            p.rounds_won,
            p.went_out,
            p.best,
            p.worst,
            p.note,
        )
        for p in board.players
    ]
    return Scoreboard(
        players=players,
        standings=sorted(players, key=lambda p: (p.rank, p.position)),
        rows=rows,
        rounds_total=variant.round_count(rules),
        finished=loaded.game.status == "finished",
        winners=[names[seat] for seat in board.winners],
        tie_break=tie_words(variant.name, rules),
        round_word=variant.round_word,
        target=variant.target(rules),
        breaks_ties=rules.tie_break in ("chain", "zero_rounds"),
    )


def _board_row(
    recorded: Any, scores: dict[int, Any], running: Any, wins: frozenset[int], index: dict[int, int]
) -> BoardRow:
    """One round of the scoreboard: its cells by seat (None: the seat had not joined yet)."""
    out = index.get(recorded.went_out_seat_id) if recorded.went_out_seat_id else None
    cells: list[Cell | None] = []
    for i in range(len(index)):
        score = scores.get(i)
        cells.append(
            None
            if score is None
            else Cell(
                score.points,
                score.hand,
                score.tiles,
                score.markers,
                score.made,
                i == out,
                i in wins,
                score.corrected,
            )
        )
    return BoardRow(
        recorded.number,
        recorded.engine,
        recorded.went_out_seat_id is None,
        recorded.went_out_on_double,
        cells,
        list(running),
    )


def tie_words(game: str, rules: HouseRules) -> str:
    """What the game's tie rule says, in its own words ("Players tied for the highest total
    when the game ends are co-winners"); a choice the game no longer offers (a stored game's)
    reads as its "Rules in play" line does."""
    rule = HOUSE_RULES["tie_break"]
    offered = dict(rule.options_in(game))
    if rules.tie_break in offered:
        return offered[rules.tie_break]
    line = rule.line_in(game, rules) or ""
    # The line says "Ties: ..." (in the player's words): what follows its label.
    _label, said, rest = line.partition(": ")
    return rest if said else line


def game_as_text(loaded: LoadedGame, board: Scoreboard) -> str:
    """A short plain-text summary to paste into a group chat."""
    when = format_day(loaded.game.played_on, "d MMM y")  # "6 Mar 2025", "6 mars 2025"
    label = loaded.variant.label
    words = round_words(board.round_word)
    count = words.of(len(board.rows), board.rounds_total)
    lines = [f"{label}, {when}: {count}"]
    if len(board.winners) == 1:
        lines.append(_("%(name)s wins!", name=board.winners[0]))
    elif board.winners:
        lines.append(_("%(names)s share the win!", names=names_list(board.winners)))
    for player in board.standings:
        tie = "=" if player.tied else ""
        lines.append(
            f"{player.rank}{tie}. {player.name}: {player.total} ({words.won(player.rounds_won)})"
        )
    return "\n".join(lines)


def game_csv_rows(game: Game, board: Scoreboard) -> list[list[str]]:
    """Every round of the game as rows for a CSV file: round, engine (empty in a points game),
    player, hand, tiles, markers, went out, blocked (the round ended with nobody able to play),
    points, running total, corrected, points made during play, and whether this player went
    out on a double (the house rule for it explains the round's points)."""
    rows = [
        [  # i18n: CSV column names (machine-read: they stay English in every language)
            "round",
            "engine",
            "player",
            "hand",
            "tiles",
            "markers",
            "went_out",
            "blocked",
            "points",
            "running_total",
            "corrected",
            "made",
            "went_out_on_double",
        ]
    ]
    for row in board.rows:
        for player, cell, running in zip(board.players, row.cells, row.running, strict=True):
            if cell is None:  # not at the table yet
                continue
            rows.append(
                [
                    str(row.number),
                    "" if row.engine is None else f"{row.engine}-{row.engine}",
                    player.name,
                    str(cell.hand),
                    cell.tiles or "",
                    str(cell.markers),
                    "yes" if cell.went_out else "no",
                    "yes" if row.blocked else "no",
                    str(cell.points),
                    str(running),
                    "yes" if cell.corrected else "no",
                    str(cell.made),
                    "yes" if row.on_double and cell.went_out else "no",
                ]
            )
    return rows


# --------------------------------------------------------------------------------------------
# Two phones: what was saved, what this phone typed, what changed meanwhile


@dataclass(frozen=True)
class SeatLine:
    """One player's part of a round in words, for the "already saved" page."""

    name: str
    hand: str  # the points as typed or saved; "" when not typed
    tiles: str
    went_out: bool


def describe_round(game: Game, recorded: Round) -> list[SeatLine]:
    """A saved round, player by player in seat order."""
    by_seat = {score.seat_id: score for score in recorded.scores}
    return [
        SeatLine(
            name=seat.player.name,
            hand=str(by_seat[seat.id].hand) if seat.id in by_seat else "",
            tiles=(by_seat[seat.id].tiles or "") if seat.id in by_seat else "",
            went_out=recorded.went_out_seat_id == seat.id,
        )
        for seat in game.seats
    ]


def line_differences(saved: list[SeatLine], typed: list[SeatLine]) -> dict[int, list[str]]:
    """Where what a phone typed differs from what was saved, seat by seat (index in seat
    order): the parts that differ, in words ("points", "went out", "tiles")."""
    found: dict[int, list[str]] = {}
    for index, (theirs, mine) in enumerate(zip(saved, typed, strict=False)):
        parts = []
        if theirs.hand != mine.hand:
            parts.append(_("points"))
        if theirs.went_out != mine.went_out:
            parts.append(_("went out"))
        if theirs.tiles.split() != mine.tiles.split():
            parts.append(_("tiles"))
        if parts:
            found[index] = parts
    return found


def describe_input(game: Game, entry: RoundInput) -> list[SeatLine]:
    """What a phone typed for a round, player by player in seat order."""
    typed = {seat.position: seat for seat in entry.seats}
    lines = []
    for seat in game.seats:
        mine = typed.get(seat.position)
        lines.append(
            SeatLine(
                name=seat.player.name,
                hand="" if mine is None or mine.hand is None else str(mine.hand),
                tiles=mine.tiles.strip() if mine else "",
                went_out=entry.went_out == seat.position,
            )
        )
    return lines

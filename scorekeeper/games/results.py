"""A finished game leaves the app: the result card and the print view's values."""

from __future__ import annotations

from datetime import date

from scorekeeper.cards import Card, Entry, make_card, went_out_most
from scorekeeper.games import kept
from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.presentation import Scoreboard
from scorekeeper.models import Game
from scorekeeper.presentation import plural


def played_on(game: Game) -> date:
    """The day the game was played: its night's date at a league table, else the day it
    was started."""
    if game.night_id is not None:
        return game.night.played_on
    return game.created_at.date()


def day_label(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def rounds_line(board: Scoreboard) -> str:
    word = board.round_word.lower()
    played = len(board.rows)
    if board.rounds_total is None:
        return plural(played, word)
    return f"{played} of {board.rounds_total} {word}s"


def rules_line(loaded: LoadedGame) -> str:
    """The rules in play in one line: the first of the game's "Rules in play" lines (the set
    and schedule), then only the rules that differ from this game's book rules."""
    variant = loaded.variant
    lines = list(kept.in_play(loaded))
    book = set(variant.in_play(variant.new_rules()))
    changed = [line for line in lines[1:] if line not in book]
    return "; ".join(lines[:1] + (changed or ["the book's rules"]))


def game_card(loaded: LoadedGame, board: Scoreboard) -> Card:
    """The card of a game: the game and date, the players in final order with their totals,
    the winner marked, rounds won and who went out most, and the rules in play in a line."""
    game, variant = loaded.game, loaded.variant
    word = board.round_word.lower()
    winners = set(board.winners)
    entries = [
        Entry(
            place=p.rank,
            tied=p.tied,
            name=p.name,
            total=str(p.total),
            detail=f"{plural(p.rounds_won, word)} won",
            winner=board.finished and p.name in winners,
        )
        for p in board.standings
    ]
    title = variant.label
    if game.night_id is not None and game.table_name:
        title = f"{variant.label}: {game.table_name}"
    status = "final" if board.finished else "so far"
    subtitle = f"{day_label(played_on(game))} · {rounds_line(board)} · {status}"
    notes = [
        went_out_most([(p.name, p.went_out) for p in board.standings]),
        f"Rules: {rules_line(loaded)}",
    ]
    return make_card(title, subtitle, entries, notes)

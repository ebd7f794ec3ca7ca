"""A finished game leaves the app: the result card and the print view's values."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _

from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.presentation import Scoreboard
from scorekeeper.games.words import round_words
from scorekeeper.models import Game
from scorekeeper.web.i18n import format_day
from scorekeeper.web.result_cards import Card, Entry, make_card, went_out_most


def played_on(game: Game) -> date:
    """The day the game was played: its night's date at a league table, else the day it
    was started."""
    if game.night_id is not None:
        return game.night.played_on
    return game.created_at.date()


def day_label(day: date) -> str:
    """ "25 Nov 2026", in the page's language ("25 nov 2026", "25 nov. 2026")."""
    return format_day(day, "d MMM y")


def rounds_line(board: Scoreboard) -> str:
    return round_words(board.round_word).of(len(board.rows), board.rounds_total)


def rules_line(loaded: LoadedGame) -> str:
    """The rules in play in one line: the first of the game's "Rules in play" lines (the set
    and schedule), then only the rules that differ from this game's book rules."""
    variant = loaded.variant
    lines = list(loaded.variant.describe(loaded.rules))
    book = set(variant.describe(variant.new_rules()))
    changed = [line for line in lines[1:] if line not in book]
    return "; ".join(lines[:1] + (changed or [_("the book's rules")]))


def game_card(loaded: LoadedGame, board: Scoreboard) -> Card:
    """The card of a game: the game and date, the players in final order with their totals,
    the winner marked, rounds won and who went out most, and the rules in play in a line."""
    game, variant = loaded.game, loaded.variant
    words = round_words(board.round_word)
    winners = set(board.winners)
    entries = [
        Entry(
            place=p.rank,
            tied=p.tied,
            name=p.name,
            total=str(p.total),
            detail=words.won(p.rounds_won),
            winner=board.finished and p.name in winners,
        )
        for p in board.standings
    ]
    title = variant.label
    if game.night_id is not None and game.table_name:
        title = f"{variant.label}: {game.table_name}"
    status = _("final") if board.finished else _("so far")
    subtitle = f"{day_label(played_on(game))} · {rounds_line(board)} · {status}"
    notes = [
        went_out_most([(p.name, p.went_out) for p in board.standings]),
        _("Rules: %(rules)s", rules=rules_line(loaded)),
    ]
    return make_card(title, subtitle, entries, notes)

"""A Mexican Train game at one table: setup, table view, round entry, scoreboard, corrections."""

from scorekeeper.games.views import bp

__all__ = ["bp"]

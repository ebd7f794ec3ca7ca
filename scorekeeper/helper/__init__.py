"""The table helper: the quick reference a table uses without creating a game."""

from scorekeeper.helper.views import bp

__all__ = ["bp"]

"""Leagues: the same group over many nights, several tables a night, standings (rules.md 6)."""

from scorekeeper.leagues.views import bp

__all__ = ["bp"]

"""Who may change a game: the device that created it, or a device that typed its edit code
(see scorekeeper.devices). Unlocked games are remembered in the session.
"""

from __future__ import annotations

import hmac

from flask import session

from scorekeeper.devices import is_this_device
from scorekeeper.leagues.access import league_rights
from scorekeeper.models import Game

_UNLOCKED_KEEP = 200  # newest unlocked games a device remembers


def _unlock_key(game: Game) -> str:
    """How the session remembers an edit-code unlock. For a table of a league night it names
    the league's passphrase version too, so a new passphrase voids it (the edit code is shown
    to every phone with the passphrase, and rotated when the passphrase changes)."""
    if game.night_id is None:
        return game.public_id
    return f"{game.public_id}@{game.night.league.passphrase_version}"


def can_edit(game: Game) -> bool:
    """Who may change a game.

    - A game of its own: the device that created it, and devices that typed its edit code.
    - A table of a league night: the organiser and devices with the league's current
      passphrase, and devices that typed the table's edit code since the passphrase last
      changed. Creating the table gives no right of its own there: that right came from the
      passphrase, so a new passphrase takes it away (the organiser keeps it as organiser).
    """
    if game.night_id is not None:
        return league_rights(game.night.league) or _unlock_key(game) in session.get("unlocked", [])
    if is_this_device(game.creator_device):
        return True
    return game.public_id in session.get("unlocked", [])


def unlock(game: Game, code: str) -> bool:
    """Remember the game on this device when ``code`` is its edit code."""
    typed = "".join(ch for ch in code if ch.isalnum()).upper()
    if not hmac.compare_digest(typed.encode(), game.edit_code.encode()):
        return False
    key = _unlock_key(game)
    unlocked = [pid for pid in session.get("unlocked", []) if pid != key]
    unlocked.append(key)
    session["unlocked"] = unlocked[-_UNLOCKED_KEEP:]
    session.permanent = True
    return True

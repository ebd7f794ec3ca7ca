"""Who may change a game: the device that created it, or a device that typed its edit code.

A device is a random token kept in the (signed, long-lived) session cookie; the game stores only
a hash of it. Unlocked games are remembered in the session too.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import session

from scorekeeper.models import Game

_UNLOCKED_KEEP = 200  # newest unlocked games a device remembers


def device_token() -> str:
    """This device's token, created on first use."""
    token = session.get("device")
    if not token:
        token = secrets.token_urlsafe(24)
        session["device"] = token
        session.permanent = True
    return token


def device_hash(token: str | None = None) -> str:
    return hashlib.sha256((token or device_token()).encode()).hexdigest()


def can_edit(game: Game) -> bool:
    """True for the creating device, for devices that entered the edit code, and, for a table
    of a league night, for devices with that league's rights."""
    if "device" in session and hmac.compare_digest(game.creator_device, device_hash()):
        return True
    if game.public_id in session.get("unlocked", []):
        return True
    if game.night_id is not None:
        from scorekeeper.leagues.access import league_rights  # leagues build on games

        return league_rights(game.night.league)
    return False


def unlock(game: Game, code: str) -> bool:
    """Remember the game on this device when ``code`` is its edit code."""
    typed = "".join(ch for ch in code if ch.isalnum()).upper()
    if not hmac.compare_digest(typed.encode(), game.edit_code.encode()):
        return False
    unlocked = [pid for pid in session.get("unlocked", []) if pid != game.public_id]
    unlocked.append(game.public_id)
    session["unlocked"] = unlocked[-_UNLOCKED_KEEP:]
    session.permanent = True
    return True

"""Who may do what in a league.

- The organiser is the device that created the league (the league keeps a hash of its token,
  like ``Game.creator_device``). Only the organiser changes the settings, the passphrase and the
  public page.
- A device that typed the passphrase (or opened a join link from the organiser's QR code) has
  league rights: it may run nights, seat tables, keep score at every table of the league's
  nights, manage the roster, import and export. The session remembers the league's code with
  the ``passphrase_version`` it was unlocked under; changing the passphrase bumps the version,
  so every other device loses its rights at once.
- Everyone else may read only the public page, when the organiser has turned it on.
"""

from __future__ import annotations

import hmac
from typing import Any

from flask import current_app, session
from itsdangerous import BadSignature, URLSafeTimedSerializer

from scorekeeper.games.access import device_hash
from scorekeeper.models import League

SESSION_KEY = "leagues"
_KEEP = 50  # leagues a device remembers
JOIN_LINK_DAYS = 3


def is_organiser(league: League) -> bool:
    return "device" in session and hmac.compare_digest(league.organiser_device, device_hash())


def league_rights(league: League) -> bool:
    """True for the organiser and for devices that unlocked the league's current passphrase."""
    if is_organiser(league):
        return True
    remembered: dict[str, Any] = session.get(SESSION_KEY, {})
    return remembered.get(league.code) == league.passphrase_version


def grant(league: League) -> None:
    """Remember on this device that it may keep score for ``league``."""
    remembered = {
        code: version
        for code, version in session.get(SESSION_KEY, {}).items()
        if code != league.code
    }
    remembered[league.code] = league.passphrase_version
    session[SESSION_KEY] = dict(list(remembered.items())[-_KEEP:])
    session.permanent = True


def forget(league: League) -> None:
    remembered = dict(session.get(SESSION_KEY, {}))
    remembered.pop(league.code, None)
    session[SESSION_KEY] = remembered


def remembered_codes() -> list[str]:
    return list(session.get(SESSION_KEY, {}))


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="league-join")


def join_token(league: League, night_id: int | None = None) -> str:
    """A signed join link for the organiser's QR code: it stands for the passphrase, is tied to
    the current passphrase version (a new passphrase voids it) and lasts a few days."""
    return _serializer().dumps({"l": league.code, "v": league.passphrase_version, "n": night_id})


def read_join_token(league: League, token: str) -> tuple[bool, int | None]:
    """(valid, night id) for a join link of ``league``."""
    try:
        data = _serializer().loads(token, max_age=JOIN_LINK_DAYS * 24 * 3600)
    except BadSignature:
        return False, None
    if not isinstance(data, dict) or data.get("l") != league.code:
        return False, None
    if data.get("v") != league.passphrase_version:
        return False, None
    night = data.get("n")
    return True, night if isinstance(night, int) else None


def _organiser_serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="league-organiser")


def organiser_token(league: League) -> str:
    """A link for the server's owner (``flask organiser-link``) that makes the phone opening it
    the organiser. Tied to the current organiser, so it works once, and for a day."""
    return _organiser_serializer().dumps({"l": league.code, "o": league.organiser_device[:16]})


def read_organiser_token(league: League, token: str) -> bool:
    try:
        data = _organiser_serializer().loads(token, max_age=24 * 3600)
    except BadSignature:
        return False
    return (
        isinstance(data, dict)
        and data.get("l") == league.code
        and data.get("o") == league.organiser_device[:16]
    )

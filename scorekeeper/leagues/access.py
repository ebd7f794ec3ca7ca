"""Who may do what in a league: three rights, each a superset of the one before.

- **Reading** (a member): the standings, nights, players, seasons and the downloads. A phone
  gets it from the members' link (shown on every league phone, also on a league table's game
  pages, but only to a phone that may read the league: a share link or a table's edit code
  gives no league right), a signed link tied to the passphrase version, so a new passphrase
  also makes a new link.
- **Keeping score at a table** (the passphrase, or the join QR code on a night's page): reading,
  plus every table of the league's nights (games/access.py asks ``league_rights``). The session
  remembers the league's code with the ``passphrase_version`` it was unlocked under; changing
  the passphrase bumps the version, so every other phone loses its rights at once.
- **Running the league** (the organiser: the device that created the league, whose token the
  league keeps hashed like ``Game.creator_device``): nights and their tables, the roster,
  seasons, import, the settings, the passphrase and the public page.

Everyone else may read only the public page, when the organiser has turned it on.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import current_app, session
from itsdangerous import BadData, BadSignature, URLSafeSerializer, URLSafeTimedSerializer

from scorekeeper.models import League
from scorekeeper.web.devices import is_this_device

SESSION_KEY = "leagues"
READERS_KEY = "league_readers"
_KEEP = 50  # leagues a device remembers
JOIN_LINK_DAYS = 3


def is_organiser(league: League) -> bool:
    return is_this_device(league.organiser_device)


def league_rights(league: League) -> bool:
    """May keep score at the league's tables: the organiser and devices that unlocked the
    league's current passphrase."""
    if is_organiser(league):
        return True
    remembered: dict[str, Any] = session.get(SESSION_KEY, {})
    return remembered.get(league.code) == league.passphrase_version


def can_read(league: League) -> bool:
    """May read the league's pages: anyone who may keep score, and devices that opened the
    current members' link."""
    if league_rights(league):
        return True
    return session.get(READERS_KEY, {}).get(league.code) == league.passphrase_version


def level(league: League) -> str:
    """This device's right in ``league``: "organiser", "scorer", "reader" or ""."""
    if is_organiser(league):
        return "organiser"
    if league_rights(league):
        return "scorer"
    return "reader" if can_read(league) else ""


def may_start_table_game(league: League, played_on: date, today: date) -> bool:
    """May start another game at a table of a night ("Play again with the same players"): the
    organiser at any night; a phone with the passphrase only at tonight's night (a table plays
    on, the organiser need not walk over), never at a past night, where a stray game would
    land in history. A table's edit code alone gives no such right."""
    if is_organiser(league):
        return True
    return league_rights(league) and played_on == today


def passphrase_changed(league: League) -> bool:
    """This phone had a right in ``league`` (the passphrase or the members' link) under an
    older passphrase: the organiser has changed it since."""
    for key in (SESSION_KEY, READERS_KEY):
        version = session.get(key, {}).get(league.code)
        if isinstance(version, int) and version != league.passphrase_version:
            return True
    return False


def grant_reading(league: League) -> None:
    """Remember on this device that it may read ``league`` (the members' link)."""
    remembered = {
        code: version
        for code, version in session.get(READERS_KEY, {}).items()
        if code != league.code
    }
    remembered[league.code] = league.passphrase_version
    session[READERS_KEY] = dict(list(remembered.items())[-_KEEP:])
    session.permanent = True


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
    for key in (SESSION_KEY, READERS_KEY):
        remembered = dict(session.get(key, {}))
        remembered.pop(league.code, None)
        session[key] = remembered


def remembered_codes() -> list[str]:
    codes = list(session.get(SESSION_KEY, {}))
    return codes + [code for code in session.get(READERS_KEY, {}) if code not in codes]


def _members_serializer() -> URLSafeSerializer:
    """Untimed: the link does not expire, so it carries no time and stays the same link (and
    the same printed QR code) until the passphrase changes."""
    return URLSafeSerializer(current_app.secret_key or "", salt="league-members")


def _old_members_serializer() -> URLSafeTimedSerializer:
    """Members' links handed out before they stopped carrying a time still work."""
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="league-members")


def members_token(league: League) -> str:
    """The members' link: read-only, for everyone in the club. It does not expire; a new
    passphrase replaces it (and signs out the phones that used the old one)."""
    return _members_serializer().dumps({"l": league.code, "v": league.passphrase_version})


def read_members_token(league: League, token: str) -> bool:
    try:
        data = _members_serializer().loads(token)
    except BadData:
        try:
            data = _old_members_serializer().loads(token)
        except BadData:
            return False
    return (
        isinstance(data, dict)
        and data.get("l") == league.code
        and data.get("v") == league.passphrase_version
    )


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

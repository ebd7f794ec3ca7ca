"""Who may change a game: the device that created it, or a device that typed its edit code
(see scorekeeper.web.devices). Edit-code rights are remembered in the (signed) session, each with
the fingerprint of the code it was given for and when it was last used:

- a new edit code (the creator's "Change the edit code", a league's new passphrase) ends every
  right the old one gave, because the fingerprint no longer matches;
- a right lasts ``EDIT_RIGHT_HOURS`` after it was last used (a game night), and every editor
  page or write renews it; the creator's own right is the phone itself and does not lapse.

Forgetting (a game, or a league and its tables) drops the rights and leaves a note in the
session for the next page, which tells static/js/offline.js which games' kept pages, drafts
and unsent rounds to clear from the phone (``take_purge``).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Sequence

from flask import current_app, request, session
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games.league_tables import is_organiser, league_rights
from scorekeeper.games.setup import new_edit_code
from scorekeeper.models import Game, League, Night
from scorekeeper.web.devices import is_this_device

RIGHTS_KEY = "edit_rights"  # {public id: [code fingerprint, last used (Unix seconds)]}
_OLD_KEY = "unlocked"  # before rights lapsed: a list of ids, never honoured again
PURGE_KEY = "purge"  # {"g": [public ids], "l": [league codes]} for the next page
EDIT_RIGHT_HOURS = 12
# A right is written back (renewed) at most this often, so a page view does not rewrite the
# cookie every time; a right so lasts between 12 h and 12 h less these 10 minutes from last use.
RENEW_AFTER_SECONDS = 10 * 60
_KEEP = 40  # rights a device remembers at most, the least recently used dropped first (cookie size)


def now() -> float:
    """The clock rights are measured with (tests move it)."""
    return time.time()


def _fingerprint(game: Game) -> str:
    """Stands for the game's current edit code in the session (signed but readable by the
    phone): keyed with the app's secret, so it gives nothing away about the code."""
    key = (current_app.secret_key or "").encode()
    message = f"{game.public_id}:{game.edit_code}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:16]


def _rights() -> dict[str, list]:
    rights = session.get(RIGHTS_KEY, {})
    return rights if isinstance(rights, dict) else {}


def _save(rights: dict[str, list]) -> None:
    """Store the rights that have not lapsed, the most recently used last."""
    oldest = now() - EDIT_RIGHT_HOURS * 3600
    kept = sorted(
        ((pid, right) for pid, right in rights.items() if right[1] >= oldest),
        key=lambda item: item[1][1],
    )
    session[RIGHTS_KEY] = dict(kept[-_KEEP:])
    session.pop(_OLD_KEY, None)
    session.permanent = True


def _right_state(game: Game) -> str:
    """This phone's edit-code right to ``game``: "ok", "lapsed", "changed" or ""."""
    right = _rights().get(game.public_id)
    if not right:
        return ""
    fingerprint, used = right
    if not hmac.compare_digest(str(fingerprint), _fingerprint(game)):
        return "changed"
    if now() - used > EDIT_RIGHT_HOURS * 3600:
        return "lapsed"
    return "ok"


def _has_code_right(game: Game) -> bool:
    """A current edit-code right, renewed as it is used."""
    if _right_state(game) != "ok":
        return False
    rights = dict(_rights())
    if now() - rights[game.public_id][1] > RENEW_AFTER_SECONDS:
        rights[game.public_id] = [rights[game.public_id][0], int(now())]
        _save(rights)
    return True


def can_edit(game: Game) -> bool:
    """Who may change a game.

    - A game of its own: the device that created it (for good), and devices that typed its
      current edit code and used the right in the last ``EDIT_RIGHT_HOURS``.
    - A table of a league night: the organiser and devices with the league's current
      passphrase, and devices with an edit-code right as above (a new passphrase gives the
      tables new codes, so it ends those too). Creating the table gives no right of its own
      there: that right came from the passphrase.
    """
    if game.night_id is not None:
        return league_rights(game.night.league) or _has_code_right(game)
    if is_this_device(game.creator_device):
        return True
    return _has_code_right(game)


def on_this_phone(game: Game) -> bool:
    """Whether the start page lists ``game`` among this phone's games (the phone started it):
    a game of its own always; a league table only while the phone keeps score for it (the
    league's rights, or a current edit code), so signing the phone out of the league or of the
    game takes it off the start page too. Renews nothing."""
    if game.night_id is None:
        return True
    return league_rights(game.night.league) or _right_state(game) == "ok"


def edit_code_right_only(game: Game) -> bool:
    """This phone may change the game only because it typed the edit code (so forgetting the
    game takes its right away)."""
    if game.night_id is not None:
        return not league_rights(game.night.league) and _right_state(game) == "ok"
    return not is_this_device(game.creator_device) and _right_state(game) == "ok"


def lapsed_right(game: Game) -> str:
    """Why a right this phone had to ``game`` is gone: "lapsed" (unused too long), "changed"
    (a new edit code) or "" (none, or still good)."""
    state = _right_state(game)
    return state if state in ("lapsed", "changed") else ""


def unlock(game: Game, code: str) -> bool:
    """Remember the game on this device when ``code`` is its edit code."""
    typed = "".join(ch for ch in code if ch.isalnum()).upper()
    if not hmac.compare_digest(typed.encode(), game.edit_code.encode()):
        return False
    grant(game)
    return True


def grant(game: Game) -> None:
    """Give this device the edit-code right to ``game`` (its code typed, or the table's next
    game started with the right to the table's game before)."""
    rights = {pid: right for pid, right in _rights().items() if pid != game.public_id}
    rights[game.public_id] = [_fingerprint(game), int(now())]
    _save(rights)


# --------------------------------------------------------------------------------------------
# Changing the edit code


def may_change_code(game: Game) -> bool:
    """The creator's phone changes a game's edit code; for a table of a league night, the
    organiser's (the passphrase's phones get new codes with a new passphrase)."""
    if game.night_id is not None:
        return is_organiser(game.night.league)
    return is_this_device(game.creator_device)


def change_code(game: Game) -> str:
    """Give the game a new edit code: every right the old one gave ends at once (their
    fingerprint no longer matches). Returns the new code."""
    old = game.edit_code
    while game.edit_code == old:
        game.edit_code = new_edit_code()
    db.session.flush()
    return game.edit_code


# --------------------------------------------------------------------------------------------
# Forgetting: rights gone, and the phone told to clear what it kept


def forget_game(game: Game) -> None:
    """Drop this phone's edit-code right to ``game`` and have its kept pages, drafts and
    unsent rounds cleared from the phone."""
    rights = {pid: right for pid, right in _rights().items() if pid != game.public_id}
    _save(rights)
    _purge_later(games=[game.public_id])


def forget_league_games(league: League) -> None:
    """After the phone forgot ``league``: drop its edit-code rights to the league's tables and
    have everything the phone kept of them cleared."""
    ids = set(_league_game_ids([league.code]))
    _save({pid: right for pid, right in _rights().items() if pid not in ids})
    _purge_later(leagues=[league.code])


def _purge_later(games: Sequence[str] = (), leagues: Sequence[str] = ()) -> None:
    purge = session.get(PURGE_KEY) or {}
    session[PURGE_KEY] = {
        "g": list(dict.fromkeys([*purge.get("g", []), *games]))[-50:],
        "l": list(dict.fromkeys([*purge.get("l", []), *leagues]))[-10:],
    }


def _league_game_ids(codes: list[str]) -> list[str]:
    if not codes:
        return []
    return list(
        db.session.scalars(
            select(Game.public_id)
            .join(Night, Game.night_id == Night.id)
            .join(League, Night.league_id == League.id)
            .where(League.code.in_(codes))
            .order_by(Game.id.desc())
        )
    )


def take_purge() -> list[str]:
    """The games whose copies the phone is to clear, once (the page that shows them tells
    offline.js); [] on every other page. A league's games are all its tables, newest first.
    Only a page the phone navigates to takes it: a page fetched by a script (the service
    worker keeping a copy, live.js) is never where offline.js looks for it."""
    if PURGE_KEY not in session or request.headers.get("Sec-Fetch-Mode", "navigate") != "navigate":
        return []
    purge = session.pop(PURGE_KEY) or {}
    ids = [*purge.get("g", []), *_league_game_ids(list(purge.get("l", [])))]
    # Still this phone's to change (signed in again since): nothing of them is cleared.
    return [pid for pid in dict.fromkeys(ids) if pid not in _rights()]

"""Rate limits, keyed by what is tried (a game, a league) and by who tries (the client address).

Flask-Limiter keeps the counts in ``RATELIMIT_STORAGE_URI``: ``memory://`` by default (one
process; a restart forgets), ``redis://host:6379`` to share them between server processes and
keep them over a restart. The client address is ``request.remote_addr``; behind a reverse proxy
set ``TRUSTED_PROXIES`` so it is the phone's address and not the proxy's (see config.py).

Keys hold a target and a client, so ten wrong edit codes for one game lock that game for that
address only: the rest of the club on the same Wi-Fi can still unlock other games, and other
addresses can still unlock this one.
"""

from __future__ import annotations

from flask import current_app, request
from limits import parse

from scorekeeper.extensions import limiter

EDIT_CODE_LIMIT = "10 per minute"  # wrong edit codes, per game and address
PASSPHRASE_LIMIT = "10 per minute"  # wrong passphrases or join links, per league and address
JOIN_LIMIT = "20 per minute"  # league codes typed on the join form, per address
LOOKUP_LIMIT = "30 per minute"  # links to leagues that do not exist, per address
PHOTO_LIMIT = "12 per minute"  # photos read, per address (each costs a second of CPU)

BUSY_PHOTOS = "Too many photos from this phone in a short time. Wait a minute, then try again."


def client() -> str:
    """Who asks: the client address (made right by ProxyFix behind a trusted proxy)."""
    return request.remote_addr or "unknown"


def _target(name: str) -> str:
    value = (request.view_args or {}).get(name)
    return str(value) if value is not None else ""


def game_and_client() -> str:
    return f"{_target('public_id')}|{client()}"


def league_and_client() -> str:
    """The league named by the address, or by the code typed on the join form."""
    code = _target("code")
    if not code:
        typed = request.form.get("code", "")
        code = "".join(ch for ch in typed if ch.isalnum()).upper()[:12]
    return f"{code}|{client()}"


def refused(response: object) -> bool:
    """Only attempts that did not get in count (a success is a redirect)."""
    return getattr(response, "status_code", 200) != 302


def _enabled() -> bool:
    return bool(current_app.config.get("RATELIMIT_ENABLED", True))


class Budget:
    """A limit checked and spent by hand, where a decorator cannot tell what to count: a
    league code that does not exist, a photo read on the round form."""

    def __init__(self, name: str, limit: str) -> None:
        self.name = name
        self.limit = parse(limit)

    def left(self, key: str) -> bool:
        return not _enabled() or limiter.limiter.test(self.limit, self.name, key)

    def spend(self, key: str) -> bool:
        """Count one; False when the budget was already used up."""
        return not _enabled() or limiter.limiter.hit(self.limit, self.name, key)


lookups = Budget("league-lookup", LOOKUP_LIMIT)
photo_reads = Budget("photo-read", PHOTO_LIMIT)

"""Rate limits, keyed by what is tried (a game, a league) and by who tries (the client address).

Flask-Limiter keeps the counts in ``RATELIMIT_STORAGE_URI``: ``memory://`` by default (one
process; a restart forgets), ``redis://host:6379`` to share them between server processes and
keep them over a restart. The client address is ``request.remote_addr``; behind a reverse proxy
set ``TRUSTED_PROXIES`` so it is the phone's address and not the proxy's (see config.py).

Keys hold a target and a client, so ten wrong edit codes for one game lock that game for that
address only: the rest of the club on the same Wi-Fi can still unlock other games, and other
addresses can still unlock this one.

A target is named as the database finds it, not as the address spells it: ``/leagues/7hRVDB``
finds league 7HRVDB, so every spelling of a code spends one budget (and a game by its stored
public id). Over the per-address budgets, a **cap per league (and per game) from every address
together** stops a guesser with many addresses; the phones that meet it are told so in plain
words. A phone that already holds the right it would guess (the organiser's phone, recognised
by its device token; a phone with the league's current passphrase; a game's creator) is never
counted nor stopped: the organiser is never locked out of their own league. See
docs/security.md for why these limits and the passphrase minimum hold.

The keys that look a game or a league up live with them (``games.guess_limits``,
``leagues.views.common.holds_the_league``): this module is below both and imports neither.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from flask import current_app, g, request
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_limiter import RequestLimit
from limits import parse

from scorekeeper.extensions import limiter

EDIT_CODE_LIMIT = "10 per minute"  # wrong edit codes, per game and address
PASSPHRASE_LIMIT = "10 per minute"  # wrong passphrases or join links, per league and address
JOIN_LIMIT = "20 per minute"  # league codes typed on the join form, per address
LOOKUP_LIMIT = "30 per minute"  # links to leagues that do not exist, per address
PHOTO_LIMIT = "12 per minute"  # photos read, per address (each costs a second of CPU)
# Wrong passphrases for one league, or wrong edit codes for one game, from every address
# together. A whole club mistyping on a game night stays far below it; a guesser gets at most
# 100 a day, 36,500 a year (docs/security.md: against that, the passphrase minimum).
GUESS_CAP = "40 per hour;100 per day"  # i18n: a limit (Flask-Limiter)

# Work that costs the server: per address, and from every address together (a guesser with
# many addresses, or many phones at once, cannot take the server's CPU or disk).
NEW_LEAGUE_LIMIT = "10 per hour"  # leagues started, per address (each costs ~0.1 s of scrypt)
ALL_NEW_LEAGUES = "200 per hour"  # leagues started, every address together
NEW_GAME_LIMIT = "60 per hour"  # games started (or played again), per address: a club night
ALL_NEW_GAMES = "1000 per hour"  # games started, every address together
# Import previews (a big file costs seconds of CPU): only the organiser's count, per league, per
# phone and per address; never from every address together, where a refused phone or another
# club's organiser would spend everyone's (issue 36 item 19). The work is bounded all the same:
# only a league's organiser may preview, and leagues are limited above.
IMPORT_LIMIT = "20 per hour"

BUSY_PHOTOS = _l("Too many photos from this phone in a short time. Wait a minute, then try again.")


def client() -> str:
    """Who asks: the client address (made right by ProxyFix behind a trusted proxy)."""
    return request.remote_addr or "unknown"


def target(name: str) -> str:
    """The value ``name`` of the address (its view arguments), or ""."""
    value = (request.view_args or {}).get(name)
    return str(value) if value is not None else ""


def league_code() -> str:
    """The league named by the address, or by the code typed on the join form, as the
    database finds it (``leagues.setup.load_league``: capitals do not matter)."""
    code = target("code")
    if not code:
        typed = request.form.get("code", "")
        code = "".join(ch for ch in typed if ch.isalnum())[:12]
    return code.upper()


def league_and_client() -> str:
    return f"{league_code()}|{client()}"


def league_cap_key() -> str:
    return f"league:{league_code()}"


def everyone() -> str:
    """One key for every address: the limits on the server's work as a whole."""
    return "everyone"


def explain(sentence: object) -> Callable[[RequestLimit], None]:
    """An ``on_breach`` for a limit whose phones are told ``sentence`` (its ``%(wait)s`` filled
    in with the time until the limit lets them again) instead of the plain "Too many tries"."""

    def breached(limit: RequestLimit) -> None:
        earlier = g.get("limit_message", ("", 0))[1]
        g.limit_message = (sentence, max(limit.reset_at, earlier))

    return breached


def refused(response: object) -> bool:
    """Only attempts that did not get in count (a success is a redirect)."""
    return getattr(response, "status_code", 200) != 302


def made(response: object) -> bool:
    """Only what was made counts (a league, a game: a redirect to it), not a refused form."""
    return getattr(response, "status_code", 200) == 302


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


# What the phones stopped by these limits are told (``explain``); %(wait)s is the time until
# the limit lets them again. Lazy: each phone reads them in its own language.
LEAGUE_CAP = _l(
    "Too many wrong passphrases for this league from everywhere; try again in %(wait)s. "
    "Someone may be guessing it. The organiser's phone is not stopped: it can let this phone "
    "in with the QR code on a night's page."
)
BUSY_NEW_LEAGUES = _l(
    "Too many new leagues from this address in the last hour; try again in %(wait)s. "
    "The leagues already started are kept."
)
BUSY_ALL_NEW_LEAGUES = _l(
    "Many leagues are being started on this server just now; try again in %(wait)s."
)
BUSY_NEW_GAMES = _l(
    "Too many new games from this address in the last hour; try again in %(wait)s. "
    "The games already started are kept and can be played."
)
BUSY_ALL_NEW_GAMES = _l(
    "Many games are being started on this server just now; try again in %(wait)s."
)
BUSY_IMPORTS = _l(
    "Too many files checked for import from this address in the last hour; try again in "
    "%(wait)s. Nothing was imported."
)
BUSY_LEAGUE_IMPORTS = _l(
    "Too many files checked for import in this league or on this phone in the last hour; try "
    "again in %(wait)s. Nothing was imported."
)
GAME_CAP = _l(
    "Too many wrong edit codes for this game from everywhere; try again in %(wait)s. "
    "Someone may be guessing it. The phone that keeps score is not stopped."
)


def limit_message() -> str | None:
    """What the phones stopped by a limit with its own sentence (``explain``) are told, with
    the wait; None when no such limit stopped this request."""
    if "limit_message" not in g:
        return None
    sentence, reset = g.limit_message
    minutes = max(1, math.ceil((reset - time.time()) / 60))
    if minutes < 120:
        wait = ngettext("a minute", "%(num)s minutes", minutes)
    else:
        wait = ngettext("%(num)s hour", "%(num)s hours", round(minutes / 60))
    return str(sentence) % {"wait": wait}

"""Which phone is this: a random token kept in the (signed, long-lived) session cookie.

Games and leagues store only a hash of it (the creator of a game, the organiser of a league).
Both access modules use this one; neither imports the other for it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import session


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


def is_this_device(stored_hash: str | None) -> bool:
    """Whether ``stored_hash`` names this phone (without creating a token for a new phone)."""
    return (
        bool(stored_hash)
        and "device" in session
        and hmac.compare_digest(stored_hash, device_hash())
    )

"""Security headers on every answer, and a session cookie that is Secure on HTTPS.

A strict ``default-src 'self'`` Content-Security-Policy (no inline script or style anywhere),
no sniffing, no framing, same-origin referrers, and HSTS when served over HTTPS.
"""

from __future__ import annotations

from flask import Flask, Response, has_request_context, request
from flask.sessions import SecureCookieSessionInterface

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)  # i18n: HTTP header


def init_app(app: Flask) -> None:
    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if served_over_https(app):
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        return response

    app.session_interface = HttpsAwareSessions()


# A year; no includeSubDomains: other sites may share the domain.
HSTS = "max-age=31536000"  # i18n: HTTP header


def served_over_https(app: Flask) -> bool:
    """HTTPS when the request came over it (X-Forwarded-Proto counts only from a trusted
    proxy) or when the HTTPS setting says so."""
    return bool(app.config.get("HTTPS")) or (has_request_context() and request.is_secure)


class HttpsAwareSessions(SecureCookieSessionInterface):
    """The session cookie (it proves which phone may keep score) is Secure on HTTPS, so it is
    never sent over plain HTTP. It lasts PERMANENT_SESSION_LIFETIME (400 days, the longest a
    browser keeps a cookie): a table phone stays signed in for a season."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or served_over_https(app)

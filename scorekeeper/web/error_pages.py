"""Error pages in plain words; a 500 rolls the session back first."""

from __future__ import annotations

from flask import Flask, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, SecurityError

from scorekeeper.extensions import db
from scorekeeper.web import rate_limits

MESSAGES = {
    400: (_l("Something in that request was not right"), _l("Please go back and try again.")),
    403: (_l("This is not yours to change"), _l("Ask the scorekeeper for the edit code.")),
    404: (_l("Page not found"), _l("The link may be old or mistyped.")),
    405: (_l("That did not work"), _l("Please use the buttons on the page.")),
    413: (_l("That file is too big"), _l("Photos can be up to 15 MB. Try a smaller photo.")),
    429: (_l("Too many tries"), _l("Please wait a minute and try again.")),
}


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):  # type: ignore[no-untyped-def]
        return (
            render_template(
                "error.html",
                code=400,
                title=_("This form has expired"),
                detail=_("Nothing was saved. Go back, reload the page and send it again."),
            ),
            400,
        )

    @app.errorhandler(SecurityError)
    def host_refused(error: SecurityError):  # type: ignore[no-untyped-def]
        # A Host not on TRUSTED_HOSTS: Flask builds no link for it, so a page without links.
        title = str(MESSAGES[400][0])
        return title, 400, {"Content-Type": "text/plain; charset=utf-8"}  # i18n: HTTP header

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):  # type: ignore[no-untyped-def]
        code = error.code or 500
        title, detail = MESSAGES.get(code, (error.name, error.description or ""))
        if code == 429:
            detail = rate_limits.limit_message() or detail
        return render_template("error.html", code=code, title=title, detail=detail), code

    @app.errorhandler(500)
    def server_error(error: Exception):  # type: ignore[no-untyped-def]
        db.session.rollback()
        return (
            render_template(
                "error.html",
                code=500,
                title=_("Sorry, something went wrong"),
                detail=_("Nothing you entered before this was lost. Please try again."),
                # A form sent and not taken: static/js/offline.js keeps a round typed on this
                # phone in its queue of rounds to send (a phone without the service worker).
                failed_post=request.method == "POST",
            ),
            500,
        )

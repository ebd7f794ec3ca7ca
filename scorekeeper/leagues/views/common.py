"""What every league view uses: the blueprint, loading a league, the rights decorators, the
helpers templates get, and the page helpers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any, NoReturn

from flask import (
    Blueprint,
    abort,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.extensions import limiter
from scorekeeper.leagues import access, services
from scorekeeper.models import League
from scorekeeper.rules.placings import game_ordinal, ordinal, shown
from scorekeeper.rules.standings import StandingsMethod, not_ranked_reason
from scorekeeper.web import rate_limits
from scorekeeper.web.i18n import names_list, use_league_language

bp = Blueprint("leagues", __name__)

View = Callable[..., Any]


def holds_the_league() -> bool:
    """This phone already keeps score for the league it would unlock (its organiser, or a
    phone with the current passphrase): nothing to guess, so never counted nor stopped."""
    league = _league_named()
    return league is not None and access.league_rights(league)


def not_the_organiser() -> bool:
    """This phone is not the organiser of the league the address names: the view refuses it
    the organiser's costly work (an import preview), so the limits on that work neither count
    nor stop it (a refused request spends no one's allowance)."""
    league = _league_named()
    return league is None or not access.is_organiser(league)


def _league_named() -> League | None:
    """The league named by the address (or the join form), read once per request: both the
    per-address budget and the league's cap ask ``holds_the_league`` (as
    ``games.guess_limits`` reads the game of an edit-code guess once)."""
    if "throttle_league" not in g:
        code = rate_limits.league_code()
        g.throttle_league = services.load_league(code) if code else None
    return g.throttle_league


# One budget for every way of guessing a passphrase (or a link standing for one), per league
# (however its code is spelled) and address; only refused attempts count.
passphrase_attempts = limiter.shared_limit(
    rate_limits.PASSPHRASE_LIMIT,
    scope="passphrase",
    key_func=rate_limits.league_and_client,
    methods=["POST"],
    deduct_when=rate_limits.refused,
    exempt_when=holds_the_league,
)
# The signed links (join QR code, organiser link) spend the same budget; they are not
# passphrase guesses, so the league's cap from every address does not stop them (the organiser
# lets phones in with the QR code while someone guesses).
link_attempts = limiter.shared_limit(
    rate_limits.PASSPHRASE_LIMIT,
    scope="passphrase",
    key_func=rate_limits.league_and_client,
    methods=["POST"],
    deduct_when=rate_limits.refused,
)
# Wrong passphrases for one league from every address together (rate_limits.GUESS_CAP); the
# organiser's phone (and any phone already holding the passphrase) is never stopped.
passphrase_cap = limiter.shared_limit(
    rate_limits.GUESS_CAP,
    scope="passphrase-cap",
    key_func=rate_limits.league_cap_key,
    methods=["POST"],
    deduct_when=rate_limits.refused,
    exempt_when=holds_the_league,
    on_breach=rate_limits.explain(rate_limits.LEAGUE_CAP),
)
# Typing league codes on the join form: a budget per address, whatever the code.
join_attempts = limiter.limit(
    rate_limits.JOIN_LIMIT,
    key_func=rate_limits.client,
    methods=["POST"],
    deduct_when=rate_limits.refused,
)


# --------------------------------------------------------------------------------------------
# Loading a league and checking rights


def league_or_404(code: str) -> League:
    league = services.load_league(code)
    if league is None:
        _missed_lookup()
    use_league_language(league.language)
    return league


def _missed_lookup() -> NoReturn:
    """A league code or public link that leads nowhere: 404, and after too many from one
    address, 429 (guessing codes would find private leagues)."""
    abort(404 if rate_limits.lookups.spend(rate_limits.client()) else 429)


def _to_unlock(league: League) -> BaseResponse:
    return redirect(url_for("leagues.unlock", code=league.code, next=request.path))


_LEVELS = {"reader": 1, "scorer": 2, "organiser": 3}


# What a phone without the right needed is told, by the right it lacks (league wording, never
# the single game's "edit code").
def _refusal(needed: str, have: str) -> tuple[str, str]:
    if needed == "scorer":
        return _("Keeping score needs the passphrase"), _(
            "This phone can read the league. To keep score at a table, type the league's "
            "passphrase on this phone (ask the organiser), or scan the code on the night's page."
        )
    if have == "scorer":
        detail = _(
            "Nights and their tables, the roster, seasons, imports and the settings are changed "
            "on the organiser's phone. This phone can keep score at the league's tables."
        )
    else:
        detail = _(
            "Nights and their tables, the roster, seasons, imports and the settings are changed "
            "on the organiser's phone. This phone can read the league."
        )
    return _("Only the organiser's phone can do this"), detail


def _refused(league: League, needed: str, have: str) -> tuple[str, int]:
    title, detail = _refusal(needed, have)
    page = render_template(
        "error.html",
        code=403,
        title=title,
        detail=detail,
        back=url_for("leagues.standings", code=league.code),
        back_label=_("Back to %(league)s", league=league.name),
    )
    return page, 403


def league_view(read: str = "reader", write: str = "organiser") -> Callable[[View], View]:
    """Check this phone's right in the league (see access.py): ``read`` for a page (GET),
    ``write`` for a change (POST). A phone without any right is sent to the passphrase page
    (a page) or refused (a change); a phone with a lesser right is told, in the league's
    words, who may do it."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(code: str, **kwargs: Any) -> Any:
            league = league_or_404(code)
            needed = read if request.method in ("GET", "HEAD") else write
            have = access.level(league)
            if _LEVELS.get(have, 0) < _LEVELS[needed]:
                if not have:
                    if request.method in ("GET", "HEAD"):
                        return _to_unlock(league)
                    abort(403)
                return _refused(league, needed, have)
            g.league = league
            return view(league, **kwargs)

        return wrapped

    return decorate


reader_required = league_view("reader", "reader")
scorer_required = league_view("scorer", "scorer")
organiser_required = league_view("organiser", "organiser")


def public_league(token: str) -> League:
    league = services.league_by_public_token(token)
    if league is None:
        _missed_lookup()
    use_league_language(league.language)
    g.public_token = token
    g.league = league
    return league


_PUBLIC = {
    "standings": "public_standings",
    "night": "public_night",
    "night_live": "public_night_live",
    "player": "public_player",
    "night_card": "public_night_card",
    "night_print": "public_night_print",
    "standings_print": "public_standings_print",
}


def league_link(league: League, name: str, **kwargs: Any) -> str:
    """A link to a read-only page: on the public page it stays on the public page."""
    token = g.get("public_token")
    if token:
        return url_for(f"leagues.{_PUBLIC[name]}", token=token, **kwargs)
    return url_for(f"leagues.{name}", code=league.code, **kwargs)


@bp.app_context_processor
def league_helpers() -> dict[str, Any]:
    return {
        "league_link": league_link,
        "members_url": members_url,
        "members_qr_url": members_qr_url,
        "shown": shown,
        "ordinal": ordinal,
        "game_ordinal": game_ordinal,
        "ranking_of": ranking_of,
        "day_text": services.day_text,
        "night_day_text": services.night_day_text,
        "num": _trim,
        "not_ranked_reason": not_ranked_reason,
        "today": date.today(),  # "Tonight's results" only on the night itself
    }


# A number in the page's language (also in macros, which get no context: a global).
bp.add_app_template_global(services.number_text, "dec")


def ranking_of(league: League) -> StandingsMethod:
    """The standings method the league is ranked by (its declaration: label, value words)."""
    return services.league_method(league).spec


def and_list(words: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cy", in the page's language (``names_list``)."""
    return names_list(words)


def _trim(value: Any) -> str:
    """12.0 -> 12, 10.5 -> 10.5 (placement points read better without a bare .0), in the
    page's language (10,5)."""
    text = str(value)
    if text.endswith(".0"):
        value = int(text[:-2]) if text[:-2].lstrip("-").isdecimal() else value
    return services.number_text(value)


def league_page(template: str, league: League, **context: Any) -> str:
    public = bool(g.get("public_token"))
    level = "" if public else access.level(league)
    return render_template(
        template,
        league=league,
        public=public,
        level=level,
        rights=level in ("scorer", "organiser"),
        organiser=level == "organiser",
        **context,
    )


def form_page(template: str, form: Any, **context: Any) -> Any:
    """A form page; 422 when a posted form was refused, so the status says what happened."""
    status = 422 if request.method == "POST" and (form.errors or context.get("refused")) else 200
    return render_template(template, form=form, **context), status


def members_url(league: League) -> str:
    """The members' link of ``league``, to show to everyone at its tables."""
    return url_for(
        "leagues.members_link", code=league.code, token=access.members_token(league), _external=True
    )


def members_qr_url(league: League) -> str:
    return url_for("leagues.members_qr", code=league.code, token=access.members_token(league))


def league_form_page(template: str, league: League, form: Any, **context: Any) -> Any:
    refused = request.method == "POST" and bool(form.errors or context.get("refused"))
    return league_page(template, league, form=form, **context), (422 if refused else 200)

"""Use cases of a league itself: creating it, its passphrase and organiser, settings and
house rules, the public page, seasons.

Services load rows, call ``scorekeeper.rules`` and write rows; they ``flush()`` and never commit
(the request boundary does). Nothing here renders HTML."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal

from flask import has_request_context
from flask_babel import format_decimal
from flask_babel import gettext as _
from sqlalchemy import or_, select
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db
from scorekeeper.games import services as games
from scorekeeper.games.totals import standings_changed
from scorekeeper.models import Game, League, Night, Season
from scorekeeper.rules import HouseRules
from scorekeeper.rules.placings import DEFAULT_PLACEMENT_POINTS, parse_placement_points
from scorekeeper.rules.standings import DEFAULT_MIN_GAMES, METHOD_REGISTRY, Method, default_method
from scorekeeper.web.i18n import LANGUAGES, format_day
from scorekeeper.web.page_helpers import day_text as english_day_text

CODE_ALPHABET = games.EDIT_CODE_ALPHABET
CODE_LENGTH = 6
MAX_LEAGUE_NAME = 60
MAX_PLAYER_NAME = games.MAX_NAME
MAX_PLACE = 80
MAX_TABLE_NAME = 40
# A new passphrase has at least 10 characters and two words (after capitals and extra spaces
# are taken out). Why that is enough: a guesser gets at most 100 wrong passphrases a day for a
# league from every address together (throttle.GUESS_CAP), 36,500 a year. Two words from even
# the 5,000 most common ones make 25 million phrases (a year of guessing tries 0.15% of them);
# 10 random letters, digits and spaces make 37^10 = 4.8e15. One long word would not do: there
# are about 30,000 English words of 10 letters or more, a year's budget. Old, shorter
# passphrases still unlock their league (only a new passphrase must meet this).
# More in docs/security.md.
MIN_PASSPHRASE = 10
MIN_PASSPHRASE_WORDS = 2
MAX_PASSPHRASE = 100


class LeagueError(ValueError):
    """A request that cannot be carried out, with a sentence for the organiser (in the page's
    language); ``field``: the form field it is about, when one is ("name", "passphrase")."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def passphrase_rule() -> str:
    """What a new passphrase needs, in the page's language."""
    return _(
        "Use at least %(n)s characters and two words or more, like “blue engine 7”.",
        n=MIN_PASSPHRASE,
    )


def clean_text(text: str, limit: int) -> str:
    """Trimmed, inner spaces collapsed, cut to ``limit`` characters."""
    return " ".join((text or "").split())[:limit]


# --------------------------------------------------------------------------------------------
# The league and its passphrase


def normalise_passphrase(text: str) -> str:
    """Capitals and extra spaces do not matter: phones capitalise the first letter on their own."""
    return " ".join((text or "").split()).casefold()


def check_new_passphrase(text: str) -> str:
    passphrase = normalise_passphrase(text)
    if len(passphrase) < MIN_PASSPHRASE or len(passphrase.split()) < MIN_PASSPHRASE_WORDS:
        raise LeagueError(passphrase_rule(), field="passphrase")
    if len(passphrase) > MAX_PASSPHRASE:
        raise LeagueError(_("Use at most %(n)s characters.", n=MAX_PASSPHRASE), field="passphrase")
    return passphrase


def passphrase_matches(league: League, typed: str) -> bool:
    return check_password_hash(league.passphrase_hash, normalise_passphrase(typed))


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.scalar(select(League.id).where(League.code == code)) is None:
            return code


def create_league(name: str, passphrase: str, device: str) -> League:
    """A new league; ``device`` (a device hash) becomes its organiser."""
    cleaned = clean_text(name, MAX_LEAGUE_NAME)
    if not cleaned:
        raise LeagueError(_("Give the league a name, like “Thursday Train Club”."), field="name")
    league = League(
        code=_new_code(),
        name=cleaned,
        passphrase_hash=generate_password_hash(check_new_passphrase(passphrase)),
        passphrase_version=1,
        organiser_device=device,
        rules=HouseRules().to_dict(),
        ranking=default_method().name,
        min_games=DEFAULT_MIN_GAMES,
        min_nights_percent=0,
        placement_points=",".join(str(p) for p in DEFAULT_PLACEMENT_POINTS),
    )
    db.session.add(league)
    db.session.flush()
    return league


def load_league(code: str) -> League | None:
    return db.session.scalars(select(League).where(League.code == (code or "").upper())).first()


def league_by_public_token(token: str) -> League | None:
    if not token:
        return None
    return db.session.scalars(select(League).where(League.public_token == token)).first()


def leagues_for(device: str | None, codes: Iterable[str]) -> list[League]:
    """The leagues this device organises or has unlocked, by name."""
    wanted = list(codes)
    conditions = [League.code.in_(wanted)] if wanted else []
    if device:
        conditions.append(League.organiser_device == device)
    if not conditions:
        return []
    return list(db.session.scalars(select(League).where(or_(*conditions)).order_by(League.name)))


def change_passphrase(league: League, new: str) -> None:
    """Set a new passphrase. Every other device loses its rights (and old join links stop
    working): the version they were unlocked under is no longer the league's."""
    passphrase_hash = generate_password_hash(check_new_passphrase(new))
    # The tables' edit codes were shown to every phone with the old passphrase: new ones.
    # The games' rows are written before the league's row: a finished game's write holds its
    # game's row and then takes the league's (its standings stamp), so on PostgreSQL the two
    # rows are always taken in the same order and the two writes cannot deadlock.
    for game in db.session.scalars(
        select(Game).join(Night, Game.night_id == Night.id).where(Night.league_id == league.id)
    ):
        game.edit_code = games.new_edit_code()
    db.session.flush()
    league.passphrase_hash = passphrase_hash
    league.passphrase_version += 1
    db.session.flush()


def make_organiser(league: League, device: str) -> None:
    """Hand the organiser role to ``device`` (a device hash)."""
    league.organiser_device = device
    db.session.flush()


def set_public_page(league: League, public: bool, new_link: bool = False) -> None:
    """Turn the read-only public page on or off; ``new_link`` makes the old link stop working."""
    if not public:
        league.public_token = None
    elif league.public_token is None or new_link:
        league.public_token = secrets.token_urlsafe(12)
    db.session.flush()


def league_method(league: League) -> Method:
    """The league's ranking settings as the standings maths takes them. A method stored by
    another version of the app that this one does not declare (no constraint holds the column
    to the declarations) ranks by the default method; the settings page says so."""
    try:
        points = parse_placement_points(league.placement_points)
    except ValueError:
        points = DEFAULT_PLACEMENT_POINTS
    return Method(
        kind=league.ranking if league.ranking in METHOD_REGISTRY else default_method().name,
        min_games=league.min_games,
        min_nights_percent=league.min_nights_percent,
        placement_points=points,
        best_nights=league.best_nights,
    )


def update_settings(
    league: League, name: str, method: Method, rules: HouseRules, language: str | None = None
) -> None:
    """``language``: the default language of the league's pages (a code of
    ``scorekeeper.web.i18n.LANGUAGES``); None or anything else: each phone's own."""
    cleaned = clean_text(name, MAX_LEAGUE_NAME)
    if not cleaned:
        raise LeagueError(_("Give the league a name."), field="name")
    league.name = cleaned
    league.ranking = method.kind
    league.min_games = method.min_games
    league.min_nights_percent = method.min_nights_percent
    league.placement_points = ",".join(str(p) for p in method.placement_points)
    league.best_nights = method.best_nights
    league.rules = rules.to_dict()
    league.language = language if language in LANGUAGES else None
    standings_changed(league_id=league.id)
    db.session.flush()


def league_rules(league: League) -> HouseRules:
    return HouseRules.from_dict(league.rules)


# --------------------------------------------------------------------------------------------
# Dates as the league's pages write them, in the page's language


def day_text(day: date) -> str:
    """ "4 Jan 2024", "4 ene 2024", "4 janv. 2024" (outside a request: the English form)."""
    if not has_request_context():
        return english_day_text(day)
    return format_day(day, "d MMM y")


def night_day_text(day: date) -> str:
    """A night's day with its weekday: "Thursday 4 Jan 2024", "Jueves 4 ene 2024"."""
    if not has_request_context():
        return f"{day:%A} {english_day_text(day)}"
    text = format_day(day, "EEEE d MMM y")
    return text[:1].upper() + text[1:]


def number_text(value: object) -> str:
    """A number as the league's pages write it, in the page's language and with the decimals it
    has: 85.3 -> "85,3" in Spanish and French, 12 -> "12" (anything else: as it is)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return str(value)
    text = str(value)
    if not has_request_context() or "e" in text.lower():
        return text
    places = len(text.split(".", 1)[1]) if "." in text else 0
    pattern = "0." + "0" * places if places else "0"
    return format_decimal(value, format=pattern)


# --------------------------------------------------------------------------------------------
# Seasons


def add_season(league: League, name: str, starts_on: date, ends_on: date) -> Season:
    cleaned = clean_text(name, 60)
    if not cleaned:
        raise LeagueError(_("Give the season a name, like “2025” or “Spring 2025”."))
    if ends_on < starts_on:
        raise LeagueError(_("The season cannot end before it starts."))
    season = Season(league=league, name=cleaned, starts_on=starts_on, ends_on=ends_on)
    db.session.add(season)
    db.session.flush()
    return season


def delete_season(league: League, season_id: int) -> None:
    season = db.session.get(Season, season_id)
    if season is None or season.league_id != league.id:
        raise LeagueError(_("That season is not in this league."))
    db.session.delete(season)
    db.session.flush()


def default_season(seasons: Sequence[Season], today: date) -> Season | None:
    """The season the standings open on: the one running today, else the latest one that has
    started, else none (all nights)."""
    running = [s for s in seasons if s.starts_on <= today <= s.ends_on]
    if running:
        return max(running, key=lambda s: s.starts_on)
    started = [s for s in seasons if s.starts_on <= today]
    return max(started, key=lambda s: s.starts_on) if started else None

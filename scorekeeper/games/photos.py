"""Photo check of a hand: read the tiles from a phone photo and keep the photo only if the
game says so. The reading goes into the player's tiles, where the same validator and scoring as
typed tiles apply; it never replaces a typed total without the player choosing it."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, func, select

from scorekeeper.extensions import db
from scorekeeper.games.loaded import LoadedGame
from scorekeeper.games.setup import GameError
from scorekeeper.models import Game, Photo, Round
from scorekeeper.rules import HouseRules, Tile, format_hand, score_hand
from scorekeeper.rules.words import N_
from scorekeeper.vision import (
    CAPTURE_ADVICE,
    MAX_READABLE_PIP,
    SURE_TILE,
    ImageError,
    VisionError,
    photo_support,
    read_hand,
    sanitize_image,
)
from scorekeeper.web import rate_limits
from scorekeeper.web.i18n import chosen

STORED_SIDE = 1600  # px: enough to check the pips on a phone, a few hundred KB
PENDING_FOR = timedelta(hours=6)  # a photo read but never saved with a round


MAX_PENDING_PHOTOS = 40  # photos of one game read but not yet saved with a round
#: Said through ``_`` where shown (plain text here: a test looks for it in a page).
TOO_MANY_PENDING = N_(
    "This game already has %(n)s photos waiting for a round. "
    "Save the round first, then take more photos."
)
BUSY = N_("The photo reader is busy with other tables. Try again in a moment.")


def _readers() -> threading.BoundedSemaphore:
    """How many photos this server process reads at once (PHOTO_READERS): each takes a core
    and up to a few hundred MB for a second, so more wait their turn or hear "busy"."""
    readers = current_app.extensions.get("scorekeeper.photo_readers")
    if readers is None:
        readers = current_app.extensions.setdefault(
            "scorekeeper.photo_readers",
            threading.BoundedSemaphore(max(1, int(current_app.config.get("PHOTO_READERS", 2)))),
        )
    return readers


def _pending_count(game: Game) -> int:
    return (
        db.session.scalar(
            select(func.count())
            .select_from(Photo)
            .where(Photo.game_id == game.id, Photo.round_id.is_(None))
        )
        or 0
    )


@dataclass(frozen=True)
class TileMark:
    number: int
    tile: str
    label: str
    confidence: int  # percent
    points: str  # SVG polygon points, in the pixels of the original photo
    label_x: float = 0.0  # where the label's centre goes: inside the tile, on the photo
    label_y: float = 0.0
    font_size: float = 12.0
    sure: bool = False  # at least SURE_TILE: the reader's own "sure", drawn in the sure colour


def place_label(
    corners: list[tuple[float, float]], label: str, width: int, height: int
) -> tuple[str, float, float, float]:
    """Where a tile's label is drawn: centred on the tile (the mean of its corners), as large as
    the tile's outline allows, and kept on the photo. When the whole label ("3: 5-12") would be
    too small to read on a phone, only the number is drawn (the list under the photo names the
    tile), never smaller than readable: centred on its own tile it still reads as that tile's.
    Returns (text, x, y, font size), in the photo's pixels."""
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    centre_x = sum(xs) / len(xs)
    centre_y = sum(ys) / len(ys)
    room_w = (max(xs) - min(xs)) * 0.9
    room_h = (max(ys) - min(ys)) * 0.8
    # The photo is shown about 380 px wide on a phone: 1/28 of it is about 13 px on screen.
    readable = max(width, height) / 28
    biggest = max(width, height) / 14

    def fit(text: str) -> float:
        return min(biggest, room_h, room_w / (0.62 * len(text)))

    text = label
    if fit(text) < readable:
        text = label.split(":")[0]
    size = max(readable, fit(text))
    half_w = 0.62 * len(text) * size / 2
    half_h = size / 2
    x = min(max(centre_x, half_w), width - half_w)
    y = min(max(centre_y, half_h), height - half_h)
    return text, round(x, 1), round(y, 1), round(size, 1)


@dataclass(frozen=True)
class PhotoCheck:
    """What the photo says about one player's hand, ready to show."""

    token: str
    width: int
    height: int
    tiles_text: str
    total: int  # under the house rules, as the round would score these tiles
    face_total: int
    confident: bool
    marks: list[TileMark]
    problems: list[str] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)


def _installed() -> tuple[bool, str]:
    return _installed_in(chosen())


@cache
def _installed_in(language: str) -> tuple[bool, str]:
    # Looked up once per language: the installation does not change while the app runs, and
    # its message is in the words of the page that asked.
    return photo_support()


def support(max_pip: int) -> tuple[bool, str]:
    """Whether photos of this game's tiles can be read, and if not, why in plain words."""
    if max_pip > MAX_READABLE_PIP:
        return False, _(
            "the photo reader counts up to %(n)s pips a half, so it works with "
            "sets up to double-%(n)s.",
            n=MAX_READABLE_PIP,
        )
    return _installed()


def _check_from(photo: Photo, rules: HouseRules) -> PhotoCheck:
    reading: dict[str, Any] = photo.reading
    tiles = [Tile(*entry["tile"]) for entry in reading["tiles"]]
    marks = []
    for index, (tile, entry) in enumerate(zip(tiles, reading["tiles"], strict=True)):
        corners = [(float(x), float(y)) for x, y in entry["corners"]]
        text, x, y, size = place_label(
            corners, f"{index + 1}: {tile}", reading["width"], reading["height"]
        )
        marks.append(
            TileMark(
                number=index + 1,
                tile=str(tile),
                label=text,
                confidence=round(entry["confidence"] * 100),
                points=" ".join(f"{x:.0f},{y:.0f}" for x, y in corners),
                label_x=x,
                label_y=y,
                font_size=size,
                sure=entry["confidence"] >= SURE_TILE,
            )
        )
    confident = bool(reading["confident"])
    # the tips that fit this photo; a reading stored before they were chosen gets them all
    advice = reading.get("advice", list(CAPTURE_ADVICE))
    return PhotoCheck(
        token=photo.token,
        width=reading["width"],
        height=reading["height"],
        tiles_text=format_hand(tiles),
        total=score_hand(tiles, rules),
        face_total=reading["total"],
        confident=confident,
        marks=marks,
        problems=list(reading["problems"]),
        advice=[] if confident else list(advice),
    )


def read_photo(loaded: LoadedGame, position: int, data: bytes) -> PhotoCheck:
    """Read one player's hand from an uploaded photo and keep it, without metadata, until the
    round is saved. Raises GameError with a sentence for the player for anything unreadable."""
    game, rules = loaded.game, loaded.rules
    available, message = support(rules.max_pip)
    if not available:
        raise GameError(message)
    if not data:
        raise GameError(_("No photo arrived. Take the photo again."))
    _purge_pending(game)
    if _pending_count(game) >= MAX_PENDING_PHOTOS:
        raise GameError(_(TOO_MANY_PENDING, n=MAX_PENDING_PHOTOS))
    if not rate_limits.photo_reads.spend(rate_limits.client()):
        raise GameError(rate_limits.BUSY_PHOTOS)
    readers = _readers()
    if not readers.acquire(timeout=float(current_app.config.get("PHOTO_WAIT", 5.0))):
        raise GameError(_(BUSY))
    try:
        reading = read_hand(data, max_pip=rules.max_pip)
        stored = sanitize_image(data, max_side=STORED_SIDE)
    except ImageError as error:
        raise GameError(str(error)) from None
    except VisionError as error:
        raise GameError(_("The photo could not be read: %(why)s", why=error)) from None
    finally:
        readers.release()
    photo = Photo(
        game_id=game.id,
        seat_position=position,
        token=secrets.token_urlsafe(16),
        image=stored,
        reading=reading.as_dict(),
    )
    db.session.add(photo)
    db.session.flush()
    return _check_from(photo, rules)


def photo_check(loaded: LoadedGame, token: str) -> PhotoCheck | None:
    """A reading made earlier for this game (shown again after the form is sent back)."""
    photo = _photo(loaded.game, token)
    return _check_from(photo, loaded.rules) if photo is not None else None


def _photo(game: Game, token: str) -> Photo | None:
    if not token:
        return None
    return db.session.scalars(
        select(Photo).where(Photo.game_id == game.id, Photo.token == token)
    ).first()


def photo_bytes(game: Game, token: str) -> bytes | None:
    photo = _photo(game, token)
    return photo.image if photo is not None else None


def settle_photos(game: Game, recorded: Round, tokens: dict[int, str]) -> None:
    """After a round is saved: keep its photos with it if the game keeps photos, else delete
    them. Every other photo of this game still waiting for a round (a retaken photo, one read
    for a player and then not used) is deleted too."""
    keep = bool(game.keep_photos)
    for position, token in tokens.items():
        photo = _photo(game, token)
        if photo is not None and photo.seat_position == position and keep:
            photo.round_id = recorded.id
    db.session.flush()
    db.session.execute(delete(Photo).where(Photo.game_id == game.id, Photo.round_id.is_(None)))


def _purge_pending(game: Game) -> None:
    cutoff = datetime.now(UTC) - PENDING_FOR
    db.session.execute(
        delete(Photo).where(
            Photo.game_id == game.id, Photo.round_id.is_(None), Photo.created_at < cutoff
        )
    )


def round_photos(game: Game) -> dict[tuple[int, int], str]:
    """Tokens of the photos kept with rounds: (round number, seat position) -> token."""
    rows = db.session.execute(
        select(Round.number, Photo.seat_position, Photo.token)
        .join(Round, Round.id == Photo.round_id)
        .where(Photo.game_id == game.id)
    ).all()
    return {(number, position): token for number, position, token in rows}


@dataclass(frozen=True)
class Verdict:
    """How the photo compares with what the player entered: ``agrees`` or not, in words, what
    keeping the typed value would keep, and whether the photo's reading is offered at all (a
    reading that found no tile never is)."""

    agrees: bool
    message: str
    typed: int | None = None
    offer_photo: bool = True
    # ``agrees`` with a value the player entered (not only "its tiles are in the box"): the
    # reader's doubts and the photo tips no longer matter.
    confirmed: bool = False
    # The player chose to keep ``typed`` over the photo's reading: said once, not asked again.
    settled: bool = False
    confirm: bool = False  # an unsure reading, nothing typed: the player confirms it first


def _kept(check: PhotoCheck, entered: int, kept: str) -> Verdict | None:
    if kept != str(entered):
        return None
    return Verdict(
        False,
        _(
            "Kept: your %(typed)s. The photo’s %(read)s is not used.",
            typed=entered,
            read=check.total,
        ),
        typed=entered,
        offer_photo=False,
        settled=True,
    )


def compare(
    check: PhotoCheck,
    typed_hand: int | None,
    typed_tiles: str,
    tiles_hand: int | None,
    kept: str = "",
) -> Verdict:
    """Compare a reading with a typed total or typed tiles. The photo never wins on its own:
    when they differ the player picks, and what was typed is the safe default. A photo in
    which no tile was found checks nothing and never offers to replace what was typed.
    ``kept``: the value the player already chose to keep over this photo ("Keep 90"); while
    it is still what was entered, the choice is confirmed instead of asked again."""
    own_tiles = typed_tiles.strip() and typed_tiles.strip() != check.tiles_text
    # An unsure reading may have missed tiles: it says how many it found and asks, rather than
    # giving its total as if it were complete.
    question = ngettext(
        "I found %(num)s tile: is that all?",
        "I found %(num)s tiles: is that all of them?",
        len(check.marks),
    )
    if not check.marks:
        return _nothing_found(tiles_hand if own_tiles and tiles_hand is not None else typed_hand)
    if own_tiles and tiles_hand is not None and tiles_hand != check.total:
        differs = _differs(check, question, tiles_hand, tiles=True)
        return _kept(check, tiles_hand, kept) or Verdict(False, differs, typed=tiles_hand)
    if typed_hand is not None and typed_hand != check.total:
        differs = _differs(check, question, typed_hand, tiles=False)
        return _kept(check, typed_hand, kept) or Verdict(False, differs, typed=typed_hand)
    if typed_hand is not None or own_tiles:
        return Verdict(
            True,
            _("Photo reads %(read)s: it agrees with what you entered.", read=check.total),
            confirmed=True,
        )
    if not check.confident and not typed_tiles.strip():
        # nothing typed and nothing filled in: one tap on Save must not record a reading
        # that may be missing tiles
        return Verdict(
            False,
            _(
                "%(question)s Check the photo, then use these tiles or type them.",
                question=question,
            ),
            confirm=True,
        )
    return Verdict(
        True, _("Photo reads %(read)s. Its tiles are in the tiles box.", read=check.total)
    )


def _nothing_found(entered: int | None) -> Verdict:
    """A photo in which no tile was found: it checks nothing, what was entered stays."""
    message = _("No tile was found in the photo, so it cannot check this hand.")
    if entered is not None:
        message += " " + _("Your %(typed)s stays.", typed=entered)
    return Verdict(False, message, typed=entered, offer_photo=False)


def _differs(check: PhotoCheck, question: str, typed: int, *, tiles: bool) -> str:
    """The photo's total and the typed one (``tiles``: the typed tiles' total) differ."""
    read = check.total
    if check.confident and tiles:
        return _("Photo reads %(read)s, your tiles give %(typed)s.", read=read, typed=typed)
    if check.confident:
        return _("Photo reads %(read)s, you typed %(typed)s.", read=read, typed=typed)
    if tiles:
        return _(
            "%(question)s They make %(read)s, your tiles give %(typed)s.",
            question=question,
            read=read,
            typed=typed,
        )
    return _(
        "%(question)s They make %(read)s, you typed %(typed)s.",
        question=question,
        read=read,
        typed=typed,
    )

"""Small pieces of web plumbing shared by the blueprints: QR codes and the "unchanged" answer
of the pages that phones poll."""

from __future__ import annotations

import hashlib
import io
import unicodedata
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import segno
from flask import Response, make_response, request

from scorekeeper.web.i18n import chosen as chosen_language


def qr_svg(target: str, max_age: int | None = None) -> Response:
    """A QR code of ``target`` as SVG, black on white with a quiet zone (easy to scan from a
    phone held at arm's length); cached ``max_age`` seconds when given, by the phone only
    (``private``): the code carries the address the request was answered for, which no shared
    cache may hand to a phone that came in by another address."""
    buffer = io.BytesIO()
    segno.make(target, error="m").save(
        buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff"
    )
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.cache_control.private = True
    if max_age is not None:
        response.cache_control.max_age = max_age
    return response


def etag_for(version: str, language: str) -> str:
    """The opaque tag of ``version`` in ``language`` (the same version reads differently in
    each language, so the language is part of the tag)."""
    text = f"{version}|{language}"
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def unless_unchanged(version: str, render: Callable[[], Any]) -> Response:
    """The answer to a phone that polls: ``304 Not Modified`` when its copy carries the ETag
    of ``version`` (nothing rendered, nothing more read), otherwise ``render()``. Either way
    the answer carries the ETag and must be checked again next time (``no-cache``).

    The ETag is weak (``W/"..."``): the same version may travel gzip- or Brotli-compressed,
    and a compressed answer keeps it as it is. It is an opaque hash of ``version``: a version
    may hold what people typed (a night's place, with quotes or letters outside Latin-1), which
    cannot go into a header as it is."""
    etag = etag_for(version, chosen_language())
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
    else:
        response = make_response(render())
    response.set_etag(etag, weak=True)
    response.cache_control.no_cache = True
    return response


def svg_for_version(version: str, render: Callable[[], str]) -> Response:
    """An SVG picture that changes only with ``version`` (a game's or a night's): answered as
    a polled page is (``unless_unchanged``: ``304`` while unchanged), and ``private`` (it names
    the players: no shared cache keeps it)."""
    response = unless_unchanged(version, lambda: Response(render(), mimetype="image/svg+xml"))
    response.cache_control.private = True
    return response


def attachment(stem: str, extension: str) -> str:
    """A ``Content-Disposition`` saving the file as ``stem.extension`` (RFC 6266): an ASCII
    ``filename`` for old clients (accents dropped, other letters and signs as "-") and the
    name as it is in ``filename*`` (UTF-8, percent-encoded), which every current browser uses.
    A header carries Latin-1 only, so a league called "Клуб Łódź" cannot go in as it is."""
    words = "".join(ch if ch.isalnum() else " " for ch in stem.lower()).split()
    full = "-".join(words) or "download"
    ascii_words = [
        unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode() for word in words
    ]
    fallback = "-".join(word for word in ascii_words if word) or "download"
    header = f'attachment; filename="{fallback}.{extension}"'  # i18n: HTTP header
    if full != fallback:
        header += f"; filename*=UTF-8''{quote(f'{full}.{extension}', safe='')}"
    return header


def safe_next(target: str, within: str) -> str | None:
    """``target`` (a ``?next=`` after unlocking) when it is a path of this site under
    ``within`` (``/g/<id>``, ``/leagues/<code>``), else None and the caller's own page. Never a
    link to another site (``//host``, ``/\\host``) or a header breaker (CR, LF, other control
    characters or spaces, which a ``Location`` header cannot carry)."""
    if not target.startswith(within) or target.startswith(("//", "/\\")):
        return None
    rest = target[len(within) :]
    if rest and rest[0] not in "/?#":
        return None  # /g/abc must not lead to /g/abcdef, another game
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 or ch == "\\" for ch in target):
        return None
    if not target.isascii():
        return None  # a path the app writes is ASCII (or percent-encoded)
    return target

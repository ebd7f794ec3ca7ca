"""Small pieces of web plumbing shared by the blueprints: QR codes and the "unchanged" answer
of the pages that phones poll."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import segno
from flask import Response, make_response, request


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


def unless_unchanged(etag: str, render: Callable[[], Any]) -> Response:
    """The answer to a phone that polls: ``304 Not Modified`` when its copy carries ``etag``
    (nothing rendered, nothing more read), otherwise ``render()``. Either way the answer
    carries the ETag and must be checked again next time (``no-cache``).

    The ETag is weak (``W/"..."``): the same version may travel gzip- or Brotli-compressed,
    and a compressed answer keeps it as it is."""
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
    else:
        response = make_response(render())
    response.set_etag(etag, weak=True)
    response.cache_control.no_cache = True
    return response


def svg_for_version(etag: str, render: Callable[[], str]) -> Response:
    """An SVG picture that changes only with ``etag`` (a game's or a night's version): kept by
    the phone, asked again each time (``no-cache``: ``304`` while unchanged), and ``private``
    (it names the players: no shared cache keeps it)."""
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
    else:
        response = Response(render(), mimetype="image/svg+xml")
    response.set_etag(etag, weak=True)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    return response

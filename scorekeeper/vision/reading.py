"""The result of reading a photo. Plain data; importable without the photo extra."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.words import LazyText

Point = tuple[float, float]

#: A tile read with at least this confidence (0..1) is "sure": the reader needs every tile at
#: this level to be confident, and the round page draws a tile in its "sure" colour from the
#: same number. Fitted on the real development photos by tools/calibrate_vision.py.
SURE_TILE = 0.52


@dataclass(frozen=True)
class TileReading:
    """One tile found in the photo.

    ``tile`` is a :class:`scorekeeper.rules.Tile`; ``confidence`` is in 0..1;
    ``corners`` are four (x, y) points in the pixels of the upright (EXIF-rotated) image,
    in order around the tile (the first two lie on one short end).
    """

    tile: Any
    confidence: float
    corners: tuple[Point, Point, Point, Point]
    halves: tuple[int, int] = (0, 0)
    half_confidences: tuple[float, float] = (0.0, 0.0)

    @property
    def pips(self) -> int:
        return int(self.halves[0]) + int(self.halves[1])


@dataclass
class Reading:
    """What the reader saw.

    ``total`` is the face value of every tile read (no house rules such as counting a double
    blank as 50). ``confident`` is True only when the reader would stake the total on it;
    otherwise ``problems`` says in plain words what to fix. A reading checks a typed total;
    it never replaces one. ``unreadable`` is True when the reader gave up on the photo (it
    took longer than its time budget): show "could not read this photo" with the capture
    advice; ``problems`` then holds that message. ``advice``: the capture tips (from
    ``CAPTURE_ADVICE``) that fit what went wrong with this photo; empty when confident.
    ``checks``: the independent checks that agreed with a confident reading (``agree.py``:
    "pips", each half's dark spots are the pips read; "pattern", they sit on a real set's
    layout of the number read; "finder", the tile finder sees the same tiles); a reading is
    confident only when ``agree.AGREEING`` of them (one) did and no half's spots sit on the
    layout of another number.
    """

    tiles: list[TileReading] = field(default_factory=list)
    total: int = 0
    confident: bool = False
    problems: list[str | LazyText] = field(default_factory=list)
    width: int = 0
    height: int = 0
    seconds: float = 0.0
    unreadable: bool = False
    advice: list[str | LazyText] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly summary (tiles as [low, high] pairs)."""
        return {
            "tiles": [
                {
                    "tile": [min(t.halves), max(t.halves)],
                    "confidence": round(t.confidence, 3),
                    "corners": [[round(x, 1), round(y, 1)] for x, y in t.corners],
                }
                for t in self.tiles
            ],
            "total": self.total,
            "confident": self.confident,
            # the player's language at the time of the reading (the texts are lazy)
            "problems": [str(p) for p in self.problems],
            "width": self.width,
            "height": self.height,
            "unreadable": self.unreadable,
            "advice": [str(a) for a in self.advice],
            "checks": list(self.checks),
        }

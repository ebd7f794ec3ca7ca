"""Readings made by hand for the tests of how one look's reading is weighed against
another's (``weigh.py``): tiles 40 px wide in a row, on a plain light table."""

from __future__ import annotations


def tiles_at(*tiles):
    """A reading of ``tiles``: (x of the middle, halves, sureness), each 40 px wide."""
    from scorekeeper.vision.reading import Reading, TileReading

    def tile(x, halves, sure):
        corners = ((x - 20, 0), (x + 20, 0), (x + 20, 80), (x - 20, 80))
        return TileReading(None, sure, corners, halves, (sure, 1.0))

    reading = Reading(tiles=[tile(*t) for t in tiles])
    reading.total = sum(t.pips for t in reading.tiles)
    return reading


def plain_photo():
    """A photo of nothing but a plain light table (no pip past any outline)."""
    import numpy as np

    from scorekeeper.vision import bars, reader

    rgb = np.full((120, 300, 3), 200, np.uint8)
    return reader._Photo(rgb, 12, 1.0, (300, 120), None, bars.Deadline(None))

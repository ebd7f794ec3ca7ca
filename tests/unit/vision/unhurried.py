"""Reading a photo in the tests without the time budget: the looks that run only within part
of it run always (the CPU time a step takes depends on what else the machine is doing)."""

from __future__ import annotations


def read_unhurried(data: bytes, **kwargs):
    """The reader's reading of ``data`` (JPEG/PNG bytes) at the size it reads photos, with no
    deadline (``kwargs`` go to ``reader.read_rgb``: ``debug``, ``max_pip``)."""
    import numpy as np

    from scorekeeper.vision import reader
    from scorekeeper.vision.images import open_upright

    up = open_upright(data, max_side=reader.CROP_SIDE)
    return reader.read_rgb(np.asarray(up.image), scale=up.scale, full_size=up.full_size, **kwargs)


def read_as_if_sure(monkeypatch, data: bytes, **kwargs):
    """``read_unhurried`` with every tile over the sure line, no problem held against the
    photo and every check agreeing: all that is left to hold the reading unsure is an amber
    tile (snapped, doubted, pale pips, a face blown out)."""
    from scorekeeper.vision import judge

    monkeypatch.setattr(judge, "SURE_TILE", 0.0)
    monkeypatch.setattr(judge, "BLOCKING", ())
    monkeypatch.setattr(judge, "_agreeing", lambda *a: (["finder"], False, False, False))
    monkeypatch.setattr(judge.agree, "vouch", lambda *a: True)
    return read_unhurried(data, **kwargs)

"""Issue 40, twenty-fifth step: a double blank no pip vouches for. Seed 271's mix-014: two
tiles touching end to end in a column, 2|0 above 0|1; the outline around the line between
them took the two blank halves for one tile, read 0|0 at 0.99 (the 2 and the 1 outside every
tile read, so the reading was unsure). Of the wrong tiles read at 0.9 and up on 3,322
photos, ten of twelve were double blanks like it. A tile read 0|0 where the tile finder sees
no tile is now amber: its confidence times FACE_TRUST, and a reading with one is never sure."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from types import SimpleNamespace  # noqa: E402

from scorekeeper.vision import look as look_mod  # noqa: E402
from scorekeeper.vision import synth_modes  # noqa: E402
from scorekeeper.vision.detect import Candidate  # noqa: E402
from scorekeeper.vision.reading import SURE_TILE  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402

TILE = np.array([[0, 0], [50, 0], [50, 100], [0, 100]], float)


def _counts(a: int, b: int) -> np.ndarray:
    p = np.full((2, 13), 0.01)
    p[0, a] = p[1, b] = 0.9
    return p


@pytest.mark.parametrize(
    ("halves", "finder_at", "faces_only", "blank"),
    [
        ((0, 0), None, False, True),  # a double blank the finder does not see
        ((0, 0), 50, False, True),  # ... sees a tile half a tile off: two tiles' halves
        ((0, 0), 2, False, False),  # ... sees it: a double blank
        ((3, 0), None, False, False),  # a pip vouches for it
        ((0, 0), None, True, False),  # the look at faces: its outlines are the finder's
    ],
)
def test_a_double_blank_is_amber_where_the_finder_sees_no_tile(
    halves, finder_at, faces_only, blank
):
    cand = Candidate(TILE, None, 10.0, 50, 100)
    seen = [] if finder_at is None else [SimpleNamespace(corners=(TILE + [0, finder_at]) * 0.5)]
    look = SimpleNamespace(
        cands=[cand],
        kept=[0],
        s=0.5,  # the finder's corners are in pixels of the detection copy
        finder=SimpleNamespace(tiles=lambda: seen),
        counts=np.stack([_counts(*halves)]),
        faces_only=faces_only,
    )
    look_mod.Look.doubt_blanks(look)
    assert cand.blank is blank


def test_two_blank_halves_of_tiles_end_to_end_are_not_read_as_a_sure_double_blank(monkeypatch):
    scene = synth_modes.benchmark_scene("mix", 14, seed=271)
    assert scene.total == 38 and [0, 0] not in [sorted((t.a, t.b)) for t in scene.tiles]
    debug: dict = {}
    reading = read_unhurried(scene.jpeg, debug=debug)
    blanks = [t for t in reading.tiles if t.halves == (0, 0)]
    assert len(blanks) == 1 and blanks[0].confidence < SURE_TILE
    assert any("double blank the tile finder does not see" in w for w in debug["why"])
    assert not reading.confident
    # ... and without this step, green
    monkeypatch.setattr(look_mod.Look, "doubt_blanks", lambda self: None)
    blanks = [t for t in read_unhurried(scene.jpeg).tiles if t.halves == (0, 0)]
    assert len(blanks) == 1 and blanks[0].confidence >= 0.9

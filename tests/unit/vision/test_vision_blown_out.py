"""Issue 40, twenty-fourth step: a tile whose face a lamp's glare blows out to white is not
the colour of a cream set's faces, and was dropped as a patch of the surface read as a tile
(seed 241's large_spread-005: two tiles under the glare, plain to read, left out). A face
blown out has no colour of its own to tell: its tile is kept, amber, and the reading is never
sure."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from types import SimpleNamespace  # noqa: E402

from scorekeeper.vision import checks, judge, synth_modes  # noqa: E402
from scorekeeper.vision.detect import Candidate  # noqa: E402
from tests.unit.vision.test_vision_face_colour import PURPLE, _photo  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402

CREAM = (238, 226, 168)  # a render's cream face: (a, b) about 31 from grey
BLOWN = (255, 255, 255)
NEAR_WHITE = (236, 236, 236)  # a white set's face, or white card: light, but not blown out
PALE_BLUE = (240, 248, 255)  # blown out in one channel, a colour of its own


@pytest.mark.parametrize(
    ("face", "blown"),
    [(BLOWN, True), ((252, 251, 249), True), (NEAR_WHITE, False), (PALE_BLUE, False)],
)
def test_a_face_is_blown_out_only_when_it_is_white_to_the_last_shade(face, blown):
    img, quads = _photo([face])
    assert checks._blown_out(img, quads[0]) is blown


def test_a_cream_face_is_not_blown_out():
    img, quads = _photo([CREAM])
    assert not checks._blown_out(img, quads[0])


@pytest.mark.parametrize(
    ("faces", "dropped", "glared"),
    [
        ([CREAM, CREAM, CREAM, BLOWN], [], [3]),  # under a lamp's glare: kept, amber
        ([CREAM, CREAM, CREAM, PURPLE], [3], []),  # a patch of purple cloth: dropped
        ([CREAM, CREAM, CREAM, CREAM], [], []),
    ],
)
def test_a_blown_out_face_is_kept_amber_and_another_colour_dropped(
    faces, dropped, glared, monkeypatch
):
    img, quads = _photo(faces)
    cands = [Candidate(q, None, 9.0, 60, 120) for q in quads]
    counts = np.zeros((len(quads), 2, 13))
    counts[:, :, 2] = 1.0  # every tile read 2|2: pips on each
    look = SimpleNamespace(
        cands=cands, kept=list(range(len(quads))), s=1.0, small=img, counts=counts, finder=None
    )
    monkeypatch.setattr(judge.agree, "finder_vouches", lambda finder, q: [True] * len(q))
    why: list[str] = []
    assert judge._drop_apart(look, why) is bool(dropped)
    assert look.kept == [k for k in range(len(quads)) if k not in dropped]
    assert [k for k, c in enumerate(cands) if c.glared] == glared


def test_tiles_under_a_lamps_glare_are_read_amber_not_left_out(monkeypatch):
    # seed 241's large_spread-005: 26 tiles of a cream double-12 set, a lamp's glare over
    # four of them; two of those (their bars and pips faint but there) were read and then
    # dropped as not the set's colour: 258 for 309. Now kept, amber: 287; and since the
    # twenty-sixth step the other two are read from outlines laid on their bars: 309
    scene = synth_modes.benchmark_scene("large_spread", 5, seed=241)
    debug: dict = {}
    reading = read_unhurried(scene.jpeg, debug=debug)
    assert scene.total == 309
    assert reading.total == 309
    assert not reading.confident
    assert sum("blown out by glare" in w for w in debug["why"]) == 4
    assert sum("laid on its bar" in w for w in debug["why"]) == 2
    # ... and dropped without keeping them
    monkeypatch.setattr(judge, "_blown_out", lambda small, quad: False)
    assert read_unhurried(scene.jpeg).total == 258

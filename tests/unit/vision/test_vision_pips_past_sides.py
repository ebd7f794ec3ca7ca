"""Issue 40, twenty-eighth step: a sure reading needs no pip reaching past a tile's end, and
now none past the long sides of its halves either (``agree._edges``): an outline a column
short of its tile reads a 12 as a 9."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from scorekeeper.vision import agree, synth_modes  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402


def _tiles(scene):
    return [(np.asarray(t.corners, float), (t.a, t.b)) for t in scene.tiles]


def _past(image, tiles):
    past: list[int] = []
    agree.look_at_halves(image, tiles, 12, past)
    return past


def _narrowed(q, part=0.25):
    """The outline ``q`` with its side 1-2 moved in by ``part`` of its width."""
    n = q.copy()
    d = (q[1] - q[0]) * part
    n[1] -= d
    n[2] -= d
    return n


@pytest.mark.parametrize(
    ("mode", "i", "seed"),
    [
        ("touching", 16, 319),  # five tiles end to end
        ("large_spread", 3, 11),  # 26 tiles in rows touching side by side
        ("coloured_15", 2, 11),
        ("dark_pips", 4, 11),
        ("busy", 2, 11),
    ],
)
def test_no_pip_lies_past_the_sides_of_outlines_that_fit_their_tiles(mode, i, seed):
    scene = synth_modes.benchmark_scene(mode, i, seed=seed)
    assert _past(scene.image, _tiles(scene)) == [0] * (2 * len(scene.tiles))


@pytest.mark.parametrize(("k", "past"), [(0, [2, 3]), (1, [3, 0]), (3, [3, 0]), (4, [3, 3])])
def test_the_pips_an_outline_a_column_short_leaves_past_its_side_are_seen(k, past):
    # seed 319's touching-016 (4|9, 12|8, 0|4, 11|2, 12|6), one outline a quarter of a width
    # narrow: the column of pips it leaves out lies past its side (the 12's a column of 3;
    # the 8 of silver pips shows no dark spot, the 2 none that far out)
    scene = synth_modes.benchmark_scene("touching", 16, seed=319)
    tiles = _tiles(scene)
    tiles[k] = (_narrowed(tiles[k][0]), tiles[k][1])
    assert _past(scene.image, tiles)[2 * k : 2 * k + 2] == past


def test_the_ends_alone_do_not_see_them(monkeypatch):
    monkeypatch.setattr(agree, "PAST_SIDES", False)
    scene = synth_modes.benchmark_scene("touching", 16, seed=319)
    tiles = _tiles(scene)
    tiles[4] = (_narrowed(tiles[4][0]), tiles[4][1])
    assert _past(scene.image, tiles)[8:10] == [0, 0]


def test_a_six_twelve_read_six_nine_from_an_outline_a_column_short_is_not_sure(monkeypatch):
    # seed 319's touching-016: the 6|12 at the end of the row read 9|6 (0.63) from an outline
    # off its side; the silver 8 of the 12|8 shows no dark spot, so the reading was sure on
    # the tile finder alone (it sees a tile there): 65 for 68, sure
    scene = synth_modes.benchmark_scene("touching", 16, seed=319)
    reading = read_unhurried(scene.jpeg)
    assert not reading.confident
    assert reading.total == scene.total  # (the look at faces then reads the 12)
    monkeypatch.setattr(agree, "PAST_SIDES", False)
    before = read_unhurried(scene.jpeg)
    assert before.confident and before.total == scene.total - 3

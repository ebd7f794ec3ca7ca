"""Issue 27, fifth step: confidence withheld for reasons that did not apply (a surface of the
tiles' colour with no mark of a missed tile; a tile whose rim, not its pips, meets the frame),
and the debug output of the look the reading came from."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from scorekeeper.vision import bars as bars_mod  # noqa: E402
from scorekeeper.vision import checks as checks_mod  # noqa: E402
from scorekeeper.vision import read_hand, synth  # noqa: E402
from scorekeeper.vision import reader as reader_mod  # noqa: E402


def _tile_past_frame(d: float, turn: float = 30.0) -> np.ndarray:
    """Corners of a tile 100 px wide and 200 long, turned ``turn`` degrees, its end A
    reaching ``d`` px past the left edge of the frame (at one corner, when turned)."""
    a = np.deg2rad(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    c = np.array([[0.0, 0.0], [0.0, 100.0], [200.0, 100.0], [200.0, 0.0]]) @ rot.T
    return c + [-c[:, 0].min() - d, 300.0]


SIZE = (800, 800)
OTHERS = [_tile_past_frame(-300.0), _tile_past_frame(-500.0)]  # two whole tiles read


def test_a_tile_whose_rim_reaches_past_the_frame_hides_no_pip():
    # a corner 6 px (0.06 of its width) past the frame: only the rim, where no pip lies
    assert checks_mod._frame_hides_no_pip(_tile_past_frame(6), SIZE, (3, 5), OTHERS)
    # 30 px past it: a pip of half A could lie there
    assert not checks_mod._frame_hides_no_pip(_tile_past_frame(30), SIZE, (3, 5), OTHERS)
    # ... unless half A is blank: pips are laid out the same under a half-turn, and the
    # half-turn of what is past the frame is in the photo, with no pip
    assert checks_mod._frame_hides_no_pip(_tile_past_frame(30), SIZE, (0, 5), OTHERS)
    # most of the blank half past the frame: its half-turn is past it too
    assert not checks_mod._frame_hides_no_pip(_tile_past_frame(120), SIZE, (0, 5), OTHERS)


def test_an_outline_that_may_stop_at_the_frame_edge_may_hide_pips():
    # a corner that stops at the frame's edge, a side along it: the outline may have been
    # fitted to the frame's edge, the rest of the tile beyond it
    assert not checks_mod._frame_hides_no_pip(_tile_past_frame(1), SIZE, (3, 5), OTHERS)
    assert not checks_mod._frame_hides_no_pip(_tile_past_frame(6, 0.0), SIZE, (3, 5), OTHERS)
    # smaller than the other tiles read, or nothing to compare with
    small = [_tile_past_frame(-300.0) * 1.2, _tile_past_frame(-500.0) * 1.2]
    assert not checks_mod._frame_hides_no_pip(_tile_past_frame(6), SIZE, (3, 5), small)
    assert not checks_mod._frame_hides_no_pip(_tile_past_frame(6), SIZE, (3, 5), OTHERS[:1])


def test_a_bar_of_a_tiles_size_outside_the_tiles_read_is_a_mark_of_a_missed_tile():
    quads = [np.array([[300.0, 100.0], [400.0, 100.0], [400.0, 300.0], [300.0, 300.0]])]
    quads.append(quads[0] + [150.0, 0.0])
    u = np.array([1.0, 0.0])
    inside = bars_mod.Bar(np.array([350.0, 200.0]), u, 80.0, 4.0, 1.0)  # a tile's own bar
    lone = bars_mod.Bar(np.array([700.0, 450.0]), u, 80.0, 4.0, 1.0)
    side = bars_mod.Bar(np.array([700.0, 450.0]), u, 200.0, 6.0, 1.0)  # a tile's side
    speck = bars_mod.Bar(np.array([700.0, 450.0]), u, 20.0, 2.0, 1.0)
    assert checks_mod._stray_bars([inside], quads) == 0
    assert checks_mod._stray_bars([inside, lone], quads) == 1
    assert checks_mod._stray_bars([side, speck], quads) == 0


def _clean(**over) -> dict:
    missing = {
        "missed": 0,
        "cut_missed": 0,
        "similar": True,
        "unread": 0,
        "stray": 0,
        "stray_edge": 0,
        "stray_pips": 0,
        "stray_bars": 0,
        "bars_found": 12,
    }
    return {**missing, **over}


@pytest.mark.parametrize(
    ("over", "rejected", "ruled_out"),
    [
        ({}, 0, True),
        ({"stray_bars": 1}, 0, False),
        ({"stray_pips": 1}, 0, False),  # a single pip, below the "missed" check's two
        ({"unread": 1}, 0, False),
        ({}, 1, False),
        ({"bars_found": bars_mod.MAX_BARS}, 0, False),  # a busy photo: more may be left
        ({"stray_bars": None}, 0, False),  # not known
    ],
)
def test_a_surface_like_the_tiles_is_ruled_out_only_with_no_mark_of_a_missed_tile(
    over, rejected, ruled_out
):
    assert reader_mod._surface_ruled_out(_clean(**over), rejected) is ruled_out

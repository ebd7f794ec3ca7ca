"""Issue 40, busy backgrounds and large spreads: the faces of a set are one colour and one size; a
patch of the surface read as a tile (a plain 0|0 on a purple weave) is not a tile, and the reading
that had one is not sure; a piece of a face, much narrower than the tiles read, hides no tile."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from scorekeeper.vision import checks, synth_modes  # noqa: E402
from scorekeeper.vision import reader as reader_mod  # noqa: E402
from scorekeeper.vision.images import open_upright  # noqa: E402
from tests.unit.vision.unhurried import read_unhurried  # noqa: E402

IVORY, WHITE, PURPLE, GREY_CLOTH = (236, 226, 200), (250, 250, 250), (150, 90, 190), (90, 95, 90)
PINK_CLOTH = (200, 150, 150)  # 21 apart from ivory in (a, b), and 60 darker
BLUE_GLARE = (230, 240, 255)  # 22 apart, and lighter: a lamp's bluish glare on an ivory face


def _photo(faces: list[tuple[int, int, int]]) -> tuple[np.ndarray, list[np.ndarray]]:
    """A grey table with one 60 x 120 'tile' of each colour in ``faces``, each with a bar and
    two pips; and their outlines."""
    img = np.full((200, 100 + 100 * len(faces), 3), GREY_CLOTH, np.uint8)
    quads = []
    for k, colour in enumerate(faces):
        x = 50 + 100 * k
        q = np.array([[x, 40], [x + 60, 40], [x + 60, 160], [x, 160]], float)
        cv2.fillConvexPoly(img, q.astype(np.int32), colour)
        cv2.line(img, (x + 8, 100), (x + 52, 100), (30, 30, 30), 3)
        for y in (70, 130):
            cv2.circle(img, (x + 30, y), 6, (20, 20, 20), -1)
        quads.append(q)
    return img, quads


@pytest.mark.parametrize(
    ("faces", "apart"),
    [
        ([IVORY, IVORY, IVORY], []),
        ([IVORY, IVORY, WHITE], []),  # an ivory set under a lamp: whiter, not another colour
        ([IVORY, IVORY, PURPLE], [2]),
        ([IVORY, IVORY, PINK_CLOTH], [2]),
        ([IVORY, IVORY, BLUE_GLARE], []),
        ([PURPLE, IVORY, IVORY, IVORY], [0]),
        ([IVORY], []),  # one tile: nothing to compare it with
    ],
)
def test_a_tile_not_the_colour_of_the_sets_faces_is_found(faces, apart):
    img, quads = _photo(faces)
    every = [True] * len(quads)
    assert checks._not_the_sets_colour(img, quads, every, every) == apart


def test_the_sets_colour_is_that_of_the_tiles_with_pips():
    # three patches read as plain 0|0 outnumber the two tiles with pips: the set is ivory
    img, quads = _photo([PURPLE, PURPLE, PURPLE, IVORY, IVORY])
    pipped = [False, False, False, True, True]
    assert checks._not_the_sets_colour(img, quads, pipped, [True] * 5) == [0, 1, 2]


@pytest.mark.parametrize("cloth", [PURPLE, PINK_CLOTH])
def test_the_sets_colour_is_that_of_the_tiles_the_tile_finder_sees_too(cloth):
    # a weave read as three tiles with pips, beside three real ones: the median of all six
    # says nothing (every tile, or none, is apart); the tile finder sees only the real ones
    img, quads = _photo([cloth] * 3 + [IVORY] * 3)
    pipped = [True] * 6
    assert checks._not_the_sets_colour(img, quads, pipped, [False] * 6) in ([], list(range(6)))
    assert checks._not_the_sets_colour(img, quads, pipped, [False] * 3 + [True] * 3) == [0, 1, 2]
    # the finder seeing none of them: as before (of the tiles with pips)
    assert checks._not_the_sets_colour(img, quads, pipped, [False] * 6) == (
        checks._not_the_sets_colour(img, quads, pipped, [True] * 6)
    )


def test_a_pink_weave_read_as_tiles_with_pips_is_not_offered_when_time_runs_out():
    """Seed 173's busy-006 (3 tiles on a pink weave): the look at 640 px read 14 tiles, 8 of
    them plain 0|0 and 3 with pips, all weave; the full look read it right (40), but within
    the budget it runs out of time and the first look's tiles were offered (115)."""
    scene = synth_modes.benchmark_scene("busy", 6, seed=173)
    up = open_upright(scene.jpeg, max_side=reader_mod.CROP_SIDE)
    rgb = reader_mod.expose(np.asarray(up.image))
    photo = reader_mod._Photo(rgb, 12, up.scale, up.full_size, None, reader_mod.bars.Deadline(None))
    first = photo.smaller(reader_mod.FIRST_SIDE)
    assert len(first.tiles) == len(scene.tiles) == 3 and not first.confident


def test_a_purple_weave_read_as_tiles_is_not_read():
    scene = synth_modes.benchmark_scene("busy", 3, seed=67)  # six 0|0 and two 12|12 before
    reading = read_unhurried(scene.jpeg)
    assert sorted(sorted(t.halves) for t in reading.tiles) == sorted(
        sorted((t.a, t.b)) for t in scene.tiles
    )
    assert not reading.confident


def _outline(x: float, y: float, width: float, group: int):
    from scorekeeper.vision import bars, detect

    corners = np.array([[x, y], [x + width, y], [x + width, y + 2 * width], [x, y + 2 * width]])
    bar = bars.Bar(corners.mean(axis=0), np.array([1.0, 0.0]), 0.8 * width, 3.0, 0.5)
    return detect.Candidate(corners, bar, 1.0, width, 2 * width, group=group)


def test_a_piece_of_a_tiles_face_read_as_a_tile_does_not_hide_it():
    from scorekeeper.vision import counting

    # four tiles 80 wide in a row, a fifth under a 34-wide outline fitted around a mark on
    # its face, read a little surer (a plain 0|0) than the fifth's own outline
    cands = [_outline(100 * k, 0, 80, k) for k in range(5)] + [_outline(423, 40, 34, 5)]
    counts = np.zeros((6, 2, 13))
    counts[:, :, 5] = 0.9
    counts[5, :, :] = 0.0
    counts[5, :, 0] = 0.99
    is_tile = np.array([0.95, 0.95, 0.95, 0.95, 0.9, 0.99])
    kept, _ = counting._keep(cands, is_tile, counts)
    assert sorted(kept) == [0, 1, 2, 3, 4]
    # three tiles and the piece: too few to tell the set's size, left as read
    kept, _ = counting._keep(cands[2:], is_tile[2:], counts[2:])
    assert sorted(kept) == [0, 1, 3]

"""Deciding how sure a reading is: what each tile read shows (cut off by the frame, small,
blurred, under glare), what the tiles read do not explain (a tile-coloured patch, an unread
outline, pips outside every tile), the problems a player is told and the capture advice, and
whether the reading is confident. A stage of the photo reader (``reader.py``); needs the photo
extra."""

from __future__ import annotations

import time

import cv2
import numpy as np

from scorekeeper.rules import Tile
from scorekeeper.rules.words import lazy
from scorekeeper.vision import agree, bars, counting, detect, tilenet
from scorekeeper.vision.checks import (
    CUT_MARGIN,
    _blown_out,
    _blur_sigma,
    _busy_surface,
    _face_at_frame,
    _frame_hides_no_pip,
    _glare_fraction,
    _glare_patch,
    _not_the_sets_colour,
    _to_frame,
    _touching,
)
from scorekeeper.vision.lone_bars import _stray_bars, bars_outside, glare_bars_at
from scorekeeper.vision.missed import (
    STRAY_PIPS,
    _stray_pips,
    _unexplained,
    _unread_outlines,
    finder_unread,
    half_size,
    once_per_image,
)
from scorekeeper.vision.reading import SURE_TILE, Reading, TileReading

# A reading is confident when no BLOCKING problem was found and every tile's confidence is at
# least SURE_TILE (reading.py: the round page's "sure" colour uses the same number). Fitted
# on the real development photos by tools/calibrate_vision.py (see its leave-one-group-out
# report in docs/photo-check.md).
BLUR_LIMIT = 0.018  # estimated edge blur (sigma) as a fraction of the tile width
GLARE_LIMIT = 0.04  # fraction of a tile's face covered by a blown-out highlight
# tiles read that differ this much in size (largest width / smallest): a steep camera tilt,
# under which the checks for a missed tile (sized to the tiles read) cannot be trusted
TILTED_SPREAD = 1.5
# a tile marked so is amber, the player checks it: a reading with one is never sure (and a
# tile read from a snapped outline or a double blank unseen has its confidence times
# FACE_TRUST, as a face's); what it says in the debug output's reasons
AMBER = {
    "snapped": " read from a snapped outline",  # i18n: debug (outlines._snapped)
    "doubted": " from an outline the counter doubts",  # i18n: debug (Look.take_doubted)
    "pale": " has a half of pale pips",  # i18n: debug (Look.recount_pale)
    "glared": "'s face is blown out by glare",  # i18n: debug (_drop_apart)
    "blank": " is a double blank the tile finder does not see",  # i18n: debug (Look.doubt_blanks)
    "barred": " from an outline laid on its bar",  # i18n: debug (Look.try_bars)
}
# an outline shorter than any tile can look, this close to the frame (x its width): cut off
SHORT_CUT_GAP = 0.25
SKEWED = 0.3  # a tile's own four corners this far (x its width) from its rectangle's
SKEWED_SPREAD = 1.3  # ... looked at when the tiles read differ this much in width (real photos
# from above: up to 1.33 with corners up to 0.37 off, never both)

# What a player is told (``lazy``: translated each time it is shown).
PROBLEM_NO_TILES = lazy(
    "No domino tiles were found. Take the photo from straight above, with the tiles face up."
)
PROBLEM_BLUR = lazy(
    "The photo is blurry. Hold the phone still and let it focus before taking the photo."
)
PROBLEM_GLARE = lazy("Glare or reflections hide some pips. Move away from direct light or lamps.")
PROBLEM_CUT = lazy(
    "A tile is cut off at the edge of the photo. Step back so every tile is in the picture."
)
PROBLEM_TOUCHING = lazy(
    "Some tiles are touching. Spread them apart a little so each tile stands alone."
)
PROBLEM_UNSURE = lazy(
    "Some pips could not be counted for sure. Please count the marked tiles by hand."
)
PROBLEM_UNREADABLE = lazy(
    "Something that looks like a tile could not be read (it may be tilted, covered or blurred)."
)
PROBLEM_SURFACE = lazy(
    "The surface is about the same colour as the tiles, so the reader cannot be sure it found "
    "every tile. A darker, plain surface works best."
)
PROBLEM_SMALL = lazy(
    "The tiles are very small in the photo. Hold the phone closer (about 40 cm above the tiles)."
)
PROBLEM_TILTED = lazy(
    "The photo was taken at a steep angle, so a tile may have been missed. Hold the phone "
    "flat, straight above the tiles."
)
PROBLEM_TOO_SLOW = lazy(
    "Could not read this photo: the background is too busy to find the tiles in time. "
    "Lay the tiles on a plain surface and take the photo again from straight above."
)
PROBLEM_CUT_SHORT = lazy(
    "There was not time to check this photo in full (a busy background or many tiles slow the "
    "reader). Check that every tile is outlined and its numbers are right."
)

# What the reader checks, in the order problems are listed. BLOCKING ones make a reading
# not confident whatever the tile confidences (see tools/calibrate_vision.py).
FLAGS = (
    "no_tiles",
    "blur",
    "glare",
    "cut",
    "small",
    "touching",
    "tilted",
    "missed",
    "similar_surface",
)
BLOCKING = ("no_tiles", "glare", "cut", "small", "tilted", "missed", "similar_surface")
PROBLEM_TEXT = {
    "no_tiles": PROBLEM_NO_TILES,
    "blur": PROBLEM_BLUR,
    "glare": PROBLEM_GLARE,
    "cut": PROBLEM_CUT,
    "small": PROBLEM_SMALL,
    "touching": PROBLEM_TOUCHING,
    "tilted": PROBLEM_TILTED,
    "missed": PROBLEM_UNREADABLE,
    "similar_surface": PROBLEM_SURFACE,
}

# Which capture tips (CAPTURE_ADVICE, by position) fit each problem. "Lay the tiles on a plain
# surface" (1) only when the surface is the tiles' colour, or busy and tiles may be missing.
ADVICE_FOR = {
    "no_tiles": (0,),
    "blur": (4,),
    "glare": (3,),
    "cut": (0,),
    "small": (),  # its problem says what to do: hold the phone closer
    "touching": (2,),
    "tilted": (),  # its problem says what to do: hold the phone flat above the tiles
    "missed": (0,),
    "similar_surface": (1,),
    "unsure": (0, 3, 4),
    "busy": (1,),
}


def capture_advice(flags: dict[str, bool], confident: bool) -> list[str]:
    """The capture tips that fit what went wrong (none for a confident reading)."""
    from scorekeeper.vision import CAPTURE_ADVICE

    if confident:
        return []
    picked = sorted({i for f, tips in ADVICE_FOR.items() if flags.get(f) for i in tips})
    return [CAPTURE_ADVICE[i] for i in picked]


def _skewed(finder: tilenet.Finder, quads: list[np.ndarray]) -> bool:
    """Whether the tile finder's own four corners of a tile lying on one of ``quads`` (pixels
    of the image ``finder`` looks at) are SKEWED or more off its rectangle (``tilenet``: a
    tile 60 px wide or more gets both outlines where they differ)."""
    by: dict[int, list] = {}
    for c in finder.tiles():
        by.setdefault(c.group, []).append(c)
    polys = [np.float32(q) for q in quads]
    for rect, *others in by.values():
        mid = (float(rect.corners[:, 0].mean()), float(rect.corners[:, 1].mean()))
        if not any(cv2.pointPolygonTest(p, mid, False) >= 0 for p in polys):
            continue
        for o in others:
            if float(np.abs(o.corners - rect.corners).max()) > SKEWED * rect.width:
                return True
    return False


def _missing(
    small: np.ndarray,
    s: float,
    cands: list,
    kept: list[int],
    edge: np.ndarray,
    is_tile,
    found: list[bars.Bar] | None = None,
) -> dict:
    """What the tiles read do not explain: tile-coloured patches (inside the frame, at its
    edge, or the whole surface like the tiles), bars with an unread tile outline, bars in a
    blown-out glare (``glare_bars``), and dark or coloured pips outside every tile (inside
    the frame, near its edge; counted only from STRAY_PIPS on). ``small`` is the photo read
    at ``s``; ``found``, the bars found in it (None when not known: no ``stray_bars``, bars
    of a tile's size outside every tile read). ``lone_bars``: the bars of ``bar_and_pip``
    and ``glare_bars``, on which ``Look.try_bars`` lays outlines."""
    kept_quads = [cands[i].corners * s for i in kept]  # pixels of small
    half = once_per_image(small, "half", half_size)
    missed, cut_missed, similar = _unexplained(half, [q / 2 for q in kept_quads])
    stray_at: list[tuple[float, float]] = []
    stray, stray_edge = _stray_pips(small, kept_quads, stray_at)
    paired = bars_outside(found, kept_quads, stray_at) if found is not None and kept else []
    glared = glare_bars_at(small, kept_quads)
    return {
        "stray_at": stray_at,  # where they lie (pixels of small)
        "missed": missed,
        "cut_missed": cut_missed,
        "similar": similar,
        "unread": _unread_outlines(cands, kept, edge, is_tile),
        "stray": stray if stray >= STRAY_PIPS else 0,
        "stray_edge": stray_edge if stray_edge >= STRAY_PIPS else 0,
        "stray_pips": stray + stray_edge,  # every one, even a single pip
        "stray_bars": None if found is None else _stray_bars(found, kept_quads),
        "bar_and_pip": len(paired),
        "glare_bars": len(glared),
        "lone_bars": paired + glared,  # the bars of both (pixels of small): Look.try_bars
        "bars_found": None if found is None else len(found),
    }


def _surface_ruled_out(missing: dict, rejected_strong: int) -> bool:
    """On a surface of the tiles' own colour no tile-coloured patch can show a missed tile
    (``similar``), but every tile still has its dark bar, and most have pips: a missed tile
    can be ruled out when the photo has no mark of one at all: no bar of a tile's size
    outside every tile read, not one pip there, no unread outline. Not when the bar finder
    kept as many marks as it keeps (bars.MAX_BARS: a busy photo, more may have been left)."""
    n_bars, stray_bars = missing.get("bars_found"), missing.get("stray_bars")
    if n_bars is None or stray_bars is None or n_bars >= bars.MAX_BARS:
        return False
    return not (
        stray_bars
        or missing["stray_pips"]
        or missing["unread"]
        or missing["missed"]
        or missing["cut_missed"]
        or missing["glare_bars"]
        or rejected_strong
    )


def _at_frame(look, i: int, values: tuple[int, int], n: int, flags: dict, why: list) -> None:
    """Whether the ``n``-th tile read (``look.cands[i]``) is cut off by the frame."""
    rgb, cands = look.rgb, look.cands
    h, w = rgb.shape[:2]
    c_img = cands[i].corners  # pixels of rgb
    W = float(np.linalg.norm(c_img[1] - c_img[0]))
    # a tile whose outline reaches the frame may be cut off (the outline of a cut tile
    # often stops at the frame edge)
    margin = -CUT_MARGIN * W
    if (
        c_img[:, 0].min() < -margin
        or c_img[:, 1].min() < -margin
        or c_img[:, 0].max() > w - 1 + margin
        or c_img[:, 1].max() > h - 1 + margin
    ) and _face_at_frame(rgb, c_img):
        # ... unless the frame cuts off only the tile's rim, or a part of a blank half
        # whose twin under a half-turn is in the photo (see _frame_hides_no_pip)
        others = [cands[j].corners for j in look.kept if j != i]
        if _frame_hides_no_pip(c_img, (w, h), values, others):
            why.append(f"at the frame: tile {n}, no pip beyond it")  # i18n: debug
        else:
            flags["cut"] = True
            why.append(f"cut: outline of tile {n} at the frame edge")  # i18n: debug
    # an outline shorter than any tile can look (even tilted) that ends near the frame:
    # the rest of the tile lies beyond it (an outline between touching tiles in a row
    # can stop short of the frame edge)
    L = float(np.linalg.norm(c_img[3] - c_img[0]))
    gap = min(
        c_img[:, 0].min(),
        c_img[:, 1].min(),
        w - 1 - c_img[:, 0].max(),
        h - 1 - c_img[:, 1].max(),
    )
    if L / max(W, 1e-6) < detect.SHORTEST_ASPECT and gap < SHORT_CUT_GAP * W:
        flags["cut"] = True
        why.append(f"cut: short outline of tile {n} near the frame edge")  # i18n: debug
    # a tile found as a face (no bar to measure it by) near the frame, whose face runs on
    # to the frame: its outline is what the frame left of it
    if cands[i].face and gap < SHORT_CUT_GAP * W and _face_at_frame(rgb, _to_frame(c_img, (w, h))):
        flags["cut"] = True
        why.append(f"cut: tile {n} found as a face at the frame edge")  # i18n: debug


def _tile_reading(
    look, i: int, n: int, scale: float, gray: np.ndarray, flags: dict, why: list
) -> TileReading:
    """The ``n``-th tile read (``look.cands[i]``): its values and confidence, and what it
    shows (cut off, small, blurred, under glare: ``flags``)."""
    c = look.cands[i]
    c_img = c.corners  # pixels of rgb
    p = look.counts[i]
    va, vb = int(np.argmax(p[0])), int(np.argmax(p[1]))
    ca, cb = float(p[0, va]), float(p[1, vb])
    conf = ca * cb * float(look.is_tile[i])
    if c.face or c.snapped or c.blank or c.barred:  # the player checks it (amber, not sure)
        conf *= counting.FACE_TRUST
    why.extend(
        f"unsure: tile {n}{text}"  # i18n: debug
        for flag, text in AMBER.items()
        if getattr(c, flag)
    )
    W = float(np.linalg.norm(c_img[1] - c_img[0]))
    _at_frame(look, i, (va, vb), n, flags, why)
    if W * scale < 60 or W < 40:
        flags["small"] = True
    if _blur_sigma(gray, c_img) / max(W, 1.0) > BLUR_LIMIT:
        flags["blur"] = True
    if _glare_fraction(look.rgb, c_img) > GLARE_LIMIT:
        flags["glare"] = True
    corners_full = tuple((float(x * scale), float(y * scale)) for x, y in c_img)
    return TileReading(Tile(va, vb), conf, corners_full, (va, vb), (ca, cb))


def _photo_flags(look, flags: dict, why: list) -> tuple[bool, float]:
    """What the photo shows beyond each tile (tiles touching, a steep tilt, a tile missed,
    glare outside the tiles, a surface like the tiles): ``flags``; and whether a tile was
    found as a face, and how much the tiles read differ in width."""
    cands, kept, missing = look.cands, look.kept, look.missing
    kept_quads = [cands[i].corners * look.s for i in kept]  # pixels of small
    flags["touching"] = _touching(kept_quads)
    widths = [float(np.linalg.norm(q[1] - q[0])) for q in kept_quads]
    spread = max(widths) / max(min(widths), 1e-6) if widths else 1.0
    # a tile found as a face, without its bar: never a confident reading (when no bar was
    # found at all, the photo is blurred past reading bars)
    faced = any(cands[i].face for i in kept)
    if faced:
        flags["blur"] |= look.faces_only
        why.append("unsure: a tile found as a face, without its bar")  # i18n: debug
    if any(cands[i].short for i in kept):
        flags["tilted"] = True
        why.append("tilted: a tile read from a short outline")  # i18n: debug
    if spread >= TILTED_SPREAD:
        flags["tilted"] = True
        why.append(f"tilted: tiles differ {spread:.2f}x in width")  # i18n: debug
    flags["cut"] |= bool(missing["cut_missed"])
    flags["cut"] |= bool(missing["stray_edge"])
    # a lamp's glare on the table, outside every tile read, may hide a whole tile (a tile
    # found as a face may be the washed-out patch itself: it does not count as read here)
    barred = [q for q, i in zip(kept_quads, kept, strict=True) if not cands[i].face]
    if _glare_patch(look.small, barred):
        flags["glare"] = True
        why.append("glare: blown-out patch outside the tiles read")  # i18n: debug
    _missed_flags(look, flags, why, kept_quads)
    return faced, spread


def _missed_flags(look, flags: dict, why: list, kept_quads: list) -> None:
    """Whether a tile may have been missed (``flags["missed"]``) and whether the surface is
    like the tiles (``flags["similar_surface"]``), from what the tiles read (``kept_quads``,
    pixels of ``look.small``) do not explain."""
    missing, rejected_strong = look.missing, look.rejected_strong
    unseen = finder_unread(look.finder, kept_quads)
    for n_, what in (
        (missing["cut_missed"], "cut: tile-coloured patch at the frame edge"),  # i18n: debug
        (missing["missed"], "missed: unexplained tile-coloured patch"),  # i18n: debug
        (rejected_strong, "missed: outline rejected by the counter"),  # i18n: debug
        (missing["unread"], "missed: unread outline around a bar"),  # i18n: debug
        (missing["stray"], "missed: pips outside every tile read"),  # i18n: debug
        (
            missing["stray_edge"],
            "cut: pips outside every tile read near the frame edge",  # i18n: debug
        ),
        (unseen, "missed: a tile the tile finder sees, not read"),  # i18n: debug
        (missing["glare_bars"], "missed: a bar under glare outside every tile read"),  # i18n: debug
        (missing["bar_and_pip"], "missed: a bar, a pip near it, no tile"),  # i18n: debug
    ):
        if n_:
            why.append(f"{what} x{n_}")
    signs = ("missed", "unread", "stray", "glare_bars", "bar_and_pip")  # (of a tile missed)
    flags["missed"] = bool(rejected_strong or unseen or any(missing[k] for k in signs))
    similar = missing["similar"]
    if similar and _surface_ruled_out(missing, rejected_strong):
        similar = False
        why.append("surface like the tiles, but no mark of a missed tile")  # i18n: debug
    flags["similar_surface"] = similar


def _drop_apart(look, why: list) -> bool:
    """Drops the tiles read that are not the colour of the set's faces (``look.kept``;
    ``checks._not_the_sets_colour``: a patch of the surface read as a tile); whether any
    was (a reading that had one is never confident: what it hid may be a tile missed). A
    face blown out to white by a lamp's glare (``checks._blown_out``) has no colour to tell:
    its tile is kept, amber (``glared``: the player checks it)."""
    quads = [look.cands[i].corners * look.s for i in look.kept]
    pipped = [bool(look.counts[i].argmax(axis=1).any()) for i in look.kept]
    apart = _not_the_sets_colour(
        look.small, quads, pipped, agree.finder_vouches(look.finder, quads)
    )
    for k in [k for k in apart if _blown_out(look.small, quads[k])]:
        look.cands[look.kept[k]].glared = True
        apart.remove(k)
    if apart:
        look.kept = [i for k, i in enumerate(look.kept) if k not in apart]
        why.append(f"missed: {len(apart)} read not the colour of the set's faces")  # i18n: debug
    return bool(apart)


def decide(look, scale: float, full_size: tuple[int, int], debug: dict | None, t0: float):
    """The reading of ``look`` (a ``look.Look`` whose outlines are all counted and kept):
    its tiles, problems, capture advice, and whether it is confident."""
    gray = cv2.cvtColor(look.rgb, cv2.COLOR_RGB2GRAY)
    flags = dict.fromkeys(FLAGS, False)
    why: list[str] = []  # what raised each flag (debug output)
    apart = _drop_apart(look, why)
    tiles: list[TileReading] = []
    for i in look.kept:
        tiles.append(_tile_reading(look, i, len(tiles), scale, gray, flags, why))
    faced, spread = _photo_flags(look, flags, why)
    flags["missed"] |= bool(apart)
    flags["no_tiles"] = not tiles
    score = min((t.confidence for t in tiles), default=0.0)
    sure = score >= SURE_TILE
    # (a tile marked AMBER never makes a reading confident whatever the numbers become)
    amber = any(getattr(look.cands[i], flag) for flag in AMBER for i in look.kept)
    confident = (
        bool(tiles) and sure and not faced and not amber and not any(flags[f] for f in BLOCKING)
    )
    # about to be sure, tiles differing SKEWED_SPREAD in width: a tile whose face the tile
    # finder sees as a clear trapezoid or parallelogram too says the camera is steeply tilted,
    # where a rectangle around a bar may cut off part of a half (a 4|1 read 1|2, sure)
    kept_quads = [look.cands[i].corners * look.s for i in look.kept]
    if (
        confident
        and spread >= SKEWED_SPREAD
        and not look.faces_only
        and _skewed(look.finder, kept_quads)
    ):
        flags["tilted"] = True
        confident = False
        why.append("tilted: a tile's face is a trapezoid")  # i18n: debug
    # (checks agreeing, a half on another number's layout, a doubted half unbacked, pips past
    # a tile's end: an outline short of its tile); made only when they fit in the time left
    checked = confident and agree.time_to_check(look.deadline, len(tiles))
    agreed = _agreeing(look, tiles, kept_quads) if checked else ([], False, False, False)
    checks = agreed[0]
    if confident and (not agree.vouch(checks, agreed[1], flags["blur"], agreed[2]) or agreed[3]):
        confident = False
        why.append(f"unsure: {checked=}, checks/against/unbacked/past {agreed}")  # i18n: debug
    if debug is not None:
        _debug(look, debug, flags, score, why)
    return Reading(
        tiles=tiles,
        total=sum(t.pips for t in tiles),
        confident=confident,
        problems=_problems(flags, tiles, sure),
        width=full_size[0],
        height=full_size[1],
        seconds=time.perf_counter() - t0,
        advice=_advice(look, flags, tiles, sure, confident),
        checks=checks if confident else [],
    )


def _agreeing(look, tiles: list[TileReading], kept_quads) -> tuple[list[str], bool, bool, bool]:
    """The independent checks (``agree.py``) that agree with the tiles read, whether a
    half's pips sit on the layout of another number, whether a half the counter doubts
    has nothing that looks at pips behind it (``agree.doubted_unbacked``), and whether pips
    reach past a tile's end or a half's long side (``agree.look_at_halves``)."""
    read = [(look.cands[i].corners, t.halves) for i, t in zip(look.kept, tiles, strict=True)]
    past: list[int] = []
    spots: list = []
    seen = agree.look_at_halves(look.rgb, read, look.max_pip, past, spots)
    out = agree.halves_agree(seen)
    if agree.finder_agrees(look.finder, kept_quads):
        out.append("finder")
    sureness = [c for t in tiles for c in t.half_confidences]
    return out, agree.against(seen, spots), agree.doubted_unbacked(seen, sureness), any(past)


def _problems(flags: dict, tiles: list, sure: bool) -> list:
    """What the player is told, in the order of FLAGS."""
    problems = [PROBLEM_TEXT[f] for f in FLAGS if flags[f] and f in PROBLEM_TEXT]
    if tiles and not sure and not any(flags[f] for f in BLOCKING):
        problems.append(PROBLEM_UNSURE)
    return problems


def _advice(look, flags: dict, tiles: list, sure: bool, confident: bool) -> list:
    """The capture tips for what went wrong."""
    advice_flags = dict(flags, unsure=bool(tiles) and not sure)
    # a busy surface is worth mentioning only when it may have hidden tiles
    if not confident and (flags["no_tiles"] or flags["missed"]):
        advice_flags["busy"] = _busy_surface(look.rgb, [look.cands[i].corners for i in look.kept])
    return capture_advice(advice_flags, confident)


def _debug(look, debug: dict, flags: dict, score: float, why: list) -> None:
    """What the look saw, for tools/calibrate_vision.py and the tests."""
    debug["candidates"] = [c.corners for c in look.cands]
    debug["probs"] = look.probs
    debug["ink"] = look.ink
    debug["is_tile"] = look.is_tile
    debug["edge"] = look.edge
    debug["kept"] = list(look.kept)
    debug["bars"] = [c.bar for c in look.cands]
    debug["scale"] = look.s
    debug["flags"] = flags
    debug["score"] = score
    debug["why"] = why

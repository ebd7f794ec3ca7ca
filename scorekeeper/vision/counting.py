"""Reading the halves: the half counter (a small CNN, 0-12 pips or "not a half"; for a
double-15 set one of 0-15 pips) run on every outline, the ink on each half, how tile-like
each outline is, and which outlines are kept as tiles. A stage of the photo reader
(``reader.py``); needs the photo extra.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorekeeper.vision import bars
from scorekeeper.vision.checks import _poly_overlap
from scorekeeper.vision.halves import (
    HALF_PX,
    NOT_A_HALF,
    CropSource,
    half_quads,
    normalise,
)
from scorekeeper.vision.onnx import Model

# Two counters: a game of a set up to double-12 is read by the one it always was (0-12 pips,
# "not a half": 14 classes); a double-15 game by one of 17 classes (0-15). One counter for
# all sets read double-12 renders as well or better, but lost two readings the old one got
# right (docs/photo-check.md, "Twelfth step"): the sets it was not needed for keep theirs.
MODEL_PATH = Path(__file__).resolve().parent / "models" / "halves.onnx"
MODEL15_PATH = Path(__file__).resolve().parent / "models" / "halves15.onnx"
MODEL_MAX_PIP = NOT_A_HALF - 1  # the most pips a half counter knows (15: double-15 sets)
SET12_MAX_PIP = 12  # sets up to this are read by ``halves.onnx``
# below this "is a tile" probability an outline is dropped (see reading.SURE_TILE and
# judge.py for when a reading is confident)
ACCEPT_TILE = 0.5
FACE_TRUST = 0.5  # a tile found as a face, its bar not found: its confidence times this
FACE_BLANK = 0.4  # ... read blank: not a tile, but a tile-like outline the counter rejected
SHARPEN_SIGMA = 0.06  # tiles found as faces are read on a copy sharpened at this x their width
SHARPEN_AMOUNT = 1.5  # ... by this much (unsharp mask)

_model = Model(MODEL_PATH)
_model15 = Model(MODEL15_PATH)


def _get_session(max_pip: int = SET12_MAX_PIP):
    """The half counter for a set up to double-``max_pip``."""
    return (_model15 if max_pip > SET12_MAX_PIP else _model).session()


# halves counted per run of the model: 256 at a time held 75 MB more at the peak (the
# activations of a batch), and took the training mix of 100 photos to 400 MB; 64 at a time
# holds a few MB and is no slower
COUNT_BATCH = 64


def classify_halves(crops: np.ndarray, max_pip: int = SET12_MAX_PIP) -> np.ndarray:
    """uint8 N x 40 x 40 x 3 half crops -> N x 17 class probabilities (0..15 pips, not a half),
    by the counter of a set up to double-``max_pip`` (up to double-12: 13-15 are 0)."""
    if len(crops) == 0:
        return np.zeros((0, NOT_A_HALF + 1), np.float32)
    sess = _get_session(max_pip)
    x = normalise(crops)
    logits = np.concatenate(
        [
            sess.run(None, {"input": x[k : k + COUNT_BATCH]})[0]
            for k in range(0, len(x), COUNT_BATCH)
        ]
    )
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    if p.shape[1] == NOT_A_HALF + 1:
        return p
    out = np.zeros((len(p), NOT_A_HALF + 1), p.dtype)  # the counter of sets up to double-12
    out[:, : p.shape[1] - 1] = p[:, :-1]
    out[:, NOT_A_HALF] = p[:, -1]
    return out


INSIDE = slice(round(0.13 * HALF_PX), round(0.87 * HALF_PX))  # a half crop inside its margin
INK_PLAIN = 0.004  # a half with less dark "ink" than this (fraction of its face) is plain
BLANK_EDGE = 1.0  # outline edge strength (x the photo's typical) a double blank needs
BLANK_EDGE_ONE_CLEAR = 0.6  # ... when the counter already calls one of its halves a half
# ... and, read by the double-15 counter, its own 0 at least this on each half (not only the
# largest share of what "not a half" leaves: that counter's leftover leans to 0 on any plain
# surface, 0.001-0.005 on wood beside a dark seam; the double blanks of the real photos 0.09
# and up under it, renders 0.9)
BLANK_P0 = 0.02


def ink_fraction(crops: np.ndarray) -> np.ndarray:
    """Fraction of each half crop's face (inside the margin, above the bar) that is clearly
    darker than the face: pips, or anything else drawn on it. A blank half has none."""
    if len(crops) == 0:
        return np.zeros(0)
    inner = bars.brightest(crops)[:, INSIDE, INSIDE].astype(np.float32)
    face = np.percentile(inner.reshape(len(crops), -1), 75, axis=1)[:, None, None]
    dark = inner < 0.55 * np.maximum(face, 30.0)
    return dark.reshape(len(crops), -1).mean(axis=1)


def tile_evidence(
    probs: np.ndarray, ink: np.ndarray, edge: np.ndarray, max_pip: int
) -> tuple[np.ndarray, np.ndarray]:
    """How tile-like each outline is (N), and the pip-count probabilities of its halves
    (N x 2 x max_pip+1: a double-12 game's halves never read 13, whatever the counter says).

    The half counter's "not a half" class cannot tell a blank (or 1-pip) half from plain
    surface on its own: a near-empty square looks like both. So a half that reads 0 or 1 is
    judged with the rest of the tile: when the other half is clearly a half, the outline sits
    on a bar in the middle of a tile and the near-empty half is a half (its "not a half"
    weight goes to its count). A double blank has no half to lean on: it needs both halves
    plain (no ink at all; read by the double-15 counter, each at ``BLANK_P0`` or more as a 0)
    and a clean outline around its bar.
    """
    if len(probs) == 0:
        return np.zeros(0), np.zeros((0, 2, max_pip + 1))
    q = 1 - probs[:, :, NOT_A_HALF]
    raw = probs[:, :, : max_pip + 1]
    counts = raw / np.maximum(raw.sum(axis=2, keepdims=True), 1e-9)
    v = counts.argmax(axis=2)
    clear = q >= ACCEPT_TILE
    low = v <= 1
    plain = ink < INK_PLAIN
    # a 0 must really be plain; a 1 has one pip of ink
    low_ok = low & ((v == 1) | plain)
    # the other half is clearly a half with pips (a clear 0 next to a plain half is judged as
    # a double blank: plain surface beside a dark line can look like that too)
    other_clear = (clear & (v >= 1))[:, ::-1]
    both_plain = (v == 0).all(axis=1) & plain.all(axis=1)
    if max_pip > SET12_MAX_PIP:
        both_plain &= probs[:, :, 0].min(axis=1) >= BLANK_P0
    double_blank = both_plain & (
        (edge >= BLANK_EDGE) | (clear.any(axis=1) & (edge >= BLANK_EDGE_ONE_CLEAR))
    )
    lean = low_ok & (other_clear | double_blank[:, None])
    # where the rest of the tile says "this is a half", its "not a half" weight goes to the
    # low count it reads
    nh = probs[:, :, NOT_A_HALF]
    bonus = np.zeros_like(raw)
    n_idx, h_idx = np.nonzero(lean)
    bonus[n_idx, h_idx, v[n_idx, h_idx]] = nh[n_idx, h_idx]
    raw = raw + bonus
    counts = raw / np.maximum(raw.sum(axis=2, keepdims=True), 1e-9)
    h = np.where(lean, 1.0, q)
    return h.min(axis=1), counts


def _count_halves(
    src: CropSource, cands: list, deadline: bars.Deadline, max_pip: int = SET12_MAX_PIP
) -> tuple[np.ndarray, np.ndarray]:
    """Half-counter probabilities (N x 2 x classes) and ink (N x 2) of every outline, cut
    from ``src`` (the photo a look reads, its pyramid built once per look), in two rounds:
    first the best-fitting outline of each bar; the other sizes only for bars that look like
    a tile there (a half, or a plain face that may be a double blank). On a busy surface
    most bars are texture and the second round is small."""
    n = len(cands)
    probs = np.zeros((n, 2, NOT_A_HALF + 1), np.float32)
    probs[:, :, NOT_A_HALF] = 1.0  # outlines not looked at are not halves
    ink = np.ones((n, 2))

    def run(idx: list[int]) -> None:
        if not idx:
            return
        crops = np.stack([src.crop(q) for i in idx for q in half_quads(cands[i].corners)])
        probs[idx] = classify_halves(crops, max_pip).reshape(-1, 2, NOT_A_HALF + 1)
        ink[idx] = ink_fraction(crops).reshape(-1, 2)

    first: dict[int, int] = {}
    for i, c in enumerate(cands):
        first.setdefault(c.group, i)
    run(sorted(first.values()))
    deadline.check()
    promising = {
        c.group
        for i, c in enumerate(cands)
        if i == first[c.group]
        and ((1 - probs[i, :, NOT_A_HALF]).max() >= 0.2 or (ink[i] < INK_PLAIN).all())
    }
    run([i for i, c in enumerate(cands) if c.group in promising and i != first[c.group]])
    deadline.check()
    return probs, ink


TOO_SMALL = 0.5  # a tile read narrower than this x the median tile read: not one of the set's
# an outline the counter rejects but doubts (more than DOUBTED "is a tile"), sharing under
# APART of the smaller outline with every tile kept: a tile it may have missed
# (``rejected_strong``), and one ``Look.take_doubted`` may read amber
DOUBTED = 0.25
APART = 0.2


def _keep(cands: list, is_tile: np.ndarray, counts: np.ndarray) -> tuple[list[int], int]:
    """The outlines kept as tiles (``_keep_once``), without any narrower than TOO_SMALL x the
    median width of four or more tiles kept: the tiles of one set are one size (a steep
    tilt makes the near ones at most about twice the far ones), and a piece of a tile's face
    fitted around a mark on it reads as a plain 0|0 over the tile it hides."""
    kept, rejected_strong = _keep_once(cands, is_tile, counts, set())
    if len(kept) < 4:
        return kept, rejected_strong
    widths = {i: float(np.linalg.norm(cands[i].corners[1] - cands[i].corners[0])) for i in kept}
    least = TOO_SMALL * float(np.median(list(widths.values())))
    small = {i for i, w in widths.items() if w < least}
    if not small:
        return kept, rejected_strong
    return _keep_once(cands, is_tile, counts, small)


def _keep_once(
    cands: list, is_tile: np.ndarray, counts: np.ndarray, left_out: set[int]
) -> tuple[list[int], int]:
    """The outlines kept as tiles: the best of each bar, then the best wherever outlines of
    bars overlap (the outlines ``left_out`` never); and how many tile-like outlines the
    counter rejected, on their own."""
    quality = is_tile * counts.max(axis=2).prod(axis=1) if len(is_tile) else np.zeros(0)
    # an outline fitted around a bar before the outline of a face found without one; and a
    # face without its bar must show pips: a blank face with no bar seen is no tile the
    # reader can vouch for (a double blank has its bar), but maybe one it missed
    face = np.array([c.face for c in cands], bool)[: len(quality)]
    blank = (counts.argmax(axis=2) == 0).all(axis=1) if len(quality) else np.zeros(0, bool)
    is_tile = np.where(face & blank, np.minimum(is_tile, FACE_BLANK), is_tile)
    quality = np.where(face, FACE_TRUST * np.where(blank, 0.0, quality), quality)
    order = np.argsort(-quality, kind="stable")
    kept: list[int] = []
    groups_done: set[int] = set()
    rejected_strong = 0
    for i in order:
        ci = cands[i].corners
        if cands[i].group in groups_done or i in left_out:
            continue
        if is_tile[i] < ACCEPT_TILE:
            if is_tile[i] > DOUBTED and all(
                _poly_overlap(ci, cands[j].corners) < APART for j in kept
            ):
                rejected_strong += 1
            groups_done.add(cands[i].group)
            continue
        if any(_poly_overlap(ci, cands[j].corners) > 0.25 for j in kept):
            continue
        kept.append(int(i))
        groups_done.add(cands[i].group)
    return kept, rejected_strong


# pips of a colour near the face's (silver on cream: a 10 read blank): each half of a tile
# kept read PALE_UP_TO pips or fewer is read again from a copy where a pixel is as dark as it
# is far in colour from the face (PALE_GAIN x the distance); a count above the plain read's,
# at least PALE_SURE, is taken
PALE_UP_TO = 1
PALE_GAIN = 3.0
PALE_SURE = 0.9


def pale_crops(crops: np.ndarray) -> np.ndarray:
    """Half crops (N x 40 x 40 x 3) as grey crops where each pixel is as dark as it is far in
    colour from the face's (the median of the lighter half of the crop's inside): pips of
    any colour, silver on cream too, come out dark on white."""
    x = crops.astype(np.float32)
    inner = x[:, INSIDE, INSIDE].reshape(len(x), -1, 3)
    lum = inner.sum(axis=2)
    lighter = lum >= np.median(lum, axis=1, keepdims=True)
    face = np.stack([np.median(v[m], axis=0) for v, m in zip(inner, lighter, strict=True)])
    dist = np.linalg.norm(x - face[:, None, None, :], axis=3)
    grey = np.clip(255.0 - PALE_GAIN * dist, 0, 255).astype(np.uint8)
    return np.repeat(grey[..., None], 3, axis=3)


def recount_pale(
    src: CropSource, cands: list, kept: list[int], counts: np.ndarray, max_pip: int
) -> dict[tuple[int, int], np.ndarray]:
    """The halves of the tiles ``kept`` read PALE_UP_TO pips or fewer whose pale read
    (``pale_crops``, cut from ``src``) counts more, at least PALE_SURE: (outline, half) ->
    the pale read's counts."""
    low = [(i, k) for i in kept for k in (0, 1) if counts[i, k].argmax() <= PALE_UP_TO]
    if not low:
        return {}
    crops = np.stack([src.crop(half_quads(cands[i].corners)[k]) for i, k in low])
    pale = classify_halves(pale_crops(crops), max_pip)[:, : max_pip + 1]
    out = {}
    for (i, k), p in zip(low, pale, strict=True):
        v = int(p.argmax())
        if v > int(counts[i, k].argmax()) and p[v] >= PALE_SURE:
            out[(i, k)] = p / max(float(p.sum()), 1e-9)
    return out


def _sharpened(rgb: np.ndarray, cands: list) -> np.ndarray:
    """``rgb`` sharpened for reading the faces ``cands`` (unsharp mask, SHARPEN_SIGMA of
    their typical width): the pips of a blurred photo come back enough to be counted."""
    widths = [float(np.linalg.norm(c.corners[1] - c.corners[0])) for c in cands]
    sigma = SHARPEN_SIGMA * float(np.median(widths)) if widths else 0.0
    if sigma < 0.5:
        return rgb
    h, w = rgb.shape[:2]
    # the blur on a copy at most 2 pixels of sigma across (the same, at a fraction of the
    # time), all in 8 bits (a full-size photo in floats would take 36 MB a copy)
    f = min(1.0, 2.0 / sigma)
    soft = cv2.resize(
        rgb, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA
    )
    soft = cv2.resize(
        cv2.GaussianBlur(soft, (0, 0), sigma * f), (w, h), interpolation=cv2.INTER_LINEAR
    )
    return cv2.addWeighted(rgb, 1.0 + SHARPEN_AMOUNT, soft, -SHARPEN_AMOUNT, 0.0)

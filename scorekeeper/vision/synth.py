"""Synthetic photos of double-12 dominoes, for training the half counter and for tests.

``render_hand(rng, ...)`` draws a top-down phone photo of some tiles on a table: varied tile
colours (white, ivory), pip colours (including the pale yellow, light blue, grey and silver
pips of real colour-coded sets), pip layouts, bar styles, backgrounds, lighting, glare,
shadows, slight perspective, blur, noise and JPEG compression. It returns the picture and the
truth (tile values and corners). Everything is drawn from the given ``numpy`` Generator, so a
seed fixes the picture.

Needs numpy and OpenCV (the photo extra).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scorekeeper.vision.synth_faces import (
    TileStyle,
    random_style,
    render_face,
)
from scorekeeper.vision.synth_surfaces import render_background


@dataclass
class TileTruth:
    """One tile in a synthetic photo. ``corners``: 4x2 (x, y), the first two on the end of
    half ``a``. ``visible``: fraction of the face inside the frame."""

    a: int
    b: int
    corners: np.ndarray
    visible: float = 1.0


@dataclass
class Scene:
    image: np.ndarray  # RGB uint8
    tiles: list[TileTruth] = field(default_factory=list)
    jpeg: bytes | None = None
    meta: dict = field(default_factory=dict)

    @property
    def total(self) -> int:
        """The face-value pips of every tile drawn: what a right reading totals."""
        return sum(t.a + t.b for t in self.tiles)


def _tile_quad(cx, cy, ang, W, L):
    c, s = np.cos(ang), np.sin(ang)
    loc = np.array([[-W / 2, -L / 2], [W / 2, -L / 2], [W / 2, L / 2], [-W / 2, L / 2]])
    R = np.array([[c, -s], [s, c]])
    return loc @ R.T + np.array([cx, cy])


def _overlaps(quad, others, margin):
    from_poly = cv2.contourArea
    for o in others:
        ret, _ = cv2.intersectConvexConvex(quad.astype(np.float32), o.astype(np.float32))
        if ret > 0:
            return True
        # keep a small margin between tiles when asked
        if margin > 0:
            d = np.min(np.linalg.norm(quad.mean(0) - o.mean(0)))
            if d < margin:
                return True
    del from_poly
    return False


def _place_lchain(rng, n, w, h, W, L, gap):
    """An L-shaped chain: tiles end to end, then a turn of 90 degrees (as played on a
    table), the first tile of the second arm touching the side of the last of the first."""
    ang = rng.uniform(0, 2 * np.pi)
    d = np.array([-np.sin(ang), np.cos(ang)])  # long axis of the first arm's tiles
    e = np.array([np.cos(ang), np.sin(ang)])
    k = max(1, n // 2 + int(rng.integers(-1, 2)))
    k = min(k, n - 1) if n > 1 else 1
    pts = []
    for i in range(k):
        pts.append((d * (L + gap) * i, ang))
    last = d * (L + gap) * (k - 1)
    for j in range(n - k):
        c = last + d * (L / 2 - W / 2) + e * (W / 2 + gap + L / 2 + (L + gap) * j)
        pts.append((c, ang + np.pi / 2))
    total = np.mean([p for p, _ in pts], axis=0)
    centre = np.array([w / 2, h / 2]) + rng.normal(0, 0.05, 2) * [w, h]
    return [
        _tile_quad(
            *(c - total + centre + rng.normal(0, 0.005 * W, 2)), a + rng.normal(0, 0.01), W, L
        )
        for c, a in pts
    ]


def _place_rows(rng, n, w, h, W, L):
    """A large spread: rows of tiles side by side, long sides touching, the rows a little
    apart (about a tenth of a length), the whole turned a little."""
    per_row = max(1, int(np.ceil(np.sqrt(n * L / W * w / h))))
    rows = int(np.ceil(n / per_row))
    ang = rng.uniform(-0.15, 0.15)
    u, v = np.array([np.cos(ang), np.sin(ang)]), np.array([-np.sin(ang), np.cos(ang)])
    step = L * rng.uniform(1.05, 1.15)
    centre = np.array([w / 2, h / 2])
    quads = []
    for k in range(n):
        r, i = divmod(k, per_row)
        c = centre + u * W * (i - (per_row - 1) / 2) + v * step * (r - (rows - 1) / 2)
        c = c + rng.normal(0, 0.005 * W, 2)
        quads.append(_tile_quad(c[0], c[1], ang + rng.normal(0, 0.01), W, L))
    return quads


def _place_tiles(rng, n, w, h, W, L, mode, inside=False, gap=None):
    quads = []
    if mode == "rows":
        return _place_rows(rng, n, w, h, W, L)
    if mode == "lchain":
        return _place_lchain(rng, n, w, h, W, L, (0.0 if gap is None else gap) * W)
    if mode in ("row", "chain"):
        # row: side by side (long sides touching); chain: end to end
        ang = rng.uniform(-0.3, 0.3) + (np.pi / 2 if rng.random() < 0.3 else 0)
        gap = (rng.choice([0.0, 0.0, 0.02, 0.1, 0.3]) if gap is None else gap) * W
        step = (W if mode == "row" else L) + gap
        dirv = np.array([np.cos(ang), np.sin(ang)])
        if mode == "chain":
            dirv = np.array([-np.sin(ang), np.cos(ang)])
        start = np.array([w / 2, h / 2]) - dirv * step * (n - 1) / 2
        start += rng.normal(0, 0.1, 2) * [w, h]
        for i in range(n):
            c = start + dirv * step * i + rng.normal(0, 0.01 * W, 2)
            quads.append(_tile_quad(c[0], c[1], ang + rng.normal(0, 0.02), W, L))
        return quads
    tries = 0
    while len(quads) < n and tries < (1500 if inside else 400):
        tries += 1
        cx = rng.uniform(0.02 * w, 0.98 * w)
        cy = rng.uniform(0.02 * h, 0.98 * h)
        if mode == "grid":
            ang = rng.choice([0, np.pi / 2]) + rng.normal(0, 0.05)
        else:
            ang = rng.uniform(0, np.pi)
        q = _tile_quad(cx, cy, ang, W, L)
        if inside and _visible_fraction(_tile_quad(cx, cy, ang, W * 1.1, L * 1.05), w, h) < 0.999:
            continue
        grow = _tile_quad(cx, cy, ang, W * 1.15, L * 1.08) if rng.random() < 0.85 else q
        if not _overlaps(grow, quads, 0):
            quads.append(q)
    return quads


def _visible_fraction(quad, w, h):
    poly = quad.astype(np.float32)
    box = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inter, _ = cv2.intersectConvexConvex(poly, box)
    area = abs(cv2.contourArea(poly))
    return float(inter / area) if area > 0 else 0.0


def _layout(rng, tiles, size, max_pip, mode, tile_width, style, allow_cut, gap):
    """The photo's size, the tiles, their set's look and where they lie (flat, before the
    camera): (size, tiles, style, tile width, mode, outlines)."""
    if size is None:
        long_side = int(rng.choice([1024, 1280, 1600]))
        short = int(long_side * rng.choice([0.75, 0.5625, 0.8]))
        size = (long_side, short) if rng.random() < 0.5 else (short, long_side)
    w, h = size
    if tiles is None:
        n = int(rng.integers(1, 15))
        max_pip = int(rng.choice([6, 9, 12], p=[0.3, 0.2, 0.5])) if max_pip == 12 else max_pip
        tiles = [
            (int(rng.integers(0, max_pip + 1)), int(rng.integers(0, max_pip + 1))) for _ in range(n)
        ]
    n = len(tiles)
    style = style or random_style(rng, max_pip)
    long_side = max(w, h)
    if tile_width is None:
        # bigger tiles when there are few of them
        hi = 0.16 if n <= 4 else 0.12 if n <= 8 else 0.09
        tile_width = rng.uniform(0.05, hi) if rng.random() < 0.8 else rng.uniform(0.03, 0.05)
    W = tile_width * long_side
    L = W * style.aspect
    if mode is None:
        mode = str(rng.choice(["scatter", "scatter", "grid", "row", "chain"]))
    quads = _place_tiles(rng, n, w, h, W, L, mode, inside=not allow_cut, gap=gap)
    if not allow_cut:
        quads = [q for q in quads if _visible_fraction(q, w, h) > 0.999]
    return size, tiles[: len(quads)], style, W, mode, quads


def _camera(rng, size, quads, d: float, tilt_deg: float | None):
    """The camera: slight jitter, and often a real tilt of up to 30 degrees (the phone not
    held flat): the homography of a camera turned about its centre, H = K R K^-1. Returns
    (H, tilt in radians)."""
    w, h = size
    long_side = max(w, h)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = (src + rng.normal(0, 0.025 * d, (4, 2)) * [w, h]).astype(np.float32)
    H = cv2.getPerspectiveTransform(src, dst)
    if tilt_deg is None:
        tilt = float(rng.uniform(0, np.radians(30)) * d) if rng.random() < 0.5 else 0.0
    else:
        tilt = float(np.radians(tilt_deg))
    if tilt > 0:
        f = long_side * rng.uniform(0.75, 1.1)
        K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
        axis = rng.uniform(0, 2 * np.pi)
        rvec = np.array([np.cos(axis), np.sin(axis), 0.0]) * tilt
        R, _ = cv2.Rodrigues(rvec)
        T = K @ R @ np.linalg.inv(K) @ H
        # keep the tiles where they were and about the same size: move and scale the tilted
        # view so the tiles' centre stays put
        c = np.mean([q.mean(axis=0) for q in quads], axis=0) if quads else np.array([w / 2, h / 2])
        pts = cv2.perspectiveTransform(
            np.float32([[c, c + [1, 0], c + [0, 1]]]).reshape(1, -1, 2), T
        )[0]
        e1, e2 = pts[1] - pts[0], pts[2] - pts[0]
        jac = abs(float(e1[0] * e2[1] - e1[1] * e2[0]))
        k = 1 / np.sqrt(max(jac, 1e-6))
        S = np.array([[k, 0, c[0] - k * pts[0][0]], [0, k, c[1] - k * pts[0][1]], [0, 0, 1]])
        H = S @ T
    return H, tilt


def _draw_face(img, face, mask, q, W):
    """A tile's face (``face``, ``mask``) drawn into ``img`` on the outline ``q``."""
    h, w = img.shape[:2]
    fh, fw = mask.shape
    srcq = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    M = cv2.getPerspectiveTransform(srcq, q.astype(np.float32))
    x0, y0 = np.floor(q.min(0)).astype(int) - 2
    x1, y1 = np.ceil(q.max(0)).astype(int) + 2
    x0c, y0c, x1c, y1c = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1c > x0c and y1c > y0c:
        T = np.array([[1, 0, -x0c], [0, 1, -y0c], [0, 0, 1]], np.float64)
        MM = T @ M
        roi = (x1c - x0c, y1c - y0c)
        wf = cv2.warpPerspective(
            face, MM, roi, flags=cv2.INTER_AREA if fw > W else cv2.INTER_LINEAR
        )
        wm = cv2.warpPerspective(mask.astype(np.float32) / 255.0, MM, roi, flags=cv2.INTER_LINEAR)
        sub = img[y0c:y1c, x0c:x1c]
        sub[:] = sub * (1 - wm[..., None]) + wf * wm[..., None]


def _draw_tiles(rng, img, tiles, imgq, style, W, d) -> list[TileTruth]:
    """The tiles' shadows (all of them first), then their bodies and faces."""
    h, w = img.shape[:2]
    thick = rng.uniform(0.12, 0.3) * W * (0.5 + d)
    tdir = rng.normal(0, 1, 2)
    tdir = tdir / (np.linalg.norm(tdir) + 1e-9) * thick * rng.uniform(0.1, 0.6)
    shadow_dir = rng.normal(0, 1, 2)
    shadow_dir = shadow_dir / (np.linalg.norm(shadow_dir) + 1e-9) * thick * rng.uniform(0.2, 1.0)
    truths = []
    shadow = np.zeros((h, w), np.float32)
    for q in imgq:
        cv2.fillConvexPoly(shadow, (q + shadow_dir).astype(np.int32), 1.0, cv2.LINE_AA)
    k = int(max(3, W * 0.15)) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)
    img *= (1 - rng.uniform(0.2, 0.6) * shadow)[..., None]
    face_px = int(np.clip(W * 1.5, 24, 400))
    for (a, b), q in zip(tiles, imgq, strict=True):
        body = np.concatenate([q, q + tdir]).astype(np.float32)
        hull = cv2.convexHull(body).astype(np.int32)
        side = style.face * rng.uniform(0.6, 0.85)
        cv2.fillConvexPoly(img, hull, side.tolist(), cv2.LINE_AA)
        face, mask = render_face(a, b, style, face_px, rng)
        _draw_face(img, face, mask, q, W)
        truths.append(TileTruth(a, b, q.astype(np.float64), _visible_fraction(q, w, h)))
    return truths


def _lighting(rng, img, d: float, glare: bool | None) -> bool:
    """Light falloff, vignette, colour cast, sometimes a broad soft shadow (a phone, a
    hand) and a lamp's glare (by chance when ``glare`` is None). Returns whether there is
    glare."""
    h, w = img.shape[:2]
    long_side = max(w, h)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.normal(0, 0.12 * d, 2)
    light = 1 + g[0] * (xx / w - 0.5) + g[1] * (yy / h - 0.5)
    r2 = (xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2
    light *= 1 - rng.uniform(0, 0.35) * d * r2
    exposure = rng.uniform(0.7, 1.1) if d > 0 else 1.0
    img *= (light * exposure)[..., None]
    cast = 1 + rng.normal(0, 0.03 * d, 3)
    img *= cast.astype(np.float32)
    if rng.random() < 0.25 * d:
        m = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        axes = (int(rng.uniform(0.1, 0.5) * w), int(rng.uniform(0.1, 0.4) * h))
        cv2.ellipse(m, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), 0.05 * long_side)
        img *= (1 - rng.uniform(0.2, 0.5) * m)[..., None]
    drawn = rng.random() < 0.3 * d
    glare = drawn if glare is None else glare
    if glare:
        m = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(1, 3))):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            ax = rng.uniform(0.02, 0.12) * long_side
            axes = (int(ax), int(ax * rng.uniform(0.2, 1)))
            cv2.ellipse(m, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), 0.01 * long_side + 1)
        img += (m * rng.uniform(60, 200))[..., None]
    return glare


def _optics(rng, img, d: float) -> tuple[np.ndarray, bool]:
    """Lens blur (sometimes a photo out of focus), motion blur and sensor noise: (the
    picture, whether it is out of focus)."""
    long_side = max(img.shape[:2])
    sigma = rng.uniform(0, 1.2) * d * (long_side / 1280)
    blurred = rng.random() < 0.08 * d
    if blurred:
        sigma = rng.uniform(2.5, 5) * long_side / 1280
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.15 * d:
        klen = int(rng.integers(3, 9))
        k = np.zeros((klen, klen), np.float32)
        k[klen // 2, :] = 1.0 / klen
        R = cv2.getRotationMatrix2D((klen / 2 - 0.5, klen / 2 - 0.5), rng.uniform(0, 180), 1)
        k = cv2.warpAffine(k, R, (klen, klen))
        k /= max(k.sum(), 1e-6)
        img = cv2.filter2D(img, -1, k)
    img += rng.normal(0, rng.uniform(0.5, 5) * d + 0.5, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), blurred


def _in_frame(q: np.ndarray, H: np.ndarray, w: int, h: int) -> bool:
    """Whether the outline ``q``, seen through the camera ``H``, lies wholly in the frame."""
    qi = cv2.perspectiveTransform(q.reshape(1, -1, 2).astype(np.float32), H)[0]
    return _visible_fraction(qi, w, h) > 0.999


def render_hand(
    rng: np.random.Generator,
    tiles: list[tuple[int, int]] | None = None,
    *,
    size: tuple[int, int] | None = None,
    max_pip: int = 12,
    difficulty: float = 1.0,
    allow_cut: bool = True,
    mode: str | None = None,
    jpeg_quality: int | None = None,
    tile_width: float | None = None,
    surface: str | None = None,
    tilt_deg: float | None = None,
    surface_colour: tuple[int, int, int] | None = None,
    style: TileStyle | None = None,
    gap: float | None = None,
    glare: bool | None = None,
) -> Scene:
    """Render a top-down phone photo of ``tiles`` (random ones when None).

    ``difficulty`` scales blur, noise, glare and perspective (0 = clean, 1 = training mix).
    ``size`` is (width, height); ``surface`` one of SURFACE_KINDS and ``surface_colour`` its
    RGB colour; ``style`` the tile set's look (random when None); ``gap`` the gap between
    tiles of a row or chain (x the tile width; ``mode`` "lchain" is an L-shaped chain);
    ``glare`` a lamp's glare on the photo (by chance, more often with ``difficulty``, when
    None); ``mode`` "rows" lays the tiles in rows side by side, touching (a large spread);
    ``tilt_deg`` the camera's
    tilt from straight down (random, up to 30 x difficulty degrees, when None). The returned
    scene has ``image`` (RGB) and, when ``jpeg_quality`` is set or chosen, ``jpeg`` bytes of
    the same picture.
    """
    size, tiles, style, W, mode, quads = _layout(
        rng, tiles, size, max_pip, mode, tile_width, style, allow_cut, gap
    )
    w, h = size
    d = difficulty
    H, tilt = _camera(rng, size, quads, d, tilt_deg)
    if not allow_cut:
        quads = [q for q in quads if _in_frame(q, H, w, h)]
        tiles = tiles[: len(quads)]
    img = render_background(rng, h, w, surface, surface_colour)
    imgq = [cv2.perspectiveTransform(q.reshape(1, -1, 2).astype(np.float32), H)[0] for q in quads]
    truths = _draw_tiles(rng, img, tiles, imgq, style, W, d)
    glare = _lighting(rng, img, d, glare)
    out, blurred = _optics(rng, img, d)
    meta = {"mode": mode, "glare": glare, "blurred": blurred, "tile_width": W}
    meta["tilt_deg"] = round(float(np.degrees(tilt)), 1)
    scene = Scene(out, truths, meta=meta)
    q = jpeg_quality
    if q is None and d > 0:
        q = int(rng.integers(60, 96))
    if q:
        ok, buf = cv2.imencode(
            ".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, int(q)]
        )
        scene.jpeg = buf.tobytes()
        scene.image = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return scene


def encode_png(rgb: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return buf.tobytes()

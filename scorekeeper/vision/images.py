"""Opening uploads safely: size limits, EXIF orientation, stripping metadata.

Needs Pillow (and pillow-heif for HEIC). Every failure is an :class:`ImageError` with a
message in plain words; no other exception type escapes from :func:`open_upright` or
:func:`sanitize_image`.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from scorekeeper.rules.words import lazy
from scorekeeper.vision.errors import ImageError

try:  # HEIC from iPhones; optional at import so a missing wheel only disables HEIC.
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIC_SUPPORTED = True
except Exception:  # pragma: no cover - depends on the platform wheel
    HEIC_SUPPORTED = False

MAX_UPLOAD_BYTES = 15 * 1024 * 1024
"""Largest upload accepted (15 MB)."""

MAX_PIXELS = 52_000_000
"""Largest JPEG accepted: enough for 48-megapixel phone cameras (8064 x 6048). A JPEG is
decoded reduced (draft mode), so a large one costs little memory."""

MAX_FULL_DECODE_PIXELS = 25_000_000
"""Largest PNG or HEIC accepted (iPhones save 12 or 24 megapixels): these decode at full size,
about 3 bytes a pixel and a few copies, so the limit is what keeps a photo's memory bounded."""

MIN_SIDE = 32
ACCEPTED_FORMATS = ("JPEG", "PNG", "HEIF")  # MPO (multi-picture JPEG) opens as JPEG

# Pillow warns above MAX_IMAGE_PIXELS and refuses above twice that. Tighten it (never loosen
# it) to our own limit so a decompression bomb is stopped while only the header is read.
if Image.MAX_IMAGE_PIXELS is None or Image.MAX_IMAGE_PIXELS > MAX_PIXELS:
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS

# What a player is told about an upload (``str(err)`` of an ImageError), translated when shown.
NOT_AN_IMAGE = lazy(
    "This file is not a photo we can read. Please upload a JPEG, PNG or HEIC photo."
)
DAMAGED = lazy(
    "This photo is damaged or incomplete (the upload may have been cut short). Please try again."
)
TOO_LARGE_FILE = lazy("This file is larger than 15 MB. Please upload a smaller photo.")
TOO_MANY_PIXELS = lazy(
    "This photo has too many pixels to read safely (more than about 50 megapixels). "
    "Please use the phone's normal camera setting."
)
TOO_MANY_PIXELS_FULL = lazy(
    "This photo has too many pixels to read safely (more than about 25 megapixels for PNG "
    "and HEIC photos). Please use the phone's normal camera setting or send a JPEG."
)
TOO_SMALL = lazy(
    "This photo is too small to read. Please take a photo of the tiles with the camera."
)
EMPTY = lazy("The upload is empty. Please choose a photo.")


@dataclass
class UprightImage:
    """A decoded photo, EXIF orientation applied, possibly reduced in size.

    ``scale`` converts pixels of ``image`` to pixels of the full-size upright photo
    (``full_size``): multiply by it.
    """

    image: Image.Image
    full_size: tuple[int, int]
    scale: float
    format: str


def _check_bytes(data: bytes) -> None:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ImageError(NOT_AN_IMAGE)
    if len(data) == 0:
        raise ImageError(EMPTY)
    if len(data) > MAX_UPLOAD_BYTES:
        raise ImageError(TOO_LARGE_FILE)


def _orientation(im: Image.Image) -> int:
    try:
        value = int(im.getexif().get(0x0112, 1) or 1)
    except Exception:  # corrupt EXIF: treat as upright rather than refuse the photo
        return 1
    return value if 1 <= value <= 8 else 1


_TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


def _to_rgb(im: Image.Image) -> Image.Image:
    if im.mode == "RGB":
        return im
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        im = im.point(lambda v: v / 256).convert("L")
    if im.mode == "P" or "A" in im.getbands() or im.mode in ("LA", "PA"):
        im = im.convert("RGBA")
        flat = Image.new("RGB", im.size, (255, 255, 255))
        flat.paste(im, mask=im.getchannel("A"))
        return flat
    return im.convert("RGB")


def _open(data: bytes) -> Image.Image:
    _check_bytes(data)
    try:
        im = Image.open(io.BytesIO(bytes(data)), formats=ACCEPTED_FORMATS)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as err:
        raise ImageError(TOO_MANY_PIXELS) from err
    except UnidentifiedImageError as err:
        raise ImageError(NOT_AN_IMAGE) from err
    except Exception as err:
        raise ImageError(DAMAGED) from err
    # The size comes from the header: nothing has been decoded yet.
    w, h = im.size
    if w * h > MAX_PIXELS:
        raise ImageError(TOO_MANY_PIXELS)
    if im.format not in ("JPEG", "MPO") and w * h > MAX_FULL_DECODE_PIXELS:
        raise ImageError(TOO_MANY_PIXELS_FULL)
    if w < 1 or h < 1:
        raise ImageError(DAMAGED)
    return im


def _decode(im: Image.Image, max_side: int | None) -> tuple[Image.Image, tuple[int, int]]:
    """Decode (reduced with JPEG draft mode when possible), apply orientation, return RGB."""
    orientation = _orientation(im)
    w, h = im.size
    full = (h, w) if orientation in (5, 6, 7, 8) else (w, h)
    if max_side and max(w, h) > max_side and im.format in ("JPEG", "MPO"):
        s = max_side / max(w, h)
        im.draft("RGB", (math.ceil(w * s), math.ceil(h * s)))
    im.load()
    out = _to_rgb(im)
    if orientation in _TRANSPOSE:
        out = out.transpose(_TRANSPOSE[orientation])
    if max_side and max(out.size) > max_side:
        s = max_side / max(out.size)
        size = (max(1, round(out.width * s)), max(1, round(out.height * s)))
        out = out.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    return out, full


def _guard(fn, *args):
    """Run a decoding step so that only ImageError can come out of it."""
    try:
        return fn(*args)
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as err:
        raise ImageError(TOO_MANY_PIXELS) from err
    except MemoryError as err:
        raise ImageError(TOO_MANY_PIXELS) from err
    except Exception as err:  # OSError (truncated), SyntaxError, ValueError, struct.error ...
        raise ImageError(DAMAGED) from err


def open_upright(data: bytes, max_side: int | None = None) -> UprightImage:
    """Open an upload as an upright RGB image, at most ``max_side`` pixels on its long side."""

    def run() -> UprightImage:
        im = _open(data)
        fmt = im.format or ""
        with im:
            out, full = _decode(im, max_side)
        if min(full) < MIN_SIDE:
            raise ImageError(TOO_SMALL)
        return UprightImage(out, full, full[0] / out.width, fmt)

    return _guard(run)


def sanitize_image(data: bytes, *, max_side: int | None = None, quality: int = 90) -> bytes:
    """Return the photo re-encoded as JPEG for storage: EXIF orientation applied to the pixels,
    every metadata block (EXIF including GPS, XMP, comments) removed; the colour profile is
    kept. The size is unchanged unless ``max_side`` is given, so tile corners from
    :func:`read_hand` stay valid on the stored photo.

    Raises :class:`ImageError` for anything that is not a readable JPEG, PNG or HEIC photo
    of at most 15 MB.
    """

    def run() -> bytes:
        im = _open(data)
        with im:
            icc = im.info.get("icc_profile")
            out, _ = _decode(im, max_side)
        clean = Image.new("RGB", out.size)
        clean.paste(out)
        buf = io.BytesIO()
        kwargs = {"quality": int(quality), "optimize": True}
        if isinstance(icc, bytes) and icc:
            kwargs["icc_profile"] = icc
        clean.save(buf, format="JPEG", **kwargs)
        return buf.getvalue()

    return _guard(run)

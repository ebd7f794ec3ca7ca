"""Reading the pips of a hand of dominoes from a phone photo.

A pure library: bytes in, a :class:`Reading` out; no web code. The reading checks a typed
total, it never silently replaces one.

    from scorekeeper.vision import read_hand
    reading = read_hand(image_bytes, max_pip=12)   # JPEG, PNG or HEIC, up to 15 MB
    reading.tiles      # [TileReading(tile=Tile(a, b), confidence=0..1, corners=4 (x, y) points)]
    reading.total      # face-value pips of all tiles read
    reading.confident  # True only when the reader would stake the total on it
    reading.problems   # plain-language strings (blur, glare, tile cut off, ...)

The heavy dependencies (numpy, OpenCV, ONNX Runtime, Pillow) are the optional extra
``photo`` and are imported only when a photo is read, so this module imports without them;
:func:`photo_support` tells whether they are there.
"""

from __future__ import annotations

import importlib.util

from scorekeeper.rules.words import LazyText, _, lazy
from scorekeeper.vision.errors import INSTALL_HINT, ImageError, VisionError, VisionUnavailable
from scorekeeper.vision.reading import SURE_TILE, Reading, TileReading

__all__ = [
    "CAPTURE_ADVICE",
    "ImageError",
    "MAX_READABLE_PIP",
    "Reading",
    "SURE_TILE",
    "TileReading",
    "VisionError",
    "VisionUnavailable",
    "photo_support",
    "read_hand",
    "sanitize_image",
]

# Translated each time they are shown (``lazy``): in the language of whoever reads them.
CAPTURE_ADVICE: list[LazyText] = [
    lazy("Hold the phone flat, straight above the tiles, so every tile is in the picture."),
    lazy(
        "Lay the tiles face up on a plain surface that contrasts with them (a dark table or cloth)."
    ),
    lazy("Leave a small gap between the tiles so they do not touch."),
    lazy("Use good, even light without glare: avoid lamps or sun reflecting on the tiles."),
    lazy("Hold still and let the camera focus before taking the photo."),
]

_REQUIRED = {
    "numpy": "numpy",
    "cv2": "opencv-python-headless",
    "onnxruntime": "onnxruntime",
    "PIL": "pillow",
}


def _missing() -> list[str]:
    missing = []
    for module, package in _REQUIRED.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(package)
    return missing


def _needs_extra(missing: list[str]) -> str:
    return _(
        "Reading photos needs the photo extra (missing: %(missing)s). Install it with: %(command)s",
        missing=", ".join(missing),
        command=INSTALL_HINT,
    )


def photo_support() -> tuple[bool, str]:
    """(available, message). When not available the message says what to install."""
    missing = _missing()
    if missing:
        return False, (_needs_extra(missing))
    from pathlib import Path

    models = Path(__file__).resolve().parent / "models"
    for name in ("halves.onnx", "halves15.onnx"):
        if not (models / name).is_file():
            return False, _(
                "The pip-counting model is missing from the installation (%(path)s).",
                path=models / name,
            )
    if not (models / "tiles.onnx").is_file():
        return False, _(
            "The tile-finding model is missing from the installation (%(path)s).",
            path=models / "tiles.onnx",
        )
    heic = importlib.util.find_spec("pillow_heif") is not None
    if heic:
        return True, _("Photo reading is available.")
    return True, _("Photo reading is available (HEIC photos need pillow-heif).")


def _require() -> None:
    missing = _missing()
    if missing:
        raise VisionUnavailable(_needs_extra(missing))


#: The biggest set the half counter was trained for (double-15: 0 to 15 pips a half).
MAX_READABLE_PIP = 15


def read_hand(image: bytes, max_pip: int = 12) -> Reading:
    """Read the tiles in a photo (bytes of a JPEG, PNG or HEIC file, up to 15 MB).

    Raises :class:`ImageError` (a ValueError) for uploads that are not a readable photo and
    :class:`VisionUnavailable` when the photo extra is not installed.
    """
    if (
        not isinstance(max_pip, int)
        or isinstance(max_pip, bool)
        or not 0 <= max_pip <= MAX_READABLE_PIP
    ):
        raise ValueError("max_pip must be a whole number from 0 to 15 (sets up to double-15)")
    _require()
    try:
        from scorekeeper.vision import reader
    except ImportError as err:  # a broken install of the extra
        raise VisionUnavailable(
            _(
                "Photo reading could not start (%(error)s). Install: %(command)s",
                error=err,
                command=INSTALL_HINT,
            )
        ) from err
    return reader.read_bytes(image, max_pip=max_pip)


def sanitize_image(data: bytes, *, max_side: int | None = None) -> bytes:
    """The upload as a JPEG for storage: EXIF orientation applied, all EXIF (GPS included) and
    other metadata removed, same size unless ``max_side`` is given. Raises
    :class:`ImageError` for anything that is not a readable JPEG, PNG or HEIC photo of at most
    15 MB."""
    try:
        from scorekeeper.vision import images
    except ImportError as err:
        raise VisionUnavailable(
            _("Storing photos needs Pillow. Install: %(command)s", command=INSTALL_HINT)
        ) from err
    return images.sanitize_image(data, max_side=max_side)

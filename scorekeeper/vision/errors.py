"""Errors raised by :mod:`scorekeeper.vision`. Importable without the photo extra."""

from __future__ import annotations

INSTALL_HINT = 'pip install "scorekeeper[photo]"'  # i18n: a command


class VisionError(Exception):
    """Base class for everything the photo reader raises on purpose."""


class VisionUnavailable(VisionError, RuntimeError):
    """The optional photo extra (numpy, OpenCV, ONNX Runtime, Pillow) is not installed."""


class ImageError(VisionError, ValueError):
    """The upload is not a photo we can read. ``str(err)`` is a plain-language message
    that can be shown to the player as it is."""

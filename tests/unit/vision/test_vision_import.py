"""scorekeeper.vision imports without the photo extra and says what to install."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

import scorekeeper.vision as vision


def test_public_api_is_there():
    for name in (
        "read_hand",
        "sanitize_image",
        "photo_support",
        "ImageError",
        "VisionUnavailable",
        "CAPTURE_ADVICE",
        "Reading",
        "TileReading",
    ):
        assert hasattr(vision, name)
    assert issubclass(vision.ImageError, ValueError)
    assert all(str(s) for s in vision.CAPTURE_ADVICE)
    assert len(vision.CAPTURE_ADVICE) >= 4


@pytest.fixture
def shouting():
    """A translator that upper-cases every sentence (stands for Spanish or French)."""
    from scorekeeper.rules import words

    words.install(lambda m: m.upper(), lambda s, p, n: (s if n == 1 else p).upper())
    yield
    words.install(lambda m: m, lambda s, p, n: s if n == 1 else p)


def test_what_a_player_reads_goes_through_the_translator(shouting):
    """Capture advice, upload errors and the reader's problems are translated when shown (they
    are declared at import time, so in the language of whoever looks), and a reading stored as
    JSON holds them as text in that language."""
    pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    from scorekeeper.vision import images, reader
    from scorekeeper.vision.reading import Reading

    gap = "LEAVE A SMALL GAP BETWEEN THE TILES SO THEY DO NOT TOUCH."
    assert str(vision.CAPTURE_ADVICE[2]) == gap
    assert str(vision.ImageError(images.EMPTY)) == "THE UPLOAD IS EMPTY. PLEASE CHOOSE A PHOTO."
    stored = Reading(problems=[reader.PROBLEM_BLUR], advice=[vision.CAPTURE_ADVICE[4]]).as_dict()
    assert stored["problems"] == [str(reader.PROBLEM_BLUR)]
    assert stored["problems"][0].startswith("THE PHOTO IS BLURRY.")
    assert stored["advice"][0].startswith("HOLD STILL")
    import json

    json.dumps(stored)  # plain text, nothing lazy left


@pytest.mark.slow  # a fresh interpreter
def test_import_does_not_load_heavy_dependencies():
    code = (
        "import sys, scorekeeper.vision as v; "
        "print(sorted(m for m in ('cv2', 'onnxruntime', 'torch') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def _hide(monkeypatch, hidden: str):
    real = importlib.util.find_spec

    def fake(name, *args, **kwargs):
        if name == hidden or name.startswith(hidden + "."):
            return None
        return real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", fake)


@pytest.mark.parametrize("module", ["cv2", "numpy", "onnxruntime"])
def test_missing_extra_is_reported(monkeypatch, module):
    _hide(monkeypatch, module)
    ok, message = vision.photo_support()
    assert ok is False
    assert 'pip install "scorekeeper[photo]"' in message
    with pytest.raises(vision.VisionUnavailable, match=r"scorekeeper\[photo\]"):
        vision.read_hand(b"\xff\xd8 not really a photo")


def test_photo_support_when_installed():
    pytest.importorskip("numpy")
    pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    pytest.importorskip("PIL")
    ok, message = vision.photo_support()
    assert ok is True, message


@pytest.mark.parametrize("bad", [-1, 16, 18, 2.5, True, "12"])
def test_max_pip_is_checked(bad):
    with pytest.raises(ValueError):
        vision.read_hand(b"", max_pip=bad)


BLOCKER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {'numpy', 'cv2', 'onnxruntime', 'PIL', 'pillow_heif'}:
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, Block())
import scorekeeper.vision as v
ok, msg = v.photo_support()
print(ok, msg)
try:
    v.read_hand(b'abc')
except v.VisionUnavailable as err:
    print('unavailable:', err)
try:
    v.sanitize_image(b'abc')
except v.VisionUnavailable as err:
    print('unavailable:', err)
"""


@pytest.mark.slow  # a fresh interpreter
def test_without_the_extra_in_a_fresh_interpreter():
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", BLOCKER], capture_output=True, text=True, check=True
    ).stdout
    lines = out.strip().splitlines()
    assert lines[0].startswith("False")
    assert 'pip install "scorekeeper[photo]"' in lines[0]
    assert lines[1].startswith("unavailable:") and "scorekeeper[photo]" in lines[1]
    assert lines[2].startswith("unavailable:")

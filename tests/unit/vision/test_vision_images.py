"""Uploads: limits, damaged files, decompression bombs, EXIF orientation and stripping."""

from __future__ import annotations

import io
import struct
import zlib

import pytest

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from scorekeeper.vision import ImageError, sanitize_image  # noqa: E402
from scorekeeper.vision.images import MAX_UPLOAD_BYTES, open_upright  # noqa: E402


def _jpeg(img: Image.Image, **kwargs) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=92, **kwargs)
    return buf.getvalue()


def _two_colour(w=60, h=40) -> Image.Image:
    """Left half red, right half blue."""
    img = Image.new("RGB", (w, h), (220, 20, 20))
    img.paste((20, 20, 220), (w // 2, 0, w, h))
    return img


def _exif_with_gps(orientation: int) -> Image.Exif:
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "PhoneMaker"
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (51.0, 30.0, 12.5)
    gps[3] = "W"
    gps[4] = (0.0, 7.0, 39.0)
    return exif


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims a huge image (a decompression bomb's calling card)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"hello, this is not a photo",
        b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n",
        b"\xff\xd8\xff\xe0" + b"\0" * 100,  # a JPEG that stops after its first marker
    ],
)
def test_not_an_image(data):
    with pytest.raises(ImageError):
        sanitize_image(data)
    with pytest.raises(ImageError):
        open_upright(data)


def test_truncated_jpeg():
    data = _jpeg(Image.effect_noise((400, 300), 60).convert("RGB"))
    for cut in (len(data) // 2, len(data) - 200):
        with pytest.raises(ImageError, match="damaged or incomplete"):
            sanitize_image(data[:cut])
        with pytest.raises(ImageError):
            open_upright(data[:cut], max_side=200)


@pytest.mark.parametrize("size", [(8000, 8000), (30000, 30000)])
def test_decompression_bomb(size):
    data = _png_header_only(*size)
    with pytest.raises(ImageError, match="too many pixels"):
        sanitize_image(data)
    with pytest.raises(ImageError, match="too many pixels"):
        open_upright(data)


def test_oversized_file():
    data = b"\xff\xd8\xff\xe0" + b"\0" * (MAX_UPLOAD_BYTES + 1)
    with pytest.raises(ImageError, match="15 MB"):
        sanitize_image(data)


def test_other_formats_refused():
    buf = io.BytesIO()
    _two_colour().save(buf, format="GIF")
    with pytest.raises(ImageError, match="JPEG, PNG or HEIC"):
        sanitize_image(buf.getvalue())


def test_read_hand_refuses_non_images():
    pytest.importorskip("numpy")
    pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    from scorekeeper.vision import read_hand

    for data in (
        b"not a photo",
        _png_header_only(30000, 30000),
        b"\xff\xd8" + b"\0" * (MAX_UPLOAD_BYTES + 1),
    ):
        with pytest.raises(ImageError):
            read_hand(data)


def test_orientation_applied_and_exif_stripped():
    data = _jpeg(_two_colour(), exif=_exif_with_gps(6))
    assert b"PhoneMaker" in data  # the test photo really carries EXIF
    out = sanitize_image(data)
    img = Image.open(io.BytesIO(out))
    assert img.format == "JPEG"
    # orientation 6: the camera was turned a quarter clockwise; upright is 40 wide, 60 high
    assert img.size == (40, 60)
    rgb = img.convert("RGB")
    top, bottom = rgb.getpixel((20, 5)), rgb.getpixel((20, 55))
    assert top[0] > 150 and top[2] < 100  # red (the old left) is now at the top
    assert bottom[2] > 150 and bottom[0] < 100
    assert len(img.getexif()) == 0
    assert b"Exif" not in out and b"PhoneMaker" not in out and b"GPS" not in out
    assert "exif" not in img.info and "xmp" not in img.info


@pytest.mark.parametrize("orientation,size", [(1, (60, 40)), (3, (60, 40)), (8, (40, 60))])
def test_open_upright_orientation(orientation, size):
    up = open_upright(_jpeg(_two_colour(), exif=_exif_with_gps(orientation)))
    assert up.image.size == size
    assert up.full_size == size


def test_open_upright_downscales_and_reports_scale():
    data = _jpeg(Image.new("RGB", (1600, 1200), (200, 200, 200)), exif=_exif_with_gps(6))
    up = open_upright(data, max_side=400)
    assert max(up.image.size) == 400
    assert up.full_size == (1200, 1600)
    assert up.scale == pytest.approx(4.0, rel=0.01)


def test_png_with_transparency_and_palette():
    img = Image.new("RGBA", (50, 30), (0, 0, 0, 0))
    for mode in ("RGBA", "P", "L"):
        buf = io.BytesIO()
        img.convert(mode).save(buf, format="PNG")
        out = sanitize_image(buf.getvalue())
        assert Image.open(io.BytesIO(out)).size == (50, 30)


def test_heic_roundtrip():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    buf = io.BytesIO()
    try:
        _two_colour(64, 48).save(buf, format="HEIF", quality=90)
    except Exception as err:  # pragma: no cover - wheel without an encoder
        pytest.skip(f"no HEIC encoder here: {err}")
    out = sanitize_image(buf.getvalue())
    assert Image.open(io.BytesIO(out)).size == (64, 48)

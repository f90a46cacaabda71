"""Photo decoding: formats, EXIF orientation, reduced JPEG decoding, and a clear ImageError for bad input."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.io import DecodedImage, ImageError, decode_image, load_image

SAMPLE = Path(__file__).resolve().parents[2] / "datasets" / "hk-sample" / "images" / "row-flower.jpg"


def picture(w: int = 60, h: int = 40) -> Image.Image:
    """A picture whose left half is red and right half blue, so that a turn is visible."""
    a = np.zeros((h, w, 3), np.uint8)
    a[:, : w // 2] = (255, 0, 0)
    a[:, w // 2 :] = (0, 0, 255)
    return Image.fromarray(a)


def encode(im: Image.Image, fmt: str, **kw) -> bytes:
    out = io.BytesIO()
    im.save(out, fmt, **kw)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_reads_jpeg_png_webp_from_bytes_path_and_file(fmt, tmp_path):
    data = encode(picture(), fmt, **({"quality": 95} if fmt != "PNG" else {}))
    path = tmp_path / f"x.{fmt.lower()}"
    path.write_bytes(data)
    for source in (data, path, str(path), io.BytesIO(data)):
        rgb = load_image(source)
        assert rgb.shape == (40, 60, 3) and rgb.dtype == np.uint8
        assert rgb[20, 5, 0] > 200 and rgb[20, 55, 2] > 200


def test_reads_heic():
    pillow_heif = pytest.importorskip("pillow_heif")
    if not pillow_heif.libheif_info().get("encoders"):
        pytest.skip("this libheif cannot write HEIC")
    rgb = load_image(encode(picture(64, 48), "HEIF", quality=90))
    assert rgb.shape == (48, 64, 3)
    assert rgb[24, 5, 0] > 180 and rgb[24, 60, 2] > 180


@pytest.mark.parametrize(
    ("orientation", "shape", "red_at"),
    [(1, (40, 60), (20, 5)), (3, (40, 60), (20, 55)), (6, (60, 40), (5, 20)), (8, (60, 40), (55, 20))],
)
def test_exif_orientation_is_applied(orientation, shape, red_at):
    exif = Image.Exif()
    exif[0x0112] = orientation
    decoded = decode_image(encode(picture(), "JPEG", quality=95, exif=exif))
    assert decoded.rgb.shape[:2] == shape
    assert (decoded.height, decoded.width) == shape
    assert decoded.rgb[red_at][0] > 200


def test_reduced_jpeg_decoding_keeps_the_long_side_and_reports_the_full_size():
    exif = Image.Exif()
    exif[0x0112] = 6
    data = encode(picture(1600, 1200), "JPEG", quality=90, exif=exif)
    decoded = decode_image(data, reduce_to=500)
    assert (decoded.width, decoded.height) == (1200, 1600)
    assert decoded.rgb.shape[:2] == (800, 600)
    assert decoded.scale == pytest.approx(0.5)
    assert decode_image(data).rgb.shape[:2] == (1600, 1200)


def test_png_is_never_reduced():
    decoded = decode_image(encode(picture(800, 600), "PNG"), reduce_to=100)
    assert decoded.rgb.shape[:2] == (600, 800) and decoded.scale == 1.0


def test_transparent_png_lies_on_white():
    im = Image.new("RGBA", (10, 10), (0, 0, 0, 0))
    assert load_image(encode(im, "PNG"))[5, 5].tolist() == [255, 255, 255]


def test_grey_and_sixteen_bit_pictures_become_rgb():
    assert load_image(encode(Image.new("L", (8, 8), 128), "PNG"))[0, 0].tolist() == [128, 128, 128]
    deep = Image.fromarray(np.full((8, 8), 65535, np.uint16))
    assert load_image(encode(deep, "PNG"))[0, 0].tolist() == [255, 255, 255]


def error_code(source, **kw) -> str:
    with pytest.raises(ImageError) as info:
        decode_image(source, **kw)
    assert info.value.message
    return info.value.code


def test_bad_input_gives_one_error_type_with_a_code(tmp_path):
    assert error_code(b"") == "empty"
    assert error_code(b"this is plain text, not a photo") == "not_an_image"
    assert error_code(tmp_path / "missing.jpg") == "not_found"
    assert error_code(tmp_path) == "not_found"
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert error_code(empty) == "empty"


def test_truncated_jpeg():
    data = SAMPLE.read_bytes()
    assert error_code(data[: len(data) // 2]) == "truncated"


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_damaged_files_give_an_image_error_or_a_picture_never_another_exception(fmt):
    data = encode(Image.open(SAMPLE).resize((160, 160)), fmt)
    rng = np.random.default_rng(7)
    for _ in range(40):
        damaged = bytearray(data)
        at = rng.integers(0, len(damaged), size=rng.integers(1, 30))
        damaged_bytes = rng.integers(0, 256, size=len(at), dtype=np.uint8)
        for i, b in zip(at, damaged_bytes, strict=True):
            damaged[i] = int(b)
        cut = bytes(damaged[: rng.integers(1, len(damaged) + 1)])
        for sample in (bytes(damaged), cut):
            try:
                rgb = load_image(sample)
            except ImageError as exc:
                assert exc.code in ("not_an_image", "truncated", "corrupt", "too_many_pixels", "empty")
            else:
                assert rgb.dtype == np.uint8 and rgb.ndim == 3


def test_too_many_pixels_is_refused_before_decoding():
    data = encode(Image.new("RGB", (2000, 1000)), "PNG")
    assert error_code(data, max_pixels=1_000_000) == "too_many_pixels"
    assert load_image(data, max_pixels=2_000_000).shape == (1000, 2000, 3)


def test_arrays_pass_through_and_bad_arrays_are_refused():
    rgb = np.zeros((4, 5, 3), np.uint8)
    decoded = decode_image(rgb)
    assert isinstance(decoded, DecodedImage) and decoded.rgb is rgb and (decoded.width, decoded.height) == (5, 4)
    assert load_image(np.zeros((4, 5), np.uint8)).shape == (4, 5, 3)
    assert load_image(np.zeros((4, 5, 4), np.uint8)).shape == (4, 5, 3)
    assert error_code(np.zeros((4, 5, 3), np.float32)) == "bad_array"
    assert error_code(np.zeros((4, 5, 2), np.uint8)) == "bad_array"


def test_error_json_is_the_contract_error_object():
    with pytest.raises(ImageError) as info:
        decode_image(b"")
    assert info.value.to_json() == {"error": {"code": "empty", "message": info.value.message}}


def test_name_defaults_to_the_file_name():
    assert decode_image(SAMPLE).name == "row-flower.jpg"
    assert decode_image(SAMPLE.read_bytes(), name="upload.jpg").name == "upload.jpg"

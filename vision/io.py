"""Reading photos: JPEG, PNG, WebP and HEIC from a path, bytes or a file object, to an RGB uint8 array.

``load_image(source)`` gives the full-resolution picture, upright (EXIF orientation applied).
``decode_image(source, reduce_to=N)`` may decode a JPEG at 1/2, 1/4 or 1/8 scale (libjpeg's DCT scaling,
much faster than decoding everything and resizing) while keeping the long side at least ``N`` pixels; it
reports the full size too, so that boxes found on the reduced picture can be given in the photo's pixels.

Every failure is an ``ImageError`` with a ``code`` that the command line and the HTTP API turn into a
message and a status:

==================  ======================================================
``empty``           no bytes at all
``not_found``       no such file (or it is a folder, or it cannot be read)
``not_an_image``    the bytes are no image format this reader knows
``truncated``       the file ends before the picture does
``corrupt``         the picture's data cannot be decoded
``too_many_pixels`` more pixels than ``max_pixels`` (a decompression bomb, or just too big)
``bad_array``       an array that is not H x W, H x W x 3 or H x W x 4 of uint8
``too_small``       a picture too small to hold readable tiles (raised by ``vision.recognize``)
==================  ======================================================
"""

from __future__ import annotations

import io
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
import pillow_heif
from PIL import Image, ImageOps, UnidentifiedImageError

pillow_heif.register_heif_opener()

#: The largest picture read by default: 50 megapixels (a phone takes 12 to 48).
DEFAULT_MAX_PIXELS = 50_000_000

#: The file name suffixes of the formats read here (lower case, with the dot).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif")

ImageSource = str | Path | bytes | bytearray | memoryview | IO[bytes] | np.ndarray

_EXIF_ORIENTATION = 0x0112
_SWAPS_SIDES = {5, 6, 7, 8}


class ImageError(ValueError):
    """A photo that cannot be read; ``code`` says why (see the module docstring), ``message`` for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        """The error object of contracts.md: ``{"error": {"code", "message"}}``."""
        return {"error": {"code": self.code, "message": self.message}}


@dataclass(frozen=True)
class DecodedImage:
    """A decoded photo. ``rgb`` may be smaller than the photo (reduced JPEG decoding); ``width`` and
    ``height`` are the photo's own size after EXIF orientation, the frame every box is given in."""

    rgb: np.ndarray
    width: int
    height: int
    name: str
    decode_ms: float

    @property
    def scale(self) -> float:
        """Pixels of ``rgb`` per pixel of the photo (1.0 when decoded at full size)."""
        return self.rgb.shape[1] / self.width


def load_image(source: ImageSource, *, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """The photo as an upright H x W x 3 uint8 RGB array at full resolution. Raises ImageError."""
    return decode_image(source, max_pixels=max_pixels).rgb


def decode_image(
    source: ImageSource,
    *,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    reduce_to: int | None = None,
    name: str | None = None,
) -> DecodedImage:
    """Decode a photo (path, bytes, binary file object, or an RGB/RGBA/grey uint8 array).

    reduce_to: when given, a JPEG may be decoded at a reduced scale as long as its long side stays at least
    this many pixels; other formats are always decoded whole. name: the photo's name in the result
    (default: the file name, or "image"). Raises ImageError.
    """
    start = time.perf_counter()
    if isinstance(source, np.ndarray):
        rgb = _from_array(source, max_pixels)
        h, w = rgb.shape[:2]
        return DecodedImage(rgb, w, h, name or "image", _ms(start))
    data, default_name = _read_source(source)
    im = _open(data)
    try:
        width, height = im.size
        if width * height > max_pixels:
            raise ImageError(
                "too_many_pixels",
                f"the picture has {width} x {height} = {width * height / 1e6:.1f} megapixels; "
                f"the limit is {max_pixels / 1e6:g}",
            )
        orientation = _orientation(im)
        if reduce_to is not None and im.format == "JPEG" and max(width, height) > reduce_to:
            factor = reduce_to / max(width, height)
            im.draft("RGB", (math.ceil(width * factor), math.ceil(height * factor)))
        _load(im)
        rgb = _to_rgb(ImageOps.exif_transpose(im) if orientation != 1 else im)
    finally:
        im.close()
    if orientation in _SWAPS_SIDES:
        width, height = height, width
    return DecodedImage(rgb, width, height, name or default_name, _ms(start))


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def _read_source(source: ImageSource) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        data, name = bytes(source), "image"
    elif isinstance(source, str | Path):
        path = Path(source)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise ImageError("not_found", f"{path}: no such file") from None
        except IsADirectoryError:
            raise ImageError("not_found", f"{path} is a folder, not a photo") from None
        except OSError as exc:
            raise ImageError("not_found", f"{path}: cannot read it ({exc.strerror or exc})") from None
        name = path.name
    elif hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, bytes):
            raise ImageError("not_an_image", "the file object gives text, not bytes: open it in binary mode")
        name = Path(str(getattr(source, "name", "image"))).name
    else:
        raise ImageError("not_an_image", f"cannot read a photo from a {type(source).__name__}")
    if not data:
        raise ImageError("empty", f"{name} is empty (0 bytes)")
    return data, name


def _open(data: bytes) -> Image.Image:
    try:
        return Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        raise ImageError(
            "not_an_image", "not a picture this reader knows (it reads JPEG, PNG, WebP and HEIC)"
        ) from None
    except Image.DecompressionBombError as exc:
        raise ImageError("too_many_pixels", f"the picture is too large to read safely: {exc}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError("corrupt", f"the picture's header cannot be read: {exc}") from None


def _orientation(im: Image.Image) -> int:
    try:
        value = im.getexif().get(_EXIF_ORIENTATION, 1)
    except (OSError, SyntaxError, ValueError, TypeError):
        return 1
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _load(im: Image.Image) -> None:
    try:
        im.load()
    except Image.DecompressionBombError as exc:
        raise ImageError("too_many_pixels", f"the picture is too large to read safely: {exc}") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        text = str(exc)
        if "truncated" in text or isinstance(exc, EOFError):
            raise ImageError("truncated", "the file ends before the picture does (a partial download?)") from None
        raise ImageError("corrupt", f"the picture's data cannot be decoded: {text}") from None


def _to_rgb(im: Image.Image) -> np.ndarray:
    if im.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        grey = np.asarray(im, dtype=np.float32)
        top = 65535.0 if im.mode.startswith("I;16") else max(float(grey.max()), 1.0)
        return _from_array(np.clip(grey * (255.0 / top), 0, 255).astype(np.uint8), None)
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(white, rgba).convert("RGB"))
    if im.mode != "RGB":
        im = im.convert("RGB")
    return np.asarray(im)


def _from_array(array: np.ndarray, max_pixels: int | None) -> np.ndarray:
    if array.dtype != np.uint8:
        raise ImageError("bad_array", f"the array must be uint8 RGB, not {array.dtype}")
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    elif array.ndim == 3 and array.shape[2] == 4:
        alpha = array[:, :, 3:4].astype(np.float32) / 255.0
        array = (array[:, :, :3] * alpha + 255.0 * (1.0 - alpha)).round().astype(np.uint8)
    elif not (array.ndim == 3 and array.shape[2] == 3):
        raise ImageError("bad_array", f"the array must be H x W x 3 (RGB), not of shape {array.shape}")
    h, w = array.shape[:2]
    if h == 0 or w == 0:
        raise ImageError("empty", "the array has no pixels")
    if max_pixels is not None and h * w > max_pixels:
        raise ImageError(
            "too_many_pixels", f"the picture has {w * h / 1e6:.1f} megapixels; the limit is {max_pixels / 1e6:g}"
        )
    return array

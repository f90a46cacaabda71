"""Photos made on the spot for the API tests, and the repository's own test photos."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


def jpeg_bytes(width: int = 640, height: int = 480, seed: int = 0) -> bytes:
    """A real JPEG of noise (noise keeps the file large enough to cut it in the middle)."""
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=90)
    return out.getvalue()


def png_bomb(width: int, height: int) -> bytes:
    """A PNG that is tiny on disk but has width x height pixels once decoded."""
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG", optimize=True)
    return out.getvalue()


def dataset_photos() -> list[Path]:
    """The small test photos committed under datasets/ (none until the vision colleague adds them)."""
    folder = ROOT / "datasets"
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in PHOTO_SUFFIXES) if folder.is_dir() else []

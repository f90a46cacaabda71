"""What the batch-labelling tests share: a small folder of photos in every format (with a subfolder, a
corrupt photo, an empty one, a text file named .jpg, a non-image file and hidden entries), a Detector that
reads each photo with the real decoder and answers the tiles labelled for it, and a fingerprint of a tree.

The tiles of each photo are chosen to exercise the rules: a box under ``--min-score`` (dropped), one under
``--review-below`` (kept, tagged), one that runs past the picture's edge (clipped), one entirely outside
(dropped), and a photo without tiles.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from vision.io import decode_image
from vision.label import MANIFEST
from vision.types import CLASS_INDEX, Detections

#: Per photo: its upright size and the tiles the detector reports, (code, box x1 y1 x2 y2, score).
PHOTOS: dict[str, tuple[tuple[int, int], tuple[tuple[str, tuple[float, float, float, float], float], ...]]] = {
    "hand.jpg": (
        (640, 480),
        (
            ("1m", (40.0, 100.0, 100.0, 180.0), 0.97),
            ("2m", (100.0, 100.0, 160.0, 180.0), 0.42),  # under review_below 0.5: tagged
            ("9s", (600.0, 300.0, 680.0, 400.0), 0.91),  # runs past the right edge: clipped to 640
        ),
    ),
    "portrait.jpg": ((360, 480), (("5z", (10.0, 20.0, 70.0, 100.0), 0.88),)),  # stored 480x360 with EXIF turn
    "table.png": (
        (800, 600),
        (
            ("3p", (200.0, 200.0, 260.0, 280.0), 0.99),
            ("4p", (300.0, 200.0, 360.0, 280.0), 0.10),  # under min_score 0.25: dropped
            ("5p", (900.0, 10.0, 950.0, 90.0), 0.95),  # wholly outside: dropped
        ),
    ),
    "sub/meld.webp": (
        (500, 400),
        (("0p", (50.0, 50.0, 110.0, 130.0), 0.81), ("back", (110.0, 50.0, 170.0, 130.0), 0.77)),
    ),
    "sub/deeper/phone.heic": ((320, 240), (("7z", (100.0, 60.0, 140.0, 120.0), 0.66),)),
    "sub/empty-table.jpg": ((300, 200), ()),
}
#: What the labels must hold after min_score 0.25 and clipping: per photo, (code, box, score).
EXPECTED: dict[str, list[tuple[str, tuple[float, float, float, float], float]]] = {
    "hand.jpg": [
        ("1m", (40.0, 100.0, 100.0, 180.0), 0.97),
        ("2m", (100.0, 100.0, 160.0, 180.0), 0.42),
        ("9s", (600.0, 300.0, 640.0, 400.0), 0.91),
    ],
    "portrait.jpg": [("5z", (10.0, 20.0, 70.0, 100.0), 0.88)],
    "table.png": [("3p", (200.0, 200.0, 260.0, 280.0), 0.99)],
    "sub/meld.webp": [("0p", (50.0, 50.0, 110.0, 130.0), 0.81), ("back", (110.0, 50.0, 170.0, 130.0), 0.77)],
    "sub/deeper/phone.heic": [("7z", (100.0, 60.0, 140.0, 120.0), 0.66)],
    "sub/empty-table.jpg": [],
}
#: Files that look like photos by name but cannot be read, with the word their reason must contain.
BAD = {"broken.jpg": "ends before", "zero.png": "empty", "fake.jpg": "not a picture"}
NOT_PHOTOS = ["notes.txt", "sub/readme.md"]
MODEL_VERSION = "table 1"


def make_folder(src: Path) -> Path:
    """Write the test photo folder into ``src`` and return it."""
    rng = np.random.default_rng(8)
    for rel, ((w, h), _) in PHOTOS.items():
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel == "portrait.jpg":  # stored landscape, shown upright by EXIF orientation 6 (turn 90 clockwise)
            im = Image.fromarray(rng.integers(0, 255, (w, h, 3), np.uint8))
            exif = Image.Exif()
            exif[0x0112] = 6
            im.save(path, "JPEG", quality=90, exif=exif)
            continue
        im = Image.fromarray(rng.integers(0, 255, (h, w, 3), np.uint8))
        fmt = {".jpg": "JPEG", ".png": "PNG", ".webp": "WEBP", ".heic": "HEIF"}[path.suffix]
        im.save(path, fmt, quality=90)
    jpeg = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (300, 400, 3), np.uint8)).save(jpeg, "JPEG", quality=90)
    (src / "broken.jpg").write_bytes(jpeg.getvalue()[:2000])
    (src / "zero.png").write_bytes(b"")
    (src / "fake.jpg").write_text("this is a shopping list, not a photo\n")
    (src / "notes.txt").write_text("photos of Tuesday's game\n")
    (src / "sub" / "readme.md").write_text("# melds\n")
    (src / ".hidden.jpg").write_bytes(jpeg.getvalue())
    (src / ".thumbs").mkdir()
    (src / ".thumbs" / "hand.jpg").write_bytes(jpeg.getvalue())
    return src


def detections(tiles: list[tuple[str, tuple[float, float, float, float], float]] | tuple) -> Detections:
    """Detections of (code, box, score) rows."""
    return Detections(
        np.array([t[1] for t in tiles], np.float32).reshape(-1, 4),
        np.array([t[2] for t in tiles], np.float32),
        np.array([CLASS_INDEX[t[0]] for t in tiles], np.int64),
        np.zeros(len(tiles), bool),
    )


@dataclass(frozen=True)
class TableDetector:
    """A Detector factory that reads each photo with ``vision.io`` (so a bad file fails as it would with
    the model) and reports the tiles labelled for it in ``PHOTOS``, found by the photo's path relative to
    ``src``. ``fail_after``: raise KeyboardInterrupt when asked for that many photos (a Ctrl-C)."""

    src: Path
    fail_after: int | None = None

    @property
    def version(self) -> str:
        return MODEL_VERSION

    def __call__(self, threads: int | None = None):
        calls = [0]

        def detect(path: Path) -> tuple[int, int, Detections]:
            calls[0] += 1
            if self.fail_after is not None and calls[0] > self.fail_after:
                raise KeyboardInterrupt
            decoded = decode_image(path)
            _, tiles = PHOTOS.get(path.relative_to(self.src).as_posix(), ((0, 0), ()))
            return decoded.width, decoded.height, detections(tiles)

        return detect


def fingerprint(root: Path) -> dict[str, tuple[str, int]]:
    """Every file and link under ``root``: its content hash (or link target) and modification time (ns)."""
    out: dict[str, tuple[str, int]] = {}
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if (Path(folder) / d).is_symlink()]:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            if path.is_symlink():
                out[rel] = ("-> " + os.readlink(path), st.st_mtime_ns)
            else:
                out[rel] = (hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns)
    return out


def contents(out: Path) -> dict[str, bytes]:
    """Every file and link under an output folder with the folder's own path written as ``OUT``, so that two
    outputs of the same job in different places compare equal (the manifest of hashes is left out: it hashes
    data.yaml, which names the folder)."""
    out = out.resolve()
    found: dict[str, bytes] = {}
    for folder, _dirs, files in os.walk(out):
        for name in files:
            path = Path(folder) / name
            if path == out / MANIFEST:
                continue
            data = ("-> " + os.readlink(path)).encode() if path.is_symlink() else path.read_bytes()
            found[path.relative_to(out).as_posix()] = data.replace(str(out).encode(), b"OUT")
    return found

"""A photo to a recognition: decode, find and read the tiles, lay them out as a hand.

``recognize(image)`` is the one function the library, the command line and the HTTP API call; its result
``Recognition.to_json()`` is the recognition JSON of contracts.md. The default tile model (``models/``) is
created on first use and shared; pass ``model=`` to use another (any object with the ``TileModel.detect``
signature).

A JPEG is decoded at a reduced scale (libjpeg's DCT scaling) as long as its long side stays at least
``DECODE_SIDE`` pixels: the detector sees a 512-pixel square and the classifier 64-pixel crops, so a
12-megapixel photo decoded at half size loses nothing they use, and decoding takes a quarter of the time.
Boxes are always given in the photo's own pixels (after EXIF orientation).
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.annotate import LOW_SCORE
from vision.complete import complete_hand, mend_melds, one_short
from vision.io import DEFAULT_MAX_PIXELS, DecodedImage, ImageError, ImageSource, decode_image
from vision.layout import Group, Layout, complete_sizes, drop_duplicates, read_layout
from vision.types import CLASS_INDEX, CLASSES, Detections

#: A JPEG is decoded at 1/2, 1/4 or 1/8 scale as long as its long side stays at least this many pixels.
DECODE_SIDE = 2000

#: The shortest side of a picture the model is asked to read; smaller ones are refused (``too_small``).
MIN_SIDE = 32

#: A tile read face down that the layout leaves out (no end of a concealed kong, no blank face among the
#: concealed tiles) is dropped where it scores under this: most are a tile's body, not a tile (the coloured back
#: layer of flat tiles seen from the side, the tops of standing tiles). Chosen on the rendered phone photos of
#: seeds 777 and 778 (models/HISTORY.md, "Weak face-down tiles the layout leaves out").
STRAY_BACK_SCORE = 0.5

#: The other codes given with each tile (``Tile.alternatives``): at most this many, each with a probability of
#: at least ``ALTERNATIVE_MIN``. On the rendered phone sets, where a tile is read with a wrong code, the right one
#: is the first of them for 63 to 84 % of such tiles and among them for 82 to 94 % (MODEL_CARD.md, "Reading a
#: photo").
ALTERNATIVES = 3
ALTERNATIVE_MIN = 0.02

#: The source files whose code turns a photo and the model's outputs into the tiles ``recognize`` reports
#: (relative to the project's root): ``reader_digest`` names their version.
READER_SOURCES = (
    "vision/types.py",
    "vision/io.py",
    "vision/detector.py",
    "vision/layout.py",
    "vision/complete.py",
    "vision/recognize.py",
    "scoring/tiles.py",
    "scoring/decompose.py",
)
_ROOT = Path(__file__).resolve().parent.parent

_default_model: Any = None
_default_lock = threading.Lock()


@dataclass(frozen=True)
class Tile:
    """One tile found: its code, box (x1, y1, x2, y2 in the photo's pixels), score, whether it lies sideways in
    the photo, and the other codes the classifiers found likeliest for it with their probabilities (at most
    ``ALTERNATIVES``, each at least ``ALTERNATIVE_MIN``, the likeliest first): where a tile is misread, its right
    code is most often the first of them."""

    code: str
    box: tuple[float, float, float, float]
    score: float
    rotated: bool
    alternatives: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "box": [round(v, 1) for v in self.box],
            "score": round(self.score, 3),
            "rotated": self.rotated,
            "alternatives": [{"code": code, "probability": round(p, 3)} for code, p in self.alternatives],
        }


@dataclass
class Recognition:
    """What a photo shows: its tiles, the hand they make, the warnings and the time each step took.

    ``groups`` (not in the JSON) says which tiles form the concealed part, each meld, the winning tile and
    the flowers, as indices into ``tiles``; pictures use it. ``complete_with``: the codes one more tile of which
    would complete a hand one tile short (``vision.complete.one_short``; a tile may have been missed).
    """

    image: str
    width: int
    height: int
    tiles: list[Tile]
    hand: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    complete_with: list[str] = field(default_factory=list)

    def roles(self) -> dict[int, str]:
        """Tile index -> its role (``concealed``, ``win``, ``meld``, ``flower``, ``ignored``, ``apart``)."""
        return {i: g.role for g in self.groups for i in g.tiles}

    def hand_tiles(self) -> dict[str, Any]:
        """Which of ``tiles`` make each part of ``hand``, as indices: ``concealed`` and ``flowers`` in the
        hand's order, ``melds`` one list for each meld of the hand (its tiles as laid out), ``win_tile`` one
        index or None."""
        parts: dict[str, Any] = {"concealed": [], "melds": [], "win_tile": None, "flowers": []}
        for group in self.groups:
            if group.role == "concealed":
                parts["concealed"] = list(group.tiles)
            elif group.role == "meld":
                parts["melds"].append(list(group.tiles))
            elif group.role == "win":
                parts["win_tile"] = group.tiles[0]
            elif group.role == "flower":
                parts["flowers"] = list(group.tiles)
        return parts

    def to_json(self) -> dict[str, Any]:
        """The recognition JSON of contracts.md, ``hand_tiles`` (``hand_tiles()``) and ``complete_with``."""
        return {
            "image": self.image,
            "width": self.width,
            "height": self.height,
            "tiles": [t.to_json() for t in self.tiles],
            "hand": self.hand,
            "hand_tiles": self.hand_tiles(),
            "complete_with": list(self.complete_with),
            "warnings": list(self.warnings),
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
        }


def default_model() -> Any:
    """The tile model of ``models/``, created on first use and shared by every caller (thread-safe).

    Raises ``vision.detector.ModelNotFoundError`` or ``ModelError`` when it is missing or unusable.
    """
    global _default_model
    with _default_lock:
        if _default_model is None:
            from vision.detector import TileModel

            _default_model = TileModel()
        return _default_model


def decode_for_model(
    image: ImageSource | DecodedImage, *, name: str | None = None, max_pixels: int = DEFAULT_MAX_PIXELS
) -> DecodedImage:
    """The photo decoded as the model needs it (reduced JPEG decoding down to ``DECODE_SIDE``).

    Raises ``vision.io.ImageError`` for a photo that cannot be read, ``too_small`` for one under ``MIN_SIDE``.
    """
    decoded = (
        image
        if isinstance(image, DecodedImage)
        else decode_image(image, max_pixels=max_pixels, reduce_to=DECODE_SIDE, name=name)
    )
    if min(decoded.width, decoded.height) < MIN_SIDE:
        raise ImageError(
            "too_small",
            f"the picture is {decoded.width} x {decoded.height} pixels: too small to hold readable tiles "
            f"(at least {MIN_SIDE} a side)",
        )
    return decoded


def detect_photo(
    image: ImageSource | DecodedImage, model: Any = None, *, max_pixels: int = DEFAULT_MAX_PIXELS
) -> tuple[int, int, Detections]:
    """The photo's width and height (after EXIF orientation) and the tiles the model finds, in its pixels.

    Raises ``vision.io.ImageError`` for a photo that cannot be read.
    """
    decoded = decode_for_model(image, max_pixels=max_pixels)
    detections = _detect(decoded, model if model is not None else default_model(), {})
    return decoded.width, decoded.height, detections


def recognize(
    image: ImageSource | DecodedImage,
    model: Any = None,
    *,
    name: str | None = None,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    hand_size: int | None = None,
) -> Recognition:
    """Recognise the tiles and the hand in a photo: a path, bytes, a binary file, an RGB uint8 array or a
    ``DecodedImage``.

    model: the tile model (default: the shared one of ``models/``). name: the photo's name in the result
    (default: its file name). hand_size: the tiles of a hand before its winning one under the table's rules,
    13 or 16 (Taiwanese), where they are known (``vision.layout.read_layout``; a rule set's ``hand_size``).
    Raises ``vision.io.ImageError`` for a photo that cannot be read, the model's
    ``ModelNotFoundError``/``ModelError`` when no model can be loaded, and ValueError for another hand size.
    """
    complete_sizes(hand_size)  # a size no rule set plays is refused before the photo is read
    start = time.perf_counter()
    decoded = decode_for_model(image, name=name, max_pixels=max_pixels)
    decoded_at = time.perf_counter()
    model = model if model is not None else default_model()
    timings: dict[str, float] = {}
    detections = _detect(decoded, model, timings)
    recognition = from_detections(detections, decoded.width, decoded.height, name or decoded.name, hand_size)
    own_decode = decoded is not image
    decode_ms = (decoded_at - start) * 1000.0 if own_decode else decoded.decode_ms
    recognition.timings_ms = {
        "decode": decode_ms,
        "detect": timings.get("detect", 0.0),
        "classify": timings.get("classify", 0.0),
        "total": decode_ms + (time.perf_counter() - decoded_at) * 1000.0,
    }
    return recognition


@functools.cache
def reader_digest() -> str:
    """Eight hex digits that change whenever the code reading a photo changes (``READER_SOURCES``, those found
    where the project is installed): what the same model reports for the same photo can differ between two
    versions of it. ``mjscan label`` keeps it in each photo's record, so that ``--resume`` labels again the photos
    labelled by other code."""
    digest = hashlib.sha256()
    for name in READER_SOURCES:
        path = _ROOT / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:8]


def settle(detections: Detections, hand_size: int | None = None) -> tuple[Detections, Layout, list[str]]:
    """The tiles found (boxes in the photo's pixels) as ``recognize`` reports them, with their layout and the
    warnings so far: duplicates dropped, the layout read (each tile takes the code the hand reads it as:
    ``vision.layout``, step 6, a face-down blank face becoming ``5z``), the face-down tiles it leaves out
    dropped where they score under ``STRAY_BACK_SCORE`` (and the layout read again without them), a group set
    apart one misread tile from a meld read as that meld, and a hand one misread tile short of complete read with
    the code that completes it (``vision.complete``). ``hand_size``:
    as ``recognize`` takes it."""
    detections, warnings = drop_duplicates(detections)
    layout = read_layout(detections, hand_size)
    stray = np.zeros(len(detections), bool)
    stray[layout.left_out()] = True
    stray &= np.asarray(detections.face_down, bool) & (np.asarray(detections.scores) < STRAY_BACK_SCORE)
    if stray.any():
        detections = detections.subset(~stray)
        layout = read_layout(detections, hand_size)
    detections, layout, mended = mend_melds(detections, layout, hand_size)
    detections, layout, completed = complete_hand(detections, layout, hand_size)
    class_ids = np.array([CLASS_INDEX[code] for code in layout.codes], np.int64)
    face_down = np.asarray(detections.face_down, bool) & (class_ids == CLASS_INDEX["back"])
    return replace(detections, class_ids=class_ids, face_down=face_down), layout, warnings + mended + completed


def from_detections(
    detections: Detections, width: int, height: int, name: str = "image", hand_size: int | None = None
) -> Recognition:
    """The recognition of tiles already found (boxes in the photo's pixels), settled as ``settle`` settles them
    (with ``hand_size``, as ``recognize`` takes it), the low-confidence tiles of the hand warned about with their
    likeliest other code (not those the layout leaves out of it), and a hand one tile short of complete warned
    about with the codes that would complete it. ``timings_ms`` is left empty."""
    detections, layout, warnings = settle(detections, hand_size)
    tiles = [
        Tile(code, (float(b[0]), float(b[1]), float(b[2]), float(b[3])), float(s), bool(r), _alternatives(code, p))
        for code, b, s, r, p in zip(
            layout.codes, detections.boxes, detections.scores, detections.rotated, detections.probs, strict=True
        )
    ]
    left_out = set(layout.left_out())
    unsure = sorted(
        (t for i, t in enumerate(tiles) if t.score < LOW_SCORE and i not in left_out), key=lambda t: t.score
    )
    if unsure:
        listed = ", ".join(_unsure(t) for t in unsure[:6]) + (", ..." if len(unsure) > 6 else "")
        warnings.append(f"{len(unsure)} tile(s) read with low confidence: {listed}")
    warnings += layout.warnings
    complete_with = one_short(layout.hand, hand_size)
    if complete_with:
        warnings.append(
            f"the hand is one tile short of complete: one more {' or '.join(complete_with)} would complete it "
            "(a tile may have been missed)"
        )
    return Recognition(name, width, height, tiles, layout.hand, warnings, {}, layout.groups, complete_with)


def _unsure(tile: Tile) -> str:
    """A tile read with low confidence, for a warning: ``9p (0.27, or 9s)``, naming its likeliest other code."""
    other = f", or {tile.alternatives[0][0]}" if tile.alternatives else ""
    return f"{tile.code} ({tile.score:.2f}{other})"


def _alternatives(code: str, probs: np.ndarray) -> tuple[tuple[str, float], ...]:
    """The codes other than ``code`` the classifiers gave at least ``ALTERNATIVE_MIN``, the likeliest first, at
    most ``ALTERNATIVES``."""
    out = []
    for k in np.argsort(-probs, kind="stable"):
        if probs[k] < ALTERNATIVE_MIN or len(out) == ALTERNATIVES:
            break
        if CLASSES[k] != code:
            out.append((CLASSES[k], float(probs[k])))
    return tuple(out)


def as_recognized(model: Any) -> Callable[[np.ndarray], Detections]:
    """A detector for ``vision.evaluate.evaluate_folder`` that gives the tiles as ``recognize`` reports them
    (``settle``), so that an evaluation measures what a user gets."""

    def detect(rgb: np.ndarray) -> Detections:
        return settle(model.detect(rgb))[0]

    return detect


def _detect(decoded: DecodedImage, model: Any, timings: dict[str, float]) -> Detections:
    """The model's detections on the decoded picture, boxes scaled to the photo's pixels."""
    detections = model.detect(decoded.rgb, timings=timings)
    h, w = decoded.rgb.shape[:2]
    if (w, h) != (decoded.width, decoded.height):
        factor = np.array([decoded.width / w, decoded.height / h] * 2, np.float32)
        detections = replace(detections, boxes=np.asarray(detections.boxes, np.float32) * factor)
    return detections

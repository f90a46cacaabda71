"""Drawing a recognition on its photo, readable on a phone screen.

``annotate_image(rgb, recognition)`` returns the picture (at most ``max_side`` pixels on its long side) with
each tile's box and code, low-confidence tiles dashed in red with a "?", face-down tiles and tiles far from the
hand (left out of it) in grey, each meld outlined and named, the winning tile marked and optional text lines (for
example the scoring patterns) in a panel below the photo (added to the picture, so it never hides a tile).
A hand that fills a small part of the photo (taken from afar) is shown cut out of it (``tiles_region``), at the
size the whole photo would have had, so that its tiles and tags can be read on a phone screen.
``annotate_jpeg`` gives the same as JPEG bytes. Both are pure functions of the picture and the recognition.
``draw_boxes`` is the primitive underneath, also used for the error pictures of ``vision.evaluate``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:
    from vision.recognize import Recognition

#: Tiles read with a score below this are drawn as uncertain. With the model of 20261205 (…-20000x30000+36000),
#: of the tiles read on hk-photos/valid without its 7 mislabelled photos (unboxed tiles ignored), 0.5 marks 114
#: of 6,309, 8 of them wrong (no label of their code under them), and leaves 29 wrong unmarked (many of those
#: are label errors); on synthetic phone photos (seed 777) it marks 211 of 4,138 (39 wrong; 15 wrong unmarked),
#: on sets printed anew 561 of 4,348 (149 wrong; 22 unmarked). Tiles scoring 0.5 to 0.6 are 98 to 99 % right in
#: all three, the tiles marked 73 to 93 %. With its detector trained further (…-20000+18000x30000+36000): 135 of
#: 6,294 marked on those photos (7 wrong; 27 wrong unmarked), 184 of 4,125 on seed 777 (27 wrong; 13 unmarked).
LOW_SCORE = 0.5

#: The longest side of an annotated picture by default.
DEFAULT_MAX_SIDE = 1600

#: The part of the photo shown around its tiles, in median tile lengths (the longer side of a tile's box) on every
#: side: room for the tags, stacked up to three deep over or under a tile, and for a meld's name.
REGION_MARGIN = 2.5
#: The photo is shown cut to the region of its tiles where that region covers less than this share of it.
REGION_SHARE = 0.4

Color = tuple[int, int, int]
GREEN: Color = (30, 200, 90)
RED: Color = (235, 40, 40)
GOLD: Color = (255, 190, 0)
PINK: Color = (240, 90, 200)
GREY: Color = (150, 150, 150)
ORANGE: Color = (255, 140, 0)
#: Colours of successive melds.
MELD_COLORS: tuple[Color, ...] = ((40, 120, 255), (170, 70, 255), (0, 190, 210), (255, 110, 60), (120, 200, 0))

_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
#: Fonts with Chinese and Japanese characters, for panel lines that hold them (Debian's fonts-noto-cjk).
_CJK_FONT_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)


@dataclass(frozen=True)
class Box:
    """One box to draw: xyxy in the source picture's pixels, a text tag (above the box, or below it), a
    colour, dashed or solid, and a line width relative to the standard one. ``outline``: a box around a
    group of tiles (drawn first; not counted when sizing the text)."""

    box: tuple[float, float, float, float]
    text: str = ""
    color: Color = GREEN
    dashed: bool = False
    thick: float = 1.0
    below: bool = False
    outline: bool = False


def annotate_image(
    image: np.ndarray,
    recognition: Recognition,
    *,
    lines: Sequence[str] = (),
    max_side: int = DEFAULT_MAX_SIDE,
    low_score: float = LOW_SCORE,
    whole: bool = False,
) -> np.ndarray:
    """The photo with the recognition drawn on it, as an RGB array whose long side is at most max_side.

    image: the photo as decoded (any size of the photo's aspect: boxes are scaled from the recognition's
    width and height). lines: text shown in a panel below the photo, e.g. the patterns a score counted.
    whole: show the whole photo even where its tiles fill a small part of it (``tiles_region``).
    """
    scale = image.shape[1] / recognition.width if recognition.width else 1.0
    boxes: list[Box] = []
    roles = recognition.roles()
    for i, tile in enumerate(recognition.tiles):
        unsure = tile.score < low_score
        role = roles.get(i, "")
        color = (
            RED if unsure else PINK if role == "flower" else GREY if tile.code == "back" or role == "apart" else GREEN
        )
        text = tile.code + ("?" if unsure else "")
        if role == "win":
            boxes.append(_scaled(tile.box, scale, "WIN " + text, RED if unsure else GOLD, unsure, 2.0))
        else:
            boxes.append(_scaled(tile.box, scale, text, color, unsure, 1.0))
    for n, group in enumerate(g for g in recognition.groups if g.role == "meld"):
        x1, y1, x2, y2 = (v * scale for v in _union([recognition.tiles[i].box for i in group.tiles], pad=0.08))
        color = MELD_COLORS[n % len(MELD_COLORS)]
        boxes.append(Box((x1, y1, x2, y2), group.label, color, thick=1.5, below=True, outline=True))
    region = None if whole else tiles_region([b.box for b in boxes if not b.outline], image.shape[:2])
    return draw_boxes(image, boxes, lines=lines, max_side=max_side, region=region)


def tiles_region(boxes: Sequence[Sequence[float]], shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The part of a picture of ``shape`` (height, width) to show for tiles boxed ``boxes`` (xyxy): their
    region with ``REGION_MARGIN`` tile lengths around it, where that covers less than ``REGION_SHARE`` of the
    picture; None (the whole picture) otherwise or where there is no tile."""
    if not len(boxes):
        return None
    height, width = shape
    a = np.asarray(boxes, dtype=np.float64)
    pad = REGION_MARGIN * float(np.median(np.maximum(a[:, 2] - a[:, 0], a[:, 3] - a[:, 1])))
    x1, y1 = max(0, int(a[:, 0].min() - pad)), max(0, int(a[:, 1].min() - pad))
    x2, y2 = min(width, int(np.ceil(a[:, 2].max() + pad))), min(height, int(np.ceil(a[:, 3].max() + pad)))
    if x2 <= x1 or y2 <= y1 or (x2 - x1) * (y2 - y1) >= REGION_SHARE * width * height:
        return None
    return x1, y1, x2, y2


def annotate_jpeg(
    image: np.ndarray,
    recognition: Recognition,
    *,
    lines: Sequence[str] = (),
    max_side: int = DEFAULT_MAX_SIDE,
    quality: int = 85,
) -> bytes:
    """``annotate_image`` encoded as JPEG bytes."""
    return to_jpeg(annotate_image(image, recognition, lines=lines, max_side=max_side), quality)


def to_jpeg(rgb: np.ndarray, quality: int = 85) -> bytes:
    """An RGB array as JPEG bytes."""
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, "JPEG", quality=quality)
    return out.getvalue()


def draw_boxes(
    image: np.ndarray,
    boxes: Sequence[Box],
    *,
    lines: Sequence[str] = (),
    max_side: int = DEFAULT_MAX_SIDE,
    region: tuple[int, int, int, int] | None = None,
) -> np.ndarray:
    """Boxes with text tags drawn on a copy of the picture, which is first shrunk to at most max_side on its
    long side, and ``lines`` in a black panel added below it (the whole shrunk again where the panel takes it
    past max_side). Line widths and text scale with the boxes and the picture.

    region: the part of the picture to show (xyxy in its pixels; boxes stay in the picture's pixels), brought
    to the size the whole picture would have had: enlarged where it is smaller, at most max_side long."""
    full = max(image.shape[:2])
    x0, y0 = 0, 0
    if region is not None:
        x0, y0, x2, y2 = region
        image = image[y0:y2, x0:x2]
    pil = Image.fromarray(np.ascontiguousarray(image))
    factor = min(full, max_side) / max(pil.size)
    if factor != 1.0:
        pil = pil.resize((max(1, round(pil.width * factor)), max(1, round(pil.height * factor))), Image.BILINEAR)
    draw = ImageDraw.Draw(pil)
    long_side = max(pil.size)
    sizes = [min(b.box[2] - b.box[0], b.box[3] - b.box[1]) * factor for b in boxes if not b.outline]
    tile = float(np.median(sizes)) if sizes else long_side / 15
    font_px = int(np.clip(0.55 * tile, long_side / 60, long_side / 28))
    font = _font(max(font_px, 10))
    width = max(2, round(font_px / 8))
    origin = (x0, y0, x0, y0)
    scaled = [
        (b, tuple((v - o) * factor for v, o in zip(b.box, origin, strict=True)))
        for b in sorted(boxes, key=lambda b: not b.outline)
    ]
    for b, xyxy in scaled:
        w = max(1, round(width * b.thick))
        if b.dashed:
            _dashed_rect(draw, xyxy, b.color, w, dash=max(4, font_px // 2))
        else:
            draw.rectangle(xyxy, outline=b.color, width=w)
    # the tags after every box, so that no box line crosses a tag, left to right, each placed clear of the others
    tagged = sorted((item for item in scaled if item[0].text), key=lambda item: (item[1][0], item[1][1]))
    texts = [_text_size(draw, font, b.text) for b, _ in tagged]
    places = place_tags(
        [xyxy for _, xyxy in tagged], [size for size, _ in texts], [b.below for b, _ in tagged], pil.size
    )
    for (b, _), (_, offset), place in zip(tagged, texts, places, strict=True):
        draw.rectangle(place, fill=b.color)
        ink = (0, 0, 0) if sum(b.color) > 450 else (255, 255, 255)
        draw.text((place[0] + offset[0], place[1] + offset[1]), b.text, fill=ink, font=font)
    if lines:
        pil = _with_panel(pil, lines, max_side)
    return np.asarray(pil)


def _scaled(box: Sequence[float], scale: float, text: str, color: Color, dashed: bool, thick: float) -> Box:
    x1, y1, x2, y2 = (float(v) * scale for v in box)
    return Box((x1, y1, x2, y2), text, color, dashed, thick)


def _union(boxes: Sequence[Sequence[float]], pad: float) -> tuple[float, float, float, float]:
    a = np.asarray(boxes, dtype=np.float64)
    x1, y1 = a[:, 0].min(), a[:, 1].min()
    x2, y2 = a[:, 2].max(), a[:, 3].max()
    p = pad * float(np.median(np.minimum(a[:, 2] - a[:, 0], a[:, 3] - a[:, 1])))
    return (x1 - p, y1 - p, x2 + p, y2 + p)


@lru_cache(maxsize=64)
def _font(size: int, cjk: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in (*_CJK_FONT_FILES, *_FONT_FILES) if cjk else _FONT_FILES:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def _text_size(
    draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, text: str
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The size (width, height) of the tag holding ``text``, and where the text's origin lies in it."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    pad = max(2, (bottom - top) // 6)
    return (right - left + 2 * pad, bottom - top + 2 * pad), (pad - left, pad - top)


def place_tags(
    boxes: Sequence[Sequence[float]],
    sizes: Sequence[tuple[float, float]],
    below: Sequence[bool],
    limit: tuple[int, int],
) -> list[tuple[float, float, float, float]]:
    """Where to draw the tag (width, height in ``sizes``) of each box (xyxy), one after the other, in a picture
    of ``limit`` (width, height): xyxy of each tag.

    A tag starts at its box's left side (moved in where it would leave the picture) and goes on top of its box,
    or under it where ``below``. Where that covers a tag placed before, it goes one tag further out; then to the
    other side of the box, and one tag further there; then a third tag out on its own side; last inside the
    box's top. The first of these places inside the picture that covers no tag placed before is taken, or else
    the one covering the least of them. Neighbouring tiles whose codes are wider than the tiles so get their
    tags in two tiers, all readable.
    """
    taken = np.zeros((len(boxes), 4))
    for n, ((x1, y1, _, y2), (width, height), under) in enumerate(zip(boxes, sizes, below, strict=True)):
        x = min(max(0.0, float(x1)), max(0.0, limit[0] - width))
        over = [y1 - height, y1 - 2 * height]
        beneath = [y2, y2 + height]
        further = y2 + 2 * height if under else y1 - 3 * height
        tops = [*(beneath + over if under else over + beneath), further]
        tops = [top for top in tops if top >= 0 and top + height <= limit[1]]
        tops.append(min(max(0.0, float(y1)), max(0.0, limit[1] - height)))
        places = np.array([(x, top, x + width, top + height) for top in tops], np.float64)
        before = taken[:n]
        wide = np.clip(
            np.minimum(places[:, None, 2], before[:, 2]) - np.maximum(places[:, None, 0], before[:, 0]), 0, None
        )
        high = np.clip(
            np.minimum(places[:, None, 3], before[:, 3]) - np.maximum(places[:, None, 1], before[:, 1]), 0, None
        )
        taken[n] = places[int(np.argmin((wide * high).sum(axis=1)))]
    return [(float(a), float(b), float(c), float(d)) for a, b, c, d in taken]


def _dashed_rect(draw: ImageDraw.ImageDraw, box: tuple[float, ...], color: Color, width: int, dash: int) -> None:
    x1, y1, x2, y2 = box
    for (ax, ay), (bx, by) in (((x1, y1), (x2, y1)), ((x2, y1), (x2, y2)), ((x2, y2), (x1, y2)), ((x1, y2), (x1, y1))):
        length = max(abs(bx - ax), abs(by - ay))
        steps = max(1, int(length // (2 * dash)))
        for k in range(steps + 1):
            t0 = min(1.0, 2 * k * dash / length) if length else 0.0
            t1 = min(1.0, (2 * k + 1) * dash / length) if length else 1.0
            if t0 >= 1.0:
                break
            draw.line(
                (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
                fill=color,
                width=width,
            )


def _with_panel(pil: Image.Image, lines: Sequence[str], max_side: int) -> Image.Image:
    """``pil`` with a black panel of white ``lines`` below it, as wide as the picture (two columns when the
    lines would make the panel taller than the picture is wide and each fits half of it; a line too long for
    its column is wrapped), shrunk to max_side on its long side."""
    cjk = any(ord(ch) >= 0x2E80 for line in lines for ch in line)
    font = _font(max(int(max(pil.size) / 40), 12), cjk)
    measure = ImageDraw.Draw(pil)
    line_h = max(measure.textbbox((0, 0), line, font=font)[3] for line in lines) + max(4, font.size // 3)
    pad = line_h // 2
    half = pil.width // 2 - 2 * pad
    two = len(lines) > 1 and len(lines) * line_h > pil.width and all(measure.textlength(x, font) <= half for x in lines)
    columns = 2 if two else 1
    width = pil.width // columns - 2 * pad
    wrapped = [part for line in lines for part in _wrap(measure, line, font, width)]
    rows = -(-len(wrapped) // columns)
    canvas = Image.new("RGB", (pil.width, pil.height + rows * line_h + 2 * pad), (0, 0, 0))
    canvas.paste(pil, (0, 0))
    draw = ImageDraw.Draw(canvas)
    for k, line in enumerate(wrapped):
        left, top = draw.textbbox((0, 0), line, font=font)[:2]
        x = pad + (k // rows) * (pil.width // columns) - left
        draw.text((x, pil.height + pad + (k % rows) * line_h - top), line, fill=(255, 255, 255), font=font)
    factor = max_side / max(canvas.size)
    if factor < 1.0:
        canvas = canvas.resize((max(1, round(canvas.width * factor)), max(1, round(canvas.height * factor))))
    return canvas


def _wrap(
    draw: ImageDraw.ImageDraw, line: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int
) -> list[str]:
    """``line`` cut into pieces no wider than ``width`` pixels: at spaces, or anywhere in a word too long."""
    out: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if draw.textlength(candidate, font=font) <= width:
            current = candidate
            continue
        if current:
            out.append(current)
        current = ""
        for ch in word:
            if current and draw.textlength(current + ch, font=font) > width:
                out.append(current)
                current = ""
            current += ch
    return [*out, current] if current or not out else out

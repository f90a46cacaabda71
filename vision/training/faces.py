"""Tile faces printed from fonts and drawn shapes: a new print for every synthetic set.

The real photos show one Hong Kong set and the art one riichi set, so a classifier trained on them alone learns
those prints; sets it has never seen draw the same tiles in other hands. Here each set gets its own print: the
characters in one of the installed Chinese or Japanese fonts (brush, Song and sans styles), ``五`` or ``伍``,
``萬`` or ``万``, ``發`` or ``発``, its own inks, dots drawn as rings, flowers or plain discs in the usual
arrangements of each number, bamboo sticks with their joints, a white dragon blank or framed, and flowers and
seasons as their character with the numeral in a corner over a small drawn plant; some sets add a small index in
the top left corner, as sets sold in the West do (the number, ``E S W N`` for the winds, letters for the
dragons). The bird of the one of
bamboo is no font's glyph: sets printed here take it from the art or the real faces (``FacePool``).

Test sets can also be drawn in ways training never draws (``FacePrinter(unseen_drawings=True)``;
``python -m vision.training.render --drawings unseen``): dots as coins, suns or rings of beads
(``UNSEEN_DOTS``), bamboo as plain rods or leafy stems (``UNSEEN_STICKS``). A set so drawn makes the same random
choices as the one drawn the usual way, so one seed renders the same scenes both ways and the two read apart
measure what an unseen drawing of the suits costs.

``FacePrinter.from_folder(folder)`` finds the fonts (any ``.ttf``, ``.ttc`` or ``.otf`` below ``folder`` holding
every glyph the faces need); ``printer.style(rng)`` draws a print; ``printer.face(rng, code, style)`` the face of
one tile as an RGBA picture (transparent around the print), ``TEX_W * 2`` x ``TEX_H * 2``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: Size of a printed face (width, height): twice the renderer's texture, as the art is stored.
FACE_W, FACE_H = 240, 320
#: Where Debian's font packages put their files.
DEFAULT_FONT_FOLDER = Path("/usr/share/fonts")
NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS = "梅蘭菊竹春夏秋冬"
#: The share of printed sets with a small index in the top left corner of their faces.
INDEXED = 0.35
#: Every glyph a font must hold to print a set, corner indices included (the alternatives ``伍 万 発`` are used where a
#: font has them).
REQUIRED = NUMERALS + "萬" + WINDS + "中發" + FLOWERS + "123456789ESWNPFCGR"
#: Centres of the dots of each number of the dots suit (fractions of the printed area), as sets arrange them.
DOT_LAYOUTS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.26), (0.5, 0.74)],
    3: [(0.22, 0.2), (0.5, 0.5), (0.78, 0.8)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.24, 0.22), (0.76, 0.22), (0.5, 0.5), (0.24, 0.78), (0.76, 0.78)],
    6: [(0.28, 0.17), (0.72, 0.17), (0.28, 0.55), (0.72, 0.55), (0.28, 0.84), (0.72, 0.84)],
    7: [(0.2, 0.12), (0.5, 0.23), (0.8, 0.34), (0.28, 0.6), (0.72, 0.6), (0.28, 0.86), (0.72, 0.86)],
    8: [(x, y) for y in (0.13, 0.38, 0.63, 0.88) for x in (0.28, 0.72)],
    9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}
#: Which of a set's three dot inks each dot of ``DOT_LAYOUTS`` takes (sets share the pattern, not the colours).
DOT_INKS: dict[int, list[int]] = {
    1: [0],
    2: [0, 1],
    3: [0, 2, 1],
    4: [0, 1, 1, 0],
    5: [0, 1, 2, 1, 0],
    6: [1, 1, 2, 2, 2, 2],
    7: [1, 1, 1, 2, 2, 2, 2],
    8: [0] * 8,
    9: [0, 0, 0, 2, 2, 2, 1, 1, 1],
}
#: The drawing of the dots that test sets drawn unseen (``FacePrinter(unseen_drawings=True)``) put in place of each
#: drawing training knows: a coin with a square hole, a sun of rays, a ring of beads.
UNSEEN_DOTS = {"rings": "coin", "flower": "sun", "disc": "beads"}
#: The same for the bamboo sticks, by whether the set inks its middle sticks apart: leafy stems or plain rods.
UNSEEN_STICKS = {True: "leaf", False: "rod"}
#: Bamboo sticks of each number: centre and slant (radians) of each stick.
STICK_LAYOUTS: dict[int, list[tuple[float, float, float]]] = {
    2: [(0.5, 0.27, 0.0), (0.5, 0.73, 0.0)],
    3: [(0.5, 0.27, 0.0), (0.3, 0.73, 0.0), (0.7, 0.73, 0.0)],
    4: [(0.3, 0.27, 0.0), (0.7, 0.27, 0.0), (0.3, 0.73, 0.0), (0.7, 0.73, 0.0)],
    5: [(0.22, 0.27, 0.0), (0.78, 0.27, 0.0), (0.5, 0.5, 0.0), (0.22, 0.73, 0.0), (0.78, 0.73, 0.0)],
    6: [(x, y, 0.0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.16, 0.0)] + [(x, y, 0.0) for y in (0.5, 0.84) for x in (0.2, 0.5, 0.8)],
    8: [(0.14, 0.27, 0.0), (0.86, 0.27, 0.0), (0.38, 0.27, 0.45), (0.62, 0.27, -0.45)]
    + [(0.14, 0.73, 0.0), (0.86, 0.73, 0.0), (0.38, 0.73, -0.45), (0.62, 0.73, 0.45)],
    9: [(x, y, 0.0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}
RED = (200, 30, 35)
GREEN = (20, 120, 55)
BLUE = (25, 55, 150)
BLACK = (25, 25, 30)
INKS = {"red": RED, "green": GREEN, "blue": BLUE, "black": BLACK}


class FontError(RuntimeError):
    """No font holding the glyphs the printed faces need."""


@dataclass
class PrintStyle:
    """One set's print: its fonts, glyph choices and inks."""

    numeral_font: ImageFont.FreeTypeFont
    symbol_font: ImageFont.FreeTypeFont
    five: str
    wan: str
    fa: str
    numeral_ink: tuple
    wan_ink: tuple
    wind_ink: tuple
    dot_inks: tuple  # three inks the dots cycle through
    dot_kind: str  # "rings", "flower" or "disc"; sets drawn unseen: ``UNSEEN_DOTS``
    stick_ink: tuple
    stick_accent: tuple  # the ink of the middle sticks some sets colour apart
    accent_sticks: bool
    white_dragon: str  # "blank", "frame" or "double"
    frame_ink: tuple
    arabic_flowers: bool
    index: str  # "" (no corner index) or the letters of the white, green and red dragons ("PFC" or "WGR")
    glyph_scale: float  # share of its box a character fills
    margin: float  # share of the face left around the print
    stroke: float  # line width of drawn shapes, in face pixels
    stick_kind: str = "jointed"  # sets drawn unseen: ``UNSEEN_STICKS``


class FacePrinter:
    """Faces printed from ``fonts`` (font files holding every glyph of ``REQUIRED``); with ``unseen_drawings``,
    their dots and bamboo drawn as training never draws them (``UNSEEN_DOTS``, ``UNSEEN_STICKS``)."""

    def __init__(self, fonts: list[Path], unseen_drawings: bool = False) -> None:
        if not fonts:
            raise FontError("no font holding the Chinese characters of the tiles")
        self.fonts = list(fonts)
        self.unseen_drawings = unseen_drawings
        self._cache: dict[tuple[Path, int], ImageFont.FreeTypeFont] = {}

    @staticmethod
    def from_folder(folder: Path = DEFAULT_FONT_FOLDER, unseen_drawings: bool = False) -> FacePrinter:
        """A printer with every font below ``folder`` that holds the glyphs of ``REQUIRED``; raises FontError
        (naming the Debian packages to install) where there is none."""
        found = {path.resolve() for path in Path(folder).rglob("*")}  # links (as Debian makes) counted once
        fonts = [path for path in sorted(found) if _usable(path)]
        if not fonts:
            raise FontError(
                f"no font below {folder} holds the tiles' characters ({REQUIRED}); install some, e.g. "
                "`apt-get install fonts-noto-cjk fonts-arphic-ukai fonts-arphic-uming fonts-wqy-zenhei`"
            )
        return FacePrinter(fonts, unseen_drawings)

    def _font(self, path: Path, size: int) -> ImageFont.FreeTypeFont:
        key = (path, size)
        if key not in self._cache:
            self._cache[key] = ImageFont.truetype(str(path), size)
        return self._cache[key]

    def style(self, rng: np.random.Generator) -> PrintStyle:
        """A random print: fonts, glyph variants, inks and drawing styles (the same draws whether the printer
        draws unseen or not)."""
        numeral_path = self.fonts[int(rng.integers(len(self.fonts)))]
        symbol_path = numeral_path if rng.random() < 0.6 else self.fonts[int(rng.integers(len(self.fonts)))]
        numeral_font, symbol_font = self._font(numeral_path, 128), self._font(symbol_path, 128)
        numeral_ink = _ink(rng, INKS[str(rng.choice(["black", "blue", "green"], p=[0.5, 0.35, 0.15]))])
        dot_inks = [_ink(rng, INKS[name]) for name in ("blue", "green", "red")]
        order = rng.permutation(3)
        style = PrintStyle(
            numeral_font=numeral_font,
            symbol_font=symbol_font,
            five="伍" if rng.random() < 0.4 and _has(numeral_font, "伍") else "五",
            wan="万" if rng.random() < 0.15 and _has(symbol_font, "万") else "萬",
            fa="発" if rng.random() < 0.2 and _has(symbol_font, "発") else "發",
            numeral_ink=numeral_ink,
            wan_ink=_ink(rng, RED),
            wind_ink=numeral_ink if rng.random() < 0.6 else _ink(rng, INKS[str(rng.choice(["black", "blue"]))]),
            dot_inks=tuple(dot_inks[i] for i in order),
            dot_kind=str(rng.choice(["rings", "flower", "disc"], p=[0.5, 0.3, 0.2])),
            stick_ink=_ink(rng, GREEN if rng.random() < 0.75 else BLUE),
            stick_accent=_ink(rng, RED if rng.random() < 0.7 else BLUE),
            accent_sticks=bool(rng.random() < 0.6),
            white_dragon=str(rng.choice(["blank", "frame", "double"], p=[0.3, 0.4, 0.3])),
            frame_ink=_ink(rng, BLUE if rng.random() < 0.7 else BLACK),
            arabic_flowers=bool(rng.random() < 0.5),
            index=str(rng.choice(["PFC", "WGR"])) if rng.random() < INDEXED else "",
            glyph_scale=float(rng.uniform(0.8, 1.0)),
            margin=float(rng.uniform(0.06, 0.16)),
            stroke=float(rng.uniform(0.8, 1.3)),
        )
        if self.unseen_drawings:
            style.dot_kind = UNSEEN_DOTS[style.dot_kind]
            style.stick_kind = UNSEEN_STICKS[style.accent_sticks]
        return style

    def face(self, rng: np.random.Generator, code: str, style: PrintStyle) -> np.ndarray:
        """The print of tile ``code`` (not ``1s`` nor ``back``) as RGBA (FACE_H, FACE_W, 4), transparent around it."""
        canvas = Image.new("RGBA", (FACE_W, FACE_H), (0, 0, 0, 0))
        draw = ImageDraw.Draw(canvas)
        m = style.margin
        box = (FACE_W * m, FACE_H * m * 0.8, FACE_W * (1 - m), FACE_H * (1 - m * 0.8))
        number, suit = code[0], code[1]
        red = number == "0"
        n = 5 if red else int(number)
        if style.index and suit != "f":
            x1, y1, x2, y2 = box
            mark = str(n) if suit in "mps" else "ESWN"[n - 1] if n <= 4 else style.index[n - 5]
            _glyph(
                draw,
                mark,
                style.symbol_font,
                (x1 - 0.04 * FACE_W, y1, x1 + 0.12 * FACE_W, y1 + 0.13 * FACE_H),
                style.numeral_ink,
            )
            box = (x1 + 0.1 * FACE_W, y1 + 0.08 * FACE_H, x2, y2)
        if suit == "m":
            self._characters(draw, box, n, red, style)
        elif suit == "p":
            _dots(draw, box, n, red, style)
        elif suit == "s":
            if n == 1:
                raise ValueError("the one of bamboo is a bird: take it from the art or the real faces")
            _sticks(draw, box, n, red, style)
        elif suit == "z":
            self._honour(rng, draw, box, n, style)
        elif suit == "f":
            self._flower(rng, draw, box, n, style)
        else:
            raise ValueError(f"no printed face for {code!r}")
        return np.asarray(canvas)

    def _characters(self, draw: ImageDraw.ImageDraw, box: tuple, n: int, red: bool, style: PrintStyle) -> None:
        x1, y1, x2, y2 = box
        mid = y1 + (y2 - y1) * 0.42
        numeral = style.five if n == 5 else NUMERALS[n - 1]
        ink = RED if red else style.numeral_ink
        _glyph(draw, numeral, style.numeral_font, (x1, y1, x2, mid), ink, style.glyph_scale)
        _glyph(draw, style.wan, style.symbol_font, (x1, mid, x2, y2), style.wan_ink, style.glyph_scale)

    def _honour(
        self, rng: np.random.Generator, draw: ImageDraw.ImageDraw, box: tuple, n: int, style: PrintStyle
    ) -> None:
        if n <= 4:
            _glyph(draw, WINDS[n - 1], style.symbol_font, box, style.wind_ink, style.glyph_scale)
        elif n == 5:
            if style.white_dragon != "blank":
                x1, y1, x2, y2 = box
                width = max(2, int(7 * style.stroke))
                draw.rectangle((x1 + 8, y1 + 8, x2 - 8, y2 - 8), outline=style.frame_ink, width=width)
                if style.white_dragon == "double":
                    inset = 8 + 3 * width
                    draw.rectangle((x1 + inset, y1 + inset, x2 - inset, y2 - inset), outline=style.frame_ink, width=2)
        else:
            ink = _ink(rng, GREEN if n == 6 else RED)
            _glyph(draw, style.fa if n == 6 else "中", style.symbol_font, box, ink, style.glyph_scale)

    def _flower(
        self, rng: np.random.Generator, draw: ImageDraw.ImageDraw, box: tuple, n: int, style: PrintStyle
    ) -> None:
        x1, y1, x2, y2 = box
        w, h = x2 - x1, y2 - y1
        _plant(rng, draw, (x1 + w * 0.1, y1 + h * 0.4, x2 - w * 0.05, y2), style)
        _glyph(draw, FLOWERS[n - 1], style.symbol_font, (x1 + w * 0.35, y1, x2, y1 + h * 0.42), style.wind_ink)
        number = (n - 1) % 4 + 1
        label = str(number) if style.arabic_flowers else NUMERALS[number - 1]
        font = style.numeral_font if not style.arabic_flowers else style.symbol_font
        _glyph(draw, label, font, (x1, y1, x1 + w * 0.32, y1 + h * 0.26), _ink(rng, RED if n <= 4 else BLUE))


def _usable(path: Path) -> bool:
    """Whether ``path`` is a font file holding every glyph of ``REQUIRED``."""
    if path.suffix.lower() not in (".ttf", ".ttc", ".otf") or not path.is_file():
        return False
    try:
        font = ImageFont.truetype(str(path), 48)
    except OSError:
        return False
    return all(_has(font, ch) for ch in REQUIRED)


def _has(font: ImageFont.FreeTypeFont, ch: str) -> bool:
    """Whether ``font`` draws ``ch`` as a glyph of its own (not as its missing-glyph box)."""
    missing = font.getmask("\U0010fffd")
    mask = font.getmask(ch)
    if mask.size == (0, 0) or mask.getbbox() is None:
        return False
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def _ink(rng: np.random.Generator, base: tuple) -> tuple:
    """An ink near ``base``: sets' inks differ a little in tone."""
    return tuple(int(v) for v in np.clip(np.array(base) + rng.normal(0, 14, 3), 0, 255))


def _glyph(
    draw: ImageDraw.ImageDraw, ch: str, font: ImageFont.FreeTypeFont, box: tuple, ink: tuple, fill: float = 1.0
) -> None:
    """``ch`` drawn in ``ink`` centred in ``box`` (x1, y1, x2, y2), ``fill`` times as large as fits."""
    x1, y1, x2, y2 = box
    left, top, right, bottom = font.getbbox(ch)
    gw, gh = max(right - left, 1), max(bottom - top, 1)
    scale = min((x2 - x1) / gw, (y2 - y1) / gh) * fill
    sized = font.font_variant(size=max(8, int(font.size * scale)))
    left, top, right, bottom = sized.getbbox(ch)
    x = (x1 + x2) / 2 - (left + right) / 2
    y = (y1 + y2) / 2 - (top + bottom) / 2
    draw.text((x, y), ch, font=sized, fill=(*ink, 255))


def _dots(draw: ImageDraw.ImageDraw, box: tuple, n: int, red: bool, style: PrintStyle) -> None:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    layout = DOT_LAYOUTS[n]
    radius = {1: 0.44, 2: 0.22, 3: 0.17, 4: 0.2, 5: 0.18}.get(n, 0.14 if n != 9 else 0.135) * w
    for (fx, fy), which in zip(layout, DOT_INKS[n], strict=True):
        _dot(draw, (x1 + fx * w, y1 + fy * h), radius, RED if red else style.dot_inks[which], style)


def _dot(draw: ImageDraw.ImageDraw, centre: tuple, r: float, ink: tuple, style: PrintStyle) -> None:
    cx, cy = centre
    width = max(2, int(r * 0.16 * style.stroke))
    if style.dot_kind in UNSEEN_DOTS.values():
        _unseen_dot(draw, centre, r, ink, width, style.dot_kind)
        return
    if style.dot_kind == "disc":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*ink, 255))
        q = r * 0.35
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=(255, 255, 255, 0))
        return
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(*ink, 255), width=width)
    q = r * 0.62
    if style.dot_kind == "rings":
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), outline=(*ink, 255), width=width)
        q = r * 0.25
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=(*ink, 255))
    else:  # a flower of petals inside the ring
        for k in range(6):
            a = k * math.pi / 3
            px, py = cx + math.cos(a) * q * 0.55, cy + math.sin(a) * q * 0.55
            p = q * 0.42
            draw.ellipse((px - p, py - p, px + p, py + p), outline=(*ink, 255), width=max(1, width // 2))


def _unseen_dot(draw: ImageDraw.ImageDraw, centre: tuple, r: float, ink: tuple, width: int, kind: str) -> None:
    """A dot as training never draws it: ``coin`` (a ring round a square hole), ``sun`` (a disc with rays) or
    ``beads`` (a ring of small discs round one)."""
    cx, cy = centre
    fill = (*ink, 255)
    if kind == "coin":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        q = r * 0.78
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=(255, 255, 255, 0))
        q = r * 0.55
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=fill)
        q = r * 0.22
        draw.rectangle((cx - q, cy - q, cx + q, cy + q), fill=(255, 255, 255, 0))
    elif kind == "sun":
        q = r * 0.42
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=fill)
        for k in range(12):
            a = k * math.pi / 6
            c, s = math.cos(a), math.sin(a)
            draw.line([(cx + c * r * 0.58, cy + s * r * 0.58), (cx + c * r, cy + s * r)], fill=fill, width=width)
    else:  # beads
        for k in range(8):
            a = k * math.pi / 4
            px, py, p = cx + math.cos(a) * r * 0.74, cy + math.sin(a) * r * 0.74, r * 0.24
            draw.ellipse((px - p, py - p, px + p, py + p), fill=fill)
        q = r * 0.3
        draw.ellipse((cx - q, cy - q, cx + q, cy + q), fill=fill)


def _sticks(draw: ImageDraw.ImageDraw, box: tuple, n: int, red: bool, style: PrintStyle) -> None:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    rows = 3 if n in (7, 9) else 2
    length = h / rows * 0.82
    width = w * (0.13 if n < 6 else 0.11)
    layout = STICK_LAYOUTS[n]
    for k, (fx, fy, slant) in enumerate(layout):
        middle = (n in (5, 9) and abs(fx - 0.5) < 0.01) or (n == 7 and k == 0)
        ink = RED if red else style.stick_accent if middle and style.accent_sticks else style.stick_ink
        _stick(draw, (x1 + fx * w, y1 + fy * h), length, width, slant, ink, style)


def _stick(
    draw: ImageDraw.ImageDraw, centre: tuple, length: float, width: float, slant: float, ink: tuple, style: PrintStyle
) -> None:
    """One bamboo stick: a rounded bar with a joint in the middle and at both ends (``style.stick_kind``
    "jointed"), or as training never draws it: a plain rod in two pieces ("rod") or a stem with leaves
    ("leaf")."""
    cx, cy = centre
    c, s = math.cos(slant), math.sin(slant)

    def at(u: float, v: float) -> tuple[float, float]:  # u across, v along the stick
        return cx + u * c - v * s, cy + u * s + v * c

    half, thin = length / 2, width / 2
    fill = (*ink, 255)
    if style.stick_kind == "rod":
        thin *= 0.7
        for v1, v2 in ((-half, -width * 0.12), (width * 0.12, half)):
            draw.polygon([at(-thin, v1), at(thin, v1), at(thin, v2), at(-thin, v2)], fill=fill)
        return
    if style.stick_kind == "leaf":
        stem = max(2, int(width * 0.3))
        draw.line([at(0, -half), at(0, half)], fill=fill, width=stem)
        for v in (-half * 0.6, 0.0, half * 0.6):
            for side in (-1, 1):  # a leaf: a narrow diamond from the stem, up and out
                base, tip = at(0, v), at(side * thin * 1.6, v - width * 0.9)
                mid1, mid2 = at(side * thin * 0.55, v - width * 0.15), at(side * thin * 1.0, v - width * 0.75)
                draw.polygon([base, mid1, tip, mid2], fill=fill)
        return
    outline = [at(-thin, -half), at(thin, -half), at(thin, half), at(-thin, half)]
    draw.polygon(outline, fill=fill)
    for v in (-half, 0.0, half):
        joint = [at(-thin * 1.35, v - width * 0.22), at(thin * 1.35, v - width * 0.22)]
        joint += [at(thin * 1.35, v + width * 0.22), at(-thin * 1.35, v + width * 0.22)]
        draw.polygon(joint, fill=fill)
    line = max(1, int(width * 0.14 * style.stroke))
    draw.line([at(0, -half * 0.8), at(0, -half * 0.2)], fill=(255, 255, 255, 0), width=line)
    draw.line([at(0, half * 0.2), at(0, half * 0.8)], fill=(255, 255, 255, 0), width=line)


def _plant(rng: np.random.Generator, draw: ImageDraw.ImageDraw, box: tuple, style: PrintStyle) -> None:
    """A small plant (stem, leaves, blossoms) in ``box``: the picture of a flower or season tile."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    stem = _ink(rng, GREEN)
    base = (x1 + w * rng.uniform(0.35, 0.65), y2)
    tips = []
    for _ in range(int(rng.integers(2, 5))):
        tip = (x1 + w * rng.uniform(0.1, 0.9), y1 + h * rng.uniform(0.0, 0.5))
        draw.line([base, tip], fill=(*stem, 255), width=max(2, int(4 * style.stroke)))
        mid = ((base[0] + tip[0]) / 2, (base[1] + tip[1]) / 2)
        leaf = w * rng.uniform(0.08, 0.16)
        draw.ellipse((mid[0] - leaf, mid[1] - leaf / 2.5, mid[0] + leaf, mid[1] + leaf / 2.5), fill=(*stem, 255))
        tips.append(tip)
    petal = _ink(rng, RED if rng.random() < 0.6 else BLUE)
    for tx, ty in tips:
        r = w * rng.uniform(0.07, 0.12)
        for k in range(5):
            a = k * 2 * math.pi / 5
            px, py = tx + math.cos(a) * r * 0.8, ty + math.sin(a) * r * 0.8
            draw.ellipse((px - r * 0.6, py - r * 0.6, px + r * 0.6, py + r * 0.6), fill=(*petal, 255))


def to_texture(rgba: np.ndarray, face_color: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A printed face (RGBA) laid on a face of ``face_color`` and reduced to ``size`` (width, height), RGB uint8."""
    alpha = rgba[..., 3:].astype(np.float32) / 255.0
    face = np.empty(rgba.shape[:2] + (3,), np.float32)
    face[:] = face_color
    out = face * (1 - alpha) + rgba[..., :3].astype(np.float32) * alpha
    return cv2.resize(np.clip(out, 0, 255).astype(np.uint8), size, interpolation=cv2.INTER_AREA)

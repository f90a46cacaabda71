"""Synthetic tile layouts for the layout tests: a short text gives the Detections a detector would return.

``scene("123m456p789s1z _ 1z / 555z")``: rows separated by ``/`` (the first is farthest from the player,
the last nearest), ``_`` a gap, tiles in compact notation. A code followed by ``>`` lies sideways; ``>^``
stacks one more sideways tile of that code on it (an added kong); ``back`` is a face-down tile.
``angle`` turns the whole photo clockwise (degrees), ``gap`` is the gap's width in tile widths. Each face's
orientation is its turn rounded to a quarter turn; its turn probabilities share 1 between the two quarter
turns around its turn, the nearer one taking more (a face turned 30 degrees: 2/3 on 0, 1/3 on 90), as the
classifier shares them.
"""

from __future__ import annotations

import math
import re

import numpy as np

from vision.types import CLASS_INDEX, Detections

W, H = 30.0, 40.0
_TOKEN = re.compile(r"_|/|back>?|\d+[mpszf](?:[>^]*)")


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for tok in _TOKEN.findall(text.replace(" ", "")):
        if tok in ("_", "/") or tok.startswith("back"):
            out.append(tok)
            continue
        m = re.fullmatch(r"(\d+)([mpszf])([>^]*)", tok)
        assert m is not None
        digits, suit, marks = m.groups()
        out.extend(d + suit for d in digits[:-1])
        out.append(digits[-1] + suit + marks)
    return out


def scene(text: str, angle: float = 0.0, gap: float = 0.8, row_gap: float = 1.0) -> Detections:
    """The Detections of the layout ``text`` turned by ``angle`` degrees clockwise."""
    rects: list[tuple[float, float, float, float, bool, str]] = []  # cx, cy, w, h, sideways, code
    x, y = 0.0, 0.0
    for tok in _tokens(text):
        if tok == "_":
            x += gap * W
            continue
        if tok == "/":
            x, y = 0.0, y + H * (1 + row_gap)
            continue
        code = tok.rstrip(">^")
        sideways = ">" in tok
        w, h = (H, W) if sideways else (W, H)
        rects.append((x + w / 2, y + H - h / 2, w, h, sideways, code))
        for k in range(1, tok.count("^") + 1):
            rects.append((x + w / 2, y + H - h / 2 - k * (W + 1), w, h, True, code))
        x += w + 1
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    boxes, ids, orient, turns = [], [], [], []
    for cx, cy, w, h, sideways, code in rects:
        rx, ry = 500 + cx * c - cy * s, 500 + cx * s + cy * c
        bw, bh = w * abs(c) + h * abs(s), w * abs(s) + h * abs(c)
        boxes.append((rx - bw / 2, ry - bh / 2, rx + bw / 2, ry + bh / 2))
        ids.append(CLASS_INDEX[code])
        turn = (angle + (90 if sideways else 0)) % 360
        orient.append(round(turn / 90) % 4 * 90)
        below, share = int(turn // 90), (turn % 90) / 90
        probs = np.zeros(4, np.float32)
        probs[below % 4], probs[(below + 1) % 4] = 1 - share, share
        turns.append(probs)
    orientation = np.array(orient, np.int16)
    return Detections(
        np.array(boxes, np.float32).reshape(-1, 4),
        np.full(len(ids), 0.95, np.float32),
        np.array(ids, np.int64),
        np.isin(orientation, (90, 270)),
        orientation,
        turns=np.array(turns, np.float32).reshape(-1, 4),
    )

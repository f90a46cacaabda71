"""Tile codes, tile kinds and the compact (Tenhou style) notation.

A *code* is the text of contracts.md: ``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``, red fives ``0m 0p 0s``,
``1z``..``7z`` (East South West North, White Green Red) and the bonus tiles ``1f``..``8f``.
A *kind* is an integer used by the engine: 0-8 characters, 9-17 dots, 18-26 bamboo, 27-33 honours
(27 East .. 30 North, 31 White, 32 Green, 33 Red) and 34-41 flowers and seasons. A red five has the kind of
its plain five; only its code remembers that it is red.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Final

SUITS: Final = "mps"
NUM_KINDS: Final = 34  # playing tiles: the length of a counts array
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (WHITE, GREEN, RED)
HONOURS: Final = tuple(range(27, 34))
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONOURS: Final = TERMINALS + HONOURS
FLOWER_KINDS: Final = tuple(range(34, 42))

WIND_LETTERS: Final = "ESWN"  # seat_wind / round_wind in the hand JSON

_ZH_HONOURS: Final = "东南西北白发中"
_EN_HONOURS: Final = ("East", "South", "West", "North", "White", "Green", "Red")
_EN_FLOWERS: Final = ("Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn", "Winter")
_EN_SUITS: Final = {"m": "Characters", "p": "Dots", "s": "Bamboo"}

_CODE_RE: Final = re.compile(r"^(?:[0-9][mps]|[1-7]z|[1-8]f)$")
_GROUP_RE: Final = re.compile(r"(\d+)([mpszf])")


class TileError(ValueError):
    """A tile code or compact string that is not a tile. ``code`` is the machine-readable reason."""

    def __init__(self, message: str, code: str = "unknown_tile") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def is_code(text: str) -> bool:
    """True for any code of contracts.md except ``back``."""
    return bool(_CODE_RE.match(text))


@cache  # called for every tile of every hand: parse each code once
def kind(code: str) -> int:
    """The kind (0-41) of a tile code; red fives map to their plain five."""
    if not is_code(code):
        raise TileError(f"unknown tile code {code!r} (expected e.g. 1m, 5p, 0s, 7z, 3f)")
    n, s = int(code[0]), code[1]
    if s == "z":
        return 26 + n
    if s == "f":
        return 33 + n
    return SUITS.index(s) * 9 + (5 if n == 0 else n) - 1


#: The kind of every code (red fives and bonus tiles included): a lookup for the hot paths, same as ``kind``.
KIND_OF: Final[dict[str, int]] = {
    f"{n}{s}": kind(f"{n}{s}")
    for s, top in (("m", 9), ("p", 9), ("s", 9), ("z", 7), ("f", 8))
    for n in range(0 if s in SUITS else 1, top + 1)
}


def code_of(k: int) -> str:
    """The plain code of a kind (never a red five)."""
    if 0 <= k < 27:
        return f"{k % 9 + 1}{SUITS[k // 9]}"
    if 27 <= k < 34:
        return f"{k - 26}z"
    if 34 <= k < 42:
        return f"{k - 33}f"
    raise TileError(f"no tile has kind {k}")


def is_red(code: str) -> bool:
    """True for the red fives 0m, 0p, 0s."""
    return code[0] == "0"


def normal(code: str) -> str:
    """The code with a red five written as its plain five (0p -> 5p)."""
    return "5" + code[1] if code[0] == "0" else code


def suit(k: int) -> int:
    """0, 1, 2 for characters, dots, bamboo; 3 for honours; 4 for flowers."""
    return min(k // 9, 3) if k < 34 else 4


def rank(k: int) -> int:
    """1-9 for number tiles, 0 otherwise."""
    return k % 9 + 1 if k < 27 else 0


def is_honour(k: int) -> bool:
    return 27 <= k < 34


def is_terminal(k: int) -> bool:
    return k < 27 and k % 9 in (0, 8)


def is_terminal_or_honour(k: int) -> bool:
    return is_honour(k) or is_terminal(k)


def is_flower(k: int) -> bool:
    return 34 <= k < 42


def name_en(k: int) -> str:
    """A readable English name: '3 Dots', 'East', 'Plum'."""
    if k < 27:
        return f"{rank(k)} {_EN_SUITS[SUITS[k // 9]]}"
    if k < 34:
        return _EN_HONOURS[k - 27]
    return _EN_FLOWERS[k - 34]


def name_zh(k: int) -> str:
    """The Chinese name: 三万, 五饼, 七条, 东, 中, 梅 ..."""
    if k < 27:
        return "一二三四五六七八九"[k % 9] + "万饼条"[k // 9]
    if k < 34:
        return _ZH_HONOURS[k - 27]
    return "梅兰菊竹春夏秋冬"[k - 34]


def parse_tiles(tiles: str | Iterable[str]) -> list[str]:
    """Codes from a compact string (``"123m44z"``, spaces allowed) or a list of codes or compact pieces.

    Raises TileError naming the bad piece.
    """
    if isinstance(tiles, str):
        return _parse_compact(tiles)
    out: list[str] = []
    for item in tiles:
        if not isinstance(item, str):
            raise TileError(f"a tile must be a string like '3p', not {item!r}")
        out.extend([item] if is_code(item) else _parse_compact(item))
    return out


def _parse_compact(text: str) -> list[str]:
    s = "".join(text.split())
    if not s:
        return []
    out: list[str] = []
    pos = 0
    for m in _GROUP_RE.finditer(s):
        if m.start() != pos:
            raise TileError(f"cannot read {s[pos : m.start()]!r} in {text!r}: write tiles as e.g. 123m456p11z")
        digits, letter = m.groups()
        for d in digits:
            code = d + letter
            if not is_code(code):
                raise TileError(f"unknown tile {code!r} in {text!r}")
            out.append(code)
        pos = m.end()
    if pos != len(s):
        raise TileError(f"cannot read {s[pos:]!r} in {text!r}: digits must end with m, p, s, z or f")
    return out


def to_compact(codes: Iterable[str], sort: bool = False) -> str:
    """Codes in compact notation, grouping runs of one suit: ['1m','2m','5z'] -> '12m5z'."""
    seq = list(codes)
    if sort:
        seq.sort(key=lambda c: (kind(c), c))
    out: list[str] = []
    digits = ""
    letter = ""
    for c in seq:
        if c[1] != letter and digits:
            out.append(digits + letter)
            digits = ""
        digits += c[0]
        letter = c[1]
    if digits:
        out.append(digits + letter)
    return "".join(out)


def counts_of(kinds: Iterable[int]) -> list[int]:
    """A counts array of length 34 for playing-tile kinds."""
    c = [0] * NUM_KINDS
    for k in kinds:
        c[k] += 1
    return c


def next_in_cycle(k: int) -> int:
    """The tile after k in the indicator cycles: 1-9-1 in a suit, E-S-W-N-E, White-Green-Red-White.

    This is the riichi dora cycle (the indicator shows the tile before the dora).
    """
    if k < 27:
        return k - 8 if k % 9 == 8 else k + 1
    if k in WINDS:
        return EAST if k == NORTH else k + 1
    if k in DRAGONS:
        return WHITE if k == RED else k + 1
    raise TileError(f"{code_of(k)} has no next tile: flowers are not in any cycle")

"""From tiles found in a photo to a hand: the concealed row, the exposed melds, the winning tile, the flowers.

``read_layout(detections)`` reads how the tiles lie, whatever the photo's rotation:

1. the row direction is the most common direction between neighbouring tiles (tiles in a row touch
   along their short side); which way is "right" comes from the way the faces are turned (where the picture's
   faces do not agree, those of the longest row: discards lie each their own way), and where they do not agree,
   from the picture's own left to right, unless the other way leaves fewer doubts (a tile set apart on the right,
   as the winning tile is, instead of the left);
2. tiles whose centres lie on one line across that direction form a row (a row in which two neighbours overlap
   by more than half a tile is two rows seen from low down, parted where they lie furthest apart across); the
   concealed row is the one that makes a complete hand's count, or one fewer, with the melds of the other rows (a
   meld counted as 3: a riichi pond of touching discards beside a hand of three melds makes none), then one that
   holds a whole hand's tiles alone (13 or more: a hand of four melds laid in one row), then the one lying nearest
   a row of melds only (a row of melds only is none), then the one with the most tiles in groups of two or more
   that are no meld (a hand's concealed tiles touch, discards strewn beside it lie apart), then in groups that
   are no meld, then the one with the most tiles, then the one nearest the player;
   rows lying more than two tiles across from it with smaller tiles (farther from the camera: the discards,
   another player's tiles), and one or two tiles lying apart across from it, are no part of the hand;
3. inside a row, a gap wider than about a third of a tile sets a group apart; a tile stacked on a
   sideways tile (an added kong) joins the group of the tile under it; neighbouring groups that are no meld
   each but one together, less than a tile apart, are one group (a slanted view, a steep perspective or flat
   tiles beside standing ones open gaps inside melds; of joins with gaps alike, the longer meld), the concealed
   tiles excepted. A tile lying sideways in a row near the picture's axes is as long along it as its box says;
   the others take the share of their box that the row's proportions give;
4. groups set apart, and groups in another row, are exposed melds when they have a meld's shape: 3 tiles in
   a chow (consecutive, one suit) or pung, 4 equal tiles a kong, 4 tiles with face-down ones among equal
   faces a concealed kong. A tile turned sideways marks the claimed tile; its place says from whom: the
   left place from the left, the middle from across, the right place from the right (the riichi
   convention). A tile is turned where it lies sideways in the picture unlike most of its row, its box has
   the shape of a tile so turned, and its face, if its turn is sure, points unlike theirs; in a row running
   near the picture's diagonal, where its face points across the row unlike most of the row's faces;
5. the winning tile is the single tile set apart to the right of the concealed tiles; flowers and seasons
   (``1f``..``8f``) are bonus tiles wherever they lie. Perspective narrows gaps, so two more rules read gaps
   that are not seen: a group set apart to the right of the concealed tiles that is no meld but melds after its
   first tile holds the winning tile and the melds (with a warning), and a meld ending the concealed tiles is
   parted from them by a gap narrower than a third of a tile where that gap is the widest of the row by far
   (``TAIL_GAP``);
6. tiles read face down among more face-up ones, in a group of more tiles than a meld holds (the concealed
   tiles, or tiles counted as concealed because they form no meld), are blank white dragons ``5z`` (a riichi
   set's white dragon is an empty face, which a dark or tinted set, or coloured light, makes look like a back;
   a hand's concealed tiles are not shown face down), each with a warning.

It knows no rule set: only tile counts and meld shapes, and, where the caller knows the table's rules
(``hand_size``: 13, or 16 in Taiwanese rules), how many tiles a complete hand holds; without it, 14 or 17 both
make one. Whatever the layout leaves unclear becomes an entry of
``warnings`` and a best guess (13 tiles, no tile set apart, a group that is no meld, a grid of tiles that is
no hand), never a silent error.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.types import Detections, box_iou

#: A gap between two tiles of a row wider than this fraction of a tile's width sets a group apart.
GAP = 0.35
#: A meld at the right end of the concealed tiles, parted from them by a gap narrower than ``GAP`` (a steep
#: perspective narrows gaps: standing tiles seen from low down overlap in the picture), is still a meld where that
#: gap is at least ``TAIL_GAP`` tiles and more than ``TAIL_RATIO`` times every gap between the tiles left but the
#: winning tile's (``_Reader._tail``). Chosen on the rendered phone photos of hands whose tiles were all read
#: right (``scripts/eval_hands.py``, seeds 777 and 778: the layout read 17 of 913 wrong, 23 without the rule):
#: 0.1 to 0.25 with the ratio 1.0 to 2.0 read the same hands there, 0.3 two fewer; 0.2 and 2.0 keep furthest
#: from the gaps a row's own tiles leave. Of the 2,085 photos of hk-photos (train and valid) and the sample
#: photos, 3 read another hand with it: two tables of every tile laid out (no hand either way) and a hand whose
#: pung of red dragons lies a little apart, laid flat.
TAIL_GAP = 0.2
TAIL_RATIO = 2.0
#: Centres further apart across the row direction than this fraction of a tile's width plus height
#: lie in different rows.
ROW_SPLIT = 0.35
#: Two neighbours of a row overlapping along it by more than this many tiles lie in two rows the split across
#: (``ROW_SPLIT``) did not part: a meld lying flat in front of standing tiles seen from low down, its centres close
#: to theirs across the rows. Such a row is parted at its widest step across, where that step is at least
#: ``PART_STEP`` of a tile's size across and neither part then holds such an overlap (``_Geometry._part_rows``). On
#: the photos of ``MEND_LONGER``, the layout read 29 wrong without it, 22 with overlaps of 0.3 to 0.5 and steps of
#: 0 to 0.15 (23 at 0.7 or 0.2, 26 at a step of 0.3; parting where an overlap is left: the same 22 on those, but
#: 107 instead of 48 real photos read another hand); the test seed the same (225 of 281), the sets printed anew
#: of the test seed 133 of 268 against 132. Of the 2,085 photos of hk-photos, 48 read another hand: their tiles in
#: another order, rows of flowers, tiles scattered on the table, and concealed tiles lying in two rows.
OVERLAP = 0.5
PART_STEP = 0.1
#: Two to four neighbouring groups of a row that form a meld together and none alone are one meld where the
#: gaps between them are under this many tiles (``_Reader._mend``). On rendered phone photos of hands whose
#: tiles were all read right (``scripts/eval_hands.py``, seed 777 and the test seed), 0.5 / 0.75 / 1.0 / 1.5 /
#: 2.0 read the same hands: the gaps inside melds are small, those between melds rarely make a meld; 1.0 keeps
#: groups a tile apart or more as they lie.
MEND_GAP = 1.0
#: Where several joins are open (``_Reader._mend``), each tile more in the joined meld counts as a gap this
#: many tiles narrower: four equal tiles evenly spread are a kong, not a pung and a tile beside it. On rendered
#: phone photos of hands whose tiles were all read right (``scripts/eval_hands.py``; seeds 777, 778, 99, 780,
#: 782, 4242 and the riichi spread, 1,817 photos), with ``SIDEWAYS_BOX``: the layout read 32 wrong with 0, 29 with
#: 0.05 to 0.3 (without ``SIDEWAYS_BOX``, 37 and 33); the test seed and the sets printed anew, 368 photos, 13 with
#: both rules, 14 with neither. No hand of the 2,085 photos of hk-photos changed with it.
MEND_LONGER = 0.1
#: Faces that look alike turned half round in common sets (dots 1 to 5, 8 and 9, bamboo 2, 4 to 6, 8 and 9, the
#: red fives of those suits, the white dragon): the turn the classifier reads on them says nothing of the
#: row's direction. On the upright rows of hk-photos/valid it read most of the dots 2p 3p 4p 8p 9p and the 8s
#: upside down. Leaving them out of the vote, rendered phone photos of hands whose tiles were all read right
#: (``scripts/eval_hands.py``) read the whole hand right 205 -> 211 of 217 (seed 777), 199 -> 206 of 217 (test
#: seed), 212 -> 221 of 225 (seed 99).
HALF_TURN_ALIKE = frozenset(
    {"1p", "2p", "3p", "4p", "5p", "8p", "9p", "0p", "2s", "4s", "5s", "6s", "8s", "9s", "0s", "5z"}
)
#: Where the faces of the picture do not agree on which way the rows run, those of the longest row (the most tiles)
#: decide, where it holds at least this many faces that tell a direction (``_Geometry._orient``): discards strewn
#: beside a hand, each lying its own way, outvoted the hand's rows, and the hand was read from the wrong end. Chosen
#: on rendered phone hands with discards (``render --layout hand --discards``, seeds 555 and 31; hands read right
#: where every tile was), the row then the one holding the most faces: 3, **5** and 8 read 152, **154** and 151 of
#: 204, and 150, **151** and 144 of 190 (148 and 140 without the rule). The row holding the most faces was often a
#: row of discards where the hand's faces were dots and bamboo that look alike turned half round
#: (``HALF_TURN_ALIKE``): the longest row reads seeds 555, 31 and 32 (discards beyond the hand) 212, 214 and 216
#: against 211, 214 and 211 (model card, "A hand laid in one row beside discards, and a riichi pond").
ORIENT_ROW = 5
#: The warning of a layout whose faces do not say which way its rows run, read the other way round than the
#: picture's left to right (or top to bottom) because that leaves fewer doubts (``read_layout``).
UNORIENTED = (
    "the faces do not show which way the row runs: read against the picture's own direction, "
    "the way that leaves fewer doubts"
)
#: Rows running further than this (degrees) from the picture's axes are judged by the faces' turn, not by
#: whether a tile lies sideways in the picture (``_Geometry._sizes``): near the diagonal a tile standing in its
#: row lies as near to sideways in the picture as upright, and the classifier's quarter turns split. Of the
#: photos of hk-photos/train (rows of standing tiles, hardly any turned) whose rows run within 30 degrees of an
#: axis, 20 % to 32 % had a tile taken as turned; between 30 and 40 degrees 58 %, between 40 and 45 91 %.
DIAGONAL = 30.0
#: In rows running within this many degrees of the picture's axes, a tile turned against its row is as long
#: along the row as its box says (its side along that axis, taken back through the row's slant;
#: ``_Geometry._sizes``), not the share of its box a standing tile's proportions give: a sideways tile lying flat,
#: seen from low down or beside standing tiles, is much longer than that, and the gaps beside it looked wide enough
#: to part its meld. On the photos of ``MEND_LONGER`` (with it): 33 read wrong without this rule; up to 3, 5, 9
#: to 20, 24 and 33 degrees 31, 30, 29, 30 and 32. Tiles standing in their rows are better sized by the row's
#: proportions: sized from their own boxes too, 103 wrong (up to 24 degrees), or 37 with the boxes scaled to
#: the steps between tiles (up to 15 degrees). 5 of the 2,085 photos of hk-photos (tables of tiles and scattered
#: discards, no hand) read their tiles in another order with it.
SIDEWAYS_BOX = 15.0
#: A face's turn, the mean of its four quarter turns weighted by their probabilities, says which way the face
#: lies only where that mean is at least this long (of 1): faces alike turned half round, and backs, say nothing.
TURN_SURE = 0.3
#: In rows near the diagonal, a face points across its row where its turn lies more than this many degrees off
#: the row's direction (``_Geometry._faces_across``), not 45: most tiles of a row stand, and a face's turn is
#: read only so well. On hk-photos/train, of the photos whose rows run 30 to 40 degrees off the axes, 25 % had a
#: tile taken as turned with 45 and 13 % with 60; the rendered phone photos read the same hands from 55 to 70.
ACROSS = 60.0
#: A tile's height over its width (``_Geometry._longness``): in a row along a picture's axis, a standing tile's
#: box is this many times as long across the row as along it, a sideways tile's as long along it as across.
TILE_ASPECT = 1.35
#: Two boxes overlapping more than this are two readings of one tile.
DUPLICATE_IOU = 0.7
#: Tiles of a complete hand, a kong counted as 3: 14, or 17 under 16-tile rules.
COMPLETE_SIZES = (14, 17)
#: The tiles of a hand before its winning one that rule sets play with (``read_layout``'s ``hand_size``): 13, or
#: 16 in Taiwanese rules. Knowing it, the concealed row must make that hand's count (or one fewer) with the melds,
#: not either: a riichi pond's last row of 4 or 5 discards beside a hand of four melds makes 16 or 17. Phone
#: photos of hands rendered beside discards (model card, "The table's rules tell the hand's size"), read with
#: 13: strewn seeds 555, 31 and 32 212 -> 213, 214 -> 215 and 216 -> 217, ponds seeds 41 and 42 213 -> 216 and
#: 223 -> 226; the sets without discards and the real photos read the same, and so do 16-tile hands read with 16.
HAND_SIZES = (13, 16)
#: A row lying more than ``FAR_ACROSS`` tiles (the concealed tiles' size, width plus height) across from the
#: concealed row, whose tiles are also smaller than ``FAR_SMALLER`` of theirs (farther from the camera), is no
#: part of the hand: the discards in the middle of the table, or another player's tiles, that a photo taken at
#: the table shows too (``_Reader._set_apart``). A hand's own melds and flowers lie nearer, and as near the
#: camera. Chosen on the photos of hk-photos/train with 13 to 17 labels (their labels box the hand alone): of
#: 1,095, the hand read held exactly the labelled tiles in 777 without the rule, 791 with 2 and 0.8 (2.0 and 2.25
#: with 0.75 to 0.85: 785 to 792; 1.75: 794 to 798; the row's distance alone, 2 to 3 tiles: 780 to 790, and the
#: tiles' size alone, 0.6 to 0.7: 780 to 787), no photo read right before read wrong; on rendered phone photos of
#: hands (the sets of ``MEND_LONGER``) 2 and 0.8 or more change nothing (1.75, or the distance or size alone,
#: lose 1 to 35 hands there). hk-photos/valid, read after (labels mended, ``scripts/hk_valid_errata.py``): one
#: more of its 102 photos with 13 to 17 labels read exactly, none fewer.
FAR_ACROSS = 2.0
FAR_SMALLER = 0.8
#: One or two tiles (flowers aside) lying more than ``FAR_LONE`` tiles across from the concealed row, whatever
#: their size, are no part of the hand either: what a hand lays apart from its row is melds (three or four tiles)
#: and flowers, so they are discards (and the winning tile is looked for nearer). On the photos of ``FAR_ACROSS``:
#: 799 hands read holding exactly the labelled tiles against 791 with 1.5 (1.25 to 1.75: 798 to 799; rows of one
#: tile only: 796), none fewer; the rendered hands the same; hk-photos/valid, read after, one more (89 of 102).
FAR_LONE = 1.5
#: Tiles in no meld beside the concealed row (rows of others, tiles lying alone) that would join the hand as
#: concealed tiles or as its winning tile are left out of it, as the discards, where the concealed row and the melds
#: hold at least this many tiles without them (a kong counted as 3; ``_Reader._leave_out_extra``): what lies beyond a
#: hand's tiles, in no meld, is the discards or another player's tiles. Discards strewn on the table a few tiles from
#: the hand, as large as its tiles, escape ``FAR_ACROSS``, and a photo taken with the phone rolled shows them boxed
#: (model card, "A photo taken with the phone rolled"). Chosen on phone photos of hands rendered with discards
#: strewn beyond them (``render --layout hand --discards --seed 31``): the hand read right in 5 of 280 without the
#: rule, 81 with 14, 155 with 11, 12 or 13; 13, a hand less its winning tile, sheds discards beside a hand read a
#: tile short. Keeping a lone tile as the winning tile where the hand holds 13 and none is set apart read 113.
#: A row holding this many tiles alone (its melds counted as 3 each) is the concealed row before rows nearer the
#: melds or with more tiles touching, where rows tie on the complete hand's count (``_Reader._concealed_weight``): a
#: hand of four melds laid in one row beside discards, two of which touch.
DISCARDS_BEYOND = 13

_BACK = "back"
#: The code a face-down tile among the face-up concealed tiles is read as: the blank face of the white dragon.
BLANK_FACE = "5z"
#: The most white dragons a set holds: more face-down tiles than this among the concealed tiles are no blank
#: faces (a hand seen from behind, say) and are left out.
BLANK_FACES_MAX = 4


@dataclass(frozen=True)
class Group:
    """Tiles that play one part in the hand. role: ``concealed``, ``win``, ``meld``, ``flower``, ``ignored``
    (face-down tiles outside a kong) or ``apart`` (tiles lying far from the hand: ``FAR_ACROSS``); tiles: indices
    into the detections, in reading order; label: a short description for pictures ("pung 666m from across")."""

    role: str
    tiles: tuple[int, ...]
    label: str = ""


@dataclass
class Layout:
    """The hand read from the tiles' layout, the warnings, the groups, the row direction found (a unit
    vector in image pixels pointing to the player's right), and the code of each tile as the hand reads it
    (the detections' codes, a face-down tile among the concealed ones read as ``BLANK_FACE``)."""

    hand: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    direction: tuple[float, float] = (1.0, 0.0)
    codes: list[str] = field(default_factory=list)
    #: the groups of tiles set apart from the concealed tiles, or in another row, that form no meld and were
    #: counted as concealed tiles (indices into the detections)
    no_meld: list[tuple[int, ...]] = field(default_factory=list)

    def left_out(self) -> list[int]:
        """The tiles found that the hand leaves out: face down outside a kong (``ignored``), or lying far from
        the hand (``apart``)."""
        return [i for g in self.groups if g.role in ("ignored", "apart") for i in g.tiles]


def drop_duplicates(detections: Detections, iou: float = DUPLICATE_IOU) -> tuple[Detections, list[str]]:
    """The detections without second readings of one tile (boxes overlapping more than ``iou``: the better
    score is kept), and a warning for each reading dropped."""
    n = len(detections)
    if n < 2:
        return detections, []
    overlap = box_iou(detections.boxes, detections.boxes)
    order = np.argsort(-np.asarray(detections.scores), kind="stable")
    keep: list[int] = []
    warnings: list[str] = []
    codes = detections.codes
    for i in order:
        twin = next((k for k in keep if overlap[i, k] > iou), None)
        if twin is None:
            keep.append(int(i))
        else:
            warnings.append(
                f"two readings of one tile: kept {codes[twin]} ({detections.scores[twin]:.2f}), "
                f"dropped {codes[i]} ({detections.scores[i]:.2f})"
            )
    if len(keep) == n:
        return detections, []
    return detections.subset(np.array(sorted(keep), np.int64)), warnings


def complete_sizes(hand_size: int | None = None) -> tuple[int, ...]:
    """The tiles of a complete hand (a kong counted as 3) for ``hand_size`` (``HAND_SIZES``; None: any of them,
    ``COMPLETE_SIZES``). Raises ValueError for another size."""
    if hand_size is None:
        return COMPLETE_SIZES
    if hand_size not in HAND_SIZES:
        raise ValueError(f"hand_size must be one of {', '.join(map(str, HAND_SIZES))}, not {hand_size}")
    return (hand_size + 1,)


def read_layout(detections: Detections, hand_size: int | None = None) -> Layout:
    """The hand (contracts.md: concealed, melds, win_tile, flowers) that the tiles' layout shows. ``hand_size``:
    the tiles of a hand before its winning one under the table's rules (``HAND_SIZES``; None where they are not
    known: 14 and 17 tiles both make a complete hand). Raises ValueError for another size."""
    sizes = complete_sizes(hand_size)
    if len(detections) == 0:
        return Layout(_hand([], [], None, []), ["no tiles found"])
    geo = _Geometry(detections)
    layout = _Reader(geo, sizes).read()
    if geo.faces_agree:
        return layout
    # the faces do not tell which way the row runs: read the picture's way (left to right, or top to bottom)
    # unless the other way leaves fewer doubts (a tile set apart on the left instead of the right, no tile set
    # apart, a group that is no meld)
    other = _Reader(_Geometry(detections, reverse=True), sizes).read()
    if len(other.warnings) >= len(layout.warnings):
        return layout
    other.warnings.append(UNORIENTED)
    return other


def is_flower(code: str) -> bool:
    """A bonus tile: flowers 1f-4f and seasons 5f-8f."""
    return code.endswith("f")


def plain(code: str) -> str:
    """A red five read as a five (``0p`` -> ``5p``); other codes unchanged."""
    return "5" + code[1] if code[0] == "0" and len(code) == 2 else code


def meld_shape(codes: list[str]) -> str | None:
    """The meld these tiles form: ``chow``, ``pung``, ``kong``, ``concealed_kong`` (equal faces with
    face-down tiles among them) or None."""
    faces = [plain(c) for c in codes if c != _BACK]
    backs = len(codes) - len(faces)
    if any(is_flower(c) for c in faces):
        return None
    if len(codes) == 3 and backs == 0:
        if len(set(faces)) == 1:
            return "pung"
        return "chow" if _is_chow(faces) else None
    if len(codes) == 4 and faces and len(set(faces)) == 1:
        return "kong" if backs == 0 else "concealed_kong"
    return None


def chunk_shape(codes: list[str], stacked: list[bool]) -> str | None:
    """The meld shape of tiles laid side by side (``meld_shape``), ``stacked`` telling those lying on the tile
    before them: a pung with a tile stacked on it is an added kong, and no other meld has one."""
    shape = meld_shape(codes)
    if any(stacked):
        return "added_kong" if shape == "kong" else None
    return shape


def split_melds(codes: list[str], stacked: list[bool] | None = None) -> list[tuple[int, int]] | None:
    """Tiles in their row's order cut into consecutive melds, as the (start, end) of each: 3 or 4 laid tiles plus
    any tile stacked on them (``stacked``: a tile lying on the one before it; none where not given;
    ``chunk_shape``). None where no such cut exists."""
    stacked = stacked if stacked is not None else [False] * len(codes)
    parts: list[list[tuple[int, int]] | None] = [None] * len(codes) + [[]]
    for start in range(len(codes) - 1, -1, -1):
        for size in (3, 4):
            end, laid = start, 0
            while end < len(codes) and laid < size:
                laid += not stacked[end]
                end += 1
            while end < len(codes) and stacked[end]:
                end += 1
            rest = parts[end]
            if laid == size and rest is not None and chunk_shape(codes[start:end], stacked[start:end]) is not None:
                parts[start] = [(start, end), *rest]
                break
    return parts[0]


def _is_chow(faces: list[str]) -> bool:
    if any(c[1] not in "mps" for c in faces) or len({c[1] for c in faces}) != 1:
        return False
    ranks = sorted(int(c[0]) for c in faces)
    return ranks == list(range(ranks[0], ranks[0] + 3))


def compact(codes: list[str]) -> str:
    """Codes in compact notation, runs of one suit grouped: ``['1m', '2m', '5z']`` -> ``12m5z``."""
    out: list[str] = []
    for c in codes:
        if c == _BACK:
            out.append("[back]")
        elif out and not out[-1].startswith("[") and out[-1][-1] == c[1]:
            out[-1] = out[-1][:-1] + c[0] + c[1]
        else:
            out.append(c)
    return "".join(out)


def _hand(concealed: list[str], melds: list[dict[str, Any]], win: str | None, flowers: list[str]) -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds, "win_tile": win, "flowers": flowers}


class _Geometry:
    """Where each tile lies along (``s``) and across (``t``, growing towards the player) the rows, its size
    along the row, whether it is turned against its row, the rows and the tiles stacked on others."""

    def __init__(self, det: Detections, reverse: bool = False) -> None:
        boxes = np.asarray(det.boxes, np.float64).reshape(-1, 4)
        self.n = len(boxes)
        self.centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        self.wh = np.maximum(boxes[:, 2:] - boxes[:, :2], 1e-6)
        self.codes = det.codes
        self.rotated = np.asarray(det.rotated, bool)
        self.orientation = np.asarray(det.orientation, np.float64)
        self.turns = np.asarray(det.turns, np.float64).reshape(-1, 4)
        angle = _row_angle(self.centres)
        for _ in range(2):
            self._project(angle)
            angle += self._tilt()
        self._project(angle)
        self._orient(reverse)
        self._sizes()
        if self._part_rows():
            self._sizes()
        self._stack()

    def _project(self, angle: float) -> None:
        self.u = np.array([math.cos(angle), math.sin(angle)])
        self.v = np.array([-self.u[1], self.u[0]])
        self.s = self.centres @ self.u
        self.t = self.centres @ self.v
        c, s = abs(self.u[0]), abs(self.u[1])
        self.extent = (self.wh[:, 0] + self.wh[:, 1]) / (c + s)
        self.rows = _split_rows(self.t, self.s, ROW_SPLIT * float(np.median(self.extent)))

    def _tilt(self) -> float:
        """The angle by which the rows lean against the current direction (least squares, rows of 3 or more)."""
        slopes, weights = [], []
        for row in self.rows:
            if len(row) >= 3:
                s, t = self.s[row], self.t[row]
                if np.ptp(s) > 0:
                    slopes.append(np.polyfit(s, t, 1)[0])
                    weights.append(len(row))
        if not slopes:
            return 0.0
        return float(math.atan(np.average(slopes, weights=weights)))

    def _orient(self, reverse: bool) -> None:
        """Make ``u`` point to the player's right, by the faces' turn: where at least three in four faces agree
        (a photo taken from across the table shows them upside down; ``faces_agree``), or else three in four of
        the faces of the longest row, where it holds at least ``ORIENT_ROW`` (discards lying each its own way
        outvote no hand); faces that look alike turned half round (``HALF_TURN_ALIKE``) have no say. Else by the
        image's own left to right, or right to left where ``reverse``."""
        faces = [i for i in range(self.n) if self.codes[i] != _BACK and self.codes[i] not in HALF_TURN_ALIKE]
        vote, self.faces_agree = self._vote(faces)
        if not self.faces_agree:
            said = set(faces)
            row = [i for i in max(self.rows, key=len) if i in said]
            if len(row) >= ORIENT_ROW:
                vote, self.faces_agree = self._vote(row)
        if not self.faces_agree:
            vote = (self.u[0] if abs(self.u[0]) > 0.2 else self.u[1]) * (-1 if reverse else 1)
        if vote < 0:
            self._project(math.atan2(-self.u[1], -self.u[0]))

    def _vote(self, faces: list[int]) -> tuple[float, bool]:
        """The faces' say on the row direction (positive: ``u`` points to the player's right) and whether at
        least three in four of them agree."""
        theta = np.radians(self.orientation[faces])
        right = np.stack([np.cos(theta), np.sin(theta)], axis=1) if faces else np.zeros((0, 2))
        along = right @ self.u
        # each face's turn (a quarter turn) says "right" or "left" unless it lies across the row: a row at 45
        # degrees in the picture projects every turn on it at 0.7 at most
        vote = float(np.where(np.abs(along) > 0.3, np.sign(along), 0.0).sum())
        return vote, abs(vote) >= max(0.5, 0.5 * len(faces))

    def _sizes(self) -> None:
        """Each tile's size along the row, from its box, and which tiles lie turned against their row: those
        lying sideways in the picture unlike most of their row, with a box shaped unlike theirs
        (``_longness``) and, where the face's turn is sure, a face pointing unlike theirs (``_faces_across``);
        in rows running near the picture's diagonal (``DIAGONAL``), those whose face points across the row
        unlike most of their row's faces (a face whose turn is unsure lies as most do). A standing tile's size
        along the row is the share of its box the row's proportions give; a turned tile's, in rows near an axis,
        comes from its own box (``SIDEWAYS_BOX``)."""
        self.turned = np.zeros(self.n, bool)
        near_axis = self._off_axis() <= DIAGONAL
        faces, sure = self._faces_across()
        longness, needed = self._longness()
        for row in self.rows:
            pool = list(row if len(row) >= 3 else range(self.n))
            if near_axis:
                unlike = self._unlike(self.rotated, np.ones(self.n, bool), pool)
                turned = [i for i in row if i in unlike]
                rest = [i for i in pool if i not in unlike]
                if rest:
                    # the box must agree: longer along the row than the row's other tiles' (a tile lying
                    # sideways among standing ones), or shorter (one standing among tiles lying sideways)
                    relative = np.abs(np.log(longness / float(np.median(longness[rest]))))
                    turned = [i for i in turned if relative[i] >= math.log(needed)]
                # and so must the face, where its turn is sure
                unlike = self._unlike(faces, sure, pool)
                turned = [i for i in turned if not sure[i] or i in unlike]
            else:
                unlike = self._unlike(faces, sure, pool)
                turned = [i for i in row if i in unlike]
            self.turned[turned] = True
        steps = [
            self.s[b] - self.s[a]
            for row in self.rows
            for a, b in zip(row, row[1:], strict=False)
            if not self.turned[a] and not self.turned[b]
        ]
        upright = self.extent[~self.turned] if (~self.turned).any() else self.extent
        ratio = float(np.median(upright)) / float(np.median(steps)) - 1.0 if len(steps) >= 3 else 1.35
        self.ratio = min(max(ratio, 1.0), 1.8)
        short = self.extent / (1.0 + self.ratio)
        self.along = np.where(self.turned, self.extent - short, short)
        if self._off_axis() <= SIDEWAYS_BOX:
            # a rectangle a along by b across, slanted by x, has a box (a cos x + b sin x) by (a sin x + b cos x)
            ux, uy = abs(self.u[0]), abs(self.u[1])
            side, other = (self.wh[:, 0], self.wh[:, 1]) if ux >= uy else (self.wh[:, 1], self.wh[:, 0])
            boxed = (self.extent + (side - other) / abs(ux - uy)) / 2
            self.along = np.where(self.turned, np.clip(boxed, 0.15 * self.extent, 0.85 * self.extent), self.along)
        self.across = self.extent - self.along

    @staticmethod
    def _unlike(across: np.ndarray, sure: np.ndarray, pool: list[int]) -> set[int]:
        """The ``sure`` tiles of ``pool`` that lie ``across`` unlike most of its sure ones."""
        voters = [i for i in pool if sure[i]]
        majority = bool(voters) and across[voters].mean() > 0.5
        return {i for i in voters if across[i] != majority}

    def _off_axis(self) -> float:
        """How far (degrees, 0 to 45) the rows run from the nearer of the picture's axes."""
        angle = math.degrees(math.atan2(self.u[1], self.u[0])) % 90.0
        return min(angle, 90.0 - angle)

    def _longness(self) -> tuple[np.ndarray, float]:
        """Each box's side along the picture's axis nearer the rows over its other side, and how many times
        a tile turned against its row must differ from its row's: half the way, on a log scale, from a standing
        tile's to a sideways one's, for a tile ``TILE_ASPECT`` times as tall as wide at the rows' angle (a
        standing tile's box has ``standing``, a sideways one's its inverse): 1.35 for rows along an axis, 1.08
        at 30 degrees from it."""
        ux, uy = abs(self.u[0]), abs(self.u[1])
        longness = self.wh[:, 0] / self.wh[:, 1] if ux >= uy else self.wh[:, 1] / self.wh[:, 0]
        c, s = max(ux, uy), min(ux, uy)
        standing = (c + TILE_ASPECT * s) / (s + TILE_ASPECT * c)
        return longness, 1 / standing

    def _faces_across(self) -> tuple[np.ndarray, np.ndarray]:
        """Which faces point across the rows (their turn, the mean of their quarter turns weighted by the
        classifier's probabilities, lies more than ``ACROSS`` degrees off the rows' direction), and which faces'
        turns are sure enough to say (``TURN_SURE``)."""
        right = np.stack([self.turns[:, 0] - self.turns[:, 2], self.turns[:, 1] - self.turns[:, 3]], axis=1)
        across = np.abs(right @ self.v) > math.tan(math.radians(ACROSS)) * np.abs(right @ self.u)
        return across, np.linalg.norm(right, axis=1) >= TURN_SURE

    def _part_rows(self) -> bool:
        """Part each row of four tiles or more (a meld and a tile at least) in which two neighbours overlap along
        it by more than ``OVERLAP`` tiles into two: at its widest step across (at least ``PART_STEP`` of a tile),
        where neither part then holds such an overlap. Whether a row was parted."""
        rows: list[list[int]] = []
        for row in self.rows:
            if len(row) >= 4 and self._overlaps(row):
                by_across = sorted(row, key=lambda i: self.t[i])
                steps = np.diff(self.t[by_across])
                k = int(np.argmax(steps))
                far, near = (  # t grows towards the player
                    sorted(by_across[: k + 1], key=lambda i: self.s[i]),
                    sorted(by_across[k + 1 :], key=lambda i: self.s[i]),
                )
                if steps[k] >= PART_STEP * float(np.median(self.across[row])) and not (
                    self._overlaps(far) or self._overlaps(near)
                ):
                    rows += [far, near]
                    continue
            rows.append(row)
        parted = len(rows) > len(self.rows)
        self.rows = rows
        return parted

    def _overlaps(self, row: list[int]) -> bool:
        """Two neighbours of the row overlap along it by more than ``OVERLAP`` tiles."""
        return any(self.gap(a, b) < -OVERLAP for a, b in zip(row, row[1:], strict=False))

    def _stack(self) -> None:
        """Find sideways tiles lying on other sideways tiles (the fourth tile of an added kong); take each
        out of its row and remember the tile under it."""
        self.stacked_on: dict[int, int] = {}
        turned = [i for i in range(self.n) if self.turned[i]]
        for top in turned:
            for base in turned:
                if top == base or base in self.stacked_on or top in self.stacked_on.values():
                    continue
                ds, dt = abs(self.s[top] - self.s[base]), self.t[base] - self.t[top]
                if ds < 0.5 * self.along[base] and 0.5 * self.across[base] < dt < 1.5 * self.across[base]:
                    self.stacked_on[top] = base
        if self.stacked_on:
            self.rows = [[i for i in row if i not in self.stacked_on] for row in self.rows]
            self.rows = [row for row in self.rows if row]

    def groups(self, row: list[int]) -> list[list[int]]:
        """A row cut at its gaps; each tile stacked on a tile of the row follows it."""
        out: list[list[int]] = [[row[0]]]
        for a, b in zip(row, row[1:], strict=False):
            if self.gap(a, b) > GAP:
                out.append([])
            out[-1].append(b)
        tops = {base: top for top, base in self.stacked_on.items()}
        return [[k for i in g for k in ([i, tops[i]] if i in tops else [i])] for g in out]

    def gap(self, a: int, b: int) -> float:
        """The space between two tiles of a row (``a`` before ``b``), in tiles along the row."""
        need = (self.along[a] + self.along[b]) / 2
        return float((self.s[b] - self.s[a]) - need) / max(float(need), 1e-6)


def _row_angle(centres: np.ndarray) -> float:
    """The most common direction (radians, modulo pi) from each tile to its two nearest neighbours."""
    n = len(centres)
    if n < 2:
        return 0.0
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    k = min(2, n - 1)
    nearest = np.argsort(d, axis=1)[:, :k]
    dist = np.take_along_axis(d, nearest, axis=1)
    vectors = centres[nearest] - centres[:, None]
    weights = (dist <= 1.6 * np.median(dist[:, 0])).astype(np.float64).ravel()
    angles = (np.arctan2(vectors[..., 1], vectors[..., 0]) % math.pi).ravel()
    candidates = np.radians(np.arange(0.0, 180.0, 2.0))
    density = (weights[None] * np.exp(6.0 * (np.cos(2 * (angles[None] - candidates[:, None])) - 1.0))).sum(axis=1)
    best = float(candidates[int(np.argmax(density))])
    diff = (angles - best + math.pi / 2) % math.pi - math.pi / 2
    near = (np.abs(diff) < math.radians(20)) & (weights > 0)
    return best + (float(np.average(diff[near], weights=weights[near])) if near.any() else 0.0)


def _split_rows(t: np.ndarray, s: np.ndarray, threshold: float) -> list[list[int]]:
    """Tiles grouped by their place across the rows (far from the player first), each row ordered along it."""
    order = np.argsort(t, kind="stable")
    rows: list[list[int]] = [[int(order[0])]]
    for a, b in zip(order, order[1:], strict=False):
        if t[b] - t[a] > threshold:
            rows.append([])
        rows[-1].append(int(b))
    return [sorted(row, key=lambda i: s[i]) for row in rows]


@dataclass
class _Meld:
    tiles: list[int]
    json: dict[str, Any]
    label: str


class _Reader:
    """Turns the geometry into the hand, one decision at a time, collecting warnings."""

    def __init__(self, geo: _Geometry, sizes: tuple[int, ...]) -> None:
        self.geo = geo
        #: the tiles a complete hand may hold (``complete_sizes``)
        self.sizes = sizes
        self.codes = geo.codes
        self.warnings: list[str] = []
        self.melds: list[_Meld] = []
        self.concealed: list[int] = []
        self.ignored: list[int] = []
        self.no_meld: list[tuple[int, ...]] = []
        self.win: int | None = None
        self.win_guessed = False
        self.apart: list[int] = []
        #: the warnings (indices into ``warnings``) saying tiles joined the hand as concealed or winning tiles
        self.joining: list[int] = []

    def read(self) -> Layout:
        geo = self.geo
        rows = [row for row in geo.rows if any(not is_flower(self.codes[i]) for i in row)]
        if rows:
            main = self._concealed_row(rows)
            concealed = rows[main]
            self._set_apart(concealed)
            rows = [row for row in rows if row in geo.rows]
            main = rows.index(concealed)
        flowers = [i for row in geo.rows for i in row if is_flower(self.codes[i])]
        flowers += [i for i in geo.stacked_on if is_flower(self.codes[i])]
        if rows:
            lone = self._read_main(rows[main])
            before = (len(self.concealed), self.win, len(self.warnings))
            for r, row in enumerate(rows):
                if r != main:
                    lone += self._read_other(row)
            self._place_lone(lone)
            self._leave_out_extra(*before)
            if self.win is None and not self.win_guessed:
                self._guess_win()
            held = {*self.concealed, *(i for m in self.melds for i in m.tiles), self.win}
            busy = [row for row in rows if sum(i in held for i in row) >= 2]  # discards left out do not count
            if len(busy) >= 3:
                self.warnings.append(
                    f"the tiles lie in {len(busy)} rows; a hand is one row of concealed tiles with its melds "
                    "beside it or in one more row: this may be no hand"
                )
        self._check_counts(flowers)
        hand = _hand(
            [self.codes[i] for i in self.concealed],
            [m.json for m in self.melds],
            self.codes[self.win] if self.win is not None else None,
            [self.codes[i] for i in flowers],
        )
        groups = [Group("concealed", tuple(self.concealed))] if self.concealed else []
        groups += [Group("meld", tuple(m.tiles), m.label) for m in self.melds]
        if self.win is not None:
            groups.append(Group("win", (self.win,), "win " + self.codes[self.win]))
        if flowers:
            groups.append(Group("flower", tuple(flowers), "flowers"))
        if self.ignored:
            groups.append(Group("ignored", tuple(self.ignored), "face down"))
        if self.apart:
            groups.append(Group("apart", tuple(self.apart), "not in the hand"))
        direction = (float(geo.u[0]), float(geo.u[1]))
        return Layout(hand, self.warnings, groups, direction, list(self.codes), self.no_meld)

    # ---- rows ---------------------------------------------------------------------------------------------
    def _set_apart(self, concealed: list[int]) -> None:
        """Take out of the rows those lying far across from the ``concealed`` row with smaller tiles
        (``FAR_ACROSS``, ``FAR_SMALLER``), or holding one or two tiles (``FAR_LONE``), and the tiles stacked on
        theirs: no part of the hand."""
        geo = self.geo
        size = float(np.median(geo.extent[concealed]))
        centre = float(np.median(geo.t[concealed]))

        def far_off(row: list[int]) -> bool:
            away = min(abs(float(geo.t[i]) - centre) for i in row) / size
            faces = sum(not is_flower(self.codes[i]) for i in row)
            smaller = float(np.median(geo.extent[row])) < FAR_SMALLER * size
            return (away > FAR_ACROSS and smaller) or (0 < faces <= 2 and away > FAR_LONE)

        far = [row for row in geo.rows if row is not concealed and far_off(row)]
        if not far:
            return
        self.apart = [i for row in far for i in row]
        self.apart += [top for top, base in geo.stacked_on.items() if base in self.apart]
        geo.rows = [row for row in geo.rows if not any(row is f for f in far)]
        geo.stacked_on = {top: base for top, base in geo.stacked_on.items() if top not in self.apart}
        self.warnings.append(
            f"{_tiles(len(self.apart))} {compact([self.codes[i] for i in self.apart])} lying far from the hand "
            "(the discards, or another player's tiles) left out of it"
        )

    def _read_main(self, row: list[int]) -> list[int]:
        """The concealed row: its core, melds set apart at either side, the winning tile. Returns lone tiles
        it could not place."""
        groups: list[list[int]] = []
        for g in self._groups(row):
            groups.extend(self._peel(g))
        core = self._core(groups)
        if core is not None:
            kept = groups[core]
            groups = self._mend(groups, kept)
            core = next(k for k, g in enumerate(groups) if g is kept)
            after = groups[core + 1] if core + 1 < len(groups) else None
            if after is None or len(after) > 1 or self._marked(after):
                cut = self._tail(kept, row)
                if cut is not None:
                    groups[core : core + 1] = [kept[:cut], kept[cut:]]
                    kept = groups[core]
        lone: list[int] = []
        for k, g in enumerate(groups):
            single = len(g) == 1 and not self._marked(g)
            if k == core:
                self._conceal(g)
            elif single and core is not None and k > core and self.win is None:
                self.win = g[0]
            elif single and core is not None:
                self._conceal(g)
                side = "left" if k < core else "right"
                self.warnings.append(
                    f"{self.codes[g[0]]} is set apart to the {side} of the concealed tiles: counted as concealed"
                )
            elif single:
                lone.append(g[0])
            elif self._add_melds(g):
                continue
            elif core is not None and k > core and self.win is None and self._add_melds_after_win(g):
                self.win = g[0]
                self.warnings.append(
                    f"{self.codes[g[0]]} lies against the meld beside it: took it as the winning tile, "
                    "set apart at the right of the concealed tiles"
                )
            else:
                self._unread(g, "set apart from the concealed tiles")
        return lone

    def _read_other(self, row: list[int]) -> list[int]:
        """A row besides the concealed one: melds. Returns its lone tiles."""
        lone: list[int] = []
        for g in self._mend(self._groups(row)):
            if len(g) == 1 and not self._marked(g):
                lone.append(g[0])
            elif not self._add_melds(g):
                self._unread(g, "in another row")
        return lone

    def _concealed_row(self, rows: list[list[int]]) -> int:
        """Which of ``rows`` is the concealed row: the heaviest by ``_concealed_weight``, the last on a tie."""
        beside = [self._beside(row) for row in rows]
        size = float(np.median(self.geo.extent))
        across = [float(np.median(self.geo.t[row])) for row in rows]
        only = [m for m, (melds, alone) in enumerate(beside) if melds and alone]

        def apart(r: int) -> float:
            """How many tiles across the row lies from the nearest other row of melds only (0 where there is
            none); a row of melds only is no concealed row."""
            if r in only:
                return math.inf
            return round(min((abs(across[r] - across[m]) for m in only), default=0.0) / size)

        melds = sum(m for m, _ in beside)
        return max(
            range(len(rows)),
            key=lambda r: self._concealed_weight(rows[r], melds - beside[r][0], apart(r)) + (r,),
        )

    def _beside(self, row: list[int]) -> tuple[int, bool]:
        """The row read as one beside the concealed row (its groups mended: ``_read_other``): how many melds it
        holds, and whether it holds nothing else that could be concealed tiles (no group that is no meld: face-down
        tiles outside a meld aside)."""
        groups = self._mend(self._groups(row))
        return self._meld_count(groups), not any(self._loose(g) for g in groups)

    def _concealed_weight(self, row: list[int], melds: int, apart: float) -> tuple[bool, bool, float, int, int, int]:
        """How much a row looks like the concealed row, beside rows holding ``melds`` melds and lying ``apart`` tiles
        from the nearest row of melds only (``_concealed_row``): whether it holds a complete hand's tiles with them, or
        one fewer (its groups cut and mended as ``_read_main`` cuts and mends them, a meld touching the concealed tiles
        cut off at its sideways tile: ``_peel``; a meld counted as 3, and so may four of one code among its tiles in no
        meld: a riichi pond of touching discards beside a hand of three melds makes no hand), then whether it holds a
        hand's tiles alone (``DISCARDS_BEYOND`` or more: a hand of four melds laid in one row beside its few concealed
        tiles), then how near it lies to the melds (a hand's concealed tiles lie beside its melds, its discards
        farther), then its tiles in groups of two or more that are no meld (a hand's concealed tiles touch; discards
        strewn beside it lie apart), then its tiles in groups that are no meld, then its tiles."""
        groups = [part for g in self._groups(row) for part in self._peel(g, quiet=True)]
        loose = [g for g in groups if self._loose(g)]
        touching = sum(len(g) for g in loose if len(g) >= 2)
        core = self._core(groups)
        mended = self._mend(groups, groups[core] if core is not None else None)
        own = self._meld_count(mended)
        free = [i for g in mended if self._loose(g) for i in g]
        held = len(free) + 3 * own
        codes = Counter(plain(self.codes[i]) for i in free)
        kongs = sum(n == 4 for n in codes.values())  # four of one code in no meld: a kong held concealed, or not
        counts = (held + 3 * melds, held + 3 * melds - kongs)
        complete = any(n in self.sizes or n + 1 in self.sizes for n in counts)
        whole = held >= DISCARDS_BEYOND
        return complete, whole, -apart, touching, sum(len(g) for g in loose), sum(len(g) for g in groups)

    def _loose(self, g: list[int]) -> bool:
        """The group is no meld: unmarked (or with blank faces: ``_blank_faced``) and no meld's shape."""
        return (not self._marked(g) or self._blank_faced(g)) and self._split(g) is None

    def _meld_count(self, groups: list[list[int]]) -> int:
        """How many melds the groups hold (``_split``)."""
        return sum(len(parts) for g in groups if (parts := self._split(g)) is not None)

    def _groups(self, row: list[int]) -> list[list[int]]:
        """The row's groups without their flowers (cut at gaps with the flowers in place, so that a flower
        taken out leaves no gap)."""
        groups = [[i for i in g if not is_flower(self.codes[i])] for g in self.geo.groups(row)]
        return [g for g in groups if g]

    def _mend(self, groups: list[list[int]], kept: list[int] | None = None) -> list[list[int]]:
        """Neighbouring groups (two to four) that are no meld each but one together, parted by gaps narrower
        than ``MEND_GAP`` tiles, joined, the narrowest gaps first and longer melds before shorter ones
        (``MEND_LONGER``): a slanted view or a steep perspective can open gaps inside a meld. ``kept`` (the
        concealed tiles) is joined to nothing."""
        groups = list(groups)
        known: dict[tuple[int, ...], bool] = {}

        def meld(tiles: list[int]) -> bool:
            key = tuple(tiles)
            if key not in known:
                known[key] = self._split(tiles) is not None
            return known[key]

        while True:
            joins = []
            for k in range(len(groups)):
                for n in (2, 3, 4):
                    run = groups[k : k + n]
                    if len(run) < n or any(g is kept or meld(g) for g in run):
                        break
                    if not meld([i for g in run for i in g]):
                        continue
                    widest = max(self.geo.gap(a[-1], b[0]) for a, b in zip(run, run[1:], strict=False))
                    if widest < MEND_GAP:
                        joins.append((widest - MEND_LONGER * sum(len(g) for g in run), n, k))
            if not joins:
                return groups
            _, n, k = min(joins)
            groups[k : k + n] = [[i for g in groups[k : k + n] for i in g]]

    def _core(self, groups: list[list[int]]) -> int | None:
        """Which group of the concealed row holds the concealed tiles: the largest that no sideways or
        face-down tile marks as a meld (face-down tiles read as blank faces mark nothing: ``_blank_faced``),
        preferring one that cannot be read as melds; the leftmost on a tie."""
        free = [k for k, g in enumerate(groups) if not self._marked(g) or self._blank_faced(g)]
        if not free:
            return None
        loose = [k for k in free if self._loose(groups[k])] or free
        return max(loose, key=lambda k: (len(groups[k]), -k))

    def _leave_out_extra(self, kept: int, win: int | None, said: int) -> None:
        """Leave out of the hand the tiles read after the concealed row (which left ``kept`` concealed tiles, the
        winning tile ``win`` and ``said`` warnings) that joined it as concealed tiles or as the winning tile, in no
        meld, where the concealed row and the melds hold ``DISCARDS_BEYOND`` tiles or more without them (a kong
        counted as 3): the discards."""
        extra = self.concealed[kept:] + ([self.win] if self.win is not None and win is None else [])
        held = len(self.concealed) + (self.win is not None) + 3 * len(self.melds)
        if not extra or held - len(extra) < DISCARDS_BEYOND:
            return
        spoken = {k for k in self.joining if k >= said}  # what was said of them as they joined
        self.warnings = [w for k, w in enumerate(self.warnings) if k not in spoken]
        self.joining = [k for k in self.joining if k < said]
        self.concealed = self.concealed[:kept]
        self.win = win
        self.apart += extra
        self.warnings.append(
            f"{_tiles(len(extra))} {compact([self.codes[i] for i in extra])} lying apart from the hand's rows in no "
            "meld (the discards) left out of it: the hand holds a hand's tiles without them"
        )

    def _place_lone(self, lone: list[int]) -> None:
        for i in lone:
            code = self.codes[i]
            if code == _BACK:
                self.ignored.append(i)
                self.warnings.append("a face-down tile lies outside any kong: left out")
            elif self.win is None:
                self.win = i
                self._say_joined(f"took {code}, lying apart from the rows, as the winning tile")
            else:
                self.concealed.append(i)
                self._say_joined(f"{code} lies apart from the rows: counted as a concealed tile")

    def _say_joined(self, warning: str) -> None:
        """A warning that tiles joined the hand as concealed or winning tiles (``joining``)."""
        self.joining.append(len(self.warnings))
        self.warnings.append(warning)

    def _guess_win(self) -> None:
        faces = [i for i in self.concealed if self.codes[i] != _BACK]
        if not faces:
            self.warnings.append("no winning tile: no concealed tile was found")
            return
        self.win = max(faces, key=lambda i: self.geo.s[i])
        self.concealed.remove(self.win)
        self.warnings.append(f"no tile set apart: took the rightmost tile {self.codes[self.win]} as the winning tile")

    # ---- groups -------------------------------------------------------------------------------------------
    def _marked(self, g: list[int]) -> bool:
        """A sideways, stacked or face-down tile marks a group as declared."""
        return self._laid_sideways(g) or any(self.codes[i] == _BACK for i in g)

    def _laid_sideways(self, g: list[int]) -> bool:
        """A tile of the group lies turned against its row or stacked on another."""
        return any(self.geo.turned[i] or i in self.geo.stacked_on for i in g)

    def _tail(self, g: list[int], row: list[int]) -> int | None:
        """Where a meld at the right end of the concealed tiles ``g`` (of ``row``) begins, parted from them by a
        gap narrower than ``GAP`` (perspective narrows gaps) but at least ``TAIL_GAP`` and wider than every gap
        between the tiles left, but the last one (the winning tile's, which may be set apart too): its index in
        ``g``, or None. Gaps are measured in the row with its flowers, so a flower leaves no gap."""
        place = {i: k for k, i in enumerate(row)}

        def gap_before(i: int) -> float:
            k = place.get(i, 0)
            return self.geo.gap(row[k - 1], i) if k > 0 else 0.0

        for size in (4, 3):
            cut = len(g) - size
            if cut < 1 or self._shape(g[cut:]) is None:
                continue
            parting = gap_before(g[cut])
            inside = [gap_before(i) for i in g[1 : cut - 1]]
            if parting >= TAIL_GAP and parting > TAIL_RATIO * max(inside, default=0.0):
                return cut
        return None

    def _add_melds_after_win(self, g: list[int]) -> bool:
        """Add the melds of a group that is no meld but melds after its first tile, an unmarked one (the winning
        tile set apart at the right of the concealed tiles with no gap seen before the melds beside it:
        perspective narrows the gap); whether it did."""
        return not self._marked(g[:1]) and self._add_melds(g[1:])

    def _peel(self, g: list[int], quiet: bool = False) -> list[list[int]]:
        """A long group with melds laid against its other tiles without a gap (``_touching_melds``): the melds cut
        off, with a warning unless ``quiet``."""
        cut = self._touching_melds(g)
        if cut is None:
            return [g]
        melds, rest, at_end = cut
        if not quiet:
            text = compact([self.codes[i] for i in melds])
            several = len(self._split(melds) or []) > 1
            self.warnings.append(
                f"the melds {text} touch other tiles: cut off at their sideways or face-down tiles"
                if several
                else f"the meld {text} touches other tiles: cut off at its sideways or face-down tile"
            )
        return [rest, melds] if at_end else [melds, rest]

    def _touching_melds(self, g: list[int]) -> tuple[list[int], list[int], bool] | None:
        """Where a long group with a sideways or face-down tile near one end holds melds laid against its other
        tiles (the concealed tiles) without a gap: the meld at that end, the longest meld first (four equal tiles
        ending in the sideways one are a kong, not a pung beside a concealed tile); else the longest run of melds
        at either end, its outermost meld marked, that leaves no marked tile beside it (melds laid touching each
        other and their lone tile, a claimed tile in more than one). Returns (melds, the other tiles, whether the
        melds end the group), or None. Longest first read one hand more on each of seeds 555, 32 and 4242, the
        printed sets and the complete hands of seed 777, where the shortest first was the rule; the runs 6 hands
        more and 1 fewer (a box on no tile read as a back joined a pung as a concealed kong) over the rendered sets
        of the model card's "A meld touching the concealed tiles, weighed cut off"; neither changed a hand of the
        real photos."""
        if len(g) <= 4 or not self._marked(g) or self._split(g) is not None:
            return None
        for size in (5, 4, 3):
            for at_end in (True, False):
                meld, rest = (g[-size:], g[:-size]) if at_end else (g[:size], g[size:])
                if self._marked(meld) and not self._marked(rest) and self._split(meld) is not None:
                    return meld, rest, at_end
        for k in range(1, len(g) - 2):
            for at_end in (True, False):
                melds, rest = (g[k:], g[:k]) if at_end else (g[:-k], g[-k:])
                parts = None if self._marked(rest) else self._split(melds)
                if parts is not None and self._marked(parts[-1] if at_end else parts[0]):
                    return melds, rest, at_end
        return None

    def _split(self, g: list[int]) -> list[list[int]] | None:
        """The group cut into consecutive melds (``split_melds``), or None."""
        spans = split_melds([self.codes[i] for i in g], [i in self.geo.stacked_on for i in g])
        return None if spans is None else [g[start:end] for start, end in spans]

    def _shape(self, chunk: list[int]) -> str | None:
        """The meld shape of a chunk (``chunk_shape``)."""
        return chunk_shape([self.codes[i] for i in chunk], [i in self.geo.stacked_on for i in chunk])

    def _add_melds(self, g: list[int]) -> bool:
        parts = self._split(g)
        if parts is None:
            return False
        for part in parts:
            self.melds.append(self._meld(part))
        return True

    def _meld(self, part: list[int]) -> _Meld:
        shape = self._shape(part)
        assert shape is not None
        codes = [self.codes[i] for i in part]
        faces = [c for c in codes if c != _BACK]
        if shape == "concealed_kong":
            tiles = faces + [plain(faces[0])] * (len(codes) - len(faces))
            return _Meld(part, {"type": "kong", "tiles": tiles, "open": False}, f"kong {compact(tiles)} concealed")
        laid = [i for i in part if i not in self.geo.stacked_on]
        out: dict[str, Any] = {"type": "kong" if shape == "added_kong" else shape, "tiles": codes, "open": True}
        label = f"{out['type']} {compact(codes)}"
        turned = [k for k, i in enumerate(laid) if self.geo.turned[i]]
        if turned:
            place = turned[0]
            out["called"] = self.codes[laid[place]]
            out["from"] = _from(place, len(laid))
            label += f" from {out['from']}"
            if len(turned) > 1:
                self.warnings.append(
                    f"the meld {compact(codes)} has {len(turned)} sideways tiles: took the first as the claimed one"
                )
        if shape == "added_kong":
            out["added"] = True
            label += " added"
        return _Meld(part, out, label)

    def _conceal(self, g: list[int]) -> None:
        self._read_blank_faces(g)
        for i in g:
            if self.codes[i] == _BACK:
                self.ignored.append(i)
                self.warnings.append("a face-down tile among the concealed tiles: left out")
            else:
                self.concealed.append(i)

    def _blank_faced(self, g: list[int]) -> bool:
        """A group of more tiles than a meld holds, none sideways or stacked, with face-down tiles (at most
        ``BLANK_FACES_MAX``) among more face-up ones: concealed tiles, the face-down ones blank faces."""
        backs = sum(self.codes[i] == _BACK for i in g)
        return len(g) > 4 and 0 < backs <= BLANK_FACES_MAX and len(g) - backs > backs and not self._laid_sideways(g)

    def _read_blank_faces(self, g: list[int]) -> None:
        """The face-down tiles of a ``_blank_faced`` group read as ``BLANK_FACE``, each with a warning."""
        if not self._blank_faced(g):
            return
        for i in g:
            if self.codes[i] == _BACK:
                self.codes[i] = BLANK_FACE
                self.warnings.append(
                    f"a face-down tile among the concealed tiles: read as {BLANK_FACE}, the white dragon's blank face"
                )

    def _unread(self, g: list[int], where: str) -> None:
        self._read_blank_faces(g)
        faces = [i for i in g if self.codes[i] != _BACK]
        backs = [i for i in g if self.codes[i] == _BACK]
        self.concealed.extend(faces)
        self.ignored.extend(backs)
        if not faces:
            self.warnings.append(f"{_tiles(len(backs))} face down {where} and in no kong: left out")
            return
        self.no_meld.append(tuple(g))
        text = compact([self.codes[i] for i in g])
        self._say_joined(
            f"the {_tiles(len(g))} {text} {where} form no meld (3 or 4 tiles: chow, pung or kong): "
            "counted as concealed tiles" + (", face-down ones left out" if backs else "")
        )

    # ---- checks -------------------------------------------------------------------------------------------
    def _check_counts(self, flowers: list[int]) -> None:
        held = len(self.concealed) + (self.win is not None) + 3 * len(self.melds)
        kongs = sum(1 for m in self.melds if m.json["type"] == "kong")
        if held not in self.sizes:
            counted = " (a kong counted as 3)" if kongs else ""
            if len(self.sizes) == 1:
                self.warnings.append(f"found {_tiles(held)}{counted}; a complete hand has {self.sizes[0]}")
            else:
                more = " (17 in 16-tile rules)" if held > 14 else ""
                self.warnings.append(f"found {_tiles(held)}{counted}; a complete hand has 14{more}")
        tiles = [self.codes[i] for i in self.concealed] + [c for m in self.melds for c in m.json["tiles"]]
        if self.win is not None:
            tiles.append(self.codes[self.win])
        for code, n in sorted(Counter(plain(c) for c in tiles).items()):
            if n > 4:
                self.warnings.append(f"{n} copies of {code}: a set has 4 (a tile may be misread)")
        for code, n in sorted(Counter(c for c in tiles if c[0] == "0").items()):
            if n > 1:
                self.warnings.append(f"{n} red fives {code}: a set has one")
        for code, n in sorted(Counter(self.codes[i] for i in flowers).items()):
            if n > 1:
                self.warnings.append(f"{n} copies of the bonus tile {code}: a set has one")


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _from(place: int, laid: int) -> str:
    """Who a claimed tile came from, by its place among the meld's laid tiles (0 = leftmost)."""
    if place == 0:
        return "left"
    return "right" if place == laid - 1 else "across"

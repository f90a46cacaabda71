"""A hand or a meld one misread tile short of complete, read with the code that completes it.

A player photographs a hand that has won, and a won hand is complete: four sets and a pair (five sets in
16-tile rules), seven pairs or thirteen orphans. Of the photos of hk-photos/train whose labels box 14 tiles,
737 of 798 hold one. Where the hand read holds as many tiles as a complete hand (a kong counted as 3) but they
make none of those shapes, and changing one face-up tile of the hand to a code the classifiers gave at least
``ALT_MIN`` makes them one, the tile is read with that code: of such changes the one the classifiers found
likeliest, kept only where the layout read again gives a complete hand. The tile's score falls to match (its
detection score times the probability of its new code; under 0.5 it is flagged as unsure), and a warning says
what was changed and why. A hand complete as read, or with a tile too many or too few, is left as it is.

Melds are mended the same way first (``mend_melds``): a group of 3 to 8 tiles set apart from the concealed tiles
(or in another row) that forms no meld, and that changing one face-up tile to a code the classifiers gave at
least ``ALT_MIN`` makes a chow, pung or kong (or two of them side by side), is read so, its likeliest such
change, where the layout read again holds more melds. Photos show melds laid out as they were called, so a group
set apart one likely code from a meld was most often that meld.

A hand one tile short of complete (a tile missed) is not changed; ``one_short`` gives the codes one more tile of
which would complete it, which the recognition names so that the user can add the tile missed.

The shapes are those every rule set here shares (``scoring.decompose``: melds + pair, seven pairs, four equal
tiles counting as two pairs, thirteen orphans); the MCR knitted shapes and the Taiwanese pairs-and-pung are left
out, so a hand of those shapes is never changed into another one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np

from scoring.decompose import Shapes, is_winning, winning_kinds
from scoring.tiles import KIND_OF, NUM_KINDS, code_of
from vision.layout import Layout, compact, complete_sizes, read_layout, split_melds
from vision.types import CLASSES, Detections

#: The least probability the classifiers must have given a code for a tile to be read with it.
ALT_MIN = 0.1
#: The winning shapes a hand read may be completed to.
SHAPES = Shapes(seven_pairs=True, seven_pairs_four=True, thirteen_orphans=True)
#: Changes tried with the layout read again, the likeliest first, before giving up.
MAX_TRIES = 3
#: The tile kinds (1m-9m, 1p-9p, 1s-9s, 1z-7z) and the red fives a tile of the hand may be read as.
_TILE_CLASSES = tuple(i for i, code in enumerate(CLASSES) if code[1] in "mpsz")


def _held(hand: dict[str, Any]) -> int:
    """The tiles a hand holds, a kong counted as 3."""
    return len(hand["concealed"]) + (hand["win_tile"] is not None) + 3 * len(hand["melds"])


def _kinds(hand: dict[str, Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """The counts (34 kinds) of a hand's concealed tiles with the winning tile, and of all its tiles; None where
    a tile is no tile kind (a flower, a face-down tile)."""
    closed = [*hand["concealed"], *([hand["win_tile"]] if hand["win_tile"] is not None else [])]
    every = closed + [code for meld in hand["melds"] for code in meld["tiles"]]
    if any(KIND_OF.get(code, NUM_KINDS) >= NUM_KINDS for code in every):
        return None
    return (
        np.bincount([KIND_OF[code] for code in closed], minlength=NUM_KINDS),
        np.bincount([KIND_OF[code] for code in every], minlength=NUM_KINDS),
    )


def is_complete(hand: dict[str, Any], hand_size: int | None = None) -> bool:
    """True when a hand (recognition JSON) holds a complete hand: the size of one (14, or 17 in 16-tile rules;
    ``hand_size`` 13 or 16 names one: ``vision.layout.complete_sizes``), at most four copies of a tile, and its
    concealed tiles with the winning tile making the sets and pair its melds leave (or seven pairs or thirteen
    orphans)."""
    kinds = _kinds(hand) if _held(hand) in complete_sizes(hand_size) else None
    if kinds is None or kinds[1].max() > 4:
        return False
    return is_winning(kinds[0].tolist(), len(hand["melds"]), SHAPES)


def one_short(hand: dict[str, Any], hand_size: int | None = None) -> list[str]:
    """The codes (plain, in tile order) one more tile of which makes a hand (recognition JSON) one tile short of a
    complete hand (13 tiles, or 16; ``hand_size`` names one; a kong counted as 3) complete, leaving out tiles whose
    four copies are all in it; empty for a hand of another size or that no one tile completes."""
    kinds = _kinds(hand) if _held(hand) + 1 in complete_sizes(hand_size) else None
    if kinds is None:
        return []
    closed, copies = kinds
    return [code_of(k) for k in winning_kinds(closed.tolist(), len(hand["melds"]), SHAPES) if copies[k] < 4]


def complete_hand(
    detections: Detections, layout: Layout, hand_size: int | None = None
) -> tuple[Detections, Layout, list[str]]:
    """The detections and their layout (read with ``hand_size``: ``read_layout``) with one tile of the hand read
    anew where that completes it (module docstring; the layout read again on the detections changed), and the
    warning saying so; unchanged, with no warning, where no such change is found."""
    hand = layout.hand
    if _held(hand) not in complete_sizes(hand_size) or is_complete(hand, hand_size):
        return detections, layout, []
    for i, cls, probability in _changes(detections, layout)[:MAX_TRIES]:
        old = int(detections.class_ids[i])
        changed = _read_as(detections, i, cls, probability)
        again = read_layout(changed, hand_size)
        if is_complete(again.hand, hand_size):
            note = (
                f"the hand was complete with one tile read {CLASSES[cls]} instead of {CLASSES[old]}: read so "
                f"({CLASSES[old]} {float(detections.probs[i, old]):.2f}, {CLASSES[cls]} {probability:.2f}); check it"
            )
            return changed, again, [note]
    return detections, layout, []


def mend_melds(
    detections: Detections, layout: Layout, hand_size: int | None = None
) -> tuple[Detections, Layout, list[str]]:
    """The detections and their layout with one tile of a group that forms no meld read anew where that makes it
    one: of each group of 3 to 8 tiles set apart from the concealed tiles or in another row that the layout
    counted as concealed (``Layout.no_meld``), the change of one face-up tile to a tile code the classifiers gave
    at least ``ALT_MIN`` after which the group is melds side by side (``vision.layout.split_melds``), the
    likeliest such change; kept where the layout read again (with ``hand_size``) holds more melds. The tile's
    score falls as ``complete_hand`` lowers it, and a warning names each change. Unchanged, with no warning, where
    no group is mended."""
    notes: list[str] = []
    for group in list(layout.no_meld):
        change = _meld_change(detections, layout, group) if group in layout.no_meld else None
        if change is None:
            continue
        i, cls, probability = change
        changed = _read_as(detections, i, cls, probability)
        again = read_layout(changed, hand_size)
        if len(again.hand["melds"]) > len(layout.hand["melds"]):
            old = int(detections.class_ids[i])
            notes.append(
                f"the tiles {compact([layout.codes[k] for k in group])} formed no meld; with one tile read "
                f"{CLASSES[cls]} instead of {CLASSES[old]} they make one: read so ({CLASSES[old]} "
                f"{float(detections.probs[i, old]):.2f}, {CLASSES[cls]} {probability:.2f}); check it"
            )
            detections, layout = changed, again
    return detections, layout, notes


def _meld_change(detections: Detections, layout: Layout, group: tuple[int, ...]) -> tuple[int, int, float] | None:
    """The likeliest change of one face-up tile of ``group`` (3 to 8 tiles, in their row's order) to another kind
    of tile, the classifiers giving it at least ``ALT_MIN``, that makes the group melds side by side and leaves no
    fifth copy of a tile in the hand, as (tile, class, probability); None where there is none."""
    if not 3 <= len(group) <= 8:
        return None
    codes = layout.codes
    held = [i for g in layout.groups if g.role in ("concealed", "win", "meld") for i in g.tiles]
    copies = Counter(KIND_OF.get(codes[i]) for i in held)
    best = None
    for i in group:
        if detections.face_down[i]:
            continue
        for cls in _TILE_CLASSES:
            probability = float(detections.probs[i, cls])
            kind = KIND_OF[CLASSES[cls]]
            if probability < ALT_MIN or kind == KIND_OF.get(codes[i]) or copies[kind] >= 4:
                continue
            read = [CLASSES[cls] if k == i else codes[k] for k in group]
            if split_melds(read) is not None and (best is None or probability > best[2]):
                best = (i, cls, probability)
    return best


def _read_as(detections: Detections, i: int, cls: int, probability: float) -> Detections:
    """The detections with tile ``i`` read as class ``cls``, its score its detection score times
    ``probability``."""
    class_ids = np.array(detections.class_ids, np.int64)
    scores = np.array(detections.scores, np.float32)
    scores[i] *= probability / max(float(detections.probs[i, class_ids[i]]), 1e-6)
    class_ids[i] = cls
    return replace(detections, class_ids=class_ids, scores=scores)


def _changes(detections: Detections, layout: Layout) -> list[tuple[int, int, float]]:
    """The changes of one face-up tile of the hand to another kind of tile, the classifiers giving that
    kind (the likelier of a five and its red five) at least ``ALT_MIN``, after which the hand's tiles (each
    meld as three) make a winning shape, as (tile, class, probability), the likeliest first."""
    members = [(g.role, g.tiles) for g in layout.groups if g.role in ("concealed", "win", "meld")]
    shape_tiles = [i for role, tiles in members for i in (tiles[:3] if role == "meld" else tiles)]
    every = [i for _, tiles in members for i in tiles]
    codes = layout.codes
    if any(KIND_OF.get(codes[i], NUM_KINDS) >= NUM_KINDS for i in every):
        return []
    counts = np.bincount([KIND_OF[codes[i]] for i in shape_tiles], minlength=NUM_KINDS)
    copies = np.bincount([KIND_OF[codes[i]] for i in every], minlength=NUM_KINDS)
    out = []
    for i in shape_tiles:
        if detections.face_down[i]:
            continue
        old = KIND_OF[codes[i]]
        best: dict[int, tuple[float, int]] = {}
        for cls in _TILE_CLASSES:
            k = KIND_OF[CLASSES[cls]]
            p = float(detections.probs[i, cls])
            if k != old and p >= ALT_MIN and p > best.get(k, (-1.0, 0))[0]:
                best[k] = (p, cls)
        for k, (p, cls) in best.items():
            if copies[k] >= 4:
                continue
            counts[old] -= 1
            counts[k] += 1
            if is_winning(counts.tolist(), 0, SHAPES):
                out.append((i, cls, p))
            counts[k] -= 1
            counts[old] += 1
    return sorted(out, key=lambda change: -change[2])
